"""The words of the live table message: the embed everyone in the channel sees.

Everything here is built from public snapshots (``TableState``, ``HandOutcome``), so the
channel can never be shown a hole card before showdown: the only cards a seat line shows are
``SeatState.shown_cards``, which the runtime fills at showdown.

Every function takes the reader's ``language`` (the channel's for the table message, the
person's for a private message); English when none is given.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import ENGLISH, Language, Message, Text, tr, tr_c
from bot.i18n.poker import street_name
from bot.tables.notifier import HandOutcome, SeatState, TableState
from engine.cards import Card, cards_str

TABLE_COLOUR = discord.Colour.dark_green()
TABLE_IMAGE_NAME = "table.png"

_BOT_LEVELS = {"easy": tr_c("bot level", "easy"), "medium": tr_c("bot level", "medium"),
               "hard": tr_c("bot level", "hard"), "expert": tr_c("bot level", "expert")}


def chips(amount: int, language: Language = ENGLISH) -> str:
    """Chips as players read them, with the reader's thousands separators: ``"12,500"``."""
    return language.number(amount)


def countdown(timestamp: float) -> str:
    """A moment as Discord shows it to each reader, relative and ticking: ``in 25 seconds``.
    (A function, not an f-string in a ``tr`` call, which Babel's extractor warns about.)"""
    return f"<t:{int(timestamp)}:R>"


def channel_link(channel_id: int) -> str:
    """A channel as Discord shows it: its name, a link to it."""
    return f"<#{channel_id}>"


def plain(text: str) -> str:
    """Text from players (names, and the runtime's lines that quote them) shown as written:
    markdown and masked links in a display name are not rendered."""
    return discord.utils.escape_markdown(text)


def escaped(message: Message) -> Message:
    """``message`` with every string it carries shown as written (see ``plain``): the names
    in a runtime's ``Text`` (``"{name}: fold"``), never the catalog's own markdown."""
    if isinstance(message, str):
        return plain(message)
    return Text(message.msgid, tuple((name, _escaped_value(value))
                                     for name, value in message.params),
                message.plural, message.count, message.context)


def _escaped_value(value: object) -> object:
    if isinstance(value, str | Text):
        return escaped(value)
    if isinstance(value, list | tuple):
        return [_escaped_value(item) for item in value]
    return value


def render_plain(message: Message, language: Language = ENGLISH) -> str:
    """``message`` in ``language``, with the names it quotes shown as written."""
    return language.render(escaped(message))


def cards_text(cards: Sequence[Card]) -> str:
    """Cards with suit symbols, or a dash when there are none."""
    return cards_str(cards, pretty=True) if cards else "—"


def board_text(state: TableState, language: Language = ENGLISH) -> str:
    """The board, or both boards when the hand is run twice."""
    if len(state.boards) > 1:
        return "\n".join(
            language.render(tr("Run {number}: {cards}", number=number, cards=cards_text(board)))
            for number, board in enumerate(state.boards, 1)
        )
    return cards_text(state.board)


def pot_text(state: TableState, language: Language = ENGLISH) -> str:
    """The total in the middle, with the main and side pots when there is more than one."""
    if len(state.pots) <= 1:
        return chips(state.pot_total, language)
    pots: Text = tr("main {amount}", amount=state.pots[0].amount)
    for pot in state.pots[1:]:
        # TRANSLATORS: one more pot in the list of pots: "main 300, side 1,200".
        pots = tr("{pots}, {pot}", pots=pots, pot=tr("side {amount}", amount=pot.amount))
    return language.render(tr("{total} ({pots})", total=state.pot_total, pots=pots))


def _player(seat: SeatState) -> str:
    """A person as a mention (Discord shows their name), a bot by its name, as written."""
    return plain(seat.name) if seat.user_id is None else f"<@{seat.user_id}>"


def seat_line(seat: SeatState, state: TableState, language: Language = ENGLISH) -> str:
    """One seat: marker, name, stack, bet this street and what the player is doing."""
    marker = "▶" if seat.seat == state.to_act_seat else "•"
    name = _player(seat)
    if seat.bot_level:
        level = _BOT_LEVELS.get(seat.bot_level, seat.bot_level)
        name = language.render(tr("{name} (bot, {level})", name=name, level=level))
    parts = [f"{marker} {name}", chips(seat.stack, language)]
    if seat.is_button:
        parts[0] += " 🔘"
    if seat.bet:
        parts.append(language.render(tr("bet {amount}", amount=seat.bet)))
    if seat.shown_cards:
        parts.append(language.render(tr("shows {cards}", cards=cards_text(seat.shown_cards))))
    if seat.folded:
        parts.append(language.render(tr_c("seat", "folded")))
    if seat.all_in:
        parts.append(language.render(tr_c("seat", "all-in")))
    if seat.sitting_out:
        parts.append(language.render(tr_c("seat", "sitting out")))
    if seat.leaving:
        parts.append(language.render(tr_c("seat", "leaving")))
    return " · ".join(parts)


def to_act_text(state: TableState, language: Language = ENGLISH) -> str | None:
    """Whose turn it is, with a countdown Discord renders in each reader's clock and
    language: the turn timer's, then the time bank's once the timer ran out."""
    seat = state.to_act
    if seat is None or not state.is_hand_running:
        return None
    who = _player(seat)
    if state.time_bank_deadline is not None:
        return language.render(tr("{player} to act, using their time bank: {countdown}",
                                  player=who, countdown=countdown(state.time_bank_deadline)))
    if state.to_act_deadline is None:
        return language.render(tr("{player} to act", player=who))
    return language.render(tr("{player} to act, time runs out {countdown}", player=who,
                              countdown=countdown(state.to_act_deadline)))


def _award_text(outcome: HandOutcome, index: int, language: Language) -> str:
    award = outcome.awards[index]
    pot = tr("the main pot") if award.pot_index == 0 \
        else tr("side pot {number}", number=award.pot_index)
    name, amount, run = plain(award.name), award.amount, award.board_index + 1
    hand = escaped(award.hand_name) if award.hand_name is not None else None
    if outcome.ran_twice and hand is not None:
        text = tr("**{name}** wins {amount} from {pot} on run {run} with {hand}", name=name,
                  amount=amount, pot=pot, run=run, hand=hand)
    elif outcome.ran_twice:
        text = tr("**{name}** wins {amount} from {pot} on run {run}", name=name, amount=amount,
                  pot=pot, run=run)
    elif hand is not None:
        text = tr("**{name}** wins {amount} from {pot} with {hand}", name=name, amount=amount,
                  pot=pot, hand=hand)
    else:
        text = tr("**{name}** wins {amount} from {pot}", name=name, amount=amount, pot=pot)
    return language.render(text)


def outcome_text(outcome: HandOutcome, language: Language = ENGLISH) -> str:
    """Who won what in a finished hand, one line per award, shown hands first."""
    lines = [
        language.render(tr(
            "{name} shows {cards} ({hands})", name=plain(shown.name),
            cards=cards_text(shown.cards),
            hands=" / ".join(render_plain(hand, language) for hand in shown.hand_names)))
        for shown in outcome.shown
    ]
    lines += [language.render(tr("{name} shows {cards}", name=plain(shown.name),
                                 cards=cards_text(shown.cards)))
              for shown in outcome.shown_after]  # by the winner without a showdown
    lines += [_award_text(outcome, index, language) for index in range(len(outcome.awards))]
    return "\n".join(lines)


def _blinds(state: TableState) -> Text:
    if state.ante:
        return tr("{small}/{big} ante {ante}", small=state.small_blind, big=state.big_blind,
                  ante=state.ante)
    return tr("{small}/{big}", small=state.small_blind, big=state.big_blind)


def table_embed(
    state: TableState, outcome: HandOutcome | None = None, *, with_image: bool = False,
    language: Language = ENGLISH,
) -> discord.Embed:
    """The live table: stakes, board, pot, seats, whose turn, last action and last result."""
    say = language.render
    if state.is_hand_running and state.street is not None:
        heading = say(tr("Hand #{number} · {street}", number=str(state.hand_number),
                         street=street_name(state.street)))
    else:
        heading = say(tr("Waiting for the next hand")) if len(state.seats) >= 2 \
            else say(tr("Waiting for players: /join to sit down"))
    if state.offline:  # edited through REST while the gateway is down
        heading += "\n" + say(tr("Waiting for Discord: the connection dropped, so every clock "
                                 "is stopped. Play goes on once it is back."))
    embed = discord.Embed(title=say(tr("Texas Hold'em · blinds {blinds}", blinds=_blinds(state))),
                          description=heading, colour=TABLE_COLOUR)
    if state.is_hand_running or state.board:
        embed.add_field(name=say(tr_c("table", "Board")), value=board_text(state, language),
                        inline=True)
        embed.add_field(name=say(tr_c("table", "Pot")), value=pot_text(state, language),
                        inline=True)
    seats = "\n".join(seat_line(seat, state, language) for seat in state.seats) \
        or say(tr("Nobody yet."))
    embed.add_field(name=say(tr("Seats ({seated}/{seats})", seated=len(state.seats),
                                seats=state.max_seats)),
                    value=seats, inline=False)
    turn = to_act_text(state, language)
    if turn:
        embed.add_field(name=say(tr_c("table", "Turn")), value=turn, inline=False)
    if state.last_action:
        embed.add_field(name=say(tr_c("table", "Last action")),
                        value=render_plain(state.last_action, language), inline=False)
    if outcome is not None:
        embed.add_field(
            name=say(tr("Hand #{number} result", number=str(outcome.hand_id))),
            value=outcome_text(outcome, language)[:1024] or "—",
            inline=False,
        )
    if with_image:
        embed.set_image(url=f"attachment://{TABLE_IMAGE_NAME}")
    embed.set_footer(text=say(tr("Your cards come by DM, or press My cards. /help for commands.")))
    return embed


def hole_cards_text(state: TableState, cards: Sequence[Card],
                    language: Language = ENGLISH) -> str:
    """The private message with a player's hole cards."""
    return language.render(tr("Hand #{number} in {channel}: your cards are **{cards}**",
                              number=str(state.hand_number), channel=channel_link(state.channel_id),
                              cards=cards_text(cards)))

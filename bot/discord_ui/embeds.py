"""The words of the live table message: the embed everyone in the channel sees.

Everything here is built from public snapshots (``TableState``, ``HandOutcome``), so the
channel can never be shown a hole card before showdown: the only cards a seat line shows are
``SeatState.shown_cards``, which the runtime fills at showdown.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.tables.notifier import HandOutcome, SeatState, TableState
from engine.actions import Street
from engine.cards import Card, cards_str

TABLE_COLOUR = discord.Colour.dark_green()
TABLE_IMAGE_NAME = "table.png"


def chips(amount: int) -> str:
    """Chips as players read them, with thousands separators: ``"12,500"``."""
    return f"{amount:,}"


def plain(text: str) -> str:
    """Text from players (names, and the runtime's lines that quote them) shown as written:
    markdown and masked links in a display name are not rendered."""
    return discord.utils.escape_markdown(text)


def cards_text(cards: Sequence[Card]) -> str:
    """Cards with suit symbols, or a dash when there are none."""
    return cards_str(cards, pretty=True) if cards else "—"


def board_text(state: TableState) -> str:
    """The board, or both boards when the hand is run twice."""
    if len(state.boards) > 1:
        return "\n".join(
            f"Run {number}: {cards_text(board)}" for number, board in enumerate(state.boards, 1)
        )
    return cards_text(state.board)


def pot_text(state: TableState) -> str:
    """The total in the middle, with the main and side pots when there is more than one."""
    text = chips(state.pot_total)
    if len(state.pots) > 1:
        parts = [f"main {chips(state.pots[0].amount)}"]
        parts += [f"side {chips(pot.amount)}" for pot in state.pots[1:]]
        text += f" ({', '.join(parts)})"
    return text


def seat_line(seat: SeatState, state: TableState) -> str:
    """One seat: marker, name, stack, bet this street and what the player is doing."""
    marker = "▶" if seat.seat == state.to_act_seat else "•"
    name = plain(seat.name) if seat.user_id is None else f"<@{seat.user_id}>"
    if seat.bot_level:
        name += f" (bot, {seat.bot_level})"
    parts = [f"{marker} {name}", chips(seat.stack)]
    if seat.is_button:
        parts[0] += " 🔘"
    if seat.bet:
        parts.append(f"bet {chips(seat.bet)}")
    if seat.shown_cards:
        parts.append(f"shows {cards_text(seat.shown_cards)}")
    parts.extend(word for word, on in (
        ("folded", seat.folded), ("all-in", seat.all_in),
        ("sitting out", seat.sitting_out), ("leaving", seat.leaving),
    ) if on)
    return " · ".join(parts)


def to_act_text(state: TableState) -> str | None:
    """Whose turn it is, with a countdown Discord renders in each reader's clock."""
    seat = state.to_act
    if seat is None or not state.is_hand_running:
        return None
    who = plain(seat.name) if seat.user_id is None else f"<@{seat.user_id}>"
    if state.to_act_deadline is None:
        return f"{who} to act"
    return f"{who} to act, time runs out <t:{int(state.to_act_deadline)}:R>"


def outcome_text(outcome: HandOutcome) -> str:
    """Who won what in a finished hand, one line per award, shown hands first."""
    lines = [
        f"{plain(shown.name)} shows {cards_text(shown.cards)} ({' / '.join(shown.hand_names)})"
        for shown in outcome.shown
    ]
    for award in outcome.awards:
        pot = "the main pot" if award.pot_index == 0 else f"side pot {award.pot_index}"
        run = f" on run {award.board_index + 1}" if outcome.ran_twice else ""
        with_hand = f" with {award.hand_name}" if award.hand_name else ""
        lines.append(
            f"**{plain(award.name)}** wins {chips(award.amount)} from {pot}{run}{with_hand}")
    return "\n".join(lines)


def table_embed(
    state: TableState, outcome: HandOutcome | None = None, *, with_image: bool = False
) -> discord.Embed:
    """The live table: stakes, board, pot, seats, whose turn, last action and last result."""
    if state.is_hand_running and state.street is not None:
        stage = "Showdown" if state.street is Street.SHOWDOWN else state.street.label
        heading = f"Hand #{state.hand_number} · {stage}"
    else:
        heading = "Waiting for the next hand" if len(state.seats) >= 2 \
            else "Waiting for players: /join to sit down"
    blinds = f"{chips(state.small_blind)}/{chips(state.big_blind)}"
    if state.ante:
        blinds += f" ante {chips(state.ante)}"
    embed = discord.Embed(
        title=f"Texas Hold'em · blinds {blinds}", description=heading, colour=TABLE_COLOUR
    )
    if state.is_hand_running or state.board:
        embed.add_field(name="Board", value=board_text(state), inline=True)
        embed.add_field(name="Pot", value=pot_text(state), inline=True)
    seats = "\n".join(seat_line(seat, state) for seat in state.seats) or "Nobody yet."
    embed.add_field(
        name=f"Seats ({len(state.seats)}/{state.max_seats})", value=seats, inline=False
    )
    turn = to_act_text(state)
    if turn:
        embed.add_field(name="Turn", value=turn, inline=False)
    if state.last_action:
        embed.add_field(name="Last action", value=plain(state.last_action), inline=False)
    if outcome is not None:
        embed.add_field(
            name=f"Hand #{outcome.hand_number} result",
            value=outcome_text(outcome)[:1024] or "—",
            inline=False,
        )
    if with_image:
        embed.set_image(url=f"attachment://{TABLE_IMAGE_NAME}")
    embed.set_footer(text="Your cards come by DM, or press My cards. /help for commands.")
    return embed


def hole_cards_text(state: TableState, cards: Sequence[Card]) -> str:
    """The private message with a player's hole cards."""
    return (
        f"Hand #{state.hand_number} in <#{state.channel_id}>: your cards are "
        f"**{cards_text(cards)}**"
    )

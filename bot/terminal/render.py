"""Text drawings of a table, a hand's result and cards, with or without colour.

With colour, suits are symbols (♠♥♦♣, hearts and diamonds in red) and the frame uses box
characters; without colour (a pipe, a dumb terminal, ``NO_COLOR``) everything is plain ASCII
and cards are written ``Ah Kd``.

>>> Style(colour=False).cards((50, 45))
'Ah Kd'
>>> Style(colour=True).card(50)
'\\x1b[1;31mA♥\\x1b[0m'
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TextIO

from bot.i18n import ENGLISH, Language, Message, Text, tr, tr_c
from bot.i18n.poker import street_name
from bot.tables.notifier import HandOutcome, PotState, SeatState, TableState
from bot.terminal.language import clip, display_width, pad
from engine.cards import Card, card_str, pretty_card, suit_of

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
RED = "\x1b[1;31m"
CYAN = "\x1b[36m"
RED_SUITS = frozenset({1, 2})  # diamonds, hearts
NAME_WIDTH = 16


def detect_colour(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """True when ``stream`` is a terminal that can show colour and suit symbols.

    ``NO_COLOR`` (any non-empty value, see no-color.org) and ``TERM=dumb`` turn colour off,
    and so does an encoding that cannot write the suit symbols.
    """
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    if isatty is None or not isatty():
        return False
    try:
        "♠♥♦♣─▶".encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


@dataclass(frozen=True, slots=True)
class Style:
    """How to draw: ANSI colour and symbols, or plain ASCII; and in which language."""

    colour: bool
    language: Language = ENGLISH
    """The language of every word drawn."""

    def say(self, message: Message) -> str:
        """``message`` in the drawing's language."""
        return self.language.render(message)

    def card(self, card: Card) -> str:
        """One card: ``A♥`` in red, or ``Ah``."""
        if not self.colour:
            return card_str(card)
        colour = RED if suit_of(card) in RED_SUITS else BOLD
        return f"{colour}{pretty_card(card)}{RESET}"

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards separated by spaces."""
        return " ".join(self.card(card) for card in cards)

    def strong(self, text: str) -> str:
        """Text that should stand out (the player to act, a win)."""
        return f"{BOLD}{text}{RESET}" if self.colour else text

    def faint(self, text: str) -> str:
        """Text of less interest (folded seats, hints)."""
        return f"{DIM}{text}{RESET}" if self.colour else text

    def rule(self, title: str, width: int = 60) -> str:
        """A header line: ``── title ────`` (``-- title ----`` without colour)."""
        dash = "─" if self.colour else "-"
        head = f"{dash * 2} {title} "
        line = head + dash * max(3, width - display_width(head))
        return f"{CYAN}{line}{RESET}" if self.colour else line

    @property
    def turn_marker(self) -> str:
        """What marks the seat whose turn it is."""
        return "▶" if self.colour else ">"


BOT_LEVELS = {"easy": tr_c("bot level", "easy"), "medium": tr_c("bot level", "medium"),
              "hard": tr_c("bot level", "hard"), "expert": tr_c("bot level", "expert")}


def render_table(
    state: TableState, style: Style, you: int, your_cards: Sequence[Card] = ()
) -> str:
    """The table as a compact block: header, board(s) and pot, one line per seat, last action.

    ``you`` is the local player's user id; ``your_cards`` their hole cards, shown on their
    seat line (other seats show cards only when turned up at showdown).
    """
    say = style.say
    street = (say(street_name(state.street))
              if state.street is not None and state.is_hand_running else None)
    title = say(tr("Hand #{number}", number=str(state.hand_number)) if state.hand_number
                else tr("Table"))
    separator = " · " if style.colour else " | "
    blinds = say(tr("blinds {blinds}", blinds=_blinds(state, style.language)))
    header = separator.join(part for part in (title, street, blinds) if part)
    lines = [style.rule(header)]
    lines.extend(_board_lines(state, style))
    lines.extend(_seat_line(seat, state, style, you, your_cards) for seat in state.seats)
    if state.last_action:
        lines.append(render_last_action(state, style, you))
    return "\n".join(lines)


def render_last_action(state: TableState, style: Style, you: int) -> str:
    """The ``Last: ...`` line of the table (nothing when no action was taken yet)."""
    if not state.last_action:
        return ""
    return style.faint(style.say(tr("Last: {action}", action=_last_action(state, you))))


# The hand history's line (PokerStars format, English whatever the reader's language).
_UNCALLED = re.compile(r"^Uncalled\sbet\s\((\d+)\)\sreturned\sto\s(.+)$", re.MULTILINE)


def uncalled_bets(outcome: HandOutcome, you: int, language: Language = ENGLISH) -> list[str]:
    """``Uncalled bet of 1,500 returned to Pip``, one line per bet no one called, read from
    the hand's history (the only place the outcome records it, in English)."""
    yours = {result.name for result in outcome.results if result.user_id == you}
    return [language.render(
        tr("Uncalled bet of {amount} returned to you", amount=int(amount)) if name in yours
        else tr("Uncalled bet of {amount} returned to {name}", amount=int(amount), name=name))
        for amount, name in _UNCALLED.findall(outcome.history_text)]


def render_outcome(outcome: HandOutcome, style: Style, you: int) -> str:
    """The end of a hand: the board(s), every hand shown with its name, who won what."""
    say = style.say
    lines = [style.rule(say(tr("Hand #{number} result", number=str(outcome.hand_id))))]
    for index, cards in enumerate(outcome.boards):
        label = _board_label(index, outcome.ran_twice, style.language)
        lines.append(_label(label) + (style.cards(cards) if cards else say(tr("(no flop)"))))
    names = {result.seat: _display_name(result.name, result.user_id, you, style.language)
             for result in outcome.results}
    yours = {result.seat for result in outcome.results if result.user_id == you}
    for shown in outcome.shown:
        hand_names = " / ".join(say(hand) for hand in shown.hand_names)
        name = names.get(shown.seat, shown.name)
        lines.append(f"  {pad(name, NAME_WIDTH)} {style.cards(shown.cards)}   {hand_names}")
    for seat in outcome.mucked_seats:
        name = names.get(seat, say(tr("seat {number}", number=str(seat))))
        verb = say(tr_c("you", "muck") if seat in yours else tr("mucks"))
        lines.append(style.faint(f"  {pad(name, NAME_WIDTH)} {verb}"))
    many_pots = len({award.pot_index for award in outcome.awards}) > 1
    for award in outcome.awards:
        pot = _pot_name(award.pot_index) if many_pots else tr("the pot")
        text = (tr("You win {amount} from {pot}", amount=award.amount, pot=pot)
                if award.seat in yours else
                tr("{name} wins {amount} from {pot}", name=names.get(award.seat, award.name),
                   amount=award.amount, pot=pot))
        if outcome.ran_twice:
            text = tr("{award} on board {number}", award=text, number=str(award.board_index + 1))
        if award.hand_name:
            text = tr("{award} with {hand}", award=text, hand=award.hand_name)
        lines.append(style.strong(say(text)))
    result = next((result for result in outcome.results if result.user_id == you), None)
    if result is not None:
        lines.append(say(tr("Your stack: {stack} ({change} this hand)", stack=result.final_stack,
                            change=signed(result.net, style.language))))
    return "\n".join(lines)


def _board_label(index: int, many: bool, language: Language) -> str:
    if many:
        return language.render(tr("Board {number}", number=str(index + 1)))
    return language.render(tr("Board"))


def _label(label: str) -> str:
    """A board's label, padded to the column where its cards start (eight columns, or one
    space more when longer)."""
    return pad(label, max(8, display_width(label) + 1))


def _board_lines(state: TableState, style: Style) -> list[str]:
    say = style.say
    pot = _pot_text(state.pot_total, state.pots, style.language)
    if not state.is_hand_running and not any(state.boards) and not state.board:
        return [_label(say(tr("Board"))) + style.faint(say(tr("waiting for the next hand")))]
    boards = state.boards if len(state.boards) > 1 else (state.board,)
    lines = []
    for index, board in enumerate(boards):
        label = _board_label(index, len(boards) > 1, style.language)
        cards = style.cards(board) if board else style.faint(say(tr("(no cards yet)")))
        lines.append(_label(label) + cards)
    lines[0] += f"    {pot}"
    return lines


def _seat_line(
    seat: SeatState, state: TableState, style: Style, you: int, your_cards: Sequence[Card]
) -> str:
    is_turn = seat.seat == state.to_act_seat and state.is_hand_running
    marker = style.turn_marker if is_turn else " "
    button = "D" if seat.is_button else " "
    name = _display_name(seat.name, seat.user_id, you, style.language)
    if seat.is_bot and seat.bot_level:
        level = BOT_LEVELS.get(seat.bot_level, seat.bot_level)
        name = style.say(tr("{name} ({level})", name=name, level=level))
    status = _seat_status(seat, style.language)
    cards = seat.shown_cards or (tuple(your_cards) if seat.user_id == you else ())
    width = NAME_WIDTH + 9
    line = (f"{marker}{button} {pad(clip(name, width), width)}"
            f"{style.language.number(seat.stack):>8}  {pad(status, 14)}"
            f"{style.cards(cards)}").rstrip()
    if is_turn:
        return style.strong(line)
    return style.faint(line) if seat.folded or seat.sitting_out else line


def _seat_status(seat: SeatState, language: Language) -> str:
    if seat.sitting_out:
        return language.render(tr("sitting out"))
    if not seat.in_hand:
        return language.render(tr("leaving")) if seat.leaving else ""
    if seat.folded:
        return language.render(tr("folded"))
    if seat.all_in:
        return language.render(tr("all-in {amount}", amount=seat.bet) if seat.bet
                               else tr_c("seat", "all-in"))
    return language.render(tr("bet {amount}", amount=seat.bet)) if seat.bet else ""


def _last_action(state: TableState, you: int) -> Message:
    """The last action, with the local player's name written as "You"."""
    text = state.last_action or ""
    mine = state.seat_of(you)
    if mine is None:
        return text
    if isinstance(text, Text):
        return _named_you(text, mine.name)
    if text.startswith(f"{mine.name}: "):
        return "You" + text[len(mine.name):]
    return text


def _named_you(text: Text, name: str) -> Text:
    """``text`` with the placeholder ``name`` (in it or in a message it contains) holding
    ``name`` replaced by "You"."""
    params = tuple(
        (key, YOU if key == "name" and value == name
         else _named_you(value, name) if isinstance(value, Text) else value)
        for key, value in text.params)
    return Text(text.msgid, params, text.plural, text.count, text.context)


YOU = tr_c("player", "You")
"""How the table names the local player."""


def _display_name(name: str, user_id: int | None, you: int, language: Language) -> str:
    return language.render(YOU) if user_id == you else name


def _pot_text(total: int, pots: Sequence[PotState], language: Language) -> str:
    if len(pots) <= 1:
        return language.render(tr("Pot {amount}", amount=total))
    separator = language.render(tr_c("list separator", ", "))
    parts = separator.join(
        language.render(tr("main {amount}", amount=pot.amount) if index == 0
                        else tr("side {number} {amount}", number=str(index), amount=pot.amount))
        for index, pot in enumerate(pots)
    )
    return language.render(tr("Pot {amount} ({pots})", amount=total, pots=parts))


def _pot_name(index: int) -> Text:
    return tr("the main pot") if index == 0 else tr("side pot {number}", number=str(index))


def _blinds(state: TableState, language: Language) -> str:
    text = f"{language.number(state.small_blind)}/{language.number(state.big_blind)}"
    if state.ante:
        return language.render(tr("{blinds} ante {ante}", blinds=text, ante=state.ante))
    return text


def signed(amount: int, language: Language = ENGLISH) -> str:
    """``amount`` with its sign: ``+160``, ``-60``, ``0``."""
    return f"+{language.number(amount)}" if amount > 0 else language.number(amount)

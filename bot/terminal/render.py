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

from bot.tables.notifier import HandOutcome, PotState, SeatState, TableState
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
    """How to draw: ANSI colour and symbols, or plain ASCII."""

    colour: bool

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
        return f"{CYAN}{head}{dash * max(3, width - len(head))}{RESET}" if self.colour \
            else head + dash * max(3, width - len(head))

    @property
    def turn_marker(self) -> str:
        """What marks the seat whose turn it is."""
        return "▶" if self.colour else ">"


def render_table(
    state: TableState, style: Style, you: int, your_cards: Sequence[Card] = ()
) -> str:
    """The table as a compact block: header, board(s) and pot, one line per seat, last action.

    ``you`` is the local player's user id; ``your_cards`` their hole cards, shown on their
    seat line (other seats show cards only when turned up at showdown).
    """
    street = state.street.label if state.street is not None and state.is_hand_running else None
    title = f"Hand #{state.hand_number}" if state.hand_number else "Table"
    separator = " · " if style.colour else " | "
    header = separator.join(part for part in (title, street, f"blinds {_blinds(state)}") if part)
    lines = [style.rule(header)]
    lines.extend(_board_lines(state, style))
    lines.extend(_seat_line(seat, state, style, you, your_cards) for seat in state.seats)
    if state.last_action:
        lines.append(render_last_action(state, style, you))
    return "\n".join(lines)


def render_last_action(state: TableState, style: Style, you: int) -> str:
    """The ``Last: ...`` line of the table (nothing when no action was taken yet)."""
    return style.faint(f"Last: {_last_action(state, you)}") if state.last_action else ""


_UNCALLED = re.compile(r"^Uncalled bet \((\d+)\) returned to (.+)$", re.MULTILINE)


def uncalled_bets(outcome: HandOutcome, you: int) -> list[str]:
    """``Uncalled bet of 1,500 returned to Pip``, one line per bet no one called, read from
    the hand's history (the only place the outcome records it)."""
    names = {result.name: "you" if result.user_id == you else result.name
             for result in outcome.results}
    return [f"Uncalled bet of {int(amount):,} returned to {names.get(name, name)}"
            for amount, name in _UNCALLED.findall(outcome.history_text)]


def render_outcome(outcome: HandOutcome, style: Style, you: int) -> str:
    """The end of a hand: the board(s), every hand shown with its name, who won what."""
    lines = [style.rule(f"Hand #{outcome.hand_number} result")]
    for index, cards in enumerate(outcome.boards):
        label = f"Board {index + 1}" if outcome.ran_twice else "Board"
        lines.append(f"{label:<8}{style.cards(cards) if cards else '(no flop)'}")
    names = {result.seat: _display_name(result.name, result.user_id, you)
             for result in outcome.results}
    for shown in outcome.shown:
        hand_names = " / ".join(shown.hand_names)
        name = names.get(shown.seat, shown.name)
        lines.append(f"  {name:<{NAME_WIDTH}} {style.cards(shown.cards)}   {hand_names}")
    for seat in outcome.mucked_seats:
        name = names.get(seat, f"seat {seat}")
        lines.append(style.faint(f"  {name:<{NAME_WIDTH}} {'muck' if name == 'You' else 'mucks'}"))
    many_pots = len({award.pot_index for award in outcome.awards}) > 1
    for award in outcome.awards:
        name = names.get(award.seat, award.name)
        verb = "win" if name == "You" else "wins"
        pot = _pot_name(award.pot_index) if many_pots else "the pot"
        board = f" on board {award.board_index + 1}" if outcome.ran_twice else ""
        how = f" with {award.hand_name}" if award.hand_name else ""
        lines.append(style.strong(f"{name} {verb} {award.amount:,} from {pot}{board}{how}"))
    yours = next((result for result in outcome.results if result.user_id == you), None)
    if yours is not None:
        lines.append(f"Your stack: {yours.final_stack:,} ({_signed(yours.net)} this hand)")
    return "\n".join(lines)


def _board_lines(state: TableState, style: Style) -> list[str]:
    pot = _pot_text(state.pot_total, state.pots)
    if not state.is_hand_running and not any(state.boards) and not state.board:
        return [f"{'Board':<8}{style.faint('waiting for the next hand')}"]
    boards = state.boards if len(state.boards) > 1 else (state.board,)
    lines = []
    for index, board in enumerate(boards):
        label = f"Board {index + 1}" if len(boards) > 1 else "Board"
        cards = style.cards(board) if board else style.faint("(no cards yet)")
        lines.append(f"{label:<8}{cards}")
    lines[0] += f"    {pot}"
    return lines


def _seat_line(
    seat: SeatState, state: TableState, style: Style, you: int, your_cards: Sequence[Card]
) -> str:
    is_turn = seat.seat == state.to_act_seat and state.is_hand_running
    marker = style.turn_marker if is_turn else " "
    button = "D" if seat.is_button else " "
    name = _display_name(seat.name, seat.user_id, you)
    if seat.is_bot and seat.bot_level:
        name = f"{name} ({seat.bot_level})"
    status = _seat_status(seat)
    cards = seat.shown_cards or (tuple(your_cards) if seat.user_id == you else ())
    line = (f"{marker}{button} {name[:NAME_WIDTH + 9]:<{NAME_WIDTH + 9}}"
            f"{seat.stack:>8,}  {status:<14}{style.cards(cards)}").rstrip()
    if is_turn:
        return style.strong(line)
    return style.faint(line) if seat.folded or seat.sitting_out else line


def _seat_status(seat: SeatState) -> str:
    if seat.sitting_out:
        return "sitting out"
    if not seat.in_hand:
        return "leaving" if seat.leaving else ""
    if seat.folded:
        return "folded"
    if seat.all_in:
        return f"all-in {seat.bet:,}" if seat.bet else "all-in"
    return f"bet {seat.bet:,}" if seat.bet else ""


def _last_action(state: TableState, you: int) -> str:
    """The last action, with the local player's name written as "You"."""
    text = state.last_action or ""
    mine = state.seat_of(you)
    if mine is not None and text.startswith(f"{mine.name}: "):
        return "You" + text[len(mine.name):]
    return text


def _display_name(name: str, user_id: int | None, you: int) -> str:
    return "You" if user_id == you else name


def _pot_text(total: int, pots: Sequence[PotState]) -> str:
    if len(pots) <= 1:
        return f"Pot {total:,}"
    parts = ", ".join(
        f"{'main' if index == 0 else f'side {index}'} {pot.amount:,}"
        for index, pot in enumerate(pots)
    )
    return f"Pot {total:,} ({parts})"


def _pot_name(index: int) -> str:
    return "the main pot" if index == 0 else f"side pot {index}"


def _blinds(state: TableState) -> str:
    text = f"{state.small_blind:,}/{state.big_blind:,}"
    return f"{text} ante {state.ante:,}" if state.ante else text


def _signed(amount: int) -> str:
    return f"+{amount:,}" if amount > 0 else f"{amount:,}"

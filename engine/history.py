"""Finished hands as PokerStars-style hand histories, for the usual poker tracking tools.

A history is written once with every hole card (``hero=None``) and kept; ``visible_to`` then
gives each reader their version. Player names are written on one line each (line breaks and
control characters become spaces), so every line of the text is where the format puts it and
a reader's version is cut by position, never by matching names.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import datetime
from typing import assert_never

from engine.actions import ActionKind, Street
from engine.cards import Card, cards_str
from engine.events import (
    Acted,
    Forced,
    HoleCardsDealt,
    Mucked,
    Posted,
    RunItTwiceChosen,
    Showed,
    StreetDealt,
    UncalledBetReturned,
    Won,
)
from engine.hand import Hand
from engine.view import ActionRecord

_RUN_NAMES = ("FIRST", "SECOND")
_POSTS = {
    Forced.ANTE: "posts the ante",
    Forced.SMALL_BLIND: "posts small blind",
    Forced.BIG_BLIND: "posts big blind",
    Forced.STRADDLE: "posts straddle",
}


def format_hand_history(
    hand: Hand,
    *,
    hand_id: int | str,
    table_name: str,
    player_names: Sequence[str],
    started_at: datetime,
    hero: int | None = None,
) -> str:
    """The finished ``hand`` as PokerStars-style text.

    ``hero`` is the seat whose hole cards are listed under HOLE CARDS, and the only mucked hand
    whose cards are written; ``None`` writes everyone's (for audits and replays). Seats are
    numbered from 1 in the text. Raises ``ValueError`` for an unfinished hand or a wrong
    number of names.
    """
    if not hand.is_over:
        raise ValueError("only a finished hand has a history")
    if len(player_names) != hand.num_seats:
        raise ValueError(f"need {hand.num_seats} player names, got {len(player_names)}")
    player_names = [_one_line(name) for name in player_names]
    writer = _HistoryWriter(hand, player_names)
    lines = [
        f"PokerStars Hand #{hand_id}: Hold'em No Limit ({hand.small_blind}/{hand.big_blind})"
        f" - {started_at:%Y/%m/%d %H:%M:%S} {started_at.tzname() or 'UTC'}",
        f"Table '{table_name}' {max(hand.num_seats, 2)}-max Seat #{hand.button + 1} is the button",
    ]
    lines += [
        f"Seat {seat + 1}: {name} ({hand.starting_stacks[seat]} in chips)"
        for seat, name in enumerate(player_names)
    ]
    lines += writer.body(hero)
    lines += writer.summary(hero)
    return "\n".join(lines) + "\n"


def visible_to(history: str, num_seats: int, seat: int | None) -> str:
    r"""``history`` (written by ``format_hand_history`` with ``hero=None``, for ``num_seats``
    players) as the player in ``seat`` may read it: their own hole cards and the cards shown (at
    showdown, or by a winner without one), nobody else's. ``seat`` counts from 0 (the text's
    "Seat 1"); ``None`` is a reader who was not dealt in.

    The hole cards are the ``num_seats`` lines after ``*** HOLE CARDS ***`` and the mucked
    cards end the last ``num_seats`` lines, both in seat order: they are found by position.

    >>> text = "*** HOLE CARDS ***\nDealt to ann [Ah Kd]\nDealt to bo [2c 2d]\nann: folds\n" \
    ...        "*** SUMMARY ***\nSeat 1: ann folded before Flop\nSeat 2: bo mucked [2c 2d]\n"
    >>> print(visible_to(text, 2, 0), end="")
    *** HOLE CARDS ***
    Dealt to ann [Ah Kd]
    ann: folds
    *** SUMMARY ***
    Seat 1: ann folded before Flop
    Seat 2: bo mucked
    """
    lines = history.split("\n")
    ending = lines.pop() if lines and not lines[-1] else None
    start = lines.index("*** HOLE CARDS ***") + 1
    dealt = lines[start:start + num_seats]
    summary = len(lines) - num_seats
    kept = lines[:start] + [line for index, line in enumerate(dealt) if index == seat]
    kept += lines[start + num_seats:summary]
    kept += [line if index == seat else _MUCKED_CARDS.sub(" mucked", line)
             for index, line in enumerate(lines[summary:])]
    return "\n".join(kept + ([ending] if ending is not None else []))


_MUCKED_CARDS = re.compile(r" mucked \[[^\]]*\]$")
_LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def _one_line(name: str) -> str:
    """``name`` with line breaks and control characters as spaces, so it stays on its line."""
    return "".join(" " if char in _LINE_BREAKS or unicodedata.category(char) == "Cc" else char
                   for char in name)


class _HistoryWriter:
    """Turns a finished hand's events into the lines of its history.

    What several lines need (each seat's winnings, its showdown entry, where it folded) is
    gathered once here, not searched for line by line.
    """

    def __init__(self, hand: Hand, names: Sequence[str]) -> None:
        result = hand.result
        assert result is not None
        self.hand = hand
        self.names = names
        self.result = result
        self.events = hand.events
        self.boards = hand.boards
        self.shown = {entry.seat: entry for entry in result.showdown}
        self.won = [0] * hand.num_seats
        for award in result.awards:
            for winner, share in zip(award.winners, award.shares, strict=True):
                self.won[winner] += share
        self.one_pot = len({award.pot for award in result.awards}) == 1
        self.folded_on: dict[int, Street] = {}
        self.put_in = {event.seat for event in self.events if isinstance(event, Posted)}
        for record in hand.history:
            if record.kind is ActionKind.FOLD:
                self.folded_on[record.seat] = record.street
            elif record.added:
                self.put_in.add(record.seat)

    def body(self, hero: int | None) -> list[str]:
        hand, names, boards = self.hand, self.names, self.boards
        lines: list[str] = []
        add = lines.append
        hole_cards_written = showdown_started = run_twice = False
        facing = 0
        for event in self.events:
            if not hole_cards_written and not isinstance(event, Posted):
                hole_cards_written = True
                add("*** HOLE CARDS ***")
                seats = range(hand.num_seats) if hero is None else [hero]
                lines += [f"Dealt to {names[seat]} [{cards_str(hand.hole_cards(seat))}]"
                          for seat in seats]
            match event:
                case Posted(seat=seat, forced=forced, amount=amount):
                    if forced is not Forced.ANTE:
                        facing = max(facing, amount)
                    add(f"{names[seat]}: {_POSTS[forced]} {amount}"
                        + (" and is all-in" if event.is_all_in else ""))
                case HoleCardsDealt():
                    pass  # listed once, under HOLE CARDS above
                case Acted(record=record):
                    add(f"{names[record.seat]}: {_describe(record, facing)}")
                    facing = max(facing, record.to)
                case StreetDealt():
                    facing = 0
                    add(_street_line(event, boards[event.run], run_twice))
                case RunItTwiceChosen(agreed=agreed):
                    run_twice = agreed
                case UncalledBetReturned(seat=seat, amount=amount):
                    add(f"Uncalled bet ({amount}) returned to {names[seat]}")
                case Showed(seat=seat, cards=cards) if seat not in self.shown:
                    add(f"{names[seat]}: shows [{cards_str(cards)}]")  # won without showdown
                case Showed() | Mucked():
                    if not showdown_started:
                        showdown_started = True
                        add("*** SHOW DOWN ***")
                    if isinstance(event, Showed):
                        add(f"{names[event.seat]}: shows [{cards_str(event.cards)}]"
                            f" ({' - '.join(self.shown[event.seat].hand_names)})")
                    else:
                        add(f"{names[event.seat]}: mucks hand")
                case Won(seat=seat, amount=amount, pot=pot, run=run):
                    add(f"{names[seat]} collected {amount} from {self._pot_name(pot, run)}")
                case _:
                    assert_never(event)
        return lines

    def _pot_name(self, pot: int, run: int) -> str:
        name = "pot" if self.one_pot else "main pot" if pot == 0 else f"side pot-{pot}"
        return f"{name} ({_RUN_NAMES[run].lower()} board)" if len(self.boards) > 1 else name

    def summary(self, hero: int | None) -> list[str]:
        hand, result = self.hand, self.result
        total = sum(award.amount for award in result.awards)
        by_pot: dict[int, int] = {}
        for award in result.awards:
            by_pot[award.pot] = by_pot.get(award.pot, 0) + award.amount
        pot_line = f"Total pot {total}"
        if len(by_pot) > 1:
            pot_line += f" Main pot {by_pot[0]}." + "".join(
                f" Side pot-{pot} {amount}." for pot, amount in by_pot.items() if pot)
        lines = ["*** SUMMARY ***", pot_line + " | Rake 0"]
        for run, board in enumerate(self.boards):
            label = "Board" if len(self.boards) == 1 else f"{_RUN_NAMES[run]} Board"
            if board:
                lines.append(f"{label} [{cards_str(board)}]")
        lines += [f"Seat {seat + 1}: {self.names[seat]}{self._position(seat)} "
                  f"{self._outcome(seat, hero)}" for seat in range(hand.num_seats)]
        return lines

    def _position(self, seat: int) -> str:
        hand = self.hand
        labels = []
        if seat == hand.button:
            labels.append("button")
        if seat == hand.small_blind_seat and hand.small_blind:
            labels.append("small blind")
        elif seat == hand.big_blind_seat:
            labels.append("big blind")
        return f" ({', '.join(labels)})" if labels else ""

    def _outcome(self, seat: int, hero: int | None) -> str:
        won = self.won[seat]
        street = self.folded_on.get(seat)
        if street is not None:
            where = "before Flop" if street is Street.PREFLOP else f"on the {street.label}"
            return f"folded {where}" + ("" if seat in self.put_in else " (didn't bet)")
        entry = self.shown.get(seat)
        if entry is not None:
            shown = f"showed [{cards_str(entry.cards)}] and "
            hand_text = f" with {' - '.join(entry.hand_names)}"
            return shown + (f"won ({won}){hand_text}" if won else f"lost{hand_text}")
        if seat in self.result.mucked:
            hidden = hero is not None and seat != hero
            return "mucked" if hidden else f"mucked [{cards_str(self.hand.hole_cards(seat))}]"
        return f"collected ({won})"


def _describe(record: ActionRecord, facing: int) -> str:
    """An action as PokerStars writes it: ``calls 10``, ``raises 30 to 40``, ``bets 20``…

    ``facing`` is the street's bet before this action.
    """
    kind = record.kind
    if kind is ActionKind.FOLD:
        text = "folds"
    elif kind is ActionKind.CHECK:
        text = "checks"
    elif kind is ActionKind.CALL:
        text = f"calls {record.added}"
    elif kind is ActionKind.BET:
        text = f"bets {record.added}"
    else:
        text = f"raises {record.to - facing} to {record.to}"
    return text + (" and is all-in" if record.is_all_in else "")


def _street_line(event: StreetDealt, board: Sequence[Card], run_twice: bool) -> str:
    name = f"{_RUN_NAMES[event.run]} {event.street.name}" if run_twice else event.street.name
    before = board[: _BOARD_SIZE[event.street] - len(event.cards)]
    if before:
        return f"*** {name} *** [{cards_str(before)}] [{cards_str(event.cards)}]"
    return f"*** {name} *** [{cards_str(event.cards)}]"


_BOARD_SIZE = {Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}

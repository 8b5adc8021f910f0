"""What a bot learns about each opponent over a session: how loose, aggressive and foldable.

A view identifies opponents only by seat, so the notes are kept per seat: when a different
player takes a seat, their notes start from the previous occupant's. Each rate is smoothed
towards a typical player's (``PRIOR``) so a few hands do not swing it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import ActionKind, Street
from engine.strategies.situation import AGGRESSIVE_KINDS
from engine.view import PlayerView

PRIOR_WEIGHT = 8.0
"""How many observations a typical player's rates count for."""


@dataclass(slots=True)
class SeatNotes:
    """Counts for one seat; the rate properties blend them with a typical player's."""

    hands: int = 0
    voluntary: int = 0
    preflop_raises: int = 0
    postflop_aggressive: int = 0
    postflop_calls: int = 0
    faced_bets: int = 0
    folded_to_bets: int = 0
    faced_three_bets: int = 0
    folded_to_three_bets: int = 0
    three_bet_chances: int = 0
    three_bets: int = 0

    @property
    def looseness(self) -> float:
        """Share of hands played voluntarily (VPIP), prior 0.35."""
        return _smoothed(self.voluntary, self.hands, 0.35)

    @property
    def raising_rate(self) -> float:
        """Share of hands raised preflop (PFR), prior 0.2."""
        return _smoothed(self.preflop_raises, self.hands, 0.2)

    @property
    def aggression(self) -> float:
        """Share of bets and raises among postflop bets, raises and calls, prior 0.45."""
        return _smoothed(
            self.postflop_aggressive, self.postflop_aggressive + self.postflop_calls, 0.45
        )

    @property
    def fold_to_bet(self) -> float:
        """Share of postflop bets this seat folded to, prior 0.4."""
        return _smoothed(self.folded_to_bets, self.faced_bets, 0.4)


    @property
    def fold_to_three_bet(self) -> float:
        """Share of their preflop raises re-raised that this seat folded, prior 0.5."""
        return _smoothed(self.folded_to_three_bets, self.faced_three_bets, 0.5)

    @property
    def three_bet_rate(self) -> float:
        """Share of chances (facing exactly one raise before the flop) taken to re-raise,
        prior 0.08."""
        return _smoothed(self.three_bets, self.three_bet_chances, 0.08)


def _smoothed(count: int, total: int, prior: float) -> float:
    return (count + PRIOR_WEIGHT * prior) / (total + PRIOR_WEIGHT)


class OpponentModel:
    """Notes on every seat, updated from the public history of each finished hand."""

    def __init__(self) -> None:
        self._notes: dict[int, SeatNotes] = {}

    def notes(self, seat: int) -> SeatNotes:
        """The notes on ``seat`` (a typical player's until something is seen)."""
        return self._notes.setdefault(seat, SeatNotes())

    def observe(self, view: PlayerView) -> None:
        """Learn from a finished hand's history (seats other than the viewer's)."""
        seats = [seat for seat in range(view.num_seats) if seat != view.seat]
        for seat in seats:
            self.notes(seat).hands += 1
        preflop_voluntary: set[int] = set()
        preflop_raisers: set[int] = set()
        street_top: dict[Street, int] = {}
        for record in view.history:
            if record.seat == view.seat:
                street_top[record.street] = max(street_top.get(record.street, 0), record.to)
                continue
            notes = self.notes(record.seat)
            if record.street is Street.PREFLOP:
                if record.kind in (ActionKind.CALL, *AGGRESSIVE_KINDS):
                    preflop_voluntary.add(record.seat)
                if record.kind in AGGRESSIVE_KINDS:
                    preflop_raisers.add(record.seat)
            else:
                before = record.to - record.added
                if street_top.get(record.street, 0) > before:
                    notes.faced_bets += 1
                    notes.folded_to_bets += record.kind is ActionKind.FOLD
                if record.kind in AGGRESSIVE_KINDS:
                    notes.postflop_aggressive += 1
                elif record.kind is ActionKind.CALL:
                    notes.postflop_calls += 1
            street_top[record.street] = max(street_top.get(record.street, 0), record.to)
        for seat in preflop_voluntary:
            self.notes(seat).voluntary += 1
        for seat in preflop_raisers:
            self.notes(seat).preflop_raises += 1
        self._observe_three_bets(view)

    def _observe_three_bets(self, view: PlayerView) -> None:
        """Count re-raise chances taken, and how each first raiser answered a re-raise."""
        raises = 0
        opener: int | None = None
        answered = False
        for record in view.history:
            if record.street is not Street.PREFLOP:
                break
            mine = record.seat == view.seat
            if raises == 1 and record.seat != opener and not mine:
                notes = self.notes(record.seat)
                notes.three_bet_chances += 1
                notes.three_bets += record.kind in AGGRESSIVE_KINDS
            if raises == 2 and record.seat == opener and not answered and not mine:
                answered = True
                notes = self.notes(record.seat)
                notes.faced_three_bets += 1
                notes.folded_to_three_bets += record.kind is ActionKind.FOLD
            if record.kind in AGGRESSIVE_KINDS:
                raises += 1
                if raises == 1:
                    opener = record.seat

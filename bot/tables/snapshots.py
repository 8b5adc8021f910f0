"""The parts of a table's public state that are kept between two snapshots when unchanged.

A table builds its ``TableState`` before every turn prompt and notification, and between two
of them most seats and often the pots have not changed; frozen snapshots can be shared, so an
unchanged part is reused instead of being built again.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.tables.notifier import PotState, SeatState
from bot.tables.seats import Seat
from engine.cards import Card
from engine.hand import Hand

SeatFacts = tuple[
    str, int | None, str | None, int, int, bool, bool, bool, bool, bool, bool, tuple[Card, ...]
]
"""A ``SeatState``'s fields after ``seat``, in order."""


class SeatStates:
    """Each seat's last ``SeatState``, handed out again while its facts stay the same.

    >>> states = SeatStates()
    >>> facts = ("Ann", 7, None, 100, 0, False, False, False, False, False, True, ())
    >>> states.state(2, facts) is states.state(2, facts)
    True
    >>> states.state(2, facts[:3] + (90,) + facts[4:]).stack
    90
    """

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: dict[int, tuple[SeatFacts, SeatState]] = {}

    def state(self, index: int, facts: SeatFacts) -> SeatState:
        """Seat ``index``'s state with these facts: the last one if its facts are equal."""
        last = self._last.get(index)
        if last is not None and last[0] == facts:
            return last[1]
        state = SeatState(index, *facts)
        self._last[index] = (facts, state)
        return state


class PotStates:
    """The pots of the running hand by table seat, worked out again only when a seat's
    contribution, stack or fold changed since the last time."""

    __slots__ = ("_hand", "_key", "_pots")

    def __init__(self) -> None:
        self._hand: Hand | None = None
        self._key: tuple[tuple[int, ...], ...] = ()
        self._pots: tuple[PotState, ...] = ()

    def pots(self, hand: Hand, seats: Sequence[Seat]) -> tuple[PotState, ...]:
        """``hand``'s pots, the eligible hand seats named by ``seats[position].index``."""
        key = (hand.contributions, hand.stacks, hand.folded)
        if hand is not self._hand or key != self._key:
            self._hand, self._key = hand, key
            self._pots = tuple(
                PotState(pot.amount, tuple(seats[position].index for position in pot.eligible))
                for pot in hand.pots()
            )
        return self._pots

"""Typed events of a hand, in the order they happened.

A front end can narrate a hand from its events alone, and a hand history is written from them.
Events that carry hole cards (``HoleCardsDealt``) are private to their seat until shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.actions import Street
from engine.cards import Card
from engine.view import ActionRecord


class Forced(StrEnum):
    """The chips a player must put in before the cards are dealt."""

    ANTE = "ante"
    SMALL_BLIND = "small blind"
    BIG_BLIND = "big blind"
    STRADDLE = "straddle"
    """A live straddle of two big blinds (``engine.hand.Straddle``), posted after the blinds."""


@dataclass(frozen=True, slots=True)
class Posted:
    """A seat posted an ante, a blind or a straddle (``amount`` may be short: then
    ``is_all_in``)."""

    seat: int
    forced: Forced
    amount: int
    is_all_in: bool


@dataclass(frozen=True, slots=True)
class HoleCardsDealt:
    """A seat was dealt its two hole cards (private to that seat)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Acted:
    """A seat acted; ``record`` says what it amounted to and how many chips it added."""

    record: ActionRecord

    @property
    def seat(self) -> int:
        """The seat that acted."""
        return self.record.seat


@dataclass(frozen=True, slots=True)
class StreetDealt:
    """Community cards were dealt for ``street`` on board ``run`` (0, or 1 when run twice)."""

    street: Street
    cards: tuple[Card, ...]
    run: int = 0


@dataclass(frozen=True, slots=True)
class UncalledBetReturned:
    """The part of a bet nobody called went back to the seat that bet it."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class RunItTwiceChosen:
    """The all-in players were asked to run the board twice; ``agreed`` is their answer."""

    agreed: bool


@dataclass(frozen=True, slots=True)
class Showed:
    """A seat showed its hole cards at showdown."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Mucked:
    """A seat gave up its claim at showdown without showing."""

    seat: int


@dataclass(frozen=True, slots=True)
class Won:
    """A seat won ``amount`` from pot ``pot`` (0 = main pot) on board ``run``."""

    seat: int
    amount: int
    pot: int
    run: int = 0


Event = (
    Posted | HoleCardsDealt | Acted | StreetDealt | UncalledBetReturned | RunItTwiceChosen
    | Showed | Mucked | Won
)

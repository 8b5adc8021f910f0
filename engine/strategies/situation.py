"""Facts a player reads off the public view: position, who raised, how many are still in.

Blinds and antes are not in ``view.history`` (it holds voluntary actions only), so every bet
or raise counted here was a choice.
"""

from __future__ import annotations

from enum import Enum

from engine.actions import ActionKind, Street
from engine.view import ActionRecord, PlayerView

AGGRESSIVE_KINDS = frozenset({ActionKind.BET, ActionKind.RAISE})


class Position(Enum):
    """Where a seat acts preflop, relative to the button."""

    EARLY = "early"
    MIDDLE = "middle"
    LATE = "late"
    SMALL_BLIND = "small blind"
    BIG_BLIND = "big blind"


def seats_from_button(view: PlayerView, seat: int) -> int:
    """How many seats ``seat`` sits before the button: 0 on the button, 1 the cutoff …"""
    return (view.button - seat) % view.num_seats


def position_of(view: PlayerView, seat: int) -> Position:
    """The seat's position. Heads-up the button is the small blind and counts as late."""
    count = view.num_seats
    after_button = (seat - view.button) % count
    if count == 2:
        return Position.LATE if after_button == 0 else Position.BIG_BLIND
    if after_button == 1:
        return Position.SMALL_BLIND
    if after_button == 2:
        return Position.BIG_BLIND
    before_button = seats_from_button(view, seat)
    if before_button <= 1:
        return Position.LATE
    return Position.MIDDLE if before_button == 2 else Position.EARLY


def street_records(view: PlayerView, street: Street | None = None) -> list[ActionRecord]:
    """The actions taken on ``street`` (the current one when omitted)."""
    wanted = view.street if street is None else street
    return [record for record in view.history if record.street is wanted]


def raise_count(view: PlayerView, street: Street | None = None) -> int:
    """How many voluntary bets and raises were made on ``street`` (current by default)."""
    return sum(record.kind in AGGRESSIVE_KINDS for record in street_records(view, street))


def last_aggressor(view: PlayerView, street: Street) -> int | None:
    """The seat that made the last bet or raise on ``street``, if anyone did."""
    aggressive = [r.seat for r in street_records(view, street) if r.kind in AGGRESSIVE_KINDS]
    return aggressive[-1] if aggressive else None


def opponents_in_hand(view: PlayerView) -> list[int]:
    """Seats other than the viewer's that have not folded."""
    return [seat for seat in view.live_seats if seat != view.seat]


def effective_stack(view: PlayerView) -> int:
    """The most the viewer can win or lose from here: its stack capped by the largest rival's.

    Raises ``ValueError`` for a spectator's view.
    """
    if view.seat is None:
        raise ValueError("a spectator has no stack")
    others = [view.stacks[seat] + view.bets[seat] for seat in opponents_in_hand(view)]
    return min(view.stacks[view.seat] + view.bets[view.seat], max(others, default=0))

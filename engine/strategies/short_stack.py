"""Preflop all-in decisions every level shares: first-in push/fold and calling a shove.

A short stack first in (nobody has called or raised) shoves or folds by the solved chart for
its effective stack and the number of players behind (``engine.strategies.push_fold``). A
player facing an all-in, or a raise that would leave it less than a pot behind once it calls,
compares its equity against the range the raise represents with the price, counting every chip
already in the pot that it can win: no share-of-stack rule folds a call the odds say to make.

The range a shove represents is the chart's: a first-in shove holds the solved shove range for
the shover's depth and position; a shove over someone's raise or call (a re-shove) holds the
solved calling range at that depth, the hands that are happy to get all the chips in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.actions import Action, ActionKind, Street
from engine.strategies import push_fold
from engine.strategies.moves import ALL_IN, CALL, FOLD, check_or_fold, legal_of
from engine.strategies.preflop import hand_class
from engine.strategies.situation import (
    AGGRESSIVE_KINDS,
    effective_stack,
    last_aggressor,
    opponents_in_hand,
    street_records,
)
from engine.strategies.solve import Floats
from engine.view import PlayerView


@dataclass(frozen=True, slots=True)
class FirstIn:
    """A first-in spot: the effective stack in big blinds (in straddles when someone
    straddled: the straddle is the preflop's big blind) and how many players are behind."""

    stack: float
    behind: int


def first_in(view: PlayerView) -> FirstIn | None:
    """The spot when the viewer is first in preflop (only blinds posted, nobody called or
    raised), else None."""
    if view.street is not Street.PREFLOP or any(
        record.kind is not ActionKind.FOLD for record in street_records(view)
    ):
        return None
    if not opponents_in_hand(view) or not legal_of(view).can_bet_or_raise:
        return None
    return FirstIn(effective_stack(view) / view.preflop_blind, len(opponents_in_hand(view)))


def shove_or_fold(view: PlayerView, spot: FirstIn, rng: random.Random,
                  chart_stack: float | None = None) -> Action:
    """Shove with the chart's frequency for the hand, else check (a free big blind) or fold.

    ``chart_stack`` reads the chart of another depth: a shorter one plays a looser range.
    """
    depth = spot.stack if chart_stack is None else chart_stack
    frequency = push_fold.shove_frequency(hand_class(view.hole_cards), depth, spot.behind)
    if frequency > 0 and rng.random() < frequency:
        return ALL_IN
    return check_or_fold(legal_of(view))


def all_in_decision(view: PlayerView) -> bool:
    """Whether calling now is in effect an all-in decision before the flop: the bet faced is
    all-in, or calling would leave less than the pot behind."""
    if view.street is not Street.PREFLOP or view.seat is None:
        return False
    legal = legal_of(view)
    if not legal.call_amount:
        return False
    raiser = last_aggressor(view, Street.PREFLOP)
    if raiser is None:
        return False
    if view.all_in[raiser]:
        return True
    return legal.stack - legal.call_amount < view.pot + legal.call_amount


def all_in_price(view: PlayerView) -> tuple[int, int]:
    """What getting all the chips in against the last preflop raiser costs the viewer, and the
    pot it would then play for: each side's bet is capped at the smaller of the two stacks
    (chips beyond it can never be won), and other players' bets count up to the same cap.

    When the raiser is all-in for less than the viewer holds this is the call; when the
    raise leaves chips behind it is the shove that puts them in. Raises ``ValueError`` when
    nobody has raised or for a spectator's view.
    """
    raiser = last_aggressor(view, Street.PREFLOP)
    if raiser is None or view.seat is None:
        raise ValueError("no raise to price")
    legal = legal_of(view)
    own = view.bets[view.seat]
    cap = min(own + legal.stack, view.bets[raiser] + view.stacks[raiser])
    others = sum(min(bet, cap) for seat, bet in enumerate(view.bets)
                 if seat not in (view.seat, raiser))
    return cap - own, view.pot - sum(view.bets) + others + 2 * cap


def shove_range(view: PlayerView) -> Floats:
    """The per-class range the last raise before the flop represents (see the module's
    docstring). Raises ``ValueError`` when nobody has raised."""
    records = street_records(view, Street.PREFLOP)
    raises = [index for index, record in enumerate(records) if record.kind in AGGRESSIVE_KINDS]
    if not raises or view.seat is None:
        raise ValueError("no raise to read a range from")
    index = raises[-1]
    raiser = records[index].seat
    earlier = records[:index]
    behind = view.num_seats - 1 - sum(record.kind is ActionKind.FOLD for record in earlier)
    depth = min(view.stacks[raiser] + view.bets[raiser],
                view.stacks[view.seat] + view.bets[view.seat]) / view.preflop_blind
    if any(record.kind is not ActionKind.FOLD for record in earlier):
        return push_fold.call_range(depth, behind)
    return push_fold.shove_range(depth, behind)


def call_all_in(view: PlayerView, margin: float = 0.0, weights: Floats | None = None) -> Action:
    """Get all the chips in (call an all-in, or shove over a raise that leaves chips behind)
    if the hand's equity against the raise's range (``weights``, by default ``shove_range``)
    reaches ``all_in_price`` plus ``margin``; otherwise fold."""
    legal = legal_of(view)
    assert view.seat is not None
    hand_range = shove_range(view) if weights is None else weights
    risk, pot = all_in_price(view)
    if push_fold.calls_all_in(hand_class(view.hole_cards), hand_range, risk, pot, margin):
        raiser = last_aggressor(view, Street.PREFLOP)
        if raiser is not None and not view.all_in[raiser] and legal.can_bet_or_raise:
            return ALL_IN
        return CALL
    return FOLD

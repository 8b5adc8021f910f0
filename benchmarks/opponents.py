"""Outside opponents for measuring the bot levels in the arena, kept out of the bots' code.

    python -m engine.arena --players hard,benchmarks.opponents:EquilibriumPushFold --stack 10
    python -m engine.arena --players expert,benchmarks.opponents:TightAggressive --stack 100
    python -m engine.arena --players expert,benchmarks.opponents:Maniac --stack 20

Each plays one simple, well-known style and decides from the public view with the engine's
library parts (legal actions, equity, the solved push/fold charts), never a level's logic:

- ``EquilibriumPushFold`` shoves or folds first in and calls shoves by the solved
  equilibrium charts (``python -m engine.strategies.solve``), re-shoves over smaller raises
  with the hands that would call a shove, and gives up postflop without a pair;
  ``EquilibriumPushFoldWide`` re-shoves with its wider shoving range instead.
- ``TightAggressive`` raises a tight range by Monte Carlo equity against random hands, bets
  strong hands, calls when its equity against random hands beats the price.
- ``Maniac`` raises the pot whenever it can and never folds before the flop.
- ``CallingStation`` checks and calls everything.
"""

from __future__ import annotations

import random

from engine.actions import Action, ActionKind, LegalActions, Street
from engine.equity import equity_vs_random
from engine.evaluator import HandCategory, category, evaluate
from engine.strategies.preflop import hand_class
from engine.strategies.push_fold import call_frequency, shove_frequency
from engine.view import PlayerView

FOLD = Action(ActionKind.FOLD)
CHECK = Action(ActionKind.CHECK)
CALL = Action(ActionKind.CALL)
ALL_IN = Action(ActionKind.ALL_IN)


def _legal(view: PlayerView) -> LegalActions:
    if view.legal is None:
        raise ValueError("no decision to make in this view")
    return view.legal


def _check_or(legal: LegalActions, otherwise: Action) -> Action:
    return CHECK if legal.can_check else otherwise


def _raise_to(legal: LegalActions, total: int) -> Action:
    if not legal.can_bet_or_raise:
        return CALL if legal.can_call else CHECK
    amount = min(max(total, legal.min_to), legal.max_to)
    return Action(ActionKind.BET if legal.can_bet else ActionKind.RAISE, amount)


def _effective_big_blinds(view: PlayerView) -> float:
    assert view.seat is not None
    own = view.stacks[view.seat] + view.bets[view.seat]
    others = [view.stacks[s] + view.bets[s] for s in view.live_seats if s != view.seat]
    return min(own, max(others, default=0)) / view.big_blind


class EquilibriumPushFold:
    """Push/fold by the solved equilibrium charts at any depth (the issue's short-stack test).

    First in it shoves with the chart's frequency for its effective stack (at most 25 bb of
    chart) and the players behind; facing a shove it calls with the chart's calling
    frequency; facing a raise short of all-in it re-shoves the hands that would call a shove,
    else folds; a limped big blind re-shoves the same hands or checks. After the flop it
    checks, and calls only with a pair or better.
    """

    reshove_with_shoving_range = False
    """Re-shove over a smaller raise with the shoving range instead (see the subclass)."""

    def decide(self, view: PlayerView, rng: random.Random) -> Action:
        """Shove, call or fold by the charts; passive after the flop."""
        legal = _legal(view)
        if view.street is not Street.PREFLOP:
            made = category(evaluate([*view.hole_cards, *view.board]))
            return _check_or(legal, CALL if made <= HandCategory.ONE_PAIR else FOLD)
        hand = hand_class(view.hole_cards)
        depth = _effective_big_blinds(view)
        voluntary = [r for r in view.history if r.kind is not ActionKind.FOLD]
        behind = len(view.live_seats) - 1
        if not voluntary:
            return ALL_IN if rng.random() < shove_frequency(hand, depth, behind) else (
                _check_or(legal, FOLD))
        facing_all_in = any(view.all_in[seat] for seat in view.live_seats)
        if not facing_all_in and self.reshove_with_shoving_range:
            frequency = shove_frequency(hand, depth, 1)
        else:
            frequency = call_frequency(hand, depth, behind)
        if rng.random() < frequency:
            return ALL_IN if legal.can_bet_or_raise else CALL
        return _check_or(legal, FOLD)


class EquilibriumPushFoldWide(EquilibriumPushFold):
    """``EquilibriumPushFold`` re-shoving over a raise short of all-in with its heads-up
    shoving range, about twice as wide as the calling range (at 20 bb: 40 % against 21 %)."""

    reshove_with_shoving_range = True


class TightAggressive:
    """A tight-aggressive Monte Carlo player: equity against random hands decides everything.

    Preflop it raises to 3 big blinds (or 3 times a raise) with at least 58 % against one
    random hand (about the top 20 %) and calls with 52 %, each bar 5 to 7 points higher per
    raise already made; after the flop it bets two thirds
    of the pot with 65 % against the players left, and calls when its equity beats the price
    by 5 points.
    """

    def decide(self, view: PlayerView, rng: random.Random) -> Action:
        """Raise, bet, call or fold on Monte Carlo equity against random hands."""
        legal = _legal(view)
        opponents = max(1, len(view.live_seats) - 1)
        equity = equity_vs_random(view.hole_cards, view.board,
                                  1 if view.street is Street.PREFLOP else opponents,
                                  samples=300, rng=rng)
        price = legal.call_amount / (view.pot + legal.call_amount) if legal.call_amount else 0
        if view.street is Street.PREFLOP:
            raises = sum(r.kind in (ActionKind.BET, ActionKind.RAISE) for r in view.history)
            if equity >= 0.58 + 0.07 * raises:
                return _raise_to(legal, 3 * max(view.current_bet, view.big_blind))
            if equity >= 0.52 + 0.05 * raises and price < 0.4:
                return _check_or(legal, CALL)
            return _check_or(legal, FOLD)
        if equity >= 0.65:
            return _raise_to(legal, view.current_bet + round(
                2 / 3 * (view.pot + legal.call_amount)))
        if legal.can_check:
            return CHECK
        return CALL if equity >= price + 0.05 else FOLD


class Maniac:
    """Raises the pot whenever it can, calls when it cannot, never folds preflop; after the
    flop it gives up a hand with nothing (high card) facing a bet half the time."""

    def decide(self, view: PlayerView, rng: random.Random) -> Action:
        """A pot-sized bet or raise, or a call."""
        legal = _legal(view)
        if view.street is not Street.PREFLOP and legal.call_amount and rng.random() < 0.5:
            made = category(evaluate([*view.hole_cards, *view.board]))
            if made is HandCategory.HIGH_CARD:
                return FOLD
        pot_after_call = view.pot + legal.call_amount
        return _raise_to(legal, view.current_bet + pot_after_call)


class CallingStation:
    """Checks or calls every bet to the river; never bets or folds."""

    def decide(self, view: PlayerView, rng: random.Random) -> Action:
        """Check when free, else call."""
        return _check_or(_legal(view), CALL)

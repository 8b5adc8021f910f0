"""The easy bot: loose and passive, driven by a probability table of fold/call/raise odds.

Preflop it looks only at the kind of starting hand (premium, pair, broadway …), postflop only
at the made hand's category. It rarely folds when calling is cheap and seldom raises, like a
casual player who came to see flops. Short-stacked it shoves or folds from a wider range than
the solved charts and calls all-ins a little light (``short_stack``), as a loose player would.
"""

from __future__ import annotations

import random

from engine.actions import Action, Street
from engine.evaluator import HandCategory
from engine.strategies import short_stack
from engine.strategies.hand_reading import made_category
from engine.strategies.moves import (
    CALL,
    CHECK,
    FOLD,
    bet_pot_fraction,
    legal_of,
)
from engine.strategies.preflop import PreflopGroup, hand_class, preflop_group
from engine.view import PlayerView

Odds = tuple[float, float, float]
"""Chances to (fold, call, raise) when facing a bet; with a free check, fold means check."""

PREFLOP_ODDS: dict[PreflopGroup, tuple[Odds, Odds]] = {
    # group: (odds when the call is cheap, odds when it is expensive)
    PreflopGroup.PREMIUM: ((0.00, 0.60, 0.40), (0.00, 0.75, 0.25)),
    PreflopGroup.PAIR: ((0.00, 0.90, 0.10), (0.35, 0.65, 0.00)),
    PreflopGroup.BROADWAY: ((0.02, 0.90, 0.08), (0.40, 0.60, 0.00)),
    PreflopGroup.SUITED_CONNECTED: ((0.05, 0.90, 0.05), (0.55, 0.45, 0.00)),
    PreflopGroup.ACE: ((0.05, 0.92, 0.03), (0.55, 0.45, 0.00)),
    PreflopGroup.TRASH: ((0.30, 0.70, 0.00), (0.90, 0.10, 0.00)),
}

POSTFLOP_ODDS: dict[HandCategory, tuple[Odds, Odds]] = {
    # category: (odds facing a bet of at most half the pot, odds facing a bigger one)
    HandCategory.HIGH_CARD: ((0.55, 0.45, 0.00), (0.85, 0.15, 0.00)),
    HandCategory.ONE_PAIR: ((0.05, 0.90, 0.05), (0.30, 0.70, 0.00)),
    HandCategory.TWO_PAIR: ((0.00, 0.80, 0.20), (0.05, 0.85, 0.10)),
    HandCategory.THREE_OF_A_KIND: ((0.00, 0.65, 0.35), (0.00, 0.80, 0.20)),
}
STRONGEST_ODDS: tuple[Odds, Odds] = ((0.00, 0.50, 0.50), (0.00, 0.70, 0.30))
"""Straights and better."""

BET_CHANCE_WHEN_CHECKED_TO: dict[HandCategory, float] = {
    HandCategory.HIGH_CARD: 0.08,
    HandCategory.ONE_PAIR: 0.30,
    HandCategory.TWO_PAIR: 0.60,
    HandCategory.THREE_OF_A_KIND: 0.70,
}
STRONGEST_BET_CHANCE = 0.75

PUSH_FOLD_DEPTH = 10
"""First in with at most this many big blinds it shoves or folds (HoldemResources' depth)."""
LOOSE_CHART_SCALE = 0.5
"""It shoves the chart of half its depth, a wider range than equilibrium: the loose player's
character, not a strength setting."""
LOOSE_CALL_MARGIN = -0.04
"""It calls an all-in with up to 4 points less equity than the price asks: loose, but not a
call of any two cards getting poor odds."""

CHEAP_CALL_BIG_BLINDS = 2
"""A preflop call of at most this many big blinds counts as cheap."""


class EasyStrategy:
    """Loose-passive play from fixed odds tables (see ``PREFLOP_ODDS`` and ``POSTFLOP_ODDS``)."""

    def decide(self, view: PlayerView, rng: random.Random) -> Action:
        """Roll the table's odds for this hand and price."""
        legal = legal_of(view)
        if view.street is Street.PREFLOP:
            spot = short_stack.first_in(view)
            if spot is not None and spot.stack <= PUSH_FOLD_DEPTH:
                return short_stack.shove_or_fold(view, spot, rng,
                                                 chart_stack=spot.stack * LOOSE_CHART_SCALE)
            if short_stack.all_in_decision(view):
                return short_stack.call_all_in(view, margin=LOOSE_CALL_MARGIN)
            cheap_odds, dear_odds = PREFLOP_ODDS[preflop_group(hand_class(view.hole_cards))]
            cheap = legal.call_amount <= CHEAP_CALL_BIG_BLINDS * view.preflop_blind
            return self._roll(view, rng, cheap_odds if cheap else dear_odds, raise_share=0.75)
        made = made_category(view.hole_cards, view.board)
        if legal.can_check:
            chance = BET_CHANCE_WHEN_CHECKED_TO.get(made, STRONGEST_BET_CHANCE)
            return bet_pot_fraction(view, 0.5) if rng.random() < chance else CHECK
        small_odds, big_odds = POSTFLOP_ODDS.get(made, STRONGEST_ODDS)
        small_bet = 3 * legal.call_amount <= view.pot  # a bet of at most half the pot before it
        return self._roll(view, rng, small_odds if small_bet else big_odds, raise_share=0.75)

    @staticmethod
    def _roll(view: PlayerView, rng: random.Random, odds: Odds, raise_share: float) -> Action:
        legal = legal_of(view)
        fold_chance, call_chance, _ = odds
        roll = rng.random()
        if roll < fold_chance:
            return CHECK if legal.can_check else FOLD
        if roll < fold_chance + call_chance or not legal.can_bet_or_raise:
            return CHECK if legal.can_check else CALL
        return bet_pot_fraction(view, raise_share)

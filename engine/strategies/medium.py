"""The medium bot: a preflop chart by position, then equity against random hands versus pot odds.

Short-stacked it shoves or folds by the solved push/fold charts, and it calls an all-in when
its equity against the shove's chart range beats the price (``short_stack``).

It plays like a disciplined regular who knows the odds but not the opponents: it bets hands
that are strong against any two cards, calls when the price is right, and otherwise checks or
folds. It does not read ranges, so it overrates one-pair hands against tight bettors.
"""

from __future__ import annotations

import random

from engine.actions import Action, Street
from engine.equity import equity_vs_random
from engine.strategies import short_stack
from engine.strategies.moves import (
    CHECK,
    FOLD,
    bet_pot_fraction,
    bet_to,
    call_cost_share,
    check_or_fold,
    legal_of,
    passive,
)
from engine.strategies.preflop import chen_score, hand_class
from engine.strategies.situation import Position, opponents_in_hand, position_of, raise_count
from engine.view import PlayerView

OPEN_SCORE: dict[Position, int] = {
    Position.EARLY: 10,
    Position.MIDDLE: 9,
    Position.LATE: 7,
    Position.SMALL_BLIND: 8,
    Position.BIG_BLIND: 9,
}
"""Least Chen score to raise first in, by position."""
HEADS_UP_BUTTON_OPEN_SCORE = 4
THREE_BET_SCORE = 12
CALL_RAISE_SCORE = {Position.LATE: 7, Position.BIG_BLIND: 7}
DEFAULT_CALL_RAISE_SCORE = 8
CALL_RERAISE_SCORE = 11
FOUR_BET_SCORE = 14

PUSH_FOLD_DEPTH = 10
"""First in with at most this many big blinds it shoves or folds by the solved charts (the
depth HoldemResources gives for push/fold play)."""

SAMPLES = 200
VALUE_BET_EQUITY = 0.72
THIN_BET_EQUITY = 0.60
VALUE_RAISE_EQUITY = 0.85
CALL_MARGIN = 0.04


class MediumStrategy:
    """Chart-based preflop, odds-based postflop play."""

    def decide(self, view: PlayerView, rng: random.Random) -> Action:
        """Follow the chart preflop; compare equity against random hands with the price after."""
        if view.street is Street.PREFLOP:
            return self._preflop(view, rng)
        return self._postflop(view, rng)

    def _preflop(self, view: PlayerView, rng: random.Random) -> Action:
        legal = legal_of(view)
        assert view.seat is not None
        spot = short_stack.first_in(view)
        if spot is not None and spot.stack <= PUSH_FOLD_DEPTH:
            return short_stack.shove_or_fold(view, spot, rng)
        if short_stack.all_in_decision(view):
            return short_stack.call_all_in(view)
        score = chen_score(hand_class(view.hole_cards))
        position = position_of(view, view.seat)
        raises = raise_count(view)
        big_blind = view.preflop_blind  # the straddle, when someone straddled
        if raises == 0:
            heads_up_button = view.num_seats == 2 and position is Position.LATE
            needed = HEADS_UP_BUTTON_OPEN_SCORE if heads_up_button else OPEN_SCORE[position]
            if score >= needed:
                limpers = sum(1 for bet in view.bets if bet >= big_blind) - 1
                size = (2.5 if view.num_seats == 2 else 3) * big_blind + big_blind * limpers
                return bet_to(legal, round(size))
            return check_or_fold(legal)
        stack_share = legal.call_amount / max(legal.stack, 1)
        if raises == 1:
            if score >= THREE_BET_SCORE:
                return bet_to(legal, 3 * view.current_bet)
            if score >= CALL_RAISE_SCORE.get(position, DEFAULT_CALL_RAISE_SCORE) and (
                stack_share <= 0.15
            ):
                return passive(legal)
            return FOLD
        if score >= FOUR_BET_SCORE:
            return bet_to(legal, round(2.3 * view.current_bet))
        if score >= CALL_RERAISE_SCORE and stack_share <= 0.35:
            return passive(legal)
        return FOLD

    def _postflop(self, view: PlayerView, rng: random.Random) -> Action:
        legal = legal_of(view)
        opponents = len(opponents_in_hand(view))
        if legal.can_check:
            lines = (VALUE_BET_EQUITY, THIN_BET_EQUITY) if opponents == 1 else (VALUE_BET_EQUITY,)
        else:
            lines = (VALUE_RAISE_EQUITY, call_cost_share(view) + CALL_MARGIN)
        equity = equity_vs_random(view.hole_cards, view.board, opponents, samples=SAMPLES,
                                  rng=rng, thresholds=lines)
        if legal.can_check:
            if equity >= VALUE_BET_EQUITY:
                return bet_pot_fraction(view, 0.66)
            if equity >= THIN_BET_EQUITY and opponents == 1:
                return bet_pot_fraction(view, 0.5)
            return CHECK
        if equity >= VALUE_RAISE_EQUITY:
            return bet_pot_fraction(view, 0.75)
        if equity >= call_cost_share(view) + CALL_MARGIN:
            return passive(legal)
        return FOLD

"""The hard bot: ranges by position and action preflop, range-based equity postflop, and
adaptation to each opponent's observed tendencies.

Preflop it opens, 3-bets and calls from ranges that depend on position and on how wide the
raiser plays. Postflop it rebuilds every opponent's range from the hand's public history —
their preflop action, then narrowing on each bet, raise or call by how strong hands are on the
board at that moment — and estimates its equity against those ranges with a small simulation.
It value bets with sizes that grow with board wetness, semi-bluffs strong draws, bluffs at a
controlled frequency that rises against players who fold often, and lets aggressive players'
bets keep more bluffs in their ranges. Opponents are known by seat (see ``opponent_model``).
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from engine.actions import Action, ActionKind, Street
from engine.equity import equity_vs_random, equity_vs_ranges
from engine.strategies import push_fold, short_stack
from engine.strategies.hand_reading import board_wetness, draws
from engine.strategies.moves import (
    CHECK,
    FOLD,
    bet_to,
    call_cost_share,
    check_or_fold,
    legal_of,
    passive,
    pot_after_call,
)
from engine.strategies.opponent_model import OpponentModel
from engine.strategies.preflop import hand_class, percentile
from engine.strategies.ranges import Range
from engine.strategies.situation import (
    AGGRESSIVE_KINDS,
    Position,
    last_aggressor,
    opponents_in_hand,
    position_of,
    raise_count,
    seats_from_button,
)
from engine.strategies.solve import range_share
from engine.view import PlayerView

OPEN_SHARE_BY_SEATS_TO_BUTTON = (0.45, 0.32, 0.25, 0.20, 0.17, 0.14)
HEADS_UP_OPEN_SHARE = 0.75
SMALL_BLIND_OPEN_SHARE = 0.40
BIG_BLIND_RAISE_SHARE = 0.12
FOUR_BET_SHARE = 0.03
CALL_THREE_BET_SHARE = 0.10
SHOVE_SHARE = 0.025
PUSH_FOLD_DEPTH = 10
"""First in with at most this many big blinds it shoves or folds by the solved charts:
HoldemResources advises push/fold up to about 10 bb; deeper it opens small and calls a
re-shove by pot odds (measured against the equilibrium player: see README)."""
RERAISER_RATE = 0.5
"""A seat that re-raises more than half its chances is raising regardless of its cards (no
equilibrium re-raises that often: the widest calling range in the solved charts, the hands
worth getting all-in with at 10 bb, is 37 %), so a re-raise of theirs is met by getting all
the chips in when the hand's equity against their re-raising share of hands pays."""
COMMIT_SHARE = 0.4
"""A bet that would put in this share of the stack goes all-in instead."""

SAMPLES = 300
BLUFF_CEILING = 0.45
"""Hands with more equity than this check rather than bluff."""
STREET_BOARD_SIZE = {Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}


class HardStrategy:
    """Range-reading, adaptive play; one instance should follow one table for a session."""

    def __init__(self) -> None:
        self.model = OpponentModel()

    def hand_finished(self, view: PlayerView) -> None:
        """Update the per-seat notes from a finished hand."""
        self.model.observe(view)

    def decide(self, view: PlayerView, rng: random.Random) -> Action:
        """Play from ranges preflop and from equity against narrowed ranges after the flop."""
        if view.street is Street.PREFLOP:
            return self._preflop(view, rng)
        return self._postflop(view, rng)

    # --- preflop -----------------------------------------------------------------------------

    def _preflop(self, view: PlayerView, rng: random.Random) -> Action:
        legal = legal_of(view)
        seat = view.seat
        assert seat is not None
        spot = short_stack.first_in(view)
        if spot is not None and spot.stack <= PUSH_FOLD_DEPTH:
            return short_stack.shove_or_fold(view, spot, rng)
        if short_stack.all_in_decision(view):
            return short_stack.call_all_in(view, weights=self._shover_range(view))
        if raise_count(view) >= 2:
            reraiser = last_aggressor(view, Street.PREFLOP)
            assert reraiser is not None
            rate = self.model.notes(reraiser).three_bet_rate
            if rate > RERAISER_RATE:
                return short_stack.call_all_in(view, weights=push_fold.top_range(rate))
        strength = percentile(hand_class(view.hole_cards))
        position = position_of(view, seat)
        raises = raise_count(view)
        big_blind = view.preflop_blind  # the straddle, when someone straddled
        if raises == 0:
            if legal.can_check:  # the big blind's option, or the straddler's
                if strength <= BIG_BLIND_RAISE_SHARE:
                    return self._raise_to(view, view.current_bet + 3 * big_blind)
                return CHECK
            if strength <= self._open_share(view, seat, position):
                limpers = sum(1 for bet in view.bets if bet >= big_blind) - 1
                size = (2.5 if view.num_seats == 2 else 3) * big_blind + big_blind * limpers
                return self._raise_to(view, round(size))
            return check_or_fold(legal)
        raiser = last_aggressor(view, Street.PREFLOP)
        assert raiser is not None
        notes = self.model.notes(raiser)
        if raises == 1:
            raiser_width = self._raiser_width(view, raiser, notes.raising_rate)
            value_share = max(0.03, 0.22 * raiser_width)
            in_position = position is Position.LATE or (
                position not in (Position.SMALL_BLIND, Position.BIG_BLIND)
                and seats_from_button(view, seat) < seats_from_button(view, raiser)
            )
            if strength <= value_share or (
                strength <= value_share * 2.2 and rng.random() < 0.35
            ):
                return self._raise_to(view, round((3 if in_position else 3.6) * view.current_bet))
            call_share = 0.65 * raiser_width + (0.12 if position is Position.BIG_BLIND else 0.0)
            if strength <= call_share and call_cost_share(view) < 0.45:
                return passive(legal)
            return FOLD
        aggressive_reraiser = notes.raising_rate > 0.3
        four_bet = FOUR_BET_SHARE * (1.8 if aggressive_reraiser else 1.0)
        if raises == 2:
            if strength <= four_bet:
                return self._raise_to(view, round(2.3 * view.current_bet))
            if strength <= CALL_THREE_BET_SHARE and view.bets[seat] > big_blind:
                return passive(legal)
            return FOLD
        if strength <= SHOVE_SHARE:
            return self._raise_to(view, legal.max_to)
        if strength <= four_bet and call_cost_share(view) < 0.4:
            return passive(legal)
        return FOLD

    def _shover_range(self, view: PlayerView) -> npt.NDArray[np.float64]:
        """The range behind the raise faced: the chart's, or, for the first raise of the hand,
        wider when the raiser raises more often than the chart's range (a maniac shoves more
        than equilibrium). A re-raise keeps the chart's: how often someone raises says
        little about what they re-raise all-in."""
        chart = short_stack.shove_range(view)
        raiser = last_aggressor(view, Street.PREFLOP)
        assert raiser is not None
        observed = self.model.notes(raiser).raising_rate
        if raise_count(view) == 1 and observed > range_share(chart):
            return push_fold.top_range(observed)
        return chart

    def _open_share(self, view: PlayerView, seat: int, position: Position) -> float:
        if view.num_seats == 2:
            return HEADS_UP_OPEN_SHARE
        if position is Position.SMALL_BLIND:
            return SMALL_BLIND_OPEN_SHARE
        index = min(seats_from_button(view, seat), len(OPEN_SHARE_BY_SEATS_TO_BUTTON) - 1)
        return OPEN_SHARE_BY_SEATS_TO_BUTTON[index]

    def _raiser_width(self, view: PlayerView, raiser: int, raising_rate: float) -> float:
        """How wide the raiser opens: their position's share, leaning to what they showed."""
        usual = self._open_share(view, raiser, position_of(view, raiser))
        return min(1.0, 0.5 * usual + 0.5 * raising_rate * (1.6 if view.num_seats == 2 else 1.0))

    # --- postflop ----------------------------------------------------------------------------

    def _postflop(self, view: PlayerView, rng: random.Random) -> Action:
        legal = legal_of(view)
        opponents = opponents_in_hand(view)
        ranges = [self.range_of(view, seat) for seat in opponents]
        hand_draws = draws(view.hole_cards, view.board)
        strong_draw = hand_draws.is_strong and view.street is not Street.RIVER
        heads_up = len(opponents) == 1
        value_line = 0.62 if heads_up else 0.55 + 0.05 * len(opponents)
        raise_line = 0.78 if heads_up else 0.85
        need = call_cost_share(view)
        implied = 0.06 if strong_draw else 0.0
        if legal.can_check:
            lines: tuple[float, ...] = (value_line, BLUFF_CEILING)
        else:
            lines = (raise_line, need + 0.02 - implied)
        try:
            equity = equity_vs_ranges(
                view.hole_cards, view.board, [hand_range.combos for hand_range in ranges],
                weights=[hand_range.weights for hand_range in ranges], samples=SAMPLES, rng=rng,
                thresholds=lines,
            )
        except ValueError:  # reads that no deal satisfies at once: weigh against any hands
            equity = equity_vs_random(view.hole_cards, view.board, len(opponents),
                                      samples=SAMPLES, rng=rng, thresholds=lines)
        fold_rate = np.mean([self.model.notes(seat).fold_to_bet for seat in opponents])
        value_size = 0.5 + 0.3 * board_wetness(view.board)
        if legal.can_check:
            if equity >= value_line:
                return self._bet_fraction(view, value_size)
            if strong_draw and rng.random() < 0.6:
                return self._bet_fraction(view, value_size)
            if self._should_bluff(view, equity, float(fold_rate), heads_up, rng):
                return self._bet_fraction(view, 0.5)
            return CHECK
        if equity >= raise_line:
            return self._bet_fraction(view, 0.8)
        if strong_draw and heads_up and view.street is Street.FLOP and rng.random() < 0.25:
            return self._bet_fraction(view, 0.8)
        if equity + implied >= need + 0.02:
            return passive(legal)
        return FOLD

    def _should_bluff(
        self, view: PlayerView, equity: float, fold_rate: float, heads_up: bool,
        rng: random.Random,
    ) -> bool:
        """Bluff weak hands at a frequency that grows with how often the opponents fold."""
        if equity > BLUFF_CEILING:
            return False
        was_aggressor = last_aggressor(view, Street.PREFLOP) == view.seat
        base = 0.45 if was_aggressor and view.street is Street.FLOP else 0.22
        if not heads_up:
            base *= 0.35
        return rng.random() < base * min(fold_rate / 0.4, 2.0)

    def range_of(self, view: PlayerView, seat: int) -> Range:
        """The range ``seat``'s public actions this hand imply, read with this bot's notes on them
        (a typical player's tendencies before any): the hand reading its decisions and the
        coach (``engine.coach``) share."""
        notes = self.model.notes(seat)
        dead = [*view.hole_cards, *view.board]
        preflop = [r for r in view.history if r.street is Street.PREFLOP]
        raise_levels = [index for index, record in enumerate(
            [r for r in preflop if r.kind in AGGRESSIVE_KINDS]) if record.seat == seat]
        if raise_levels:
            level = max(raise_levels)
            width = (self._raiser_width(view, seat, notes.raising_rate), 0.07, 0.03)[min(level, 2)]
        elif any(r.seat == seat and r.kind is ActionKind.CALL for r in preflop):
            width = min(1.0, 0.8 * notes.looseness + 0.1)
        else:
            width = 1.0
        hand_range = Range.top(width, dead, floor=0.02)
        aggression = notes.aggression
        for record in view.history:
            if record.seat != seat or record.street is Street.PREFLOP:
                continue
            board = view.board[: STREET_BOARD_SIZE[record.street]]
            if record.kind in AGGRESSIVE_KINDS:
                keep = (0.2 + 0.35 * aggression) * (0.7 if record.kind is ActionKind.RAISE else 1)
                hand_range = hand_range.narrowed(board, keep, 0.04 + 0.3 * aggression)
            elif record.kind is ActionKind.CALL:
                hand_range = hand_range.narrowed(board, 0.6, 0.25)
        return hand_range

    # --- sizing ------------------------------------------------------------------------------

    def _bet_fraction(self, view: PlayerView, fraction: float) -> Action:
        increase = round(fraction * pot_after_call(view))
        return self._raise_to(view, view.current_bet + max(increase, view.big_blind))

    def _raise_to(self, view: PlayerView, total: int) -> Action:
        """Raise to ``total``, or all-in when that would commit most of the stack anyway."""
        legal = legal_of(view)
        seat = view.seat
        assert seat is not None
        if total >= legal.max_to * COMMIT_SHARE + view.bets[seat] * (1 - COMMIT_SHARE):
            total = legal.max_to
        return bet_to(legal, total)

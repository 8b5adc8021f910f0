"""The expert bot: the hard bot's range reading, plus equilibrium short-stack play and
exploits priced from what each opponent has shown.

- First in deeper than 10 big blinds it raises to 2.5 bb with the opening range for its
  position and depth solved by ``engine.strategies.open_ranges``.
- Up to 10 big blinds first in it shoves or folds by the solved charts; from 10 to 25 bb it
  re-shoves over a single raise with the chart's calling range for that depth (the hands that
  happily get it all in), widened to the range a raiser who opens more often than the chart's
  shoving range actually holds; every all-in call is priced against the raise's range
  (``short_stack``).
- Deeper, it re-raises any playable hand when the raiser has been seen folding to re-raises
  more often than the re-raise needs to show a profit on the spot (risk / (risk + pot)).
- After the flop it plays as the hard bot (equity against ranges narrowed by each action,
  bet sizes growing with board wetness), but bluffs only when the opponents' observed fold
  rate beats the break-even share for the bet's size.
"""

from __future__ import annotations

import random

from engine.actions import Action, Street
from engine.strategies import push_fold, short_stack
from engine.strategies.hard import PUSH_FOLD_DEPTH, HardStrategy
from engine.strategies.moves import ALL_IN, check_or_fold, legal_of
from engine.strategies.open_ranges import RAISE_TO, open_range
from engine.strategies.preflop import hand_class, percentile
from engine.strategies.situation import (
    Position,
    effective_stack,
    last_aggressor,
    opponents_in_hand,
    position_of,
    raise_count,
    seats_from_button,
)
from engine.strategies.solve import Floats, range_share
from engine.view import PlayerView

PLAYABLE_SHARE = 0.5
"""Light re-raises use the stronger half of hands, which keep some equity when called."""
BLUFF_FRACTION = 0.5
"""Bluffs bet half the pot (the hard bot's bluff size), needing folds a third of the time."""


class ExpertStrategy(HardStrategy):
    """Hard's range reading with equilibrium short-stack play and priced exploits."""

    def _preflop(self, view: PlayerView, rng: random.Random) -> Action:
        seat = view.seat
        assert seat is not None
        spot = short_stack.first_in(view)
        if spot is not None and spot.stack > PUSH_FOLD_DEPTH:
            opening = open_range(spot.stack, spot.behind)
            if rng.random() < opening[push_fold.class_index(hand_class(view.hole_cards))]:
                return self._raise_to(view, round(RAISE_TO * view.preflop_blind))
            return check_or_fold(legal_of(view))
        if raise_count(view) == 1 and not short_stack.all_in_decision(view):
            raiser = last_aggressor(view, Street.PREFLOP)
            assert raiser is not None
            depth = effective_stack(view) / view.preflop_blind
            hand = hand_class(view.hole_cards)
            if depth <= push_fold.deepest_stack():
                reshove = self._reshove_range(view, raiser, depth)
                if rng.random() < reshove[push_fold.class_index(hand)]:
                    return ALL_IN
            elif self._light_reraise_pays(view, raiser) and percentile(hand) <= PLAYABLE_SHARE:
                in_position = position_of(view, seat) is Position.LATE or (
                    position_of(view, seat) not in (Position.SMALL_BLIND, Position.BIG_BLIND)
                    and seats_from_button(view, seat) < seats_from_button(view, raiser))
                return self._raise_to(view, self._reraise_size(view, in_position))
        return super()._preflop(view, rng)

    def _reshove_range(self, view: PlayerView, raiser: int, depth: float) -> Floats:
        """The chart's calling range at ``depth``, or the calling range against the range the
        raiser really opens when they open more often than the chart's shoving range."""
        behind = len(opponents_in_hand(view))
        chart = push_fold.call_range(depth, behind)
        opening = self.model.notes(raiser).raising_rate
        if opening > range_share(push_fold.shove_range(depth, behind)):
            return push_fold.calling_range_against(push_fold.top_range(opening), depth)
        return chart

    @staticmethod
    def _reraise_size(view: PlayerView, in_position: bool) -> int:
        """The hard bot's re-raise size: three times the raise in position, 3.6 out of it."""
        return round((3 if in_position else 3.6) * view.current_bet)

    def _light_reraise_pays(self, view: PlayerView, raiser: int) -> bool:
        """Whether the raiser's observed folds to re-raises beat the break-even share."""
        seat = view.seat
        assert seat is not None
        if len(opponents_in_hand(view)) > 1 and any(
            view.bets[other] for other in opponents_in_hand(view) if other != raiser
            and view.bets[other] > view.preflop_blind
        ):
            return False  # a caller in between: the re-raise must get through two players
        risk = self._reraise_size(view, in_position=False) - view.bets[seat]
        needed = risk / (risk + view.pot)
        return self.model.notes(raiser).fold_to_three_bet > needed

    def _should_bluff(
        self, view: PlayerView, equity: float, fold_rate: float, heads_up: bool,
        rng: random.Random,
    ) -> bool:
        """Bluff a weak hand only when the opponents fold more often than a half-pot bluff
        needs, at the hard bot's frequency."""
        needed = BLUFF_FRACTION / (1 + BLUFF_FRACTION)
        if fold_rate <= needed or not legal_of(view).can_bet_or_raise:
            return False
        return super()._should_bluff(view, equity, fold_rate, heads_up, rng)

"""Equity against weighted ranges, by a small vectorised Monte-Carlo simulation.

A ``Range`` is the set of two-card combinations an opponent may hold, each with a weight. Bots
narrow ranges as opponents act (``narrowed``) and ask ``equity_against`` how often their hand
wins; a few hundred samples through ``evaluate_batch`` take well under a millisecond.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from engine.cards import Card
from engine.evaluator import evaluate_batch
from engine.strategies.preflop import TOTAL_COMBOS, ranked_combos

_STRAIGHT_WINDOWS = np.array([0b11111 << low for low in range(10)], dtype=np.int64)
_POPCOUNT = np.array([bin(value).count("1") for value in range(1 << 14)], dtype=np.int8)


@cache
def _ranked_combo_array() -> np.ndarray:
    return np.array(ranked_combos(), dtype=np.intp)


@dataclass(frozen=True, slots=True, eq=False)
class Range:
    """Weighted combinations: ``combos`` has shape (m, 2), ``weights`` shape (m,), all > 0."""

    combos: np.ndarray
    weights: np.ndarray

    @classmethod
    def top(cls, fraction: float, dead: Iterable[Card] = (), floor: float = 0.0) -> Range:
        """The strongest ``fraction`` of starting hands (weight 1), the rest weighted ``floor``.

        >>> len(Range.top(0.1).combos) >= 132
        True
        """
        if not 0.0 < fraction <= 1.0:
            raise ValueError(f"a range is a share of hands in (0, 1], not {fraction}")
        combos = _ranked_combo_array()
        weights = np.full(TOTAL_COMBOS, floor)
        weights[: max(1, round(fraction * TOTAL_COMBOS))] = 1.0
        return cls._kept(combos, weights, dead)

    @classmethod
    def any_two(cls, dead: Iterable[Card] = ()) -> Range:
        """Every combination equally likely: a random hand."""
        return cls._kept(_ranked_combo_array(), np.ones(TOTAL_COMBOS), dead)

    @classmethod
    def _kept(cls, combos: np.ndarray, weights: np.ndarray, dead: Iterable[Card]) -> Range:
        dead_list = list(dead)
        live = weights > 0
        if dead_list:
            live &= ~np.isin(combos, dead_list).any(axis=1)
        if not live.any():
            raise ValueError("no combination is left in the range")
        return cls(combos[live], weights[live])

    def narrowed(self, board: Sequence[Card], keep_share: float, others: float) -> Range:
        """The range after a show of strength on ``board``.

        The strongest ``keep_share`` (by weight) of made hands, and every strong draw, keep
        their weight; the rest are scaled by ``others`` (their share of bluffs and mistakes).
        """
        if len(board) < 3:
            raise ValueError("ranges narrow by made hands only once the flop is out")
        ranks = board_ranks(self.combos, board)
        order = np.argsort(ranks, kind="stable")
        cumulative = np.cumsum(self.weights[order])
        cutoff = np.searchsorted(cumulative, keep_share * cumulative[-1])
        strong = np.zeros(len(ranks), dtype=bool)
        strong[order[: cutoff + 1]] = True
        if len(board) < 5:
            strong |= strong_draws(self.combos, board)
        weights = np.where(strong, self.weights, self.weights * others)
        kept = weights > 0
        return Range(self.combos[kept], weights[kept]) if kept.any() else self


def board_ranks(combos: np.ndarray, board: Sequence[Card]) -> np.ndarray:
    """The evaluator rank of each combination with ``board`` (1 best)."""
    board_block = np.broadcast_to(np.asarray(board, dtype=np.intp), (len(combos), len(board)))
    return evaluate_batch(np.hstack([combos, board_block]))


def strong_draws(combos: np.ndarray, board: Sequence[Card]) -> np.ndarray:
    """Which combinations hold a flush draw or an open-ended straight draw on ``board``."""
    board_array = np.asarray(board, dtype=np.intp)
    cards = np.hstack([combos, np.broadcast_to(board_array, (len(combos), len(board)))])
    suit_counts = np.stack([(cards & 3 == suit).sum(axis=1) for suit in range(4)], axis=1)
    board_suits = np.bincount(board_array & 3, minlength=4)
    flush_draw = ((suit_counts == 4) & (board_suits < 4)).any(axis=1)
    masks = _rank_masks(cards)
    board_mask = int(_rank_masks(board_array[None, :])[0])
    held = _POPCOUNT[masks[:, None] & _STRAIGHT_WINDOWS]
    board_held = _POPCOUNT[board_mask & _STRAIGHT_WINDOWS]
    four_to_window = (held == 4) & (board_held < 4)
    open_ended = four_to_window.sum(axis=1) >= 2
    made = (held == 5).any(axis=1)
    return flush_draw | (open_ended & ~made)


def _rank_masks(cards: np.ndarray) -> np.ndarray:
    """Bit ``r + 1`` for each rank held (bit 0 too for an ace, which also plays low)."""
    bits = np.left_shift(1, (cards >> 2) + 1).astype(np.int64)
    masks = np.bitwise_or.reduce(bits, axis=1)
    return masks | ((masks >> 13) & 1)


def equity_against(
    hole: Sequence[Card],
    board: Sequence[Card],
    ranges: Sequence[Range],
    samples: int,
    generator: np.random.Generator,
) -> float:
    """The share of the pot ``hole`` wins on average against one hand from each range.

    Opponents' hands are drawn by weight, the rest of the board uniformly; samples in which
    drawn cards collide are dropped.
    """
    if not ranges:
        return 1.0
    if samples < 1:
        raise ValueError("equity needs at least one sample")
    known = [*hole, *board]
    missing = 5 - len(board)
    deck = np.setdiff1d(np.arange(52), known)
    runouts = deck[generator.integers(0, len(deck), size=(samples, missing))]
    valid = np.ones(samples, dtype=bool)
    for first in range(missing):
        for second in range(first + 1, missing):
            valid &= runouts[:, first] != runouts[:, second]
    held: list[np.ndarray] = []
    for opponent_range in ranges:
        probabilities = opponent_range.weights / opponent_range.weights.sum()
        picks = generator.choice(len(probabilities), size=samples, p=probabilities)
        hands = opponent_range.combos[picks]
        for other in [runouts, *held]:
            valid &= ~(hands[:, :, None] == other[:, None, :]).any(axis=(1, 2))
        held.append(hands)
    if not valid.any():
        return 0.5
    board_block = np.broadcast_to(np.asarray(board, dtype=np.intp), (samples, len(board)))
    full_board = np.hstack([board_block, runouts])[valid]
    hero = evaluate_batch(np.hstack([np.broadcast_to(np.asarray(hole), (len(full_board), 2)),
                                     full_board]))
    rivals = np.stack([evaluate_batch(np.hstack([hands[valid], full_board])) for hands in held])
    best_rival = rivals.min(axis=0)
    ties = (rivals == hero).sum(axis=0)
    shares = np.where(hero < best_rival, 1.0, np.where(hero == best_rival, 1.0 / (ties + 1), 0.0))
    return float(shares.mean())

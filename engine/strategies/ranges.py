"""Weighted ranges: the two-card combinations an opponent may hold, each with a weight.

A ``Range`` weighs every one of the 1,326 starting combinations (in ``ranked_combos`` order,
strongest first; weight 0 means impossible), so building, masking and narrowing ranges are
whole-array operations. What narrowing needs to know about a board (each combination's rank and
whether it holds a strong draw) is worked out once per board and kept, since a bot narrows
every opponent's range on the same boards decision after decision. Equity against ranges is
``engine.equity.equity_vs_ranges``.

>>> from engine.cards import parse_cards
>>> random_hand = Range.any_two(parse_cards("Ah Kd 7c 7d 2s"))
>>> len(random_hand.combos)   # C(47, 2): the combinations without a known card
1081
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from engine.cards import Card
from engine.evaluator import WORST_RANK, rank_columns
from engine.strategies.preflop import TOTAL_COMBOS, ranked_combos

_STRAIGHT_WINDOWS = np.array([0b11111 << low for low in range(10)], dtype=np.int64)
_POPCOUNT = np.array([bin(value).count("1") for value in range(1 << 14)], dtype=np.int8)
_BOARDS_KEPT = 4096
"""Boards whose narrowing tables stay cached: about 5 kB each, and enough for the boards of a
few thousand hands in play at once."""
_DEAD_SETS_KEPT = 1024


@cache
def all_combos() -> npt.NDArray[np.intp]:
    """Every two-card combination, shape (1326, 2), strongest starting hand first (read-only)."""
    combos = np.array(ranked_combos(), dtype=np.intp)
    combos.flags.writeable = False
    return combos


@cache
def _combo_bits() -> npt.NDArray[np.uint64]:
    combos = all_combos().astype(np.uint64)
    return (np.uint64(1) << combos[:, 0]) | (np.uint64(1) << combos[:, 1])


@lru_cache(maxsize=_DEAD_SETS_KEPT)
def _free_of(dead_bits: int) -> npt.NDArray[np.bool]:
    """Which combinations avoid every card in the ``dead_bits`` set (read-only)."""
    free: npt.NDArray[np.bool] = (_combo_bits() & np.uint64(dead_bits)) == 0
    free.flags.writeable = False
    return free


def _card_bits(cards: Iterable[Card]) -> int:
    bits = 0
    for card in cards:
        if not 0 <= card < 52:
            raise ValueError(f"card ids are 0 to 51, not {card}")
        bits |= 1 << card
    return bits


@dataclass(frozen=True, slots=True, eq=False)
class Range:
    """Weights for all combinations, shape (1326,), in ``all_combos`` order; 0 = not held.

    Raises ``ValueError`` for another shape or when every weight is 0.
    """

    all_weights: npt.NDArray[np.float64]

    def __post_init__(self) -> None:
        if self.all_weights.shape != (TOTAL_COMBOS,):
            raise ValueError(f"a range weighs all {TOTAL_COMBOS} combinations, "
                             f"not {self.all_weights.shape}")
        if not self.all_weights.any():
            raise ValueError("no combination is left in the range")

    @property
    def combos(self) -> npt.NDArray[np.intp]:
        """The combinations held with some weight, shape (m, 2), strongest first."""
        return all_combos()[self.all_weights > 0]

    @property
    def weights(self) -> npt.NDArray[np.float64]:
        """The weights of ``combos``, all > 0."""
        return self.all_weights[self.all_weights > 0]

    @classmethod
    def top(cls, fraction: float, dead: Iterable[Card] = (), floor: float = 0.0) -> Range:
        """The strongest ``fraction`` of starting hands (weight 1), the rest weighted ``floor``.

        Combinations using a ``dead`` card are dropped. Raises ``ValueError`` for a
        ``fraction`` outside (0, 1], a non-card, or a range left empty.

        >>> len(Range.top(0.1).combos) >= 132
        True
        """
        if not 0.0 < fraction <= 1.0:
            raise ValueError(f"a range is a share of hands in (0, 1], not {fraction}")
        weights = np.full(TOTAL_COMBOS, floor)
        weights[: max(1, round(fraction * TOTAL_COMBOS))] = 1.0
        return cls(weights * _free_of(_card_bits(dead)))

    @classmethod
    def any_two(cls, dead: Iterable[Card] = ()) -> Range:
        """Every combination without a ``dead`` card, equally likely: a random hand."""
        return cls(_free_of(_card_bits(dead)).astype(float))

    def narrowed(self, board: Sequence[Card], keep_share: float, others: float) -> Range:
        """The range after a show of strength on ``board``.

        The strongest ``keep_share`` (by weight) of made hands, and every strong draw, keep
        their weight; the rest are scaled by ``others`` (their share of bluffs and mistakes).
        Combinations that use a board card are dropped. Raises ``ValueError`` before the
        flop, or if no combination is left.
        """
        if len(board) < 3:
            raise ValueError("ranges narrow by made hands only once the flop is out")
        table = _board_table(tuple(board))
        weights = self.all_weights * table.free
        ordered = np.cumsum(weights[table.strongest_first])
        if not ordered[-1]:
            return self
        cutoff = np.searchsorted(ordered, keep_share * ordered[-1])
        strong = np.zeros(TOTAL_COMBOS, dtype=bool)
        strong[table.strongest_first[: cutoff + 1]] = True
        if len(board) < 5:
            strong |= table.strong_draws
        return Range(np.where(strong, weights, weights * others))


@dataclass(frozen=True, slots=True)
class _BoardTable:
    """What narrowing needs about one board, for every combination (``all_combos`` order)."""

    free: npt.NDArray[np.bool]
    strongest_first: npt.NDArray[np.int16]
    strong_draws: npt.NDArray[np.bool]


@lru_cache(maxsize=_BOARDS_KEPT)
def _board_table(board: tuple[Card, ...]) -> _BoardTable:
    combos = all_combos()
    free = _free_of(_card_bits(board))
    ranks = np.full(TOTAL_COMBOS, WORST_RANK + 1, dtype=np.int32)
    ranks[free] = board_ranks(combos[free], board)
    draws = np.zeros(TOTAL_COMBOS, dtype=bool)
    if len(board) < 5:
        draws[free] = strong_draws(combos[free], board)
    return _BoardTable(free, np.argsort(ranks, kind="stable").astype(np.int16), draws)


def board_ranks(combos: npt.NDArray[np.intp], board: Sequence[Card]) -> npt.NDArray[np.uint16]:
    """The evaluator rank of each combination with ``board`` (1 best); none may share a card."""
    board_block = np.broadcast_to(np.asarray(board, dtype=np.intp), (len(combos), len(board)))
    return rank_columns(np.hstack([combos, board_block]).T)


def strong_draws(combos: npt.NDArray[np.intp], board: Sequence[Card]) -> npt.NDArray[np.bool]:
    """Which combinations hold a flush draw or an open-ended straight draw on ``board``.

    A flush draw is four of a suit with at least one of them in the hand; an open-ended draw
    is two ways to fill a straight with a hole card among the four (and no straight yet).
    """
    board_array = np.asarray(board, dtype=np.intp)
    board_suits = np.bincount(board_array & 3, minlength=4)
    first, second = combos[:, 0], combos[:, 1]
    suited = (first & 3) == (second & 3)
    flush_draw = np.zeros(len(combos), dtype=bool)
    for card in (first, second):
        on_board = board_suits[card & 3]
        flush_draw |= (on_board + 1 + suited == 4) & (on_board < 4)
    board_mask = int(_rank_masks(board_array[None, :])[0])
    masks = _rank_masks(combos) | board_mask
    held = _POPCOUNT[masks[:, None] & _STRAIGHT_WINDOWS]
    board_held = _POPCOUNT[board_mask & _STRAIGHT_WINDOWS]
    open_ended = ((held == 4) & (board_held < 4)).sum(axis=1) >= 2
    made = (held == 5).any(axis=1)
    draws: npt.NDArray[np.bool] = flush_draw | (open_ended & ~made)
    return draws


def _rank_masks(cards: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """Bit ``r + 1`` for each rank held (bit 0 too for an ace, which also plays low)."""
    bits = np.left_shift(1, (cards >> 2) + 1).astype(np.int64)
    masks: npt.NDArray[np.int64] = np.bitwise_or.reduce(bits, axis=1)
    return masks | ((masks >> 13) & 1)

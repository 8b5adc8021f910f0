"""Lookup tables behind ``engine.evaluator``, built once at import in a fraction of a second.

Every five-card hand class gets its Cactus Kev number by listing the 7,462 classes best first
(``HAND_CLASSES``). Seven cards are then scored without trying their 21 five-card subsets:

* each card has an additive key, ``rank_key << 9 | suit_key``. The rank keys (from Kevin
  Suffecool's successors, the SKPokerEval evaluator) make the sum of any seven ranks, with at
  most four of each, unique; the suit keys ``0, 1, 8, 57`` make the sum tell how many cards of
  each suit there are.
* if five or more share a suit, the 13-bit mask of that suit's ranks indexes ``FLUSH_RANKS``;
* otherwise the rank sum indexes ``NOFLUSH7_RANKS`` directly (7.8 M ``uint16`` = 15.6 MB).

Five- and six-card rank sums are unique within their own size but collide across sizes, so
they are looked up in small sorted tables (``NOFLUSH5`` and ``NOFLUSH6``: keys and ranks).
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

RANK_KEYS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
SUIT_KEYS = (0, 1, 8, 57)
SUIT_BITS = 9
SUIT_MASK = (1 << SUIT_BITS) - 1

CARD_KEYS: tuple[int, ...] = tuple(
    RANK_KEYS[card >> 2] << SUIT_BITS | SUIT_KEYS[card & 3] for card in range(52)
)

# Category numbers follow engine.evaluator.HandCategory (1 = straight flush … 9 = high card).
STRAIGHT_FLUSH, FOUR_OF_A_KIND, FULL_HOUSE, FLUSH, STRAIGHT = 1, 2, 3, 4, 5
THREE_OF_A_KIND, TWO_PAIR, ONE_PAIR, HIGH_CARD = 6, 7, 8, 9


class HandClass(NamedTuple):
    """One of the 7,462 five-card hand classes: its category and the ranks that decide it.

    ``ranks`` lists the deciding ranks by importance: for a full house the trips then the pair,
    for a straight only its top card (3 for the wheel), for a flush all five, high first.
    """

    category: int
    ranks: tuple[int, ...]


def _straight_highs() -> tuple[int, ...]:
    """Top cards of the ten straights, best first; the wheel A-2-3-4-5 tops at the five (3)."""
    return tuple(range(12, 2, -1))


def _straight_ranks(high: int) -> tuple[int, ...]:
    return (3, 2, 1, 0, 12) if high == 3 else tuple(range(high, high - 5, -1))


def _is_straight(ranks: tuple[int, ...]) -> bool:
    return any(set(ranks) == set(_straight_ranks(high)) for high in _straight_highs())


def _hand_classes() -> tuple[HandClass, ...]:
    """All classes in Cactus Kev order: index + 1 is the class's rank number."""
    descending = tuple(range(12, -1, -1))
    no_straight = [
        ranks for ranks in combinations(descending, 5) if not _is_straight(ranks)
    ]

    def others(*used: int) -> tuple[int, ...]:
        return tuple(rank for rank in descending if rank not in used)

    classes = [HandClass(STRAIGHT_FLUSH, (high,)) for high in _straight_highs()]
    classes += [HandClass(FOUR_OF_A_KIND, (q, k)) for q in descending for k in others(q)]
    classes += [HandClass(FULL_HOUSE, (t, p)) for t in descending for p in others(t)]
    classes += [HandClass(FLUSH, ranks) for ranks in no_straight]
    classes += [HandClass(STRAIGHT, (high,)) for high in _straight_highs()]
    classes += [
        HandClass(THREE_OF_A_KIND, (t, *kickers))
        for t in descending for kickers in combinations(others(t), 2)
    ]
    classes += [
        HandClass(TWO_PAIR, (high, low, kicker))
        for high, low in combinations(descending, 2) for kicker in others(high, low)
    ]
    classes += [
        HandClass(ONE_PAIR, (p, *kickers))
        for p in descending for kickers in combinations(others(p), 3)
    ]
    classes += [HandClass(HIGH_CARD, ranks) for ranks in no_straight]
    return tuple(classes)


HAND_CLASSES = _hand_classes()

_COPIES = {  # how many times each deciding rank appears in the five cards
    FOUR_OF_A_KIND: (4, 1),
    FULL_HOUSE: (3, 2),
    THREE_OF_A_KIND: (3, 1, 1),
    TWO_PAIR: (2, 2, 1),
    ONE_PAIR: (2, 1, 1, 1),
}


def five_ranks(hand_class: HandClass) -> tuple[int, ...]:
    """The five card ranks of a class, in display order (pairs first, wheel as 5-4-3-2-A)."""
    if hand_class.category in (STRAIGHT_FLUSH, STRAIGHT):
        return _straight_ranks(hand_class.ranks[0])
    copies = _COPIES.get(hand_class.category, (1,) * 5)
    return tuple(rank for rank, count in zip(hand_class.ranks, copies, strict=True)
                 for _ in range(count))


def _flush_ranks() -> npt.NDArray[np.uint16]:
    """Best flush or straight flush rank for every 13-bit mask of 5 to 7 suited ranks."""
    table = np.zeros(1 << 13, dtype=np.uint16)
    for number, hand_class in enumerate(HAND_CLASSES, start=1):
        if hand_class.category in (STRAIGHT_FLUSH, FLUSH):
            table[sum(1 << rank for rank in five_ranks(hand_class))] = number
    masks = np.arange(1 << 13)
    bit_counts = np.bitwise_count(masks)
    for size in (6, 7):
        wide = masks[bit_counts == size]
        best = np.full(len(wide), np.iinfo(np.uint16).max, dtype=np.uint16)
        for rank in range(13):
            has = (wide >> rank) & 1 == 1
            best[has] = np.minimum(best[has], table[wide[has] & ~(1 << rank)])
        table[wide] = best
    return table


def _rank_multisets(size: int) -> npt.NDArray[np.int64]:
    """Every multiset of ``size`` ranks with at most four of a rank, one sorted row each."""
    rows = np.array(list(combinations_with_replacement(range(13), size)), dtype=np.int64)
    counts = np.zeros((len(rows), 13), dtype=np.int64)
    for column in range(size):
        np.add.at(counts, (np.arange(len(rows)), rows[:, column]), 1)
    kept: npt.NDArray[np.int64] = rows[counts.max(axis=1) <= 4]
    return kept


class SortedTable(NamedTuple):
    """Rank sums in increasing order and the hand rank of each (for ``np.searchsorted``)."""

    keys: npt.NDArray[np.int64]
    ranks: npt.NDArray[np.uint16]

    def lookup(self, keys: npt.NDArray[np.integer]) -> npt.NDArray[np.uint16]:
        """The rank of each of ``keys``, which must all be in the table (no check, for speed)."""
        ranks: npt.NDArray[np.uint16] = self.ranks[np.searchsorted(self.keys, keys)]
        return ranks


def _sorted(keys: npt.NDArray[np.int64], ranks: npt.NDArray[np.integer]) -> SortedTable:
    order = np.argsort(keys)
    return SortedTable(keys[order], ranks[order].astype(np.uint16))


def _noflush_tables() -> tuple[SortedTable, SortedTable, npt.NDArray[np.uint16]]:
    """Best non-flush rank by rank sum, for five, six and seven cards."""
    rank_keys = np.array(RANK_KEYS, dtype=np.int64)
    keys5, ranks5 = [], []
    for number, hand_class in enumerate(HAND_CLASSES, start=1):
        if hand_class.category not in (STRAIGHT_FLUSH, FLUSH):
            keys5.append(sum(RANK_KEYS[rank] for rank in five_ranks(hand_class)))
            ranks5.append(number)
    tables = [_sorted(np.array(keys5, dtype=np.int64), np.array(ranks5))]
    for size in (6, 7):
        rows = _rank_multisets(size)
        keys = rank_keys[rows].sum(axis=1)
        best = np.min(
            [tables[-1].lookup(keys - rank_keys[rows[:, column]]) for column in range(size)],
            axis=0,
        )
        tables.append(_sorted(keys, best))
    seven = np.zeros(int(tables[2].keys[-1]) + 1, dtype=np.uint16)
    seven[tables[2].keys] = tables[2].ranks
    return tables[0], tables[1], seven


def _flush_suits() -> npt.NDArray[np.int8]:
    """``FLUSH_SUITS[n, suit_sum]``: the suit held five or more times among n cards, else -1."""
    table = np.full((8, SUIT_MASK + 1), -1, dtype=np.int8)
    for n in range(5, 8):
        for c1 in range(n + 1):
            for c2 in range(n + 1 - c1):
                for c3 in range(n + 1 - c1 - c2):
                    counts = (n - c1 - c2 - c3, c1, c2, c3)
                    flush = [suit for suit, count in enumerate(counts) if count >= 5]
                    if flush:
                        table[n, c1 * SUIT_KEYS[1] + c2 * SUIT_KEYS[2] + c3 * SUIT_KEYS[3]] = (
                            flush[0]
                        )
    return table


FLUSH_RANKS = _flush_ranks()
NOFLUSH5, NOFLUSH6, NOFLUSH7_RANKS = _noflush_tables()
FLUSH_SUITS = _flush_suits()
CARD_KEYS_ARRAY = np.array(CARD_KEYS, dtype=np.uint32)

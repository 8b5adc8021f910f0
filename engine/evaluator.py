"""Poker hand strength: a rank from 1 (royal flush) to 7462 (7-5-4-3-2 high); lower is better.

Ranks follow Cactus Kev's numbering, so they match phevaluator and treys:

====================  ===========
straight flush          1 –   10
four of a kind         11 –  166
full house            167 –  322
flush                 323 – 1599
straight             1600 – 1609
three of a kind      1610 – 2467
two pair             2468 – 3325
one pair             3326 – 6185
high card            6186 – 7462
====================  ===========

>>> from engine.cards import parse_cards
>>> evaluate(parse_cards("Ah Kh Qh Jh Th 2c 3d"))
1
>>> describe(parse_cards("Js Jd 3c 3h 9s 2d Ac")).name
'Two Pair, Jacks and Threes'
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from engine.cards import RANK_NAMES, RANK_PLURALS, Card, cards_str, check_distinct
from engine.evaluator_tables import (
    CARD_KEYS,
    CARD_KEYS_ARRAY,
    FLUSH_RANKS,
    FLUSH_SUITS,
    HAND_CLASSES,
    NOFLUSH5,
    NOFLUSH6,
    NOFLUSH7_RANKS,
    SUIT_BITS,
    SUIT_MASK,
    HandClass,
    five_ranks,
)

WORST_RANK = 7462


class HandCategory(IntEnum):
    """The nine kinds of poker hand, best first."""

    STRAIGHT_FLUSH = 1
    FOUR_OF_A_KIND = 2
    FULL_HOUSE = 3
    FLUSH = 4
    STRAIGHT = 5
    THREE_OF_A_KIND = 6
    TWO_PAIR = 7
    ONE_PAIR = 8
    HIGH_CARD = 9

    @property
    def label(self) -> str:
        """The category as players say it: ``"Full House"``, ``"Two Pair"`` …"""
        return _LABELS[self]


_LABELS = {
    HandCategory.STRAIGHT_FLUSH: "Straight Flush",
    HandCategory.FOUR_OF_A_KIND: "Four of a Kind",
    HandCategory.FULL_HOUSE: "Full House",
    HandCategory.FLUSH: "Flush",
    HandCategory.STRAIGHT: "Straight",
    HandCategory.THREE_OF_A_KIND: "Three of a Kind",
    HandCategory.TWO_PAIR: "Two Pair",
    HandCategory.ONE_PAIR: "One Pair",
    HandCategory.HIGH_CARD: "High Card",
}

# The worst rank of each category, best category first.
_CATEGORY_LAST_RANKS = (10, 166, 322, 1599, 1609, 2467, 3325, 6185, WORST_RANK)

# Plain Python lists and a memoryview: indexing them is faster than indexing numpy arrays.
_FLUSH_RANKS: list[int] = FLUSH_RANKS.tolist()
_FLUSH_SUITS: list[list[int]] = FLUSH_SUITS.tolist()
_NOFLUSH7 = NOFLUSH7_RANKS.data
_NOFLUSH_SMALL: dict[int, dict[int, int]] = {
    5: dict(zip(NOFLUSH5.keys.tolist(), NOFLUSH5.ranks.tolist(), strict=True)),
    6: dict(zip(NOFLUSH6.keys.tolist(), NOFLUSH6.ranks.tolist(), strict=True)),
}


def category(rank: int) -> HandCategory:
    """The category of a hand rank; raises ``ValueError`` for a number that is not a rank.

    >>> category(1), category(1600), category(7462)
    (<HandCategory.STRAIGHT_FLUSH: 1>, <HandCategory.STRAIGHT: 5>, <HandCategory.HIGH_CARD: 9>)
    """
    if not isinstance(rank, int | np.integer) or not 1 <= rank <= WORST_RANK:
        raise ValueError(f"{rank!r} is not a hand rank (1-{WORST_RANK})")
    return HandCategory(bisect_left(_CATEGORY_LAST_RANKS, rank) + 1)


def evaluate(cards: Sequence[Card]) -> int:
    """The rank of the best five-card hand among 5, 6 or 7 distinct cards (1 is best).

    Raises ``ValueError`` for a wrong count, a repeated card or a non-card.

    >>> from engine.cards import parse_cards
    >>> evaluate(parse_cards("5c 4d 3h 2s Ac"))
    1609
    >>> evaluate(parse_cards("7c 5d 4h 3s 2c"))
    7462
    """
    count = len(cards)
    if not 5 <= count <= 7:
        raise ValueError(f"a hand is 5, 6 or 7 cards, not {count}")
    if len(set(cards)) != count or min(cards) < 0 or max(cards) > 51:
        check_distinct(cards)  # raises, naming the bad card
    keys = CARD_KEYS
    key = 0
    for card in cards:
        key += keys[card]
    flush_suit = _FLUSH_SUITS[count][key & SUIT_MASK]
    if flush_suit >= 0:
        mask = 0
        for card in cards:
            if card & 3 == flush_suit:
                mask |= 1 << (card >> 2)
        return _FLUSH_RANKS[mask]
    if count == 7:
        return _NOFLUSH7[key >> SUIT_BITS]
    return _NOFLUSH_SMALL[count][key >> SUIT_BITS]


def evaluate_batch(cards: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Ranks of many hands at once: ``cards`` has shape (n, 5), (n, 6) or (n, 7).

    Returns a ``uint16`` array of n ranks. Every row must hold distinct card ids 0-51, else
    ``ValueError`` names the first bad row.

    >>> from engine.cards import parse_cards
    >>> evaluate_batch(np.array([parse_cards("As Ks Qs Js Ts"), parse_cards("7c 5d 4h 3s 2c")]))
    array([   1, 7462], dtype=uint16)
    """
    hands = np.asarray(cards)
    _check_batch_shape(hands)
    ranks = np.empty(len(hands), dtype=np.uint16)
    for start in range(0, len(hands), BATCH_BLOCK):
        columns = hands[start:start + BATCH_BLOCK].T
        _check_distinct_columns(columns, start)
        ranks[start:start + BATCH_BLOCK] = rank_columns(columns)
    return ranks


# Rows per block: small enough for a block's intermediates to stay in the CPU cache.
BATCH_BLOCK = 1 << 16

CARD_BITS = np.uint64(1) << np.arange(52, dtype=np.uint64)
"""Each card's bit, for card sets as 64-bit masks."""


def _check_batch_shape(hands: npt.NDArray[np.generic]) -> None:
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= 7:
        raise ValueError(f"hands must have shape (n, 5), (n, 6) or (n, 7), not {hands.shape}")
    if not np.issubdtype(hands.dtype, np.integer):
        raise ValueError(f"card ids must be integers, not {hands.dtype}")
    if hands.size and (hands.min() < 0 or hands.max() > 51):
        raise ValueError("card ids must be between 0 and 51")


def _check_distinct_columns(columns: npt.NDArray[np.integer], first_row: int) -> None:
    """Raise if a hand (a column of ``columns``) holds a card twice."""
    repeats = np.flatnonzero(~all_distinct(columns))
    if len(repeats):
        row = int(repeats[0])
        hand = cards_str(columns[:, row].tolist())
        raise ValueError(f"hand {first_row + row} repeats a card: {hand}")


def all_distinct(columns: npt.NDArray[np.integer]) -> npt.NDArray[np.bool]:
    """For each hand (a column of ``columns``, one row per card), whether its cards differ."""
    bits = np.zeros(columns.shape[1], dtype=np.uint64)
    for column in columns:
        bits |= np.take(CARD_BITS, column)
    distinct: npt.NDArray[np.bool] = np.bitwise_count(bits) == len(columns)
    return distinct


def rank_columns(columns: npt.NDArray[np.integer]) -> npt.NDArray[np.uint16]:
    """Ranks of valid hands given card by card: ``columns[i]`` holds every hand's i-th card.

    The unchecked core of ``evaluate_batch``, for callers that build hands known to be valid.
    """
    key = np.take(CARD_KEYS_ARRAY, columns[0])
    for column in columns[1:]:
        key += np.take(CARD_KEYS_ARRAY, column)

    return rank_keys(key, len(columns), lambda rows, suits: suited_masks(columns, rows, suits))


def suited_masks(
    cards: Iterable[npt.NDArray[np.integer] | Card],
    rows: npt.NDArray[np.intp],
    suits: npt.NDArray[np.integer],
) -> npt.NDArray[np.intp]:
    """For the hands at ``rows``, the 13-bit mask of ranks held in each hand's ``suits``.

    Each item of ``cards`` is one card per hand: an array (indexed by hand) or a single
    card shared by every hand, like a board card.
    """
    masks = np.zeros(len(rows), dtype=np.intp)
    for card in cards:
        held = card[rows].astype(np.intp) if isinstance(card, np.ndarray) else card
        masks |= np.where(held & 3 == suits, 1 << (held >> 2), 0)
    return masks


def rank_keys(
    key: npt.NDArray[np.uint32],
    count: int,
    suited_masks: Callable[[npt.NDArray[np.intp], npt.NDArray[np.int8]], npt.NDArray[np.intp]],
) -> npt.NDArray[np.uint16]:
    """Ranks of ``count``-card hands from their summed card keys (``CARD_KEYS``).

    Only for hands with a flush are the cards needed: ``suited_masks(rows, suits)`` gives,
    for those rows, the 13-bit mask of ranks held in the flush suit.
    """
    rank_sums = key >> SUIT_BITS
    ranks: npt.NDArray[np.uint16]
    if count == 7:
        ranks = NOFLUSH7_RANKS[rank_sums]
    else:
        ranks = (NOFLUSH5 if count == 5 else NOFLUSH6).lookup(rank_sums)
    flush_suits = FLUSH_SUITS[count][key & SUIT_MASK]
    flushed = np.flatnonzero(flush_suits >= 0)
    if len(flushed):
        ranks[flushed] = FLUSH_RANKS[suited_masks(flushed, flush_suits[flushed])]
    return ranks


@dataclass(frozen=True, slots=True)
class HandDescription:
    """A hand as players name it, with the five cards that make it in display order."""

    rank: int
    category: HandCategory
    name: str
    best_five: tuple[Card, ...]

    def __str__(self) -> str:
        return self.name


def describe(cards: Sequence[Card]) -> HandDescription:
    """Rank and name the best hand among 5-7 cards, and pick its five cards.

    ``best_five`` is in display order: the cards that make the hand first (quads, trips,
    pairs, higher pair first), then kickers high to low; straights from their top card, the
    wheel as 5-4-3-2-A.

    >>> from engine.cards import cards_str, parse_cards
    >>> hand = describe(parse_cards("Kd 2c Ks 2h Kc 9d 8s"))
    >>> hand.name, cards_str(hand.best_five)
    ('Full House, Kings full of Twos', 'Kd Ks Kc 2c 2h')
    >>> describe(parse_cards("Ah 2d 3c 4s 5h Kd")).name
    'Straight, Five high'
    """
    rank = evaluate(cards)
    five = next(hand for hand in combinations(cards, 5) if evaluate(hand) == rank)
    best_five = _in_display_order(five, five_ranks(HAND_CLASSES[rank - 1]))
    return HandDescription(rank, category(rank), hand_name(rank), best_five)


@cache
def hand_name(rank: int) -> str:
    """The name of the hands of evaluator rank ``rank`` (worked out once per rank, then kept).

    Raises ``ValueError`` for a number that is not a rank.

    >>> hand_name(1), hand_name(WORST_RANK)
    ('Royal Flush', 'High Card, Seven')
    """
    if not 1 <= rank <= len(HAND_CLASSES):
        raise ValueError(f"a hand rank is 1 to {len(HAND_CLASSES)}, not {rank}")
    return _name(HAND_CLASSES[rank - 1])


def _in_display_order(five: Sequence[Card], ranks: tuple[int, ...]) -> tuple[Card, ...]:
    """The five cards arranged to follow ``ranks``; equal ranks keep their given order."""
    left = list(five)
    ordered = []
    for rank in ranks:
        card = next(card for card in left if card >> 2 == rank)
        left.remove(card)
        ordered.append(card)
    return tuple(ordered)


def _name(hand_class: HandClass) -> str:
    kind, ranks = HandCategory(hand_class[0]), hand_class[1]
    top = ranks[0]
    if kind is HandCategory.STRAIGHT_FLUSH and top == 12:
        return "Royal Flush"
    if kind in (HandCategory.STRAIGHT_FLUSH, HandCategory.STRAIGHT, HandCategory.FLUSH):
        return f"{kind.label}, {RANK_NAMES[top]} high"
    if kind is HandCategory.FOUR_OF_A_KIND or kind is HandCategory.THREE_OF_A_KIND:
        return f"{kind.label}, {RANK_PLURALS[top]}"
    if kind is HandCategory.FULL_HOUSE:
        return f"Full House, {RANK_PLURALS[top]} full of {RANK_PLURALS[ranks[1]]}"
    if kind is HandCategory.TWO_PAIR:
        return f"Two Pair, {RANK_PLURALS[top]} and {RANK_PLURALS[ranks[1]]}"
    if kind is HandCategory.ONE_PAIR:
        return f"Pair of {RANK_PLURALS[top]}"
    return f"High Card, {RANK_NAMES[top]}"

"""Starting hands: the 169 classes (``AKs``, ``QQ``, ``72o``), their strength order, and ranges.

Strength follows Bill Chen's formula (high card points, pair bonus, suitedness, gap penalty,
straight bonus), a published rule of thumb that orders hands well enough for opening charts.
A *range* is the strongest share of all 1,326 two-card combinations, so "top 15%" means the
same hands to every strategy.

>>> from engine.cards import parse_cards
>>> hand_class(parse_cards("Ah Kh")).label, hand_class(parse_cards("7c 2d")).label
('AKs', '72o')
>>> chen_score(HandClass(12, 12, False)), chen_score(HandClass(5, 0, False))
(20, -1)
>>> round(percentile(HandClass(12, 12, False)), 4)   # AA: the top 6 of 1326 combos
0.0045
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from itertools import combinations

from engine.cards import RANK_CHARS, Card, rank_of, suit_of

TOTAL_COMBOS = 1326

_HIGH_CARD_POINTS = {12: 10.0, 11: 8.0, 10: 7.0, 9: 6.0}
_GAP_PENALTY = {0: 0, 1: -1, 2: -2, 3: -4}


@dataclass(frozen=True, slots=True)
class HandClass:
    """A starting hand up to suits: two ranks (0 = deuce … 12 = ace), high first, and suitedness.

    >>> HandClass(12, 11, True).label, HandClass(12, 11, True).combo_count
    ('AKs', 4)
    """

    high: int
    low: int
    suited: bool

    def __post_init__(self) -> None:
        if not 0 <= self.low <= self.high <= 12:
            raise ValueError(f"ranks must satisfy 0 <= low <= high <= 12, got {self}")
        if self.suited and self.high == self.low:
            raise ValueError("a pair cannot be suited")

    @property
    def is_pair(self) -> bool:
        """True for pocket pairs."""
        return self.high == self.low

    @property
    def gap(self) -> int:
        """Ranks missing between the two cards (0 for connectors like ``87``)."""
        return max(self.high - self.low - 1, 0)

    @property
    def label(self) -> str:
        """The usual short name: ``QQ``, ``AKs``, ``T9o``."""
        ranks = RANK_CHARS[self.high] + RANK_CHARS[self.low]
        return ranks if self.is_pair else ranks + ("s" if self.suited else "o")

    @property
    def combo_count(self) -> int:
        """How many two-card combinations the class holds: 6 pairs, 4 suited, 12 offsuit."""
        return 6 if self.is_pair else 4 if self.suited else 12


def hand_class(hole: Sequence[Card]) -> HandClass:
    """The class of two hole cards; raises ``ValueError`` unless two different cards."""
    if len(hole) != 2 or hole[0] == hole[1]:
        raise ValueError(f"a starting hand is two different cards, got {list(hole)}")
    first, second = sorted((rank_of(hole[0]), rank_of(hole[1])), reverse=True)
    return HandClass(first, second, first != second and suit_of(hole[0]) == suit_of(hole[1]))


def chen_score(hand: HandClass) -> int:
    """Chen's points for the hand, rounded up: 20 for aces down to -1 for ``72o``."""
    return math.ceil(_chen_points(hand))


def _chen_points(hand: HandClass) -> float:
    high_points = _HIGH_CARD_POINTS.get(hand.high, (hand.high + 2) / 2)
    if hand.is_pair:
        return max(2 * high_points, 5.0)
    points = high_points + (2 if hand.suited else 0) + _GAP_PENALTY.get(hand.gap, -5)
    if hand.gap <= 1 and hand.high < 10:
        points += 1
    return points


def _strength_key(hand: HandClass) -> tuple[float, int, int, bool]:
    return (_chen_points(hand), hand.high, hand.low, hand.suited)


@cache
def ranked_classes() -> tuple[HandClass, ...]:
    """All 169 classes, strongest first (Chen points, then high card, kicker, suitedness)."""
    classes = [
        HandClass(high, low, suited)
        for high in range(13) for low in range(high + 1)
        for suited in ((False,) if high == low else (True, False))
    ]
    return tuple(sorted(classes, key=_strength_key, reverse=True))


@cache
def _percentiles() -> dict[HandClass, float]:
    table: dict[HandClass, float] = {}
    covered = 0
    for hand in ranked_classes():
        covered += hand.combo_count
        table[hand] = covered / TOTAL_COMBOS
    return table


def percentile(hand: HandClass) -> float:
    """The share of all combos at least as strong as ``hand``: small is strong (AA ≈ 0.005)."""
    return _percentiles()[hand]


def in_top(hole: Sequence[Card], fraction: float) -> bool:
    """True when the hole cards fall within the strongest ``fraction`` of starting hands.

    >>> from engine.cards import parse_cards
    >>> in_top(parse_cards("Ks Kd"), 0.05), in_top(parse_cards("9c 4d"), 0.5)
    (True, False)
    """
    return percentile(hand_class(hole)) <= fraction


@cache
def ranked_combos() -> tuple[tuple[Card, Card], ...]:
    """All 1,326 two-card combinations, strongest class first."""
    by_class: dict[HandClass, list[tuple[Card, Card]]] = {}
    for pair in combinations(range(52), 2):
        by_class.setdefault(hand_class(pair), []).append(pair)
    return tuple(combo for hand in ranked_classes() for combo in by_class[hand])


class PreflopGroup(Enum):
    """Coarse kinds of starting hand, as a casual player thinks of them."""

    PREMIUM = "premium"          # JJ+, AK
    PAIR = "pair"                # other pocket pairs
    BROADWAY = "broadway"        # two cards ten or higher
    SUITED_CONNECTED = "suited"  # suited, at most one gap
    ACE = "ace"                  # any other ace
    TRASH = "trash"


def preflop_group(hand: HandClass) -> PreflopGroup:
    """The group a casual player would put the hand in.

    >>> from engine.cards import parse_cards
    >>> [preflop_group(hand_class(parse_cards(t))).value for t in ("Qh Qs", "5c 5d", "7h 6h")]
    ['premium', 'pair', 'suited']
    """
    if hand.is_pair:
        return PreflopGroup.PREMIUM if hand.high >= 9 else PreflopGroup.PAIR
    if hand.high == 12 and hand.low == 11:
        return PreflopGroup.PREMIUM
    if hand.low >= 8:
        return PreflopGroup.BROADWAY
    if hand.suited and hand.gap <= 1:
        return PreflopGroup.SUITED_CONNECTED
    if hand.high == 12:
        return PreflopGroup.ACE
    return PreflopGroup.TRASH

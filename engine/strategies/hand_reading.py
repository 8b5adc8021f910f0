"""Reading hole cards against the board: the made hand that counts, draws, and board texture.

These are cheap rank-and-suit computations (plus one evaluator call), the first things a
player sees after the flop.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from engine.cards import Card, rank_of, suit_of
from engine.evaluator import HandCategory, category, evaluate


def _rank_mask(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << rank_of(card)
    return mask


def _has_straight(mask: int) -> bool:
    low_aware = (mask << 1) | (1 if mask & (1 << 12) else 0)  # shift so the ace can sit below 2
    run = low_aware & (low_aware >> 1) & (low_aware >> 2) & (low_aware >> 3) & (low_aware >> 4)
    return run != 0


@dataclass(frozen=True, slots=True)
class Draws:
    """Ways to improve: a four-flush and the ranks that would complete a straight."""

    flush_draw: bool
    straight_ranks: int

    @property
    def outs(self) -> int:
        """Rough count of cards that complete a draw (9 for a flush, 4 per straight rank)."""
        flush_outs = 9 if self.flush_draw else 0
        straight_outs = 4 * self.straight_ranks
        return flush_outs + straight_outs - (2 if flush_outs and straight_outs else 0)

    @property
    def is_strong(self) -> bool:
        """A flush draw or an open-ended straight draw: worth betting as a semi-bluff."""
        return self.outs >= 8


def draws(hole: Sequence[Card], board: Sequence[Card]) -> Draws:
    """The draws the hole cards hold on the board (none once the board is complete).

    >>> from engine.cards import parse_cards
    >>> draws(parse_cards("Ah 5h"), parse_cards("Kh 9h 2c"))
    Draws(flush_draw=True, straight_ranks=0)
    >>> draws(parse_cards("9c 8d"), parse_cards("Ts 7h 2c")).straight_ranks
    2
    """
    if len(board) >= 5 or len(board) < 3:
        return Draws(False, 0)
    cards = [*hole, *board]
    suits = Counter(suit_of(card) for card in cards)
    hole_suits = {suit_of(card) for card in hole}
    flush_draw = any(suits[suit] == 4 for suit in hole_suits)
    mask = _rank_mask(cards)
    straight_ranks = 0
    if not _has_straight(mask):
        board_mask = _rank_mask(board)
        for rank in range(13):
            bit = 1 << rank
            if not mask & bit and _has_straight(mask | bit) and not _has_straight(board_mask | bit):
                straight_ranks += 1
    return Draws(flush_draw, straight_ranks)


def made_category(hole: Sequence[Card], board: Sequence[Card]) -> HandCategory:
    """The best hand's category, not counting a pair that lies on the board for everyone.

    >>> from engine.cards import parse_cards
    >>> made_category(parse_cards("Ah Kd"), parse_cards("7s 7c 2d")).name
    'HIGH_CARD'
    >>> made_category(parse_cards("Ah 7d"), parse_cards("7s 7c 2d")).name
    'THREE_OF_A_KIND'
    """
    made = category(evaluate([*hole, *board]))
    board_ranks = {rank_of(card) for card in board}
    hole_ranks = {rank_of(card) for card in hole}
    uses_hole = len(hole_ranks) == 1 or bool(hole_ranks & board_ranks)
    if not uses_hole and made in (HandCategory.ONE_PAIR, HandCategory.TWO_PAIR):
        return HandCategory(made + 1)
    return made


def board_wetness(board: Sequence[Card]) -> float:
    """How coordinated the board is, 0 (dry, like ``K72`` rainbow) to 1 (``JT9`` suited).

    Wet boards give draws to many hands, so a value bet there should be larger.

    >>> from engine.cards import parse_cards
    >>> board_wetness(parse_cards("Kc 7d 2h")) < board_wetness(parse_cards("Jh Th 9h"))
    True
    """
    if not board:
        return 0.0
    most_of_a_suit = max(Counter(suit_of(card) for card in board).values())
    suit_score = {1: 0.0, 2: 0.4, 3: 0.8}.get(most_of_a_suit, 1.0)
    ranks = sorted({rank_of(card) for card in board})
    close_pairs = sum(1 for low, high in pairwise(ranks) if high - low <= 2)
    connect_score = min(close_pairs / 2, 1.0)
    return min(1.0, 0.55 * suit_score + 0.45 * connect_score)

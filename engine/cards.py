"""Cards as small integers, their text forms, and the deck.

A card is ``4 * rank + suit``: rank 0 is a deuce and 12 an ace; suit 0 is clubs, 1 diamonds,
2 hearts and 3 spades. This is phevaluator's encoding, so batches can be compared with it.

>>> parse_card("Ah")
50
>>> card_str(50), pretty_card(50)
('Ah', 'A♥')
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence

Card = int

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight",
    "Nine", "Ten", "Jack", "Queen", "King", "Ace",
)
RANK_PLURALS = (
    "Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights",
    "Nines", "Tens", "Jacks", "Queens", "Kings", "Aces",
)
FULL_DECK: tuple[Card, ...] = tuple(range(52))

_SUIT_BY_SYMBOL = {symbol: suit for suit, symbol in enumerate(SUIT_SYMBOLS)}


def make_card(rank: int, suit: int) -> Card:
    """The card of a rank (0 = deuce … 12 = ace) and a suit (0 = clubs … 3 = spades).

    Raises ``ValueError`` for a rank or suit out of range.

    >>> make_card(12, 3)
    51
    """
    if not (0 <= rank <= 12 and 0 <= suit <= 3):
        raise ValueError(f"no card has rank {rank} and suit {suit}")
    return 4 * rank + suit


def rank_of(card: Card) -> int:
    """The card's rank, 0 (deuce) to 12 (ace)."""
    return card >> 2


def suit_of(card: Card) -> int:
    """The card's suit, 0 (clubs) to 3 (spades)."""
    return card & 3


def parse_card(text: str) -> Card:
    """Read one card: rank ``2-9, T (or 10), J, Q, K, A`` then suit ``c d h s`` or ``♣♦♥♠``.

    Case does not matter. Anything else raises a ``ValueError`` that says what was wrong.

    >>> [parse_card(t) for t in ("2c", "td", "10s", "A♥")]
    [0, 33, 35, 50]
    """
    if not isinstance(text, str):
        raise ValueError(f"a card is written as text like 'Ah', not {text!r}")
    cleaned = text.strip()
    if len(cleaned) == 3 and cleaned[:2] == "10":
        cleaned = "T" + cleaned[2]
    if len(cleaned) != 2:
        raise ValueError(f"{text!r} is not a card: write a rank and a suit, like 'Ah' or '10s'")
    rank_char, suit_char = cleaned[0].upper(), cleaned[1]
    rank = RANK_CHARS.find(rank_char)
    if rank < 0:
        raise ValueError(f"{text!r} has no rank: use one of 2-9, T, J, Q, K, A")
    if suit_char in _SUIT_BY_SYMBOL:
        suit = _SUIT_BY_SYMBOL[suit_char]
    else:
        suit = SUIT_CHARS.find(suit_char.lower())
        if suit < 0:
            raise ValueError(f"{text!r} has no suit: use one of c, d, h, s (or ♣♦♥♠)")
    return 4 * rank + suit


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read several cards from ``"AhKd"``, ``"Ah Kd"``, ``"Ah,Kd"`` or a list of strings.

    >>> parse_cards("AhKd 10c")
    [50, 45, 32]
    """
    if not isinstance(text, str):
        return [parse_card(item) for item in text]
    tokens = text.replace(",", " ").split()
    cards: list[Card] = []
    for token in tokens:
        position = 0
        while position < len(token):
            width = 3 if token.startswith("10", position) else 2
            cards.append(parse_card(token[position:position + width]))
            position += width
    return cards


def card_str(card: Card) -> str:
    """The card as two ASCII characters, like ``"Ah"``."""
    _check_card(card)
    return RANK_CHARS[card >> 2] + SUIT_CHARS[card & 3]


def pretty_card(card: Card) -> str:
    """The card with its suit symbol, like ``"A♥"`` (see ``card_str`` for plain ASCII)."""
    _check_card(card)
    return RANK_CHARS[card >> 2] + SUIT_SYMBOLS[card & 3]


def cards_str(cards: Iterable[Card], pretty: bool = False) -> str:
    """Cards joined by spaces, ASCII (``"Ah Kd"``) or with suit symbols."""
    show = pretty_card if pretty else card_str
    return " ".join(show(card) for card in cards)


def check_distinct(cards: Sequence[Card]) -> None:
    """Raise ``ValueError`` if any card is out of range or appears twice."""
    for card in cards:
        _check_card(card)
    if len(set(cards)) == len(cards):
        return
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise ValueError(f"card {card_str(card)} appears more than once")
        seen.add(card)


def _check_card(card: Card) -> None:
    if not isinstance(card, int) or not 0 <= card < 52:
        raise ValueError(f"{card!r} is not a card id (0-51)")


class DeckExhaustedError(ValueError):
    """More cards were asked of a deck than it holds."""


class Deck:
    """A deck dealt from the top; shuffled with the OS CSPRNG unless told otherwise.

    ``Deck(rng=random.Random(7))`` shuffles reproducibly; ``Deck.stacked(cards)`` deals the
    given cards first, in order, then the rest of the deck in a shuffled order.

    >>> deck = Deck.stacked(parse_cards("Ah Kd"))
    >>> cards_str(deck.deal(2))
    'Ah Kd'
    >>> len(deck)
    50
    """

    __slots__ = ("_cards",)

    def __init__(self, rng: random.Random | None = None) -> None:
        cards = list(FULL_DECK)
        (rng if rng is not None else secrets.SystemRandom()).shuffle(cards)
        cards.reverse()  # dealing pops from the end; keep "first shuffled = first dealt"
        self._cards = cards

    @classmethod
    def stacked(cls, top: Sequence[Card], rng: random.Random | None = None) -> Deck:
        """A deck whose first cards dealt are ``top`` in order; the rest follow shuffled.

        Raises ``ValueError`` if ``top`` holds a card twice or a non-card.
        """
        check_distinct(top)
        deck = cls(rng)
        chosen = set(top)
        rest = [card for card in deck._cards if card not in chosen]
        deck._cards = rest + list(reversed(top))
        return deck

    @classmethod
    def replaying(cls, top: Sequence[Card]) -> Deck:
        """A deck whose first cards dealt are ``top`` in order, the rest after them in card
        order: for replaying a recorded hand, every card of which is in ``top``. Shuffling the
        rest, as ``stacked`` does, drew dozens of OS random numbers per replay for cards
        never dealt (a third of the CPU of counting a settled hand's habits).

        >>> deck = Deck.replaying(parse_cards("Ah Kd"))
        >>> cards_str(deck.deal(3))
        'Ah Kd 2c'

        Raises ``ValueError`` if ``top`` holds a card twice or a non-card.
        """
        check_distinct(top)
        deck = cls.__new__(cls)
        chosen = set(top)
        deck._cards = [card for card in reversed(FULL_DECK) if card not in chosen]
        deck._cards += reversed(top)
        return deck

    def __len__(self) -> int:
        return len(self._cards)

    def deal(self, count: int = 1) -> list[Card]:
        """Take ``count`` cards from the top.

        Raises ``ValueError`` for a negative count, ``DeckExhaustedError`` for too many.
        """
        if count < 0:
            raise ValueError("cannot deal a negative number of cards")
        if count > len(self._cards):
            raise DeckExhaustedError(
                f"cannot deal {count} cards: only {len(self._cards)} left in the deck"
            )
        dealt = self._cards[-count:] if count else []
        del self._cards[len(self._cards) - count:]
        dealt.reverse()
        return dealt

    def deal_one(self) -> Card:
        """Take the top card."""
        return self.deal(1)[0]

    def burn(self) -> Card:
        """Discard the top card face down (before the flop, turn and river)."""
        return self.deal_one()

    def peek(self, count: int) -> list[Card]:
        """The next ``count`` cards in dealing order, without dealing them.

        Raises ``DeckExhaustedError`` when fewer than ``count`` are left.
        """
        if count > len(self._cards):
            raise DeckExhaustedError(f"only {len(self._cards)} cards left in the deck")
        return list(reversed(self._cards[len(self._cards) - count:]))

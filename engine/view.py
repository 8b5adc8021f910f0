"""What one player may see of a hand: public facts plus their own hole cards, nothing else.

Bot strategies and front ends get a ``PlayerView``; it is a frozen copy, not a window into the
hand, so no code holding one can reach other players' cards.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any

from engine.actions import ActionKind, LegalActions, Street
from engine.cards import Card


class ShownCards(Mapping[int, tuple[Card, ...]]):
    """The hole cards turned face up at showdown, by seat: a read-only mapping that pickles.

    Views travel to other processes (bot thinking), so unlike ``MappingProxyType`` this one
    can be pickled; it also hashes, so a frozen view stays hashable.

    >>> shown = ShownCards({2: (0, 1)})
    >>> shown.get(2), shown.get(0, ()), shown == {2: (0, 1)}
    ((0, 1), (), True)
    >>> import pickle; pickle.loads(pickle.dumps(shown)) == shown
    True
    """

    __slots__ = ("_cards",)

    def __init__(self, cards: Mapping[int, tuple[Card, ...]] | None = None) -> None:
        self._cards: dict[int, tuple[Card, ...]] = dict(cards) if cards else {}

    def __getitem__(self, seat: int) -> tuple[Card, ...]:
        return self._cards[seat]

    def __iter__(self) -> Iterator[int]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def __hash__(self) -> int:
        return hash(frozenset(self._cards.items()))

    def __reduce__(self) -> tuple[type[ShownCards], tuple[dict[int, tuple[Card, ...]]]]:
        return ShownCards, (self._cards,)

    def __repr__(self) -> str:
        return f"ShownCards({self._cards!r})"


NOTHING_SHOWN = ShownCards()


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One action taken in the hand, as everyone at the table saw it.

    ``kind`` is what the action amounted to (an all-in is recorded as the bet, raise or call it
    was, with ``is_all_in`` set); ``added`` is the chips it put in and ``to`` the player's total
    for the street afterwards.
    """

    seat: int
    street: Street
    kind: ActionKind
    added: int
    to: int
    is_all_in: bool = False

    def __reduce__(self) -> tuple[type[ActionRecord], tuple[Any, ...]]:
        """Pickle as the class and its fields: far cheaper than the dataclass default."""
        return ActionRecord, _record_fields(self)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """The hand as seen from ``seat`` (``None``: a spectator, who sees no hole cards).

    Per-seat tuples are indexed by seat, clockwise, the same seats as the hand's.
    """

    seat: int | None
    hole_cards: tuple[Card, ...]
    board: tuple[Card, ...]
    street: Street
    button: int
    small_blind: int
    big_blind: int
    ante: int
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    contributions: tuple[int, ...]
    folded: tuple[bool, ...]
    all_in: tuple[bool, ...]
    pot: int
    to_act: int | None
    legal: LegalActions | None
    history: tuple[ActionRecord, ...]
    shown: ShownCards = NOTHING_SHOWN
    straddle: int = 0
    """The straddle's full size (two big blinds) when someone straddles, else 0."""
    straddle_seat: int | None = None
    """The seat that straddles, if anyone does."""

    @property
    def preflop_blind(self) -> int:
        """The last forced bet's full size: the straddle when there is one, else the big blind.

        Preflop it plays the part of the big blind: what a limp costs, what the minimum raise
        counts from and what opening sizes are measured in.
        """
        return max(self.straddle, self.big_blind)

    @property
    def num_seats(self) -> int:
        """How many players were dealt in."""
        return len(self.stacks)

    @property
    def live_seats(self) -> tuple[int, ...]:
        """Seats that have not folded, clockwise from seat 0."""
        return tuple(seat for seat, out in enumerate(self.folded) if not out)

    @property
    def current_bet(self) -> int:
        """The largest street total so far: what a call must reach."""
        return max(self.bets, default=0)

    def is_my_turn(self) -> bool:
        """True when this view's seat is the one to act."""
        return self.seat is not None and self.seat == self.to_act

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as flat tuples (views travel to the bots' worker on every turn): the
        dataclass default reduces every nested record and the legal actions one by one.

        >>> import pickle
        >>> from engine.actions import ActionKind, Street
        >>> call = ActionRecord(seat=1, street=Street.PREFLOP, kind=ActionKind.CALL, added=1,
        ...                     to=2)
        >>> view = PlayerView(
        ...     seat=0, hole_cards=(1, 2), board=(), street=Street.PREFLOP, button=0,
        ...     small_blind=1, big_blind=2, ante=0, stacks=(9, 8), bets=(1, 2),
        ...     contributions=(1, 2), folded=(False, False), all_in=(False, False), pot=3,
        ...     to_act=1, legal=None, history=(call,))
        >>> pickle.loads(pickle.dumps(view)) == view
        True
        """
        legal = self.legal
        return _view_from_fields, (
            _view_fields(self),
            None if legal is None else _legal_fields(legal),
            tuple(map(_record_fields, self.history)),
            self.shown,
        )


def _field_names(cls: type, *leave_out: str) -> tuple[str, ...]:
    """The dataclass's field names in order, less ``leave_out``."""
    return tuple(f.name for f in fields(cls) if f.name not in leave_out)


_RECORD_NAMES = _field_names(ActionRecord)
_VIEW_NAMES = _field_names(PlayerView, "legal", "history", "shown")
_LEGAL_NAMES = _field_names(LegalActions)
# Getters of those fields as a tuple: one C call per object.
_record_fields: attrgetter[Any] = attrgetter(*_RECORD_NAMES)
_view_fields: attrgetter[Any] = attrgetter(*_VIEW_NAMES)
_legal_fields: attrgetter[Any] = attrgetter(*_LEGAL_NAMES)


def _view_from_fields(
    fields: tuple[Any, ...],
    legal: tuple[Any, ...] | None,
    history: tuple[tuple[Any, ...], ...],
    shown: ShownCards,
) -> PlayerView:
    """The view that ``PlayerView.__reduce__`` flattened.

    Fields are passed by name, paired with the names they were read by, so the flat form
    cannot drift from the classes' field order.
    """
    return PlayerView(
        **dict(zip(_VIEW_NAMES, fields, strict=True)),
        legal=None if legal is None else LegalActions(**dict(zip(_LEGAL_NAMES, legal,
                                                                 strict=True))),
        history=tuple(ActionRecord(**dict(zip(_RECORD_NAMES, record, strict=True)))
                      for record in history),
        shown=shown,
    )

"""Short-stack play from the solved push/fold charts, and pot odds against a shove's range.

The charts and the 169-class equity matrix are package data written by
``python -m engine.strategies.solve``. Every level reads them: a short stack first in shoves
or folds by the chart of its depth and the number of players behind, and any call of an
all-in compares the hand's equity against the range the shove represents with the price,
counting every chip already in the pot (``calls_all_in``).

>>> from engine.cards import parse_cards
>>> from engine.strategies.preflop import hand_class
>>> shove_frequency(hand_class(parse_cards("As Kd")), stack=10, behind=1)
1.0
>>> shove_frequency(hand_class(parse_cards("7c 2d")), stack=10, behind=5)
0.0
>>> round(equity_against(hand_class(parse_cards("Qh Qs")), shove_range(10, 1)), 2)
0.75
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from engine.strategies.preflop import HandClass
from engine.strategies.solve import (
    Floats,
    class_indices,
    classes,
    load_charts,
    load_equity,
    range_share,
)


@dataclass(frozen=True, slots=True)
class _Charts:
    stacks: Floats
    shove: Floats
    call: Floats


@cache
def _charts() -> _Charts:
    charts = load_charts()
    return _Charts(charts["stacks"], charts["shove"], charts["call"])


@cache
def _equity() -> tuple[Floats, Floats]:
    return load_equity()


def deepest_stack() -> float:
    """The deepest effective stack the charts cover, in big blinds (25)."""
    return float(_charts().stacks[-1])


def most_behind() -> int:
    """The most players behind a first-in shove the charts cover (5: a 6-max table)."""
    return int(_charts().shove.shape[0])


@cache
def _combo_sizes() -> Floats:
    return np.array([hand.combo_count for hand in classes()], dtype=float)


def _column(stack: float) -> int:
    """The chart column nearest ``stack`` big blinds, clamped to the charts' range."""
    return int(np.abs(_charts().stacks - stack).argmin())


def _behind_row(behind: int) -> int:
    """Chart row for ``behind`` players; a 7- to 9-handed table's early seats use 6-max's."""
    return min(max(behind, 1), most_behind()) - 1


def shove_range(stack: float, behind: int) -> Floats:
    """How often each class shoves first in, by class (``solve.classes()`` order).

    Deeper than the charts, the range is the strongest hands (``top_range``) in the share the
    deepest charts' trend gives (see ``_deeper``).
    """
    frequencies: Floats = _charts().shove[_behind_row(behind)]
    return _at_depth(frequencies, stack)


def call_range(stack: float, behind: int, caller: int = -1) -> Floats:
    """How often each class calls a first-in shove; ``caller`` counts the players after the
    shover from 0, and the default (-1) is the last to act, the big blind. Deeper than the
    charts, as ``shove_range``."""
    row = _behind_row(behind)
    seat = row if caller < 0 else min(caller, row)
    frequencies: Floats = _charts().call[row, seat]
    return _at_depth(frequencies, stack)


def _at_depth(by_stack: Floats, stack: float) -> Floats:
    """The chart column for ``stack`` from a (stacks, classes) array, extrapolated deeper."""
    if stack <= deepest_stack():
        column: Floats = by_stack[_column(stack)]
        return column
    return top_range(_deeper(by_stack, stack))


def _deeper(by_stack: Floats, stack: float) -> float:
    """The range share at ``stack`` beyond the charts, following the power law the solved
    shares obey from 15 bb to the deepest chart (shares fall about as stack^-0.8 there)."""
    stacks = _charts().stacks
    middle = _column(15)
    shallow, deep = range_share(by_stack[middle]), range_share(by_stack[-1])
    slope = np.log(deep / shallow) / np.log(stacks[-1] / stacks[middle])
    return float(deep * (stack / stacks[-1]) ** slope)


@cache
def _strength_order() -> npt.NDArray[np.intp]:
    """Classes by all-in equity against a random hand (card removal included), best first."""
    equity, pairs = _equity()
    against_random = (equity * pairs).sum(axis=1) / pairs.sum(axis=1)
    order: npt.NDArray[np.intp] = np.argsort(-against_random, kind="stable")
    return order


def top_range(share: float) -> Floats:
    """The strongest classes by equity against a random hand, covering ``share`` of all
    combinations (at least the best class), as per-class weights.

    >>> from engine.strategies.solve import labels
    >>> [labels()[i] for i in np.flatnonzero(top_range(0.02))]
    ['AA', 'KK', 'QQ', 'JJ']
    """
    order = _strength_order()
    sizes = _combo_sizes()[order]
    taken = max(1, int(np.searchsorted(np.cumsum(sizes), share * 1326, side="right")))
    weights = np.zeros(len(order))
    weights[order[:taken]] = 1.0
    return weights


def class_index(hand: HandClass) -> int:
    """The hand's position in the charts' per-class arrays."""
    return class_indices()[hand]


def calling_range_against(weights: Floats, stack: float) -> Floats:
    """The classes that call a heads-up all-in for ``stack`` big blinds (the big blind's
    price: ``stack - 1`` more to win ``2 * stack``) against a shoving range ``weights``.

    >>> range_share(calling_range_against(top_range(1.0), 10)) > 0.5
    True
    """
    equity, pairs = _equity()
    weighted = pairs * weights
    against = (weighted * equity).sum(axis=1) / np.maximum(weighted.sum(axis=1), 1e-12)
    calls: Floats = (against >= (stack - 1) / (2 * stack)).astype(float)
    return calls


def shove_frequency(hand: HandClass, stack: float, behind: int) -> float:
    """The chart's shove frequency for ``hand`` first in with ``stack`` big blinds."""
    return float(shove_range(stack, behind)[class_indices()[hand]])


def call_frequency(hand: HandClass, stack: float, behind: int, caller: int = -1) -> float:
    """The chart's frequency for ``hand`` calling a first-in shove (see ``call_range``)."""
    return float(call_range(stack, behind, caller)[class_indices()[hand]])


def equity_against(hand: HandClass, weights: Floats) -> float:
    """All-in equity of ``hand`` against a range given as per-class weights, with card removal.

    Raises ``ValueError`` when the range is empty.
    """
    equity, pairs = _equity()
    row = class_indices()[hand]
    weighted = pairs[row] * weights
    total = weighted.sum()
    if total <= 0:
        raise ValueError("the range holds no hand")
    return float(weighted @ equity[row] / total)


def calls_all_in(hand: HandClass, weights: Floats, call_amount: int, pot_after_call: int,
                 margin: float = 0.0) -> bool:
    """Whether calling an all-in pays: equity against the shove's range ``weights`` reaches
    the price, ``call_amount / pot_after_call`` (the pot counting every chip already in that
    the call can win), plus ``margin``.

    >>> from engine.cards import parse_cards
    >>> from engine.strategies.preflop import hand_class
    >>> queens = hand_class(parse_cards("Qh Qs"))
    >>> calls_all_in(queens, shove_range(10, 1), call_amount=18, pot_after_call=40)
    True
    """
    return equity_against(hand, weights) >= call_amount / pot_after_call + margin

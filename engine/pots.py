"""Pots from contributions, and the fair split of a pot between tied winners.

Pots are built from what each player put in over the whole hand, never tracked by hand: a
player is eligible only for the layers they paid into, and folded chips stay in the pots.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """Chips contested by the ``eligible`` seats; the first pot of a hand is the main pot."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(
    contributions: Sequence[int], folded: Sequence[bool], all_in: Sequence[bool]
) -> list[Pot]:
    """The main pot and side pots for these per-seat contributions.

    Each all-in amount of a live player caps a layer; chips above the last cap form a last pot
    for the live players who are not all-in (they can still put more in). Folded players'
    chips stay in whatever layers they reach. Adjacent layers with the same eligible seats are
    one pot, and empty layers are dropped. Raises ``ValueError`` when the three sequences
    differ in length.

    >>> build_pots([100, 300, 300], [False, False, False], [True, False, False])
    [Pot(amount=300, eligible=(0, 1, 2)), Pot(amount=400, eligible=(1, 2))]
    >>> build_pots([50, 200, 200], [True, False, False], [False, False, False])
    [Pot(amount=450, eligible=(1, 2))]
    """
    if not len(contributions) == len(folded) == len(all_in):
        raise ValueError("contributions, folded and all_in must have one entry per seat")
    live = [seat for seat, out in enumerate(folded) if not out]
    caps = sorted({contributions[seat] for seat in live if all_in[seat]})
    top = max(contributions, default=0)
    if not caps or caps[-1] < top:
        caps.append(top)
    pots: list[Pot] = []
    floor = 0
    for cap in caps:
        amount = sum(min(paid, cap) - min(paid, floor) for paid in contributions)
        eligible = tuple(
            seat for seat in live if contributions[seat] >= cap or not all_in[seat]
        )
        floor = cap
        if amount == 0:
            continue
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
    return pots


def split_pot(amount: int, winners: Sequence[int], button: int, num_seats: int) -> list[int]:
    """Each winner's share of ``amount``, in the order of ``winners``.

    Ties split equally; the odd chips go one at a time to the winners in clockwise order
    starting from the first seat left of the button. Raises ``ValueError`` for no winners or
    a negative amount.

    >>> split_pot(101, [0, 2], button=0, num_seats=3)
    [50, 51]
    >>> split_pot(11, [0, 1, 2], button=2, num_seats=3)
    [4, 4, 3]
    """
    if not winners:
        raise ValueError("a pot needs at least one winner")
    if amount < 0:
        raise ValueError(f"a pot cannot hold {amount} chips")
    share, odd = divmod(amount, len(winners))
    shares = [share] * len(winners)
    by_position = sorted(range(len(winners)), key=lambda i: (winners[i] - button - 1) % num_seats)
    for i in by_position[:odd]:
        shares[i] += 1
    return shares

"""Friendly names for bots at a table, with a flavour per strength so players can tell them apart.

>>> import random
>>> name = pick_bot_name("hard", taken=(), rng=random.Random(1))
>>> name in NAME_POOLS["hard"]
True
"""

from __future__ import annotations

import random
from collections.abc import Collection

NAME_POOLS: dict[str, tuple[str, ...]] = {
    "easy": (
        "Lucky Lou", "Sunny Sam", "Daisy", "Happy Hal", "Penny Pocket", "Noodle",
        "Bumble", "Giggles", "Cosmo", "Dotty", "Pip", "Marshmallow",
    ),
    "medium": (
        "Steady Eddie", "Grinder Greta", "Calculating Cal", "Rounder Rita", "Sensible Sue",
        "Chip Miller", "Odds Otto", "Measured Max", "Polly Potodds", "Solid Sid",
    ),
    "hard": (
        "The Shark", "Ice Queen", "Viper", "Professor Fold", "Nightowl Nina", "Silent Bob",
        "Maverick", "Stone Cold Stella", "The Oracle", "Razor Ray",
    ),
    "expert": (
        "Nash Nora", "Equilibrium Eli", "Cool Hand Cleo", "Range Rover", "Solver Sol",
        "Grandmaster Gus", "Quiet Quinn", "The Professor", "Iron Ivy", "Deep Blue Dee",
    ),
    "calling": ("Callie Station", "Curious Carl", "Sticky Stan"),
    "random": ("Wildcard Wendy", "Dice Dan", "Coinflip Cora"),
}
"""Name pools by strategy name; no name appears in two pools."""


def pick_bot_name(level: str, taken: Collection[str], rng: random.Random) -> str:
    """A friendly name for a new bot of ``level``, never one of ``taken``.

    Names come from the level's pool; once it is used up, pool names get a numeral
    (``"Viper II"``) so the choice never fails. Raises ``ValueError`` for an unknown level.

    >>> pick_bot_name("easy", taken=NAME_POOLS["easy"], rng=random.Random(0)).endswith(" II")
    True
    """
    pool = NAME_POOLS.get(level)
    if pool is None:
        raise ValueError(f"no bot names for {level!r}: use one of {', '.join(NAME_POOLS)}")
    taken_lower = {name.casefold() for name in taken}
    # Each tier offers len(pool) new names and ``taken`` blocks at most len(taken) of them,
    # so one of the first len(taken) + 1 tiers always has a free name.
    for tier in range(len(taken_lower) + 1):
        suffix = _tier_suffix(tier)
        names = (f"{base}{suffix}" for base in pool)
        free = [name for name in names if name.casefold() not in taken_lower]
        if free:
            return rng.choice(free)
    raise AssertionError("unreachable: a free tier always exists")  # pragma: no cover


_ROMAN = ("", " II", " III", " IV", " V", " VI", " VII", " VIII", " IX", " X")


def _tier_suffix(tier: int) -> str:
    """``""`` for the plain names, then `` II`` … `` X``, then `` 11``, `` 12`` …"""
    return _ROMAN[tier] if tier < len(_ROMAN) else f" {tier + 1}"

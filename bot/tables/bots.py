"""A bot opponent at a table: its strategy, its own random stream, and where it thinks.

Measured per postflop decision (``python -m benchmarks.tables`` and a per-level timing):
"easy" takes microseconds; "medium" and "hard" simulate equity, median about 1 ms, p99 under
6 ms, worst about 20 ms. Handing such a decision to a thread costs more CPU than making it
(the GIL gives no parallelism, and the event loop then waits for the GIL), so decisions run
inline by default: the table's turn budget in ``StepPacer`` keeps the loop's slices short.
A front end may still pass an executor to move the simulating levels off the loop.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import Executor

from bot.tables.errors import UnknownBotLevel
from engine.actions import Action, Street
from engine.strategies import STRATEGIES, make_strategy
from engine.view import PlayerView

SIMULATING_LEVELS = frozenset({"medium", "hard"})
"""Strategies whose postflop decisions simulate equity (milliseconds, not microseconds)."""


def check_level(level: str) -> str:
    """The level's registry name; ``UnknownBotLevel`` for a level that does not exist.

    >>> check_level(" Medium ")
    'medium'
    """
    name = level.strip().lower() if isinstance(level, str) else ""
    if name not in STRATEGIES:
        raise UnknownBotLevel(str(level), tuple(STRATEGIES))
    return name


class Bot:
    """A strategy with its own random stream (seeded from the table's, so tests replay)."""

    __slots__ = ("level", "rng", "strategy")

    def __init__(self, level: str, rng: random.Random) -> None:
        self.level = check_level(level)
        self.strategy = make_strategy(self.level)
        self.rng = rng

    def simulates(self, view: PlayerView) -> bool:
        """True when this decision simulates equity (a simulating level after the flop)."""
        return self.level in SIMULATING_LEVELS and view.street is not Street.PREFLOP

    async def decide(self, view: PlayerView, executor: Executor | None = None) -> Action:
        """The bot's action for its turn in ``view``: inline, or in ``executor`` when one is
        given and the decision simulates."""
        if executor is not None and self.simulates(view):
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(executor, self.strategy.decide, view, self.rng)
        return self.strategy.decide(view, self.rng)

    def hand_finished(self, view: PlayerView) -> None:
        """Let the strategy learn from the finished hand, if it wants to."""
        hook = getattr(self.strategy, "hand_finished", None)
        if hook is not None:
            hook(view)

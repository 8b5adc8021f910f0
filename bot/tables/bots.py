"""A bot opponent at a table: its strategy, its own random stream, and where it thinks.

Measured per decision: every level decides preflop in microseconds, and so does "easy"
postflop; "medium" and "hard" simulate equity postflop (median 1-2 ms, worst tens of ms). Those
run in an executor, so one table's bot never stalls the event loop; the rest run inline, where
a thread hand-off would cost more than the decision.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import Executor

from bot.tables.errors import UnknownBotLevel
from engine.actions import Action, Street
from engine.strategies import STRATEGIES, make_strategy
from engine.view import PlayerView

OFF_LOOP_LEVELS = frozenset({"medium", "hard"})
"""Strategies whose postflop decisions take milliseconds, so they run off the event loop."""


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

    async def decide(self, view: PlayerView, executor: Executor | None) -> Action:
        """The bot's action for its turn in ``view``."""
        if self.level in OFF_LOOP_LEVELS and view.street is not Street.PREFLOP:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(executor, self.strategy.decide, view, self.rng)
        return self.strategy.decide(view, self.rng)

    def hand_finished(self, view: PlayerView) -> None:
        """Let the strategy learn from the finished hand, if it wants to."""
        hook = getattr(self.strategy, "hand_finished", None)
        if hook is not None:
            hook(view)

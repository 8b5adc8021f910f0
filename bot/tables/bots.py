"""A bot opponent at a table: its strategy, its own random stream, and where it thinks.

Measured per postflop decision: "easy" takes microseconds; "medium", "hard" and "expert"
simulate equity, median about 1 ms, p99 about 11 ms six-handed, worst about 20 ms. Handing
such a decision to a thread costs more CPU than making it (the GIL gives no parallelism, and the
event loop then waits for the GIL), so without a ``BotWorker`` every decision runs inline,
where the table's turn budget in ``StepPacer`` keeps the loop's slices short. With a worker,
simulating decisions run in its process, on another core; when the worker fails (dies, or
misses its deadline and is replaced), the decision is made inline after all.
"""

from __future__ import annotations

import itertools
import random

from bot.tables.bot_worker import BotWorker
from bot.tables.errors import UnknownBotLevel
from bot.worker_link import WorkerFailed
from engine.actions import Action, Street
from engine.strategies import STRATEGIES, make_strategy
from engine.view import PlayerView

SIMULATING_LEVELS = frozenset({"medium", "hard", "expert"})
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


_bot_ids = itertools.count(1)


class Bot:
    """A strategy with its own random stream (seeded from the table's, so tests replay).

    ``id`` is unique in the process: the worker keys its copy of the strategy by it.
    """

    __slots__ = ("id", "level", "rng", "strategy")

    def __init__(self, level: str, rng: random.Random) -> None:
        self.id = next(_bot_ids)
        self.level = check_level(level)
        self.strategy = make_strategy(self.level)
        self.rng = rng

    def simulates(self, view: PlayerView) -> bool:
        """True when this decision simulates equity (a simulating level after the flop)."""
        return self.level in SIMULATING_LEVELS and view.street is not Street.PREFLOP

    async def decide(self, view: PlayerView, worker: BotWorker | None = None) -> Action:
        """The bot's action for its turn in ``view``: in ``worker`` when one is given, the
        decision simulates and the worker is ready and not backed up; else, or when the worker
        fails to answer (``WorkerFailed``), inline."""
        if worker is not None and self.simulates(view) and worker.has_room():
            try:
                return await worker.decide(self.id, self.level, view)
            except WorkerFailed:
                pass  # the worker died or hung (and is being replaced): decide here
        return self.strategy.decide(view, self.rng)

    @property
    def learns(self) -> bool:
        """True when the strategy keeps notes from finished hands (only then is it shown one)."""
        return hasattr(self.strategy, "hand_finished")

    def hand_finished(self, view: PlayerView, worker: BotWorker | None = None) -> None:
        """Let the strategy learn from the finished hand, if it wants to (its copy in
        ``worker`` too, so both decide from the same notes)."""
        hook = getattr(self.strategy, "hand_finished", None)
        if hook is not None:
            hook(view)
            if worker is not None:
                worker.hand_finished(self.id, self.level, view)

    def leave(self, worker: BotWorker | None) -> None:
        """The bot left its table: the worker forgets its copy."""
        if worker is not None and self.level in SIMULATING_LEVELS:
            worker.forget(self.id)

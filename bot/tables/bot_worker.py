"""One worker process where bots make their equity-simulating decisions.

Threads give bots no parallelism (the GIL) and cost more CPU than deciding inline; a process
uses a second core (``bot.worker_link``: the loop's own socket pair, requests with deadlines,
a hung or dead worker replaced).

Strategies can learn between hands (the "hard" bot keeps notes on its opponents), so the worker
keeps its own copy of each bot's strategy and random stream, keyed by the bot's id: created by
the first message about that bot, told about every finished hand (messages are served in the
order sent), and dropped when the bot leaves. Each copy's random stream is seeded from the OS
(``secrets``), so that bots' choices cannot be foreseen from their ids.

Every decision has a deadline (``DECISION_DEADLINE``). When the worker misses one or dies, the
decisions that waited for it fail with ``WorkerFailed``, so that their bots decide at their
tables instead (``Bot.decide``), and a new one is started. A new process's copies begin again
from nothing. While the worker starts (``has_room()`` is false until it says it is ready), bots
decide inline.
"""

from __future__ import annotations

import random
import secrets

from bot.worker_link import WorkerLink
from engine.actions import Action
from engine.strategies import Strategy, make_strategy
from engine.view import PlayerView

MAX_WAITING = 48
"""Decisions the worker may have queued; past this a bot decides inline, so a slow worker
(a busy machine) never holds tables back behind a growing queue. At 1,000 tables a limit of
16 sent so many decisions inline that the event loop saturated first (462 hands/s); 48 keeps
the worker busy and the loop free (522 hands/s at the same settings)."""
DECISION_DEADLINE = 3.0
"""Seconds from sending a decision to its answer, past which the worker is taken for hung.
Measured (``bots.py``): a simulating decision takes about 1 ms (median), under 6 ms (p99),
about 20 ms at worst; one that waits behind a full queue (``MAX_WAITING``) is answered within
48 x 20 ms, about 1 s, at worst. Three times that leaves room for a busy machine, and a hung
worker holds a table for at most 3 s more than the bot's thinking delay."""


class _Strategies:
    """In the worker: each bot's copy of its strategy, answering decisions and taking hand
    reviews and departures."""

    def __init__(self) -> None:
        self._copies: dict[int, tuple[Strategy, random.Random]] = {}

    def __call__(self, message: object) -> Action | None:
        assert isinstance(message, tuple)
        kind, bot_id = message[0], message[1]
        if kind == "forget":
            self._copies.pop(bot_id, None)
            return None
        entry = self._copies.get(bot_id)
        if entry is None:
            entry = self._copies[bot_id] = (make_strategy(message[2]),
                                            random.Random(secrets.randbits(128)))
        strategy, rng = entry
        if kind == "review":
            hook = getattr(strategy, "hand_finished", None)
            if hook is not None:
                hook(message[3])
            return None
        return strategy.decide(message[3], rng)


class BotWorker:
    """The handle on the bots' worker process, started on first use; ``close()`` at
    shutdown."""

    def __init__(self) -> None:
        self._link = WorkerLink(_Strategies, name="holdem-bots")

    def has_room(self) -> bool:
        """True when the worker is ready and a decision sent now would not wait behind a long
        queue. Starts the worker (for later decisions) when none is running."""
        return self._link.is_ready() and self._link.waiting < MAX_WAITING

    async def start(self) -> None:
        """Start the worker if needed and wait until it is ready (``WorkerFailed`` when it
        does not become ready in time)."""
        await self._link.start()

    async def decide(self, bot_id: int, level: str, view: PlayerView) -> Action:
        """The bot's decision, made in the worker by its copy of the strategy. Raises
        ``WorkerFailed`` when the worker dies or misses ``DECISION_DEADLINE`` (it is then
        replaced), ``RuntimeError`` when the strategy failed."""
        action = await self._link.ask(("decide", bot_id, level, view), DECISION_DEADLINE)
        if not isinstance(action, Action):
            raise RuntimeError(f"bot decision failed: the worker answered {action!r}")
        return action

    def hand_finished(self, bot_id: int, level: str, view: PlayerView) -> None:
        """Tell the bot's copy about a finished hand (without waiting)."""
        self._link.tell(("review", bot_id, level, view))

    def forget(self, bot_id: int) -> None:
        """Drop the copy of a bot that left its table."""
        if self._link.runs():
            self._link.tell(("forget", bot_id))

    def process_ids(self) -> tuple[int, ...]:
        """The worker's operating-system process id, once it runs (for CPU accounting)."""
        return self._link.process_ids()

    def close(self) -> None:
        """Stop the worker process; decisions still waiting fail."""
        self._link.close()

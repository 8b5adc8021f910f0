"""One worker process where bots make their equity-simulating decisions.

Threads give bots no parallelism (the GIL) and cost more CPU than deciding inline; a process
uses a second core. The event loop talks to it over a pipe that it watches itself
(``add_reader``): no helper threads, which would wait for the GIL behind the busy loop.

Strategies can learn between hands (the "hard" bot keeps notes on its opponents), so the worker
keeps its own copy of each bot's strategy and random stream, keyed by the bot's id: created by
the first message about that bot, told about every finished hand (messages are served in the
order sent), and dropped when the bot leaves. If the process dies, the decisions waiting for it
fail with ``BotWorkerFailed`` (their tables refund those hands) and the next call starts a new
process, whose copies begin again from nothing.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import random
from multiprocessing.connection import Connection

from engine.actions import Action
from engine.strategies import Strategy, make_strategy
from engine.view import PlayerView

log = logging.getLogger(__name__)

MAX_WAITING = 48
"""Decisions the worker may have queued; past this a bot decides inline, so a slow worker
(a busy machine) never holds tables back behind a growing queue. At 1,000 tables a limit of
16 sent so many decisions inline that the event loop saturated first (462 hands/s); 48 keeps
the worker busy and the loop free (522 hands/s at the same settings)."""

# -- inside the worker process ---------------------------------------------------------------


def _serve(connection: Connection) -> None:
    """The worker's loop: answer decisions, apply hand reviews and departures, in order."""
    strategies: dict[int, tuple[Strategy, random.Random]] = {}
    while True:
        try:
            request = connection.recv()
        except EOFError:
            return
        kind, bot_id = request[0], request[1]
        if kind == "forget":
            strategies.pop(bot_id, None)
            continue
        level, argument = request[2], request[3]
        entry = strategies.get(bot_id)
        if entry is None:
            entry = strategies[bot_id] = (make_strategy(level), random.Random(bot_id))
        strategy, rng = entry
        if kind == "review":
            hook = getattr(strategy, "hand_finished", None)
            if hook is not None:
                hook(argument)
            continue
        request_id, view = argument
        try:
            answer: tuple[bool, Action | str] = (True, strategy.decide(view, rng))
        except Exception as error:
            answer = (False, f"{type(error).__name__}: {error}")
        connection.send((request_id, answer))


# -- in the bot's process --------------------------------------------------------------------


class BotWorkerFailed(RuntimeError):
    """The worker process died or could not start; not the bot's fault."""


class BotWorker:
    """The handle on the worker process, started on first use; ``close()`` at shutdown."""

    def __init__(self) -> None:
        self._process: multiprocessing.process.BaseProcess | None = None
        self._connection: Connection | None = None
        self._waiting: dict[int, asyncio.Future[Action]] = {}
        self._request_ids = itertools.count()

    def has_room(self) -> bool:
        """True when a decision sent now would not wait behind a long queue."""
        return len(self._waiting) < MAX_WAITING

    async def decide(self, bot_id: int, level: str, view: PlayerView) -> Action:
        """The bot's decision, made in the worker by its copy of the strategy."""
        request_id = next(self._request_ids)
        answer: asyncio.Future[Action] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = answer
        try:
            self._send(("decide", bot_id, level, (request_id, view)))
            return await answer
        finally:
            self._waiting.pop(request_id, None)

    def hand_finished(self, bot_id: int, level: str, view: PlayerView) -> None:
        """Tell the bot's copy about a finished hand (without waiting)."""
        self._send(("review", bot_id, level, view))

    def forget(self, bot_id: int) -> None:
        """Drop the copy of a bot that left its table."""
        if self._connection is not None:
            self._send(("forget", bot_id))

    def process_ids(self) -> tuple[int, ...]:
        """The worker's operating-system process id, once it runs (for CPU accounting)."""
        pid = self._process.pid if self._process is not None else None
        return (pid,) if pid is not None else ()

    def close(self) -> None:
        """Stop the worker process; decisions still waiting fail."""
        self._stop(BotWorkerFailed("the bots' worker was closed"))

    def _send(self, message: tuple[object, ...]) -> None:
        """Send a message; if the worker is gone, fail what waits for it (a new one starts on
        the next call)."""
        try:
            self._running().send(message)
        except (OSError, ValueError) as error:
            self._stop(BotWorkerFailed(f"the bots' worker process failed: {error}"))

    def _running(self) -> Connection:
        if self._connection is None:
            # "spawn": forking a process that already runs threads (sqlite, asyncio) is unsafe.
            context = multiprocessing.get_context("spawn")
            ours, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs,), name="bots-worker",
                                      daemon=True)
            process.start()
            theirs.close()
            self._process, self._connection = process, ours
            asyncio.get_running_loop().add_reader(ours.fileno(), self._receive)
        return self._connection

    def _receive(self) -> None:
        connection = self._connection
        assert connection is not None
        try:
            while connection.poll():
                request_id, (ok, value) = connection.recv()
                answer = self._waiting.get(request_id)
                if answer is None or answer.done():
                    continue
                if ok:
                    answer.set_result(value)
                else:
                    answer.set_exception(RuntimeError(f"bot decision failed: {value}"))
        except (EOFError, OSError) as error:
            log.error("the bots' worker process stopped: %s", error)
            self._stop(BotWorkerFailed("the bots' worker process stopped"))

    def _stop(self, error: BotWorkerFailed) -> None:
        connection, self._connection = self._connection, None
        process, self._process = self._process, None
        if connection is not None:
            asyncio.get_running_loop().remove_reader(connection.fileno())
            connection.close()  # the worker reads EOF and ends
        if process is not None:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
        waiting, self._waiting = self._waiting, {}
        for answer in waiting.values():
            if not answer.done():
                answer.set_exception(error)

"""One worker process where bots make their equity-simulating decisions.

Threads give bots no parallelism (the GIL) and cost more CPU than deciding inline; a process
uses a second core. The event loop talks to it over a socket pair that it watches itself
(``add_reader``/``add_writer``), never blocking: no helper threads, which would wait for the GIL
behind the busy loop, and no blocking send, which would freeze every table behind a worker that
stopped reading. Messages are length-prefixed pickles.

Strategies can learn between hands (the "hard" bot keeps notes on its opponents), so the worker
keeps its own copy of each bot's strategy and random stream, keyed by the bot's id: created by
the first message about that bot, told about every finished hand (messages are served in the
order sent), and dropped when the bot leaves. Each copy's random stream is seeded from the OS
(``secrets``), so that bots' choices cannot be foreseen from their ids.

Every decision has a deadline (``DECISION_DEADLINE``). A worker that misses one is taken for
hung: it is killed and a new one started, and the decisions that waited for it fail with
``BotWorkerFailed``, so that their bots decide at their tables instead (``Bot.decide``). The
same happens when the worker dies. A new process's copies begin again from nothing. While the
worker starts (``has_room()`` is false until it says it is ready), bots decide inline.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import pickle
import random
import secrets
import socket
import struct
from collections.abc import Iterator

from engine.actions import Action
from engine.strategies import Strategy, make_strategy
from engine.view import PlayerView

log = logging.getLogger(__name__)

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
STARTUP_DEADLINE = 60.0
"""Seconds ``start()`` waits for a new worker to say it is ready (about 0.7 s measured)."""
MAX_BUFFERED = 4 * 1024 * 1024
"""Bytes that may wait to be written to the worker; more means it stopped reading: hung."""

_HEADER = struct.Struct("!I")


def _frame(message: object) -> bytes:
    payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(payload)) + payload


def _frames(buffer: bytearray) -> Iterator[object]:
    """The complete messages at the start of ``buffer``, removed from it."""
    start = 0
    while len(buffer) - start >= _HEADER.size:
        (size,) = _HEADER.unpack_from(buffer, start)
        end = start + _HEADER.size + size
        if len(buffer) < end:
            break
        yield pickle.loads(buffer[start + _HEADER.size:end])
        start = end
    del buffer[:start]


# -- inside the worker process ---------------------------------------------------------------


def _serve(connection: socket.socket) -> None:
    """The worker's loop: say it is ready, then answer decisions and apply hand reviews and
    departures, in the order sent, until the other end closes."""
    connection.setblocking(True)
    connection.sendall(_frame(("ready",)))
    strategies: dict[int, tuple[Strategy, random.Random]] = {}
    with connection, connection.makefile("rb") as incoming:
        while True:
            header = incoming.read(_HEADER.size)
            if len(header) < _HEADER.size:
                return
            (size,) = _HEADER.unpack(header)
            payload = incoming.read(size)
            if len(payload) < size:
                return
            request = pickle.loads(payload)
            kind, bot_id = request[0], request[1]
            if kind == "forget":
                strategies.pop(bot_id, None)
                continue
            entry = strategies.get(bot_id)
            if entry is None:
                rng = random.Random(secrets.randbits(128))
                entry = strategies[bot_id] = (make_strategy(request[2]), rng)
            strategy, rng = entry
            if kind == "review":
                hook = getattr(strategy, "hand_finished", None)
                if hook is not None:
                    hook(request[3])
                continue
            request_id, view = request[3], request[4]
            try:
                answer: tuple[str, int, bool, Action | str] = (
                    "answer", request_id, True, strategy.decide(view, rng))
            except Exception as error:
                answer = ("answer", request_id, False, f"{type(error).__name__}: {error}")
            connection.sendall(_frame(answer))


# -- in the bot's process --------------------------------------------------------------------


class BotWorkerFailed(RuntimeError):
    """The worker process died, hung or could not start; not the bot's fault."""


class BotWorker:
    """The handle on the worker process, started on first use; ``close()`` at shutdown."""

    def __init__(self) -> None:
        self._process: multiprocessing.process.BaseProcess | None = None
        self._connection: socket.socket | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready: asyncio.Future[None] | None = None
        self._incoming = bytearray()
        self._outgoing = bytearray()
        self._waiting: dict[int, asyncio.Future[Action]] = {}
        self._request_ids = itertools.count()

    def has_room(self) -> bool:
        """True when the worker is ready and a decision sent now would not wait behind a long
        queue. Starts the worker (for later decisions) when none is running."""
        ready = self._running()
        return ready.done() and not ready.exception() and len(self._waiting) < MAX_WAITING

    async def start(self) -> None:
        """Start the worker if needed and wait until it is ready (``BotWorkerFailed`` when it
        does not become ready within ``STARTUP_DEADLINE``)."""
        ready = self._running()
        try:
            async with asyncio.timeout(STARTUP_DEADLINE):
                await asyncio.shield(ready)
        except TimeoutError:
            self._stop(BotWorkerFailed("the bots' worker did not start"))
            raise BotWorkerFailed("the bots' worker did not start") from None

    async def decide(self, bot_id: int, level: str, view: PlayerView) -> Action:
        """The bot's decision, made in the worker by its copy of the strategy. Raises
        ``BotWorkerFailed`` when the worker dies or misses ``DECISION_DEADLINE`` (it is then
        replaced), ``RuntimeError`` when the strategy failed."""
        request_id = next(self._request_ids)
        answer: asyncio.Future[Action] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = answer
        try:
            self._send(("decide", bot_id, level, request_id, view))
            async with asyncio.timeout(DECISION_DEADLINE):
                return await asyncio.shield(answer)
        except TimeoutError:
            self._waiting.pop(request_id, None)
            if answer.done():  # failed meanwhile: another decision found the worker hung
                return answer.result()
            log.error("the bots' worker did not decide within %.1f s; starting a new one",
                      DECISION_DEADLINE)
            self._stop(BotWorkerFailed("the bots' worker hung"))
            self._running()
            raise BotWorkerFailed("the bots' worker hung") from None
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
        self._stop(BotWorkerFailed("the bots' worker was closed"), graceful=True)

    # -- the connection ----------------------------------------------------------------------

    def _running(self) -> asyncio.Future[None]:
        """Start the worker process if none runs; the future is done once it is ready."""
        if self._connection is None or self._ready is None:
            loop = asyncio.get_running_loop()
            ours, theirs = socket.socketpair()
            # "spawn": forking a process that already runs threads (sqlite, asyncio) is unsafe.
            context = multiprocessing.get_context("spawn")
            process = context.Process(target=_serve, args=(theirs,), name="bots-worker",
                                      daemon=True)
            process.start()
            theirs.close()
            ours.setblocking(False)
            self._process, self._connection, self._loop = process, ours, loop
            self._ready = loop.create_future()
            self._incoming.clear()
            self._outgoing.clear()
            loop.add_reader(ours.fileno(), self._receive)
        return self._ready

    def _send(self, message: object) -> None:
        """Queue a message for the worker and write what the socket takes now; a worker that
        leaves more than ``MAX_BUFFERED`` bytes unread is taken for hung and stopped."""
        self._running()
        connection, loop = self._connection, self._loop
        assert connection is not None and loop is not None
        was_empty = not self._outgoing
        self._outgoing += _frame(message)
        if was_empty:
            self._flush()
            if self._outgoing and self._connection is connection:
                loop.add_writer(connection.fileno(), self._flush)
        if len(self._outgoing) > MAX_BUFFERED:
            log.error("the bots' worker stopped reading; starting a new one")
            self._stop(BotWorkerFailed("the bots' worker hung"))

    def _flush(self) -> None:
        connection, loop = self._connection, self._loop
        if connection is None or loop is None:
            return
        try:
            sent = connection.send(self._outgoing)
        except BlockingIOError:
            return
        except OSError as error:
            log.error("the bots' worker process stopped: %s", error)
            self._stop(BotWorkerFailed("the bots' worker process stopped"))
            return
        del self._outgoing[:sent]
        if not self._outgoing:
            loop.remove_writer(connection.fileno())

    def _receive(self) -> None:
        connection = self._connection
        if connection is None:
            return
        try:
            data = connection.recv(1 << 16)
        except BlockingIOError:
            return
        except OSError as error:
            data, reason = b"", str(error)
        else:
            reason = "end of file"
        if not data:
            log.error("the bots' worker process stopped: %s", reason)
            self._stop(BotWorkerFailed("the bots' worker process stopped"))
            return
        self._incoming += data
        for message in _frames(self._incoming):
            self._answer(message)

    def _answer(self, message: object) -> None:
        if message == ("ready",):
            if self._ready is not None and not self._ready.done():
                self._ready.set_result(None)
            return
        if not isinstance(message, tuple) or len(message) != 4 or message[0] != "answer":
            log.error("the bots' worker sent %r", message)
            return
        _, request_id, ok, value = message
        answer = self._waiting.get(request_id)
        if answer is None or answer.done():
            return
        if ok and isinstance(value, Action):
            answer.set_result(value)
        else:
            answer.set_exception(RuntimeError(f"bot decision failed: {value}"))

    def _stop(self, error: BotWorkerFailed, *, graceful: bool = False) -> None:
        """Close the connection and end the process (killed at once unless ``graceful``);
        fail what waits for it. The next call starts a new process."""
        connection, self._connection = self._connection, None
        process, self._process = self._process, None
        ready, self._ready = self._ready, None
        if connection is not None:
            if self._loop is not None and not self._loop.is_closed():
                self._loop.remove_reader(connection.fileno())
                self._loop.remove_writer(connection.fileno())
            connection.close()  # a healthy worker reads the end of its input and exits
        self._incoming.clear()
        self._outgoing.clear()
        if process is not None:
            if graceful:
                process.join(timeout=1.0)
            if process.is_alive():
                process.kill()
            process.join(timeout=5.0)
        if ready is not None and not ready.done():
            ready.set_exception(error)
            ready.exception()  # retrieved: nobody may be waiting for it
        waiting, self._waiting = self._waiting, {}
        for answer in waiting.values():
            if not answer.done():
                answer.set_exception(error)

"""A worker process for work that would hold the event loop's GIL, and the loop's link to it.

Threads give no parallelism (the GIL) and a process uses another core. The event loop talks
to the worker over a socket pair that it watches itself (``add_reader``/``add_writer``),
never blocking: no helper threads, which would wait for the GIL behind the busy loop (a
``ProcessPoolExecutor`` spends two of them and some 0.7 ms of CPU per task: 9-11 ms a hand
for the table pictures, measured by ``benchmarks.discord``), and no blocking send, which
would freeze every table behind a worker that stopped reading. Messages are length-prefixed
pickles, served in the order sent.

In the worker, a handler (made there by ``make_handler``, so it may keep state, as the bots'
strategies do) answers each request, or takes a message that needs no answer. A request has
a deadline: a worker that misses it is taken for hung, killed and replaced, and what waited
for it fails with ``WorkerFailed``; so does everything waiting when the worker dies, or when
it sends an answer that cannot be read (it would hold every answer behind it): that worker is
replaced at once. The next message starts a new process, whose handler begins again from
nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import pickle
import signal
import socket
import struct
from collections.abc import Callable, Iterator
from pathlib import Path

log = logging.getLogger(__name__)

Handler = Callable[[object], object]
"""In the worker: a request's answer (or a message's effect, its result unused)."""

STARTUP_DEADLINE = 60.0
"""Seconds ``start()`` waits for a new worker to say it is ready (about 0.7 s measured)."""
MAX_BUFFERED = 4 * 1024 * 1024
"""Bytes that may wait to be written to the worker; more means it stopped reading: hung."""

_HEADER = struct.Struct("!I")


class WorkerFailed(RuntimeError):
    """The worker process died, hung or could not start: not the request's fault."""


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


def _serve(connection: socket.socket, make_handler: Callable[[], Handler], name: str) -> None:
    """The worker's loop: name the process, say it is ready, then serve what comes in order
    until the other end closes, reading or writing (the bot stopped, maybe while this
    started): then it ends quietly. A request (with an id) gets its answer, or the error the
    handler raised as text; a message without an id gets nothing back (its error is logged
    here).

    SIGINT is ignored: a terminal's Ctrl-C reaches every process of the bot, and the bot,
    stopping cleanly, still asks its workers for the tables' last pictures and moves; it ends
    them itself, by closing their socket. SIGTERM keeps its default: it is how
    ``multiprocessing`` ends a worker left running when the bot's interpreter exits."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):  # Linux: the name ps and top show
        Path("/proc/self/comm").write_text(name[:15])
    handler = make_handler()
    connection.setblocking(True)
    with connection, contextlib.suppress(BrokenPipeError, ConnectionResetError):
        _answer_requests(connection, handler, name)


def _answer_requests(connection: socket.socket, handler: Handler, name: str) -> None:
    connection.sendall(_frame(("ready",)))
    with connection.makefile("rb") as incoming:
        while True:
            header = incoming.read(_HEADER.size)
            if len(header) < _HEADER.size:
                return
            (size,) = _HEADER.unpack(header)
            payload = incoming.read(size)
            if len(payload) < size:
                return
            request_id, message = pickle.loads(payload)
            try:
                answer: tuple[str, int, bool, object] = ("answer", request_id, True,
                                                         handler(message))
            except Exception as error:
                if request_id is None:  # nobody waits to hear of it: say it on stderr
                    log.exception("the %s worker failed on a message", name)
                answer = ("answer", request_id, False, f"{type(error).__name__}: {error}")
            if request_id is not None:
                connection.sendall(_frame(answer))


# -- in the bot's process --------------------------------------------------------------------


class WorkerLink:
    """The handle on one worker process named ``name``, started on first use; ``close()`` at
    shutdown. ``make_handler`` must be importable by name (the process is spawned)."""

    def __init__(self, make_handler: Callable[[], Handler], *, name: str) -> None:
        self.name = name
        self._make_handler = make_handler
        self._process: multiprocessing.process.BaseProcess | None = None
        self._connection: socket.socket | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready: asyncio.Future[None] | None = None
        self._incoming = bytearray()
        self._outgoing = bytearray()
        self._waiting: dict[int, asyncio.Future[object]] = {}
        self._request_ids = itertools.count()

    @property
    def waiting(self) -> int:
        """Requests sent and not answered yet."""
        return len(self._waiting)

    def is_ready(self) -> bool:
        """True when the worker runs and said it is ready; starts it when none runs."""
        ready = self._running()
        return ready.done() and not ready.exception()

    async def start(self) -> None:
        """Start the worker if needed and wait until it is ready (``WorkerFailed`` when it
        does not become ready within ``STARTUP_DEADLINE``)."""
        ready = self._running()
        try:
            async with asyncio.timeout(STARTUP_DEADLINE):
                await asyncio.shield(ready)
        except TimeoutError:
            self._stop(WorkerFailed(f"the {self.name} worker did not start"))
            raise WorkerFailed(f"the {self.name} worker did not start") from None

    async def ask(self, message: object, deadline: float) -> object:
        """The handler's answer to ``message``. Raises ``WorkerFailed`` when the worker dies
        or misses ``deadline`` seconds (it is then replaced), ``RuntimeError`` when the
        handler failed."""
        request_id = next(self._request_ids)
        answer: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = answer
        try:
            self._send((request_id, message))
            async with asyncio.timeout(deadline):
                return await asyncio.shield(answer)
        except TimeoutError:
            self._waiting.pop(request_id, None)
            if answer.done():  # failed meanwhile: another request found the worker hung
                return answer.result()
            log.error("the %s worker did not answer within %.1f s; starting a new one",
                      self.name, deadline)
            self._stop(WorkerFailed(f"the {self.name} worker hung"))
            self._running()
            raise WorkerFailed(f"the {self.name} worker hung") from None
        finally:
            self._waiting.pop(request_id, None)

    def tell(self, message: object) -> None:
        """Send ``message`` to the handler without waiting (nothing comes back)."""
        self._send((None, message))

    def runs(self) -> bool:
        """True when a worker process is running (or starting)."""
        return self._connection is not None

    def process_ids(self) -> tuple[int, ...]:
        """The worker's operating-system process id, once it runs (for CPU accounting)."""
        pid = self._process.pid if self._process is not None else None
        return (pid,) if pid is not None else ()

    def close(self) -> None:
        """Stop the worker process; requests still waiting fail."""
        self._stop(WorkerFailed(f"the {self.name} worker was closed"), graceful=True)

    # -- the connection ----------------------------------------------------------------------

    def _running(self) -> asyncio.Future[None]:
        """Start the worker process if none runs; the future is done once it is ready."""
        if self._connection is None or self._ready is None:
            loop = asyncio.get_running_loop()
            ours, theirs = socket.socketpair()
            # "spawn": forking a process that already runs threads (sqlite, asyncio) is unsafe.
            context = multiprocessing.get_context("spawn")
            process = context.Process(target=_serve, name=self.name, daemon=True,
                                      args=(theirs, self._make_handler, self.name))
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
            log.error("the %s worker stopped reading; starting a new one", self.name)
            self._stop(WorkerFailed(f"the {self.name} worker hung"))

    def _flush(self) -> None:
        connection, loop = self._connection, self._loop
        if connection is None or loop is None:
            return
        try:
            sent = connection.send(self._outgoing)
        except BlockingIOError:
            return
        except OSError as error:
            log.error("the %s worker process stopped: %s", self.name, error)
            self._stop(WorkerFailed(f"the {self.name} worker process stopped"))
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
            log.error("the %s worker process stopped: %s", self.name, reason)
            self._stop(WorkerFailed(f"the {self.name} worker process stopped"))
            return
        self._incoming += data
        try:
            for message in _frames(self._incoming):
                self._answer(message)
        except Exception as error:  # unpickling can raise anything the answer's classes do
            # the frame would stay at the front of the buffer, holding every answer behind it
            log.error("the %s worker sent an answer that could not be read (%r); starting a "
                      "new one", self.name, error)
            self._stop(WorkerFailed(f"the {self.name} worker sent an answer that could not "
                                    f"be read"))
            self._running()

    def _answer(self, message: object) -> None:
        if message == ("ready",):
            if self._ready is not None and not self._ready.done():
                self._ready.set_result(None)
            return
        if not isinstance(message, tuple) or len(message) != 4 or message[0] != "answer":
            log.error("the %s worker sent %r", self.name, message)
            return
        _, request_id, ok, value = message
        answer = self._waiting.get(request_id)
        if answer is None or answer.done():
            return
        if ok:
            answer.set_result(value)
        else:
            answer.set_exception(RuntimeError(f"the {self.name} worker failed: {value}"))

    def _stop(self, error: WorkerFailed, *, graceful: bool = False) -> None:
        """Close the connection and end the process (killed at once unless ``graceful``);
        fail what waits for it. The next message starts a new process."""
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

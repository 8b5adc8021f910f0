"""Calls that arrive while the database is busy, sent together as one statement.

On PostgreSQL every statement is a round trip between two processes and a transaction of its
own (a commit, a flush of the write-ahead log), whatever it writes. Under load many tables
begin and settle hands at the same moment, so ``Batcher`` gathers the calls that arrive while
earlier ones are in flight and hands them to one run of a function that writes them all in one
statement (``hands.start_hands``, ``hands.settle_hands``). A call that finds a statement free
goes with the next turn of the event loop, together with every call made in the same turn (the
tables the loop served in one go): batching adds no wait to a lone call beyond that turn, only
to calls that would have queued for a connection anyway.

Each call still gets its own outcome, and a refusal stays its own: the function returns one
result or exception per request, and when the shared statement itself fails, the batch is run
again one request at a time (as SQLite's group commit replays a batch in savepoints), so only
the request at fault fails.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Sequence
from typing import Generic, TypeAlias, TypeVar

R = TypeVar("R")
T = TypeVar("T")

Outcome: TypeAlias = "T | Exception"
"""What one request of a batch came to: its result, or the exception its caller gets."""


class Batcher(Generic[R, T]):
    """Runs requests in batches, at most ``in_flight`` batches at once and ``limit`` requests
    in each, never two requests with the same ``key`` in one batch or in flight at once (a later
    one waits until the earlier one's batch is done, so it sees what that one wrote).

    ``run`` writes a batch and returns one outcome per request, in order. ``isolate`` says
    whether an exception ``run`` raised concerns the batch as a whole and left nothing
    written (then each request is run again alone, so that only the one at fault fails); any
    other exception reaches every caller of the batch.
    """

    def __init__(
        self,
        run: Callable[[Sequence[R]], Awaitable[Sequence[Outcome[T]]]],
        *,
        key: Callable[[R], Hashable],
        isolate: Callable[[Exception], bool],
        limit: int,
        in_flight: int,
    ) -> None:
        self._run = run
        self._key = key
        self._isolate = isolate
        self._limit = limit
        self._in_flight = in_flight
        self._pending: list[tuple[R, asyncio.Future[T]]] = []
        self._flushes: set[asyncio.Task[None]] = set()
        self._gathering: asyncio.Task[None] | None = None
        """The flush started that has not taken its batch yet: later requests join it."""
        self._keys_in_flight: set[Hashable] = set()
        self.batches = 0
        """Batches run (each one statement, or one per request when a batch was isolated)."""

    async def submit(self, request: R) -> T:
        """Run ``request`` in the next batch; its result, or raise its exception. A caller
        cancelled before its batch was sent is left out of it."""
        outcome: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        entry = (request, outcome)
        self._pending.append(entry)
        self._start_flushes()
        try:
            return await outcome
        except asyncio.CancelledError:
            if entry in self._pending:
                self._pending.remove(entry)
            raise

    async def drain(self) -> None:
        """Wait until every request submitted so far has run."""
        while self._flushes:
            await asyncio.wait(set(self._flushes))

    def _start_flushes(self) -> None:
        """Start a flush if requests wait, a statement is free and no flush is gathering; it
        takes its batch when it first runs, after the requests of the current turn."""
        if (
            self._gathering is None
            and len(self._flushes) < self._in_flight
            and any(self._key(request) not in self._keys_in_flight for request, _ in self._pending)
        ):
            task = self._gathering = asyncio.get_running_loop().create_task(self._flush())
            self._flushes.add(task)
            task.add_done_callback(self._flush_done)

    def _flush_done(self, task: asyncio.Task[None]) -> None:
        self._flushes.discard(task)
        if self._gathering is task:  # cancelled before it ran
            self._gathering = None
        self._start_flushes()

    def _take_batch(self) -> list[tuple[R, asyncio.Future[T]]]:
        batch: list[tuple[R, asyncio.Future[T]]] = []
        keys: set[Hashable] = set()
        waiting: list[tuple[R, asyncio.Future[T]]] = []
        for entry in self._pending:
            key = self._key(entry[0])
            free = key not in keys and key not in self._keys_in_flight
            if len(batch) < self._limit and free and not entry[1].done():
                batch.append(entry)
                keys.add(key)
            elif not entry[1].done():
                waiting.append(entry)
        self._pending = waiting
        return batch

    async def _flush(self) -> None:
        self._gathering = None
        batch = self._take_batch()
        if not batch:  # every caller that waited was cancelled
            return
        keys = {self._key(request) for request, _ in batch}
        self._keys_in_flight |= keys
        try:
            self._start_flushes()  # what did not fit the limit may use another statement
            await self._write(batch)
        finally:
            self._keys_in_flight -= keys

    async def _write(self, batch: Sequence[tuple[R, asyncio.Future[T]]]) -> None:
        """Run the batch and give each caller its outcome."""
        requests = [request for request, _ in batch]
        outcomes: Sequence[Outcome[T]]
        try:
            self.batches += 1
            outcomes = await self._run(requests)
        except Exception as error:
            if len(batch) == 1 or not self._isolate(error):
                outcomes = [error] * len(batch)
            else:
                outcomes = [await self._run_alone(request) for request in requests]
        except BaseException as error:  # cancelled (the loop is closing): so are its callers
            for _, future in batch:
                if not future.done():
                    future.cancel()
            if isinstance(error, asyncio.CancelledError):
                return
            raise
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if future.done():
                continue
            if isinstance(outcome, Exception):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)

    async def _run_alone(self, request: R) -> Outcome[T]:
        try:
            self.batches += 1
            (outcome,) = await self._run([request])
        except Exception as error:
            return error
        return outcome

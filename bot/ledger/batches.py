"""Calls that arrive while the database is busy, sent together as one statement.

On PostgreSQL every statement is a round trip between two processes and a transaction of its
own (a commit, a flush of the write-ahead log), whatever it writes. Under load many tables
begin and settle hands at the same moment, so ``Batcher`` gathers the calls that arrive while
earlier ones are in flight and hands them to one run of a function that writes them all in one
statement (``hands.start_hands``, ``hands.settle_hands``). A call that finds nothing in flight
is sent at once: batching adds no wait to a lone call, only to calls that would have queued
for a connection anyway.

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
    in each, never two requests with the same ``key`` in one batch (a later one waits for the
    next batch, so it sees what the earlier one wrote).

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
        while self._pending and len(self._flushes) < self._in_flight:
            batch = self._take_batch()
            task = asyncio.get_running_loop().create_task(self._flush(batch))
            self._flushes.add(task)
            task.add_done_callback(self._flush_done)

    def _flush_done(self, task: asyncio.Task[None]) -> None:
        self._flushes.discard(task)
        self._start_flushes()

    def _take_batch(self) -> list[tuple[R, asyncio.Future[T]]]:
        batch: list[tuple[R, asyncio.Future[T]]] = []
        keys: set[Hashable] = set()
        waiting: list[tuple[R, asyncio.Future[T]]] = []
        for entry in self._pending:
            key = self._key(entry[0])
            if len(batch) < self._limit and key not in keys and not entry[1].done():
                batch.append(entry)
                keys.add(key)
            elif not entry[1].done():
                waiting.append(entry)
        self._pending = waiting
        return batch

    async def _flush(self, batch: Sequence[tuple[R, asyncio.Future[T]]]) -> None:
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

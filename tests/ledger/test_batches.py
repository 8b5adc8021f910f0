"""The batcher that sends PostgreSQL's hand writes many at a time (``bot.ledger.batches``),
driven by a recording ``run`` instead of a database: which requests went together, in what
order, and what each caller got back."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from bot.ledger.batches import Batcher, Outcome


class Refused(Exception):
    """A request the database refused; a batch holding it is rerun one request at a time."""


class Broken(Exception):
    """A failure that concerns the whole batch (the connection dropped)."""


class Recorder:
    """A ``run`` that records each batch, holds it until released when ``hold`` is set, and
    answers each request ``(key, value)`` with ``value * 10``, or refuses negative values."""

    def __init__(self, *, hold: bool = False) -> None:
        self.batches: list[list[tuple[str, int]]] = []
        self.running = 0
        self.most_running = 0
        self.release = asyncio.Event()
        if not hold:
            self.release.set()
        self.broken = False

    async def run(self, requests: Sequence[tuple[str, int]]) -> Sequence[Outcome[int]]:
        self.batches.append(list(requests))
        self.running += 1
        self.most_running = max(self.most_running, self.running)
        try:
            await self.release.wait()
        finally:
            self.running -= 1
        if self.broken:
            raise Broken("connection lost")
        if len(requests) > 1 and any(value < 0 for _, value in requests):
            raise Refused("one of the batch was refused")
        return [Refused(key) if value < 0 else value * 10 for key, value in requests]


def batcher(recorder: Recorder, *, limit: int = 64, in_flight: int = 2) -> Batcher[
    tuple[str, int], int
]:
    return Batcher(
        recorder.run, key=lambda request: request[0],
        isolate=lambda error: isinstance(error, Refused), limit=limit, in_flight=in_flight,
    )  # fmt: skip


async def test_requests_made_in_one_turn_of_the_loop_go_in_one_batch() -> None:
    recorder = Recorder()
    batches = batcher(recorder)
    results = await asyncio.gather(*(batches.submit((f"table {n}", n)) for n in range(5)))
    assert results == [0, 10, 20, 30, 40]
    assert recorder.batches == [[(f"table {n}", n) for n in range(5)]]
    assert batches.batches == 1


async def test_requests_made_while_every_statement_is_busy_wait_and_go_together() -> None:
    recorder = Recorder(hold=True)
    batches = batcher(recorder, in_flight=2)
    first = asyncio.ensure_future(batches.submit(("a", 1)))
    await asyncio.sleep(0.01)
    second = asyncio.ensure_future(batches.submit(("b", 2)))
    await asyncio.sleep(0.01)
    assert recorder.batches == [[("a", 1)], [("b", 2)]]
    later = [asyncio.ensure_future(batches.submit((key, 3))) for key in "cde"]
    await asyncio.sleep(0.01)
    assert len(recorder.batches) == 2  # both statements busy: nothing more is sent
    recorder.release.set()
    assert await asyncio.gather(first, second, *later) == [10, 20, 30, 30, 30]
    assert recorder.batches[2:] == [[("c", 3), ("d", 3), ("e", 3)]]
    assert recorder.most_running == 2


async def test_a_batch_holds_at_most_limit_requests_and_the_rest_use_the_other_statement() -> None:
    recorder = Recorder()
    batches = batcher(recorder, limit=3)
    await asyncio.gather(*(batches.submit((f"t{n}", n)) for n in range(7)))
    assert [len(batch) for batch in recorder.batches] == [3, 3, 1]
    assert sorted(request for batch in recorder.batches for request in batch) == sorted(
        (f"t{n}", n) for n in range(7)
    )


async def test_a_second_request_with_the_same_key_waits_until_the_first_one_is_written() -> None:
    recorder = Recorder(hold=True)
    batches = batcher(recorder, in_flight=2)
    first = asyncio.ensure_future(batches.submit(("table", 1)))
    second = asyncio.ensure_future(batches.submit(("table", 2)))
    await asyncio.sleep(0.01)
    assert recorder.batches == [[("table", 1)]]  # a statement is free, yet it waits
    recorder.release.set()
    assert await asyncio.gather(first, second) == [10, 20]
    assert recorder.batches == [[("table", 1)], [("table", 2)]]
    assert recorder.most_running == 1


async def test_a_refused_request_fails_alone_and_the_others_of_its_batch_are_written() -> None:
    recorder = Recorder()
    batches = batcher(recorder)
    outcomes = await asyncio.gather(
        *(batches.submit((f"t{n}", value)) for n, value in enumerate([1, -1, 3])),
        return_exceptions=True,
    )
    assert outcomes[0] == 10 and outcomes[2] == 30
    assert isinstance(outcomes[1], Refused)
    assert recorder.batches == [[("t0", 1), ("t1", -1), ("t2", 3)], [("t0", 1)], [("t1", -1)],
                                [("t2", 3)]]  # fmt: skip


async def test_a_failure_of_the_whole_batch_reaches_every_caller_of_it() -> None:
    recorder = Recorder()
    recorder.broken = True
    batches = batcher(recorder)
    outcomes = await asyncio.gather(
        *(batches.submit((f"t{n}", n)) for n in range(3)), return_exceptions=True
    )
    assert all(isinstance(outcome, Broken) for outcome in outcomes)
    assert len(recorder.batches) == 1  # not rerun: it may concern the connection, not a request


async def test_a_caller_cancelled_before_its_batch_was_sent_is_left_out_of_it() -> None:
    recorder = Recorder(hold=True)
    batches = batcher(recorder, in_flight=1)
    busy = asyncio.ensure_future(batches.submit(("a", 1)))
    await asyncio.sleep(0)
    gone = asyncio.ensure_future(batches.submit(("b", 2)))
    kept = asyncio.ensure_future(batches.submit(("c", 3)))
    await asyncio.sleep(0)
    gone.cancel()
    recorder.release.set()
    assert await asyncio.gather(busy, kept) == [10, 30]
    assert recorder.batches == [[("a", 1)], [("c", 3)]]
    with pytest.raises(asyncio.CancelledError):
        await gone


async def test_drain_waits_for_every_request_submitted() -> None:
    recorder = Recorder(hold=True)
    batches = batcher(recorder)
    waiting = [asyncio.ensure_future(batches.submit((f"t{n}", n))) for n in range(3)]
    await asyncio.sleep(0)
    asyncio.get_running_loop().call_later(0.01, recorder.release.set)
    await batches.drain()
    assert all(task.done() for task in waiting)

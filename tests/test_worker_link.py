"""The link to a worker process: answers in order, a handler's failure raised where it was
asked (or logged when nobody asked), the worker serving on after it, an answer that cannot be
read replacing the worker at once, and a worker that outlives the bot ending quietly."""

from __future__ import annotations

import asyncio
import multiprocessing
import socket

import pytest

from bot.worker_link import Handler, WorkerFailed, WorkerLink, _serve

pytestmark = pytest.mark.slow


def refuse_to_load() -> None:
    raise ValueError("this answer cannot be read here")


class Unreadable:
    """Pickled in the worker, it fails to unpickle in the bot's process."""

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return refuse_to_load, ()


def echo(message: object) -> object:
    if message == "boom":
        raise ValueError("boom")
    if message == "unreadable":
        return Unreadable()
    return message


def make_echo() -> Handler:
    return echo


async def test_a_failing_message_leaves_the_worker_serving() -> None:
    link = WorkerLink(make_echo, name="holdem-test")
    try:
        link.tell("boom")  # nobody waits for this one: the worker logs it and goes on
        assert await link.ask("hello", 60) == "hello"
        (pid,) = link.process_ids()
        with pytest.raises(RuntimeError, match="ValueError: boom"):
            await link.ask("boom", 60)
        assert [await link.ask(word, 60) for word in ("in", "order")] == ["in", "order"]
        assert link.process_ids() == (pid,)
    finally:
        link.close()
    assert link.process_ids() == ()


async def test_an_answer_that_cannot_be_read_replaces_the_worker_at_once() -> None:
    """Not after the deadline: the requests waiting fail now, and the next
    one is served by a new worker."""
    link = WorkerLink(make_echo, name="holdem-test")
    try:
        assert await link.ask("hello", 60) == "hello"
        (pid,) = link.process_ids()
        unreadable = asyncio.ensure_future(link.ask("unreadable", 60))
        behind = asyncio.ensure_future(link.ask("behind", 60))
        for request in (unreadable, behind):
            with pytest.raises(WorkerFailed, match="could not be read"):
                await request
        assert await link.ask("after", 60) == "after"
        assert link.process_ids() not in ((), (pid,))
    finally:
        link.close()


def test_a_worker_whose_bot_went_away_while_it_started_ends_quietly() -> None:
    """The bot stopped (its end of the socket closed) before the worker said it was ready:
    the worker's first write fails, and it exits with status 0, no traceback."""
    ours, theirs = socket.socketpair()
    ours.close()
    process = multiprocessing.get_context("spawn").Process(
        target=_serve, args=(theirs, make_echo, "holdem-test"))
    process.start()
    theirs.close()
    process.join(timeout=60)
    assert process.exitcode == 0

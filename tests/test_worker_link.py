"""The link to a worker process: answers in order, a handler's failure raised where it was
asked (or logged when nobody asked), the worker serving on after it."""

from __future__ import annotations

import pytest

from bot.worker_link import Handler, WorkerLink

pytestmark = pytest.mark.slow


def echo(message: object) -> object:
    if message == "boom":
        raise ValueError("boom")
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

"""Pictures drawn in the worker process: the same bytes as drawn in the bot's own process, and
a worker that dies or hangs is replaced without a table losing its picture."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
from collections.abc import AsyncIterator

import pytest

from bot.i18n import ENGLISH, language_for
from bot.render import pictures as pictures_module
from bot.render import render_cards, render_table, table_image_key
from bot.render.pictures import PROCESS_NAME, Pictures
from engine.cards import parse_cards
from tests.render.reference_states import busy_turn, preflop

pytestmark = pytest.mark.slow


@pytest.fixture
async def worker() -> AsyncIterator[Pictures]:
    pictures = Pictures(worker=True)
    yield pictures
    pictures.close()


def worker_pids(pictures: Pictures) -> tuple[int, ...]:
    assert pictures.worker is not None
    return pictures.worker.process_ids()


def running(pid: int) -> bool:
    """Whether ``pid`` is alive (neither gone nor a zombie left for its parent to reap)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def hang_in_a_worker() -> bytes:
    """Hangs in a worker process (as a picture stuck in a broken font might); returns at
    once in the bot's own."""
    if multiprocessing.parent_process() is not None:
        time.sleep(600)
    return b"drawn by the bot"


@pytest.mark.parametrize("worker_on", [True, False], ids=["worker", "threads"])
async def test_the_picture_is_the_one_the_bot_would_draw_itself(worker_on: bool) -> None:
    pictures = Pictures(worker=worker_on)
    try:
        for state, language in ((busy_turn(), ENGLISH), (preflop(), language_for("zh-TW"))):
            key, png = await pictures.table(state, language=language, shown=None)
            assert key == table_image_key(state, language=language)
            assert png == render_table(state, language=language)
            assert await pictures.table(state, language=language, shown=key) == (key, None)
        cards = parse_cards("Ah Td")
        assert await pictures.cards(cards) == render_cards(cards)
    finally:
        pictures.close()


async def test_the_worker_is_a_process_of_its_own_named_for_ps(worker: Pictures) -> None:
    worker.start()
    await worker.cards(parse_cards("As"))
    (pid,) = worker_pids(worker)
    assert pid != os.getpid()
    with open(f"/proc/{pid}/comm") as comm:
        assert comm.read().strip() == PROCESS_NAME


async def test_a_killed_worker_is_replaced_and_the_picture_still_drawn(worker: Pictures) -> None:
    state = busy_turn()
    await worker.table(state, language=ENGLISH, shown=None)
    (first,) = worker_pids(worker)
    os.kill(first, signal.SIGKILL)

    assert await worker.table(state, language=ENGLISH, shown=None) == \
        (table_image_key(state), render_table(state))
    assert await worker.cards(parse_cards("Kc")) == render_cards(parse_cards("Kc"))
    (second,) = worker_pids(worker)
    assert second != first


async def test_a_hung_worker_is_killed_and_the_picture_drawn_here(
        worker: Pictures, monkeypatch: pytest.MonkeyPatch) -> None:
    await worker.cards(parse_cards("As"))  # started: the deadline below is the hang's alone
    (hung,) = worker_pids(worker)
    monkeypatch.setattr(pictures_module, "PICTURE_DEADLINE", 1.0)

    assert await worker._draw(hang_in_a_worker) == b"drawn by the bot"
    for _ in range(1_000):  # the kill is sent; its delivery is the system's
        if not running(hung):
            break
        await asyncio.sleep(0.01)
    assert not running(hung)
    assert await worker.cards(parse_cards("As")) == render_cards(parse_cards("As"))

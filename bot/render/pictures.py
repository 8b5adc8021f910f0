"""Where the bot's pictures are drawn: in a process of their own, or in threads.

With pictures on, drawing is about half of the bot's CPU per hand (``benchmarks.discord``).
In threads it shares the one GIL with the event loop: the process then saturates at one
core while the machine has more, and the loop waits behind a picture, which is what a
click's answer feels. A worker process draws on another core; its caches of drawn pieces and
compressed bands (``table_image``) stay warm across pictures, and what crosses is small (a
table's public state out, a key and a PNG of 10-15 KB back). Even whether the table's
picture changed is decided there, so the event loop does none of the drawing's work.

A stdlib ``ProcessPoolExecutor`` of one process carries it: pictures need no order and keep
no state for the bot, unlike bot opponents (``bot.tables.bot_worker``). When the process dies
or misses ``PICTURE_DEADLINE``, it is replaced and that picture is drawn in a thread, so a
table is never left without its picture nor made to wait twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TypeVar

from bot.i18n import Language
from bot.i18n.languages import languages
from bot.render.cards_image import render_cards
from bot.render.table_image import pieces_key, render_pieces, table_pieces
from bot.tables.notifier import TableState
from engine.cards import Card, parse_cards

log = logging.getLogger(__name__)

PICTURE_DEADLINE = 10.0
"""Seconds a picture may take in the worker before the worker is taken for hung: a picture
takes 3 to 6 ms, and a start (spawning, importing Pillow and numpy, making the palette)
about a second on a busy 2-core machine."""

T = TypeVar("T")


def table_picture(state: TableState, language_code: str,
                  shown: str | None) -> tuple[str, bytes | None]:
    """The key of ``state``'s table picture (``table_image_key``), and its PNG unless
    ``shown``, the key of the picture already on the message, says it has not changed. The
    language goes by its code: a ``Language`` holds its catalog, which stays out of the pipe."""
    pieces = table_pieces(state, language=languages()[language_code])
    key = pieces_key(pieces)
    return key, None if key == shown else render_pieces(pieces)


PROCESS_NAME = "holdem-pictures"
"""The worker's name in ``ps`` and ``top`` (Linux), beside the bot's own process."""


def _name_process() -> None:
    """Name the worker process (``PROCESS_NAME``) where the system lets a process name
    itself; elsewhere it keeps Python's name."""
    with contextlib.suppress(OSError):
        Path("/proc/self/comm").write_text(PROCESS_NAME)


def _prepare() -> None:
    """Make the palette and its lookup table (a fifth of a second) before a table waits."""
    render_cards(parse_cards("As"))


class Pictures:
    """Draws the table's and the hole cards' pictures off the event loop: in one worker
    process with ``worker``, else in threads."""

    def __init__(self, *, worker: bool) -> None:
        self.worker = worker
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Start the worker process now rather than at the first picture."""
        if self.worker:
            self._running_pool().submit(_prepare)

    async def table(self, state: TableState, *, language: Language,
                    shown: str | None) -> tuple[str, bytes | None]:
        """``table_picture`` of ``state`` in ``language``."""
        return await self._draw(table_picture, state, language.code, shown)

    async def cards(self, cards: Sequence[Card]) -> bytes:
        """The PNG ``render_cards(cards)`` makes."""
        return await self._draw(render_cards, tuple(cards))

    async def _draw(self, draw: Callable[..., T], *arguments: object) -> T:
        if not self.worker:
            return await asyncio.to_thread(draw, *arguments)
        pool = self._running_pool()
        try:
            return await asyncio.wait_for(
                asyncio.wrap_future(pool.submit(draw, *arguments)), PICTURE_DEADLINE)
        except (BrokenProcessPool, TimeoutError) as error:
            log.warning("the picture worker %s: starting another, drawing this one here",
                        "missed its deadline" if isinstance(error, TimeoutError) else "died")
            self._stop(pool)
            return await asyncio.to_thread(draw, *arguments)

    def _running_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: a fork would copy the locks of the bot's threads mid-use
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_name_process)
        return self._pool

    def _stop(self, pool: ProcessPoolExecutor) -> None:
        if self._pool is pool:
            self._pool = None
        # Python 3.11's executor cannot kill its workers, and a hung one would outlive it
        for process in list(getattr(pool, "_processes", {}).values()):
            process.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the worker process; pictures still being drawn are dropped."""
        if self._pool is not None:
            self._stop(self._pool)

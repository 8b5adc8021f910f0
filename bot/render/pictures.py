"""Where the bot's pictures are drawn: in a process of their own, or in threads.

With pictures on, drawing is about half of the bot's CPU per hand (``benchmarks.discord``).
In threads it shares the one GIL with the event loop: the process then saturates at one
core while the machine has more, and the loop waits behind a picture, which is what a
click's answer feels. A worker process (``bot.worker_link``) draws on another core; its
caches of drawn pieces and compressed bands (``table_image``) stay warm across pictures, and
what crosses is small (a table's public state out, a key and a PNG of about 9 KB back). Even
whether the table's picture changed is decided there, so the event loop does none of the
drawing's work. When the worker dies or misses ``PICTURE_DEADLINE``, it is replaced and that
picture is drawn in a thread, so a table is never left without its picture nor made to wait
twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

from bot.i18n import Language
from bot.i18n.languages import languages
from bot.render.cards_image import render_cards
from bot.render.table_image import pieces_key, render_pieces, table_pieces
from bot.tables.notifier import TableState
from bot.worker_link import WorkerFailed, WorkerLink
from engine.cards import Card, parse_cards

log = logging.getLogger(__name__)

PROCESS_NAME = "holdem-pictures"
"""The worker's name in ``ps`` and ``top`` (Linux), beside the bot's own process."""
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


def _prepare() -> None:
    """Make the palette and its lookup table (a fifth of a second) before a table waits."""
    render_cards(parse_cards("As"))


def _call(message: object) -> object:
    """In the worker: ``function(*arguments)`` for a message ``(function, arguments)``."""
    function, arguments = cast(tuple[Callable[..., object], tuple[object, ...]], message)
    return function(*arguments)


def _caller() -> Callable[[object], object]:
    return _call


class Pictures:
    """Draws the table's and the hole cards' pictures off the event loop: in one worker
    process with ``worker``, else in threads."""

    def __init__(self, *, worker: bool) -> None:
        self.worker = WorkerLink(_caller, name=PROCESS_NAME) if worker else None

    def start(self) -> None:
        """Start the worker process now rather than at the first picture."""
        if self.worker is not None:
            self.worker.tell((_prepare, ()))

    async def table(self, state: TableState, *, language: Language,
                    shown: str | None) -> tuple[str, bytes | None]:
        """``table_picture`` of ``state`` in ``language``."""
        return await self._draw(table_picture, state, language.code, shown)

    async def cards(self, cards: Sequence[Card]) -> bytes:
        """The PNG ``render_cards(cards)`` makes."""
        return await self._draw(render_cards, tuple(cards))

    async def _draw(self, draw: Callable[..., T], *arguments: object) -> T:
        if self.worker is not None:
            try:
                return cast(T, await self.worker.ask((draw, arguments), PICTURE_DEADLINE))
            except WorkerFailed as error:
                log.warning("%s: drawing this picture here", error)
        return await asyncio.to_thread(draw, *arguments)

    def close(self) -> None:
        """Stop the worker process; pictures still being drawn are dropped."""
        if self.worker is not None:
            self.worker.close()

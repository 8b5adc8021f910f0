"""Your hands out: ``/me/hands.txt`` (PokerStars text, for PokerTracker 4, Hold'em Manager
and GTO Wizard) and ``/me/hands.phhs`` (PHH, the open Poker Hand History standard), written
by ``engine.export`` for the logged-in person: their own cards and what was shown, nobody
else's.

Which hands, by query parameters, all optional: ``guild`` (one server's; default every
server's), ``count`` (the newest so many, 1 to ``MAX_COUNT``, default ``DEFAULT_COUNT``),
``before``/``after`` (hand ids, not included) and ``since``/``until`` (UTC dates
``YYYY-MM-DD``, both included). The file is written a ledger page at a time, off the event
loop, and streamed as an attachment.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from urllib.parse import urlencode

from aiohttp import web

from bot.i18n import tr
from bot.ledger import Ledger
from bot.web.keys import LEDGER
from bot.web.refusals import BAD_REQUEST, PageRefused
from bot.web.viewer import current_viewer, require_guild
from engine.export import ExportedHand, phh, pokerstars

routes = web.RouteTableDef()

DEFAULT_COUNT = 1_000
MAX_COUNT = 20_000
"""The most hands one download holds (about 30 MB of text)."""
PAGE = 250
"""Hands read and written at a time: a page takes the ledger one short read and a thread
some tens of milliseconds to write."""
NO_HANDS = tr("You have no finished hands to download here.")
FORMATS: Mapping[str, tuple[Callable[[Iterable[ExportedHand]], str], str]] = {
    "txt": (pokerstars, "text/plain"),
    "phhs": (phh, "application/toml"),
}
"""A file's extension: its writer and media type."""


@dataclass(frozen=True, slots=True)
class Wanted:
    """Which of the person's hands a download holds (the query, checked)."""

    guild_id: int | None
    count: int
    before: int | None
    after: int | None
    since: float | None
    until: float | None


@routes.get(r"/me/hands.{extension:txt|phhs}")
async def hands_file(request: web.Request) -> web.StreamResponse:
    """The logged-in person's hands as a file; without a session, the login first."""
    viewer = await current_viewer(request)
    if viewer is None:
        raise web.HTTPFound("/login?" + urlencode({"next": request.path_qs}))
    wanted = wanted_hands(request.query)
    if wanted.guild_id is not None:
        await require_guild(request, wanted.guild_id)
    write, media_type = FORMATS[request.match_info["extension"]]
    ledger = request.app[LEDGER]
    pages = _pages(ledger, viewer.user_id, wanted)
    first = await anext(pages, None)
    if first is None:
        raise PageRefused(404, NO_HANDS)
    name = f"holdem-hands-{wanted.guild_id or 'all'}.{request.match_info['extension']}"
    response = web.StreamResponse(headers={
        "Content-Type": f"{media_type}; charset=utf-8",
        "Content-Disposition": f'attachment; filename="{name}"',
        "Cache-Control": "private, no-store",  # the person's own hole cards
        "X-Content-Type-Options": "nosniff",
    })
    await response.prepare(request)
    await response.write((await asyncio.to_thread(write, first)).encode())
    async for hands in pages:
        await response.write((await asyncio.to_thread(write, hands)).encode())
    await response.write_eof()
    return response


async def _pages(ledger: Ledger, user_id: int,
                 wanted: Wanted) -> AsyncIterator[list[ExportedHand]]:
    """The wanted hands, newest first, a ledger page at a time."""
    left, before = wanted.count, wanted.before
    while left > 0:
        hands = await ledger.hands_to_export(
            user_id, guild_id=wanted.guild_id, limit=min(left, PAGE), before=before,
            after=wanted.after, since=wanted.since, until=wanted.until)
        if not hands:
            return
        yield hands
        left -= len(hands)
        before = hands[-1].hand_id


def wanted_hands(query: Mapping[str, str]) -> Wanted:
    """The query parameters (see the module docstring), checked; ``PageRefused`` (400) for
    one that is not what it should be.

    >>> wanted_hands({"guild": "7", "since": "2024-06-01", "until": "2024-06-01"})
    Wanted(guild_id=7, count=1000, before=None, after=None, since=1717200000.0, until=1717286400.0)
    """
    until = _date(query.get("until"))
    return Wanted(
        guild_id=_id(query.get("guild")),
        count=_whole(query.get("count"), 1, MAX_COUNT) or DEFAULT_COUNT,
        before=_id(query.get("before")),
        after=_id(query.get("after")),
        since=_date(query.get("since")),
        until=None if until is None else until + timedelta(days=1).total_seconds(),
    )


def _id(text: str | None) -> int | None:
    return _whole(text, 1, 2**63 - 1)


def _whole(text: str | None, low: int, high: int) -> int | None:
    if text is None:
        return None
    if not (text.isascii() and text.isdecimal() and len(text) <= 19 and low <= int(text) <= high):
        raise PageRefused(400, BAD_REQUEST)
    return int(text)


def _date(text: str | None) -> float | None:
    """A ``YYYY-MM-DD`` date as the Unix time of its start, UTC."""
    if text is None:
        return None
    try:
        day = date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise PageRefused(400, BAD_REQUEST)
    return datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()

"""The live table page, ``/tables/{channel_id}``, and its stream of changes.

The page is drawn in the browser (``static/live_table.js``, HTML and SVG) from what the stream
at ``/tables/{channel_id}/events`` sends: Server-Sent Events, each the whole view spectators
may see now (``LiveTable.view``), so a reader that falls behind skips to the latest one and a
reconnection needs no replay. Both answer as a server's other pages do for who may read them
(``require_guild``).
"""

from __future__ import annotations

import asyncio
import contextlib

from aiohttp import web

from bot.i18n import tr
from bot.web.keys import LIVE
from bot.web.language import page_language
from bot.web.live import LiveTable, LiveTables, live_path
from bot.web.pages_common import render_page
from bot.web.refusals import NO_SUCH_PAGE, PageRefused, check_id
from bot.web.viewer import require_guild

routes = web.RouteTableDef()

LIVE_TABLE = tr("Live table")
HAND_LOG = tr("This hand")
CLOSED = tr("This table has closed.")
PAUSED = tr("The bot is restarting: this table will be back.")
KEEP_ALIVE_SECONDS = 30.0
"""A comment line sent on a stream that has been quiet this long: proxies close idle
connections (nginx after 60 s by default), which would make the browser reconnect."""


async def _table(request: web.Request) -> LiveTable:
    """The live table the address names, once the viewer may see its server; the same
    refusal for a channel without a table as for one whose server they may not read."""
    channel_id = check_id(request.match_info["channel_id"])
    live = request.app[LIVE]
    table = live.table(channel_id) if isinstance(live, LiveTables) else None
    if table is None:
        raise PageRefused(404, NO_SUCH_PAGE)
    await require_guild(request, table.guild_id)
    return table


@routes.get("/tables/{channel_id}")
async def live_table_page(request: web.Request) -> web.Response:
    """The page: the table is drawn by its script from the stream's first event."""
    table = await _table(request)
    return await render_page(request, "live_table.html", {
        "guild_id": table.guild_id, "events": live_path(table.channel_id) + "/events",
        "words": {"title": LIVE_TABLE, "log": HAND_LOG, "closed": CLOSED, "paused": PAUSED}})


@routes.get("/tables/{channel_id}/events")
async def live_table_events(request: web.Request) -> web.StreamResponse:
    """Server-Sent Events: ``table`` with the view now and at every change, ``end`` when the
    table closes or pauses (the page says so; the browser stops reconnecting)."""
    table = await _table(request)
    language = page_language(request)
    response = web.StreamResponse(headers={
        "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store",
        "X-Accel-Buffering": "no"})  # nginx: pass each event on at once
    await response.prepare(request)
    sent = -1
    with contextlib.suppress(ConnectionResetError):
        while True:
            changed = table.changed()
            if table.version != sent:
                sent = table.version
                await response.write(b"event: table\ndata: " + table.encoded(language) + b"\n\n")
            if table.closed or table.paused:
                await response.write(b"event: end\ndata: {}\n\n")
                break
            try:
                async with asyncio.timeout(KEEP_ALIVE_SECONDS):
                    await changed.wait()
            except TimeoutError:
                await response.write(b": keep-alive\n\n")
    return response

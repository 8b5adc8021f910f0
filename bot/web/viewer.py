"""Who is reading, and what they may see: the one place that decides.

Every route that shows something of a server calls ``require_guild`` first, and shows hole
cards only through the seat it works out from the ``Viewer`` (``seat_of``). A person is known
by their session cookie (``bot.web.login``); their servers are those Discord listed at login,
read again from Discord once they are ``GUILDS_FRESH_SECONDS`` old, so that someone who left a
server stops seeing its pages within minutes. A session Discord no longer honours (the person
revoked the application) counts as no session.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from aiohttp import web

from bot.web.discord_oauth import OAuthFailed
from bot.web.keys import GUILDS_FRESH_SECONDS, LEDGER, OAUTH, SESSIONS
from bot.web.refusals import MEMBERS_ONLY, NO_SUCH_PAGE, PageRefused
from bot.web.sessions import SESSION_COOKIE, Session
from bot.web_access import web_page

log = logging.getLogger(__name__)

DEFAULT_GUILDS_FRESH_SECONDS = 300.0
_VIEWER = web.RequestKey("viewer", object)
RESEALED = web.RequestKey("resealed_session", str)
"""A session renewed during the request (its servers read again), or "" to delete the
cookie; the session middleware (``bot.web.app``) writes it on the answer."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """A person logged in with Discord."""

    user_id: int
    name: str
    guild_ids: frozenset[int]
    """The servers they are a member of (OAuth2 ``guilds`` scope)."""

    def is_member(self, guild_id: int) -> bool:
        return guild_id in self.guild_ids


async def current_viewer(request: web.Request) -> Viewer | None:
    """The person logged in on this browser, or ``None`` (no session, a forged, expired or
    revoked one). Their servers are read again from Discord when the session's list is
    stale; if Discord cannot be reached then, the list they had is kept."""
    if _VIEWER in request:
        found = request[_VIEWER]
        return found if isinstance(found, Viewer) else None
    session = request.app[SESSIONS].open_session(request.cookies.get(SESSION_COOKIE))
    if session is not None and time.time() - session.checked_at >= request.app[
            GUILDS_FRESH_SECONDS]:
        session = await _refreshed(request, session)
    viewer = None if session is None else Viewer(session.user_id, session.name,
                                                  session.guild_ids)
    request[_VIEWER] = viewer
    return viewer


async def _refreshed(request: web.Request, session: Session) -> Session | None:
    try:
        guilds = await request.app[OAUTH].guilds(session.access_token)
    except OAuthFailed as failure:
        if failure.refused:
            request[RESEALED] = ""
            return None
        log.warning("keeping a session's servers: %s", failure)
        return session
    renewed = replace(session, guild_ids=guilds, checked_at=time.time())
    request[RESEALED] = request.app[SESSIONS].seal_session(renewed)
    return renewed


async def require_guild(request: web.Request, guild_id: int) -> Viewer | None:
    """May this request see the pages of server ``guild_id``? Returns the viewer (``None`` for
    a visitor without a session on a public server) or raises, by the server's ``web_page``
    setting (``/settings web_page``; default ``members``):

    - ``off``: ``PageRefused`` 404, the same answer as for a page that does not exist;
    - ``members``: without a session, ``web.HTTPFound`` to ``/login?next=<this page>``; a
      person who is not a member gets ``PageRefused`` 403;
    - ``public``: anyone.

    Call it before reading anything of the server. What the viewer may see of a hand is then
    the hand's seat of ``viewer.user_id`` (their own cards) and what was shown."""
    page = web_page(await request.app[LEDGER].guild_settings(guild_id))
    if page == "off":
        raise PageRefused(404, NO_SUCH_PAGE)
    viewer = await current_viewer(request)
    if page == "public":
        return viewer
    if viewer is None:
        raise web.HTTPFound("/login?" + urlencode({"next": request.path_qs}))
    if not viewer.is_member(guild_id):
        raise PageRefused(403, MEMBERS_ONLY)
    return viewer

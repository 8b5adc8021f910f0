"""Logging in with Discord (OAuth2 authorization code flow) and out.

``/login?next=<page>`` sends the browser to Discord's authorize page with a random ``state``
that is also sealed in a short-lived cookie of this browser (``LOGIN_COOKIE``); Discord sends
it back to ``/login/callback`` with a code, which counts only with that same state in that
same browser's cookie, so another site cannot log someone in as somebody else (CSRF). The code
is exchanged for a token, the person's id, name and servers are read, and the session cookie
(``SESSION_COOKIE``) holds them, encrypted. ``next`` is followed only to a page of this site.
"""

from __future__ import annotations

import hmac
import secrets
import time

from aiohttp import web

from bot.web.discord_oauth import OAuthFailed
from bot.web.keys import OAUTH, SESSIONS, WEB_SETTINGS
from bot.web.refusals import (
    DISCORD_UNREACHABLE,
    LOGIN_CANCELLED,
    LOGIN_EXPIRED,
    LOGIN_OFF,
    PageRefused,
)
from bot.web.sessions import (
    LOGIN_COOKIE,
    LOGIN_SECONDS,
    MAX_GUILDS,
    SESSION_COOKIE,
    SESSION_SECONDS,
    Session,
)

routes = web.RouteTableDef()
MAX_NEXT = 2000


def local_page(target: str) -> str:
    """``target`` if it is a page of this site (a path), else ``/``: never another site.

    >>> local_page("/servers/1?lang=en"), local_page("//evil.example"), local_page("https://x")
    ('/servers/1?lang=en', '/', '/')
    """
    if (target.startswith("/") and not target.startswith("//") and "\\" not in target
            and len(target) <= MAX_NEXT and target.isprintable()):
        return target
    return "/"


@routes.get("/login")
async def login(request: web.Request) -> web.StreamResponse:
    oauth = request.app[OAUTH]
    if not oauth.configured:
        raise PageRefused(404, LOGIN_OFF)
    state = secrets.token_urlsafe(24)
    sealed = request.app[SESSIONS].seal(
        {"state": state, "next": local_page(request.query.get("next", "/"))})
    response = redirect(oauth.authorize_url(state))
    response.set_cookie(LOGIN_COOKIE, sealed, max_age=LOGIN_SECONDS, httponly=True,
                        samesite="Lax", secure=_secure(request), path="/login")
    return response


@routes.get("/login/callback")
async def callback(request: web.Request) -> web.StreamResponse:
    started = request.app[SESSIONS].open(request.cookies.get(LOGIN_COOKIE), LOGIN_SECONDS)
    state = request.query.get("state", "")
    if started is None or not hmac.compare_digest(str(started.get("state", "")).encode(),
                                                  state.encode()):
        raise PageRefused(400, LOGIN_EXPIRED)
    code = request.query.get("code", "")
    if not code or "error" in request.query:
        raise PageRefused(400, LOGIN_CANCELLED)
    oauth = request.app[OAUTH]
    try:
        token = await oauth.exchange(code)
        user_id, name = await oauth.identity(token)
        guilds = await oauth.guilds(token)
    except OAuthFailed as failure:
        raise PageRefused(400, LOGIN_CANCELLED) if failure.refused else PageRefused(
            502, DISCORD_UNREACHABLE) from None
    session = Session(user_id, name, frozenset(sorted(guilds)[:MAX_GUILDS]), token, time.time())
    response = redirect(local_page(str(started.get("next", "/"))))
    response.set_cookie(SESSION_COOKIE, request.app[SESSIONS].seal_session(session),
                        max_age=SESSION_SECONDS, httponly=True, samesite="Lax",
                        secure=_secure(request), path="/")
    response.del_cookie(LOGIN_COOKIE, path="/login")
    return response


@routes.post("/logout")
async def logout(request: web.Request) -> web.StreamResponse:
    """A form's POST: with SameSite=Lax another site cannot log a person out."""
    response = redirect("/", 303)
    response.del_cookie(SESSION_COOKIE, path="/")
    return response


def redirect(location: str, status: int = 302) -> web.Response:
    """An answer sending the browser to ``location``, which cookies can be set on."""
    return web.Response(status=status, headers={"Location": location})


def _secure(request: web.Request) -> bool:
    return request.app[WEB_SETTINGS].url.startswith("https:")

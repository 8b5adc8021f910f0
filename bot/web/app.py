"""The web companion's application: ``create_app`` and ``serve`` (``python -m bot web``).

Route modules each expose ``routes`` (an ``aiohttp.web.RouteTableDef``) and are listed in
``ROUTE_MODULES``. Every route reads what it needs from ``request.app`` by the keys of
``bot.web.keys``, decides who sees what through ``bot.web.viewer``, and refuses with
``bot.web.refusals.PageRefused``; pages are Jinja2 templates in ``templates/`` rendered by
``bot.web.pages_common.render_page`` in the reader's language.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import time
from collections.abc import AsyncIterator

import aiohttp_jinja2
import jinja2
from aiohttp import web
from aiohttp.typedefs import Handler

from bot.ledger import Ledger
from bot.metrics import Metrics
from bot.settings import Settings
from bot.web.discord_oauth import DiscordOAuth
from bot.web.keys import (
    GUILDS_FRESH_SECONDS,
    LEDGER,
    LIVE,
    METRICS,
    OAUTH,
    SESSIONS,
    WEB_SETTINGS,
)
from bot.web.language import LANGUAGE_COOKIE, switched_language
from bot.web.live_port import LivePort
from bot.web.pages_common import render_error
from bot.web.refusals import BY_STATUS, NO_SUCH_PAGE, OUR_FAULT, PageRefused
from bot.web.sessions import SESSION_COOKIE, SESSION_SECONDS, SessionBox
from bot.web.viewer import DEFAULT_GUILDS_FRESH_SECONDS, RESEALED

log = logging.getLogger(__name__)

ROUTE_MODULES = (
    "bot.web.login",
    "bot.web.pages",
    "bot.web.operations",
    "bot.web.live_routes",
    "bot.web.export_routes",
)
"""The modules whose ``routes`` the application serves; live tables and exports add theirs
(``bot.web.live_routes``, ``bot.web.export_routes``) here, one line each."""
LANGUAGE_SECONDS = 365 * 86_400


def create_app(ledger: Ledger, settings: Settings, *, live: LivePort | None = None,
               metrics: Metrics | None = None) -> web.Application:
    """The web companion over ``ledger``, configured by ``settings.web``; ``live`` lists the
    open tables (none without it); ``metrics`` are the process's figures (a bot process
    serving the pages passes its own, which ``/metrics`` then shows with the web's). The
    caller owns the ledger: the app never closes it."""
    app = web.Application(middlewares=[_answer])
    app[LEDGER] = ledger
    app[WEB_SETTINGS] = settings.web
    app[LIVE] = live
    app[SESSIONS] = SessionBox(settings.web)
    app[OAUTH] = DiscordOAuth(settings.web)
    app[METRICS] = metrics or Metrics()
    app[GUILDS_FRESH_SECONDS] = DEFAULT_GUILDS_FRESH_SECONDS
    aiohttp_jinja2.setup(app, loader=jinja2.PackageLoader("bot.web", "templates"),
                         autoescape=True, undefined=jinja2.StrictUndefined)
    app.router.add_static("/static", _static_folder(), name="static")
    for name in ROUTE_MODULES:
        app.router.add_routes(importlib.import_module(name).routes)
    app.cleanup_ctx.append(_oauth_client)
    return app


def _static_folder() -> str:
    from importlib import resources

    return str(resources.files("bot.web").joinpath("static"))


async def _oauth_client(app: web.Application) -> AsyncIterator[None]:
    await app[OAUTH].start()
    yield
    await app[OAUTH].close()


@web.middleware
async def _answer(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every answer goes through here: refusals and aiohttp's own 4xx become a plain page in
    the reader's language, anything unexpected a 500 page that says nothing of what happened
    (it goes to the log); then the cookies the request changed are written (``_cookies``),
    and the request is counted."""
    started = time.perf_counter()
    try:
        response = await handler(request)
    except PageRefused as refusal:
        response = render_error(request, refusal.status, refusal.message)
    except web.HTTPException as error:
        if error.status < 400:
            response = web.Response(status=error.status, headers=error.headers)
        else:
            response = render_error(request, error.status,
                                    BY_STATUS.get(error.status, NO_SUCH_PAGE))
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("web page %s failed", request.path)
        response = render_error(request, 500, OUR_FAULT)
    _cookies(request, response)
    metrics = request.app[METRICS]
    resource = request.match_info.route.resource
    route = resource.canonical if resource is not None else "unknown"
    metrics.web_requests.labels(route, str(response.status)).inc()
    metrics.web_seconds.observe(time.perf_counter() - started)
    return response


def _cookies(request: web.Request, response: web.StreamResponse) -> None:
    """A session read again from Discord (or dropped), and the language a ``?lang=`` link
    chose."""
    secure = request.app[WEB_SETTINGS].url.startswith("https:")
    if RESEALED in request:
        if request[RESEALED]:
            response.set_cookie(SESSION_COOKIE, request[RESEALED], max_age=SESSION_SECONDS,
                                httponly=True, samesite="Lax", secure=secure, path="/")
        else:
            response.del_cookie(SESSION_COOKIE, path="/")
    switched = switched_language(request)
    if switched is not None:
        response.set_cookie(LANGUAGE_COOKIE, switched.code, max_age=LANGUAGE_SECONDS,
                            httponly=True, samesite="Lax", secure=secure, path="/")


async def serve(settings: Settings) -> None:
    """Open the ledger and serve ``create_app`` on ``WEB_HOST``:``WEB_PORT`` until cancelled
    (SIGTERM or Ctrl-C, through ``asyncio.run``)."""
    async with await Ledger.open(settings.database) as ledger:
        runner = web.AppRunner(create_app(ledger, settings), handle_signals=True)
        await runner.setup()
        try:
            await web.TCPSite(runner, settings.web.host, settings.web.port).start()
            log.info("web companion on http://%s:%d (people open %s)", settings.web.host,
                     settings.web.port, settings.web.url)
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()

"""For whoever runs the site: ``/healthz`` (is the ledger answering?) and ``/metrics``
(Prometheus' text format, ``bot.metrics``)."""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.web.keys import LEDGER, METRICS

log = logging.getLogger(__name__)
routes = web.RouteTableDef()
HEALTH_TIMEOUT = 5.0
"""A ledger slower than this to answer one read is not healthy (SQLite waits up to 5 s on a
lock; PostgreSQL's connection may be gone)."""


@routes.get("/healthz")
async def healthz(request: web.Request) -> web.Response:
    """200 ``ok`` when the ledger answers a read, 503 otherwise: what a load balancer or
    compose's health check asks."""
    up = request.app[METRICS].ledger_up
    try:
        async with asyncio.timeout(HEALTH_TIMEOUT):
            await request.app[LEDGER].guild_settings(0)
    except Exception as error:  # any failure of the ledger is the answer, not a crash
        log.warning("health check: the ledger does not answer: %r", error)
        up.set(0)
        return web.Response(status=503, text="ledger unavailable\n")
    up.set(1)
    return web.Response(text="ok\n")


@routes.get("/metrics")
async def metrics(request: web.Request) -> web.Response:
    body = generate_latest(request.app[METRICS].registry)
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

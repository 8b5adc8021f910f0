"""What an ``Application`` built by ``create_app`` holds, for every route module to read:
``request.app[LEDGER]`` and so on."""

from __future__ import annotations

from aiohttp import web

from bot.ledger import Ledger
from bot.metrics import Metrics
from bot.settings import WebSettings
from bot.web.discord_oauth import DiscordOAuth
from bot.web.live_port import LivePort
from bot.web.sessions import SessionBox

LEDGER = web.AppKey("ledger", Ledger)
WEB_SETTINGS = web.AppKey("web_settings", WebSettings)
LIVE: web.AppKey[LivePort | None] = web.AppKey("live")
"""The live tables (``bot.web.live_port``), ``None`` in a process without them."""
SESSIONS = web.AppKey("sessions", SessionBox)
"""Seals and opens the session and login cookies."""
OAUTH = web.AppKey("oauth", DiscordOAuth)
METRICS = web.AppKey("metrics", Metrics)
GUILDS_FRESH_SECONDS = web.AppKey("guilds_fresh_seconds", float)
"""How long the servers a person is a member of, read from Discord at login, are trusted
before they are read again (``bot.web.viewer``); tests set 0."""

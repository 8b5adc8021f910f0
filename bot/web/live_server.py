"""The web companion served from the bot's process, with its live tables (``WEB_PORT`` set).

``python -m bot`` passes a ``LiveServer`` to the bot (``BotOptions.companion``): once the bot
has opened its ledger and built its tables, the web app (``bot.web.app.create_app``) serves on
``WEB_HOST``:``WEB_PORT`` on the bot's own event loop, over the same ledger, and
``LiveTables`` watches the tables (``bot.web.live`` says why the live pages live here).
"""

from __future__ import annotations

import logging

from aiohttp import web

from bot.ledger import Ledger
from bot.settings import Settings
from bot.tables.manager import TableManager
from bot.web.app import create_app
from bot.web.live import LiveTables

log = logging.getLogger(__name__)

SHUTDOWN_SECONDS = 1.0
"""How long a stop waits for requests in flight: pages answer in milliseconds, and the live
streams, which never end by themselves, have already said the tables are paused."""


class LiveServer:
    """The web app with live tables, started and stopped by the bot (its ``Companion``)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.watcher = LiveTables()
        self.runner: web.AppRunner | None = None

    async def start(self, ledger: Ledger, tables: TableManager) -> None:
        """Watch ``tables`` and serve the pages over ``ledger``."""
        self.watcher.watch(tables)
        web_settings = self.settings.web
        self.runner = web.AppRunner(create_app(ledger, self.settings, live=self.watcher),
                                    handle_signals=False,  # the bot's own handlers stop it
                                    shutdown_timeout=SHUTDOWN_SECONDS)
        await self.runner.setup()
        await web.TCPSite(self.runner, web_settings.host, web_settings.port).start()
        log.info("web companion with live tables on http://%s:%d (people open %s)",
                 web_settings.host, web_settings.port, web_settings.url)

    async def close(self) -> None:
        """Stop serving: open streams end, the ledger stays the bot's."""
        self.watcher.close()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

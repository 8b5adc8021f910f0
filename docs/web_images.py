"""The README's pictures of the web companion, taken in Debian's chromium with Playwright:
``python -m docs.web_images`` (beside ``python -m docs.images``, which draws the bot's own).

- ``docs/web-server.png``: a server's page (its open table, leaderboards);
- ``docs/web-live-table.png``: that table's live page while six bots play it;
- ``docs/web-replay.png``: a finished hand's page with its replay, a few steps in.

The web app runs here as the bot runs it with ``WEB_PORT`` set (``bot.web.live_server``), on
a temporary SQLite ledger, the server's pages public; the bots' hands are seeded.
"""

from __future__ import annotations

import asyncio
import random
import socket
import tempfile
from pathlib import Path

from playwright.async_api import async_playwright

from bot.ledger import Ledger
from bot.settings import Settings, WebSettings
from bot.tables.fan_out import FanOutNotifier
from bot.tables.manager import TableManager
from bot.tables.settings import TableSettings
from bot.web.live_server import LiveServer
from bot.web_access import WEB_PAGE_KEY
from tests.tables.recording_notifier import RecordingNotifier

OUT = Path(__file__).parent
GUILD, TABLE = 1, 10
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run", "--disable-sync",
                  "--no-sandbox"]
VIEWPORT = {"width": 900, "height": 800}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def take(seed: int = 7) -> list[Path]:
    """Play a few hands of bots, then photograph the three pages; returns the files."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    settings = Settings(web=WebSettings(host="127.0.0.1", port=port, base_url=url,
                                        session_secret="docs", in_bot=True))
    with tempfile.TemporaryDirectory(prefix="holdem-web-images-") as directory:
        async with await Ledger.open(Path(directory) / "ledger.sqlite3") as ledger:
            await ledger.save_guild_settings(GUILD, {WEB_PAGE_KEY: "public"})
            server = LiveServer(settings)
            front_end = RecordingNotifier()
            manager = TableManager(ledger, FanOutNotifier(front_end, server.watcher),
                                   rng=random.Random(seed),
                                   default_settings=TableSettings.instant(bot_delay_min=0.4,
                                                                          bot_delay_max=0.8))
            await manager.start()
            await server.start(ledger, manager)
            try:
                for level in ("medium", "easy", "hard", "medium", "easy", "hard"):
                    await manager.add_bots(GUILD, TABLE, level)
                await manager.run_hands(TABLE, 12)
                hand = front_end.outcomes[-1].hand_id
                return await _photograph(url, hand, manager)
            finally:
                await server.close()
                await manager.shutdown()


async def _photograph(url: str, hand: int, manager: TableManager) -> list[Path]:
    files = [OUT / "web-server.png", OUT / "web-live-table.png", OUT / "web-replay.png"]
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM,
                                                   args=CHROMIUM_FLAGS)
        page = await browser.new_page(viewport=VIEWPORT, locale="en-US")
        await page.goto(f"{url}/servers/{GUILD}")
        await page.screenshot(path=files[0], full_page=True)
        playing = asyncio.create_task(manager.run_hands(TABLE, 3))
        await page.goto(f"{url}/tables/{TABLE}")
        await page.wait_for_function(
            "document.querySelector('#live-board') && "
            "document.querySelector('#live-board').dataset.cards.split(' ').length >= 3",
            timeout=60_000)
        await page.screenshot(path=files[1], full_page=True)
        await playing
        await page.goto(f"{url}/hands/{hand}")
        for _ in range(4):
            await page.keyboard.press("ArrowRight")
        await page.screenshot(path=files[2], full_page=True)
        await browser.close()
    return files


def main() -> None:
    for path in asyncio.run(take()):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()

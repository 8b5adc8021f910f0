"""The web pages in a real browser: Debian's chromium driven by Playwright (no browser
download: ``executable_path``), against the real bot serving its web companion (``WEB_PORT``,
``bot.web.live_server``) while it plays against the fake Discord.

Without chromium these tests skip, and fail under CI (``HOLDEM_REQUIRE_BROWSER=1``, which
``.ci/run`` sets after installing it)."""

from __future__ import annotations

import os
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, async_playwright

from bot.discord_ui.app import HoldemBot, create_bot
from bot.settings import Settings, WebSettings
from bot.web.live_server import LiveServer
from bot.web_access import WEB_PAGE_KEY
from tests.discord_ui.club import Club, play_to_showdown, seat_two_and_a_bot, start_hand
from tests.fake_discord import FakeDiscord
from tests.postgres_server import free_port

CHROMIUM = Path("/usr/bin/chromium")
REQUIRE_VARIABLE = "HOLDEM_REQUIRE_BROWSER"
CHROMIUM_FLAGS = ["--headless", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run", "--disable-sync"]
"""Headless, and none of Chromium's own connections, which a closed network refuses."""
UPDATE_MS = 1_000
"""The issue's bound for a change to reach a live page (Playwright's waits are in ms)."""


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    if not os.access(CHROMIUM, os.X_OK):
        message = f"{CHROMIUM} not found (apt-get install chromium)"
        if os.environ.get(REQUIRE_VARIABLE) == "1":
            pytest.fail(f"{message}, and {REQUIRE_VARIABLE}=1 requires it")
        pytest.skip(message)
    flags = CHROMIUM_FLAGS + (["--no-sandbox"] if os.geteuid() == 0 else [])
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=flags)
        try:
            yield launched
        finally:
            await launched.close()


@dataclass
class WebBot:
    club: Club
    bot: HoldemBot
    url: str

    async def page(self, browser: Browser) -> Page:
        context = await browser.new_context(locale="en-US")
        return await context.new_page()


@pytest.fixture
async def web_bot(tmp_path: Path) -> AsyncIterator[WebBot]:
    """The bot with ``WEB_PORT`` set, as ``python -m bot`` runs it then, against the fake."""
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Poker Club", channels=["poker", "lounge"])
        club = Club(fake, guild.id, guild.channel("poker"), guild.channel("lounge"),
                    alice=fake.add_user("alice"), bob=fake.add_user("bob"),
                    admin=fake.add_user("admin"), database=tmp_path / "holdem.sqlite3")
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        settings = Settings(
            token="fake", database_path=club.database, dev_guild_id=guild.id,
            bot_worker=False, picture_worker=False, drain_seconds=0.0,
            web=WebSettings(host="127.0.0.1", port=port, base_url=url, in_bot=True,
                            client_id=fake.oauth.client_id,
                            client_secret=fake.oauth.client_secret,
                            session_secret="tests", oauth_base=fake.oauth_base))
        options = replace(club.new_bot().options, rng=random.Random(7),
                          companion=LiveServer(settings))
        bot = create_bot(settings, options)
        await fake.run_client(bot)
        yield WebBot(club, bot, url)


async def public(web_bot: WebBot) -> None:
    ledger = web_bot.bot.ledger
    stored = await ledger.guild_settings(web_bot.club.guild_id)
    await ledger.save_guild_settings(web_bot.club.guild_id, {**stored, WEB_PAGE_KEY: "public"})


async def test_a_live_table_page_shows_the_board_and_pot_change_without_a_reload(
        web_bot: WebBot, browser: Browser) -> None:
    club, bot = web_bot.club, web_bot.bot
    await public(web_bot)
    await seat_two_and_a_bot(club, bot)
    await start_hand(club, bot, club.alice)
    page = await web_bot.page(browser)
    await page.goto(f"{web_bot.url}/tables/{club.channel}")
    pot = page.locator("#live-pot")
    await pot.wait_for()
    first_pot = int(await pot.get_attribute("data-pot") or 0)
    assert first_pot > 0  # the blinds
    assert await page.locator("#live-board").get_attribute("data-cards") == ""
    await page.evaluate("window.sameDocument = true")
    await play_to_showdown(club, bot, use_slash=False)
    state = bot.tables.state(club.channel)
    assert state is not None and len(state.board) == 5
    await page.wait_for_function(
        "document.querySelector('#live-board').dataset.cards.split(' ').length === 5",
        timeout=UPDATE_MS * 5)
    assert await page.evaluate("window.sameDocument") is True  # no reload
    log = await page.locator('[data-live="log"]').inner_text()
    assert " wins " in log


async def test_a_hand_replay_steps_with_the_keyboard(web_bot: WebBot, browser: Browser) -> None:
    club, bot = web_bot.club, web_bot.bot
    await public(web_bot)
    await seat_two_and_a_bot(club, bot)
    await start_hand(club, bot, club.alice)
    await play_to_showdown(club, bot, use_slash=False)
    state = bot.tables.state(club.channel)
    assert state is not None
    page = await web_bot.page(browser)
    await page.goto(f"{web_bot.url}/hands/{state.hand_number}")
    at = page.locator("#replay .at")
    assert await at.inner_text() == "1"
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowRight")
    assert await at.inner_text() == "3"
    assert await page.locator("#replay .frame:not([hidden])").count() == 1
    await page.keyboard.press("ArrowLeft")
    assert await at.inner_text() == "2"


async def test_a_login_goes_through_discord_oauth(web_bot: WebBot, browser: Browser) -> None:
    club = web_bot.club
    page = await web_bot.page(browser)
    server = f"{web_bot.url}/servers/{club.guild_id}"
    club.fake.oauth.sign_in(club.bob)  # signed in at the fake Discord, who approves at once
    await page.goto(server)  # members only: /login, Discord's authorize, the callback, back
    await page.wait_for_url(server)
    assert "bob" in await page.locator("header .who").inner_text()
    cookies = {cookie["name"]: cookie for cookie in await page.context.cookies()}
    assert cookies["holdem_session"]["httpOnly"]

"""Fixtures of the web companion's tests: a real ledger on each backend holding hands played
by the table runtime, a fake Discord whose OAuth2 logs people in, and the app under
pytest-aiohttp's test client.

    async def test_x(site):
        alice = await site.client_as(site.alice)   # logged in through the fake Discord
        page = await alice.get(f"/servers/{site.guild_id}")
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.ledger import Ledger
from bot.settings import Settings, WebSettings
from bot.tables.manager import TableManager
from bot.tables.notifier import TurnPrompt
from bot.tables.settings import TableSettings
from bot.web.app import create_app
from bot.web.keys import GUILDS_FRESH_SECONDS
from bot.web_access import WEB_PAGE_KEY
from engine.actions import Action, ActionKind
from tests.fake_discord import FakeDiscord
from tests.ledger.conftest import ledger_location  # noqa: F401  (a fixture: once per backend)
from tests.tables.helpers import eventually
from tests.tables.recording_notifier import RecordingNotifier

HANDS = 6
BASE_URL = "http://web.test"
"""What the app believes its address is: the fake sends the browser back there, and the tests
follow by path on their own client."""
Client = TestClient  # type: ignore[type-arg]


@dataclass
class Site:
    """The app over a ledger with ``HANDS`` hands of Alice and Bob in one server; Carol is a
    member who did not play, Dave is in another server only."""

    fake: FakeDiscord
    ledger: Ledger
    make_client: Callable[[], Awaitable[Client]]
    guild_id: int
    other_guild_id: int
    alice: int
    bob: int
    carol: int
    dave: int
    hand_ids: list[int] = field(default_factory=list)

    async def client_as(self, user_id: int | None) -> Client:
        """A browser, logged in as ``user_id`` through the fake Discord (``None``: not)."""
        client = await self.make_client()
        if user_id is not None:
            await log_in(client, self.fake, user_id)
        return client

    async def set_web_page(self, value: str) -> None:
        stored = await self.ledger.guild_settings(self.guild_id)
        await self.ledger.save_guild_settings(self.guild_id, {**stored, WEB_PAGE_KEY: value})


async def log_in(client: Client, fake: FakeDiscord, user_id: int, next_page: str = "/") -> None:
    """The authorization code flow as a browser goes through it: ``/login``, Discord's
    authorize page (the fake approves at once for whoever is signed in), the callback."""
    fake.oauth.sign_in(user_id)
    start = await client.get("/login", params={"next": next_page}, allow_redirects=False)
    assert start.status == 302, await start.text()
    async with aiohttp.ClientSession() as browser, browser.get(
            start.headers["Location"], allow_redirects=False) as authorize:
        assert authorize.status == 302, await authorize.text()
        back = urlsplit(authorize.headers["Location"])
    assert f"{back.scheme}://{back.netloc}{back.path}" == f"{BASE_URL}/login/callback"
    done = await client.get(back.path, params={k: v[0] for k, v in parse_qs(back.query).items()},
                            allow_redirects=False)
    assert done.status == 302, await done.text()
    assert done.headers["Location"] == next_page
    session = next(value for value in done.headers.getall("Set-Cookie")
                   if value.startswith("holdem_session="))
    assert "HttpOnly" in session and "SameSite=Lax" in session and "Secure" not in session


def web_settings(fake: FakeDiscord) -> Settings:
    return Settings(web=WebSettings(base_url=BASE_URL, client_id=fake.oauth.client_id,
                                    client_secret=fake.oauth.client_secret,
                                    session_secret="tests", oauth_base=fake.oauth_base))


def alternate_folds() -> Callable[[TurnPrompt], Action]:
    """Bob's play: every other time he faces a bet he folds (his cards are never shown),
    otherwise he checks or calls (to a showdown, where the loser may muck)."""
    faced = 0

    def act(prompt: TurnPrompt) -> Action:
        nonlocal faced
        if prompt.legal.can_check:
            return Action(ActionKind.CHECK)
        faced += 1
        return Action(ActionKind.FOLD if faced % 2 else ActionKind.CALL)

    return act


async def play_hands(ledger: Ledger, guild_id: int, players: dict[int, str]) -> list[int]:
    """``HANDS`` hands of ``players`` and a calling bot through the real table runtime; the
    settled hands' ids."""
    notifier = RecordingNotifier()
    manager = TableManager(ledger, notifier, rng=random.Random(5),
                           default_settings=TableSettings.instant())
    notifier.manager = manager
    alice, bob = players
    notifier.auto_actions.update({
        alice: lambda prompt: Action(ActionKind.CHECK if prompt.legal.can_check
                                     else ActionKind.CALL),
        bob: alternate_folds()})
    await manager.start()
    try:
        for user_id, name in players.items():
            await ledger.ensure_player(guild_id, user_id, name)
            await manager.join(guild_id, 500, user_id, name)
        await manager.add_bots(guild_id, 500, "calling")
        await eventually(lambda: len(notifier.outcomes) >= HANDS, timeout=30)
        for user_id in players:
            await manager.sit_out(500, user_id)
        await eventually(lambda: not manager.state(500).is_hand_running, timeout=30)
    finally:
        await manager.shutdown()
    return [outcome.hand_id for outcome in notifier.outcomes]


@pytest.fixture
def guilds_fresh_seconds() -> float:
    """How long the app trusts a session's list of servers (parametrize it to 0 to have them
    read again at every request)."""
    return 3600.0


@pytest.fixture
async def site(ledger_location: str | Path,  # noqa: F811  (the fixture imported above)
               aiohttp_client: Callable[..., Awaitable[Client]],
               aiohttp_server: Callable[..., Awaitable[TestServer]],
               guilds_fresh_seconds: float) -> AsyncIterator[Site]:
    async with FakeDiscord() as fake, await Ledger.open(ledger_location) as ledger:
        guild = fake.add_guild("Poker Club")
        other = fake.add_guild("Elsewhere")
        alice = fake.add_user("Alice", guild=guild)
        bob = fake.add_user("Bob", guild=guild)
        carol = fake.add_user("Carol", guild=guild)
        dave = fake.add_user("Dave", guild=other)
        hand_ids = await play_hands(ledger, guild.id, {alice: "Alice", bob: "Bob"})
        app = create_app(ledger, web_settings(fake))
        app[GUILDS_FRESH_SECONDS] = guilds_fresh_seconds
        server = await aiohttp_server(app)

        async def make_client() -> Client:
            return await aiohttp_client(server)  # a browser of its own (its own cookies)

        yield Site(fake, ledger, make_client, guild.id, other.id, alice, bob, carol, dave,
                   hand_ids)
        report = await ledger.audit()
        assert report.ok, report.problems

"""Real bot processes (``python -m bot``) against the fake Discord, on a database they share:
the harness of the tests that start, kill and restart them (a pytest plugin: the fixtures
``backend`` and ``fake`` are the suite's).

``backend`` is any database the bot can share between processes (SQLite, and a database on
the tests' PostgreSQL server); ``fake`` is a fake Discord of two shards.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.ledger import Ledger
from tests.fake_discord import FakeDiscord
from tests.fake_discord.records import FakeGuild

ROOT = Path(__file__).resolve().parents[1]
LEASE = 1.5
"""SHARD_LEASE_SECONDS in these tests: a killed process's shard is free again 1.5 s later."""
STARTING_BALANCE = 10_000
PAUSED_NOTICE = "Everyone keeps their seat and chips"
"""The start of what a table message says while its table is kept for the next start."""


@dataclass(frozen=True)
class Backend:
    """A database the processes share: their environment, and how the test opens it."""

    env: dict[str, str]
    open: Callable[[], Awaitable[Ledger]]


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """The processes' shared ledger: an SQLite file, or a database on the tests' PostgreSQL
    server (the deployment this is for)."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return Backend({"DATABASE_URL": url}, lambda: Ledger.open(url))
    path = tmp_path / "holdem.sqlite3"
    return Backend({"DATABASE_PATH": str(path)}, lambda: Ledger.open(path))


def _interruptible() -> None:
    """In the child before ``exec``: SIGINT back to its default, as a terminal's Ctrl-C finds
    it. A suite started in the background of a shell inherits SIGINT ignored, and Python then
    keeps it ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def said_in(fake: FakeDiscord, channel: int) -> str:
    """Everything the channel's messages say, their embeds' descriptions included."""
    return " ".join(embed.get("description", "") + message.content
                    for message in fake.channel_messages(channel) for embed in message.embeds)


@dataclass
class BotProcess:
    """``python -m bot`` in a subprocess, its stderr collected line by line."""

    process: asyncio.subprocess.Process
    lines: list[str] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None

    @classmethod
    async def start(cls, fake: FakeDiscord, backend: Backend, **env: str) -> BotProcess:
        environ = {
            **{name: value for name, value in os.environ.items()
               if not name.startswith(("SHARD_", "DISCORD_", "DATABASE_"))},
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            "DISCORD_TOKEN": "fake-token", "DISCORD_API_BASE": fake.api_base,
            "SHARD_LEASE_SECONDS": str(LEASE), "LOG_LEVEL": "INFO", "DRAIN_SECONDS": "0",
            **backend.env, **env,
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=environ, cwd=ROOT,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE, preexec_fn=_interruptible, start_new_session=True)
        started = cls(process)
        started.reader = asyncio.create_task(started._read())
        return started

    async def _read(self) -> None:
        assert self.process.stderr is not None
        async for line in self.process.stderr:
            self.lines.append(line.decode(errors="replace").rstrip("\n"))

    async def ready(self, timeout: float = 30.0) -> None:
        """Wait for the bot's 'logged in' line (its shards are connected)."""
        async with asyncio.timeout(timeout):
            while not any("logged in as" in line for line in self.lines):
                if self.process.returncode is not None:
                    raise AssertionError("the bot exited:\n" + "\n".join(self.lines))
                await asyncio.sleep(0.05)

    async def exit_status(self, timeout: float = 30.0) -> int:
        status = await asyncio.wait_for(self.process.wait(), timeout)
        if self.reader is not None:
            await self.reader
        return status

    async def stop(self, sig: signal.Signals = signal.SIGTERM, *, group: bool = False) -> int:
        """Send ``sig`` (SIGTERM or SIGINT: a clean shutdown) and wait for the exit; to the
        bot's worker processes too with ``group``, as a terminal's Ctrl-C sends it to every
        process of the group."""
        if self.process.returncode is None:
            if group:
                os.killpg(self.process.pid, sig)
            else:
                self.process.send_signal(sig)
        return await self.exit_status()


@dataclass
class Guild:
    """A guild with a poker channel where two people play heads-up through slash commands."""

    fake: FakeDiscord
    guild: FakeGuild
    people: tuple[int, int]
    actions: list[float] = field(default_factory=list)
    """When each check or call was taken (``time.time()``)."""
    starter: int = 0

    @property
    def channel(self) -> int:
        return self.guild.channel("poker")

    async def sit_down(self) -> None:
        for person in self.people:
            answer = await self.fake.slash(person, self.channel, "join")
            assert answer.content.startswith("You sit down"), answer.content

    async def act_once(self) -> bool:
        """Check or call for whoever is to act; when nobody is (between hands), ask for a
        deal. Returns whether someone acted."""
        for person in self.people:
            for command in ("check", "call"):
                answer = await self.fake.slash(person, self.channel, command)
                if answer.content.startswith(("You check", "You call")):
                    self.actions.append(time.time())
                    return True
                if "not your turn" in answer.content or "cannot check" not in answer.content:
                    break
        self.starter = (self.starter + 1) % len(self.people)
        answer = await self.fake.slash(self.people[self.starter], self.channel, "start")
        if not answer.content.startswith("Dealing."):
            await asyncio.sleep(0.2)  # a deal is coming, or the /start cooldown: wait
        return False

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await self.act_once()

    async def start_a_hand_and_act(self) -> None:
        """Return once a hand is running and someone has acted in it (a hand in the middle)."""
        while not await self.act_once():
            pass


async def chips_of(ledger: Ledger, guild: Guild) -> dict[int, int]:
    """Each of the guild's people's balance plus their stack kept at its table."""
    stacks = await ledger.table_stacks(guild.channel)
    return {person: await ledger.balance(guild.guild.id, person) + stacks.get(person, 0)
            for person in guild.people}


async def assert_everyone_has_their_chips_back(backend: Backend, guild: Guild) -> None:
    """The ledger is consistent and the guild's people hold their starting chips (their
    interrupted hand refunded), in their balance and at the table kept for the next start."""
    ledger = await backend.open()
    try:
        assert (await ledger.audit()).ok
        assert list((await chips_of(ledger, guild)).values()) == [
            STARTING_BALANCE] * len(guild.people)
    finally:
        await ledger.close()


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(shard_count=2, answer_timeout=5.0) as fake:
        yield fake


def two_guilds(fake: FakeDiscord) -> tuple[Guild, Guild]:
    guilds = [fake.add_guild(f"Club {shard}", channels=["poker"], shard=shard)
              for shard in (0, 1)]
    people = (fake.add_user("alice"), fake.add_user("bob"))
    return Guild(fake, guilds[0], people), Guild(fake, guilds[1], people)

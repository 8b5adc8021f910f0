"""Real bot processes (``python -m bot``) on one database and the fake Discord, sharded.

Two processes run shards 0 and 1 of 2; people play in a guild on each at once; one process is
killed with SIGKILL mid-hand and started again: the other never stops dealing, the restarted
one takes its shard back once the dead claim lapses and refunds only its own guild's hand, and
every balance is exact. A second process for a shard already running, or a shard outside
SHARD_COUNT, is refused with one line and a non-zero status. SIGTERM and SIGINT stop a process
cleanly mid-hand.

The database is the ``backend`` fixture's: any backend the bot can share between processes.
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
            "SHARD_LEASE_SECONDS": str(LEASE), "LOG_LEVEL": "INFO",
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


async def assert_everyone_has_their_chips_back(backend: Backend, guild: Guild) -> None:
    """The ledger is consistent and the guild's people hold their starting balances (their
    interrupted hand refunded)."""
    ledger = await backend.open()
    try:
        assert (await ledger.audit()).ok
        assert [await ledger.balance(guild.guild.id, person) for person in guild.people] == [
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


async def test_two_shard_processes_play_and_one_is_killed_and_restarted(
        fake: FakeDiscord, backend: Backend):
    on_0, on_1 = two_guilds(fake)
    first = await BotProcess.start(fake, backend, SHARD_COUNT="2", SHARD_IDS="0")
    second = await BotProcess.start(fake, backend, SHARD_COUNT="2", SHARD_IDS="1")
    restarted: BotProcess | None = None
    stop = asyncio.Event()
    try:
        await asyncio.gather(first.ready(), second.ready())
        await asyncio.gather(on_0.sit_down(), on_1.sit_down())
        playing = asyncio.create_task(on_0.play(stop))
        await on_1.start_a_hand_and_act()
        while len(on_1.actions) < 6:
            await on_1.act_once()
        await on_1.start_a_hand_and_act()

        killed_at = time.time()
        second.process.send_signal(signal.SIGKILL)
        assert await second.exit_status() == -signal.SIGKILL
        restarted = await BotProcess.start(fake, backend, SHARD_COUNT="2", SHARD_IDS="1")
        await restarted.ready()
        back_at = time.time()
        assert back_at - killed_at > LEASE  # it waited for the dead claim to lapse

        # The crash refunded the hand and closed the table: its players sit down again.
        await on_1.sit_down()
        before = len(on_1.actions)
        while len(on_1.actions) < before + 20:  # two hands checked down take 16
            await on_1.act_once()
        stop.set()
        await playing
        assert first.process.returncode is None
        assert [at for at in on_0.actions if killed_at < at < back_at], (
            "the first process stopped dealing while the second was down")
        assert "Any hand in progress was cancelled" in said_in(fake, on_1.channel)
    finally:
        stop.set()
        statuses = [await process.stop() for process in (first, second, restarted)
                    if process is not None]
    assert statuses == [0, -signal.SIGKILL, 0], "\n".join(first.lines)

    ledger = await backend.open()
    try:
        audit = await ledger.audit()
        assert audit.ok, audit.problems
        for guild in (on_0, on_1):
            hands = await ledger.recent_hands(guild.guild.id, guild.people[0], limit=1000)
            assert len(hands) >= 2
            for person in guild.people:
                stats = await ledger.stats(guild.guild.id, person)
                assert stats is not None
                assert stats.balance == STARTING_BALANCE + stats.net_chips
        assert sum([await ledger.balance(guild.guild.id, person)
                    for guild in (on_0, on_1) for person in guild.people]) == 4 * STARTING_BALANCE
    finally:
        await ledger.close()


async def test_a_second_process_for_a_running_shard_is_refused_with_one_line(
        fake: FakeDiscord, backend: Backend):
    two_guilds(fake)
    running = await BotProcess.start(fake, backend)  # no sharding settings: shard 0 of 1
    try:
        await running.ready()
        second = await BotProcess.start(fake, backend)
        assert await second.exit_status() == 1
        assert len(second.lines) == 1, second.lines
        assert second.lines[0].startswith(
            "error: cannot run shard 0 of 1: shard 0 of 1 is claimed by another process (pid ")
        sharded = await BotProcess.start(fake, backend, SHARD_COUNT="2", SHARD_IDS="1")
        assert await sharded.exit_status() == 1
        assert "every process must run with the same SHARD_COUNT, not 1 and 2" in sharded.lines[0]
        assert running.process.returncode is None
    finally:
        assert await running.stop() == 0


async def test_after_sigkill_the_next_process_on_the_database_takes_over(
        fake: FakeDiscord, backend: Backend):
    on_0, _ = two_guilds(fake)
    killed = await BotProcess.start(fake, backend)
    await killed.ready()
    await on_0.sit_down()
    await on_0.start_a_hand_and_act()
    killed.process.send_signal(signal.SIGKILL)
    await killed.exit_status()
    restarted = await BotProcess.start(fake, backend)
    try:
        await restarted.ready()
        assert any("hands_refunded=(1,)" in line for line in restarted.lines), restarted.lines
    finally:
        assert await restarted.stop() == 0
    await assert_everyone_has_their_chips_back(backend, on_0)


@pytest.mark.parametrize(("sig", "group"), [(signal.SIGTERM, False), (signal.SIGINT, True)])
async def test_a_stop_signal_closes_the_bot_cleanly_mid_hand(
        fake: FakeDiscord, backend: Backend, sig: signal.Signals, group: bool):
    """SIGTERM (``docker stop``, ``kill``) and SIGINT close the bot as it closes itself: the
    hand in progress refunded before the exit, the table message saying so, status 0, nothing
    logged as an error. Not left to the next start's crash recovery. A terminal's Ctrl-C
    signals the bot's worker processes too, which leave the stopping to it."""
    on_0, _ = two_guilds(fake)
    process = await BotProcess.start(fake, backend)
    try:
        await process.ready()
        await on_0.sit_down()
        await on_0.start_a_hand_and_act()
    finally:
        status = await process.stop(sig, group=group)
    assert status == 0, "\n".join(process.lines)
    assert not [line for line in process.lines if "ERROR" in line or "Traceback" in line], \
        "\n".join(process.lines)
    assert "Any hand in progress was cancelled" in said_in(fake, on_0.channel)
    await assert_everyone_has_their_chips_back(backend, on_0)


async def test_a_stop_signal_while_the_bot_starts_stops_it_cleanly(
        fake: FakeDiscord, backend: Backend):
    """SIGTERM as soon as the bot logs in (recovering its tables, or connecting): it stops
    as Ctrl-C would stop it there, with status 0, its claim released and nothing logged as
    an error."""
    on_0, _ = two_guilds(fake)
    process = await BotProcess.start(fake, backend)
    await process.ready()  # a table with a hand in the middle, for the next start to recover
    await on_0.sit_down()
    await on_0.start_a_hand_and_act()
    process.process.send_signal(signal.SIGKILL)
    await process.exit_status()
    restarted = await BotProcess.start(fake, backend, SHARD_LEASE_SECONDS="0.5")
    async with asyncio.timeout(30):
        while not any("logging in using static token" in line for line in restarted.lines):
            await asyncio.sleep(0.01)
    status = await restarted.stop()
    assert status == 0, "\n".join(restarted.lines)
    assert not [line for line in restarted.lines if "ERROR" in line or "Traceback" in line], \
        "\n".join(restarted.lines)
    again = await BotProcess.start(fake, backend)  # the claim was released: no wait
    try:
        await again.ready()
    finally:
        assert await again.stop() == 0
    await assert_everyone_has_their_chips_back(backend, on_0)


@pytest.mark.parametrize(("env", "line"), [
    ({"SHARD_COUNT": "2", "SHARD_IDS": "2"},
     "error: SHARD_IDS lists shard 2, but SHARD_COUNT=2 numbers shards 0 to 1"),
    ({"SHARD_IDS": "0"}, "error: SHARD_IDS needs SHARD_COUNT (the bot's total number of shards)"),
])
async def test_shards_outside_the_count_are_one_line_and_status_2(
        fake: FakeDiscord, backend: Backend, env: dict[str, str], line: str):
    process = await BotProcess.start(fake, backend, **env)
    assert await process.exit_status() == 2
    assert process.lines == [line]


"""Cash tables outlive real bot processes (``python -m bot`` against the fake Discord): after a
graceful restart mid-hand the people are still seated with their chips and the next hand deals
by itself; a deploy that starts the new process before stopping the old one moves the shard's
tables to it. On SQLite and on PostgreSQL (the ``backend`` fixture)."""

from __future__ import annotations

import asyncio
import signal

import discord

from tests.bot_processes import (
    PAUSED_NOTICE,
    STARTING_BALANCE,
    Backend,
    BotProcess,
    Guild,
    chips_of,
    said_in,
    two_guilds,
)
from tests.fake_discord import FakeDiscord
from tests.fake_discord.server import NotAnswered


async def act_without_starting(guild: Guild) -> bool:
    """Check or call for whoever is to act, never asking for a deal; whether someone acted."""
    for person in guild.people:
        for command in ("check", "call"):
            answer = await guild.fake.slash(person, guild.channel, command)
            if answer.content.startswith(("You check", "You call")):
                return True
    return False


async def hands_settled(backend: Backend, guild: Guild) -> int:
    ledger = await backend.open()
    try:
        return len(await ledger.recent_hands(guild.guild.id, guild.people[0], limit=1000))
    finally:
        await ledger.close()


async def play_a_hand_by_itself(backend: Backend, guild: Guild) -> None:
    """Act until one more hand has settled, with no /join and no /start."""
    before = await hands_settled(backend, guild)
    async with asyncio.timeout(60):
        while await hands_settled(backend, guild) == before:
            if not await act_without_starting(guild):
                await asyncio.sleep(0.1)  # between hands, or a bot thinking


async def test_a_graceful_restart_mid_hand_keeps_the_table_and_deals_on_by_itself(
        fake: FakeDiscord, backend: Backend):
    on_0, _ = two_guilds(fake)
    first = await BotProcess.start(fake, backend, DRAIN_SECONDS="0")
    await first.ready()
    await on_0.sit_down()
    admin = fake.add_user("admin", permissions=discord.Permissions(manage_guild=True))
    quick = await fake.slash(admin, on_0.channel, "settings", bot_delay_min=0,
                             bot_delay_max=0)  # bots act at once; kept as every setting
    assert not quick.content.startswith("error"), quick.content
    added = await fake.slash(on_0.people[0], on_0.channel, "addbot", level="easy")
    assert not added.content.startswith("error"), added.content
    await on_0.start_a_hand_and_act()
    ledger = await backend.open()
    try:
        held = await chips_of(ledger, on_0)
    finally:
        await ledger.close()
    assert await first.stop() == 0, "\n".join(first.lines)
    assert PAUSED_NOTICE in said_in(fake, on_0.channel)
    assert "Use /join to sit down again" not in said_in(fake, on_0.channel)

    second = await BotProcess.start(fake, backend)
    try:
        await second.ready()
        ledger = await backend.open()
        try:  # seated again with the chips the interrupted hand started with
            assert await chips_of(ledger, on_0) == held
            assert set(on_0.people) <= set(await ledger.table_stacks(on_0.channel))
        finally:
            await ledger.close()
        await play_a_hand_by_itself(backend, on_0)
    finally:
        assert await second.stop() == 0, "\n".join(second.lines)
    ledger = await backend.open()
    try:
        audit = await ledger.audit()
        assert audit.ok, audit.problems
        assert set(on_0.people) <= set(await ledger.table_stacks(on_0.channel))
    finally:
        await ledger.close()


async def test_a_deploy_moves_the_tables_of_a_shard_to_the_new_process(
        fake: FakeDiscord, backend: Backend):
    """Start the new process (it waits for the shard), stop the old one: the old one drains
    and lets go, the new one opens its tables, and play goes on without a /join."""
    _, on_1 = two_guilds(fake)
    old = await BotProcess.start(fake, backend, SHARD_COUNT="2", SHARD_IDS="1",
                                 DRAIN_SECONDS="1")
    other = await BotProcess.start(fake, backend, SHARD_COUNT="2", SHARD_IDS="0")
    new: BotProcess | None = None
    try:
        await asyncio.gather(old.ready(), other.ready())
        await on_1.sit_down()
        await on_1.start_a_hand_and_act()
        new = await BotProcess.start(fake, backend, SHARD_COUNT="2", SHARD_IDS="1",
                                     WAIT_FOR_SHARDS="on")
        async with asyncio.timeout(30):
            while not any("waiting for a claim" in line for line in new.lines):
                await asyncio.sleep(0.05)
        assert new.process.returncode is None
        assert await old.stop() == 0, "\n".join(old.lines)
        await new.ready()
        await play_a_hand_by_itself(backend, on_1)
        assert other.process.returncode is None
    finally:
        statuses = [await process.stop() for process in (other, new) if process is not None]
    assert statuses == [0, 0]
    ledger = await backend.open()
    try:
        assert (await ledger.audit()).ok
        assert sum((await chips_of(ledger, on_1)).values()) == 2 * STARTING_BALANCE
    finally:
        await ledger.close()
    assert PAUSED_NOTICE in said_in(fake, on_1.channel)


async def test_a_stop_lets_people_finish_the_hand_in_progress_and_deals_no_other(
        fake: FakeDiscord, backend: Backend):
    """SIGTERM drains while the bot is still connected: the people at a hand keep acting, the
    hand settles, no new one is dealt, and then the process stops."""
    on_0, _ = two_guilds(fake)
    process = await BotProcess.start(fake, backend, DRAIN_SECONDS="60")
    try:
        await process.ready()
        await on_0.sit_down()
        await on_0.start_a_hand_and_act()
        settled = await hands_settled(backend, on_0)
        process.process.send_signal(signal.SIGTERM)
        async with asyncio.timeout(60):
            while process.process.returncode is None:
                try:
                    if not await act_without_starting(on_0):
                        await asyncio.sleep(0.05)  # between two people's clicks
                except (NotAnswered, RuntimeError):
                    break  # it stopped as the click arrived (the fake: no client connected)
        # The one SIGTERM stops it: a second one, as it tears down its event loop, would find
        # no handler left and end it with -15.
        status = await process.exit_status()
    finally:
        if process.process.returncode is None:
            await process.stop(signal.SIGKILL)
    assert status == 0, "\n".join(process.lines)
    assert await hands_settled(backend, on_0) == settled + 1
    assert PAUSED_NOTICE in said_in(fake, on_0.channel)

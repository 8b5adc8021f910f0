"""Real bot processes (``python -m bot``) on one database and the fake Discord, sharded.

Two processes run shards 0 and 1 of 2; people play in a guild on each at once; one process is
killed with SIGKILL mid-hand and started again: the other never stops dealing, the restarted
one takes its shard back once the dead claim lapses, refunds only its own guild's hand and
opens its table again, and every balance is exact. A second process for a shard already
running, or a shard outside SHARD_COUNT, is refused with one line and a non-zero status.
SIGTERM and SIGINT stop a process cleanly mid-hand.

The harness (processes, the ``backend`` and ``fake`` fixtures) is ``tests.bot_processes``.
"""

from __future__ import annotations

import asyncio
import signal
import time

import pytest

from tests.bot_processes import (
    LEASE,
    PAUSED_NOTICE,
    STARTING_BALANCE,
    Backend,
    BotProcess,
    assert_everyone_has_their_chips_back,
    chips_of,
    said_in,
    two_guilds,
)
from tests.fake_discord import FakeDiscord


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

        # The crash refunded the hand; the table came back with its players seated.
        before = len(on_1.actions)
        while len(on_1.actions) < before + 20:  # two hands checked down take 16
            await on_1.act_once()
        stop.set()
        await playing
        assert first.process.returncode is None
        assert [at for at in on_0.actions if killed_at < at < back_at], (
            "the first process stopped dealing while the second was down")
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
            chips = await chips_of(ledger, guild)  # balances and stacks kept at the table
            for person in guild.people:
                stats = await ledger.stats(guild.guild.id, person)
                assert stats is not None
                assert chips[person] == STARTING_BALANCE + stats.net_chips
        assert sum([sum((await chips_of(ledger, guild)).values())
                    for guild in (on_0, on_1)]) == 4 * STARTING_BALANCE
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
    hand in progress (given no time to finish here) refunded into the stacks before the exit,
    the table message saying the table is paused, status 0, nothing logged as an error. Not
    left to the next start's crash recovery. A terminal's Ctrl-C signals the bot's worker
    processes too, which leave the stopping to it."""
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
    assert PAUSED_NOTICE in said_in(fake, on_0.channel)
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


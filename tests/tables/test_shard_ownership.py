"""A process owns the tables of the guilds on its shards: it opens and recovers only those,
takes its claim only from a process that died, and stops without moving a chip once another
process has taken its shards over."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from bot.ledger import Ledger, ShardClaimLost, ShardsTaken, UnknownPlayer
from bot.shards import ShardSet
from bot.tables.errors import NotOurServer
from bot.tables.manager import TableManager
from bot.tables.settings import TableSettings
from bot.tables.shard_lease import ShardLease
from tests.tables.helpers import ALICE, BOB, CHANNEL, eventually, passive
from tests.tables.recording_notifier import RecordingNotifier

SECOND_OF_TWO = ShardSet(2, (1,))
GUILD_ON_0, GUILD_ON_1 = 6 << 22, 7 << 22
LEASE = 0.6


async def test_a_guild_on_another_shard_gets_no_table_and_nothing_changes(tmp_path: Path):
    async with await Ledger.open(tmp_path / "ledger.sqlite3") as ledger:
        manager = TableManager(ledger, RecordingNotifier(), shards=SECOND_OF_TWO)
        await manager.start()
        with pytest.raises(NotOurServer, match="Another instance of the bot runs this server"):
            await manager.join(GUILD_ON_0, CHANNEL, ALICE, "Alice")
        with pytest.raises(NotOurServer):
            await manager.add_bots(GUILD_ON_0, CHANNEL)
        assert manager.channel_ids() == ()
        with pytest.raises(UnknownPlayer):
            await ledger.balance(GUILD_ON_0, ALICE)
        assert await manager.join(GUILD_ON_1, CHANNEL, ALICE, "Alice") == 2_000
        await manager.shutdown()


async def test_an_abandoned_table_leaves_its_hand_to_the_process_that_took_over(tmp_path: Path):
    path = tmp_path / "ledger.sqlite3"
    async with await Ledger.open(path) as ledger:
        notifier = RecordingNotifier()
        manager = TableManager(ledger, notifier, rng=random.Random(1),
                               default_settings=TableSettings.instant(), shards=SECOND_OF_TWO)
        notifier.manager = manager
        await manager.start()
        notifier.auto_actions[ALICE] = passive
        await manager.join(GUILD_ON_1, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD_ON_1, CHANNEL, BOB, "Bob")
        await manager.start_hand(CHANNEL)
        await eventually(lambda: any(user == BOB for user, _ in notifier.prompts))

        await manager.abandon()

        assert await ledger.table_stacks(CHANNEL) == {ALICE: 2_000, BOB: 2_000}
        report = await ledger.recover(shards=SECOND_OF_TWO)  # the new owner's recovery
        assert len(report.hands_refunded) == 1
        assert await ledger.balance(GUILD_ON_1, ALICE) == 10_000
        assert (await ledger.audit()).ok


async def test_a_live_holder_keeps_its_shards_and_the_second_claimant_is_refused(
        tmp_path: Path):
    path = tmp_path / "ledger.sqlite3"
    async with await Ledger.open(path) as first, await Ledger.open(path) as second:
        holder = ShardLease(first, "first", SECOND_OF_TWO, LEASE)
        await holder.acquire()
        holder.keep(lambda lost: pytest.fail(f"the live holder lost its claim: {lost}"))
        started = time.monotonic()
        with pytest.raises(ShardsTaken, match=r"shard 1 of 2 is claimed by another process "
                                              r"\(first\)"):
            await ShardLease(second, "second", SECOND_OF_TWO, LEASE).acquire()
        assert time.monotonic() - started < 2 * LEASE
        await holder.release()
        await ShardLease(second, "second", SECOND_OF_TWO, LEASE).acquire()


async def test_a_dead_holders_claim_is_taken_once_it_lapses(tmp_path: Path):
    path = tmp_path / "ledger.sqlite3"
    async with await Ledger.open(path) as first, await Ledger.open(path) as second:
        await first.claim_shards("dead", SECOND_OF_TWO, LEASE)  # and no heartbeat follows
        started = time.monotonic()
        await ShardLease(second, "restarted", SECOND_OF_TWO, LEASE).acquire()
        assert LEASE * 0.9 < time.monotonic() - started < 3 * LEASE


async def test_a_holder_whose_claim_was_taken_over_is_told_once_and_stops_renewing(
        tmp_path: Path):
    path = tmp_path / "ledger.sqlite3"
    async with await Ledger.open(path) as first, await Ledger.open(path) as second:
        stalled = ShardLease(first, "stalled", SECOND_OF_TWO, LEASE)
        await stalled.acquire()
        await asyncio.sleep(LEASE)  # it stalled past its lease: another process took over
        await ShardLease(second, "new", SECOND_OF_TWO, LEASE).acquire()
        told: list[ShardClaimLost] = []

        async def on_lost(lost: ShardClaimLost) -> None:
            told.append(lost)

        stalled.keep(on_lost)
        await eventually(lambda: bool(told))
        await asyncio.sleep(LEASE)
        assert len(told) == 1
        await second.renew_shards("new", SECOND_OF_TWO, LEASE)

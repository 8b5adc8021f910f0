"""Many tables at once, failures inside one table, shutdown and recovery after a crash."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.ledger import Ledger
from bot.tables.manager import TableManager
from engine.strategies import STRATEGIES
from engine.strategies.names import NAME_POOLS
from engine.view import PlayerView
from tests.tables.helpers import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    assert_chips_match_ledger,
    eventually,
    passive,
    running_manager,
)
from tests.tables.recording_notifier import RecordingNotifier


class BrokenStrategy:
    """A bot whose decision raises, as a buggy strategy would."""

    def decide(self, view: PlayerView, rng: random.Random) -> None:
        raise RuntimeError("strategy bug")


@pytest.fixture
def broken_bots(monkeypatch):
    monkeypatch.setitem(STRATEGIES, "broken", f"{__name__}:BrokenStrategy")
    monkeypatch.setitem(NAME_POOLS, "broken", ("Glitch",))


def hands_finished(notifier: RecordingNotifier, channel: int) -> int:
    """Hands settled at the table of ``channel`` (its hand number is the ledger's id of its
    last hand, not a count)."""
    return sum(1 for name, args in notifier.events
               if name == "hand_finished" and args[0].channel_id == channel)


@pytest.mark.slow
async def test_fifty_bot_tables_play_concurrently_and_the_chips_match_the_ledger(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, ledger):
        channels = range(1000, 1050)
        levels = random.Random(5)
        for channel in channels:
            await manager.add_bots(GUILD, channel, levels.choice(["easy", "medium", "random"]),
                                   count=3)
        await asyncio.gather(*(manager.run_hands(channel, 6) for channel in channels))
        assert len(notifier.outcomes) == 300
        for channel in channels:
            assert hands_finished(notifier, channel) == 6
            await assert_chips_match_ledger(manager, ledger, channel)


async def test_a_failing_bot_refunds_its_hand_and_other_tables_keep_running(
        tmp_path, broken_bots, caplog):
    async with running_manager(tmp_path) as (manager, notifier, ledger):
        await manager.add_bots(GUILD, 1, "broken")
        await manager.add_bots(GUILD, 1, "calling")
        await manager.add_bots(GUILD, 2, "calling", count=2)
        await asyncio.gather(manager.run_hands(1, 1), manager.run_hands(2, 5))
        assert "strategy bug" in caplog.text
        assert hands_finished(notifier, 2) == 5
        broken_table = manager.state(1)
        assert broken_table.hand_number > 0 and not broken_table.is_hand_running  # dealt once
        assert hands_finished(notifier, 1) == 0
        assert [seat.sitting_out for seat in broken_table.seats] == [True, False]
        assert all(seat.stack == 2000 for seat in broken_table.seats)  # refunded
        assert all(outcome.hand_id for outcome in notifier.outcomes)
        for channel in (1, 2):
            await assert_chips_match_ledger(manager, ledger, channel)


async def test_a_failing_front_end_does_not_stop_the_table(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, ledger):
        notifier.fail_on = {"table_changed", "hand_finished"}
        await manager.add_bots(GUILD, CHANNEL, "calling", count=2)
        await manager.run_hands(CHANNEL, 3)
        assert manager.state(CHANNEL).hand_number == 3
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_shutdown_refunds_the_hand_in_progress_and_cashes_everyone_out(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, ledger):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        await notifier.next_prompt()
        await manager.shutdown()
        assert await ledger.table_stacks(CHANNEL) == {}
        assert await ledger.balance(GUILD, ALICE) == 10_000
        assert await ledger.balance(GUILD, BOB) == 10_000
        assert (await ledger.audit()).ok


async def test_start_up_recovers_a_hand_cut_short_by_a_crash(tmp_path):
    path = tmp_path / "ledger.sqlite3"
    ledger = await Ledger.open(path)
    notifier = RecordingNotifier()
    crashed = TableManager(ledger, notifier, rng=random.Random(1))
    notifier.manager = crashed
    await crashed.start()
    notifier.auto_actions[ALICE] = passive
    await crashed.join(GUILD, CHANNEL, ALICE, "Alice")
    await crashed.join(GUILD, CHANNEL, BOB, "Bob")
    await crashed.start_hand(CHANNEL)
    await eventually(lambda: any(user == BOB for user, _ in notifier.prompts))
    for task in asyncio.all_tasks():
        if task.get_name().startswith("table-"):
            task.cancel()  # the process dies: nothing is settled, refunded or cashed out
    await ledger.close()

    ledger = await Ledger.open(path)
    restarted = TableManager(ledger, RecordingNotifier())
    report = await restarted.start()
    assert len(report.hands_refunded) == 1
    assert await ledger.balance(GUILD, ALICE) == 10_000
    assert await ledger.balance(GUILD, BOB) == 10_000
    assert (await ledger.audit()).ok
    await restarted.shutdown()
    await ledger.close()

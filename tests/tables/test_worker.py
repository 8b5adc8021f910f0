"""Bots thinking in the worker process: decisions made there; a worker that dies or hangs is
replaced while its bots decide at their tables."""

from __future__ import annotations

import asyncio
import os
import random
import signal

import pytest

from bot.ledger import Ledger
from bot.tables import bot_worker
from bot.tables.bot_worker import BotWorker
from bot.tables.manager import TableManager
from bot.tables.settings import TableSettings
from engine.replay import apply_actions, hand_with_cards
from tests.tables.helpers import CHANNEL, GUILD, assert_chips_match_ledger
from tests.tables.recording_notifier import RecordingNotifier


class CountingWorker(BotWorker):
    """The real worker, counting the decisions it was asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0

    async def decide(self, bot_id, level, view):
        self.decisions += 1
        return await super().decide(bot_id, level, view)


@pytest.mark.slow
async def test_simulating_bot_decisions_run_in_the_worker_and_a_dead_worker_is_replaced(
        tmp_path):
    worker = CountingWorker()
    ledger = await Ledger.open(tmp_path / "ledger.sqlite3")
    manager = TableManager(ledger, RecordingNotifier(), rng=random.Random(4),
                           default_settings=TableSettings.instant(), bot_worker=worker)
    try:
        await manager.add_bots(GUILD, CHANNEL, "hard", count=3)
        await worker.start()  # until it is ready, bots decide at their tables
        await manager.run_hands(CHANNEL, 6)
        assert worker.decisions > 0
        (first_process,) = worker.process_ids()
        await assert_chips_match_ledger(manager, ledger, CHANNEL)

        os.kill(first_process, signal.SIGKILL)  # the worker dies between hands
        await manager.run_hands(CHANNEL, 6)
        assert worker.process_ids() not in ((), (first_process,))  # a new one started
        state = manager.state(CHANNEL)
        assert not any(seat.sitting_out for seat in state.seats)  # not the bots' fault
        await assert_chips_match_ledger(manager, ledger, CHANNEL)
    finally:
        await manager.shutdown()
        await ledger.close()
    assert worker.process_ids() == ()


@pytest.mark.slow
async def test_a_hung_worker_is_replaced_and_its_bots_decide_at_their_tables(
        tmp_path, monkeypatch):
    monkeypatch.setattr(bot_worker, "DECISION_DEADLINE", 0.5)
    worker = CountingWorker()
    ledger = await Ledger.open(tmp_path / "ledger.sqlite3")
    notifier = RecordingNotifier()
    manager = TableManager(ledger, notifier, rng=random.Random(4),
                           default_settings=TableSettings.instant(), bot_worker=worker)
    try:
        await manager.add_bots(GUILD, CHANNEL, "hard", count=3)
        await worker.start()
        await manager.run_hands(CHANNEL, 2)
        (hung,) = worker.process_ids()
        os.kill(hung, signal.SIGSTOP)  # alive, but it never answers again
        asked = worker.decisions
        async with asyncio.timeout(30):  # hands go on: the bots decide at the table
            while worker.decisions == asked or worker.process_ids() == (hung,):
                await manager.run_hands(CHANNEL, 1)
            assert worker.process_ids() != (hung,)
            assert not os.path.exists(f"/proc/{hung}")  # killed and reaped
            await worker.start()
            asked = worker.decisions
            while worker.decisions == asked:  # the new worker decides again
                await manager.run_hands(CHANNEL, 1)
        state = manager.state(CHANNEL)
        assert not any(seat.sitting_out for seat in state.seats)  # not the bots' fault
        assert [o.hand_id for o in notifier.outcomes] == list(range(1, state.hand_number + 1))
        await assert_chips_match_ledger(manager, ledger, CHANNEL)
    finally:
        await manager.shutdown()
        await ledger.close()


async def test_each_bots_random_stream_in_a_worker_is_seeded_from_the_os():
    hand = hand_with_cards([1000, 1000, 1000], ["Ah Kd", "7c 7d", "2s 3s"])
    apply_actions(hand, ["call", "call", "check"])
    view = hand.view(hand.to_act)  # on the flop: check, or bet any of many amounts
    choices = []
    for _ in range(2):
        worker = BotWorker()
        try:
            await worker.start()
            choices.append([await worker.decide(1, "random", view) for _ in range(20)])
        finally:
            worker.close()
    assert choices[0] != choices[1]  # the same bot id, two different streams

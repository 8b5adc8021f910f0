"""Bots thinking in the worker process: decisions made there, the worker's death refunded."""

from __future__ import annotations

import os
import random
import signal

import pytest

from bot.ledger import Ledger
from bot.tables.bot_worker import BotWorker
from bot.tables.manager import TableManager
from bot.tables.settings import TableSettings
from tests.recording_notifier import RecordingNotifier
from tests.tables_helpers import CHANNEL, GUILD, assert_chips_match_ledger


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

"""A tournament's ways of ending that race with its requests: a late registration whose table
closes meanwhile, and a start that fails after its threads were opened. Nothing is left
half-done: every chip is accounted for, every channel opened for it is closed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.ledger import LedgerUnavailable, PlayerKey
from bot.tables.tournament_status import TournamentPhase
from engine.blinds import LevelUnit
from tests.tables.fake_tournament_ledger import GRANT
from tests.tables.test_tournament_late_registration import Clock, players
from tests.tables.tournament_helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    fast_settings,
    tournament_harness,
)


async def test_a_late_entrant_whose_table_closes_meanwhile_is_refunded_with_the_rest(
        tmp_path: Path) -> None:
    async with tournament_harness(tmp_path, clock=Clock()) as h:
        tournaments = h.manager.tournaments
        players(h, ALICE, BOB, CAROL)
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(
            unit=LevelUnit.MINUTES, late_registration=1, seats=4))
        await tournaments.join(tid, ALICE, "Alice")
        await tournaments.join(tid, BOB, "Bob")
        await tournaments.start(tid, ALICE)
        ledger, gate, paying = h.tournament_ledger, asyncio.Event(), asyncio.Event()
        register = ledger.register_tournament

        async def slow_register(tournament_id: int, player: PlayerKey) -> int:
            paying.set()
            await gate.wait()
            return int(await register(tournament_id, player))

        ledger.register_tournament = slow_register
        joining = asyncio.create_task(tournaments.join(tid, CAROL, "Carol"))
        await paying.wait()
        closing = asyncio.create_task(h.manager.close_table(CHANNEL))  # the channel is gone
        async with asyncio.timeout(5):
            while CHANNEL in h.manager.channel_ids():
                await asyncio.sleep(0.005)
        gate.set()
        assert await joining == 3  # registered: the closing table's ending takes it from here
        assert await closing
        assert tournaments.status(tid).phase is TournamentPhase.CANCELLED
        for user in (ALICE, BOB, CAROL):
            assert await h.balance(user) == GRANT
        assert await h.audit_ok()


async def test_a_start_that_fails_closes_the_threads_it_opened(tmp_path: Path) -> None:
    async with tournament_harness(tmp_path) as h:
        tournaments = h.manager.tournaments
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(
            seats=3, max_entrants=7, bot_fill="easy"))
        await tournaments.join(tid, ALICE, "Alice")

        async def ledger_down(tournament_id: int) -> tuple[PlayerKey, ...]:
            raise LedgerUnavailable()

        h.tournament_ledger.start_tournament = ledger_down
        with pytest.raises(LedgerUnavailable):
            await tournaments.start(tid, ALICE)
        threads = [opened[-1] for opened in h.notifier.opened_tables]
        assert len(threads) == 2
        assert all(thread in h.notifier.closed for thread in threads)
        assert tournaments.status(tid).phase is TournamentPhase.REGISTERING
        assert await h.balance(ALICE) == GRANT - 100
        assert await h.audit_ok()

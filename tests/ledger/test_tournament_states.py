"""A tournament's saved state in the ledger, on both backends: kept while it runs, and what a
resuming recovery keeps (registering ones, running ones with a state, their buy-ins in escrow)
and refunds (running ones with none)."""

from __future__ import annotations

from pathlib import Path

from bot.ledger import Ledger
from tests.ledger.conftest import FakeClock
from tests.ledger.test_tournaments import ALICE, BOB, CHANNEL, GUILD, START, started, tournament


async def test_a_resuming_recovery_keeps_what_can_resume_and_refunds_the_rest(
    ledger_location: str | Path, clock: FakeClock
) -> None:
    async with await Ledger.open(ledger_location, clock=clock) as before_the_crash:
        registering = await tournament(before_the_crash, 200, ALICE, "Ada")
        kept = await started(before_the_crash, 300, ALICE, BOB)
        await before_the_crash.save_tournament_state(kept, '{"seats": []}')
        unsaved = await started(before_the_crash, 100, ALICE, BOB)
        await before_the_crash.ensure_player(GUILD, 99, "table player")
        await before_the_crash.buy_in(GUILD, CHANNEL, 99, 1_000)  # a table's escrow, not kept
    async with await Ledger.open(ledger_location, clock=clock) as after:
        report = await after.recover(keep_saved_tables=True)
        assert report.tournaments_refunded == (unsaved,)
        assert report.tables_closed == (CHANNEL,)  # not a tournament's escrow
        assert await after.balance(GUILD, ALICE) == START - 200 - 300
        assert await after.balance(GUILD, BOB) == START - 300
        saved = {found.info.id: found for found in await after.saved_tournaments()}
        assert set(saved) == {registering, kept}
        assert saved[registering].state is None
        assert dict(saved[registering].names) == {ALICE: "alice", "Ada": "Ada"}
        assert saved[kept].state == '{"seats": []}' and saved[kept].info.pool == 600
        audit = await after.audit()
        assert audit.ok, audit.problems


async def test_a_state_is_kept_only_while_the_tournament_runs(ledger: Ledger) -> None:
    registering = await tournament(ledger, 100, ALICE)
    await ledger.save_tournament_state(registering, "{}")
    running = await started(ledger, 100, ALICE, BOB)
    await ledger.save_tournament_state(running, '{"a": 1}')
    await ledger.save_tournament_state(running, '{"a": 2}')
    await ledger.finish_tournament(running, {ALICE: 1, BOB: 2}, {ALICE: 200})
    await ledger.save_tournament_state(running, '{"a": 3}')
    [found] = await ledger.saved_tournaments()
    assert (found.info.id, found.state) == (registering, None)


async def test_table_messages_are_read_without_being_forgotten(ledger: Ledger) -> None:
    await ledger.save_table_message(CHANNEL, 77)
    assert await ledger.table_messages([CHANNEL, CHANNEL + 1]) == {CHANNEL: 77}
    assert await ledger.table_messages([]) == {}
    assert await ledger.take_table_messages([CHANNEL]) == {CHANNEL: 77}

"""Cash tables outlive the process: a stop (graceful or not) voids the hand in progress, and
the next start opens the table again with the same seats, chips, flags and button, dealing on
by itself; chips never leave the seats' escrow and the audit holds throughout."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from bot.ledger import Ledger
from bot.tables.manager import TableManager
from bot.tables.saved_state import SavedTableState
from bot.tables.settings import TableSettings
from tests.tables.helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    assert_chips_match_ledger,
    eventually,
    passive,
)
from tests.tables.recording_notifier import RecordingNotifier

SETTINGS = TableSettings.instant(turn_timeout=60.0)
"""No delays, and a turn that waits for the test."""


def new_manager(ledger: Ledger) -> tuple[TableManager, RecordingNotifier]:
    notifier = RecordingNotifier()
    manager = TableManager(ledger, notifier, rng=random.Random(3), default_settings=SETTINGS)
    notifier.manager = manager
    return manager, notifier


async def seated_mid_hand(ledger: Ledger) -> tuple[TableManager, RecordingNotifier, int]:
    """Alice, Bob and a bot at a table whose first hands were played; a new hand dealt and
    waiting for a person's turn. Returns the manager, its notifier and that hand's button."""
    manager, notifier = new_manager(ledger)
    await manager.start(resume=True)
    notifier.auto_actions.update({ALICE: passive, BOB: passive})
    await manager.join(GUILD, CHANNEL, ALICE, "Alice", 3_000)
    await manager.join(GUILD, CHANNEL, BOB, "Bob", 2_000)
    await manager.add_bots(GUILD, CHANNEL, "calling")
    await eventually(lambda: len(notifier.outcomes) >= 2)
    notifier.auto_actions.clear()  # the next turn of a person waits
    seen = len(notifier.prompts)  # (those may have been answered already)

    def waiting_for_a_person() -> bool:
        state = manager.state(CHANNEL)
        if len(notifier.prompts) <= seen or state is None or state.to_act is None:
            return False
        user, prompt = notifier.prompts[-1]
        return prompt.turn.hand == state.hand_id and state.to_act.user_id == user

    await eventually(waiting_for_a_person)
    state = manager.state(CHANNEL)
    assert state is not None and state.button_seat is not None
    return manager, notifier, state.button_seat


async def balances(ledger: Ledger) -> dict[int, int]:
    return {user: await ledger.balance(GUILD, user) for user in (ALICE, BOB)}


async def test_a_graceful_stop_keeps_the_table_and_the_next_start_deals_on(tmp_path: Path):
    async with await Ledger.open(tmp_path / "ledger.sqlite3") as ledger:
        manager, notifier, button = await seated_mid_hand(ledger)
        stacks_at_start = await ledger.table_stacks(CHANNEL)  # the hand has not moved them
        held = await balances(ledger)
        await manager.suspend(drain=0.0)
        assert notifier.paused == [CHANNEL] and not notifier.closed
        assert await ledger.table_stacks(CHANNEL)  # the chips stayed at the table
        assert (await ledger.audit()).ok

        again, notifier2 = new_manager(ledger)
        report = await again.start(resume=True)
        assert report.tables_kept == (CHANNEL,)
        assert notifier2.resumed == [(CHANNEL, None)]
        await eventually(lambda: again.state(CHANNEL) is not None
                         and again.state(CHANNEL).is_hand_running)
        state = again.state(CHANNEL)
        assert state is not None and {seat.name for seat in state.seats} == {
            "Alice", "Bob", *(name for name in stacks_at_start if isinstance(name, str))}
        assert await ledger.table_stacks(CHANNEL) == stacks_at_start
        assert state.button_seat == button  # the void hand's button deals again
        assert await balances(ledger) == held
        notifier2.auto_actions.update({ALICE: passive, BOB: passive})
        for prompt_user, prompt in notifier2.prompts:  # the turn already open
            await again.act(CHANNEL, prompt_user, passive(prompt), prompt.turn)
        await eventually(lambda: len(notifier2.outcomes) >= 2)
        await again.sit_out(CHANNEL, ALICE)
        await again.sit_out(CHANNEL, BOB)
        await eventually(lambda: not again.state(CHANNEL).is_hand_running)
        await assert_chips_match_ledger(again, ledger, CHANNEL)
        await again.shutdown()
        assert await ledger.saved_tables() == []  # closed for good: not opened again
        assert (await ledger.audit()).ok


async def test_a_crash_mid_hand_refunds_the_hand_into_the_stacks_and_the_table_comes_back(
        tmp_path: Path):
    path = tmp_path / "ledger.sqlite3"
    ledger = await Ledger.open(path)
    manager, _, button = await seated_mid_hand(ledger)
    stacks_at_start = await ledger.table_stacks(CHANNEL)
    await manager.abandon()  # as a killed process: no chip moves, the hand stays running
    await ledger.close()

    async with await Ledger.open(path) as ledger:
        again, _ = new_manager(ledger)
        report = await again.start(resume=True)
        assert len(report.hands_refunded) == 1 and report.tables_closed == ()
        await eventually(lambda: again.state(CHANNEL) is not None
                         and again.state(CHANNEL).is_hand_running)
        restored = again.state(CHANNEL)
        assert restored is not None and restored.button_seat == button
        assert len(restored.seats) == 3
        assert await ledger.table_stacks(CHANNEL) == stacks_at_start
        assert (await ledger.audit()).ok
        await again.shutdown()


async def test_seats_that_hold_no_chips_stay_empty_and_unsaved_escrow_is_cashed_out(
        tmp_path: Path):
    async with await Ledger.open(tmp_path / "ledger.sqlite3") as ledger:
        manager, _ = new_manager(ledger)
        await manager.start(resume=True)
        await manager.join(GUILD, CHANNEL, ALICE, "Alice", 2_000)
        await manager.join(GUILD, CHANNEL, BOB, "Bob", 2_000)
        await manager.sit_out(CHANNEL, ALICE)
        await manager.sit_out(CHANNEL, BOB)
        await manager.suspend(drain=0.0)
        # Outside the runtime: Bob cashed out (his seat still saved), Carol bought in with no
        # seat saved (a join the stop cut short).
        await ledger.cash_out(GUILD, CHANNEL, BOB)
        await ledger.ensure_player(GUILD, CAROL, "Carol")
        await ledger.buy_in(GUILD, CHANNEL, CAROL, 1_500)

        again, _ = new_manager(ledger)
        await again.start(resume=True)
        state = again.state(CHANNEL)
        assert state is not None
        assert [(seat.name, seat.stack, seat.sitting_out) for seat in state.seats] == [
            ("Alice", 2_000, True)]
        assert await ledger.balance(GUILD, CAROL) == 10_000
        assert (await ledger.audit()).ok
        await again.shutdown()


async def test_a_state_that_cannot_be_read_cashes_everyone_out_with_one_log_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture):
    async with await Ledger.open(tmp_path / "ledger.sqlite3") as ledger:
        manager, _ = new_manager(ledger)
        await manager.start(resume=True)
        await manager.join(GUILD, CHANNEL, ALICE, "Alice", 2_000)
        await manager.sit_out(CHANNEL, ALICE)
        await manager.suspend(drain=0.0)
        await ledger.save_table_state(GUILD, CHANNEL, '{"version": 1, "seats": "no"}')

        again, _ = new_manager(ledger)
        with caplog.at_level(logging.ERROR, logger="bot.tables.manager"):
            await again.start(resume=True)
        assert again.state(CHANNEL) is None
        assert [record.message for record in caplog.records if "cannot be restored" in
                record.message] == [caplog.records[0].message]
        assert await ledger.balance(GUILD, ALICE) == 10_000
        assert await ledger.saved_tables() == []
        assert (await ledger.audit()).ok
        await again.shutdown()


async def test_without_resuming_the_saved_tables_chips_go_back_to_their_owners(tmp_path: Path):
    """The terminal's game starts so: it opens no saved table, and strands no chip."""
    async with await Ledger.open(tmp_path / "ledger.sqlite3") as ledger:
        manager, _ = new_manager(ledger)
        await manager.start(resume=True)
        await manager.join(GUILD, CHANNEL, ALICE, "Alice", 2_000)
        await manager.suspend(drain=0.0)

        again, _ = new_manager(ledger)
        report = await again.start()
        assert report.tables_closed == (CHANNEL,) and report.tables_kept == ()
        assert await ledger.balance(GUILD, ALICE) == 10_000
        assert await ledger.saved_tables() == []
        await again.shutdown()


async def test_a_stop_lets_the_hand_in_progress_finish_within_the_drain(tmp_path: Path):
    async with await Ledger.open(tmp_path / "ledger.sqlite3") as ledger:
        manager, notifier, _ = await seated_mid_hand(ledger)
        played = len(notifier.outcomes)
        notifier.auto_actions.update({ALICE: passive, BOB: passive})
        for user, prompt in notifier.prompts[-1:]:
            await manager.act(CHANNEL, user, passive(prompt), prompt.turn)
        await manager.suspend(drain=30.0)
        assert len(notifier.outcomes) == played + 1  # finished, and no new hand dealt
        [saved] = await ledger.saved_tables()
        assert len(SavedTableState.from_json(saved.state).seats) == 3
        assert (await ledger.audit()).ok


async def test_a_persons_chosen_straddle_outlives_a_restart(tmp_path: Path):
    settings = TableSettings.instant(turn_timeout=60.0, straddle="utg")
    async with await Ledger.open(tmp_path / "ledger.sqlite3") as ledger:
        manager = TableManager(ledger, RecordingNotifier(), default_settings=settings)
        await manager.start(resume=True)
        await manager.join(GUILD, CHANNEL, ALICE, "Alice", 2_000)
        await manager.choose_straddle(CHANNEL, ALICE, True)
        await manager.suspend(drain=0.0)
        [saved] = await ledger.saved_tables()
        assert [seat.straddles for seat in SavedTableState.from_json(saved.state).seats] == [True]
        again, _ = new_manager(ledger)
        await again.start(resume=True)
        await again.sit_out(CHANNEL, ALICE)  # a change, so that the state is saved anew
        await again.suspend(drain=0.0)
        [saved] = await ledger.saved_tables()
        seats = SavedTableState.from_json(saved.state).seats
        assert [(seat.straddles, seat.sitting_out) for seat in seats] == [(True, True)]

"""The time bank: extra seconds after the turn timer, shown on the table while they run, used
up once and refilled a little every few hands."""

from __future__ import annotations

import asyncio

from bot.tables.settings import TableSettings
from bot.tables.time_bank import REFILL_EVERY_HANDS, REFILL_SECONDS, TimeBank
from tests.tables.helpers import (
    ALICE,
    CHANNEL,
    GUILD,
    assert_chips_match_ledger,
    eventually,
    passive,
    running_manager,
)
from tests.tables.tournament_helpers import fast_settings, tournament_harness

TIMER, BANK = 0.05, 0.4


def test_time_bank_refill():
    bank = TimeBank()
    bank.spend(12.0)
    for _ in range(REFILL_EVERY_HANDS - 1):
        bank.hand_played()
    assert bank.left(30.0) == 18.0
    bank.hand_played()
    assert bank.left(30.0) == 18.0 + REFILL_SECONDS
    for _ in range(10 * REFILL_EVERY_HANDS):
        bank.hand_played()
    assert bank.left(30.0) == 30.0 and bank.used == 0.0  # never beyond the bank's size


def test_time_bank_full_banks_count_no_hands_towards_a_refill():
    bank = TimeBank()
    for _ in range(REFILL_EVERY_HANDS - 1):
        bank.hand_played()
    bank.spend(10.0)
    bank.hand_played()
    assert bank.left(30.0) == 20.0  # the count started when something was used


async def test_the_first_timeout_waits_the_timer_and_the_bank_the_second_only_the_timer(
        tmp_path):
    settings = TableSettings.instant(turn_timeout=TIMER, time_bank=BANK)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, ledger):
        loop = asyncio.get_running_loop()
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        started = loop.time()
        await manager.add_bots(GUILD, CHANNEL, "calling")
        await eventually(lambda: len(notifier.messages_to(ALICE)) == 1)
        assert loop.time() - started >= TIMER + BANK
        assert "time ran out" in notifier.messages_to(ALICE)[0]
        await eventually(lambda: manager.state(CHANNEL).seat_of(ALICE).sitting_out)
        banked = [state for state in notifier.states if state.time_bank_deadline is not None]
        assert banked and {state.to_act.user_id for state in banked} == {ALICE}
        # The bank ran in one turn only: the second timeout found it empty.
        assert len({state.to_act_deadline for state in banked}) == 1
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_acting_while_the_bank_runs_is_in_time(tmp_path):
    settings = TableSettings.instant(turn_timeout=TIMER, time_bank=30.0)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        _, prompt = await notifier.next_prompt()

        def banking() -> bool:
            state = manager.state(CHANNEL)
            return state is not None and state.time_bank_deadline is not None

        await eventually(banking)
        await manager.act(CHANNEL, ALICE, passive(prompt))
        assert not banking()  # the table stops showing the bank at once
        assert notifier.messages_to(ALICE) == []
        assert not manager.state(CHANNEL).seat_of(ALICE).sitting_out


async def test_no_time_bank_when_it_is_off(tmp_path):
    settings = TableSettings.instant(turn_timeout=TIMER, time_bank=0)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        await eventually(lambda: manager.state(CHANNEL).seat_of(ALICE).sitting_out)
        assert all(state.time_bank_deadline is None for state in notifier.states)


async def test_tournament_tables_use_the_servers_time_bank(tmp_path):
    settings = TableSettings.instant(turn_timeout=TIMER, time_bank=BANK)
    async with tournament_harness(tmp_path, settings=settings) as h:
        tournaments = h.manager.tournaments
        tid = await tournaments.create(GUILD, CHANNEL, ALICE,
                                       fast_settings(seats=3, bot_fill="easy"))
        await tournaments.join(tid, ALICE, "Alice")
        await tournaments.start(tid, ALICE)

        def banking() -> bool:
            state = h.manager.state(CHANNEL)
            return state is not None and state.time_bank_deadline is not None

        await eventually(banking)
        assert h.manager.state(CHANNEL).to_act.user_id == ALICE

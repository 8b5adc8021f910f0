"""The time bank belongs to the person at the table, not to their seat: leaving and sitting
down again within ``BANK_KEPT_SECONDS`` gives them back the bank as they left it."""

from __future__ import annotations

import random

from bot.ledger import Ledger
from bot.tables.lobby import BANK_KEPT_SECONDS, Lobby
from bot.tables.settings import TableSettings
from bot.tables.time_bank import TimeBank
from tests.tables.helpers import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    assert_chips_match_ledger,
    eventually,
    running_manager,
)

TIMER, BANK = 0.05, 0.4


async def test_the_time_bank_belongs_to_the_person_not_the_seat(tmp_path):
    settings = TableSettings.instant(turn_timeout=TIMER, time_bank=BANK)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, ledger):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        await eventually(lambda: len(notifier.messages_to(ALICE)) >= 1)  # timer, bank, out
        assert any(state.time_bank_deadline is not None for state in notifier.states)
        await manager.leave(CHANNEL, ALICE)
        await eventually(lambda: manager.state(CHANNEL).seat_of(ALICE) is None)
        shown, told = len(notifier.states), len(notifier.messages_to(ALICE))
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await eventually(lambda: len(notifier.messages_to(ALICE)) > told)
        # Her bank is as empty as she left it: the timer ran out with no bank after it.
        assert all(state.time_bank_deadline is None for state in notifier.states[shown:])
        await manager.leave(CHANNEL, ALICE)
        await eventually(lambda: manager.state(CHANNEL).seat_of(ALICE) is None)
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


class Clock:
    """A monotonic clock that moves only when the test says."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


async def test_a_bank_is_kept_as_it_was_for_the_period_and_then_forgotten(tmp_path):
    ledger = await Ledger.open(tmp_path / "ledger.sqlite3")
    try:
        clock = Clock()
        lobby = Lobby(GUILD, CHANNEL, TableSettings.instant(), ledger, random.Random(1), None,
                      clock=clock)
        await lobby.seat_person(ALICE, "Alice", None)
        lobby.require_seat(ALICE).time_bank.spend(12.0)
        lobby.require_seat(ALICE).time_bank.hand_played()
        await lobby.cash_out(lobby.require_seat(ALICE))
        clock.now += BANK_KEPT_SECONDS - 1
        await lobby.seat_person(ALICE, "Alice", None)
        assert lobby.require_seat(ALICE).time_bank == TimeBank(used=12.0, hands=1)

        await lobby.cash_out(lobby.require_seat(ALICE))
        clock.now += BANK_KEPT_SECONDS
        await lobby.seat_person(BOB, "Bob", None)  # anyone sitting down forgets old banks
        assert not lobby._banks_left  # memory stays bounded by the period
        await lobby.seat_person(ALICE, "Alice", None)
        assert lobby.require_seat(ALICE).time_bank == TimeBank()
        for user_id in (ALICE, BOB):
            await lobby.cash_out(lobby.require_seat(user_id))
        assert (await ledger.audit()).ok
    finally:
        await ledger.close()

"""Sitting out: after two timeouts in a row a person is sat out at once; a cash table deals
without them and frees their seat after ``sit_out_hands`` hands; a tournament table deals them
in, blinded and folded without waiting."""

from __future__ import annotations

from bot.tables.settings import TableSettings
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


async def test_a_cash_seat_sitting_out_too_long_is_cashed_out_and_freed(tmp_path):
    settings = TableSettings.instant(sit_out_hands=3)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, ledger):
        notifier.auto_actions[BOB] = passive
        balance = await ledger.ensure_player(GUILD, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.sit_out(CHANNEL, ALICE)
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        await eventually(lambda: manager.state(CHANNEL).seat_of(ALICE) is None, timeout=20)
        assert len(notifier.outcomes) >= 3
        assert all(ALICE not in {r.user_id for r in o.results} for o in notifier.outcomes)
        told = notifier.messages_to(ALICE)
        assert len(told) == 1 and "sat out 3 hands" in told[0] and "2,000 chips" in told[0]
        assert await ledger.ensure_player(GUILD, ALICE, "Alice") == balance
        await manager.sit_out(CHANNEL, BOB)
        await eventually(lambda: not manager.state(CHANNEL).is_hand_running)
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_sitting_in_again_starts_the_count_of_hands_away_again(tmp_path):
    settings = TableSettings.instant(sit_out_hands=3)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, ledger):
        notifier.auto_actions.update({ALICE: passive, BOB: passive})
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        for _ in range(3):
            await manager.sit_out(CHANNEL, ALICE)
            hands = len(notifier.outcomes)
            await eventually(lambda: len(notifier.outcomes) >= hands + 2, timeout=20)
            await manager.sit_in(CHANNEL, ALICE)
        assert manager.state(CHANNEL).seat_of(ALICE) is not None
        await manager.sit_out(CHANNEL, BOB)
        await manager.sit_out(CHANNEL, ALICE)
        await eventually(lambda: not manager.state(CHANNEL).is_hand_running)
        await assert_chips_match_ledger(manager, ledger, CHANNEL)

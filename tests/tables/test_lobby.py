"""The lobby of a channel's table: joining, leaving, bots, top-ups and settings."""

from __future__ import annotations

import pytest

from bot.errors import InvalidAmount, NotEnoughChips, NotSeated
from bot.tables.errors import (
    AlreadySeated,
    InvalidSettings,
    NoTableHere,
    TableFull,
    UnknownBot,
    UnknownBotLevel,
)
from bot.tables.settings import TableSettings
from tests.tables.helpers import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    assert_chips_match_ledger,
    running_manager,
)

STARTING_BALANCE = 10_000


async def test_first_join_opens_the_table_with_the_server_defaults(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, ledger):
        await manager.update_guild_settings(GUILD, small_blind=25, big_blind=50)
        stack = await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        state = manager.state(CHANNEL)
        assert (state.small_blind, state.big_blind) == (25, 50)
        assert stack == 100 * 50
        assert await ledger.balance(GUILD, ALICE) == STARTING_BALANCE - stack
        assert notifier.states[-1].seat_of(ALICE).stack == stack


async def test_default_buy_in_shrinks_to_a_smaller_balance_above_the_minimum(tmp_path):
    async with running_manager(tmp_path) as (manager, _, ledger):
        await manager.update_guild_settings(GUILD, default_buy_in_bb=600, max_buy_in_bb=800)
        assert await manager.join(GUILD, CHANNEL, ALICE, "Alice") == STARTING_BALANCE
        assert await ledger.balance(GUILD, ALICE) == 0


async def test_joining_twice_is_refused_and_changes_nothing(tmp_path):
    async with running_manager(tmp_path) as (manager, _, ledger):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        with pytest.raises(AlreadySeated):
            await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        assert len(manager.state(CHANNEL).seats) == 1
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


@pytest.mark.parametrize("amount", [799, 4001, -5, 0])
async def test_buy_in_outside_the_range_is_refused_with_the_range(tmp_path, amount):
    async with running_manager(tmp_path) as (manager, _, ledger):
        with pytest.raises(InvalidAmount, match="between 800 and 4,000"):
            await manager.join(GUILD, CHANNEL, ALICE, "Alice", buy_in=amount)
        assert manager.state(CHANNEL).seats == ()
        assert await ledger.balance(GUILD, ALICE) == STARTING_BALANCE


async def test_buy_in_above_the_balance_is_refused_with_the_balance(tmp_path):
    settings = TableSettings.instant(max_buy_in_bb=1000)
    async with running_manager(tmp_path, settings=settings) as (manager, _, ledger):
        with pytest.raises(NotEnoughChips, match="10,000"):
            await manager.join(GUILD, CHANNEL, ALICE, "Alice", buy_in=12_000)
        assert await ledger.balance(GUILD, ALICE) == STARTING_BALANCE


async def test_a_full_table_refuses_another_player(tmp_path):
    settings = TableSettings.instant(max_seats=2)
    async with running_manager(tmp_path, settings=settings) as (manager, _, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        with pytest.raises(TableFull):
            await manager.join(GUILD, CHANNEL, BOB, "Bob")


async def test_requests_in_a_channel_without_a_table_are_refused(tmp_path):
    async with running_manager(tmp_path) as (manager, _, _):
        with pytest.raises(NoTableHere):
            await manager.leave(CHANNEL, ALICE)
        assert manager.state(CHANNEL) is None
        assert manager.hole_cards(CHANNEL, ALICE) is None


async def test_leaving_between_hands_cashes_out_and_closes_an_empty_table(tmp_path):
    async with running_manager(tmp_path) as (manager, _, ledger):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice", buy_in=1000)
        assert await manager.leave(CHANNEL, ALICE) == 1000
        assert await ledger.balance(GUILD, ALICE) == STARTING_BALANCE
        assert manager.state(CHANNEL) is None
        assert (await ledger.audit()).ok


async def test_leaving_a_table_one_is_not_at_is_refused(tmp_path):
    async with running_manager(tmp_path) as (manager, _, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        with pytest.raises(NotSeated):
            await manager.leave(CHANNEL, BOB)


async def test_bots_are_bought_in_by_the_house_and_removed_back_to_it(tmp_path):
    async with running_manager(tmp_path) as (manager, _, ledger):
        names = await manager.add_bots(GUILD, CHANNEL, "calling", count=2)
        assert len(set(names)) == 2
        state = manager.state(CHANNEL)
        assert [seat.bot_level for seat in state.seats] == ["calling", "calling"]
        assert all(seat.is_bot and seat.stack == 2000 for seat in state.seats)
        assert not state.is_hand_running  # bots alone do not start hands
        await assert_chips_match_ledger(manager, ledger, CHANNEL)
        assert await manager.remove_bot(CHANNEL, names[0]) == names[0]
        with pytest.raises(UnknownBot):
            await manager.remove_bot(CHANNEL, "Nobody")
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_unknown_bot_level_is_refused(tmp_path):
    async with running_manager(tmp_path) as (manager, _, _):
        with pytest.raises(UnknownBotLevel, match="easy"):
            await manager.add_bots(GUILD, CHANNEL, "grandmaster")


async def test_top_up_cannot_exceed_the_maximum_buy_in(tmp_path):
    async with running_manager(tmp_path) as (manager, _, ledger):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice", buy_in=3000)
        with pytest.raises(InvalidAmount, match="between 1 and 1,000"):
            await manager.top_up(CHANNEL, ALICE, 1001)
        assert await manager.top_up(CHANNEL, ALICE, 1000) == 4000
        assert await ledger.balance(GUILD, ALICE) == STARTING_BALANCE - 4000
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_server_settings_persist_and_a_bad_change_saves_nothing(tmp_path):
    async with running_manager(tmp_path) as (manager, _, _):
        await manager.update_guild_settings(GUILD, turn_timeout=30.0)
        with pytest.raises(InvalidSettings):
            await manager.update_guild_settings(GUILD, small_blind=50)
        with pytest.raises(InvalidSettings, match="Unknown setting"):
            await manager.update_guild_settings(GUILD, rake=5)
        settings = await manager.guild_settings(GUILD)
        assert (settings.turn_timeout, settings.small_blind) == (30.0, 10)


async def test_table_settings_change_for_one_table_only(tmp_path):
    async with running_manager(tmp_path) as (manager, _, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.update_table_settings(CHANNEL, small_blind=20, big_blind=40)
        assert manager.table_settings(CHANNEL).big_blind == 40
        assert (await manager.guild_settings(GUILD)).big_blind == 20

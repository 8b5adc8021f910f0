"""Bots never take the seats a table keeps for people."""

import pytest

from bot.tables.errors import TooManyBots
from bot.tables.settings import TableSettings
from tests.tables.helpers import ALICE, BOB, CHANNEL, GUILD, running_manager


async def test_bots_beyond_the_limit_are_refused_and_nothing_is_seated(tmp_path):
    settings = TableSettings.instant(max_seats=6)  # four bots: two seats stay for people
    async with running_manager(tmp_path, settings=settings) as (manager, _, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        with pytest.raises(TooManyBots, match="at most 4 bots"):
            await manager.add_bots(GUILD, CHANNEL, "calling", count=5)
        state = manager.state(CHANNEL)
        assert state is not None and len(state.seats) == 1
        assert len(await manager.add_bots(GUILD, CHANNEL, "calling", count=4)) == 4
        with pytest.raises(TooManyBots, match="4 seated now"):
            await manager.add_bots(GUILD, CHANNEL, "calling")
        assert await manager.join(GUILD, CHANNEL, BOB, "Bob") > 0


async def test_a_heads_up_table_seats_one_bot_against_a_person(tmp_path):
    settings = TableSettings.instant(max_seats=2)
    async with running_manager(tmp_path, settings=settings) as (manager, _, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        assert len(await manager.add_bots(GUILD, CHANNEL, "calling")) == 1

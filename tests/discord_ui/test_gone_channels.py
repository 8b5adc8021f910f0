"""A table whose channel is deleted, or whose server the bot leaves, closes at once: the hand
in progress is refunded exactly as recovery would, and everyone is cashed out."""

from __future__ import annotations

import logging

import pytest

from tests.discord_ui.club import Club, seat_two_and_a_bot, start_hand, wait_for_turn_or_end

pytestmark = pytest.mark.slow


async def balances(club: Club, bot) -> dict[int, int]:
    return {user: await bot.ledger.balance(club.guild_id, user)
            for user in (club.alice, club.bob)}


async def test_deleting_the_channel_mid_hand_refunds_the_hand_and_closes_the_table(
        club: Club, caplog: pytest.LogCaptureFixture):
    bot = await club.start_bot()
    await seat_two_and_a_bot(club, bot)
    await start_hand(club, bot, club.alice)
    assert await wait_for_turn_or_end(club, bot) is not None
    await club.fake.delete_channel(club.channel)
    # The notifier hears of the table last, once it has closed.
    await club.fake.wait_until(lambda: club.channel not in bot.notifier.channels())
    assert await balances(club, bot) == {club.alice: 10_000, club.bob: 10_000}
    assert (await bot.ledger.audit()).ok
    assert bot.tables.state(club.channel) is None
    await bot.notifier.flush()
    # A gone channel is expected: its table message goes with it, no error is logged.
    assert [record.getMessage() for record in caplog.records
            if record.levelno >= logging.ERROR] == []


async def test_leaving_a_server_closes_its_tables(club: Club):
    bot = await club.start_bot()
    await seat_two_and_a_bot(club, bot)
    await start_hand(club, bot, club.alice)
    await club.fake.remove_bot(club.guild_id)
    await club.fake.wait_until(lambda: club.channel not in bot.notifier.channels())
    assert await balances(club, bot) == {club.alice: 10_000, club.bob: 10_000}
    assert (await bot.ledger.audit()).ok


async def test_a_table_whose_last_player_leaves_is_forgotten_by_the_notifier(club: Club):
    bot = await club.start_bot()
    joined = await club.fake.slash(club.alice, club.channel, "join")
    assert "You sit down" in joined.content
    assert club.channel in bot.notifier.channels()
    await club.fake.slash(club.alice, club.channel, "leave")
    await club.fake.wait_until(lambda: club.channel not in bot.notifier.channels())


async def test_a_channel_gone_before_the_bot_hears_of_it_logs_no_error(
        club: Club, caplog: pytest.LogCaptureFixture):
    """Discord deletes the channel; its CHANNEL_DELETE is still on its way when the table's
    last state is published: the edit and the new post both meet "Unknown Channel"."""
    bot = await club.start_bot()
    await seat_two_and_a_bot(club, bot)
    await start_hand(club, bot, club.alice)
    await bot.notifier.flush()
    world = club.fake.world
    world.deleted_channels[club.channel] = world.channels.pop(club.channel)
    assert await bot.tables.close_table(club.channel)
    await bot.notifier.flush()
    assert await balances(club, bot) == {club.alice: 10_000, club.bob: 10_000}
    assert [record.getMessage() for record in caplog.records
            if record.levelno >= logging.ERROR] == []

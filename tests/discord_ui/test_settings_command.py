"""/settings through the fake Discord: all or nothing. A change the channel's table refuses
saves nothing for the server either."""

from __future__ import annotations

import pytest

from tests.discord_ui.club import Club, seat_two_and_a_bot
from tests.discord_ui.test_tournament_play import start_tournament_bot

pytestmark = pytest.mark.slow


async def test_a_tournament_tables_refusal_leaves_the_servers_timer_alone(club: Club):
    bot = await start_tournament_bot(club)
    slash = club.fake.slash
    for user in (club.alice, club.bob, club.admin):
        await slash(user, club.channel, "balance")
    await slash(club.admin, club.channel, "tournament create", buy_in=100, seats=2)
    for user in (club.alice, club.bob):
        await slash(user, club.channel, "tournament join")
    await club.fake.wait_until(lambda: bot.tables.state(club.channel) is not None)
    before = await bot.tables.guild_settings(club.guild_id)

    answer = await slash(club.admin, club.channel, "settings", turn_timer=25)
    assert answer.ephemeral and "This is a tournament table" in answer.all_text()
    assert await bot.tables.guild_settings(club.guild_id) == before


async def test_blinds_a_cash_table_refuses_are_not_saved_for_the_server(club: Club):
    bot = await club.start_bot()
    await seat_two_and_a_bot(club, bot)
    await club.fake.slash(club.admin, club.lounge, "settings", small_blind=100, big_blind=200)
    before = await bot.tables.guild_settings(club.guild_id)
    assert (before.small_blind, before.big_blind) == (100, 200)

    answer = await club.fake.slash(club.admin, club.channel, "settings", small_blind=150)
    assert answer.ephemeral and "150" in answer.all_text(), answer.all_text()
    assert await bot.tables.guild_settings(club.guild_id) == before
    table = bot.tables.table_settings(club.channel)
    assert (table.small_blind, table.big_blind) == (10, 20)


async def test_a_server_sets_how_far_behind_its_web_spectators_are(club: Club):
    bot = await club.start_bot()
    answer = await club.fake.slash(club.admin, club.channel, "settings", spectator_delay="street")
    assert "One street behind" in answer.all_text(), answer.all_text()
    assert (await bot.tables.guild_settings(club.guild_id)).spectator_delay == "street"


async def test_a_server_sets_the_time_zone_of_its_scheduled_tournaments(club: Club):
    bot = await club.start_bot()
    answer = await club.fake.slash(club.admin, club.channel, "settings", timezone="Asia/Taipei")
    assert "Times in Asia/Taipei" in answer.all_text(), answer.all_text()
    assert (await bot.tables.guild_settings(club.guild_id)).timezone == "Asia/Taipei"
    refused = await club.fake.slash(club.admin, club.channel, "settings", timezone="Mars/Base")
    assert refused.ephemeral and "Mars/Base" in refused.all_text()
    assert (await bot.tables.guild_settings(club.guild_id)).timezone == "Asia/Taipei"

"""Who may run a table: seated players and server managers, at a pace, in a channel where
the bot can show it."""

from __future__ import annotations

import discord
import pytest

from bot.discord_ui.app import BotOptions
from tests.discord_ui.club import Club, expect_refusal, seat_two_and_a_bot

pytestmark = pytest.mark.slow

NOT_YOURS = "Only players seated at this table, or members with Manage Server, can do that."


async def test_a_member_who_is_not_seated_cannot_add_or_remove_bots_or_deal(club: Club):
    bot = await club.start_bot()
    await seat_two_and_a_bot(club, bot)
    stranger = club.fake.add_user("mallory")
    for command, options in (("addbot", {"count": 3}), ("removebot", {}), ("start", {})):
        await expect_refusal(club, bot, club.fake.slash(stranger, club.channel, command,
                                                        **options), NOT_YOURS)


async def test_a_member_cannot_open_a_table_by_adding_bots_to_an_empty_channel(club: Club):
    bot = await club.start_bot()
    await expect_refusal(club, bot, club.fake.slash(club.alice, club.channel, "addbot"),
                         NOT_YOURS)
    assert bot.tables.state(club.channel) is None


async def test_seated_players_and_managers_may_add_remove_and_deal(club: Club):
    bot = await club.start_bot()
    await seat_two_and_a_bot(club, bot)
    added = await club.fake.slash(club.admin, club.channel, "addbot", level="hard")
    assert added.content.startswith("Seated "), added.content
    removed = await club.fake.slash(club.bob, club.channel, "removebot")
    assert removed.content.endswith("leaves the table."), removed.content
    dealt = await club.fake.slash(club.admin, club.channel, "start")
    assert dealt.content.startswith("Dealing."), dealt.content


async def test_bots_cannot_fill_the_seats_people_need(club: Club):
    bot = await club.start_bot()
    joined = await club.fake.slash(club.alice, club.channel, "join")
    assert "You sit down" in joined.content
    await expect_refusal(club, bot, club.fake.slash(club.alice, club.channel, "addbot",
                                                    count=8),
                         "This table seats at most 7 bots")
    added = await club.fake.slash(club.alice, club.channel, "addbot", count=7)
    assert added.content.startswith("Seated "), added.content
    await expect_refusal(club, bot, club.fake.slash(club.alice, club.channel, "addbot"),
                         "This table seats at most 7 bots")
    bobs = await club.fake.slash(club.bob, club.channel, "join")
    assert "You sit down" in bobs.content


async def test_a_missing_channel_permission_is_named_and_no_table_opens(club: Club):
    club.fake.deny_bot(club.channel, discord.Permissions(send_messages=True, embed_links=True))
    bot = await club.start_bot()
    for command in ("join", "addbot"):
        await expect_refusal(
            club, bot, club.fake.slash(club.admin, club.channel, command),
            "I need the Send Messages and Embed Links permissions in this channel")
    assert bot.tables.state(club.channel) is None
    assert await bot.ledger.stats(club.guild_id, club.admin) is None  # no account opened


async def test_table_commands_have_a_per_member_cooldown_that_says_how_long_to_wait(club: Club):
    bot = club.new_bot(cooldowns=BotOptions().cooldowns)
    await club.fake.run_client(bot)
    await seat_two_and_a_bot(club, bot)
    answers = [await club.fake.slash(club.alice, club.channel, "table") for _ in range(3)]
    assert [answer.content.startswith("Slow down: try again in ") for answer in answers] == [
        False, False, True]
    assert answers[-1].ephemeral
    other = await club.fake.slash(club.bob, club.channel, "table")
    assert other.content == "The table is posted below."

"""The live table message keeps up with the game whatever members spam."""

from __future__ import annotations

import pytest

from tests.discord_ui.club import Club, seat_two_and_a_bot
from tests.fake_discord import CallKind

pytestmark = pytest.mark.slow

EDIT_INTERVAL = 1.0  # all thirty /table calls below fit in one interval


async def test_spammed_reposts_coalesce_and_the_table_stays_one_edit_behind(club: Club):
    bot = club.new_bot(edit_interval=EDIT_INTERVAL)
    await club.fake.run_client(bot)
    await seat_two_and_a_bot(club, bot)
    await bot.notifier.flush()
    since = club.fake.now()
    for _ in range(30):
        answer = await club.fake.slash(club.alice, club.channel, "table")
        assert answer.content == "The table is posted below."
    joined = await club.fake.slash(club.admin, club.channel, "join")
    assert "You sit down" in joined.content
    await bot.notifier.flush()
    published = (club.fake.count(CallKind.CHANNEL_MESSAGE_CREATE, channel_id=club.channel,
                                 since=since)
                 + club.fake.count(CallKind.CHANNEL_MESSAGE_EDIT, channel_id=club.channel,
                                   since=since))
    assert published <= 2  # the repost in flight, then the latest state
    embed = (await club.table_message(bot)).embeds[0]
    assert any(f"<@{club.admin}>" in field["value"] for field in embed["fields"]), embed

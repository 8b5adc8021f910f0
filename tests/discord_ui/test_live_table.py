"""The live table message keeps up with the game whatever members spam, and whatever way of
editing it fails."""

from __future__ import annotations

import pytest

from bot.discord_ui.app import HoldemBot
from tests.discord_ui.club import Club, control, seat_two_and_a_bot, wait_for_turn_or_end
from tests.discord_ui.heads_up import heads_up
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


async def next_player_can_act(club: Club, bot: HoldemBot, user: int) -> None:
    """``user``'s turn came and the table message offers it: a click on it is taken, not
    refused as a turn that is over."""
    assert await wait_for_turn_or_end(club, bot) == user
    message = await club.table_message(bot)
    answer = await club.fake.click(user, message.id, control(message, "check", "call"))
    assert answer.updated and "moved on" not in answer.all_text(), answer.all_text()


async def test_an_edit_cut_by_a_dropped_connection_falls_through_to_the_next_way(club: Club):
    bot, first, second = await heads_up(club)
    message = await club.table_message(bot)
    since = club.fake.now()
    club.fake.cut_connections("POST", "/interactions/")  # the click's answer with the table
    await club.fake.click(first, message.id, control(message, "check", "call"))
    assert club.fake.connections_cut
    await club.fake.wait_until(lambda: club.fake.count(
        CallKind.CHANNEL_MESSAGE_EDIT, channel_id=club.channel, since=since))
    await next_player_can_act(club, bot, second)


async def test_a_snapshot_that_no_way_could_show_is_shown_later(club: Club):
    bot, first, second = await heads_up(club)
    message = await club.table_message(bot)
    club.fake.cut_connections("POST", "/interactions/")  # the click's answer with the table
    # then every way left, for the action and for the turn that follows (a snapshot of its
    # own when it comes after the first edit started): the click's token once it is
    # acknowledged, and the channel edit
    club.fake.cut_connections("PATCH", "/webhooks/")
    club.fake.cut_connections("PATCH", f"/channels/{club.channel}/messages/", times=2)
    try:
        await club.fake.click(first, message.id, control(message, "check", "call"))
        await next_player_can_act(club, bot, second)
    finally:
        club.fake.mend_connections()

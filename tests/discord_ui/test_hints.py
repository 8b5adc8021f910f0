"""The coach's hint in **My cards** through the fake Discord: there at a cash table by
default, gone once the server turns hints off, and never in a message the channel shows."""

from __future__ import annotations

from bot.discord_ui.views.table_controls import MY_CARDS_ID
from tests.discord_ui.club import Club, deal_first_turn, play_to_showdown


async def test_my_cards_shows_a_hint_only_to_its_player_and_never_in_the_channel(club: Club):
    bot = await club.start_bot()
    await deal_first_turn(club, bot)
    for user in (club.alice, club.bob):
        mine = await club.fake.click(user, (await club.table_message(bot)).id, MY_CARDS_ID)
        assert mine.ephemeral and "your cards are" in mine.content
        assert "Hint: " in mine.content and "Equity: " in mine.content
    await play_to_showdown(club, bot, use_slash=False)
    await bot.notifier.flush()
    shown = club.channel_text()
    assert "Hint" not in shown and "Equity" not in shown
    assert not any("Hint" in message.content for user in (club.alice, club.bob)
                   for message in club.fake.dms(user))


async def test_hints_off_leaves_my_cards_without_one(club: Club):
    bot = await club.start_bot()
    answer = await club.fake.slash(club.admin, club.lounge, "settings", hints="off")
    assert answer.ephemeral and "Hints in My cards" in answer.all_text()
    assert (await bot.tables.guild_settings(club.guild_id)).hints is False
    await deal_first_turn(club, bot)
    mine = await club.fake.click(club.alice, (await club.table_message(bot)).id, MY_CARDS_ID)
    assert mine.ephemeral and "your cards are" in mine.content and "Hint" not in mine.content

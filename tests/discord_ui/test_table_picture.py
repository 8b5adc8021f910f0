"""Through the real discord.py client: the live table message's picture is drawn in the
channel's language, and uploaded again only when it changed."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord_ui.app import HoldemBot
from bot.discord_ui.embeds import TABLE_IMAGE_NAME
from bot.i18n import ENGLISH, Language, language_for
from bot.render import render_table
from tests.discord_ui.club import Club, seat_two_and_a_bot, start_hand
from tests.discord_ui.test_i18n_table_channel import speak
from tests.fake_discord import CallKind

pytestmark = pytest.mark.slow

CATCH_UP_SECONDS = 15.0
"""Only when a test gives up: the message catches up within an edit's round trip."""


async def picture_matches_the_table(club: Club, bot: HoldemBot, language: Language) -> None:
    """The table message's picture comes to be the one its table's state draws in
    ``language``. The bot may act (at once, at the test's tables) while the message catches
    up with the deal, so the message is compared with the table again until it shows it; a
    picture that never catches up fails after ``CATCH_UP_SECONDS``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + CATCH_UP_SECONDS
    while True:
        message = await club.table_message(bot)
        state = bot.tables.state(club.channel)
        assert state is not None
        [picture] = [attachment for attachment in message.attachments
                     if attachment.filename == TABLE_IMAGE_NAME]
        drawn = render_table(state, language=language)
        if picture.data == drawn or loop.time() > deadline:
            break
        await asyncio.sleep(0.005)
    assert picture.data == drawn


async def test_a_chinese_servers_table_picture_is_drawn_in_chinese(
        club: Club, monkeypatch: pytest.MonkeyPatch):
    speak(monkeypatch, "zh-CN", {})
    bot = await club.start_bot(draw_images=True)
    await seat_two_and_a_bot(club, bot)
    await start_hand(club, bot, club.alice)
    await picture_matches_the_table(club, bot, language_for("zh-CN"))


async def test_an_edit_that_leaves_the_picture_as_it_was_uploads_none(club: Club):
    """Leaving in the middle of a hand changes the table's words ("leaving"), not its
    picture: the edit that shows it keeps the picture the message has."""
    bot = await club.start_bot(draw_images=True)
    await seat_two_and_a_bot(club, bot)
    await start_hand(club, bot, club.alice)
    await picture_matches_the_table(club, bot, ENGLISH)
    since = club.fake.now()
    answer = await club.fake.slash(club.bob, club.channel, "leave")
    assert answer.ephemeral
    message = await club.table_message(bot)
    assert "leaving" in club.channel_text()
    edits = [call for call in club.fake.calls if call.time >= since and (
        call.path.endswith(f"/messages/{message.id}") or call.kind == CallKind.RESPONSE_EDIT)]
    assert edits and not any(call.files for call in edits)
    await picture_matches_the_table(club, bot, ENGLISH)

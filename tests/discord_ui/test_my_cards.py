"""My cards answers within Discord's 3 seconds however busy the picture worker is, and its
pre-action buttons always show the choice that holds."""

from __future__ import annotations

import time

import pytest

from bot.discord_ui.views.table_controls import MY_CARDS_ID
from bot.tables.pre_actions import PreActionKind
from engine.cards import pretty_card
from tests.discord_ui.club import Club, cards_in
from tests.discord_ui.heads_up import heads_up
from tests.fake_discord import InteractionRecord, StoredMessage

pytestmark = pytest.mark.slow

SUCCESS = 3
"""The style of a highlighted button (``discord.ButtonStyle.success``)."""


def button(message: StoredMessage, label: str) -> dict[str, object]:
    found = [component for component in message.walk_components()
             if component.get("label") == label]
    assert len(found) == 1, (label, message.components)
    return found[0]


async def told(club: Club, answer: InteractionRecord, words: str) -> None:
    """The note that follows a pre-action's answer on My cards says ``words``."""
    await club.fake.wait_until(lambda: words in answer.all_text())


def highlighted(message: StoredMessage) -> list[object]:
    return [component.get("label") for component in message.walk_components()
            if component.get("type") == 2 and component.get("style") == SUCCESS]


async def test_my_cards_answers_in_time_with_closed_dms_while_the_picture_worker_is_busy(
        club: Club):
    for user in (club.alice, club.bob):
        club.fake.close_dms(user)
    bot, _, waiting = await heads_up(club, draw_images=True, pictures_in_worker_process=True)
    worker = bot.pictures.worker if bot.pictures is not None else None
    assert worker is not None
    await worker.start()
    worker.tell((time.sleep, (600.0,)))  # busy until the test ends it
    try:
        table = await club.table_message(bot)
        mine = await club.fake.click(waiting, table.id, MY_CARDS_ID)  # NotAnswered if late
        cards = bot.tables.hole_cards(club.channel, waiting)
        assert mine.ephemeral and mine.message is not None and mine.attachment_names == []
        assert cards and cards_in(mine.all_text(), cards) == [pretty_card(c) for c in cards]

        check_fold = button(mine.message, "Check/Fold")
        answer = await club.fake.click(waiting, mine.message.id, str(check_fold["custom_id"]))
        await told(club, answer, "Pre-action: Check/Fold")
        choices = bot.tables.pre_action_choices(club.channel, waiting)
        assert choices is not None and choices.chosen is not None
        assert choices.chosen.kind is PreActionKind.CHECK_FOLD
    finally:
        worker.close()  # ends the busy process; the next picture starts a new one


async def test_my_cards_highlights_the_pre_action_that_holds_and_none_once_cleared(club: Club):
    bot, _, waiting = await heads_up(club)
    mine = await club.fake.slash(waiting, club.channel, "cards")
    assert mine.message is not None and highlighted(mine.message) == []
    check = str(button(mine.message, "Check")["custom_id"])

    chosen = await club.fake.click(waiting, mine.message.id, check)
    await told(club, chosen, "Pre-action: Check")
    assert highlighted(club.fake.message(mine.message.id)) == ["Check"]

    cleared = await club.fake.click(waiting, mine.message.id, check)  # pressed again
    await told(club, cleared, "Pre-action cleared")
    assert highlighted(club.fake.message(mine.message.id)) == []
    choices = bot.tables.pre_action_choices(club.channel, waiting)
    assert choices is not None and choices.chosen is None

"""Every button and form names the turn it was shown for: double clicks, stale buttons and
old forms apply at most once, and a click nobody handles any more is still answered."""

from __future__ import annotations

import asyncio

import pytest

from tests.discord_ui.club import (
    Club,
    control,
    deal_first_turn,
    expect_refusal,
    seat_two_and_a_bot,
    start_hand,
    wait_for_turn_or_end,
)

pytestmark = pytest.mark.slow

MOVED_ON = "The table has moved on"


async def test_two_clicks_at_once_on_one_button_apply_exactly_one_action(club: Club):
    bot = await club.start_bot()
    user = await deal_first_turn(club, bot)
    table = await club.table_message(bot)
    button = control(table, "check", "call")
    answers = await asyncio.gather(*(club.fake.click(user, table.id, button) for _ in range(2)))
    # The applied one is answered with the table (UPDATE_MESSAGE), the other with a refusal.
    assert sorted(answer.response_type for answer in answers) == [4, 7]
    refused = next(answer for answer in answers if not answer.updated)  # the one not applied
    assert refused.ephemeral and MOVED_ON in refused.content


async def test_a_late_click_on_an_old_turns_button_changes_nothing(club: Club):
    bot = await club.start_bot()
    user = await deal_first_turn(club, bot)
    table = await club.table_message(bot)
    # What a lagging client still shows: the table message as it was before the click.
    old = club.fake.world.create_message(club.channel, {"components": table.components}, [])
    old_button = control(old, "check", "call")
    first = await club.fake.click(user, table.id, old_button)
    assert first.updated
    await wait_for_turn_or_end(club, bot)
    await expect_refusal(club, bot, club.fake.click(user, old.id, old_button), MOVED_ON)


async def test_a_form_opened_in_one_hand_cannot_raise_in_the_next(club: Club):
    bot = await club.start_bot()
    user = await deal_first_turn(club, bot)
    table = await club.table_message(bot)
    opened = await club.fake.click(user, table.id, control(table, "bet"))
    form = opened.modal
    field = form["components"][0]["components"][0]["custom_id"]
    folded = await club.fake.click(user, table.id, control(table, "fold"))
    assert folded.updated
    while await wait_for_turn_or_end(club, bot) is not None:  # the others play it out
        current = await club.table_message(bot)
        somebody = bot.notifier.turn(club.channel)
        assert somebody is not None
        await club.fake.click(somebody[0], current.id, control(current, "fold"))
    await start_hand(club, bot, club.bob)
    await wait_for_turn_or_end(club, bot)
    await expect_refusal(club, bot, club.fake.submit_modal(user, form["custom_id"],
                                                           {field: "100"}), MOVED_ON)


async def test_buttons_and_forms_of_an_older_version_or_a_restart_are_answered(club: Club):
    bot = await club.start_bot()
    await seat_two_and_a_bot(club, bot)
    old = club.fake.world.create_message(club.channel, {"components": [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "Check", "custom_id": "holdem:check_call"}]}]}, [])
    answer = await club.fake.click(club.alice, old.id, "holdem:check_call")
    assert answer.ephemeral and MOVED_ON in answer.content

    await start_hand(club, bot, club.alice)
    user = await wait_for_turn_or_end(club, bot)
    assert user is not None
    table = await club.table_message(bot)
    opened = await club.fake.click(user, table.id, control(table, "bet"))
    form = opened.modal
    field = form["components"][0]["components"][0]["custom_id"]
    await club.fake.stop_client()
    await club.start_bot(seed=3)
    late = await club.fake.submit_modal(user, form["custom_id"], {field: "100"})
    assert late.ephemeral and late.content  # answered, not dropped

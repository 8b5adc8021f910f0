"""Hole cards and private notes by DM never hold up a table, whatever Discord does with them."""

from __future__ import annotations

import time

import pytest

from bot.discord_ui.views.table_controls import MY_CARDS_ID
from engine.cards import pretty_card
from tests.discord_ui.club import Club, cards_in, seat_two_and_a_bot, start_hand
from tests.fake_discord import CallKind

pytestmark = pytest.mark.slow


async def test_failing_dms_do_not_hold_up_the_first_turn(club: Club):
    for user in (club.alice, club.bob):
        club.fake.break_dms(user)  # Discord answers 500: discord.py retries for ~25 s
    bot = await club.start_bot()
    await seat_two_and_a_bot(club, bot)
    started = time.monotonic()
    await start_hand(club, bot, club.alice)

    def play_goes_on() -> bool:  # a person was asked to act, or someone acted
        state = bot.tables.state(club.channel)
        return bot.notifier.turn(club.channel) is not None or bool(state and state.last_action)

    await club.fake.wait_until(play_goes_on, timeout=3)
    assert time.monotonic() - started < 3

    def told_to_use_my_cards() -> bool:
        return bool(bot.notifier.has_notices(club.alice))

    await club.fake.wait_until(told_to_use_my_cards, timeout=3)
    cards = bot.tables.hole_cards(club.channel, club.alice)
    mine = await club.fake.click(club.alice, (await club.table_message(bot)).id, MY_CARDS_ID)
    assert mine.ephemeral and "My cards" in mine.content
    assert cards and cards_in(mine.content, cards) == [pretty_card(card) for card in cards]


async def test_a_dm_channel_is_opened_once_per_person_beyond_discord_py_s_cache(club: Club):
    # discord.py keeps 128 DM channels; a bot with more players would open one per DM.
    people = [club.fake.add_user(f"player{number}") for number in range(140)]
    bot = await club.start_bot()
    since = club.fake.now()
    for round_number in (1, 2):
        for person in people:  # one at a time: each DM within the tests' short deadline
            await bot.notifier.tell(club.channel, person, f"note {round_number}")
            await club.fake.wait_until(
                lambda person=person, sent=round_number: len(club.fake.dms(person)) == sent)
    assert club.fake.count(CallKind.DM_CHANNEL_OPEN, since=since) == len(people)

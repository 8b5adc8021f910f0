"""Tables that keep moving (issue 28), end to end through the fake Discord: the time bank on
the table, the automatic sit-out and coming back, pre-actions from My cards."""

from __future__ import annotations

import asyncio
import contextlib
import re

import pytest

from bot.discord_ui.app import HoldemBot
from bot.tables.settings import TableSettings
from tests.discord_ui.club import Club, start_hand

pytestmark = pytest.mark.slow

TIMER, BANK = 1.0, 1.0
MOVING = TableSettings.instant(turn_timeout=TIMER, time_bank=BANK, next_hand_delay=0.2)
"""Short clocks, and the next hand dealt by itself."""


async def keep_playing(club: Club, bot: HoldemBot, user: int) -> None:
    """``user`` checks or calls by slash command whenever it is their turn."""
    while True:
        await club.fake.wait_until(lambda: (bot.notifier.turn(club.channel) or (0,))[0] == user,
                                   timeout=120)
        _, prompt = bot.notifier.turn(club.channel) or (None, None)
        if prompt is not None:
            await club.fake.slash(user, club.channel,
                                  "check" if prompt.legal.can_check else "call")
        await asyncio.sleep(0.01)


def seat_of(bot: HoldemBot, club: Club, user: int):
    state = bot.tables.state(club.channel)
    assert state is not None
    return state.seat_of(user)


async def test_a_person_who_never_acts_uses_the_bank_sits_out_and_comes_back(club: Club):
    bot = await club.start_bot(table_settings=MOVING)
    fake, alice = club.fake, club.alice
    for user in (alice, club.bob):
        await fake.slash(user, club.channel, "join")
    await fake.slash(alice, club.channel, "addbot", level="easy")
    bob = asyncio.get_running_loop().create_task(keep_playing(club, bot, club.bob))
    try:
        def banking() -> bool:
            state = bot.tables.state(club.channel)
            return state is not None and state.time_bank_deadline is not None

        await fake.wait_until(banking, timeout=30)
        state = bot.tables.state(club.channel)
        _, prompt = bot.notifier.turn(club.channel) or (None, None)
        assert state.to_act.user_id == alice and prompt is not None
        assert state.time_bank_deadline >= prompt.deadline + BANK * 0.9  # after the timer
        await bot.notifier.flush()
        assert f"<@{alice}> to act, using their time bank: <t:" in club.channel_text()

        await fake.wait_until(lambda: seat_of(bot, club, alice).sitting_out, timeout=30)
        await fake.wait_until(lambda: any("sitting out" in m.content for m in fake.dms(alice)))
        await bot.notifier.flush()
        assert re.search(rf"<@{alice}> · [0-9,]+ · sitting out", club.channel_text())
        dealt = bot.tables.state(club.channel).hands_dealt
        # Three whole hands within the minute: nobody waits for her any more.
        await fake.wait_until(lambda: bot.tables.state(club.channel).hands_dealt >= dealt + 4,
                              timeout=60)
        assert not seat_of(bot, club, alice).in_hand
        assert (bot.notifier.turn(club.channel) or (0,))[0] != alice

        answer = await fake.slash(alice, club.channel, "cards")
        assert answer.ephemeral and "I'm back" in str(answer.components)
        back = next(custom_id for custom_id in answer.message.custom_ids()
                    if custom_id.startswith("holdem:back:"))
        answer = await fake.click(alice, answer.message.id, back)
        assert answer.ephemeral and "You are back in" in answer.all_text()
        assert not seat_of(bot, club, alice).sitting_out
        await fake.wait_until(lambda: seat_of(bot, club, alice).in_hand
                              and bot.tables.state(club.channel).is_hand_running, timeout=30)
    finally:
        bob.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await bob
    report = await bot.ledger.audit()
    assert report.ok, report.problems


async def pre_action_button(club: Club, user: int, label: str) -> tuple[int, str]:
    """``user`` opens My cards (/cards): the message and the custom id of a pre-action."""
    answer = await club.fake.slash(user, club.channel, "cards")
    assert answer.ephemeral and answer.message is not None
    for component in answer.message.walk_components():
        if component.get("label") == label:
            return answer.message.id, component["custom_id"]
    raise AssertionError(f"no {label!r} in {answer.components}")


async def heads_up(club: Club) -> tuple[HoldemBot, int, int]:
    """Alice and Bob alone at the table, the first hand dealt: the bot, the person to act
    first (the button) and the other."""
    bot = await club.start_bot()
    for user in (club.alice, club.bob):
        await club.fake.slash(user, club.channel, "join")
    await start_hand(club, bot, club.alice)
    await club.fake.wait_until(lambda: bot.notifier.turn(club.channel) is not None)
    first = bot.notifier.turn(club.channel)[0]
    return bot, first, club.bob if first == club.alice else club.alice


async def test_pre_action_check_fold_applies_at_once_and_a_raise_clears_a_check(club: Club):
    bot, first, other = await heads_up(club)
    fake = club.fake

    message, check_fold = await pre_action_button(club, other, "Check/Fold")
    answer = await fake.click(other, message, check_fold)
    assert answer.ephemeral and "Pre-action: Check/Fold" in answer.all_text()
    answer = await fake.slash(first, club.channel, "raise", to=60)
    assert answer.content == "You raise to 60."
    await fake.wait_until(lambda: not bot.tables.state(club.channel).is_hand_running)
    assert "fold" in str(bot.tables.state(club.channel).last_action)  # no wait for a click
    answer = await fake.click(other, message, check_fold)  # the hand is over
    assert answer.ephemeral and "The hand has moved on" in answer.all_text()

    await start_hand(club, bot, club.alice)  # the button moved: ``other`` acts first now
    await fake.wait_until(lambda: (bot.notifier.turn(club.channel) or (0,))[0] == other)
    message, check = await pre_action_button(club, first, "Check")
    await fake.click(first, message, check)
    await fake.slash(other, club.channel, "raise", to=60)
    await fake.wait_until(lambda: (bot.notifier.turn(club.channel) or (0,))[0] == first)
    await fake.wait_until(lambda: any("was cleared" in m.content for m in fake.dms(first)))
    await fake.slash(first, club.channel, "fold")
    report = await bot.ledger.audit()
    assert report.ok, report.problems


@pytest.mark.parametrize(("locale", "sentence"), [
    ("en-US", "It is your turn now"),
    ("zh-CN", "现在轮到你了"),
    ("zh-TW", "現在輪到你了"),
])
async def test_a_pre_action_on_ones_own_turn_is_refused_in_the_members_language(
        club: Club, locale: str, sentence: str):
    bot, first, other = await heads_up(club)
    fake = club.fake
    message, check = await pre_action_button(club, other, "Check")
    await fake.slash(first, club.channel, "call")
    await fake.wait_until(lambda: (bot.notifier.turn(club.channel) or (0,))[0] == other)
    fake.world.users[other].locale = locale
    before = bot.tables.state(club.channel)
    answer = await fake.click(other, message, check)
    assert answer.ephemeral and sentence in answer.all_text(), answer.all_text()
    assert bot.tables.state(club.channel) == before

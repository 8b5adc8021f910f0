"""Tables that keep moving (issue 28), end to end through the fake Discord: the time bank on
the table, the automatic sit-out and coming back, pre-actions from My cards."""

from __future__ import annotations

import asyncio
import contextlib
import re

import pytest

from bot.discord_ui.app import HoldemBot
from bot.tables.settings import TableSettings
from tests.discord_ui.club import Club, start_hand, wait_for_turn_or_end
from tests.fake_discord import CallKind, RestCall

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
        assert re.search(rf"<@{alice}>[^\n]* · sitting out", club.channel_text())
        dealt = bot.tables.state(club.channel).hands_dealt
        # Three whole hands within the minute: nobody waits for her any more.
        await fake.wait_until(lambda: bot.tables.state(club.channel).hands_dealt >= dealt + 4,
                              timeout=60)
        assert not seat_of(bot, club, alice).in_hand
        assert (bot.notifier.turn(club.channel) or (0,))[0] != alice

        answer = await fake.slash(alice, club.channel, "cards")
        assert answer.ephemeral and "I'm back" in str(answer.components)
        (told,) = [m for m in fake.dms(alice) if "sitting out" in m.content]  # told once
        back = f"holdem:back:{club.channel}"
        assert told.find_component(back)["label"] == "I'm back"
        answer = await fake.click(alice, told.id, back)  # from the DM
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


def pings_to(club: Club, user: int) -> list[RestCall]:
    """The turn pings sent so far to ``user``, by DM or in the channel."""
    dm = next((channel.id for channel in club.fake.world.channels.values()
               if channel.recipient_id == user), None)

    def to_them(call: RestCall) -> bool:
        if call.kind is CallKind.DM_MESSAGE_CREATE:
            return call.channel_id == dm
        return call.kind is CallKind.CHANNEL_MESSAGE_CREATE and f"<@{user}>" in call.json["content"]

    return [call for call in club.fake.calls
            if isinstance(call.json, dict) and "it is your turn" in str(call.json.get("content"))
            and call.status < 400 and to_them(call)]


async def act_when_asked(club: Club, bot: HoldemBot, user: int) -> None:
    await club.fake.wait_until(lambda: (bot.notifier.turn(club.channel) or (0,))[0] == user)
    _, prompt = bot.notifier.turn(club.channel) or (None, None)
    assert prompt is not None
    await club.fake.slash(user, club.channel, "check" if prompt.legal.can_check else "call")


async def test_notify_on_pings_once_per_turn_by_dm_and_never_within_the_grace(club: Club):
    bot, first, other = await heads_up(club)
    pings, fake = bot.notifier.turn_pings, club.fake
    answer = await fake.slash(other, club.channel, "notify", ping="on")
    assert answer.ephemeral and "Turn pings on" in answer.content
    assert other in await bot.ledger.turn_ping_users()
    pings.after = 0.2
    await act_when_asked(club, bot, first)  # the button calls; the big blind's turn opens
    await fake.wait_until(lambda: len(pings_to(club, other)) == 1)
    opened = fake.count(CallKind.DM_CHANNEL_OPEN)
    (ping,) = pings_to(club, other)
    assert ping.global_limited and ping.kind is CallKind.DM_MESSAGE_CREATE  # one call
    assert f"<#{club.channel}>: it is your turn" in ping.json["content"]
    await act_when_asked(club, bot, other)  # checks: the flop

    pings.after = 600.0  # from now on nobody waits long enough for a ping
    assert await wait_for_turn_or_end(club, bot) == other  # the flop: the big blind first
    assert pings.waiting(club.channel)
    await act_when_asked(club, bot, other)  # within the grace
    await fake.wait_until(lambda: not pings.waiting(club.channel))  # no ping for that turn
    assert len(pings_to(club, other)) == 1 and pings_to(club, first) == []
    assert fake.count(CallKind.DM_CHANNEL_OPEN) == opened

    answer = await fake.slash(other, club.channel, "notify", ping="off")
    assert answer.content == "Turn pings off." and other not in pings.wanted
    assert other not in await bot.ledger.turn_ping_users()


async def test_with_dms_closed_the_ping_is_a_mention_deleted_once_they_act(club: Club):
    club.fake.world.users[club.alice].dms_open = False
    club.fake.world.users[club.bob].dms_open = False
    bot, first, other = await heads_up(club)
    pings, fake = bot.notifier.turn_pings, club.fake
    await fake.slash(other, club.channel, "notify", ping="on")
    pings.after = 0.2
    await act_when_asked(club, bot, first)
    await fake.wait_until(lambda: len(pings_to(club, other)) == 1)
    (ping,) = pings_to(club, other)
    assert ping.kind is CallKind.CHANNEL_MESSAGE_CREATE
    assert [int(user) for user in ping.json["allowed_mentions"]["users"]] == [other]
    await act_when_asked(club, bot, other)
    await fake.wait_until(lambda: fake.count(CallKind.CHANNEL_MESSAGE_DELETE) == 1)
    assert not any("it is your turn" in message.content
                   for message in fake.channel_messages(club.channel))


@pytest.mark.parametrize(("locale", "words", "off"), [
    ("en-US", ("Time bank", "5 s, 5 s back every 5 hands", "Seat freed after 3 hands"), "Off"),
    ("zh-CN", ("时间银行", "5 秒，每 5 手补回 5 秒", "暂离 3 手后让出座位"), "关闭"),
    ("zh-TW", ("時間銀行", "5 秒，每 5 手補回 5 秒", "暫離 3 手後讓出座位"), "關閉"),
])
async def test_settings_time_bank_and_sit_out_hands_reach_the_open_table_and_the_server(
        club: Club, locale: str, words: tuple[str, ...], off: str):
    bot = await club.start_bot()
    await club.fake.slash(club.alice, club.channel, "join")
    club.fake.world.users[club.admin].locale = locale
    answer = await club.fake.slash(club.admin, club.channel, "settings", time_bank=5,
                                   sit_out_hands=3)
    text = answer.all_text()
    assert answer.ephemeral and all(word in text for word in words), text
    table = bot.tables.table_settings(club.channel)
    assert (table.time_bank, table.sit_out_hands) == (5.0, 3)
    server = await bot.tables.guild_settings(club.guild_id)
    assert (server.time_bank, server.sit_out_hands) == (5.0, 3)
    answer = await club.fake.slash(club.admin, club.channel, "settings", time_bank=0)
    assert off in answer.all_text()

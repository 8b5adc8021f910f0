"""A click on the table is answered with the updated table (UPDATE_MESSAGE) and its token
carries later edits, so the bot token's global rate limit pays for neither; when no token is
fresh, or Discord refuses one, the table is edited through the channel as before."""

from __future__ import annotations

import pytest

from bot.discord_ui import table_clicks
from bot.discord_ui.app import HoldemBot
from tests.discord_ui.club import Club, control, deal_first_turn, wait_for_turn_or_end
from tests.fake_discord import CallKind, InteractionRecord, RestCall, StoredMessage

pytestmark = pytest.mark.slow


def field(message: StoredMessage, name: str) -> str | None:
    embed = message.embeds[0]
    return next((item["value"] for item in embed.get("fields", []) if item["name"] == name),
                None)


async def click_check_or_call(club: Club, bot: HoldemBot,
                              user: int) -> tuple[StoredMessage, InteractionRecord]:
    """The person checks or calls on the table message; returns once the table settled."""
    table = await club.table_message(bot)
    answer = await club.fake.click(user, table.id, control(table, "check", "call"))
    return table, answer


async def show_current_state(bot: HoldemBot, channel_id: int) -> None:
    """A change no click carries (a bot's action, a timer): the table is shown again."""
    state = bot.tables.state(channel_id)
    assert state is not None
    await bot.notifier.table_changed(state)
    await bot.notifier.flush()


def webhook_calls(club: Club, since: float) -> list[RestCall]:
    return [call for call in club.fake.calls
            if call.time >= since and call.path.startswith("/webhooks/")]


async def test_a_click_is_answered_with_the_table_its_action_left(club: Club):
    bot = await club.start_bot()
    user = await deal_first_turn(club, bot)
    since = club.fake.now()
    table, answer = await click_check_or_call(club, bot, user)

    assert answer.response_type == 7  # UPDATE_MESSAGE: the table itself is the answer
    shown = club.fake.message(table.id)  # as the answer left it, before any later edit
    name = "alice" if user == club.alice else "bob"
    last_action = field(shown, "Last action")
    assert last_action is not None and last_action.startswith(name), last_action
    await wait_for_turn_or_end(club, bot)
    assert club.fake.count(CallKind.CHANNEL_MESSAGE_EDIT, since=since) == 0
    assert not [call for call in club.fake.global_limited(since=since)
                if call.channel_id == club.channel]


async def test_a_click_right_after_an_edit_is_answered_with_the_table_at_once(club: Club):
    """The answer to a click does not wait out the interval between edits (Discord does not
    count it against the channel's edits): with an interval longer than the 2 s after which
    a click is deferred, the click is still answered with the table, not a deferral."""
    bot = await club.start_bot(edit_interval=2.5)
    user = await deal_first_turn(club, bot)
    _, answer = await click_check_or_call(club, bot, user)  # right after the deal's edit
    assert answer.response_type == 7 and not answer.deferred


async def test_later_edits_go_through_the_clicks_token(club: Club):
    bot = await club.start_bot()
    user = await deal_first_turn(club, bot)
    _, answer = await click_check_or_call(club, bot, user)
    await wait_for_turn_or_end(club, bot)
    since = club.fake.now()
    await show_current_state(bot, club.channel)
    assert club.fake.count(CallKind.RESPONSE_EDIT, since=since) == 1
    assert club.fake.count(CallKind.CHANNEL_MESSAGE_EDIT, since=since) == 0
    assert answer.token in next(call.path for call in club.fake.calls
                                if call.kind is CallKind.RESPONSE_EDIT and call.time >= since)


async def test_a_slash_commands_table_change_goes_through_a_clicks_token(club: Club):
    bot = await club.start_bot()
    user = await deal_first_turn(club, bot)
    await click_check_or_call(club, bot, user)
    user = await wait_for_turn_or_end(club, bot)
    assert user is not None, "the hand ended on the first click"
    prompt = bot.notifier.turn(club.channel)
    assert prompt is not None
    since = club.fake.now()
    answer = await club.fake.slash(user, club.channel,
                                   "check" if prompt[1].legal.can_check else "call")
    assert answer.ephemeral and answer.content.startswith("You ")
    await wait_for_turn_or_end(club, bot)
    assert club.fake.count(CallKind.RESPONSE_EDIT, since=since) >= 1
    assert club.fake.count(CallKind.CHANNEL_MESSAGE_EDIT, since=since) == 0


async def test_a_refused_token_falls_back_to_a_channel_edit(club: Club):
    bot = await club.start_bot()
    user = await deal_first_turn(club, bot)
    _, answer = await click_check_or_call(club, bot, user)
    await wait_for_turn_or_end(club, bot)
    answer.token_expired = True  # Discord now answers 401 Invalid Webhook Token
    since = club.fake.now()
    await show_current_state(bot, club.channel)
    assert [call.status for call in webhook_calls(club, since)] == [401]
    assert club.fake.count(CallKind.CHANNEL_MESSAGE_EDIT, since=since) == 1
    await show_current_state(bot, club.channel)  # the refused token is not tried again
    assert club.fake.count(CallKind.CHANNEL_MESSAGE_EDIT, since=since) == 2
    assert len(webhook_calls(club, since)) == 1


async def test_a_token_near_its_fifteen_minutes_is_not_used(
    club: Club, monkeypatch: pytest.MonkeyPatch
):
    bot = await club.start_bot()
    user = await deal_first_turn(club, bot)
    await click_check_or_call(club, bot, user)
    await wait_for_turn_or_end(club, bot)
    # As if the click were older than Discord's lifetime less the safety margin.
    monkeypatch.setattr(table_clicks, "TOKEN_MARGIN_SECONDS", table_clicks.TOKEN_LIFETIME_SECONDS)
    since = club.fake.now()
    await show_current_state(bot, club.channel)
    assert club.fake.count(CallKind.CHANNEL_MESSAGE_EDIT, since=since) == 1
    assert webhook_calls(club, since) == []

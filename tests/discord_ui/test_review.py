"""/review through the fake Discord: a deferred, private answer pricing the member's own
decisions, in their language; a hand that is not there or not theirs is refused, privately,
changing nothing."""

from __future__ import annotations

from bot.discord_ui.app import HoldemBot
from tests.discord_ui.club import Club, deal_first_turn, expect_refusal, play_to_showdown
from tests.fake_discord import InteractionRecord


async def _reviewed(club: Club, user: int, **options: object) -> InteractionRecord:
    """``/review`` as ``user`` in the lounge, once its deferred answer has come."""
    answer = await club.fake.slash(user, club.lounge, "review", **options)
    assert answer.deferred and answer.ephemeral
    await club.fake.wait_until(lambda: bool(answer.all_text()), timeout=10)
    return answer


async def _played_hand(club: Club) -> tuple[HoldemBot, int]:
    bot = await club.start_bot()
    await deal_first_turn(club, bot)
    await play_to_showdown(club, bot, use_slash=False)
    state = bot.tables.state(club.channel)
    assert state is not None
    return bot, state.hand_number


async def test_review_prices_the_members_latest_hand_privately(club: Club):
    _, number = await _played_hand(club)
    text = (await _reviewed(club, club.alice)).all_text()
    assert f"Hand #{number}, your decisions" in text
    assert "Preflop, " in text and "expected value: " in text
    assert "Expected values count from each decision" in text
    assert not club.fake.channel_messages(club.lounge)  # nothing public


async def test_review_in_chinese(club: Club):
    _, number = await _played_hand(club)
    club.fake.world.users[club.alice].locale = "zh-CN"
    club.fake.world.users[club.bob].locale = "zh-TW"
    simplified = (await _reviewed(club, club.alice, hand=number)).all_text()
    assert f"牌局 #{number}，你的决定" in simplified
    assert "翻牌前，" in simplified and "期望值：" in simplified
    traditional = (await _reviewed(club, club.bob, hand=number)).all_text()
    assert f"牌局 #{number}，你的決定" in traditional and "期望值：" in traditional


async def test_review_refuses_an_unknown_hand_and_someone_elses(club: Club):
    bot, number = await _played_hand(club)
    await expect_refusal(club, bot, club.fake.slash(club.alice, club.lounge, "review",
                                                    hand=number + 1000),
                         f"There is no finished hand #{number + 1000} in this server.")
    await expect_refusal(club, bot, club.fake.slash(club.admin, club.channel, "review",
                                                    hand=number),
                         f"You did not play hand #{number}")

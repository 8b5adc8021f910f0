"""/review through the fake Discord: a deferred, private answer pricing the member's own
decisions, in their language; a hand that is not there or not theirs is refused, privately,
changing nothing."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.discord_ui.app import HoldemBot
from bot.render.review_chart import HEIGHT, WIDTH, render_review_chart
from engine.coach import Review, review
from engine.hand_record import RecordedHand
from engine.replay import apply_actions, hand_with_cards
from tests.discord_ui.club import Club, deal_first_turn, expect_refusal, play_to_showdown
from tests.fake_discord import InteractionRecord


async def _reviewed(club: Club, user: int, **options: object) -> InteractionRecord:
    """``/review`` as ``user`` in the lounge, once its deferred answer has come."""
    answer = await club.fake.slash(user, club.lounge, "review", **options)
    assert answer.deferred and answer.ephemeral
    await club.fake.wait_until(lambda: bool(answer.all_text()), timeout=10)
    return answer


async def _played_hand(club: Club, *, draw_images: bool = False) -> tuple[HoldemBot, int]:
    bot = await club.start_bot(draw_images=draw_images)
    await deal_first_turn(club, bot)
    await play_to_showdown(club, bot, use_slash=False)
    state = bot.tables.state(club.channel)
    assert state is not None
    return bot, state.hand_number


async def test_review_prices_the_members_latest_hand_privately(club: Club):
    _, number = await _played_hand(club, draw_images=True)
    answer = await _reviewed(club, club.alice)
    text = answer.all_text()
    assert answer.attachment_names == ["review.png"]  # the equities, decision by decision
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


def test_the_chart_is_a_picture_of_the_decisions_and_there_is_none_without_them():
    hand = hand_with_cards([1000, 1000], ["7h 7d", "Ks 5c"], "Kd 5h 2c 9s 3d")
    apply_actions(hand, ["raise 30", "call", "bet 40", "call", "bet 100", "call", "bet 300",
                         "call"])
    record = RecordedHand.from_hand(hand)
    chart = Image.open(io.BytesIO(render_review_chart(review(record, 0))))
    assert chart.format == "PNG" and chart.size == (WIDTH, HEIGHT)
    with pytest.raises(ValueError, match="no chart"):
        render_review_chart(Review(1, ()))

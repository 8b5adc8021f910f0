"""Straddles end to end through the fake Discord: /settings straddle:utg, then a hand of
three people and a bot dealt with the straddle, which /history writes as trackers read it."""

from __future__ import annotations

from bot.render.replay_frames import replay_frames
from bot.render.table_image import render_table
from engine.hand import Straddle
from engine.hand_record import RecordedHand
from engine.replay import apply_actions, hand_with_cards
from tests.discord_ui.club import Club, play_to_showdown, start_hand


async def test_a_mandatory_utg_straddle_is_dealt_and_in_the_history(club: Club):
    bot = await club.start_bot(draw_images=True)
    people = (club.alice, club.bob, club.admin)
    answer = await club.fake.slash(club.admin, club.lounge, "settings", straddle="utg",
                                   straddle_mandatory="on")
    assert "Two big blinds under the gun, every hand" in answer.all_text()
    settings = await bot.tables.guild_settings(club.guild_id)
    assert (settings.straddle, settings.straddle_mandatory) == ("utg", True)

    for user in people:
        joined = await club.fake.slash(user, club.channel, "join")
        assert "You sit down" in joined.content
    added = await club.fake.slash(club.alice, club.channel, "addbot", level="easy")
    assert added.content.startswith("Seated ")
    await start_hand(club, bot, club.alice)

    state = bot.tables.state(club.channel)
    assert state is not None and state.is_hand_running
    assert sorted(seat.bet for seat in state.seats) == [0, 10, 20, 40]  # blinds and straddle
    straddler = next(seat for seat in state.seats if seat.bet == 40)
    await bot.notifier.flush()
    picture = await club.table_message(bot)
    assert picture.attachment_names  # the table picture, the straddle drawn as a bet

    await play_to_showdown(club, bot, use_slash=False, players=people)
    history = await club.fake.slash(club.alice, club.channel, "history")
    (name,) = history.attachment_names
    text = history.message.attachment(name).decode()
    assert f"{straddler.name}: posts straddle 40\n" in text
    assert text.index("posts big blind 20") < text.index("posts straddle 40")
    assert (await bot.ledger.audit()).ok


def test_the_replay_tells_the_straddle_and_draws_it_as_a_bet():
    hand = hand_with_cards([400] * 4, ["Ah As", "Kh Ks", "Qh Qs", "7c 2d"], "2h 5d 9c Js 3h",
                           button=0, small_blind=1, big_blind=2, straddle=Straddle.BUTTON)
    apply_actions(hand, ["fold", "fold", "fold"])
    record = RecordedHand.from_hand(hand)
    first = replay_frames(record, ["ann", "bo", "cy", "di"], 0, title=1)[0].state
    assert [seat.bet for seat in first.seats] == [4, 1, 2, 0]
    assert "ann posts a straddle of 4" in str(first.last_action)
    assert render_table(first)  # the straddle's chips drawn in front of the button

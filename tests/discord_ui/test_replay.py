"""/replay through the fake Discord: a deferred answer with the replay attached, as the
member may see it (no hole card that was not shown), and a clear refusal for a hand they may
not replay."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
from PIL import Image

from bot.discord_ui import replies
from bot.render.card_faces import card_back, card_face
from bot.render.table_image import SHOWN_CARD, hole_card_boxes
from engine.hand_record import RecordedHand
from tests.discord_ui.club import (
    Club,
    expect_refusal,
    play_to_showdown,
    seat_two_and_a_bot,
    start_hand,
)
from tests.fake_discord import InteractionRecord
from tests.render.images import card_difference, gif_frames

pytestmark = pytest.mark.slow


async def played_hand(club: Club, **options: object) -> tuple[object, int, RecordedHand]:
    """Alice, bob and a bot play one hand to the end; the bot, the hand's id and its record."""
    bot = await club.start_bot(**{"draw_images": True, **options})
    await seat_two_and_a_bot(club, bot)
    await start_hand(club, bot, club.alice)
    await play_to_showdown(club, bot, use_slash=False)
    (summary,) = await bot.ledger.recent_hands(club.guild_id, club.alice, limit=1)
    record = await bot.ledger.hand_history(summary.hand_id)
    assert record is not None and record.replay is not None
    return bot, summary.hand_id, RecordedHand.from_json(record.replay)


async def replay(club: Club, user: int, channel: int | None = None,
                 **options: object) -> InteractionRecord:
    """``/replay`` as ``user``: the answer once the deferred "thinking" message is replaced
    (the fake refuses a first answer later than Discord's 3 s)."""
    answer = await club.fake.slash(user, channel or club.channel, "replay", **options)
    if answer.deferred:
        await club.fake.wait_until(lambda: bool(answer.message and answer.message.content))
    return answer


def looks_like(region: Image.Image, sprite: Image.Image) -> bool:
    """The region shows ``sprite``, within the GIF palette's rounding."""
    return card_difference(region, sprite) < 3


async def test_a_member_not_in_the_hand_sees_no_hole_card_that_was_not_shown(club: Club):
    _, hand_id, record = await played_hand(club)
    answer = await replay(club, club.admin, hand=hand_id)
    assert answer.deferred and answer.ephemeral
    assert answer.attachment_names == [f"hand-{hand_id}.gif", f"hand-{hand_id}.png"]
    frames = gif_frames(answer.message.attachment(f"hand-{hand_id}.gif"))
    assert len(frames) > 5
    shown = record.shown_seats()
    seats = len(record.stacks)
    backs = 0
    for frame in frames:
        for seat in range(seats):
            regions = [frame.crop(box) for box in hole_card_boxes(seat, seats)]
            faces = [card_face(card, *SHOWN_CARD) for card in record.hole_cards[seat]]
            if seat not in shown:
                assert not any(looks_like(region, face)
                               for region, face in zip(regions, faces, strict=True))
            backs += all(looks_like(region, card_back(*SHOWN_CARD)) for region in regions)
    assert backs > 0  # hidden hands are there, face down
    assert all(looks_like(frames[0].crop(box), card_back(*SHOWN_CARD))
               for seat in range(seats) for box in hole_card_boxes(seat, seats))


async def test_a_player_replays_their_latest_hand_with_their_cards_face_up(club: Club):
    bot, hand_id, record = await played_hand(club)
    answer = await replay(club, club.alice)
    assert answer.ephemeral and answer.content == f"Hand #{hand_id}:"
    first = gif_frames(answer.message.attachment(f"hand-{hand_id}.gif"))[0]
    seat = [p.player for p in (await bot.ledger.hand_history(hand_id)).participants].index(
        club.alice)
    seats = len(record.stacks)
    for box, card in zip(hole_card_boxes(seat, seats), record.hole_cards[seat], strict=True):
        assert looks_like(first.crop(box), card_face(card, *SHOWN_CARD))


async def test_share_posts_in_the_channel_only_a_replay_whose_cards_are_public(club: Club):
    bot, hand_id, record = await played_hand(club)
    history = await bot.ledger.hand_history(hand_id)
    seats = {p.player: seat for seat, p in enumerate(history.participants)}
    shown = record.shown_seats()
    spectator = await replay(club, club.admin, hand=hand_id, share=True)
    assert not spectator.ephemeral and spectator.attachment_names
    for user in (club.alice, club.bob):
        answer = await replay(club, user, hand=hand_id, share=True)
        if seats[user] in shown:
            assert not answer.ephemeral and answer.attachment_names
        else:
            assert answer.ephemeral and "were never shown" in answer.content
            assert not answer.attachment_names


def slow_hand_history(bot: object, monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """The ledger answers ``hand_history`` only once the returned event is set, so that
    /replay defers first (as under a slow database)."""
    monkeypatch.setattr(replies, "DEFER_AFTER_SECONDS", 0.01)
    released, original = asyncio.Event(), bot.ledger.hand_history

    async def slow(hand_id: int) -> object:
        await released.wait()
        return await original(hand_id)

    monkeypatch.setattr(bot.ledger, "hand_history", slow)
    return released


async def test_a_hand_is_shared_only_into_its_own_channel_and_a_refusal_stays_private(
        club: Club, monkeypatch: pytest.MonkeyPatch):
    outsider = club.fake.add_user("outsider")
    club.fake.hide_channel(club.channel, outsider)  # the hand's channel is private
    bot, hand_id, _ = await played_hand(club)
    lounge_before = len(club.fake.channel_messages(club.lounge))
    released = slow_hand_history(bot, monkeypatch)
    answer = await club.fake.slash(club.admin, club.lounge, "replay", hand=hand_id, share=True)
    assert answer.deferred and answer.ephemeral  # nobody else sees the thinking, nor a "no"
    released.set()
    await club.fake.wait_until(lambda: bool(answer.all_text()))
    assert "only in the channel it was played in" in answer.all_text(), answer.all_text()
    assert all(message.is_ephemeral for message in [answer.message, *answer.followups])
    assert len(club.fake.channel_messages(club.lounge)) == lounge_before


async def test_a_slow_shared_replay_thinks_privately_then_posts_in_the_channel(
        club: Club, monkeypatch: pytest.MonkeyPatch):
    bot, hand_id, _ = await played_hand(club)
    released = slow_hand_history(bot, monkeypatch)
    answer = await club.fake.slash(club.admin, club.channel, "replay", hand=hand_id, share=True)
    assert answer.deferred and answer.ephemeral
    released.set()
    await club.fake.wait_until(lambda: any(message.attachment_names
                                           for message in answer.followups), timeout=30)
    [posted] = answer.followups
    assert not posted.is_ephemeral and posted.content == f"Hand #{hand_id}:"
    assert posted.attachment_names == [f"hand-{hand_id}.gif", f"hand-{hand_id}.png"]
    assert f"hand #{hand_id}" in answer.content.lower()


async def test_replays_of_hands_a_member_may_not_see_are_refused(club: Club):
    outsider = club.fake.add_user("outsider")
    club.fake.hide_channel(club.channel, outsider)
    bot, hand_id, _ = await played_hand(club)
    for user, channel, hand in [(club.admin, club.channel, hand_id + 100),
                                (club.admin, club.channel, -1),
                                (outsider, club.lounge, hand_id)]:
        await expect_refusal(club, bot, club.fake.slash(user, channel, "replay", hand=hand),
                             f"There is no finished hand #{hand} in this server.")
    await start_hand(club, bot, club.alice)
    state = bot.tables.state(club.channel)
    assert state is not None and state.hand_id is not None and state.is_hand_running
    running = club.fake.slash(club.alice, club.channel, "replay", hand=state.hand_id)
    await expect_refusal(club, bot, running,
                         f"There is no finished hand #{state.hand_id} in this server.")
    with sqlite3.connect(club.database) as db:
        db.execute("UPDATE hands SET guild_id = guild_id + 1 WHERE id = ?", (hand_id,))
    for command in ("replay", "history"):
        await expect_refusal(club, bot, club.fake.slash(club.alice, club.channel, command,
                                                        hand=hand_id),
                             f"There is no finished hand #{hand_id} in this server.")


async def test_a_hand_played_before_replays_were_recorded_says_so(club: Club):
    bot, hand_id, _ = await played_hand(club)
    with sqlite3.connect(club.database) as db:  # as a hand settled before migration 005 reads
        db.execute("UPDATE hands SET replay = NULL WHERE id = ?", (hand_id,))
    await expect_refusal(club, bot, club.fake.slash(club.alice, club.channel, "replay"),
                         f"Hand #{hand_id} was played before replays were recorded")


async def test_without_images_replay_points_to_history(club: Club):
    bot, _, _ = await played_hand(club, draw_images=False)
    await expect_refusal(club, bot, club.fake.slash(club.alice, club.channel, "replay"),
                         "this bot is set to draw none")

"""Replays decoded with Pillow: one frame per event and street, the blinds first and the
result last, and no frame showing a card its viewer may not see."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from PIL import Image, ImageChops

from benchmarks.replay import SAMPLE_NAMES, sample_hand
from bot.render.card_faces import card_back, card_face
from bot.render.replay import encode_gif, render_replay
from bot.render.replay_frames import replay_frames
from bot.render.table_image import SHOWN_CARD, draw_table, hole_card_boxes
from engine.events import (
    Acted,
    Mucked,
    RunItTwiceChosen,
    Showed,
    StreetDealt,
    UncalledBetReturned,
)
from engine.hand import Hand
from engine.hand_record import RecordedHand
from engine.replay import apply_actions, hand_with_cards
from tests.engine.random_hands import play_out, random_hands
from tests.render.images import card_difference, gif_frames

NAMES = [f"P{seat}" for seat in range(10)]


def expected_frames(hand: Hand) -> int:
    """The deal, each action, returned bet and run-it-twice answer, each street (its bets into
    the pot) and each of its cards, the showdown, and the result."""
    events = hand.events
    told = sum(isinstance(event, Acted | UncalledBetReturned | RunItTwiceChosen)
               for event in events)
    streets = [event for event in events if isinstance(event, StreetDealt)]
    showdown = any(isinstance(event, Showed | Mucked) for event in events)
    return 1 + told + sum(1 + len(street.cards) for street in streets) + showdown + 1


def test_the_frames_are_the_events_plus_the_streets_from_the_blinds_to_the_result():
    record = sample_hand()
    hand = record.play()
    image = render_replay(record, SAMPLE_NAMES, 0, title=7)
    frames = gif_frames(image.animation or b"")
    assert len(frames) == image.frames == expected_frames(hand) == 30
    told = replay_frames(record, SAMPLE_NAMES, 0, title=7)
    first, last = told[0].state, told[-1].state
    assert [seat.bet for seat in first.seats] == [0, 5, 10, 0, 0, 0]
    assert "posts the small blind 5" in str(first.last_action)
    assert tuple(seat.stack for seat in last.seats) == hand.result.final_stacks
    assert str(last.last_action) == "Ann wins 1,045"
    assert difference_of_images(frames[0], draw_table(first, told[0].face_down)) < 2
    assert difference_of_images(frames[-1], draw_table(last, told[-1].face_down)) < 2
    with Image.open(io.BytesIO(image.still)) as still:
        assert still.format == "PNG"
        assert difference_of_images(still.convert("RGB"), frames[-1]) < 2


def difference_of_images(one: Image.Image, other: Image.Image) -> float:
    histogram = ImageChops.difference(one, other).convert("L").histogram()
    return sum(value * count for value, count in enumerate(histogram)) / sum(histogram)


@settings(max_examples=25, deadline=None)
@given(random_hands(run_it_twice=True))
def test_any_hand_has_a_frame_per_event_and_street(drawn):
    hand, rng = drawn
    play_out(hand, rng)
    record = RecordedHand.from_hand(hand)
    assert len(replay_frames(record, NAMES[:hand.num_seats], None, title=1)) == \
        expected_frames(hand)


def run_twice_hand() -> Hand:
    hand = hand_with_cards([100, 1000, 1000], ["Ah Ad", "2c 3d", "8d 9c"], "7s 8s Qc Jd 2h",
                           offer_run_it_twice=True)
    apply_actions(hand, ["allin", "fold", "call"])
    hand.choose_run_it_twice(True)
    return hand


def test_both_boards_of_a_hand_run_twice_are_drawn():
    hand = run_twice_hand()
    record = RecordedHand.from_hand(hand)
    told = replay_frames(record, NAMES[:3], None, title=1)
    assert len(told) == expected_frames(hand)
    assert told[-1].state.boards == hand.boards and len(hand.boards) == 2
    assert "first board" in str(told[-1].state.last_action)
    assert "second board" in str(told[-1].state.last_action)


@pytest.mark.parametrize("viewer", [None, 0, 1, 2, 3, 4, 5])
def test_no_frame_shows_a_card_its_viewer_may_not_see(viewer):
    """Every seat but the viewer's is face down until it shows, and a hand never shown (folded
    or mucked) never appears face up: checked on the decoded pixels of every frame."""
    record = sample_hand()
    hand = record.play()
    shown = {event.seat for event in hand.events if isinstance(event, Showed)}
    assert shown == {0, 4}
    told = replay_frames(record, SAMPLE_NAMES, viewer, title=1)
    frames = gif_frames(encode_gif(told))
    back = card_back(*SHOWN_CARD)
    checked_backs = 0
    for frame, picture in zip(told, frames, strict=True):
        for seat in range(hand.num_seats):
            boxes = hole_card_boxes(seat, frame.state.max_seats)
            regions = [picture.crop(box) for box in boxes]
            seen = seat == viewer or (seat in shown and frame.state.street.label == "Showdown")
            faces = [card_face(card, *SHOWN_CARD) for card in record.hole_cards[seat]]
            if not seen:
                assert all(card_difference(region, face) > 20
                           for region, face in zip(regions, faces, strict=True)), (seat, frame)
            if seat in frame.face_down:
                assert not seen
                assert all(card_difference(region, back) < 3 for region in regions)
                checked_backs += 1
            elif seen and not frame.state.seats[seat].folded:
                assert all(card_difference(region, face) < 3
                           for region, face in zip(regions, faces, strict=True))
    assert checked_backs > 0


def test_a_viewer_who_folded_still_sees_only_their_own_cards():
    record = sample_hand()
    told = replay_frames(record, SAMPLE_NAMES, 1, title=1)  # Bob folds preflop
    assert all(frame.face_down.isdisjoint({1}) for frame in told)
    assert all(not state.seats[seat].shown_cards for frame in told
               for state in [frame.state] for seat in (2, 3, 5))


def test_a_replay_over_the_limit_keeps_the_streets_then_the_result_only():
    record = sample_hand()
    full = render_replay(record, SAMPLE_NAMES, 0, title=1)
    key = [frame for frame in replay_frames(record, SAMPLE_NAMES, 0, title=1) if frame.key]
    streets = encode_gif(key)
    cut = render_replay(record, SAMPLE_NAMES, 0, title=1,
                        limit=len(streets) + len(full.still))
    assert cut.streets_only and cut.frames == len(key) == len(gif_frames(cut.animation or b""))
    assert [frame.state.street.label for frame in key] == [
        "Preflop", "Flop", "Turn", "River", "Showdown", "Showdown"]
    tiny = render_replay(record, SAMPLE_NAMES, 0, title=1, limit=len(full.still))
    assert tiny.animation is None and tiny.still == full.still

"""What a replay's frames say and show: the offline player's lines in the second person, each
street's frames with that street's cards, and a bet chip clear of a shown hand's name."""

from __future__ import annotations

import dataclasses
import re

from PIL import ImageChops

from benchmarks.replay import SAMPLE_NAMES, sample_hand
from bot.i18n import ENGLISH, language_for
from bot.render.replay_frames import replay_frames
from bot.render.table_image import draw_table, hole_card_boxes
from engine.actions import Street
from engine.hand_record import RecordedHand
from engine.replay import apply_actions, hand_with_cards

THIRD_PERSON_YOU = re.compile(r"\bYou (posts|calls|checks|bets|raises|folds|wins|shows|is)\b")


def captions(record: RecordedHand, names: list[str], you: int | None, code: str) -> list[str]:
    language = language_for(code)
    return [language.render(frame.state.last_action)
            for frame in replay_frames(record, names, 0, title=1, you=you)
            if frame.state.last_action is not None]


def test_your_own_lines_are_in_the_second_person() -> None:
    names = ["You", *SAMPLE_NAMES[1:]]
    said = captions(sample_hand(), names, 0, "en")
    assert not [line for line in said if THIRD_PERSON_YOU.search(line)], said
    assert "You call 40" in said and "You win 1,045" in said
    # Blinds, checks, bets and folds of the offline player: a hand where "You" does each.
    hand = hand_with_cards([500, 500], ["7c 2d", "Ah Kd"], "Qh Jc Ts 4d 4c")
    apply_actions(hand, ["call", "check", "check", "bet 40", "fold"])
    record = RecordedHand.from_hand(hand)
    said = captions(record, ["You", "Bo"], 0, "en")
    assert said[0] == "You post the small blind 5 · Bo posts the big blind 10"
    assert {"You call 5", "Bo checks", "You bet 40", "Bo folds", "40 returned to you"} <= \
        set(said), said
    others = captions(record, ["You", "Bo"], 1, "en")  # seen by Bo: nothing is "you"
    assert "You calls 5" in others


def test_your_own_lines_in_chinese_read_without_a_gap_after_you() -> None:
    names = ["你", *SAMPLE_NAMES[1:]]
    for code, call in (("zh_Hans", "你跟注 40"), ("zh_Hant", "你跟注 40")):
        said = captions(sample_hand(), names, 0, code)
        assert call in said, said
        assert not [line for line in said if line.startswith("你 ")], said


def test_each_street_s_frames_show_that_street_s_cards() -> None:
    least = {Street.PREFLOP: 0, Street.FLOP: 1, Street.TURN: 4, Street.RIVER: 5,
             Street.SHOWDOWN: 5}
    for frame in replay_frames(sample_hand(), SAMPLE_NAMES, 0, title=1):
        street = frame.state.street
        assert street is not None and len(frame.state.board) >= least[street], \
            (street, frame.state.board, frame.state.last_action)


def test_a_bet_chip_leaves_the_top_seat_s_hand_name_readable() -> None:
    top = 3  # of six seats, the one at the top edge: its cards and hand name hang below it
    frame = next(frame for frame in replay_frames(sample_hand(), SAMPLE_NAMES, top, title=1)
                 if frame.state.street is Street.FLOP and len(frame.state.board) == 3)
    seats = list(frame.state.seats)
    without = dataclasses.replace(frame.state, seats=tuple(
        dataclasses.replace(seat, bet=0) for seat in seats))
    seats[top] = dataclasses.replace(seats[top], bet=60)
    with_bet = dataclasses.replace(without, seats=tuple(seats))
    boxes = hole_card_boxes(top, 6)
    centre, bottom = (boxes[0][0] + boxes[-1][2]) // 2, boxes[0][3]
    name_area = (centre - 70, bottom + 2, centre + 70, bottom + 18)
    plain = draw_table(without, frame.face_down, language=ENGLISH).crop(name_area)
    chipped = draw_table(with_bet, frame.face_down, language=ENGLISH).crop(name_area)
    assert ImageChops.difference(plain, chipped).getbbox() is None
    assert ImageChops.difference(draw_table(without, frame.face_down),
                                 draw_table(with_bet, frame.face_down)).getbbox() is not None

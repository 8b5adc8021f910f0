"""The words in images come from the catalogs, in the language the caller asks for."""

from __future__ import annotations

import dataclasses
import io

import numpy as np
from PIL import Image, ImageDraw

from benchmarks.replay import SAMPLE_NAMES, SAMPLE_VIEWER, sample_hand
from bot.i18n import ENGLISH, language_for
from bot.ledger import HandResultPoint, PlayerStats
from bot.render import fonts
from bot.render.leaderboard_chart import render_leaderboard_chart
from bot.render.replay import encode_still
from bot.render.replay_frames import replay_frames
from bot.render.stats_chart import render_stats_chart
from bot.render.table_image import (
    CENTRE,
    TEXT,
    _felt,
    draw_table,
    render_table,
    shown_hand_names,
)
from bot.tables.notifier import PotState, TableState
from engine.actions import Street
from engine.cards import parse_cards
from tests.table_states import seat_state, table_state

SIMPLIFIED, TRADITIONAL = language_for("zh-CN"), language_for("zh-TW")
POT_LABEL = (int(CENTRE[0]) - 90, int(CENTRE[1]) - 80, int(CENTRE[0]) + 90, int(CENTRE[1]) - 48)


def showdown() -> TableState:
    seats = (seat_state(0, "张伟", 100, stack=990), seat_state(1, "bob", 101, stack=995),
             seat_state(2, "陳小明", 102, stack=1_000, folded=True))
    state = table_state(board="Ah Kd 7c 2s 9h", seats=seats, street=Street.SHOWDOWN,
                        pots=(PotState(3_000, (0, 1, 2)), PotState(1_200, (0, 1))),
                        to_act_seat=None, max_seats=6)
    shown = {0: "As Ad", 1: "Kh Qh"}
    return dataclasses.replace(state, seats=tuple(
        dataclasses.replace(seat, shown_cards=tuple(parse_cards(shown[seat.seat])))
        if seat.seat in shown else seat for seat in state.seats))


def pixels(image: Image.Image, box: tuple[int, int, int, int]) -> np.ndarray:
    return np.asarray(image.crop(box), dtype=np.int16)


def test_the_pot_is_labelled_in_chinese_with_real_glyphs() -> None:
    """The pot's line in zh_Hans is exactly "底池 4,200" drawn by the fonts module: the
    catalog's words, drawn with the CJK font where the system has one."""
    drawn = draw_table(showdown(), language=SIMPLIFIED)
    expected = _felt().copy()
    fonts.draw_text(ImageDraw.Draw(expected), (CENTRE[0], CENTRE[1] - 52), "底池 4,200",
                    size=18, fill=TEXT, anchor="md")
    assert np.array_equal(pixels(drawn, POT_LABEL), pixels(expected.convert("RGB"), POT_LABEL))
    english = draw_table(showdown())
    assert np.abs(pixels(drawn, POT_LABEL) - pixels(english, POT_LABEL)).mean() > 1


def test_hand_names_follow_the_language() -> None:
    assert shown_hand_names(showdown()) == {0: "Three of a Kind, Aces", 1: "Pair of Kings"}
    assert shown_hand_names(showdown(), language=SIMPLIFIED) == {0: "三条，A", 1: "一对K"}
    assert shown_hand_names(showdown(), language=TRADITIONAL)[0].startswith("三條")


def test_each_language_draws_a_different_table_and_english_is_the_default() -> None:
    images = {language.code: render_table(showdown(), language=language)
              for language in (ENGLISH, SIMPLIFIED, TRADITIONAL)}
    assert len(set(images.values())) == 3
    assert render_table(showdown()) == images["en"]


def test_replay_lines_are_told_in_the_viewers_language() -> None:
    frames = replay_frames(sample_hand(), SAMPLE_NAMES, SAMPLE_VIEWER, title=1)
    last, first = frames[-1].state.last_action, frames[0].state.last_action
    assert last is not None and first is not None
    assert TRADITIONAL.render(last) == "Ann 贏得 1,045"
    assert SIMPLIFIED.render(first) == "Bob 下小盲 5 · Cleo 下大盲 10"
    assert ENGLISH.render(first) == "Bob posts the small blind 5 · Cleo posts the big blind 10"
    assert encode_still(frames[-1], language=TRADITIONAL) != encode_still(frames[-1])


def test_the_stats_and_leaderboard_charts_are_drawn_in_chinese() -> None:
    stats = PlayerStats(guild_id=1, user_id=11, name="张伟", balance=1_000, hands_played=2,
                        hands_won=1, showdowns_won=1, net_chips=50, biggest_pot=300,
                        vpip_hands=1, pfr_hands=1)
    points = [HandResultPoint(hand_id=i, finished_at=float(i), net=net, won=net > 0,
                              showdown_won=False, reached_showdown=False)
              for i, net in enumerate((100, -50))]

    def title(png: bytes) -> np.ndarray:
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGB").crop((0, 0, 800, 44)),
                          dtype=np.int16)

    for language in (SIMPLIFIED, TRADITIONAL):
        chart = render_stats_chart(points, stats, None, language=language)
        assert np.abs(title(chart) - title(render_stats_chart(points, stats, None))).mean() > 0.5
        empty = render_leaderboard_chart([], "排行榜", language=language)
        assert empty != render_leaderboard_chart([], "排行榜")

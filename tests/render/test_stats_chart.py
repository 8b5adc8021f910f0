"""The /stats chart: a PNG of the right size whose lines are drawn where the numbers say, and
that never fails whatever the series."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from bot.i18n import language_for
from bot.ledger import HABIT_FIGURES, Habits, HandResultPoint, PlayerStats, ServerAverages
from bot.render.stats_chart import (
    HEIGHT,
    NO_FIGURE,
    NON_SHOWDOWN_COLOUR,
    PLAYER_BAR_COLOUR,
    PLOT_BOX,
    SERVER_BAR_COLOUR,
    SHOWDOWN_COLOUR,
    STYLE_TOP,
    TOTAL_COLOUR,
    WIDTH,
    cumulative_lines,
    habit_text,
    is_showdown,
    render_stats_chart,
)

STATS = PlayerStats(guild_id=1, user_id=11, name="alice", balance=1_000, hands_played=40,
                    hands_won=20, showdowns_won=10, net_chips=500, biggest_pot=300,
                    vpip_hands=12, pfr_hands=6)
AVERAGES = ServerAverages(players=3, vpip_percent=25.0, pfr_percent=12.5)


def point(net: int, *, won: bool | None = None, showdown_won: bool = False,
          reached_showdown: bool | None = None, hand_id: int = 1) -> HandResultPoint:
    won = net > 0 if won is None else won
    reached = showdown_won if reached_showdown is None else reached_showdown
    return HandResultPoint(hand_id=hand_id, finished_at=1.0 * hand_id, net=net, won=won,
                           showdown_won=showdown_won, reached_showdown=reached)


def decode(png: bytes) -> np.ndarray:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert image.size == (WIDTH, HEIGHT)
    return np.asarray(image.convert("RGB"))


def plot_area(pixels: np.ndarray) -> np.ndarray:
    left, top, right, bottom = PLOT_BOX
    return pixels[top:bottom + 1, left:right + 1]


def mask(pixels: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    return np.all(pixels == np.array(colour, dtype=pixels.dtype), axis=-1)


def test_showdown_rule() -> None:
    assert is_showdown(point(50, showdown_won=True))
    assert not is_showdown(point(50, showdown_won=False))  # everyone else folded
    assert is_showdown(point(-50, reached_showdown=True))  # lost in a hand shown down
    assert not is_showdown(point(-50, reached_showdown=False))  # lost in a hand folded out
    # A split pot that still cost chips is a showdown result.
    assert is_showdown(point(-5, won=True, showdown_won=True))


def test_the_lines_add_up_to_the_total() -> None:
    series = [point(50, showdown_won=True), point(20), point(-30, reached_showdown=True),
              point(-10)]
    total, showdown, other = cumulative_lines(series)
    assert total == [0, 50, 70, 40, 30]
    assert showdown == [0, 50, 50, 20, 20]
    assert other == [0, 0, 20, 20, 10]


def test_every_line_colour_is_drawn_in_the_plot() -> None:
    series = [point(50, showdown_won=True, hand_id=1), point(-20, hand_id=2),
              point(30, hand_id=3), point(-80, reached_showdown=True, hand_id=4)]
    pixels = plot_area(decode(render_stats_chart(series, STATS, AVERAGES)))
    for colour in (TOTAL_COLOUR, SHOWDOWN_COLOUR, NON_SHOWDOWN_COLOUR):
        assert mask(pixels, colour).sum() > 20, colour


def test_the_panel_compares_with_the_server() -> None:
    pixels = decode(render_stats_chart([point(5), point(6)], STATS, AVERAGES))
    assert mask(pixels, PLAYER_BAR_COLOUR).any()
    assert mask(pixels, SERVER_BAR_COLOUR).any()
    alone = decode(render_stats_chart([point(5), point(6)], STATS, None))
    assert not mask(alone, SERVER_BAR_COLOUR).any()


@pytest.mark.parametrize("step", [1, 1_000, 2_500_000])
def test_a_rising_series_ends_higher_than_it_starts(step: int) -> None:
    series = [point(step, showdown_won=True, hand_id=i) for i in range(1, 31)]
    total = mask(plot_area(decode(render_stats_chart(series, STATS, AVERAGES))), TOTAL_COLOUR)
    columns = np.nonzero(total.any(axis=0))[0]
    first, last = columns.min(), columns.max()
    assert last - first > 400  # the line spans the plot
    start_row = np.nonzero(total[:, first])[0].mean()
    end_row = np.nonzero(total[:, last])[0].mean()
    assert end_row < start_row - 100  # rows count down the image: higher means smaller


def test_a_falling_series_ends_lower() -> None:
    series = [point(-10, hand_id=i) for i in range(1, 11)]
    total = mask(plot_area(decode(render_stats_chart(series, STATS, AVERAGES))), TOTAL_COLOUR)
    columns = np.nonzero(total.any(axis=0))[0]
    start_row = np.nonzero(total[:, columns.min()])[0].mean()
    end_row = np.nonzero(total[:, columns.max()])[0].mean()
    assert end_row > start_row + 100


@pytest.mark.parametrize("count", [0, 1])
def test_too_few_hands_give_a_message_not_lines(count: int) -> None:
    pixels = plot_area(decode(render_stats_chart([point(40)] * count, STATS, AVERAGES)))
    for colour in (TOTAL_COLOUR, SHOWDOWN_COLOUR, NON_SHOWDOWN_COLOUR):
        assert not mask(pixels, colour).any()
    assert (pixels > 200).all(axis=-1).sum() > 50  # some light text: the message


def test_a_player_with_no_record_and_no_server() -> None:
    fresh = PlayerStats(guild_id=1, user_id=11, name="x" * 300, balance=0, hands_played=0,
                        hands_won=0, showdowns_won=0, net_chips=0, biggest_pot=0,
                        vpip_hands=0, pfr_hands=0)
    decode(render_stats_chart([], fresh, ServerAverages(0, 0.0, 0.0)))
    decode(render_stats_chart([point(0), point(0)], fresh, None))


points = st.builds(
    HandResultPoint,
    hand_id=st.integers(1, 10**9),
    finished_at=st.floats(0, 2e9),
    net=st.integers(-(10**15), 10**15),
    won=st.booleans(),
    showdown_won=st.booleans(),
    reached_showdown=st.booleans(),
)


@given(series=st.lists(points, max_size=12),
       averages=st.none() | st.builds(ServerAverages, st.integers(0, 1000),
                                      st.floats(0, 100), st.floats(0, 100)))
def test_never_raises_for_short_random_series(
    series: list[HandResultPoint], averages: ServerAverages | None
) -> None:
    decode(render_stats_chart(series, STATS, averages))


HABITS = Habits(hands=40, three_bet_chances=10, three_bets=2, cbet_chances=4, cbets=3,
                postflop_aggression=6, postflop_calls=3, saw_flop=12, showdowns=5,
                showdowns_won=3)
SERVER_HABITS = dict.fromkeys(HABIT_FIGURES, 30.0) | {"aggression": 1.5}


def style_panel(pixels: np.ndarray) -> np.ndarray:
    return pixels[STYLE_TOP:]


def test_the_style_panel_shows_the_figures_beside_the_servers() -> None:
    panel = style_panel(decode(render_stats_chart(
        [point(5), point(6)], STATS, AVERAGES, habits=HABITS, server_habits=SERVER_HABITS)))
    assert mask(panel, PLAYER_BAR_COLOUR).sum() > 200
    assert mask(panel, SERVER_BAR_COLOUR).sum() > 200


def test_a_figure_without_a_chance_draws_no_bar() -> None:
    panel = style_panel(decode(render_stats_chart(
        [point(5), point(6)], STATS, AVERAGES, habits=Habits(hands=40), server_habits=None)))
    assert mask(panel, PLAYER_BAR_COLOUR).sum() < 200  # the key's swatch only
    assert not mask(panel, SERVER_BAR_COLOUR).any()  # no server: no server bars, no key


def test_figures_are_written_as_percentages_and_the_aggression_factor_as_a_ratio() -> None:
    assert [habit_text(name, HABITS.figure(name)) for name in HABIT_FIGURES] == [
        "20%", NO_FIGURE, "75%", "2.0", "42%", "60%"]


@pytest.mark.parametrize("code", ["en", "zh_Hans", "zh_Hant"])
def test_the_chart_with_every_figure_draws_in_each_language(code: str) -> None:
    decode(render_stats_chart([point(5), point(-6)], STATS, AVERAGES, habits=HABITS,
                              server_habits=SERVER_HABITS, language=language_for(code)))

"""The /leaderboard chart: a PNG of the right size with a bar per row on the correct side of
the zero line, a message for an empty page, and no failure whatever the rows."""

from __future__ import annotations

import io

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from bot.ledger import LeaderboardRow
from bot.render.card_faces import font
from bot.render.leaderboard_chart import (
    HEIGHT,
    NEGATIVE_COLOUR,
    PLOT_BOX,
    POSITIVE_COLOUR,
    WIDTH,
    _fit,
    printable,
    render_leaderboard_chart,
    zero_and_scale,
)


def row(rank: int, value: int, name: str = "player") -> LeaderboardRow:
    return LeaderboardRow(rank=rank, user_id=rank, name=name, value=value)


def decode(png: bytes) -> np.ndarray:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert image.size == (WIDTH, HEIGHT)
    return np.asarray(image.convert("RGB"))


def mask(pixels: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    return np.all(pixels == np.array(colour, dtype=pixels.dtype), axis=-1)


def columns_of(pixels: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    return np.nonzero(mask(pixels, colour).any(axis=0))[0]


def test_positive_bars_grow_right_from_the_left_edge() -> None:
    pixels = decode(render_leaderboard_chart([row(1, 9_000), row(2, 3_000)], "Chips"))
    columns = columns_of(pixels, POSITIVE_COLOUR)
    left, _, right, _ = PLOT_BOX
    assert columns.min() <= left + 2 and columns.max() >= right - 2  # the top bar is full
    assert not mask(pixels, NEGATIVE_COLOUR).any()
    rows = np.nonzero(mask(pixels, POSITIVE_COLOUR).any(axis=1))[0]
    first_bar = mask(pixels[rows.min()], POSITIVE_COLOUR).sum()
    last_bar = mask(pixels[rows.max()], POSITIVE_COLOUR).sum()
    assert last_bar < first_bar / 2  # 3,000 is a third of 9,000


def test_negative_values_go_left_of_the_zero_line() -> None:
    pixels = decode(render_leaderboard_chart(
        [row(1, 4_000), row(2, 1), row(3, -1), row(4, -4_000)], "Net winnings"))
    left, _, right, _ = PLOT_BOX
    zero = left + (right - left) / 2  # -4,000 .. 4,000: the zero line in the middle
    positive, negative = columns_of(pixels, POSITIVE_COLOUR), columns_of(pixels, NEGATIVE_COLOUR)
    assert positive.size and negative.size
    assert positive.min() >= zero - 1 and positive.max() >= right - 2
    assert negative.max() <= zero + 1 and negative.min() <= left + 2
    positive_rows = np.nonzero(mask(pixels, POSITIVE_COLOUR).any(axis=1))[0]
    negative_rows = np.nonzero(mask(pixels, NEGATIVE_COLOUR).any(axis=1))[0]
    assert positive_rows.max() < negative_rows.min()  # the page's order, top to bottom
    # Even a value of 1 next to 4,000 shows a sliver: four bars in all.
    assert len(np.split(positive_rows, np.nonzero(np.diff(positive_rows) > 1)[0] + 1)) == 2
    assert len(np.split(negative_rows, np.nonzero(np.diff(negative_rows) > 1)[0] + 1)) == 2


def test_all_negative_puts_the_zero_line_on_the_right() -> None:
    pixels = decode(render_leaderboard_chart([row(1, -10), row(2, -500)], "Net winnings"))
    negative = columns_of(pixels, NEGATIVE_COLOUR)
    assert negative.max() <= PLOT_BOX[2] + 1
    assert negative.min() <= PLOT_BOX[0] + 2
    assert not mask(pixels, POSITIVE_COLOUR).any()


def test_an_empty_page_draws_a_message_and_no_bars() -> None:
    pixels = decode(render_leaderboard_chart([], "Chips"))
    assert not mask(pixels, POSITIVE_COLOUR).any()
    assert not mask(pixels, NEGATIVE_COLOUR).any()
    middle = pixels[HEIGHT // 2 - 20:HEIGHT // 2 + 20, 200:600]
    assert (middle > 120).all(axis=-1).sum() > 100  # light text: the message


def test_scale_always_includes_zero() -> None:
    assert zero_and_scale([5, 10]) == (0, 10)
    assert zero_and_scale([-5, 10]) == (-5, 10)
    assert zero_and_scale([-5, -1]) == (-5, 0)
    assert zero_and_scale([0, 0]) == (0, 1)


def test_names_are_made_drawable_and_long_ones_shortened() -> None:
    assert printable("bob\nsmith\t\u202eevil\x00") == "bob smith evil"
    assert printable("漢字 🎲 محمد") == "漢字 🎲 محمد"
    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    short = _fit(draw, "x" * 300, font(14), 150)
    assert short.endswith("…") and 5 < len(short) < 300
    assert draw.textlength(short, font=font(14)) <= 150
    assert _fit(draw, "alice", font(14), 150) == "alice"


def test_odd_names_and_huge_values_render() -> None:
    rows = [row(1, 10**18, "x" * 500), row(2, -(10**18), "\ud800\n\x00"), row(3, 0, ""),
            row(10_000_000, 7, "漢字🎲محمد\u202e")]
    decode(render_leaderboard_chart(rows, "T" * 400))


rows_strategy = st.lists(
    st.builds(LeaderboardRow, rank=st.integers(1, 10**12), user_id=st.integers(0, 2**63),
              name=st.text(max_size=120), value=st.integers(-(10**20), 10**20)),
    max_size=12,
)


@given(rows=rows_strategy, title=st.text(max_size=200))
def test_never_raises_for_random_rows(rows: list[LeaderboardRow], title: str) -> None:
    decode(render_leaderboard_chart(rows, title))


def test_a_board_of_percentages_writes_each_value_with_its_own_words() -> None:
    written: list[float] = []

    def percent(value: float) -> str:
        written.append(value)
        return f"{value:.0f}%"

    rows = [LeaderboardRow(rank=1, user_id=1, name="a", value=62.5),
            LeaderboardRow(rank=2, user_id=2, name="b", value=31.25)]
    pixels = decode(render_leaderboard_chart(rows, "Won at showdown", value_text=percent))
    assert written == [62.5, 31.25]
    bar_rows = np.nonzero(mask(pixels, POSITIVE_COLOUR).any(axis=1))[0]
    first_bar = mask(pixels[bar_rows.min()], POSITIVE_COLOUR).sum()
    last_bar = mask(pixels[bar_rows.max()], POSITIVE_COLOUR).sum()
    assert abs(last_bar - first_bar / 2) <= 2  # 31.25 is half of 62.5

"""Names in any script are drawn with real glyphs, never as boxes ("tofu").

Pillow's bundled font has no Chinese or Cyrillic letters: ``bot.render.fonts`` draws those
with a CJK font from the system. These tests need one (``fonts-wqy-microhei`` or Noto CJK):
without it they skip, unless ``HOLDEM_REQUIRE_CJK_FONT=1`` (CI, the Docker image) makes that a
failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import numpy as np
import pytest
from PIL import Image, ImageDraw

from bot.render import fonts
from bot.render.table_image import SEAT_BOX, _seat_centre, draw_table
from bot.tables.notifier import TableState
from tests.table_states import seat_state, table_state

NAMES = ("张伟", "陳小明", "Дмитрий", "😀 Ann", "🐉Dragon")
"""Simplified and Traditional Chinese, Cyrillic, and emoji (one a font may have, one it may
not: either drawn or left out, never a box)."""


@pytest.fixture
def cjk_font() -> tuple[object, int]:
    found = fonts.cjk_font_path()
    if found is None:
        message = "no CJK font on this system (install fonts-wqy-microhei)"
        if os.environ.get("HOLDEM_REQUIRE_CJK_FONT") == "1":
            pytest.fail(message + "; HOLDEM_REQUIRE_CJK_FONT=1 requires one")
        pytest.skip(message)
    return found


def _clear_font_caches() -> None:
    for cached in (fonts.font_chain, fonts.font_index, fonts._missing_pictures,
                   fonts._bundled_draws_ascii, fonts._run_length):
        cached.cache_clear()


@pytest.fixture
def bundled_font_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The renderer as on a system without any font of its own: Pillow's bundled font alone."""
    monkeypatch.setattr(fonts, "fallback_fonts", lambda: ())
    _clear_font_caches()
    yield
    monkeypatch.undo()
    _clear_font_caches()


def table(names: tuple[str, ...] = NAMES) -> TableState:
    seats = tuple(seat_state(index, name, 100 + index, stack=1_000)
                  for index, name in enumerate(names))
    return table_state(seats=seats, max_seats=6, last_action="")


def name_strip(image: Image.Image, seat: int) -> np.ndarray:
    """The pixels of the line where a seat's name is written."""
    x, y = _seat_centre(seat, 6)
    width, height = SEAT_BOX
    top = int(y - height / 2)
    return np.asarray(image.crop((int(x - width / 2) + 4, top + 3, int(x + width / 2) - 4,
                                  top + 23)), dtype=np.int16)


def ink(text: str, face: fonts.Font | None = None, size: int = 32) -> np.ndarray:
    """``text`` drawn white on black, by ``draw_text`` or else in ``face`` alone."""
    image = Image.new("L", (8 * size, 2 * size), 0)
    draw = ImageDraw.Draw(image)
    if face is None:
        fonts.draw_text(draw, (size // 2, size), text, size=size, fill=255, anchor="ls")
    else:
        draw.text((size // 2, size), text, font=face, fill=255, anchor="ls")
    return np.asarray(image)


def test_every_letter_of_the_names_is_a_real_glyph(cjk_font: object) -> None:
    chain = fonts.font_chain(32)
    boxes = [ink("\U0010fffd", face) for face in chain]  # each font's missing-glyph picture
    for name in NAMES:
        for char in name:
            if char.isspace():
                continue
            drawn = ink(char)
            if fonts.font_index(char) is None:  # no font has it: left out, not a box
                assert char not in fonts.drawable(name)
                continue
            assert drawn.any(), char
            assert all(not np.array_equal(drawn, box) for box in boxes), char
    for name in NAMES[:3]:  # Chinese and Cyrillic: the CJK font has every letter
        assert fonts.drawable(name) == name


def test_the_table_draws_the_names_not_boxes(cjk_font: object,
                                             request: pytest.FixtureRequest) -> None:
    drawn = draw_table(table())
    with_fonts = [name_strip(drawn, seat) for seat in range(len(NAMES))]
    request.getfixturevalue("bundled_font_only")
    boxes = draw_table(table())  # what the bundled font alone draws: a box per letter
    for seat, name in enumerate(NAMES[:4]):
        difference = np.abs(with_fonts[seat] - name_strip(boxes, seat)).mean()
        assert difference > 3, (name, difference)
        assert (with_fonts[seat].max(axis=2) > 150).sum() > 20, name  # something legible


def test_without_a_font_of_its_own_the_bundled_font_draws_what_it_can(
        bundled_font_only: None) -> None:
    assert fonts.font_chain(14)[1:] == ()
    assert fonts.runs("张伟 Ann") == [(0, "张伟 Ann")]  # boxes, as before, and no error
    assert draw_table(table()).size == (800, 450)


def test_latin_text_is_drawn_exactly_as_by_the_bundled_font(
        monkeypatch: pytest.MonkeyPatch) -> None:
    latin = table(("alice", "bob", "Easy Bot"))
    with_fallbacks = np.asarray(draw_table(latin))
    monkeypatch.setattr(fonts, "fallback_fonts", lambda: ())
    _clear_font_caches()
    try:
        assert np.array_equal(np.asarray(draw_table(latin)), with_fallbacks)
    finally:
        monkeypatch.undo()
        _clear_font_caches()


def test_long_names_in_wide_letters_are_shortened_to_the_seat(cjk_font: object) -> None:
    name = "一二三四五六七八九十" * 2
    short = fonts.fit_text(name, 14, SEAT_BOX[0] - 10)
    assert short.endswith("…") and name.startswith(short[:-1])
    assert fonts.text_length(short, 14) <= SEAT_BOX[0] - 10


def test_runs_split_text_by_font(cjk_font: object) -> None:
    assert fonts.runs("Ann") == [(0, "Ann")]
    assert [part for _, part in fonts.runs("张伟 wins 1,000")] == ["张伟", " wins 1,000"]
    assert fonts.runs("a\x00b") == [(0, "ab")]
    unknown = "\U0001e900"  # an Adlam letter: no font of the chain has one
    if fonts.font_index(unknown) is not None:
        pytest.skip("this system has a font for Adlam")
    assert fonts.runs(f"{unknown}Ann") == [(0, "Ann")]
    assert fonts.runs(unknown) == [(0, unknown)]  # a box rather than nothing at all

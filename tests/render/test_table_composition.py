"""The composed table picture: it looks like the picture drawn before it was composed, its key
tells when it changed, and threads may draw it at once."""

from __future__ import annotations

import dataclasses
import io
import zlib
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import numpy as np
import pytest
from PIL import Image

from bot.i18n import ENGLISH, language_for
from bot.render import render_table, table_image_key
from bot.render.cache import BoundedCache
from bot.render.table_image import draw_table
from tests.render.reference_states import REFERENCES, busy_turn, preflop, reference

MEAN_TOLERANCE = 1.0
"""Most mean difference per pixel and channel (0-255) from the reference. Measured: 0.05 to
0.56 (the old pictures had adaptive palettes, in which even the felt could be off by one)."""
BLOCK_TOLERANCE = 4.0
"""Most mean difference in any 16x18 block, so a missing or moved word is caught where the
whole picture's mean would hide it. Measured: 1.0 to 1.9; a seat's name changed gives 39."""


def pixels(png_or_image: bytes | Image.Image) -> np.ndarray:
    image = Image.open(io.BytesIO(png_or_image)) if isinstance(png_or_image, bytes) \
        else png_or_image
    return np.asarray(image.convert("RGB"), dtype=np.int16)


def differences(one: np.ndarray, other: np.ndarray) -> tuple[float, float]:
    """The mean difference per pixel, and the largest mean of a 16x18 block."""
    grey = np.abs(one - other).mean(axis=2)
    blocks = grey.reshape(450 // 18, 18, 800 // 16, 16).mean(axis=(1, 3))
    return float(grey.mean()), float(blocks.max())


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_the_picture_looks_like_the_one_drawn_before(name: str) -> None:
    state, language = REFERENCES[name]
    drawn = pixels(render_table(state, language=language))
    for expected in (pixels(reference(name)), pixels(draw_table(state, language=language))):
        mean, block = differences(drawn, expected)
        assert mean <= MEAN_TOLERANCE and block <= BLOCK_TOLERANCE, (name, mean, block)


def test_the_tolerance_catches_a_changed_name() -> None:
    state = preflop()
    renamed = dataclasses.replace(state, seats=tuple(
        dataclasses.replace(seat, name="zed") if seat.seat == 0 else seat
        for seat in state.seats))
    _, block = differences(pixels(render_table(renamed)), pixels(reference("preflop")))
    assert block > 3 * BLOCK_TOLERANCE


def test_the_png_is_valid_to_the_byte() -> None:
    """The bands put together make one zlib stream with the right checksum (``zlib``
    checks it; Pillow would not)."""
    png = render_table(busy_turn())
    data, position = b"", 8
    while position < len(png):
        length = int.from_bytes(png[position:position + 4], "big")
        kind = png[position + 4:position + 8]
        chunk = png[position + 8:position + 8 + length]
        assert zlib.crc32(kind + chunk) == int.from_bytes(
            png[position + 8 + length:position + 12 + length], "big")
        data += chunk if kind == b"IDAT" else b""
        position += 12 + length
    assert len(zlib.decompress(data)) == 450 * 801


def test_the_key_changes_exactly_when_the_picture_does() -> None:
    state = busy_turn()
    later = dataclasses.replace(state, to_act_deadline=1e9)  # not drawn
    acted = dataclasses.replace(state, seats=tuple(
        dataclasses.replace(seat, stack=seat.stack - 1) if seat.seat == 7 else seat
        for seat in state.seats))
    chinese = language_for("zh-CN")
    assert table_image_key(later) == table_image_key(state)
    assert render_table(later) == render_table(state)
    assert table_image_key(acted) != table_image_key(state)
    assert table_image_key(state, language=chinese) != table_image_key(state, language=ENGLISH)
    assert render_table(acted) != render_table(state)


def test_threads_draw_the_same_bytes() -> None:
    states = [state for state, _ in REFERENCES.values()]
    states += [dataclasses.replace(state, hand_number=state.hand_number + index)
               for index in range(1, 6) for state in states]
    alone = [render_table(state) for state in states]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(render_table, states * 3))
    assert together == alone * 3


def test_the_cache_keeps_to_its_budget_and_drops_the_least_recently_used() -> None:
    made: list[str] = []

    def make(key: str) -> bytes:
        made.append(key)
        return key.encode() * 10

    cache: BoundedCache[str, bytes] = BoundedCache(len, budget=30)
    for key in ("a", "b", "c", "a", "d", "a", "b"):
        cache.get(key, partial(make, key))
        assert cache.held <= 30
    assert made == ["a", "b", "c", "d", "b"]
    assert len(cache) == 3

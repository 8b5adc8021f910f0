"""A line of text assembled from kept glyphs is the mask FreeType renders for the whole line.

``bot.render.fonts`` draws a line it has not drawn before (a new amount, a new caption) from
single glyphs it keeps, placed as Pillow's basic layout places them, instead of asking
FreeType for the line. These tests hold it to the exact pixels of ``getmask2`` and of
``draw.text``, and to the cases where it must leave the work to FreeType.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFont

from bot.render import fonts
from bot.render.cache import BoundedCache

SIZES = (9, 12, 13, 14, 15, 18, 22, 31)
"""The table's sizes (12 to 18) and others around them."""

ALPHABET = st.sampled_from(
    [chr(code) for code in range(0x20, 0x7f)]
    + list("·…éüßñ€£¥—–‘’“”\t\n\u0301\u00a0\u4e2d\U0001f600"))
"""ASCII, Latin-1 and punctuation the bundled font has, a combining accent (no advance,
ink left of the pen), control characters and characters it lacks (its missing glyph)."""

ANCHORS = st.tuples(st.sampled_from("lmr"), st.sampled_from("amsdtb")).map("".join)
STARTS = st.tuples(st.floats(-0.999, 0.999), st.floats(-0.999, 0.999)) | st.sampled_from(
    [(0.0, 0.0), (0.5, 0.0), (0.5, 0.5), (-0.5, 0.0)])
"""Where a line starts within its pixel, as ``draw.text`` passes it on (``start``: the
fractions of the point's coordinates, negative left of or above the image)."""


def _whole(face: ImageFont.FreeTypeFont, text: str, anchor: str, stroke_width: int,
           start: tuple[float, float]) -> tuple[tuple[int, int], tuple[int, int], bytes]:
    core, offset = face.getmask2(text, "L", stroke_width=stroke_width, anchor=anchor,
                                 start=start, stroke_filled=True)
    return core.size, offset, bytes(core)


def _assembled(face: ImageFont.FreeTypeFont, text: str, anchor: str, stroke_width: int,
               start: tuple[float, float]) -> tuple[tuple[int, int], tuple[int, int], bytes]:
    assembled = fonts._assembled(face, text, anchor, stroke_width, start, "L")
    assert assembled is not None
    mask, offset = assembled
    return mask.size, offset, mask.tobytes()


def _bundled(size: int) -> ImageFont.FreeTypeFont:
    face = fonts.font_chain(size)[0]
    assert isinstance(face, ImageFont.FreeTypeFont)
    return face


@given(size=st.sampled_from(SIZES), text=st.text(ALPHABET, min_size=1, max_size=30),
       anchor=ANCHORS, stroke_width=st.sampled_from([0, 0, 1, 2, 3]), start=STARTS)
@settings(max_examples=400)
def test_a_line_from_kept_glyphs_is_the_line_freetype_renders(
        size: int, text: str, anchor: str, stroke_width: int,
        start: tuple[float, float]) -> None:
    face = _bundled(size)
    assert _assembled(face, text, anchor, stroke_width, start) == \
        _whole(face, text, anchor, stroke_width, start)


@given(text=st.text(st.sampled_from("0123456789,张伟陳小明玩家 abcXYZ"), min_size=1,
                    max_size=16),
       anchor=ANCHORS, stroke_width=st.sampled_from([0, 2]), start=STARTS)
def test_a_cjk_font_without_raqm_is_assembled_alike(
        text: str, anchor: str, stroke_width: int, start: tuple[float, float]) -> None:
    """Where Pillow has no raqm, the CJK font is laid out by the basic layout too."""
    found = fonts.cjk_font_path()
    if found is None:
        pytest.skip("no CJK font on this system")
    face = ImageFont.truetype(str(found[0]), 14, index=found[1],
                              layout_engine=ImageFont.Layout.BASIC)
    if fonts._kerns(face):
        pytest.skip("this CJK font kerns: its lines are rendered whole")
    assert _assembled(face, text, anchor, stroke_width, start) == \
        _whole(face, text, anchor, stroke_width, start)


AMOUNTS = st.integers(0, 10**9).map(lambda amount: f"{amount:,}")
NAMES = st.text(st.sampled_from([chr(code) for code in range(0x21, 0x7f)]), min_size=1,
                max_size=14)


@pytest.fixture
def fresh_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing kept from other tests: every line is assembled (or rendered) here."""
    monkeypatch.setattr(fonts, "_masks", BoundedCache(fonts._masks._size, fonts.MASKS_BUDGET))
    monkeypatch.setattr(fonts, "_glyphs",
                        BoundedCache(fonts._glyphs._size, fonts.GLYPHS_BUDGET))


@given(amount=AMOUNTS, name=NAMES, x=st.floats(-20, 60), y=st.floats(-5, 30),
       anchor=st.sampled_from(["ma", "md", "ls", "lm", "mm", "la", "ra"]),
       size=st.sampled_from([12, 13, 14, 15, 18]), stroke=st.booleans())
@settings(max_examples=300)
def test_draw_text_with_kept_glyphs_is_draw_text_of_pillow(
        amount: str, name: str, x: float, y: float, anchor: str, size: int,
        stroke: bool) -> None:
    """The picture: a name and an amount as the table draws them, against ``draw.text``."""
    face = _bundled(size)
    for text in (amount, f"{name} · {amount}", f"{name} raises to {amount}"):
        ours = Image.new("RGBA", (420, 60), (20, 90, 50, 255))
        pillow = ours.copy()
        outline = 2 if stroke else 0
        fonts.draw_text(ImageDraw.Draw(ours), (x, y), text, size=size, fill=(250, 250, 240),
                        anchor=anchor, stroke_width=outline, stroke_fill=(0, 0, 0))
        ImageDraw.Draw(pillow).text((x, y), fonts.drawable(text), font=face,
                                    fill=(250, 250, 240), anchor=anchor,
                                    stroke_width=outline, stroke_fill=(0, 0, 0))
        assert ours.tobytes() == pillow.tobytes(), text


def test_a_new_amount_of_known_digits_needs_no_freetype(
        monkeypatch: pytest.MonkeyPatch, fresh_caches: None) -> None:
    face = _bundled(13)
    draw = ImageDraw.Draw(Image.new("RGB", (200, 40)))
    fonts.draw_text(draw, (100, 5), "1,234,567,890", size=13, fill=(255, 255, 255),
                    anchor="ma")
    rendered: list[str] = []
    real = face.getmask2

    def getmask2(text: str, *args: object, **kwargs: object) -> object:
        rendered.append(text)
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(face, "getmask2", getmask2)
    fonts.draw_text(draw, (100, 5), "9,876", size=13, fill=(255, 255, 255), anchor="ma")
    fonts.draw_text(draw, (100.5, 5), "5,421", size=13, fill=(255, 255, 255), anchor="ma")
    assert rendered == []
    fonts.draw_text(draw, (100, 5), "$9", size=13, fill=(255, 255, 255), anchor="ma")
    assert rendered == ["$"]  # a new character: that glyph alone


def test_lines_freetype_lays_out_otherwise_are_rendered_whole() -> None:
    bundled = _bundled(14)
    assert fonts._assembled(bundled, "1,234", "ma", 0, (0.0, 0.0), "1") is None
    assert fonts._assembled(bundled, "", "ma", 0, (0.0, 0.0), "L") is None
    shaped = ImageFont.truetype(io.BytesIO(bundled.font_bytes), 14,
                                layout_engine=ImageFont.Layout.RAQM)
    if shaped.layout_engine == ImageFont.Layout.RAQM:  # Pillow has raqm
        assert fonts._assembled(shaped, "1,234", "ma", 0, (0.0, 0.0), "L") is None


def test_a_font_that_kerns_is_rendered_whole() -> None:
    """Pillow's basic layout kerns by an sfnt's ``kern`` table; a font that is no sfnt
    counts as kerning."""
    def sfnt(*tags: bytes) -> io.BytesIO:
        header = b"\0\1\0\0" + len(tags).to_bytes(2, "big") + bytes(6)
        return io.BytesIO(header + b"".join(tag + bytes(12) for tag in tags))

    assert not fonts._sfnt_kerns(sfnt(b"cmap", b"glyf", b"head"), 0)
    assert fonts._sfnt_kerns(sfnt(b"cmap", b"kern", b"head"), 0)
    assert fonts._sfnt_kerns(io.BytesIO(b"STARTFONT 2.1\n"), 0)
    assert not fonts._kerns(_bundled(14))

"""Text in images in any script: Pillow's bundled font first, system fonts for the rest.

Pillow's bundled font (Aileron) draws Latin letters only: Chinese names, Cyrillic, accented
letters and symbols would come out as boxes ("tofu"). So each character is drawn with the
first font of a chain that has a glyph for it:

1. Pillow's bundled font (``card_faces.font``), so that Latin text looks as it always did;
2. a CJK font, the first found among well-known paths (``CJK_FONTS``: WenQuanYi, Noto CJK,
   Droid Sans Fallback, the macOS and Windows system fonts), which also covers Cyrillic,
   Greek and accented Latin letters;
3. general fonts with many symbols and monochrome emoji (``SYMBOL_FONTS``: DejaVu Sans,
   Noto Sans Symbols, Symbola), where present.

A character that no font of the chain has is left out rather than drawn as a box (unless
nothing else of its text could be seen: then boxes tell that something is there). Without
any font of the system's, text is drawn by the bundled font alone, exactly as before. Whether a
font has a glyph is decided by drawing the character alone and comparing it with the font's
missing-glyph picture; the answer is cached per character, so a table image, drawn for every
update, measures each character once per process. A line of text is cut into runs of one font
each and the runs are drawn on one shared baseline (``draw_text``), with Pillow's anchors.
The image holds no font of its own: ``Dockerfile`` installs ``fonts-wqy-microhei``, and
without any CJK font the bundled font draws what it can, as before.
"""

from __future__ import annotations

import io
import math
import os
import struct
from collections.abc import Sequence
from functools import cache, lru_cache, partial
from pathlib import Path
from typing import BinaryIO, NamedTuple

from PIL import Image, ImageDraw, ImageFont

from bot.render.cache import BoundedCache
from bot.render.card_faces import font

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Colour = tuple[int, int, int] | tuple[int, int, int, int]

CJK_FONTS: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),  # Debian, Ubuntu: fonts-wqy-microhei
    ("/usr/share/fonts/wqy-microhei/wqy-microhei.ttc", 0),  # Fedora, Arch
    ("/usr/share/fonts/wenquanyi/wqy-microhei/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),  # fonts-noto-cjk; 2 is SC
    ("/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc", 2),  # Arch
    ("/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc", 2),  # Fedora
    ("/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf", 0),
    ("/usr/share/fonts/noto-cjk/NotoSansCJKsc-Regular.otf", 0),
    ("/usr/share/fonts/google-noto-sans-cjk-fonts/NotoSansCJK-Regular.ttc", 2),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),  # fonts-wqy-zenhei
    ("/usr/share/fonts/wqy-zenhei/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", 0),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 0),
    ("/System/Library/Fonts/PingFang.ttc", 0),  # macOS
    ("/System/Library/Fonts/STHeiti Light.ttc", 0),
    ("/Library/Fonts/Arial Unicode.ttf", 0),
    ("C:/Windows/Fonts/msyh.ttc", 0),  # Windows: Microsoft YaHei
    ("C:/Windows/Fonts/simsun.ttc", 0),
)
"""Where CJK fonts live on common systems, most wanted first: ``(path, face index)``."""

SYMBOL_FONTS: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0),  # fonts-dejavu-core
    ("/usr/share/fonts/dejavu/DejaVuSans.ttf", 0),
    ("/usr/share/fonts/TTF/DejaVuSans.ttf", 0),
    ("/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf", 0),
    ("/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf", 0),
    ("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf", 0),
    ("C:/Windows/Fonts/seguisym.ttf", 0),
)
"""Fonts with symbols and monochrome emoji, tried after the CJK font."""

MASKS_BUDGET = 4 * 1024 * 1024
"""Bytes of rendered lines kept (``_draw_run``): a line is about 1.9 KB (``benchmarks.render``,
50 tables: 617 lines in 1.2 MB), so some 2,000 lines, the names and amounts of a few hundred
tables."""

GLYPHS_BUDGET = 2 * 1024 * 1024
"""Bytes of single glyphs kept (``_assembled``): the whole of ASCII and Latin-1 at the table's
five sizes, plain and outlined (1,910 glyphs), counts 1.2 MB; the rest is room for other
pictures' sizes. ``benchmarks.render``'s 50 tables use 199 glyphs."""

GLYPH_OVERHEAD = 500
"""Bytes a kept glyph costs beside its pixels: its Python objects take 520 (``tracemalloc``,
94 glyphs), and the process grew by 530 a glyph, pixels included, for those 1,910."""

_PROBE_SIZE = 24
_MISSING = "\U0010fffd"
"""A private-use character no font draws: its picture is the font's missing-glyph box."""


@cache
def cjk_font_path() -> tuple[Path, int] | None:
    """The CJK font this system has (path and face index), or ``None``."""
    return _first_font(CJK_FONTS)


@cache
def fallback_fonts() -> tuple[tuple[Path, int], ...]:
    """The fonts tried after the bundled one, in order: the CJK font, then one symbol font."""
    found = [cjk_font_path(), _first_font(SYMBOL_FONTS)]
    return tuple(entry for entry in found if entry is not None)


def _first_font(candidates: Sequence[tuple[str, int]]) -> tuple[Path, int] | None:
    for name, index in candidates:
        path = Path(name)
        if path.is_file():
            try:
                ImageFont.truetype(str(path), _PROBE_SIZE, index=index)
            except OSError:  # not a font Pillow can read: try the next
                continue
            return path, index
    return None


@lru_cache(maxsize=64)
def font_chain(size: int) -> tuple[Font, ...]:
    """The fonts at ``size`` pixels, in the order characters look for a glyph."""
    return (font(size), *(ImageFont.truetype(str(path), size, index=index)
                          for path, index in fallback_fonts()))


def _picture(face: Font, text: str) -> tuple[tuple[int, int], bytes]:
    mask = face.getmask(text)
    return mask.size, bytes(mask)


@cache
def _missing_pictures() -> tuple[tuple[tuple[int, int], bytes], ...]:
    return tuple(_picture(face, _MISSING) for face in font_chain(_PROBE_SIZE))


@lru_cache(maxsize=16384)
def font_index(char: str) -> int | None:
    """Which font of the chain draws ``char`` (0 is the bundled font), or ``None`` when none
    has a glyph for it. Spaces and other blank characters belong to the bundled font."""
    if char.isspace() or not char.isprintable():
        return 0 if char.isspace() else None
    for index, face in enumerate(font_chain(_PROBE_SIZE)):
        if _picture(face, char) != _missing_pictures()[index]:
            return index
    return None


@cache
def _bundled_draws_ascii() -> bool:
    return all(font_index(chr(code)) == 0 for code in range(0x20, 0x7f))


def runs(text: str) -> list[tuple[int, str]]:
    """``text`` cut into runs drawn by one font each, ``(font index, text)``; characters no
    font draws are left out (see the module's documentation)."""
    if not fallback_fonts() or (text.isascii() and text.isprintable()
                                and _bundled_draws_ascii()):
        return [(0, text)] if text else []  # as Pillow alone draws it; or plain ASCII
    indices = [font_index(char) for char in text]
    if not any(index is not None and not char.isspace()
               for char, index in zip(text, indices, strict=True)):
        # Nothing would be left to see (a name of emoji only): boxes say more than nothing.
        indices = [0 if index is None and char.isprintable() else index
                   for char, index in zip(text, indices, strict=True)]
    cut: list[tuple[int, str]] = []
    for char, index in zip(text, indices, strict=True):
        if index is None:
            continue
        if cut and cut[-1][0] == index:
            cut[-1] = (index, cut[-1][1] + char)
        else:
            cut.append((index, char))
    return cut


def drawable(text: str) -> str:
    """``text`` without the characters no font draws."""
    return "".join(part for _, part in runs(text))


def text_length(text: str, size: int) -> float:
    """How wide ``text`` is drawn at ``size`` pixels."""
    return sum(_run_length(index, part, size) for index, part in runs(text))


@lru_cache(maxsize=4096)
def _run_length(index: int, part: str, size: int) -> float:
    """The width of one run; cached, since a table draws the same names at every update."""
    return font_chain(size)[index].getlength(part)


@lru_cache(maxsize=64)
def line_extent(size: int) -> tuple[int, int]:
    """The most any font of the chain at ``size`` reaches above and below the baseline
    (ascent, descent): the room a line of any script needs."""
    metrics = [face.getmetrics() for face in font_chain(size)
               if isinstance(face, ImageFont.FreeTypeFont)]
    return max((metric[0] for metric in metrics), default=size), \
        max((metric[1] for metric in metrics), default=0)


def fit_text(text: str, size: int, width: float) -> str:
    """``text`` if it is at most ``width`` pixels wide at ``size``, else its longest prefix
    that fits with an ellipsis after it. Remembered (4,096 lines) with the fonts it was
    measured with: a table fits every seat's name and status at every update, 60 µs a seat."""
    return _fit_text(text, size, width, fallback_fonts())


@lru_cache(maxsize=4096)
def _fit_text(text: str, size: int, width: float, _fonts: tuple[tuple[Path, int], ...]) -> str:
    text = drawable(text)
    if text_length(text, size) <= width:
        return text
    short, long = 0, len(text)  # text[:short] + "…" fits (or short is 0); text[:long] not
    while long - short > 1:
        middle = (short + long) // 2
        if text_length(text[:middle] + "…", size) <= width:
            short = middle
        else:
            long = middle
    return text[:short].rstrip() + "…"


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *, size: int,
              fill: Colour, anchor: str = "la", stroke_width: int = 0,
              stroke_fill: Colour | None = None) -> None:
    """``draw.text`` for one line in any script: ``anchor`` is Pillow's two letters
    (horizontal ``l``/``m``/``r``, vertical ``a``/``m``/``s``/``d``/``t``/``b``), applied to
    the whole line although its runs may use different fonts."""
    cut = runs(text)
    chain = font_chain(size)
    if len(cut) <= 1 and (not cut or cut[0][0] == 0):  # the bundled font alone, as before
        _draw_run(draw, xy, "".join(part for _, part in cut), chain[0], fill, anchor,
                  stroke_width, stroke_fill)
        return
    faces = [chain[index] for index, _ in cut]
    widths = [_run_length(index, part, size) for index, part in cut]
    x, y = xy
    x -= {"l": 0.0, "m": sum(widths) / 2, "r": sum(widths)}[anchor[0]]
    baseline = y + _baseline_offset(anchor[1], faces, [part for _, part in cut], stroke_width)
    for face, (_, part), width in zip(faces, cut, widths, strict=True):
        _draw_run(draw, (x, baseline), part, face, fill, anchor="ls", stroke_width=stroke_width,
                  stroke_fill=stroke_fill)
        x += width


def _draw_run(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, face: Font,
              fill: Colour, anchor: str, stroke_width: int, stroke_fill: Colour | None) -> None:
    """``draw.text(xy, text, font=face, ...)`` for one line, with the lines' masks kept
    (``_masks``): FreeType renders every glyph afresh on each call, about 0.02 ms a letter,
    and a table draws the same names and amounts at every update; a line not kept is
    assembled from kept glyphs where that gives the same mask (``_assembled``). Blending a mask with
    ``draw.bitmap`` is what ``draw.text`` does with it, so the pixels are the same."""
    if not isinstance(face, ImageFont.FreeTypeFont):  # a bitmap font: nothing to keep
        draw.text(xy, text, font=face, fill=fill, anchor=anchor, stroke_width=stroke_width,
                  stroke_fill=stroke_fill)
        return
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])
    stroke = stroke_fill if stroke_fill is not None else fill
    passes = [(0, fill)] if not stroke_width else \
        [(stroke_width, stroke)] + ([(0, fill)] if fill != stroke else [])
    for width, colour in passes:  # as draw.text: the outline, then the letters over it
        key = (face, text, anchor, width, start, draw.fontmode)
        mask, (left, top) = _masks.get(key, partial(_mask, *key))
        draw.bitmap((int(x) + left, int(y) + top), mask, fill=colour)


def _mask(face: ImageFont.FreeTypeFont, text: str, anchor: str, stroke_width: int,
          start: tuple[float, float], mode: str) -> tuple[Image.Image, tuple[int, int]]:
    """``face.getmask2(text, ...)`` as an image: assembled from kept glyphs (``_assembled``)
    where Pillow places each glyph by the advances alone, else rendered by FreeType."""
    assembled = _assembled(face, text, anchor, stroke_width, start, mode)
    if assembled is not None:
        return assembled
    core, offset = face.getmask2(text, mode, stroke_width=stroke_width, anchor=anchor,
                                 start=start, stroke_filled=True)
    return Image.frombytes(core.mode, core.size, bytes(core)), offset


_masks: BoundedCache[tuple[ImageFont.FreeTypeFont, str, str, int, tuple[float, float], str],
                     tuple[Image.Image, tuple[int, int]]] = \
    BoundedCache(lambda mask: mask[0].width * mask[0].height + 200, MASKS_BUDGET)


class _Glyph(NamedTuple):
    """One character as Pillow's basic layout draws it, from the pen on the baseline."""

    advance: int | None
    """Whole pixels to the next pen position; ``None`` when the glyph cannot be placed by its
    advance alone (a font that kerns, an advance that is not whole pixels)."""
    box: tuple[int, int, int, int]
    """``face.getbbox(char, anchor="ls")``: the ink's box widened to hold the pen and its
    advance, what Pillow sizes a line's mask by."""
    ink: Image.Image | None
    """The glyph's mask cropped to its ink (``None``: nothing drawn, as for a space)."""
    at: tuple[int, int]
    """Where ``ink``'s top left corner lies from the pen."""


def _glyph(face: ImageFont.FreeTypeFont, char: str, stroke_width: int, mode: str) -> _Glyph:
    """``char`` rendered alone by FreeType, once (``_glyphs``)."""
    advance = face.getlength(char, mode) * 64
    if advance % 64 or _kerns(face):
        return _Glyph(None, (0, 0, 0, 0), None, (0, 0))
    core, (left, top) = face.getmask2(char, mode, stroke_width=stroke_width, anchor="ls",
                                      stroke_filled=True)
    mask = Image.frombytes(core.mode, core.size, bytes(core))
    ink = mask.getbbox()
    box = face.getbbox(char, mode, anchor="ls")
    return _Glyph(int(advance) // 64, (int(box[0]), int(box[1]), int(box[2]), int(box[3])),
                  mask.crop(ink) if ink else None,
                  (left + ink[0], top + ink[1]) if ink else (0, 0))


_glyphs: BoundedCache[tuple[ImageFont.FreeTypeFont, str, int, str], _Glyph] = BoundedCache(
    lambda glyph: (glyph.ink.width * glyph.ink.height if glyph.ink else 0) + GLYPH_OVERHEAD,
    GLYPHS_BUDGET)


def _assembled(face: ImageFont.FreeTypeFont, text: str, anchor: str, stroke_width: int,
               start: tuple[float, float], mode: str
               ) -> tuple[Image.Image, tuple[int, int]] | None:
    """``face.getmask2``'s mask and offset for ``text``, from kept glyphs, laid out as
    Pillow's basic layout lays it out (``font_render`` in ``_imagingft.c``; Pillow's bundled
    font always uses it): FreeType renders each glyph at a whole pixel whatever the line (a
    fractional start moves the whole line by a pixel or not), and ``paste`` of a colour
    through a glyph's mask is the arithmetic FreeType's glyphs are blended with. A line is
    measured by its glyphs' boxes (in mode ``"L"`` a bitmap fills its outline's box rounded
    out to pixels) and the font's ascent and descent, whole pixels. Pixel for pixel the
    line FreeType renders (``tests/render/test_glyph_cache.py``). ``None`` where that does
    not hold: raqm's layout (shaping is contextual: ligatures, marks, kerning); a font with
    a kerning table, whose glyphs move by fractions of a pixel; and mode ``"1"``, where
    FreeType rounds a bitmap to pixels otherwise than the outline's box that places the
    line (a backslash starts a pixel right of its box)."""
    if face.layout_engine != ImageFont.Layout.BASIC or mode != "L" or not text \
            or len(anchor) != 2 \
            or anchor[0] not in "lmr" or anchor[1] not in "amsdtb":
        return None
    glyphs = [_glyphs.get(key, partial(_glyph, *key))
              for key in [(face, char, stroke_width, mode) for char in text]]
    pens: list[int] = []
    pen = 0
    for glyph in glyphs:
        if glyph.advance is None:
            return None
        pens.append(pen)
        pen += glyph.advance
    x_min = min(0, *(glyph.box[0] + at for glyph, at in zip(glyphs, pens, strict=True)))
    x_max = max(glyph.box[2] + at for glyph, at in zip(glyphs, pens, strict=True))
    y_max = -min(glyph.box[1] for glyph in glyphs)
    y_min = -max(glyph.box[3] for glyph in glyphs)
    ascent, descent = face.getmetrics()
    x_anchor = {"l": 0, "m": (pen + 1) >> 1, "r": pen}[anchor[0]]
    y_anchor = {"a": ascent, "t": y_max, "m": (ascent - descent + 1) >> 1, "s": 0,
                "b": y_min, "d": -descent}[anchor[1]]
    x_start, y_start = _single(start[0]), _single(start[1])
    size = (x_max - x_min + math.ceil(_single(2 * stroke_width + x_start)),
            y_max - y_min + math.ceil(_single(2 * stroke_width + y_start)))
    # The pen's start in 26.6 fixed point, rounded as C's round(), then to a pixel (PIXEL)
    x = (_c_round(_single(_single(-x_min + stroke_width + x_start) * 64)) + 32) >> 6
    y = -((_c_round(_single(_single(-y_max - stroke_width - y_start) * 64)) + 32) >> 6)
    line = Image.new("L", size)
    for glyph, at in zip(glyphs, pens, strict=True):
        if glyph.ink is not None:
            line.paste(255, (x + at + glyph.at[0], y + glyph.at[1]), glyph.ink)
    return line, (x_min - x_anchor - stroke_width, y_anchor - y_max - stroke_width)


def _single(value: float) -> float:
    """``value`` as a C ``float``, in which Pillow works out a line's start."""
    single: float = struct.unpack("f", struct.pack("f", value))[0]
    return single


def _c_round(value: float) -> int:
    """C's ``round``: halves away from zero (Python's ``round`` takes them to even)."""
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def _kerns(face: ImageFont.FreeTypeFont) -> bool:
    """Whether Pillow's basic layout may kern ``face``'s glyphs: FreeType kerns by an sfnt's
    ``kern`` table; a font of another format is taken to kern."""
    if isinstance(face.path, str | bytes | os.PathLike):
        return _file_kerns(os.fsdecode(face.path), face.index)
    return _sfnt_kerns(io.BytesIO(face.font_bytes), face.index)


@cache
def _file_kerns(path: str, index: int) -> bool:
    with open(path, "rb") as file:
        return _sfnt_kerns(file, index)


def _sfnt_kerns(file: BinaryIO, index: int) -> bool:
    """Whether the font ``index`` of the sfnt ``file`` (a collection's, or the only one) has a
    ``kern`` table, or ``file`` is no sfnt."""
    header = file.read(12)
    if header[:4] == b"ttcf":
        file.seek(12 + 4 * index)
        file.seek(struct.unpack(">I", file.read(4))[0])
        header = file.read(12)
    if len(header) < 12 or header[:4] not in (b"\0\1\0\0", b"OTTO", b"true"):
        return True
    records = file.read(16 * struct.unpack_from(">H", header, 4)[0])
    return any(records[at:at + 4] == b"kern" for at in range(0, len(records), 16))


def _baseline_offset(vertical: str, faces: Sequence[Font], parts: Sequence[str],
                     stroke_width: int) -> float:
    """How far below the anchor point the shared baseline lies."""
    if vertical in "tb":  # the ink's top or bottom
        boxes = [face.getbbox(part, anchor="ls", stroke_width=stroke_width)
                 for face, part in zip(faces, parts, strict=True)]
        return -min(box[1] for box in boxes) if vertical == "t" else \
            -max(box[3] for box in boxes)
    metrics = [face.getmetrics() for face in faces if isinstance(face, ImageFont.FreeTypeFont)]
    ascent = max((metric[0] for metric in metrics), default=0)
    descent = max((metric[1] for metric in metrics), default=0)
    return {"a": ascent, "d": -descent, "m": (ascent - descent) / 2}.get(vertical, 0.0)


__all__ = ["CJK_FONTS", "SYMBOL_FONTS", "cjk_font_path", "draw_text", "drawable",
           "fallback_fonts", "fit_text", "font_chain", "font_index", "line_extent", "runs",
           "text_length"]

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

import math
from collections.abc import Sequence
from functools import cache, lru_cache, partial
from pathlib import Path

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
    """``draw.text(xy, text, font=face, ...)`` for one line, with the glyphs' masks kept
    (``_masks``): FreeType renders every glyph afresh on each call, about 0.02 ms a letter,
    and a table draws the same names and amounts at every update. Blending a mask with
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
    core, offset = face.getmask2(text, mode, stroke_width=stroke_width, anchor=anchor,
                                 start=start, stroke_filled=True)
    return Image.frombytes(core.mode, core.size, bytes(core)), offset


_masks: BoundedCache[tuple[ImageFont.FreeTypeFont, str, str, int, tuple[float, float], str],
                     tuple[Image.Image, tuple[int, int]]] = \
    BoundedCache(lambda mask: mask[0].width * mask[0].height + 200, MASKS_BUDGET)


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

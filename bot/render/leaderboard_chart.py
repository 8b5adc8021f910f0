"""A bar chart of one ``/leaderboard`` page (Pillow only).

One horizontal bar per row, in the page's order: the rank and name on the left, the bar in
the middle and the value, with thousands separators, on the right. Bars start at a zero line:
positive values reach to its right, negative ones (net winnings can be negative) to its left,
so a page of only positive values puts the zero line at the left edge of the plot. Names may
be in any script (``bot.render.fonts`` finds a font for each character); characters that are
not printable (controls, bidirectional overrides, lone surrogates) or that no font has are
left out, and long names are shortened with an ellipsis. An empty page draws a short message
instead of bars.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import ENGLISH, Language, Message, Text, tr
from bot.ledger import RANKED_HABITS, LeaderboardOrder, LeaderboardRow
from bot.render.card_faces import font
from bot.render.fonts import draw_text, fit_text
from bot.render.stats_chart import habit_text

WIDTH, HEIGHT = 800, 400
PLOT_BOX = (250, 56, 630, 384)
"""Where the bars go (left, top, right, bottom); names sit left of it, values right."""
RANK_RIGHT = 62
"""The right edge of the rank column; names start just after it."""
VALUE_RIGHT = WIDTH - 14
"""The right edge of the value column."""
BACKGROUND = (32, 34, 40)
GRID_COLOUR = (62, 66, 76)
AXIS_COLOUR = (150, 154, 165)
TEXT_COLOUR = (230, 232, 236)
MUTED_TEXT = (160, 164, 175)
POSITIVE_COLOUR = (80, 200, 120)
NEGATIVE_COLOUR = (240, 80, 80)
MAX_ROW_HEIGHT = 32
EMPTY_PAGE = tr("Nobody on this page yet")
LEADERBOARD_VALUES: dict[LeaderboardOrder, Text] = {
    "balance": tr("chips"), "net": tr("net winnings"), "hands_won": tr("hands won"),
    "tournaments": tr("tournament winnings"), "won_at_showdown": tr("won at showdown"),
    "aggression": tr("aggression factor")}
"""What a leaderboard ranks by (every order of ``/leaderboard`` and the web's), as its title
says it."""

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def render_leaderboard_chart(rows: Sequence[LeaderboardRow], title: Message, *,
                             language: Language = ENGLISH,
                             value_text: Callable[[float], str] | None = None) -> bytes:
    """The chart as PNG bytes, ``WIDTH`` x ``HEIGHT``: one bar per row of ``rows`` (top to
    bottom in the given order) under ``title``; an empty ``rows`` draws ``EMPTY_PAGE``. Words
    (a ``Text`` title too) and numbers are in ``language``; ``value_text`` writes a row's
    value (default: an integer with ``language``'s digit grouping)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (20, 16), fit_text(printable(language.render(title)), 20, WIDTH - 40),
              fill=TEXT_COLOUR, size=20)
    if rows:
        _bars(draw, rows, language, value_text or (lambda value: language.number(int(value))))
    else:
        left, top, right, bottom = 20, PLOT_BOX[1], WIDTH - 20, PLOT_BOX[3]
        draw.rectangle((left, top, right, bottom), outline=GRID_COLOUR)
        draw_text(draw, ((left + right) / 2, (top + bottom) / 2),
                  language.render(EMPTY_PAGE), fill=MUTED_TEXT, size=24, anchor="mm")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def leaderboard_value(language: Language, order: LeaderboardOrder, value: float) -> str:
    """A leaderboard's value as its board shows it: chips or hands with the reader's digit
    grouping, a habit figure as ``/stats`` writes it (``54%``, an aggression factor ``2.3``)."""
    habit = next((name for name in RANKED_HABITS if name == order), None)
    return language.number(int(value)) if habit is None else habit_text(habit, value)


def zero_and_scale(values: Sequence[float]) -> tuple[float, float]:
    """The value range the bars span, ``(low, high)``: always includes 0 and is never empty,
    so the zero line is inside the plot (at its left edge when nothing is negative)."""
    low, high = min([0, *values]), max([0, *values])
    return (low, high) if high > low else (low, low + 1)


def printable(text: str) -> str:
    """``text`` on one line with what cannot be drawn left out: line breaks and tabs become
    spaces; other control, format and surrogate characters are dropped."""
    spaced = "".join(" " if c in "\t\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029" else c for c in text)
    return " ".join("".join(c for c in spaced if c.isprintable()).split())


def _bars(draw: ImageDraw.ImageDraw, rows: Sequence[LeaderboardRow],
          language: Language, value_text: Callable[[float], str]) -> None:
    left, top, right, bottom = PLOT_BOX
    low, high = zero_and_scale([row.value for row in rows])

    def x_of(value: float) -> float:
        return left + (right - left) * ((value - low) / (high - low))

    row_height = min(MAX_ROW_HEIGHT, (bottom - top) / len(rows))
    size = max(1, min(15, int(row_height * 0.5)))
    text_font = font(size)
    zero = x_of(0)
    for index, row in enumerate(rows):
        middle = top + row_height * (index + 0.5)
        rank = f"{language.number(row.rank)}."
        draw.text((RANK_RIGHT, middle), _fit(draw, rank, text_font, RANK_RIGHT - 14),
                  fill=MUTED_TEXT, font=text_font, anchor="rm")
        name = fit_text(printable(row.name) or "?", size, left - RANK_RIGHT - 16) or "?"
        draw_text(draw, (RANK_RIGHT + 6, middle), name, fill=TEXT_COLOUR, size=size,
                  anchor="lm")
        half = max(0.5, row_height * 0.3)
        end = x_of(row.value)
        if row.value != 0:  # at least a sliver, however small next to the others
            end = max(end, zero + 2) if row.value > 0 else min(end, zero - 2)
            colour = POSITIVE_COLOUR if row.value > 0 else NEGATIVE_COLOUR
            draw.rectangle((min(zero, end), middle - half, max(zero, end), middle + half),
                           fill=colour)
        value = value_text(row.value)
        value_font = text_font
        room = VALUE_RIGHT - right - 10
        if draw.textlength(value, font=value_font) > room:  # a huge number: smaller type
            value_font = font(max(1, size * 2 // 3))
        draw.text((VALUE_RIGHT, middle), _fit(draw, value, value_font, room), fill=TEXT_COLOUR,
                  font=value_font, anchor="rm")
    draw.line([(zero, top - 4), (zero, top + row_height * len(rows) + 4)], fill=AXIS_COLOUR)


def _fit(draw: ImageDraw.ImageDraw, text: str, text_font: Font, width: float) -> str:
    """``text`` if it is at most ``width`` pixels wide in ``text_font``, else its longest
    prefix that fits with an ellipsis after it."""
    if draw.textlength(text, font=text_font) <= width:
        return text
    short, long = 0, len(text)  # text[:short] + "…" fits (or short is 0); text[:long] not
    while long - short > 1:
        middle = (short + long) // 2
        if draw.textlength(text[:middle] + "…", font=text_font) <= width:
            short = middle
        else:
            long = middle
    return text[:short].rstrip() + "…"

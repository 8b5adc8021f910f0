"""The picture under ``/review``: the player's equity at each decision of a hand, street by
street, beside the equity a call needed (the pot odds), so that a call below the line reads at
a glance (Pillow only).

Each decision is a point, coloured by its verdict (``engine.coach.Verdict``): a mistake red, a
good fold or call and a bet for value green, the rest grey; an estimated equity (against
ranges) is a ring, an exact one a filled dot.
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from bot.i18n import ENGLISH, Language, tr
from bot.i18n.poker import street_name
from bot.render.fonts import draw_text, fit_text, text_length
from bot.render.stats_chart import (
    AXIS_COLOUR,
    BACKGROUND,
    GRID_COLOUR,
    MUTED_TEXT,
    NON_SHOWDOWN_COLOUR,
    PLAYER_BAR_COLOUR,
    TEXT_COLOUR,
    TOTAL_COLOUR,
)
from engine.coach import Review, Verdict

WIDTH, HEIGHT = 640, 300
PLOT_BOX = (60, 56, 620, 236)
"""The chart area (left, top, right, bottom); labels sit outside it."""
EQUITY_COLOUR = (70, 140, 255)
VERDICT_COLOURS = {Verdict.MISTAKE: NON_SHOWDOWN_COLOUR, Verdict.GOOD: TOTAL_COLOUR,
                   Verdict.VALUE: TOTAL_COLOUR}
"""A point's colour by verdict; the others (close, needs folds, a check) are grey."""
DOT = 6


def render_review_chart(found: Review, language: Language = ENGLISH) -> bytes:
    """The chart of ``found``'s decisions as PNG bytes, ``WIDTH`` x ``HEIGHT``, its words in
    ``language``. Raises ``ValueError`` for a review without decisions (nothing to draw)."""
    decisions = found.decisions
    if not decisions:
        raise ValueError("a review without decisions has no chart")
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = PLOT_BOX
    draw_text(draw, (left, 14), fit_text(language.render(tr("Your equity at each decision")),
                                         18, right - left), fill=TEXT_COLOUR, size=18)
    for percent in range(0, 101, 25):
        y = bottom - (bottom - top) * percent / 100
        draw.line([(left, y), (right, y)], fill=GRID_COLOUR)
        draw_text(draw, (left - 6, y), f"{percent}%", fill=MUTED_TEXT, size=12, anchor="rm")
    draw.rectangle(PLOT_BOX, outline=AXIS_COLOUR)
    step = (right - left) / len(decisions)
    points = []
    for index, decision in enumerate(decisions):
        x = left + step * (index + 0.5)
        points.append((x, bottom - (bottom - top) * decision.equity))
        label = fit_text(language.render(street_name(decision.street)), 12, step - 2)
        draw_text(draw, (x, bottom + 6), label, fill=MUTED_TEXT, size=12, anchor="mt")
        if decision.needed is not None:
            y = bottom - (bottom - top) * decision.needed
            draw.line([(x - step * 0.3, y), (x + step * 0.3, y)], fill=PLAYER_BAR_COLOUR,
                      width=3)
    if len(points) > 1:
        draw.line(points, fill=EQUITY_COLOUR, width=2)
    for (x, y), decision in zip(points, decisions, strict=True):
        colour = VERDICT_COLOURS.get(decision.verdict, AXIS_COLOUR)
        box = (x - DOT, y - DOT, x + DOT, y + DOT)
        if decision.estimated:
            draw.ellipse(box, fill=BACKGROUND, outline=colour, width=3)
        else:
            draw.ellipse(box, fill=colour)
    _legend(draw, language)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _legend(draw: ImageDraw.ImageDraw, language: Language) -> None:
    """The four marks in a row under the chart, each as wide as its words."""
    x, y = float(PLOT_BOX[0]), HEIGHT - 34
    for label, colour in ((tr("Equity (ring: estimated)"), EQUITY_COLOUR),
                          (tr("Needed to call"), PLAYER_BAR_COLOUR),
                          (tr("Mistake"), NON_SHOWDOWN_COLOUR), (tr("Good"), TOTAL_COLOUR)):
        text = language.render(label)
        draw.line([(x, y + 8), (x + 18, y + 8)], fill=colour, width=4)
        draw_text(draw, (x + 24, y), text, fill=TEXT_COLOUR, size=12)
        x += 24 + text_length(text, 12) + 28

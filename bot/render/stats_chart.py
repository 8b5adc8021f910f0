"""A player's results chart for ``/stats``: cumulative net chips hand by hand (Pillow only).

Three lines share the chart: all hands, and that total split into showdown and non-showdown
winnings. A hand counts as **showdown** when the player won chips at showdown
(``showdown_won``), or lost chips in a hand that went to showdown (``not won`` and
``reached_showdown``). Everything else is **non-showdown**: pots taken when everyone else
folded, and chips lost in hands that ended by folds. The hand log does not record when a
player folded, so chips lost folding in a hand that others took to showdown count as showdown
losses; those are usually small (blinds, a call or two), while counting a lost showdown as a
fold would hide the big swings. The two lines always add up to the total.

A side panel compares the player's VPIP and PFR with the server's average, and a panel under
the chart their playing style (``HABIT_FIGURES``: 3-bet %, fold to 3-bet %, c-bet %, aggression
factor, WTSD, W$SD) with the server's: a figure without a chance yet reads "—". With fewer than
two hands there is no line to draw: the image says so instead.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from bot.i18n import ENGLISH, Language, Text, tr, tr_n
from bot.ledger import (
    HABIT_FIGURES,
    HabitFigure,
    Habits,
    HandResultPoint,
    PlayerStats,
    ServerAverages,
    TournamentStats,
)
from bot.render.card_faces import font
from bot.render.fonts import draw_text, fit_text, text_length

WIDTH, HEIGHT = 800, 550
PLOT_BOX = (80, 50, 580, 350)
"""The chart area (left, top, right, bottom); axis labels sit outside it."""
STYLE_TOP = 400
"""Where the playing-style panel starts, under the chart: three figures a row."""
STYLE_ROW = 62
"""The height of a row of figures: a name and two bars."""
AGGRESSION_SCALE = 5.0
"""The aggression factor a full bar shows: usual players lie between 1 and 4."""
BACKGROUND = (32, 34, 40)
GRID_COLOUR = (62, 66, 76)
AXIS_COLOUR = (150, 154, 165)
TEXT_COLOUR = (230, 232, 236)
MUTED_TEXT = (160, 164, 175)
TOTAL_COLOUR = (80, 200, 120)
SHOWDOWN_COLOUR = (70, 140, 255)
NON_SHOWDOWN_COLOUR = (240, 80, 80)
PLAYER_BAR_COLOUR = (240, 190, 60)
SERVER_BAR_COLOUR = (120, 124, 135)
NO_HANDS = tr("No hands yet")
NO_FIGURE = "—"
"""A figure without a chance yet (its denominator is 0)."""
HABIT_LABELS: dict[HabitFigure, Text] = {
    "three_bet": tr("3-bet"),
    "fold_to_three_bet": tr("Fold to 3-bet"),
    "cbet": tr("C-bet"),
    "aggression": tr("Aggression (AF)"),
    "went_to_showdown": tr("Went to showdown (WTSD)"),
    "won_at_showdown": tr("Won at showdown (W$SD)"),
}
"""Each figure's name, for the chart and for ``/stats``."""


def habit_text(name: HabitFigure, value: float | None) -> str:
    """A figure as a reader sees it: ``27%``, an aggression factor ``2.3``, or ``NO_FIGURE``."""
    if value is None:
        return NO_FIGURE
    return f"{value:.1f}" if name == "aggression" else f"{value:.0f}%"


def signed(language: Language, amount: int) -> str:
    """A gain or loss with its sign and the reader's digit grouping: ``+1,500``."""
    return ("-" if amount < 0 else "+") + language.number(abs(amount))


def record_figures(stats: PlayerStats, language: Language) -> list[tuple[Text, str]]:
    """A person's record as /stats and their web page list it: each figure's name and value."""
    return [
        (tr("Balance"), language.number(stats.balance)),
        (tr("Hands played"), language.number(stats.hands_played)),
        (tr("Hands won"), language.number(stats.hands_won)),
        (tr("Showdowns won"), language.number(stats.showdowns_won)),
        (tr("Net winnings"), signed(language, stats.net_chips)),
        (tr("Biggest pot"), language.number(stats.biggest_pot)),
        (tr("VPIP"), f"{stats.vpip_percent:.0f}%"),
        (tr("PFR"), f"{stats.pfr_percent:.0f}%"),
    ]


def habit_line(name: HabitFigure, mine: float | None, server: float | None) -> Text:
    """One playing habit of a person beside the server's: ``27% · server 22%``."""
    return tr("{mine} · server {server}", mine=habit_text(name, mine),
              server=habit_text(name, server))


def tournament_line(tournaments: TournamentStats, language: Language) -> Text | None:
    """A person's tournament record in one line, or ``None`` before their first one."""
    if not tournaments.played:
        return None
    return tr("{played} played · {in_the_money} in the money · {wins} won · net {net}",
              played=tournaments.played, in_the_money=tournaments.in_the_money,
              wins=tournaments.wins, net=signed(language, tournaments.net))


def is_showdown(point: HandResultPoint) -> bool:
    """True when the hand's net counts as showdown winnings (the rule in the module doc)."""
    return point.showdown_won or (not point.won and point.reached_showdown)


def cumulative_lines(
    points: Sequence[HandResultPoint],
) -> tuple[list[int], list[int], list[int]]:
    """The running totals (all, showdown, non-showdown), each starting at 0 before the first
    hand, so each holds ``len(points) + 1`` values."""
    total, showdown, other = [0], [0], [0]
    for point in points:
        total.append(total[-1] + point.net)
        if is_showdown(point):
            showdown.append(showdown[-1] + point.net)
            other.append(other[-1])
        else:
            showdown.append(showdown[-1])
            other.append(other[-1] + point.net)
    return total, showdown, other


def render_stats_chart(
    points: Sequence[HandResultPoint],
    stats: PlayerStats,
    server_average: ServerAverages | None,
    *,
    habits: Habits | None = None,
    server_habits: Mapping[HabitFigure, float | None] | None = None,
    language: Language = ENGLISH,
) -> bytes:
    """The chart as PNG bytes, ``WIDTH`` x ``HEIGHT``: the player's cumulative net chips over
    ``points`` (in the order played), split into showdown and non-showdown winnings, with a
    legend, a VPIP/PFR panel against ``server_average`` (left out when ``None``) and a panel
    of ``habits`` against ``server_habits`` (the server's bars left out when ``None``); its
    words in ``language``."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    title = language.render(tr("{name}: net chips, hand by hand", name=stats.name))
    draw_text(draw, (PLOT_BOX[0], 14), fit_text(title, 20, WIDTH - PLOT_BOX[0] - 20),
              fill=TEXT_COLOUR, size=20)
    if len(points) < 2:
        _message(draw, points, language)
    else:
        _chart(draw, points, language)
    _legend(draw, language)
    _habits_panel(draw, stats, server_average, language)
    _style_panel(draw, habits or Habits(), server_habits, language)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _message(draw: ImageDraw.ImageDraw, points: Sequence[HandResultPoint],
             language: Language) -> None:
    left, top, right, bottom = PLOT_BOX
    draw.rectangle(PLOT_BOX, outline=GRID_COLOUR)
    if points:
        net = points[0].net
        lines = [tr("Only one hand so far"), tr("{chips} chips", chips=signed(language, net)),
                 tr("The chart starts after two.")]
    else:
        lines = [NO_HANDS]
    y = (top + bottom) / 2 - 18 * len(lines) / 2
    for i, line in enumerate(lines):
        size = 24 if i == 0 else 16
        draw_text(draw, ((left + right) / 2, y),
                  fit_text(language.render(line), size, right - left - 10),
                  fill=TEXT_COLOUR if i == 0 else MUTED_TEXT, size=size, anchor="mt")
        y += size + 10


def _chart(draw: ImageDraw.ImageDraw, points: Sequence[HandResultPoint],
           language: Language) -> None:
    left, top, right, bottom = PLOT_BOX
    lines = cumulative_lines(points)
    low = min(min(line) for line in lines)
    high = max(max(line) for line in lines)
    ticks = _nice_ticks(low, high)
    y_low, y_high = ticks[0], ticks[-1]
    hands = len(points)

    def x_of(index: float) -> float:
        return left + (right - left) * index / hands

    def y_of(value: float) -> float:
        return bottom - (bottom - top) * (value - y_low) / (y_high - y_low)

    small = font(12)
    for value in ticks:
        y = y_of(value)
        draw.line([(left, y), (right, y)], fill=AXIS_COLOUR if value == 0 else GRID_COLOUR)
        label = language.number(value)
        tight = draw.textlength(label, font=small) > left - 10  # a huge number: smaller type
        draw.text((left - 6, y), label, fill=MUTED_TEXT, font=font(8) if tight else small,
                  anchor="rm")
    for index in _nice_ticks(0, hands, count=6):
        if 0 <= index <= hands:
            x = x_of(index)
            draw.line([(x, bottom), (x, bottom + 4)], fill=AXIS_COLOUR)
            draw.text((x, bottom + 6), language.number(index), fill=MUTED_TEXT, font=small,
                      anchor="mt")
    draw.rectangle(PLOT_BOX, outline=AXIS_COLOUR)
    draw_text(draw, ((left + right) / 2, bottom + 24), language.render(tr("Hands played")),
              fill=MUTED_TEXT, size=13, anchor="mt")
    draw_text(draw, (left - 6, top - 8), language.render(tr("Chips")), fill=MUTED_TEXT,
              size=13, anchor="rb")
    for line, colour in zip(lines[::-1], (NON_SHOWDOWN_COLOUR, SHOWDOWN_COLOUR, TOTAL_COLOUR),
                            strict=True):  # the total last, on top
        draw.line([(x_of(i), y_of(v)) for i, v in enumerate(line)], fill=colour, width=2)


def _nice_ticks(low: float, high: float, count: int = 5) -> list[int]:
    """Round, evenly spaced integers that cover ``low..high`` (about ``count`` steps)."""
    if high <= low:
        low, high = low - 1, high + 1
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    return list(range(int(first), int(last) + 1, int(step)))


def _legend(draw: ImageDraw.ImageDraw, language: Language) -> None:
    x, y = 600, 50
    draw_text(draw, (x, y), language.render(tr("Net chips")), fill=TEXT_COLOUR, size=15)
    for label, colour in ((tr("All hands"), TOTAL_COLOUR), (tr("Showdown"), SHOWDOWN_COLOUR),
                          (tr("Non-showdown"), NON_SHOWDOWN_COLOUR)):
        y += 24
        draw.line([(x, y + 8), (x + 22, y + 8)], fill=colour, width=3)
        draw_text(draw, (x + 30, y), fit_text(language.render(label), 13, WIDTH - x - 36),
                  fill=TEXT_COLOUR, size=13)


def _habits_panel(
    draw: ImageDraw.ImageDraw, stats: PlayerStats, server_average: ServerAverages | None,
    language: Language,
) -> None:
    x, y, width = 600, 180, 180
    draw_text(draw, (x, y), language.render(tr("Preflop")), fill=TEXT_COLOUR, size=15)
    rows = [("VPIP", stats.vpip_percent, server_average and server_average.vpip_percent),
            ("PFR", stats.pfr_percent, server_average and server_average.pfr_percent)]
    small = font(12)
    for name, mine, theirs in rows:
        y += 26
        draw.text((x, y), name, fill=TEXT_COLOUR, font=small)
        y += 16
        bars = [(language.render(tr("You")), mine, PLAYER_BAR_COLOUR)]
        if server_average is not None and server_average.players:
            bars.append((language.render(tr("Server")), float(theirs or 0.0),
                         SERVER_BAR_COLOUR))
        for label, percent, colour in bars:
            draw_text(draw, (x, y), fit_text(label, 12, 44), fill=MUTED_TEXT, size=12)
            _bar(draw, x + 48, x + width - 44, y, percent / 100, colour)
            draw.text((x + width, y), f"{percent:.0f}%", fill=TEXT_COLOUR, font=small,
                      anchor="ra")
            y += 18
    hands = tr_n("{count} hand played", "{count} hands played", stats.hands_played)
    draw_text(draw, (x, y + 14), fit_text(language.render(hands), 12, WIDTH - x - 10),
              fill=MUTED_TEXT, size=12)


def _style_panel(
    draw: ImageDraw.ImageDraw, habits: Habits, server: Mapping[HabitFigure, float | None] | None,
    language: Language,
) -> None:
    """One cell per figure, three a row: its name, the player's bar and the server's."""
    left, right = 20, WIDTH - 20
    draw.line([(left, STYLE_TOP - 8), (right, STYLE_TOP - 8)], fill=GRID_COLOUR)
    draw_text(draw, (left, STYLE_TOP), language.render(tr("Playing style")), fill=TEXT_COLOUR,
              size=15)
    key_x: float = right
    keys = [(tr("You"), PLAYER_BAR_COLOUR)] + ([] if server is None else [
        (tr("Server"), SERVER_BAR_COLOUR)])
    for label, colour in reversed(keys):  # a key at the right: "■ You  ■ Server"
        text = fit_text(language.render(label), 12, 80)
        draw_text(draw, (key_x, STYLE_TOP + 2), text, fill=MUTED_TEXT, size=12, anchor="ra")
        key_x -= text_length(text, 12) + 6
        draw.rectangle((key_x - 10, STYLE_TOP + 4, key_x, STYLE_TOP + 14), fill=colour)
        key_x -= 24
    columns = 3
    width = (right - left) / columns
    for index, name in enumerate(HABIT_FIGURES):
        x = left + index % columns * width
        y = STYLE_TOP + 26 + index // columns * STYLE_ROW
        draw_text(draw, (x, y), fit_text(language.render(HABIT_LABELS[name]), 13, width - 20),
                  fill=TEXT_COLOUR, size=13)
        bars = [(habits.figure(name), PLAYER_BAR_COLOUR)]
        if server is not None:
            bars.append((server.get(name), SERVER_BAR_COLOUR))
        for value, colour in bars:
            y += 18
            full = AGGRESSION_SCALE if name == "aggression" else 100.0
            _bar(draw, x, x + width - 70, y, 0.0 if value is None else value / full, colour)
            draw_text(draw, (x + width - 20, y), habit_text(name, value), fill=TEXT_COLOUR,
                      size=12, anchor="ra")


def _bar(draw: ImageDraw.ImageDraw, left: float, right: float, y: float, share: float,
         colour: tuple[int, int, int]) -> None:
    """A bar's outline from ``left`` to ``right`` on the text line at ``y``, filled for
    ``share`` of it (clamped to 0..1)."""
    draw.rectangle((left, y + 2, right, y + 12), outline=GRID_COLOUR)
    share = max(0.0, min(share, 1.0))
    if share > 0:
        draw.rectangle((left, y + 2, left + (right - left) * share, y + 12), fill=colour)

"""The table as a PNG for the channel: felt, seats, bets, button, board, pots, whose turn.

It draws only ``TableState``, which is public: hole cards appear only when shown at showdown
(``SeatState.shown_cards``), with the hand they make.

The picture is drawn for every edit of every table's message, so it is composed rather than
drawn: ``table_pieces`` turns a state into pieces, frozen records of what each part shows (the
header, each place of the board, the pots, a seat's plate, its cards, chips and button, the
last action's line). A piece is drawn once, in RGB on the felt where it sits, reduced to one
fixed palette (``palette``) and kept as the pixels it changes; a picture is the felt in that
palette with its pieces pasted, and its PNG is made of compressed bands of rows kept by the
pieces in them (``banded_png``). An edit draws only the pieces that changed (the seat that
acted, the seat to act, the bet, the line) and compresses only their rows, and since the
palette is fixed there is no colour reduction of the whole frame. The full-colour drawing
(``draw_table``, for the replay) paints the same pieces. Equal pieces make equal bytes, so
``table_image_key`` tells the front end, before drawing, that the picture on the message is
still right. ``python -m benchmarks.render`` measures it.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from functools import cache, partial
from typing import Protocol

import numpy as np
from PIL import Image, ImageDraw

from bot.i18n import ENGLISH, Language, Text, tr
from bot.i18n.poker import hand_name as hand_name_text
from bot.i18n.poker import street_name
from bot.render.banded_png import BandedPng
from bot.render.cache import BoundedCache
from bot.render.card_faces import (
    BACK_COLOUR,
    EDGE_COLOUR,
    FACE_COLOUR,
    SUIT_COLOURS,
    card_back,
    card_face,
)
from bot.render.fonts import Colour, draw_text, fit_text, line_extent, text_length
from bot.tables.notifier import PotState, SeatState, TableState
from engine.cards import Card, parse_cards
from engine.evaluator import evaluate

WIDTH, HEIGHT = 800, 450
CENTRE = (WIDTH / 2, HEIGHT / 2 - 5)
FELT_BOX = (70, 55, 730, 385)
SEAT_RADII = (345, 195)  # seat boxes sit on an oval just outside the felt
BET_RADII = (200, 92)  # chips and the dealer button sit between the seat and the board
BOARD_CARD = (50, 70)
SHOWN_CARD = (34, 48)
SEAT_BOX = (136, 46)

BACKGROUND = (24, 27, 32)
RAIL = (92, 58, 30)
FELT = (31, 111, 67)
FELT_LINE = (48, 140, 88)
TEXT = (228, 230, 224)
DIM_TEXT = (150, 160, 150)
SEAT_FILL = (30, 34, 40)
FOLDED_FILL = (55, 58, 62)
TO_ACT = (255, 200, 40)
CHIP = (220, 60, 50)
BUTTON = (236, 214, 160)
ALL_IN = (220, 60, 50)
PLATE_EDGE = (90, 95, 100)

PIECES_BUDGET = 48 * 1024 * 1024
"""Bytes of drawn pieces kept for all tables of the process. After a hand at each of 50
tables (``benchmarks.render``) 1,233 pieces held 12.7 MB, 250 KB a table, the pieces of its
latest pictures among them: so the pieces of some 190 busy tables stay drawn. With more
tables, more pieces are drawn again (more CPU), in the same memory."""
BAND_ROWS = 32
BAND_LEVEL = 6
"""How the PNG is compressed (``banded_png``): bands of 32 rows at level 6, each band once per
content. Encoding alone with zlib, per picture of ``benchmarks.render``'s hands (30 tables,
pieces drawn already, median of 3 rounds), in bands of 32 rows at level 1, 3, 4, 5, 6:
0.51, 0.43, 0.82, 1.04, 1.18 ms for 13.8, 11.9, 11.3, 10.2, 9.1 KB (levels above 3 search
lazily); 16 rows at level 6 1.34 ms, 9.7 KB; 64 rows at level 4 0.99 ms, 11.3 KB; the whole
picture at once at level 1 1.15 ms, 14.0 KB, at level 6 4.2 ms, 9.0 KB. Every click is
answered with its own picture (about 10 a hand), so pictures are most of the bytes a hand
uploads: with zlib-ng at level 6 instead of zlib at level 3, ``benchmarks.render --against``
(3 rounds each, in turns) drew and encoded a picture in 2.46 ms against 1.92 for 8.9 KB
against 12.0 (-26 %), and ``benchmarks.discord`` at 50 tables uploaded 120-122 KB a hand
against 150-151 for 5 ms more of the picture worker's CPU, which putting pictures
together in arrays (``_compose``) then won back."""
BANDS_BUDGET = 16 * 1024 * 1024
"""Bytes of compressed bands kept. After a hand at each of 50 tables 3,135 bands held 3.9 MB,
80 KB a table, of which a picture's 15 bands are 19 KB: so some 200 busy tables keep theirs
whole, and 800 at least their latest picture's."""

Box = tuple[int, int, int, int]


def render_table(state: TableState, *, language: Language = ENGLISH) -> bytes:
    """PNG (800x450) of the table as everyone in the channel may see it, its words in
    ``language`` (the channel's). Equal ``table_image_key`` give equal bytes."""
    return render_pieces(table_pieces(state, language=language))


def table_image_key(state: TableState, *, language: Language = ENGLISH) -> str:
    """What ``render_table(state, language=language)`` would draw, as a short digest: when it
    equals the key of the picture already on the message, the picture has not changed and
    need be neither drawn nor uploaded again. Costs 0.15 to 0.2 ms (3 and 9 seats: the
    pieces, undrawn), a tenth of drawing; stable across processes of one version of this
    module."""
    return pieces_key(table_pieces(state, language=language))


def pieces_key(pieces: tuple[Piece, ...]) -> str:
    """``table_image_key`` of the state whose ``table_pieces`` these are."""
    return hashlib.blake2b(repr(pieces).encode(), digest_size=12).hexdigest()


def render_pieces(pieces: tuple[Piece, ...]) -> bytes:
    """``render_table`` of the state whose ``table_pieces`` these are (made once for both
    the key and the picture)."""
    image, bands = _compose(pieces)
    return _encoder().encode(image, bands)


def draw_table(state: TableState, face_down: Collection[int] = (), *,
               language: Language = ENGLISH) -> Image.Image:
    """The table (RGB, 800x450) with ``state``'s seats, board and pots, its words in
    ``language``, drawn in full colour (for the replay, whose frames share a palette of
    their own). Seats in ``face_down`` (dealt in, cards not shown to this viewer) get two
    card backs in the place where shown cards go (``hole_card_boxes``), so a replay shows who
    still holds cards."""
    return _draw_pieces(table_pieces(state, face_down, language=language))


def _draw_pieces(pieces: Iterable[Piece]) -> Image.Image:
    """``pieces`` drawn in order on the felt, in RGB."""
    image = _felt().copy()
    canvas = Canvas(image, (0, 0))
    for piece in pieces:
        piece.paint(canvas)
    return image.convert("RGB")


@cache
def _felt() -> Image.Image:
    """The static layer: background, rail and felt."""
    image = Image.new("RGBA", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = FELT_BOX
    draw.ellipse((left - 14, top - 14, right + 14, bottom + 14), fill=RAIL)
    draw.ellipse(FELT_BOX, fill=FELT)
    draw.ellipse((left + 24, top + 24, right - 24, bottom - 24), outline=FELT_LINE, width=2)
    return image


class Canvas:
    """The RGBA picture of the part of the table whose top left corner is ``origin``: pieces
    draw on it in the table's coordinates."""

    def __init__(self, image: Image.Image, origin: tuple[int, int]) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self._x, self._y = origin

    def at(self, x: float, y: float) -> tuple[float, float]:
        """A point of the table on this picture."""
        return x - self._x, y - self._y

    def box(self, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        """A box of the table on this picture."""
        return box[0] - self._x, box[1] - self._y, box[2] - self._x, box[3] - self._y

    def text(self, xy: tuple[float, float], text: str, *, size: int, fill: Colour,
             anchor: str = "la", stroke_width: int = 0,
             stroke_fill: Colour | None = None) -> None:
        """``fonts.draw_text`` at a point of the table."""
        draw_text(self.draw, self.at(*xy), text, size=size, fill=fill, anchor=anchor,
                  stroke_width=stroke_width, stroke_fill=stroke_fill)

    def card(self, sprite: Image.Image, xy: tuple[int, int]) -> None:
        """A card sprite with its top left corner at a point of the table."""
        self.image.alpha_composite(sprite, (xy[0] - self._x, xy[1] - self._y))


class Piece(Protocol):
    """A part of the table picture: hashable, its look a function of its fields alone."""

    def __hash__(self) -> int: ...

    def bounds(self) -> Box:
        """Where on the table it may draw (clipped to the picture)."""

    def paint(self, canvas: Canvas) -> None:
        """Draw it."""


def _clip(left: float, top: float, right: float, bottom: float) -> Box:
    return (max(0, math.floor(left)), max(0, math.floor(top)),
            min(WIDTH, math.ceil(right)), min(HEIGHT, math.ceil(bottom)))


@dataclass(frozen=True, slots=True)
class _Text:
    """One line of text straight on the table."""

    xy: tuple[float, float]
    text: str
    size: int
    fill: Colour
    anchor: str = "la"
    stroke_width: int = 0
    stroke_fill: Colour | None = None

    def bounds(self) -> Box:
        width = text_length(self.text, self.size) + 2 * self.stroke_width
        left = self.xy[0] - width * {"l": 0.0, "m": 0.5, "r": 1.0}[self.anchor[0]]
        ascent, descent = line_extent(self.size)
        above, below = {"a": (0, ascent + descent), "t": (0, ascent + descent),
                        "s": (ascent, descent), "m": (ascent, ascent),
                        "d": (ascent + descent, 0), "b": (ascent + descent, 0)}[self.anchor[1]]
        margin = self.stroke_width + 2
        return _clip(left - 4, self.xy[1] - above - margin, left + width + 4,
                     self.xy[1] + below + margin)

    def paint(self, canvas: Canvas) -> None:
        canvas.text(self.xy, self.text, size=self.size, fill=self.fill, anchor=self.anchor,
                    stroke_width=self.stroke_width, stroke_fill=self.stroke_fill)


@dataclass(frozen=True, slots=True)
class _BoardPlace:
    """One of the board's places, at ``at`` (top left): a card, or its outline while empty.
    A place apiece, so that a card dealt draws one card."""

    at: tuple[int, int]
    card: Card | None

    def bounds(self) -> Box:
        return _clip(*self.at, self.at[0] + BOARD_CARD[0], self.at[1] + BOARD_CARD[1])

    def paint(self, canvas: Canvas) -> None:
        width, height = BOARD_CARD
        x, y = self.at
        if self.card is not None:
            canvas.card(card_face(self.card, width, height), self.at)
        else:
            canvas.draw.rounded_rectangle(canvas.box((x, y, x + width - 1, y + height - 1)),
                                          radius=6, outline=FELT_LINE, width=2)


def _board(boards: tuple[tuple[Card, ...], ...]) -> Iterator[Piece]:
    """The board's five places, one row per board (two when the hand is run twice)."""
    width, height = BOARD_CARD
    gap = 6
    row_height = height + 6 if len(boards) > 1 else height
    top = CENTRE[1] - (row_height * len(boards)) / 2
    left = CENTRE[0] - (5 * width + 4 * gap) / 2
    for row, board in enumerate(boards):
        for slot in range(5):
            yield _BoardPlace((int(left + slot * (width + gap)), int(top + row * row_height)),
                              board[slot] if slot < len(board) else None)


@dataclass(frozen=True, slots=True)
class _Plate:
    """A seat's box: name, stack or status, the outline of the seat to act."""

    seat: int
    max_seats: int
    name: str
    status: str
    faded: bool
    to_act: bool
    all_in: bool

    def _box(self) -> tuple[float, float, float, float]:
        x, y = _seat_centre(self.seat, self.max_seats)
        width, height = SEAT_BOX
        return x - width / 2, y - height / 2, x + width / 2, y + height / 2

    def bounds(self) -> Box:
        left, top, right, bottom = self._box()
        return _clip(left - 1, top - 1, right + 2, bottom + 2)

    def paint(self, canvas: Canvas) -> None:
        box = self._box()
        x = (box[0] + box[2]) / 2
        canvas.draw.rounded_rectangle(canvas.box(box), radius=10,
                                      fill=FOLDED_FILL if self.faded else SEAT_FILL,
                                      outline=TO_ACT if self.to_act else PLATE_EDGE,
                                      width=4 if self.to_act else 1)
        text_colour = DIM_TEXT if self.faded else TEXT
        canvas.text((x, box[1] + 5), self.name, size=14, fill=text_colour, anchor="ma")
        canvas.text((x, box[1] + 25), self.status, size=13,
                    fill=ALL_IN if self.all_in else text_colour, anchor="ma")


@dataclass(frozen=True, slots=True)
class _HoleCards:
    """A seat's cards in the place above (or below) its box: shown, or face down."""

    seat: int
    max_seats: int
    cards: tuple[Card, ...]
    """The shown cards; empty for two card backs."""

    def _places(self) -> list[tuple[int, int, int, int]]:
        return hole_card_boxes(self.seat, self.max_seats, len(self.cards) or 2)

    def bounds(self) -> Box:
        places = self._places()
        return _clip(places[0][0], places[0][1], places[-1][2], places[-1][3])

    def paint(self, canvas: Canvas) -> None:
        sprites = [card_face(card, *SHOWN_CARD) for card in self.cards] or \
            [card_back(*SHOWN_CARD)] * 2
        for sprite, (left, top, _, _) in zip(sprites, self._places(), strict=True):
            canvas.card(sprite, (left, top))


@dataclass(frozen=True, slots=True)
class _Disc:
    """A chip (in front of a bet) or the dealer button, at ``at``."""

    at: tuple[float, float]
    button: bool

    def bounds(self) -> Box:
        x, y = self.at
        return _clip(x - 12, y - 12, x + 13, y + 13)

    def paint(self, canvas: Canvas) -> None:
        x, y = self.at
        box = canvas.box((x - 11, y - 11, x + 11, y + 11) if self.button else
                         (x - 9, y - 9, x + 9, y + 9))
        if self.button:
            canvas.draw.ellipse(box, fill=BUTTON, outline=(40, 40, 40))
            canvas.text(self.at, "D", size=14, fill=(20, 20, 20), anchor="mm")
        else:
            canvas.draw.ellipse(box, fill=CHIP, outline=TEXT, width=2)


def table_pieces(state: TableState, face_down: Collection[int] = (), *,
                 language: Language = ENGLISH) -> tuple[Piece, ...]:
    """The pieces of ``state``'s picture (see ``draw_table``), in the order they are drawn."""
    return (*_header(state, language), *_board(state.boards or (state.board,)),
            *_pots(state.pots, state.pot_total, language),
            *_seats(state, face_down, shown_hand_names(state, language=language), language))


def _seat_angle(seat: int, max_seats: int) -> float:
    """Seat 0 at the bottom centre, then clockwise, evenly spread."""
    return math.pi / 2 + 2 * math.pi * seat / max(max_seats, 2)


def _on_oval(radii: tuple[float, float], angle: float) -> tuple[float, float]:
    return CENTRE[0] + radii[0] * math.cos(angle), CENTRE[1] + radii[1] * math.sin(angle)


def _header(state: TableState, language: Language) -> Iterator[Piece]:
    if state.ante:
        blinds = tr("Blinds {small}/{big} ante {ante}", small=state.small_blind,
                    big=state.big_blind, ante=state.ante)
    else:
        blinds = tr("Blinds {small}/{big}", small=state.small_blind, big=state.big_blind)
    hand = tr("Hand #{number}", number=str(state.hand_number))
    yield _Text((12, 8), f"{_say(language, hand)}  ·  {_say(language, blinds)}", 15, TEXT)
    street = street_name(state.street) if state.street is not None and state.is_hand_running \
        else tr("Waiting for the next hand")
    yield _Text((WIDTH - 12, 8), _say(language, street), 15, TEXT, "ra")
    if state.last_action:
        yield _Text((WIDTH / 2, HEIGHT - 10),
                    fit_text(_say(language, state.last_action), 14, WIDTH - 20), 14,
                    DIM_TEXT, "md")


def _pots(pots: tuple[PotState, ...], total: int, language: Language) -> Iterator[Piece]:
    if total:
        yield _Text((CENTRE[0], CENTRE[1] - 52), _say(language, tr("Pot {amount}", amount=total)),
                    18, TEXT, "md")
    if len(pots) > 1:
        parts = [tr("Main {amount}", amount=pots[0].amount)] + [
            tr("Side pot {number}: {amount}", number=index, amount=pot.amount)
            for index, pot in enumerate(pots[1:], 1)]
        yield _Text((CENTRE[0], CENTRE[1] + 48),
                    fit_text("   ".join(_say(language, part) for part in parts), 13,
                             FELT_BOX[2] - FELT_BOX[0] - 60), 13, TEXT, "ma")


def shown_hand_names(state: TableState, *, language: Language = ENGLISH) -> dict[int, str]:
    """By seat, the name of each shown hand on each board (``"A / B"`` when run twice), in
    ``language``; one card shown (by a winner without a showdown) makes no hand."""
    names: dict[int, str] = {}
    boards = [board for board in (state.boards or (state.board,)) if len(board) >= 3]
    for seat in state.seats:
        if len(seat.shown_cards) == 2 and boards:
            names[seat.seat] = " / ".join(
                _say(language, hand_name_text(evaluate((*seat.shown_cards, *board))))
                for board in boards)
    return names


def _seat_centre(seat: int, max_seats: int) -> tuple[float, float]:
    """Where a seat's box is centred: on the seat oval, kept inside the image."""
    x, y = _on_oval(SEAT_RADII, _seat_angle(seat, max_seats))
    box_width, box_height = SEAT_BOX
    x = min(max(x, box_width / 2 + 4), WIDTH - box_width / 2 - 4)
    y = min(max(y, box_height / 2 + 30), HEIGHT - box_height / 2 - 28)
    return x, y


def hole_card_boxes(seat: int, max_seats: int, count: int = 2) -> list[tuple[int, int, int, int]]:
    """The (left, top, right, bottom) boxes where ``seat``'s shown or face-down cards are
    drawn, left to right: above the seat box, or below it near the top edge."""
    x, y = _seat_centre(seat, max_seats)
    top = y - SEAT_BOX[1] / 2
    width, height = SHOWN_CARD
    left = x - (count * width + (count - 1) * 3) / 2
    card_top = int(top - height + 8 if top - height + 8 > 26 else top + SEAT_BOX[1] - 4)
    return [(int(left + index * (width + 3)), card_top,
             int(left + index * (width + 3)) + width, card_top + height)
            for index in range(count)]


def _seats(state: TableState, face_down: Collection[int], hand_names: dict[int, str],
           language: Language) -> Iterator[Piece]:
    for seat in state.seats:
        angle = _seat_angle(seat.seat, state.max_seats)
        faded = seat.folded or seat.sitting_out or not seat.in_hand
        yield _Plate(seat.seat, state.max_seats, fit_text(seat.name, 14, SEAT_BOX[0] - 10),
                     fit_text(_seat_status(seat, language), 13, SEAT_BOX[0] - 8), faded,
                     state.is_hand_running and state.to_act_seat == seat.seat, seat.all_in)
        if seat.shown_cards or seat.seat in face_down:
            yield _HoleCards(seat.seat, state.max_seats, seat.shown_cards)
        hand_name = hand_names.get(seat.seat) if seat.shown_cards else None
        if hand_name:
            yield _hand_name(seat.seat, state.max_seats, len(seat.shown_cards), hand_name)
        if seat.bet:
            x, y = _on_oval(BET_RADII, angle)
            if hand_name:
                x = _clear_of_hand_name(seat.seat, state.max_seats, len(seat.shown_cards),
                                        hand_name, (x, y))
            yield _Disc((x, y), button=False)
            yield _Text((x + 13, y), _say(language, seat.bet), 14, TEXT, "lm", 2, FELT)
        if seat.is_button:
            yield _Disc(_on_oval((BET_RADII[0] + 60, BET_RADII[1] + 38), angle + 0.22),
                        button=True)


def _hand_name(seat: int, max_seats: int, cards: int, name: str) -> Piece:
    """The name of a shown hand, under the cards, or over them when they are below the seat."""
    return _Text(_hand_name_anchor(seat, max_seats, cards), name, 12, TO_ACT, "ma", 2,
                 BACKGROUND)


def _hand_name_anchor(seat: int, max_seats: int, cards: int) -> tuple[float, float]:
    """Where a shown hand's name is drawn: the middle of its top edge."""
    boxes = hole_card_boxes(seat, max_seats, cards)
    seat_top = _seat_centre(seat, max_seats)[1] - SEAT_BOX[1] / 2
    top, bottom = boxes[0][1], boxes[0][3]
    return (boxes[0][0] + boxes[-1][2]) / 2, bottom + 2 if top > seat_top else top - 16


def _clear_of_hand_name(seat: int, max_seats: int, cards: int, name: str,
                        chip: tuple[float, float]) -> float:
    """The x of a bet chip at ``chip``, moved beside the seat's shown hand name when it would
    cover it: a seat at the top edge hangs its cards and their name toward its chips."""
    x, y = chip
    centre, top = _hand_name_anchor(seat, max_seats, cards)
    half = text_length(name, 12) / 2 + 2
    chip_left, chip_right = x - 10, x + 50  # the disc and its amount
    if not (top - 10 < y < top + 26 and chip_left < centre + half and chip_right > centre - half):
        return x
    return centre + half + 12 if x >= centre else centre - half - 50


def _say(language: Language, message: Text | int) -> str:
    """``message`` in ``language``; a number with its digit grouping."""
    return language.number(message) if isinstance(message, int) else language.render(message)


def _seat_status(seat: SeatState, language: Language) -> str:
    if seat.sitting_out:
        return _say(language, tr("sitting out"))
    if seat.folded:
        return _say(language, tr("{chips} · folded", chips=seat.stack))
    if seat.all_in:
        return _say(language, tr("ALL-IN"))
    return _say(language, seat.stack)


@cache
def palette() -> Image.Image:
    """The one palette of every table and card picture: 256 colours that FASTOCTREE picks
    from a sheet with every kind of piece in every style (plates faded, to act, all in; cards
    of each suit and backs; chips, button, the hand names' outlined text; Latin and CJK
    letters), so that their blended edges find a close colour too."""
    boards = (tuple(parse_cards("Ah Kd 7c 2s 9h")), tuple(parse_cards("Qc Js Td")))
    sample: list[Piece] = [
        *_board(boards),
        _Text((12, 8), "Hand #0123456789 · Blinds ante 张伟陳小明", 15, TEXT),
        _Text((400, 440), "Waiting: call raise to (all-in) 跟注 全下", 14, DIM_TEXT, "md"),
        _Text((400, 160), "Pot Main Side 底池 0123456789", 18, TEXT, "md"),
        _Text((520, 130), "0123456789,", 14, TEXT, "lm", 2, FELT),
        _Disc((500, 130), button=False), _Disc((300, 130), button=True),
    ]
    for seat in range(9):
        sample.append(_Plate(seat, 9, "Sample 张伟", "1,000 · folded 已弃牌", seat % 3 == 1,
                             seat % 3 == 2, seat == 0))
        sample.append(_HoleCards(seat, 9, tuple(parse_cards(("Kh Qs", "Tc 3d", "")[seat % 3]))))
        sample.append(_hand_name(seat, 9, 2, "Three of a Kind, Aces 三条 葫芦"))
    drawn = _draw_pieces(sample).quantize(256 - len(_FILLS), method=Image.Quantize.FASTOCTREE)
    reduced = Image.new("P", (1, 1))
    reduced.putpalette([*(value for fill in _FILLS for value in fill),
                        *(drawn.getpalette() or [])[:3 * (256 - len(_FILLS))]])
    return reduced


_FILLS = (BACKGROUND, RAIL, FELT, FELT_LINE, TEXT, DIM_TEXT, SEAT_FILL, FOLDED_FILL, TO_ACT,
          CHIP, BUTTON, PLATE_EDGE, FACE_COLOUR, EDGE_COLOUR, BACK_COLOUR, *SUIT_COLOURS)
"""Colours that fill areas: the palette has them exactly, beside the averages FASTOCTREE
makes for the blended edges."""


def reduce(image: Image.Image) -> np.ndarray:
    """The palette indices of ``image`` (RGB or RGBA): each pixel takes the colour of
    ``palette`` nearest to the middle of its cell of 4x4x4 colours (``_nearest``), no
    dithering. An RGBA pixel is read as one little-endian 32-bit word, whose three colour
    bytes make the cell's index in a few whole-array operations: half the time of splitting
    the channels apart (0.08 against 0.16 ms for a seat's plate)."""
    if image.mode != "RGBA":
        image = image.convert("RGBA")
    words = np.asarray(image).view("<u4")[..., 0]
    cells = (words << 10 & 0x3F000) | (words >> 4 & 0xFC0) | (words >> 18 & 0x3F)
    indices: np.ndarray = _nearest()[cells]
    return indices


@cache
def _nearest() -> np.ndarray:
    """The index of the nearest colour of ``palette`` to the middle of each cell of 4x4x4
    colours, or of the fill colour in it (so the felt stays exactly the felt): 256 KB, made
    in a fifth of a second. ``Image.quantize(palette=...)`` is no faster on a piece and has
    no exact fills; finding each pixel's nearest colour (``np.unique`` and a distance
    matrix) cost ten times as much."""
    middles = np.arange(64, dtype=np.float32) * 4 + 1.5  # float32: exact at these sizes
    cells = np.stack([axis.ravel() for axis in np.meshgrid(middles, middles, middles,
                                                           indexing="ij")], axis=1)
    known = np.array(palette().getpalette() or (), dtype=np.float32).reshape(-1, 3)
    squares = (known * known).sum(axis=1)  # squared distances as |c|² - 2 c·p + |p|²
    table = np.concatenate([(squares - 2 * part @ known.T).argmin(axis=1)
                            for part in np.array_split(cells, 64)]).astype(np.uint8)
    for index, (red, green, blue) in reversed(list(enumerate(_FILLS))):
        table[(red >> 2) << 12 | (green >> 2) << 6 | blue >> 2] = index
    return table


@cache
def _felt_indices() -> np.ndarray:
    """The felt in ``palette``'s indices, one byte a pixel: what every picture starts from."""
    felt = reduce(_felt())
    felt.flags.writeable = False
    return felt


@dataclass(frozen=True, slots=True, eq=False)
class _Tile:
    """A drawn piece: its pixels in the palette's indices, and where they differ from the
    felt. Kept as arrays, since a picture is put together in arrays: Pillow images cost as
    much again in conversions and calls for each tile pasted and each band encoded."""

    pixels: np.ndarray
    mask: np.ndarray
    """True where the pixel is the piece's (it differs from the felt)."""
    ink: Box | None
    """Where the pixels go: the box of the pixels it changes, ``None`` when none."""


@dataclass(frozen=True, slots=True)
class _Group:
    """Pieces that overlap, drawn together in order."""

    pieces: tuple[Piece, ...]

    def bounds(self) -> Box:
        boxes = [piece.bounds() for piece in self.pieces]
        return (min(box[0] for box in boxes), min(box[1] for box in boxes),
                max(box[2] for box in boxes), max(box[3] for box in boxes))

    def paint(self, canvas: Canvas) -> None:
        for piece in self.pieces:
            piece.paint(canvas)


def _draw_tile(piece: Piece) -> _Tile:
    bounds = piece.bounds()
    image = _felt().crop(bounds)
    piece.paint(Canvas(image, bounds[:2]))
    pixels = reduce(image)
    changed = pixels != _felt_indices()[bounds[1]:bounds[3], bounds[0]:bounds[2]]
    rows, columns = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
    if not len(rows):
        return _Tile(np.zeros((0, 0), np.uint8), np.zeros((0, 0), bool), None)
    top, bottom, left, right = rows[0], rows[-1] + 1, columns[0], columns[-1] + 1
    return _Tile(pixels[top:bottom, left:right].copy(), changed[top:bottom, left:right].copy(),
                 (bounds[0] + int(left), bounds[1] + int(top),
                  bounds[0] + int(right), bounds[1] + int(bottom)))


def _tile_size(tile: _Tile) -> int:
    return tile.pixels.nbytes + tile.mask.nbytes + 200


_tiles: BoundedCache[Piece, _Tile] = BoundedCache(_tile_size, PIECES_BUDGET)


def _tile(piece: Piece) -> _Tile:
    return _tiles.get(piece, partial(_draw_tile, piece))


def _compose(pieces: tuple[Piece, ...]) -> tuple[np.ndarray, list[tuple[Piece, ...]]]:
    """The picture of ``pieces`` in ``palette``'s indices (the felt, each piece pasted where
    it draws), and for each band of rows of ``_encoder`` the pieces pasted in it. Pieces whose
    pixels meet (the pot's line over a second board, a hand's name over a plate) are drawn
    together, in order, so that each blends with what it covers."""
    image = _felt_indices().copy()
    tiles = [_tile(piece) for piece in pieces]
    rows = _encoder().rows
    bands: list[list[Piece]] = [[] for _ in range(_encoder().bands)]
    for _, members in _overlaps([tile.ink for tile in tiles]):
        piece = pieces[members[0]] if len(members) == 1 else \
            _Group(tuple(pieces[index] for index in members))
        tile = tiles[members[0]] if len(members) == 1 else _tile(piece)
        ink = tile.ink
        if ink is not None:
            np.copyto(image[ink[1]:ink[3], ink[0]:ink[2]], tile.pixels, where=tile.mask)
            for band in range(ink[1] // rows, (ink[3] - 1) // rows + 1):
                bands[band].append(piece)
    return image, [tuple(pasted) for pasted in bands]


def _overlaps(boxes: list[Box | None]) -> list[tuple[Box, list[int]]]:
    """The indices of ``boxes`` in groups whose boxes meet, in order within each group, each
    group with the box around it; ``None`` (nothing drawn) in none."""
    groups: list[tuple[Box, list[int]]] = []
    for index, box in enumerate(boxes):
        if box is None:
            continue
        members = [index]
        while touching := [group for group in groups if _meet(group[0], box)]:
            for group in touching:
                groups.remove(group)
                members += group[1]
                box = (min(box[0], group[0][0]), min(box[1], group[0][1]),
                       max(box[2], group[0][2]), max(box[3], group[0][3]))
        groups.append((box, sorted(members)))
    return groups


def _meet(one: Box, other: Box) -> bool:
    return one[0] < other[2] and other[0] < one[2] and one[1] < other[3] and other[1] < one[3]


@cache
def _encoder() -> BandedPng:
    return BandedPng((WIDTH, HEIGHT), palette().getpalette() or (), rows=BAND_ROWS,
                     level=BAND_LEVEL, budget=BANDS_BUDGET)

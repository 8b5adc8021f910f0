"""The table as a PNG for the channel: felt, seats, bets, button, board, pots, whose turn.

It draws only ``TableState``, which is public: hole cards appear only when shown at showdown
(``SeatState.shown_cards``), with the hand they make. The felt is drawn once and reused.
"""

from __future__ import annotations

import io
import math
from collections.abc import Collection, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n import ENGLISH, Language, tr
from bot.i18n.poker import hand_name as hand_name_text
from bot.i18n.poker import street_name
from bot.render.card_faces import card_back, card_face
from bot.render.fonts import draw_text, fit_text
from bot.tables.notifier import PotState, SeatState, TableState
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


def render_table(state: TableState, *, language: Language = ENGLISH) -> bytes:
    """PNG (800x450) of the table as everyone in the channel may see it, its words in
    ``language`` (the channel's)."""
    # A 256-colour palette looks the same here and encodes twice as fast as RGB.
    palette = draw_table(state, language=language).quantize(256, method=Image.Quantize.FASTOCTREE)
    buffer = io.BytesIO()
    palette.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def draw_table(state: TableState, face_down: Collection[int] = (), *,
               language: Language = ENGLISH) -> Image.Image:
    """The table (RGB, 800x450) with ``state``'s seats, board and pots, its words in
    ``language``. Seats in ``face_down`` (dealt in, cards not shown to this viewer) get two
    card backs in the place where shown cards go (``hole_card_boxes``), so a replay shows who
    still holds cards."""
    image = _felt().copy()
    draw = ImageDraw.Draw(image)
    _draw_header(draw, state, language)
    _draw_board(image, draw, state)
    _draw_pots(draw, state.pots, state.pot_total, language)
    hand_names = shown_hand_names(state, language=language)
    for seat in state.seats:
        _draw_seat(image, draw, state, seat, hand_names.get(seat.seat), seat.seat in face_down,
                   language)
    return image.convert("RGB")


@lru_cache(maxsize=1)
def _felt() -> Image.Image:
    """The static layer: background, rail and felt."""
    image = Image.new("RGBA", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = FELT_BOX
    draw.ellipse((left - 14, top - 14, right + 14, bottom + 14), fill=RAIL)
    draw.ellipse(FELT_BOX, fill=FELT)
    draw.ellipse((left + 24, top + 24, right - 24, bottom - 24), outline=FELT_LINE, width=2)
    return image


def _seat_angle(seat: int, max_seats: int) -> float:
    """Seat 0 at the bottom centre, then clockwise, evenly spread."""
    return math.pi / 2 + 2 * math.pi * seat / max(max_seats, 2)


def _on_oval(radii: tuple[float, float], angle: float) -> tuple[float, float]:
    return CENTRE[0] + radii[0] * math.cos(angle), CENTRE[1] + radii[1] * math.sin(angle)


def _draw_header(draw: ImageDraw.ImageDraw, state: TableState, language: Language) -> None:
    if state.ante:
        blinds = tr("Blinds {small}/{big} ante {ante}", small=state.small_blind,
                    big=state.big_blind, ante=state.ante)
    else:
        blinds = tr("Blinds {small}/{big}", small=state.small_blind, big=state.big_blind)
    hand = tr("Hand #{number}", number=str(state.hand_number))
    draw_text(draw, (12, 8), f"{language.render(hand)}  ·  {language.render(blinds)}", size=15,
              fill=TEXT)
    street = street_name(state.street) if state.street is not None and state.is_hand_running \
        else tr("Waiting for the next hand")
    draw_text(draw, (WIDTH - 12, 8), language.render(street), size=15, fill=TEXT, anchor="ra")
    if state.last_action:
        draw_text(draw, (WIDTH / 2, HEIGHT - 10),
                  fit_text(language.render(state.last_action), 14, WIDTH - 20), size=14,
                  fill=DIM_TEXT, anchor="md")


def _draw_board(image: Image.Image, draw: ImageDraw.ImageDraw, state: TableState) -> None:
    width, height = BOARD_CARD
    boards = state.boards or (state.board,)
    gap = 6
    row_height = height + 6 if len(boards) > 1 else height
    top = CENTRE[1] - (row_height * len(boards)) / 2
    left = CENTRE[0] - (5 * width + 4 * gap) / 2
    for row, board in enumerate(boards):
        y = int(top + row * row_height)
        for slot in range(5):
            x = int(left + slot * (width + gap))
            if slot < len(board):
                image.alpha_composite(card_face(board[slot], width, height), (x, y))
            else:
                draw.rounded_rectangle((x, y, x + width - 1, y + height - 1), radius=6,
                                       outline=FELT_LINE, width=2)


def _draw_pots(draw: ImageDraw.ImageDraw, pots: tuple[PotState, ...], total: int,
               language: Language) -> None:
    if total:
        draw_text(draw, (CENTRE[0], CENTRE[1] - 52),
                  language.render(tr("Pot {amount}", amount=total)), size=18, fill=TEXT,
                  anchor="md")
    if len(pots) > 1:
        parts = [tr("Main {amount}", amount=pots[0].amount)] + [
            tr("Side pot {number}: {amount}", number=index, amount=pot.amount)
            for index, pot in enumerate(pots[1:], 1)]
        draw_text(draw, (CENTRE[0], CENTRE[1] + 48),
                  fit_text("   ".join(language.render(part) for part in parts), 13,
                           FELT_BOX[2] - FELT_BOX[0] - 60),
                  size=13, fill=TEXT, anchor="ma")


def shown_hand_names(state: TableState, *, language: Language = ENGLISH) -> dict[int, str]:
    """By seat, the name of each shown hand on each board (``"A / B"`` when run twice), in
    ``language``."""
    names: dict[int, str] = {}
    boards = [board for board in (state.boards or (state.board,)) if len(board) >= 3]
    for seat in state.seats:
        if seat.shown_cards and boards:
            names[seat.seat] = " / ".join(
                language.render(hand_name_text(evaluate((*seat.shown_cards, *board))))
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


def _draw_seat(image: Image.Image, draw: ImageDraw.ImageDraw, state: TableState,
               seat: SeatState, hand_name: str | None, face_down: bool,
               language: Language) -> None:
    angle = _seat_angle(seat.seat, state.max_seats)
    x, y = _seat_centre(seat.seat, state.max_seats)
    box_width, box_height = SEAT_BOX
    box = (x - box_width / 2, y - box_height / 2, x + box_width / 2, y + box_height / 2)
    is_to_act = state.is_hand_running and state.to_act_seat == seat.seat
    faded = seat.folded or seat.sitting_out or not seat.in_hand
    draw.rounded_rectangle(box, radius=10, fill=FOLDED_FILL if faded else SEAT_FILL,
                           outline=TO_ACT if is_to_act else (90, 95, 100),
                           width=4 if is_to_act else 1)
    text_colour = DIM_TEXT if faded else TEXT
    draw_text(draw, (x, box[1] + 5), fit_text(seat.name, 14, box_width - 10), size=14,
              fill=text_colour, anchor="ma")
    draw_text(draw, (x, box[1] + 25), fit_text(_seat_status(seat, language), 13,
                                               box_width - 8),
              size=13, fill=ALL_IN if seat.all_in else text_colour, anchor="ma")
    if seat.shown_cards:
        sprites = [card_face(card, *SHOWN_CARD) for card in seat.shown_cards]
        _draw_hole_cards(image, draw, state, seat, sprites, hand_name)
    elif face_down:
        _draw_hole_cards(image, draw, state, seat, [card_back(*SHOWN_CARD)] * 2, None)
    toward_centre = _on_oval(BET_RADII, angle)
    if seat.bet:
        _draw_chips(draw, toward_centre, seat.bet, language)
    if seat.is_button:
        bx, by = _on_oval((BET_RADII[0] + 60, BET_RADII[1] + 38), angle + 0.22)
        draw.ellipse((bx - 11, by - 11, bx + 11, by + 11), fill=BUTTON, outline=(40, 40, 40))
        draw_text(draw, (bx, by), "D", size=14, fill=(20, 20, 20), anchor="mm")


def _seat_status(seat: SeatState, language: Language) -> str:
    if seat.sitting_out:
        return language.render(tr("sitting out"))
    if seat.folded:
        return language.render(tr("{chips} · folded", chips=seat.stack))
    if seat.all_in:
        return language.render(tr("ALL-IN"))
    return language.number(seat.stack)


def _draw_hole_cards(image: Image.Image, draw: ImageDraw.ImageDraw, state: TableState,
                     seat: SeatState, sprites: Sequence[Image.Image],
                     hand_name: str | None) -> None:
    boxes = hole_card_boxes(seat.seat, state.max_seats, len(sprites))
    for sprite, (left, top, _, _) in zip(sprites, boxes, strict=True):
        image.alpha_composite(sprite, (left, top))
    if hand_name:
        x = (boxes[0][0] + boxes[-1][2]) / 2
        seat_top = _seat_centre(seat.seat, state.max_seats)[1] - SEAT_BOX[1] / 2
        top, bottom = boxes[0][1], boxes[0][3]
        below = bottom + 2 if top > seat_top else top - 16
        draw_text(draw, (x, below), hand_name, size=12, fill=TO_ACT, anchor="ma",
                  stroke_width=2, stroke_fill=BACKGROUND)


def _draw_chips(draw: ImageDraw.ImageDraw, at: tuple[float, float], amount: int,
                language: Language) -> None:
    x, y = at
    draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=CHIP, outline=TEXT, width=2)
    draw_text(draw, (x + 13, y), language.number(amount), size=14, fill=TEXT, anchor="lm",
              stroke_width=2, stroke_fill=FELT)

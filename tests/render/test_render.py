"""Table and card images: what is drawn, and that hole cards are drawn only once shown."""

from __future__ import annotations

import dataclasses
import io

import numpy as np
import pytest
from PIL import Image

from bot.render import cards_image, render_cards, render_table
from bot.render.cache import BoundedCache
from bot.render.card_faces import FACE_COLOUR
from bot.render.table_image import HEIGHT, TO_ACT, WIDTH, shown_hand_names
from bot.tables.notifier import PotState, TableState
from engine.actions import Street
from engine.cards import Card, parse_cards
from tests.table_states import seat_state, table_state


def table(board: str = "", **changes: object) -> TableState:
    seats = (seat_state(0, "alice", 100, stack=990, bet=10),
             seat_state(1, "bob", 101, stack=995, bet=5, is_button=True),
             seat_state(2, "Easy Bot", None))
    fields: dict[str, object] = dict(
        board=board, seats=seats, pots=(PotState(30, (0, 1, 2)),), hand_number=7,
        street=Street.PREFLOP, last_action="bob posts 5", small_blind=5, big_blind=10,
        max_seats=6)
    fields.update(changes)
    return table_state(**fields)


def showdown() -> TableState:
    state = table("Ah Kd 7c 2s 9h", street=Street.SHOWDOWN, to_act_seat=None)
    shown = {0: "As Ad", 1: "Kh Qh"}
    seats = tuple(dataclasses.replace(s, shown_cards=tuple(parse_cards(shown[s.seat])))
                  if s.seat in shown else s for s in state.seats)
    return dataclasses.replace(state, seats=seats)


def image_of(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def pixels_near(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 6) -> int:
    """How many pixels are within ``tolerance`` of ``colour`` (the PNG has a palette)."""
    distance = np.abs(np.asarray(image, dtype=np.int16) - np.array(colour, dtype=np.int16))
    return int((distance.max(axis=2) <= tolerance).sum())


def card_face_pixels(image: Image.Image) -> int:
    return pixels_near(image, FACE_COLOUR)


def test_table_image_is_an_800_by_450_png() -> None:
    assert image_of(render_table(table())).size == (WIDTH, HEIGHT)


def test_no_card_is_drawn_before_the_flop_so_no_hole_cards_are() -> None:
    assert card_face_pixels(image_of(render_table(table()))) == 0


def test_board_cards_are_drawn_face_up() -> None:
    assert card_face_pixels(image_of(render_table(table("Ah Kd 7c", street=Street.FLOP)))) > 0


def test_hole_cards_are_drawn_only_when_shown_at_showdown() -> None:
    shown = showdown()
    hidden = dataclasses.replace(shown, seats=tuple(
        dataclasses.replace(s, shown_cards=()) for s in shown.seats))
    with_shown = card_face_pixels(image_of(render_table(shown)))
    without = card_face_pixels(image_of(render_table(hidden)))
    assert with_shown > without > 0


def test_shown_hands_are_named_on_every_board() -> None:
    assert shown_hand_names(showdown()) == {0: "Three of a Kind, Aces", 1: "Pair of Kings"}
    twice = dataclasses.replace(showdown(), boards=(
        tuple(parse_cards("Ah Kd 7c 2s 9h")), tuple(parse_cards("Ah Kd 7c Kc 3d"))))
    assert shown_hand_names(twice)[1] == "Pair of Kings / Three of a Kind, Kings"


def test_the_player_to_act_is_highlighted() -> None:
    def highlight(state: TableState) -> int:
        return pixels_near(image_of(render_table(state)), TO_ACT)

    assert highlight(table()) > 0
    assert highlight(table(to_act_seat=None)) == 0


def test_dealt_cards_image_grows_with_the_number_of_cards() -> None:
    two = image_of(render_cards(parse_cards("Ah Kd")))
    five = image_of(render_cards(parse_cards("Ah Kd Qc Js Th")))
    assert two.height == five.height and five.width > two.width
    assert card_face_pixels(two) > 0


@pytest.mark.parametrize("cards", [[], [50, 50], [52], list(range(8))])
def test_dealt_cards_image_refuses_bad_cards(cards: list[int]) -> None:
    with pytest.raises(ValueError):
        render_cards(cards)


def test_a_cards_picture_is_drawn_once_and_then_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[Card, ...]] = []
    draw = cards_image._draw

    def counted(cards: tuple[Card, ...]) -> bytes:
        drawn.append(cards)
        return draw(cards)

    monkeypatch.setattr(cards_image, "_draw", counted)
    monkeypatch.setattr(cards_image, "_pictures", BoundedCache(
        cards_image.kept_size, cards_image.PICTURES_BUDGET))
    cards, swapped = tuple(parse_cards("7h 2c")), tuple(parse_cards("2c 7h"))
    first = render_cards(cards)
    assert render_cards(cards) == first and drawn == [cards]
    assert render_cards(swapped) != first  # the order a DM shows them in is kept
    assert drawn == [cards, swapped]


def test_every_pair_of_hole_cards_fits_in_the_kept_pictures() -> None:
    largest = max(cards_image.kept_size(render_cards(parse_cards(pair)))
                  for pair in ("Ah Kd", "7h 2c", "Tc Ts", "Qs Jh"))
    assert 52 * 51 * largest < cards_image.PICTURES_BUDGET

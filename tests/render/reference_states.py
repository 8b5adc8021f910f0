"""Table states whose pictures, drawn by the renderer before it was made cheaper, are kept in
``reference/`` (one PNG each): the test of the current renderer compares with them.

    python -m tests.render.reference_states   # draws them again: only for a wanted new look
"""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

from PIL import Image

from bot.i18n import ENGLISH, Language, language_for
from bot.i18n.poker import action_text
from bot.render.table_image import render_table
from bot.tables.notifier import PotState, TableState
from engine.actions import ActionKind, Street
from engine.cards import parse_cards
from engine.view import ActionRecord
from tests.table_states import seat_state, table_state

FOLDER = Path(__file__).with_name("reference")


def _shown(state: TableState, shown: dict[int, str]) -> TableState:
    return dataclasses.replace(state, seats=tuple(
        dataclasses.replace(seat, shown_cards=tuple(parse_cards(shown[seat.seat])))
        if seat.seat in shown else seat for seat in state.seats))


def preflop() -> TableState:
    """Two people and a bot: blinds posted, the first to act highlighted."""
    seats = (seat_state(0, "alice", 100, stack=990, bet=10),
             seat_state(1, "bob", 101, stack=995, bet=5, is_button=True),
             seat_state(2, "Easy Bot", None))
    return table_state(seats=seats, pots=(PotState(15, (0, 1, 2)),), hand_number=7,
                       street=Street.PREFLOP, last_action=action_text("bob", ActionRecord(
                           1, Street.PREFLOP, ActionKind.CALL, 5, 10)),
                       small_blind=5, big_blind=10, max_seats=6)


def busy_turn() -> TableState:
    """Nine seats in every state: folded, all in, sitting out, a long name, side pots."""
    statuses: list[dict[str, object]] = [
        dict(bet=200), dict(folded=True), dict(all_in=True, stack=0, bet=150),
        dict(sitting_out=True, in_hand=False), dict(is_button=True), dict(bet=200),
        dict(folded=True), dict(stack=12_345), dict()]
    names = ("Ann", "Bob", "Cleo", "Dan", "Evelyn Featherstonehaugh", "Finn", "Gus", "Hana",
             "Ivo")
    seats = tuple(seat_state(index, name, 100 + index, **status)
                  for index, (name, status) in enumerate(zip(names, statuses, strict=True)))
    return table_state(board="Qh Jc Ts 4d", seats=seats, street=Street.TURN, ante=5,
                       pots=(PotState(900, tuple(range(9))), PotState(300, (0, 2, 5))),
                       to_act_seat=7, last_action=action_text("Finn", ActionRecord(
                           5, Street.TURN, ActionKind.RAISE, 200, 200)),
                       hand_number=42, max_seats=9)


def showdown_run_twice() -> TableState:
    """Chinese names, two boards, shown hands named on both."""
    seats = (seat_state(0, "张伟", 100, stack=0), seat_state(1, "bob", 101, stack=0,
                                                              is_button=True),
             seat_state(2, "陳小明", 102, folded=True))
    state = table_state(board="Ah Kd 7c 2s 9h", seats=seats, street=Street.SHOWDOWN,
                        boards=(tuple(parse_cards("Ah Kd 7c 2s 9h")),
                                tuple(parse_cards("Ah Kd 7c Kc 3d"))),
                        pots=(PotState(3_000, (0, 1, 2)), PotState(1_200, (0, 1))),
                        to_act_seat=None, max_seats=6, hand_number=3,
                        last_action=action_text("bob", ActionRecord(
                            1, Street.RIVER, ActionKind.CALL, 1_200, 2_100, True)))
    return _shown(state, {0: "As Ad", 1: "Kh Qh"})


def between_hands() -> TableState:
    """No hand running: the header says so, nobody is highlighted."""
    seats = (seat_state(0, "alice", 100, stack=1_010, in_hand=False),
             seat_state(3, "bob", 101, stack=990, in_hand=False, is_button=True))
    return table_state(seats=seats, is_hand_running=False, street=None, to_act_seat=None,
                       hand_number=8, max_seats=4)


REFERENCES: dict[str, tuple[TableState, Language]] = {
    "preflop": (preflop(), ENGLISH),
    "busy_turn": (busy_turn(), ENGLISH),
    "showdown_zh_hans": (showdown_run_twice(), language_for("zh-CN")),
    "showdown_zh_hant": (showdown_run_twice(), language_for("zh-TW")),
    "between_hands": (between_hands(), ENGLISH),
}
"""The reference frames by file name (without ``.png``): the state and its language."""


def reference(name: str) -> Image.Image:
    """The kept picture of ``REFERENCES[name]``, in RGB."""
    with Image.open(FOLDER / f"{name}.png") as image:
        return image.convert("RGB")


def main() -> None:
    FOLDER.mkdir(exist_ok=True)
    for name, (state, language) in REFERENCES.items():
        with Image.open(io.BytesIO(render_table(state, language=language))) as image:
            image.save(FOLDER / f"{name}.png", optimize=True)


if __name__ == "__main__":
    main()

"""Public table states built by hand, for the tests of the front ends (embed, image, terminal)."""

from __future__ import annotations

from bot.tables.notifier import SeatState, TableState
from engine.actions import Street
from engine.cards import parse_cards


def seat_state(index: int, name: str, user_id: int | None, **changes: object) -> SeatState:
    """A seat in the hand with 1,000 chips and no bet; a seat without a user is an easy bot."""
    values: dict[str, object] = dict(
        seat=index, name=name, user_id=user_id,
        bot_level=None if user_id is not None else "easy", stack=1_000, bet=0, in_hand=True,
        folded=False, all_in=False, sitting_out=False, leaving=False, is_button=False)
    values.update(changes)
    return SeatState(**values)  # type: ignore[arg-type]


def table_state(**fields: object) -> TableState:
    """A running hand at 10/20 on the flop with the first seat to act; ``board`` may be text.
    ``boards``, ``pot_total`` and ``button_seat`` follow from the board, pots and seats unless
    given."""
    values: dict[str, object] = dict(
        guild_id=1, channel_id=2, hand_number=1, hand_id=1, is_hand_running=True,
        street=Street.FLOP, board="", pots=(), seats=(), to_act_seat=0, to_act_deadline=None,
        last_action="", small_blind=10, big_blind=20, ante=0, max_seats=9)
    values.update(fields)
    if isinstance(values["board"], str):
        values["board"] = tuple(parse_cards(values["board"]))
    values.setdefault("boards", (values["board"],))
    values.setdefault("pot_total", sum(pot.amount for pot in values["pots"]))  # type: ignore[attr-defined]
    values.setdefault("button_seat", next(
        (seat.seat for seat in values["seats"] if seat.is_button), 0))  # type: ignore[attr-defined]
    return TableState(**values)  # type: ignore[arg-type]

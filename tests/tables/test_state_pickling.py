"""A table's public state crosses to the picture worker (pickled) exactly as it is."""

import pickle

from bot.i18n import tr
from bot.i18n.text import tr_c, tr_n
from bot.tables.notifier import PotState, SeatState, TableState
from engine.cards import parse_cards
from tests.table_states import seat_state, table_state


def every_kind_of_field() -> TableState:
    """A state with a value in each field: shown cards, two boards, side pots, a time bank, a
    last action whose values are a nested message, a list and a plural."""
    seats = (seat_state(0, "alice", 11, is_button=True, bet=40, all_in=True,
                        shown_cards=tuple(parse_cards("As Kd"))),
             seat_state(1, "bob", 12, folded=True), seat_state(2, "Noodle", None, leaving=True))
    last_action = tr("{who} wins {pots}", who=tr_c("table", "Board"),
                     pots=[tr_n("{count} chip", "{count} chips", 1), 2_500])
    return table_state(seats=seats, board="Ah Kh 7c", boards=(
        tuple(parse_cards("Ah Kh 7c 2d 3s")), tuple(parse_cards("Ah Kh 7c 9d Ts"))),
        pots=(PotState(300, (0, 1, 2)), PotState(80, (0, 2))), last_action=last_action,
        to_act_deadline=1_800_000_000.5, time_bank_deadline=1_800_000_030.0, language="zh_Hant",
        hands_dealt=7)


def test_a_table_state_pickles_to_an_equal_state():
    state = every_kind_of_field()
    again = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    assert again == state
    assert [type(seat) for seat in again.seats] == [SeatState] * 3


def test_states_pickle_by_their_fields_values_not_through_dataclasses_fields():
    state = every_kind_of_field()
    for value in (state, state.seats[0], state.pots[0], state.last_action):
        rebuild, arguments = value.__reduce_ex__(pickle.HIGHEST_PROTOCOL)[:2]
        assert rebuild is type(value)
        assert rebuild(*arguments) == value

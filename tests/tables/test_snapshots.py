"""Table snapshots: unchanged seats and pots are shared between states, changed ones are not;
and only bots that learn are shown the finished hand."""

import random

from bot.tables.bots import Bot
from bot.tables.seats import Seat
from bot.tables.snapshots import PotStates, SeatStates
from engine.replay import apply_actions, hand_with_cards

FACTS = dict(stack=100, bet=0, in_hand=True, folded=False, all_in=False, is_button=True,
             shown_cards=())


def ann(index=3):
    return Seat(index, "Ann", 7, None, 100)


def test_an_unchanged_seat_keeps_its_snapshot():
    states, seat = SeatStates(), ann()
    assert states.state(seat, **FACTS) is states.state(seat, **dict(FACTS))


def test_a_changed_seat_gets_a_new_snapshot_with_the_new_facts():
    states, seat = SeatStates(), ann()
    before = states.state(seat, **FACTS)
    after = states.state(seat, **{**FACTS, "bet": 20})
    assert after is not before and (before.bet, after.bet) == (0, 20)
    assert (after.seat, after.name, after.stack, after.is_button) == (3, "Ann", 100, True)


def test_a_change_of_lobby_flags_or_of_the_person_in_the_seat_gets_a_new_snapshot():
    states, seat = SeatStates(), ann()
    before = states.state(seat, **FACTS)
    seat.sitting_out = True
    assert states.state(seat, **FACTS).sitting_out and not before.sitting_out
    newcomer = Seat(3, "Bo", 8, Bot("easy", random.Random(1)), 100)
    after = states.state(newcomer, **FACTS)
    assert (after.name, after.user_id, after.bot_level) == ("Bo", 8, "easy")


def test_seats_with_equal_facts_at_other_indexes_are_not_confused():
    states = SeatStates()
    assert states.state(ann(1), **FACTS).seat == 1 and states.state(ann(2), **FACTS).seat == 2


def seats(count):
    return [Seat(index * 2, f"p{index}", index, None, 100) for index in range(count)]


def test_pots_name_the_table_seats_that_can_win_them():
    hand = hand_with_cards([100, 40, 100], ["Ah Kd", "7c 7d", "2s 3s"])
    apply_actions(hand, ["call", "allin", "call", "call"])
    pots = PotStates().pots(hand, seats(3))
    assert [(pot.amount, pot.eligible_seats) for pot in pots] == [(120, (0, 2, 4))]


def test_pots_follow_every_chip_put_in_and_every_fold():
    hand = hand_with_cards([100, 100, 100], ["Ah Kd", "7c 7d", "2s 3s"])
    pot_states, table_seats = PotStates(), seats(3)
    first = pot_states.pots(hand, table_seats)
    assert pot_states.pots(hand, table_seats) is first
    apply_actions(hand, ["raise 30"])
    assert [pot.amount for pot in pot_states.pots(hand, table_seats)] == [45]
    apply_actions(hand, ["fold"])
    assert pot_states.pots(hand, table_seats)[0].eligible_seats == (0, 4)


def test_pots_of_a_new_hand_are_worked_out_again():
    pot_states = PotStates()
    first = hand_with_cards([100, 100], ["Ah Kd", "7c 7d"])
    second = hand_with_cards([100, 100], ["Ah Kd", "7c 7d"])
    pot_states.pots(first, seats(2))
    other_seats = [Seat(5, "x", 1, None, 100), Seat(6, "y", 2, None, 100)]
    assert pot_states.pots(second, other_seats)[0].eligible_seats == (5, 6)


def test_only_bots_whose_strategy_keeps_notes_are_shown_finished_hands():
    assert Bot("hard", random.Random(1)).learns
    assert not Bot("easy", random.Random(1)).learns

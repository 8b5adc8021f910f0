"""All-ins with different stacks: main and side pots, eligibility, folded chips."""

from engine.pots import Pot
from engine.replay import apply_actions, hand_with_cards

BOARD = "2c 7d 9h 3s 4c"  # no straight, no flush: pairs decide


def test_four_way_all_in_with_different_stacks_builds_a_main_pot_and_side_pots():
    hand = hand_with_cards([100, 200, 300, 400], ["Ah Ad", "Kh Kd", "Qh Qd", "Jh Jd"], BOARD)
    apply_actions(hand, ["allin", "call", "call", "call"])
    assert [(award.amount, award.winners) for award in hand.result.awards] == [
        (400, (0,)), (300, (1,)), (200, (2,)),
    ]
    assert hand.result.final_stacks == (400, 300, 200, 100)


def test_the_biggest_stack_gets_back_what_nobody_could_call():
    hand = hand_with_cards([100, 200, 300, 400], ["Ah Ad", "Kh Kd", "Qh Qd", "Jh Jd"], BOARD)
    apply_actions(hand, ["allin", "call", "call", "call"])
    assert hand.contributions == (100, 200, 300, 300)


def test_the_shortest_all_in_can_win_only_the_main_pot():
    hand = hand_with_cards([100, 200, 300], ["Ah Ad", "Kh Kd", "Qh Qd"], BOARD)
    apply_actions(hand, ["allin", "allin", "call"])
    assert hand.result.final_stacks == (300, 200, 100)


def test_three_way_all_in_where_the_biggest_stack_wins_everything():
    hand = hand_with_cards([100, 200, 300], ["Jh Jd", "Kh Kd", "Ah Ad"], BOARD)
    apply_actions(hand, ["allin", "allin", "call"])
    assert hand.result.final_stacks == (0, 0, 600)


def test_pots_during_the_hand_show_each_all_in_layer():
    hand = hand_with_cards([100, 1000, 1000, 1000], ["Ah Ad", "Kh Kd", "Qh Qd", "Jh Jd"], BOARD)
    apply_actions(hand, ["call", "allin"])  # seat 3 calls 10, seat 0 all-in for 100
    assert hand.pots() == [Pot(125, (0, 1, 2, 3))]
    apply_actions(hand, ["raise 300"])  # seat 1 raises to 300
    assert hand.pots() == [Pot(220, (0, 1, 2, 3)), Pot(200, (1, 2, 3))]


def test_folded_chips_stay_in_the_pot_they_reached():
    hand = hand_with_cards([1000, 300, 1000], ["Ah Ad", "Kh Kd", "Qh Qd"], BOARD)
    apply_actions(hand, ["raise 100", "allin", "call", "fold"])
    assert hand.pots() == [Pot(700, (1, 2))]
    assert hand.result.final_stacks == (900, 700, 700)


def test_a_player_is_eligible_only_for_pots_they_paid_into():
    hand = hand_with_cards([50, 1000, 1000], ["Ah Ad", "Kh Kd", "Qh Qd"], BOARD, button=2)
    apply_actions(hand, ["call", "allin", "call", "call", "bet 100", "call"])
    assert hand.pots() == [Pot(150, (0, 1, 2)), Pot(200, (1, 2))]


def test_side_pot_goes_to_the_best_hand_among_those_eligible():
    hand = hand_with_cards([50, 1000, 1000], ["Ah Ad", "Kh Kd", "Qh Qd"], BOARD, button=2)
    apply_actions(hand, ["call", "allin", "call", "call", "bet 100", "call"] + ["check"] * 4)
    assert [(award.amount, award.winners) for award in hand.result.awards] == [
        (150, (0,)), (200, (1,)),
    ]
    assert hand.result.final_stacks == (150, 1050, 850)

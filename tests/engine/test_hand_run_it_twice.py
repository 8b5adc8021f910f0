"""Running the board twice when everyone left is all-in before the river."""

import pytest

from engine.actions import Street
from engine.cards import Deck, parse_cards
from engine.hand import Hand, IllegalActionError
from engine.replay import apply_actions, hand_with_cards

# button 0, three seats: cards are dealt to seats 1, 2, 0, 1, 2, 0
HOLES = "2c 8d Ah 3d 9c Ad"  # seat 0 Aces, seat 1 2c3d (folds), seat 2 8d9c
FIRST_RUN = "4c 7s 8s Qc 5d Jd 6h 2h"  # burn, flop 7s 8s Qc, burn, turn Jd, burn, river 2h
SECOND_RUN = "4s 8h 9h Kc 5s 9s 6s 3h"  # burn, flop 8h 9h Kc, burn, turn 9s, burn, river 3h


def all_in_preflop(offer: bool = True) -> Hand:
    deck = Deck.stacked(parse_cards(f"{HOLES} {FIRST_RUN} {SECOND_RUN}"))
    hand = Hand([100, 1000, 1000], 0, 5, 10, deck=deck, offer_run_it_twice=offer)
    apply_actions(hand, ["allin", "fold", "call"])  # pot: 100 + 5 + 100 = 205
    return hand


def test_the_hand_pauses_for_the_choice_when_everyone_left_is_all_in_before_the_river():
    hand = all_in_preflop()
    assert hand.awaiting_run_it_twice
    assert hand.to_act is None and not hand.is_over
    with pytest.raises(IllegalActionError, match="run-it-twice"):
        hand.legal_actions()


def test_run_twice_deals_two_boards_from_the_same_deck():
    hand = all_in_preflop()
    hand.choose_run_it_twice(True)
    assert hand.boards == (
        tuple(parse_cards("7s 8s Qc Jd 2h")), tuple(parse_cards("8h 9h Kc 9s 3h")),
    )


def test_run_twice_splits_each_pot_in_two_with_the_odd_chip_to_the_first_run():
    hand = all_in_preflop()
    hand.choose_run_it_twice(True)
    awards = [(award.run, award.amount, award.winners) for award in hand.result.awards]
    assert awards == [(0, 103, (0,)), (1, 102, (2,))]
    assert hand.result.final_stacks == (103, 995, 1002)


def test_declining_to_run_twice_deals_one_board():
    hand = all_in_preflop()
    hand.choose_run_it_twice(False)
    assert len(hand.boards) == 1
    assert hand.result.final_stacks == (205, 995, 900)


def test_without_the_offer_the_board_runs_once_at_once():
    hand = all_in_preflop(offer=False)
    assert hand.is_over and len(hand.boards) == 1


def test_both_runs_share_the_cards_dealt_before_the_all_in():
    hand = hand_with_cards([1000, 1000], ["Ah Ad", "Kh Kd"], "2c 7d 9h 3s 4c",
                           offer_run_it_twice=True)
    apply_actions(hand, ["call", "check", "allin", "call"])
    assert hand.street is Street.FLOP and hand.awaiting_run_it_twice
    hand.choose_run_it_twice(True)
    first, second = hand.boards
    assert first[:3] == second[:3] == tuple(parse_cards("2c 7d 9h"))
    assert first[3:] != second[3:]


def test_choosing_when_nobody_is_asked_is_an_error():
    hand = hand_with_cards([1000, 1000], ["Ah Ad", "Kh Kd"], offer_run_it_twice=True)
    with pytest.raises(IllegalActionError, match="nobody is being asked"):
        hand.choose_run_it_twice(True)


def test_each_shown_hand_is_named_on_each_board():
    hand = all_in_preflop()
    hand.choose_run_it_twice(True)
    names = {entry.seat: entry.hand_names for entry in hand.result.showdown}
    assert names == {0: ("Pair of Aces", "Two Pair, Aces and Nines"),
                     2: ("Pair of Eights", "Full House, Nines full of Eights")}

"""Blinds, antes, dealing and the order of play."""

import random

from engine.actions import Action, Street
from engine.cards import Deck, parse_cards
from engine.events import Forced, Posted
from engine.hand import Hand, deck_for
from engine.replay import apply_actions


def new_hand(stacks, button=0, small_blind=5, big_blind=10, ante=0) -> Hand:
    return Hand(stacks, button, small_blind, big_blind, ante, Deck(rng=random.Random(1)))


def test_small_and_big_blind_sit_left_of_the_button():
    hand = new_hand([100, 100, 100, 100], button=1)
    assert (hand.small_blind_seat, hand.big_blind_seat) == (2, 3)
    assert hand.bets == (0, 0, 5, 10)
    assert hand.stacks == (100, 100, 95, 90)


def test_heads_up_button_posts_small_blind_and_acts_first_preflop():
    hand = new_hand([100, 100], button=1)
    assert (hand.small_blind_seat, hand.big_blind_seat) == (1, 0)
    assert hand.bets == (10, 5)
    assert hand.to_act == 1


def test_heads_up_button_acts_last_after_the_flop():
    hand = new_hand([100, 100], button=1)
    apply_actions(hand, ["call", "check"])
    assert hand.street is Street.FLOP
    assert hand.to_act == 0
    apply_actions(hand, ["check"])
    assert hand.to_act == 1


def test_preflop_action_starts_left_of_the_big_blind():
    hand = new_hand([100] * 5, button=3)
    assert hand.big_blind_seat == 0
    assert hand.to_act == 1


def test_later_streets_start_left_of_the_button():
    hand = new_hand([100] * 4, button=2)
    apply_actions(hand, ["call", "call", "call", "check"])
    assert hand.street is Street.FLOP
    assert hand.to_act == 3


def test_later_streets_skip_folded_seats_left_of_the_button():
    hand = new_hand([100] * 4, button=0)
    apply_actions(hand, ["call", "call", "fold", "check"])
    assert hand.to_act == 2


def test_big_blind_has_the_option_when_everyone_limps():
    hand = new_hand([100, 100, 100], button=0)
    apply_actions(hand, ["call", "call"])
    assert hand.to_act == 2
    legal = hand.legal_actions()
    assert legal.can_check and legal.can_raise


def test_player_short_of_the_big_blind_posts_all_they_have_and_is_all_in():
    hand = new_hand([100, 100, 7], button=0)
    assert hand.bets == (0, 5, 7)
    assert hand.all_in == (False, False, True)
    assert Posted(2, Forced.BIG_BLIND, 7, True) in hand.events


def test_player_short_of_the_small_blind_posts_all_they_have():
    hand = new_hand([100, 3, 100], button=0)
    assert hand.bets == (0, 3, 10)
    assert hand.all_in[1]


def test_antes_are_posted_by_everyone_and_are_not_bets():
    hand = new_hand([100, 100, 100], button=0, ante=2)
    assert hand.contributions == (2, 7, 12)
    assert hand.bets == (0, 5, 10)
    assert hand.pot_total == 21


def test_player_short_of_the_ante_posts_what_they_have_and_posts_no_blind():
    hand = new_hand([100, 1, 100], button=0, ante=2)
    assert hand.contributions == (2, 1, 12)
    assert hand.all_in[1]
    assert Posted(1, Forced.ANTE, 1, True) in hand.events


def test_hole_cards_are_dealt_one_at_a_time_from_left_of_the_button():
    order = parse_cards("2c 3c 4c 5c 6c 7c")  # first round seats 1, 2, 0; then again
    hand = Hand([100, 100, 100], 0, 5, 10, deck=Deck.stacked(order))
    assert hand.hole_cards(1) == tuple(parse_cards("2c 5c"))
    assert hand.hole_cards(2) == tuple(parse_cards("3c 6c"))
    assert hand.hole_cards(0) == tuple(parse_cards("4c 7c"))


def test_a_card_is_burned_before_the_flop_turn_and_river():
    holes = parse_cards("2c 3c 4c 5c")
    street_cards = parse_cards("Ad Kd Qd Jd Td 9d 8d 7d")  # burn, flop, burn, turn, burn, river
    hand = Hand([100, 100], 0, 5, 10, deck=Deck.stacked(holes + street_cards))
    apply_actions(hand, ["call", "check"] + ["check"] * 6)
    assert hand.board == tuple(parse_cards("Kd Qd Jd 9d 7d"))


def test_deck_for_deals_the_given_cards():
    holes = [parse_cards("Ah Kd"), parse_cards("7c 7d"), parse_cards("2s 3s")]
    board = parse_cards("Qh Jc Ts 4d 4c")
    hand = Hand([100, 100, 100], 2, 5, 10, deck=deck_for(holes, board, button=2))
    assert [list(hand.hole_cards(seat)) for seat in range(3)] == holes
    apply_actions(hand, ["call", "call", "check"] + ["check"] * 9)
    assert list(hand.board) == board


def test_the_big_blind_sets_the_preflop_bet_and_the_minimum_raise():
    hand = new_hand([100, 100, 100], button=0)
    legal = hand.legal_actions()
    assert (legal.call_amount, legal.min_to, legal.max_to) == (10, 20, 100)
    hand.act(0, Action.parse("raise 20"))
    assert hand.current_bet == 20

"""Legal actions and their amounts: checks, calls, bets, raises, and when betting reopens."""

import random

from engine.actions import Action, ActionKind, Street
from engine.cards import Deck
from engine.events import UncalledBetReturned
from engine.hand import Hand
from engine.replay import apply_actions


def new_hand(stacks, button=0, small_blind=5, big_blind=10) -> Hand:
    return Hand(stacks, button, small_blind, big_blind, deck=Deck(rng=random.Random(2)))


def on_the_flop(stacks) -> Hand:
    """Three players limp and check to the flop (button 0); seat 1 acts first on the flop."""
    hand = new_hand(stacks)
    apply_actions(hand, ["call", "call", "check"])
    assert hand.street is Street.FLOP
    return hand


def test_check_is_allowed_only_with_nothing_to_call():
    hand = on_the_flop([1000, 1000, 1000])
    assert hand.legal_actions().can_check
    hand.act(1, Action.parse("bet 20"))
    legal = hand.legal_actions()
    assert not legal.can_check and legal.can_call and legal.call_amount == 20


def test_a_call_is_capped_at_the_stack():
    hand = new_hand([1000, 1000, 50])
    apply_actions(hand, ["raise 200", "fold"])
    legal = hand.legal_actions()
    assert legal.call_amount == 40
    hand.act(2, Action.parse("call"))
    assert hand.all_in[2]


def test_the_minimum_bet_is_one_big_blind():
    hand = on_the_flop([1000, 1000, 1000])
    legal = hand.legal_actions()
    assert (legal.can_bet, legal.min_to, legal.max_to) == (True, 10, 990)
    assert not legal.allows(Action.parse("bet 9"))


def test_a_bet_smaller_than_the_big_blind_is_allowed_only_all_in():
    hand = on_the_flop([1000, 15, 1000])
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (5, 5)
    hand.act(1, Action.parse("bet 5"))
    assert hand.all_in[1]


def test_the_minimum_raise_adds_the_largest_bet_or_raise_of_the_street():
    hand = new_hand([1000, 1000, 1000])
    hand.act(0, Action.parse("raise 30"))  # a raise of 20
    assert hand.legal_actions().min_to == 50
    hand.act(1, Action.parse("raise 80"))  # a raise of 50
    assert hand.legal_actions().min_to == 130


def test_the_minimum_raise_is_never_less_than_one_big_blind():
    hand = on_the_flop([1000, 1000, 1000])
    hand.act(1, Action.parse("bet 10"))
    assert hand.legal_actions().min_to == 20


def test_the_maximum_raise_is_all_in():
    hand = new_hand([1000, 300, 1000])
    hand.act(0, Action.parse("raise 30"))
    assert hand.legal_actions().max_to == 300


def test_a_raise_is_to_a_street_total():
    hand = new_hand([1000, 1000, 1000])
    hand.act(0, Action.parse("raise 30"))
    hand.act(1, Action.parse("raise 100"))
    assert hand.bets == (30, 100, 10)
    assert hand.stacks == (970, 900, 990)


def test_all_in_for_less_than_a_full_raise_does_not_reopen_betting_for_players_who_acted():
    hand = on_the_flop([1000, 1000, 160])
    hand.act(1, Action.parse("bet 100"))
    hand.act(2, Action.parse("allin"))  # to 150: only 50 more, less than a full raise
    hand.act(0, Action.parse("call"))
    legal = hand.legal_actions()
    assert legal.seat == 1
    assert legal.can_call and legal.call_amount == 50
    assert not legal.can_raise
    assert not legal.allows(Action(ActionKind.ALL_IN))


def test_all_in_for_less_than_a_full_raise_leaves_betting_open_for_players_yet_to_act():
    hand = on_the_flop([1000, 1000, 160])
    hand.act(1, Action.parse("bet 100"))
    hand.act(2, Action.parse("allin"))
    legal = hand.legal_actions()
    assert legal.seat == 0
    assert legal.can_raise and legal.min_to == 250


def test_all_in_for_a_full_raise_reopens_betting():
    hand = on_the_flop([1000, 1000, 260])
    hand.act(1, Action.parse("bet 100"))
    hand.act(2, Action.parse("allin"))  # to 250: a raise of 150
    hand.act(0, Action.parse("call"))
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.can_raise and legal.min_to == 400


def test_short_all_ins_that_add_up_to_a_full_raise_reopen_betting():
    # button 0: seats 1 (small blind), 2 (big blind), 3 then 0; flop order 1, 2, 3, 0
    hand = new_hand([1000, 1000, 160, 180])
    apply_actions(hand, ["call", "call", "call", "check"])
    hand.act(1, Action.parse("bet 100"))
    hand.act(2, Action.parse("allin"))  # 150
    hand.act(3, Action.parse("allin"))  # 170
    hand.act(0, Action.parse("call"))
    assert hand.legal_actions().can_raise is False  # 70 more than seat 1's bet: not a full raise
    hand = new_hand([1000, 1000, 160, 230])
    apply_actions(hand, ["call", "call", "call", "check", "bet 100", "allin", "allin", "call"])
    assert hand.legal_actions().can_raise  # 220 faces a bet of 100: at least a full raise


def test_nobody_may_raise_when_no_one_else_could_call_more():
    hand = new_hand([200, 1000, 1000])
    apply_actions(hand, ["allin", "fold"])
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.can_call and not legal.can_raise


def test_a_player_who_can_only_check_with_everyone_else_all_in_is_skipped():
    hand = new_hand([1000, 1000, 10])
    apply_actions(hand, ["fold", "call"])
    assert hand.is_over


def test_a_street_ends_when_everyone_has_acted_and_matched_the_bet():
    hand = on_the_flop([1000, 1000, 1000])
    apply_actions(hand, ["bet 20", "call"])
    assert hand.street is Street.FLOP and hand.to_act == 0
    hand.act(0, Action.parse("call"))
    assert hand.street is Street.TURN
    assert hand.bets == (0, 0, 0)


def test_a_raise_gives_everyone_who_called_another_turn():
    hand = on_the_flop([1000, 1000, 1000])
    apply_actions(hand, ["bet 20", "call", "raise 60"])
    assert hand.to_act == 1
    apply_actions(hand, ["call", "call"])
    assert hand.street is Street.TURN


def test_an_uncalled_bet_is_returned():
    hand = on_the_flop([1000, 1000, 1000])
    apply_actions(hand, ["bet 50", "fold", "fold"])
    assert UncalledBetReturned(1, 50) in hand.events
    assert hand.result.final_stacks == (990, 1020, 990)


def test_the_uncalled_part_of_an_all_in_is_returned():
    hand = new_hand([1000, 300, 1000])
    apply_actions(hand, ["allin", "call", "fold"])
    assert UncalledBetReturned(0, 700) in hand.events
    assert hand.contributions[:2] == (300, 300)


def test_the_big_blind_gets_the_uncalled_part_back_when_everyone_folds():
    hand = new_hand([1000, 1000, 1000])
    apply_actions(hand, ["fold", "fold"])
    assert UncalledBetReturned(2, 5) in hand.events
    assert hand.result.final_stacks == (1000, 995, 1005)


def test_with_one_player_left_able_to_act_the_board_is_dealt_without_betting():
    hand = new_hand([1000, 100, 1000])
    apply_actions(hand, ["fold", "allin", "call"])
    assert hand.is_over
    assert len(hand.board) == 5
    assert [record.street for record in hand.history] == [Street.PREFLOP] * 3


def test_folding_is_allowed_even_when_checking_is_free():
    hand = on_the_flop([1000, 1000, 1000])
    hand.act(1, Action.parse("fold"))
    assert hand.folded[1]

"""Bad input raises a clear error and changes nothing."""

import random

import pytest

from engine.actions import Action
from engine.cards import Deck
from engine.hand import Hand, IllegalActionError
from engine.replay import apply_actions


def new_hand(stacks=(1000, 1000, 1000)) -> Hand:
    return Hand(list(stacks), 0, 5, 10, deck=Deck(rng=random.Random(3)))


def snapshot(hand: Hand):
    return (hand.stacks, hand.bets, hand.contributions, hand.to_act, hand.street,
            len(hand.events), hand.folded)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("raise 15", "must be 20 to 1000"),
        ("raise 1001", "must be 20 to 1000"),
        ("bet 40", "already a bet"),
        ("check", "10 chips to call"),
    ],
)
def test_an_illegal_amount_or_kind_raises_and_changes_nothing(action, message):
    hand = new_hand()
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=message):
        hand.act(0, Action.parse(action))
    assert snapshot(hand) == before


def test_calling_with_nothing_to_call_is_an_error():
    hand = new_hand()
    apply_actions(hand, ["call", "call"])
    with pytest.raises(IllegalActionError, match="no bet to call"):
        hand.act(2, Action.parse("call"))


def test_raising_when_there_is_no_bet_is_an_error():
    hand = new_hand()
    apply_actions(hand, ["call", "call", "check"])
    with pytest.raises(IllegalActionError, match="no bet yet"):
        hand.act(1, Action.parse("raise 20"))


def test_acting_out_of_turn_raises_and_changes_nothing():
    hand = new_hand()
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match="seat 0's turn, not seat 2's"):
        hand.act(2, Action.parse("fold"))
    assert snapshot(hand) == before


def test_acting_after_the_hand_is_over_raises():
    hand = new_hand()
    apply_actions(hand, ["fold", "fold"])
    with pytest.raises(IllegalActionError, match="the hand is over"):
        hand.act(2, Action.parse("check"))
    with pytest.raises(IllegalActionError, match="the hand is over"):
        hand.legal_actions()


def test_raising_when_betting_is_closed_names_the_reason():
    hand = Hand([1000, 1000, 160], 0, 5, 10, deck=Deck(rng=random.Random(3)))
    apply_actions(hand, ["call", "call", "check", "bet 100", "allin", "call"])
    with pytest.raises(IllegalActionError, match="only call or fold"):
        hand.act(1, Action.parse("raise 400"))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"stacks": [100]}, "2 to 10 players"),
        ({"stacks": [100] * 11}, "2 to 10 players"),
        ({"stacks": [100, 0]}, "above 0"),
        ({"button": 2}, "button must be a seat"),
        ({"small_blind": 20}, "blinds must"),
        ({"big_blind": 0, "small_blind": 0}, "blinds must"),
        ({"ante": -1}, "ante cannot be negative"),
        ({"auto_muck": [True]}, "one setting per seat"),
    ],
)
def test_a_hand_with_bad_settings_is_refused(kwargs, message):
    settings = {"stacks": [100, 100], "button": 0, "small_blind": 5, "big_blind": 10} | kwargs
    with pytest.raises(ValueError, match=message):
        Hand(**settings)


def test_asking_for_a_seat_that_does_not_exist_is_an_error():
    hand = new_hand()
    with pytest.raises(ValueError, match="no seat 3"):
        hand.hole_cards(3)
    with pytest.raises(ValueError, match="no seat -1"):
        hand.view(-1)

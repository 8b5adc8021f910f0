"""The bots with a straddle: it is the preflop bet they call or raise, never a big blind to
limp in for, and they play whole straddled hands with legal actions only."""

import random

import pytest

from engine.actions import ActionKind, Street
from engine.cards import Deck
from engine.coach import review
from engine.hand import Hand, Straddle
from engine.hand_record import RecordedHand
from engine.replay import apply_actions, hand_with_cards
from engine.strategies import LEVELS, make_strategy


@pytest.mark.parametrize("level", LEVELS)
def test_the_bots_play_straddled_hands_with_legal_actions(level):
    rng = random.Random(f"straddles {level}")
    bots = [make_strategy(level) for _ in range(6)]
    for number in range(40):
        seats = rng.randint(2, 6)
        hand = Hand([rng.randint(10, 400) * 2 for _ in range(seats)], number % seats, 1, 2,
                    deck=Deck(rng=rng), straddle=rng.choice(list(Straddle)))
        while not hand.is_over:
            if hand.awaiting_run_it_twice:
                hand.choose_run_it_twice(False)
                continue
            seat = hand.to_act
            hand.act(seat, bots[seat].decide(hand.view(seat), rng))  # raises if illegal


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_a_bot_opening_over_a_straddle_raises_by_straddles_not_big_blinds(level):
    # Seat 0 has the button, 1 and 2 the blinds (1/2), 3 straddles 4; seat 4 opens with aces.
    hand = hand_with_cards([400] * 5, ["2c 7d", "3c 8d", "4c 9d", "5c Td", "Ah As"],
                           button=0, small_blind=1, big_blind=2, straddle=Straddle.UTG)
    assert hand.to_act == 4
    action = make_strategy(level).decide(hand.view(4), random.Random(1))
    assert action.kind in (ActionKind.RAISE, ActionKind.ALL_IN)
    assert action.kind is ActionKind.ALL_IN or action.amount >= 10  # 2.5 straddles or more


def test_the_straddler_checks_its_option_with_a_weak_hand():
    hand = hand_with_cards([400] * 4, ["Ah As", "Kh Ks", "Qh Qs", "7c 2d"], button=0,
                           small_blind=1, big_blind=2, straddle=Straddle.UTG)
    for seat in (0, 1, 2):
        hand.act(seat, make_strategy("calling").decide(hand.view(seat), random.Random(1)))
    assert hand.to_act == 3 and hand.legal_actions().can_check
    action = make_strategy("hard").decide(hand.view(3), random.Random(1))
    assert action.kind is ActionKind.CHECK
    hand.act(3, action)
    assert hand.street is Street.FLOP


def test_a_straddled_hand_is_reviewed_from_the_straddle_on():
    hand = hand_with_cards([400] * 4, ["Ah As", "Kh Ks", "Qh Qs", "7c 2d"], "2h 5d 9c Js 3h",
                           button=0, small_blind=1, big_blind=2, straddle=Straddle.BUTTON)
    apply_actions(hand, ["call", "call", "raise 20", "call", "fold", "call"]
                  + ["check"] * 9)
    decisions = review(RecordedHand.from_hand(hand), 0, samples=200).decisions
    straddler_call = decisions[0]
    assert straddler_call.street is Street.PREFLOP
    assert straddler_call.to_call == 16  # the raise to 20 over the straddle's 4
    assert len(decisions) == 4

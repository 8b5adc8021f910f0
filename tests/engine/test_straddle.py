"""The rules of the live straddle, each test named after the rule it checks."""

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings

from engine.actions import Action, ActionKind, Street
from engine.events import Forced, Posted
from engine.hand import Hand, Straddle
from engine.hand_record import RecordedHand
from engine.history import format_hand_history
from engine.replay import ScenarioError, apply_actions, hand_with_cards, run_scenario
from tests.engine.random_hands import play_out, random_hands

FOUR = ["Ah Kd", "7c 7d", "2s 3s", "9h 9d"]
BOARD = "Qh Jc Ts 4d 4c"


def four_handed(straddle, stacks=(1000, 1000, 1000, 1000), **options):
    """Seat 0 has the button, 1 and 2 the blinds (5/10), 3 is under the gun."""
    return hand_with_cards(list(stacks), FOUR, BOARD, button=0, straddle=straddle, **options)


def forced_bets(hand):
    return [(event.seat, event.forced, event.amount, event.is_all_in)
            for event in hand.events if isinstance(event, Posted)]


def test_the_utg_straddle_posts_two_big_blinds_after_the_blinds():
    hand = four_handed(Straddle.UTG)
    assert forced_bets(hand) == [(1, Forced.SMALL_BLIND, 5, False),
                                 (2, Forced.BIG_BLIND, 10, False),
                                 (3, Forced.STRADDLE, 20, False)]
    assert hand.straddle_seat == 3 and hand.straddle_amount == 20
    assert hand.bets == (0, 5, 10, 20) and hand.current_bet == 20


def test_the_action_starts_left_of_the_utg_straddle():
    hand = four_handed(Straddle.UTG)
    assert hand.to_act == 0
    assert hand.legal_actions().call_amount == 20


def test_the_straddler_acts_last_preflop_and_may_raise():
    hand = four_handed(Straddle.UTG)
    apply_actions(hand, ["call", "call", "call"])  # the button, the small and big blinds
    assert hand.to_act == 3
    legal = hand.legal_actions()
    assert legal.can_check and legal.can_raise
    assert legal.min_to == 40
    hand.act(3, Action(ActionKind.RAISE, 60))
    assert hand.street is Street.PREFLOP and hand.to_act == 0


def test_the_straddler_may_check_and_see_the_flop():
    hand = four_handed(Straddle.UTG)
    apply_actions(hand, ["call", "call", "call", "check"])
    assert hand.street is Street.FLOP
    assert hand.pot_total == 80


def test_the_minimum_raise_counts_from_the_straddle():
    hand = four_handed(Straddle.UTG)
    legal = hand.legal_actions()
    assert legal.min_to == 40  # the straddle (20) plus a raise of the straddle's size
    with pytest.raises(ValueError, match="30"):
        hand.act(0, Action(ActionKind.RAISE, 30))
    hand.act(0, Action(ActionKind.RAISE, 50))
    assert hand.legal_actions().min_to == 80  # a raise of 30 raises the next minimum to 30


def test_after_the_flop_the_minimum_bet_is_the_big_blind_again():
    hand = four_handed(Straddle.UTG)
    apply_actions(hand, ["call", "call", "call", "check"])
    legal = hand.legal_actions()
    assert legal.can_bet and legal.min_to == 10


def test_the_button_straddle_acts_last_and_the_small_blind_starts_the_action():
    hand = four_handed(Straddle.BUTTON)
    assert forced_bets(hand)[-1] == (0, Forced.STRADDLE, 20, False)
    order = []
    for _ in range(4):
        order.append(hand.to_act)
        hand.act(hand.to_act, Action(ActionKind.CALL if hand.to_act else ActionKind.CHECK))
    assert order == [1, 2, 3, 0]
    assert hand.street is Street.FLOP
    assert hand.to_act == 1  # after the flop the usual order: left of the button first


def test_heads_up_nobody_straddles():
    for straddle in Straddle:
        hand = hand_with_cards([1000, 1000], FOUR[:2], BOARD, button=0, straddle=straddle)
        assert hand.straddle is None and hand.straddle_seat is None
        assert hand.bets == (5, 10) and hand.to_act == 0
        assert hand.legal_actions().min_to == 20
        assert hand.view(0).preflop_blind == 10


def test_three_handed_the_utg_straddle_is_the_button():
    hand = hand_with_cards([1000] * 3, FOUR[:3], BOARD, button=0, straddle=Straddle.UTG)
    assert hand.straddle_seat == 0 == hand.button
    assert hand.to_act == 1  # the small blind, as with a button straddle


def test_an_all_in_straddle_for_less_than_two_big_blinds_is_a_short_blind():
    hand = four_handed(Straddle.UTG, stacks=(1000, 1000, 1000, 15))
    assert forced_bets(hand)[-1] == (3, Forced.STRADDLE, 15, True)
    legal = hand.legal_actions()
    assert hand.to_act == 0
    assert legal.call_amount == 15  # call what the straddle posted
    assert legal.min_to == 35  # and the minimum raise stays the straddle's size
    apply_actions(hand, ["call", "call", "call"])
    assert hand.street is Street.FLOP  # the all-in straddler has no option left


def test_a_button_straddle_all_in_for_less_than_the_big_blind_leaves_the_usual_order():
    hand = four_handed(Straddle.BUTTON, stacks=(6, 1000, 1000, 1000))
    assert forced_bets(hand)[-1] == (0, Forced.STRADDLE, 6, True)
    assert hand.to_act == 3  # under the gun, left of the big blind: the largest forced bet
    assert hand.legal_actions().call_amount == 10


def test_a_straddle_is_posted_after_the_antes():
    hand = four_handed(Straddle.UTG, stacks=(1000, 1000, 1000, 12), ante=2)
    assert forced_bets(hand)[-1] == (3, Forced.STRADDLE, 10, True)


def test_the_view_says_who_straddled_and_the_preflop_blind_is_the_straddle():
    view = four_handed(Straddle.UTG).view(0)
    assert (view.straddle, view.straddle_seat, view.preflop_blind) == (20, 3, 20)
    plain = four_handed(None).view(0)
    assert (plain.straddle, plain.straddle_seat, plain.preflop_blind) == (0, None, 10)


def test_the_history_says_posts_straddle_as_trackers_read_it():
    hand = four_handed(Straddle.UTG)
    apply_actions(hand, ["fold", "fold", "fold"])
    text = format_hand_history(hand, hand_id=7, table_name="t",
                               player_names=["ann", "bo", "cy", "di"],
                               started_at=datetime(2024, 1, 1, tzinfo=UTC))
    assert "di: posts straddle 20\n" in text
    assert text.index("cy: posts big blind 10") < text.index("di: posts straddle 20")
    assert "Uncalled bet (10) returned to di" in text


def test_a_straddled_hand_plays_again_from_its_record():
    hand = four_handed(Straddle.BUTTON)
    apply_actions(hand, ["call", "raise 60", "call", "fold", "call"] + ["check"] * 9)
    text = RecordedHand.from_hand(hand).to_json()
    assert '"straddle":"button"' in text
    again = RecordedHand.from_json(text).play()
    assert again.events == hand.events and again.result == hand.result


def test_a_record_written_before_straddles_still_loads_without_one():
    old = ('{"stacks":[100,100,100],"button":0,"small_blind":1,"big_blind":2,"ante":0,'
           '"hole_cards":["Ah Kd","7c 7d","2s 3s"],"board":"","actions":["fold","fold"]}')
    record = RecordedHand.from_json(old)
    assert record.straddle is None
    assert record.play().result.final_stacks == (100, 99, 101)
    assert '"straddle"' not in record.to_json()


def test_a_scenario_with_a_straddle_replays():
    outcome = run_scenario({
        "stacks": [100, 100, 100, 100], "button": 0, "small_blind": 1, "big_blind": 2,
        "hole_cards": FOUR, "board": BOARD, "straddle": "utg",
        "actions": ["fold", "fold", "fold"]})
    assert outcome["final_stacks"] == [100, 99, 98, 103]
    with pytest.raises(ScenarioError, match="straddle must be"):
        run_scenario({"stacks": [100, 100, 100], "button": 0, "small_blind": 1,
                      "big_blind": 2, "hole_cards": FOUR[:3], "straddle": "bb",
                      "actions": []})


@settings(deadline=None)
@given(random_hands(run_it_twice=True, straddles=True))
def test_chips_are_conserved_with_straddles(case):
    hand, rng = case
    start = sum(hand.starting_stacks)

    def conserved(hand):
        assert min(hand.stacks) >= 0
        assert sum(hand.stacks) + (0 if hand.is_over else hand.pot_total) == start

    play_out(hand, rng, conserved)
    assert sum(hand.result.final_stacks) == start


@settings(max_examples=60, deadline=None)
@given(random_hands(straddles=True))
def test_any_straddled_hand_plays_again_from_its_json(case):
    hand, rng = case
    play_out(hand, rng)
    again = RecordedHand.from_json(RecordedHand.from_hand(hand).to_json()).play()
    assert again.events == hand.events and again.result == hand.result


def test_an_unknown_straddle_is_refused():
    with pytest.raises(ValueError):
        Hand([100, 100, 100], 0, 1, 2, straddle="bb")  # type: ignore[arg-type]

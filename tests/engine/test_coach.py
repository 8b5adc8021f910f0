"""The coach: hints read only what their player sees; reviews price decisions by the engine's
own equity, exact where cards were shown, and flag a clear mistake but not a good call."""

from __future__ import annotations

import random

from engine.cards import parse_cards
from engine.coach import MOST_READ, StraightDraw, Verdict, hint, outs, review
from engine.equity import equity
from engine.evaluator import HandCategory, category
from engine.hand import Hand
from engine.hand_record import RecordedHand
from engine.replay import apply_actions, hand_with_cards

BOARD = "Kd 5h 2c 9s 3d"


def _heads_up(hero: str, villain: str, actions: list[str]) -> Hand:
    """Seat 0 (button, small blind) against seat 1, played through ``actions``."""
    hand = hand_with_cards([1000, 1000], [hero, villain], BOARD)
    apply_actions(hand, actions)
    return hand


# -- hints --------------------------------------------------------------------------------------

def test_a_preflop_hint_names_the_starting_hand_and_no_made_hand():
    hand = _heads_up("7h 7d", "Ks 5c", [])
    found = hint(hand.view(0))
    assert found.starting_hand.label == "77" and found.made_rank is None and found.outs == 0
    assert 0.62 < found.equity_vs_random < 0.72  # 77 against a random hand: 66 %
    assert found.equity_vs_range is None  # nobody has called, bet or raised yet


def test_a_flop_hint_names_the_made_hand_the_draws_and_the_outs():
    hand = hand_with_cards([1000, 1000], ["9h 8h", "Ks 5c"], "Th 7c 2h 4s 3d")
    apply_actions(hand, ["call", "check"])
    found = hint(hand.view(0))
    assert found.made_rank is not None and category(found.made_rank) is HandCategory.HIGH_CARD
    assert found.flush_draw and found.straight_draw is StraightDraw.OPEN_ENDED
    assert found.outs == 15  # nine hearts, and the other three jacks and three sixes


def test_a_range_estimate_appears_once_an_opponent_bets_and_is_lower_against_a_raiser():
    hand = _heads_up("Qh 9d", "Ks 5c", ["call", "raise 60"])
    found = hint(hand.view(0))
    assert found.equity_vs_range is not None
    assert found.equity_vs_range < found.equity_vs_random  # a raiser holds better than random


def test_a_crowded_pot_gets_no_range_estimate():
    """Six-handed, a raise called all round: five opponents are more than a hint reads."""
    hand = hand_with_cards([1000] * 6, ["Ah Kc", "7c 7d", "2s 3s", "Qs Qc", "9h 8h", "Jd Tc"],
                           BOARD)
    apply_actions(hand, ["raise 30", "call", "call", "call", "call"])
    found = hint(hand.view(2))  # the big blind, to act
    assert found.opponents == 5 > MOST_READ and found.equity_vs_range is None


def test_a_hint_is_the_same_whatever_the_opponents_hold():
    """It reads no card but the player's own: swap the opponent's and nothing changes."""
    first = _heads_up("Ah Qd", "Ks 5c", ["raise 30", "call", "bet 40"])
    second = _heads_up("Ah Qd", "Js Jc", ["raise 30", "call", "bet 40"])
    assert hint(first.view(0)) == hint(second.view(0))


def test_outs_leave_out_a_card_that_makes_the_hand_on_the_board_for_everyone():
    # Four to a straight on the board (9 8 7 6): a ten or a five straightens everyone.
    assert outs(parse_cards("Ah Kd"), parse_cards("9c 8d 7s 6h")) == 0
    assert outs(parse_cards("Ah 2d"), parse_cards("9h 8h 7s Kh")) == 9  # the other hearts


# -- reviews ------------------------------------------------------------------------------------

def test_a_reviews_equity_is_the_engines_exact_equity_when_the_cards_were_shown():
    hand = _heads_up("7h 7d", "Ks 5c",
                     ["raise 30", "call", "bet 40", "call", "bet 100", "call", "bet 300", "call"])
    decisions = review(RecordedHand.from_hand(hand), 0).decisions
    boards = [(), parse_cards("Kd 5h 2c"), parse_cards("Kd 5h 2c 9s"), parse_cards(BOARD)]
    assert len(decisions) == 4
    for decision, board in zip(decisions, boards, strict=True):
        assert not decision.estimated
        assert decision.equity == equity([parse_cards("7h 7d"), parse_cards("Ks 5c")], board)[0]


def test_a_clear_mistake_is_flagged_and_a_good_call_is_not():
    # 77 calls a river bet of 300 into 340 with no chance against the shown two pair.
    mistake = review(RecordedHand.from_hand(_heads_up(
        "7h 7d", "Ks 5c",
        ["raise 30", "call", "bet 40", "call", "bet 100", "call", "bet 300", "call"])), 0)
    river = mistake.decisions[-1]
    assert river.verdict is Verdict.MISTAKE and river.equity == 0.0
    assert river.needed is not None and round(river.needed, 2) == round(300 / 940, 2)
    assert river.chips == 300  # a fold saved the whole call
    # The same river call with the kings and fives against a bluff is a good call.
    good = review(RecordedHand.from_hand(_heads_up(
        "Ks 5c", "7h 6h",
        ["call", "check", "bet 40", "call", "bet 100", "call", "bet 300", "call"])), 0)
    assert good.mistakes == ()
    assert good.decisions[-1].verdict is Verdict.GOOD


def test_a_fold_with_the_odds_to_call_is_a_mistake():
    hand = _heads_up("Ah Kc", "Qs Qc", ["call", "raise 20", "fold"])
    decision = review(RecordedHand.from_hand(hand), 0).decisions[-1]
    assert decision.verdict is Verdict.MISTAKE and decision.estimated  # queens never shown
    assert decision.needed is not None and decision.equity > decision.needed


def test_unshown_cards_are_never_used_ranges_stand_in_for_them():
    """Three players; seat 2 folds on the flop without showing. Whatever it held, seat 0's
    review is the same, and the decision while it was still in is an estimate."""
    def played(folder: str) -> RecordedHand:
        hand = hand_with_cards([1000, 1000, 1000], ["Ah Kc", "Qs Qc", folder], BOARD)
        apply_actions(hand, ["raise 30", "call", "call", "check", "check", "check",
                             "bet 50", "fold", "call", "check", "check"])
        return RecordedHand.from_hand(hand)

    first = review(played("7c 7s"), 0, rng=random.Random(3))
    second = review(played("Jh Th"), 0, rng=random.Random(3))
    assert first == second
    assert first.decisions[0].estimated  # preflop: seat 2 still in, its cards unknown


def test_a_first_in_decision_is_priced_against_the_blinds_not_the_players_yet_to_act():
    """Queens limping under the gun, six-handed: against the five players to come as random
    hands they would fall short of the 40 % the limp needs, against the blinds they do not."""
    hand = hand_with_cards([1000] * 6, ["Ah Kd", "7c 7d", "2s 3s", "Qs Qc", "9h 8h", "Jd Tc"],
                           "Qh Jc Ts 4d 4c")
    apply_actions(hand, ["call"] + ["fold"] * 4 + ["check"] * 7)
    limp = review(RecordedHand.from_hand(hand), 3).decisions[0]
    assert limp.to_call == 10 and limp.verdict is Verdict.GOOD and limp.equity > 0.6


def test_a_call_a_few_points_short_against_estimated_ranges_is_close_not_a_mistake():
    hand = hand_with_cards([1000] * 3, ["Ah Kd", "7c 7d", "2s 3s"], "Qh Jc Ts 4d 4c")
    apply_actions(hand, ["raise 30", "call", "call", "check", "bet 30", "fold", "fold"])
    decision = review(RecordedHand.from_hand(hand), 1).decisions[0]  # 77 calls the raise
    assert decision.estimated and decision.needed is not None
    assert abs(decision.equity - decision.needed) < 0.08 and decision.verdict is Verdict.CLOSE


def test_an_all_in_reads_as_the_call_or_raise_it_was():
    hand = _heads_up("Ah Ad", "Ks Kc", ["allin", "call"])
    decision = review(RecordedHand.from_hand(hand), 0).decisions[0]
    assert decision.action.amount == 1000 and decision.verdict is Verdict.VALUE

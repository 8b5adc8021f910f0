"""What the coach's words claim: outs named by the hands they make, a hand named by the board
alone said to be everyone's, and a clear mistake against estimated ranges called one."""

from __future__ import annotations

from bot.i18n import ENGLISH
from bot.i18n.coach import hint_text
from engine.cards import parse_cards
from engine.coach import Verdict, call_verdict, hint, out_hands
from engine.evaluator import HandCategory
from engine.replay import apply_actions, hand_with_cards


def hint_lines(hero: str, board: str, actions: list[str]) -> list[str]:
    hand = hand_with_cards([1000, 1000], [hero, "Ks 5c"], board)
    apply_actions(hand, actions)
    return [ENGLISH.render(line) for line in hint_text(hint(hand.view(0)))]


def test_outs_are_named_by_the_hands_they_make() -> None:
    assert out_hands(parse_cards("Ah 5h"), parse_cards("Kh 9h 2c")) == {HandCategory.FLUSH}
    flush = hint_lines("Ah 5h", "Kh 9h 2c 4s 3d", ["call", "check"])
    assert "Draws: flush draw (9 outs to a flush)." in flush, flush
    both = hint_lines("9h 8h", "Th 7c 2h 4s 3d", ["call", "check"])
    assert ("Draws: flush draw and open-ended straight draw (15 outs to a straight or better)."
            in both), both
    trips = hint_lines("7h 7d", "7c Kd 2s 4s 3d", ["call", "check"])
    assert "7 outs to a full house or better." in trips, trips


def test_a_hand_named_by_the_board_alone_is_said_to_be_everyones() -> None:
    pair = hint_lines("7h 2d", "3c 3d As 9s Qd", ["call", "check"])  # the threes are there
    assert pair[0] == "Hint: Pair of Threes, from the board alone (every player has it).", pair
    high = hint_lines("7h 2d", "Ac Jd 9s 5s 4d", ["call", "check"])
    assert high[0] == "Hint: High Card, Ace, from the board alone (every player has it).", high
    mine = hint_lines("3h 2d", "3c Jd 9s 5s 4d", ["call", "check"])  # a three of ours
    assert mine[0] == "Hint: Pair of Threes.", mine


def test_a_call_well_short_of_the_odds_is_a_mistake_even_against_estimated_ranges() -> None:
    # Seen in a review: 19 % equity where the call needed 25 %, 15 chips lost on average.
    assert call_verdict(-15, 250, needed=0.25, estimated=True) is Verdict.MISTAKE
    # 77 calling a raise with 40.5 % where it needed 35.7 %: within what a range reading knows.
    assert call_verdict(3.4, 70, needed=0.357, estimated=True) is Verdict.CLOSE
    assert call_verdict(-1, 250, needed=0.25, estimated=False) is Verdict.CLOSE
    assert call_verdict(12, 250, needed=0.25, estimated=False) is Verdict.GOOD

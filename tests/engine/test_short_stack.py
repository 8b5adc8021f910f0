"""Short-stack play every level shares: push/fold first in, pot odds against a shove's range."""

from __future__ import annotations

import random

import pytest

from engine.actions import Action, ActionKind
from engine.cards import parse_cards
from engine.hand import Hand, deck_for
from engine.strategies import LEVELS, make_strategy, push_fold, short_stack
from engine.strategies.preflop import hand_class
from engine.strategies.solve import range_share


def spot(holes: list[str], *, stacks: list[int], actions: list[str] = (), button: int = 0):
    """A hand with known hole cards (blinds 1/2) after ``actions``, and the view to act."""
    cards = [parse_cards(hole) for hole in holes]
    hand = Hand(stacks, button=button, small_blind=1, big_blind=2,
                deck=deck_for(cards, (), button=button))
    for text in actions:
        hand.act(hand.to_act, Action.parse(text))
    return hand.view(hand.to_act)


def kinds(level: str, view, tries: int = 40) -> set[ActionKind]:
    bot = make_strategy(level)
    rng = random.Random(3)
    return {bot.decide(view, rng).kind for _ in range(tries)}


@pytest.mark.parametrize("level", LEVELS)
def test_the_big_blind_calls_a_shove_when_pot_odds_against_the_shoving_range_say_so(level):
    # Heads-up, the small blind shoves 2 bb: the big blind calls 1 bb more to win 4, getting
    # 3:1, and seven-deuce has about a third of the pot against a 2 bb shoving range.
    view = spot(["9s 9h", "7c 2d"], stacks=[4, 200], actions=["allin"])
    assert kinds(level, view) == {ActionKind.CALL}


@pytest.mark.parametrize("level", LEVELS)
def test_the_big_blind_folds_trash_to_a_shove_the_price_does_not_justify(level):
    view = spot(["9s 9h", "7c 2d"], stacks=[40, 40], actions=["allin"])
    assert kinds(level, view) == {ActionKind.FOLD}


@pytest.mark.parametrize("level", [level for level in LEVELS if level != "easy"])
def test_an_opener_calls_a_reshove_with_a_hand_the_odds_say_to_call(level):
    # 20 bb deep, the small blind opened to 2.5 bb and faces a re-shove: calling 17.5 bb to
    # win 40 needs 44 %, and ace-jack has about 55 % against the hands that re-shove.
    view = spot(["As Jd", "Kc Kd"], stacks=[40, 40], actions=["raise 5", "allin"])
    assert view.seat == 0
    assert kinds(level, view) == {ActionKind.CALL}


@pytest.mark.parametrize("level", LEVELS)
def test_an_opener_folds_to_a_reshove_when_the_odds_say_fold(level):
    view = spot(["7s 2d", "Kc Kd"], stacks=[40, 40], actions=["raise 5", "allin"])
    assert kinds(level, view) == {ActionKind.FOLD}


@pytest.mark.parametrize("level", [level for level in LEVELS if level != "easy"])
def test_a_short_stack_first_in_shoves_or_folds_by_the_chart(level):
    # Under the gun at a 6-max table with 8 bb: ace-king shoves, seven-deuce folds.
    strong = spot(["3c 2d", "4h 2s", "Ac Kd", "8s 5h", "Qd 3h", "Th 4c"], stacks=[16] * 6,
                  button=5)
    assert strong.seat == 2
    assert kinds(level, strong) == {ActionKind.ALL_IN}
    weak = spot(["3c 2h", "4h 2s", "7c 2d", "8s 5h", "Qd 3h", "Th 4c"], stacks=[16] * 6,
                button=5)
    assert kinds(level, weak) == {ActionKind.FOLD}


def test_easy_shoves_a_wider_range_than_the_chart():
    # Q5o heads-up at 10 bb is a fold in the chart, a shove in the 5 bb chart easy plays.
    queen_five = hand_class(parse_cards("Qc 5d"))
    assert push_fold.shove_frequency(queen_five, 10, 1) == 0.0
    view = spot(["Qc 5d", "Kc Kd"], stacks=[20, 20])
    assert kinds("easy", view) == {ActionKind.ALL_IN}
    assert kinds("medium", view) == {ActionKind.FOLD}


def test_a_reshove_represents_the_calling_range_and_a_first_shove_the_shoving_range():
    first = spot(["As Jd", "Kc Kd"], stacks=[40, 40], actions=["allin"])
    assert range_share(short_stack.shove_range(first)) == pytest.approx(
        range_share(push_fold.shove_range(20, 1)))
    again = spot(["As Jd", "Kc Kd"], stacks=[40, 40], actions=["raise 5", "allin"])
    assert range_share(short_stack.shove_range(again)) == pytest.approx(
        range_share(push_fold.call_range(20, 1)))


def test_the_all_in_price_leaves_out_chips_beyond_the_smaller_stack():
    # The big blind has 10 chips and faces a 100-chip shove: it risks 8 more to win 10 + 10.
    view = spot(["As Ad", "Kc Kd"], stacks=[100, 10], actions=["allin"])
    assert short_stack.all_in_price(view) == (8, 20)


def test_the_all_in_price_over_a_raise_that_leaves_chips_behind_is_the_whole_stack():
    # 20 bb each: after opening to 5 and facing a re-raise to 30, shoving risks 35 more for a
    # pot of 80 (the re-raiser calls its last 10), not the 25 a call would cost.
    view = spot(["As Jd", "Kc Kd"], stacks=[40, 40], actions=["raise 5", "raise 30"])
    assert short_stack.all_in_price(view) == (35, 80)


def test_a_call_that_leaves_less_than_the_pot_behind_is_an_all_in_decision():
    committed = spot(["As Jd", "Kc Kd"], stacks=[40, 40], actions=["raise 5", "raise 30"])
    assert short_stack.all_in_decision(committed)
    deep = spot(["As Jd", "Kc Kd"], stacks=[400, 400], actions=["raise 5", "raise 15"])
    assert not short_stack.all_in_decision(deep)


def test_first_in_counts_the_players_behind_and_the_effective_stack():
    view = spot(["Ac Kd", "3c 2d", "4h 2s", "8s 5h"], stacks=[30, 16, 500, 40], button=3,
                actions=["fold"])
    # The button (40 chips) is covered by no one: the small blind's 30 chips cap it at 15 bb.
    found = short_stack.first_in(view)
    assert found == short_stack.FirstIn(stack=15.0, behind=2)
    limped = spot(["Ac Kd", "3c 2d", "4h 2s", "8s 5h"], stacks=[40] * 4, button=3,
                  actions=["call"])
    assert short_stack.first_in(limped) is None


def test_hard_widens_a_first_shoves_range_for_a_raiser_seen_raising_often_not_a_reshoves():
    from engine.strategies.hard import HardStrategy

    bot = HardStrategy()
    bot.model.notes(1).hands = 200
    bot.model.notes(1).preflop_raises = 190  # raises 95 % of hands
    first = spot(["As Jd", "Kc Kd"], stacks=[40, 40], actions=["allin"], button=1)
    assert range_share(bot._shover_range(first)) > 0.9
    again = spot(["As Jd", "Kc Kd"], stacks=[40, 40], actions=["raise 5", "allin"])
    assert range_share(bot._shover_range(again)) == pytest.approx(
        range_share(push_fold.call_range(20, 1)))


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_reraise_from_a_seat_that_reraises_most_chances_is_met_all_in_when_equity_pays(level):
    # 100 bb: the small blind opened to 2.5 bb and faces a re-raise to 10 bb from a player
    # seen re-raising 48 of 50 chances; ace-nine has well over the 49 % that getting all
    # 200 chips in needs against nearly any two cards.
    view = spot(["Ad 9c", "7h 3s"], stacks=[200, 200], actions=["raise 5", "raise 20"])
    maniac = make_strategy(level)
    maniac.model.notes(1).three_bet_chances = 50
    maniac.model.notes(1).three_bets = 48
    assert kinds_of(maniac, view) == {ActionKind.ALL_IN}
    assert kinds(level, view) == {ActionKind.FOLD}  # a typical re-raiser's range is tighter


def kinds_of(bot, view, tries: int = 20) -> set[ActionKind]:
    rng = random.Random(4)
    return {bot.decide(view, rng).kind for _ in range(tries)}

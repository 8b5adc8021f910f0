"""The expert level: its rules by name, and the notes on re-raises it prices them with."""

from __future__ import annotations

import random

import pytest

from engine.actions import Action, ActionKind
from engine.arena import ArenaConfig, run_arena
from engine.cards import parse_cards
from engine.hand import Hand, deck_for
from engine.strategies.expert import ExpertStrategy
from engine.strategies.opponent_model import OpponentModel


def hand_after(holes: list[str], *, stacks: list[int], actions: list[str] = (),
               button: int = 0) -> Hand:
    cards = [parse_cards(hole) for hole in holes]
    hand = Hand(stacks, button=button, small_blind=1, big_blind=2,
                deck=deck_for(cards, (), button=button))
    for text in actions:
        hand.act(hand.to_act, Action.parse(text))
    return hand


def kinds(bot, view, tries: int = 30) -> set[ActionKind]:
    rng = random.Random(5)
    return {bot.decide(view, rng).kind for _ in range(tries)}


def test_expert_reshoves_over_an_open_at_20_bb_with_the_charts_calling_range():
    opened = ["raise 5"]
    strong = hand_after(["9c 4d", "As Jd"], stacks=[40, 40], actions=opened).view(1)
    assert kinds(ExpertStrategy(), strong) == {ActionKind.ALL_IN}
    weak = hand_after(["9c 4d", "7s 2h"], stacks=[40, 40], actions=opened).view(1)
    assert kinds(ExpertStrategy(), weak) == {ActionKind.FOLD}


def test_expert_reraises_light_against_a_raiser_seen_folding_to_reraises_past_break_even():
    # 100 bb deep the small blind opens to 2.5 bb; a 3.6x re-raise risks 16 chips to win 7,
    # so it pays when the raiser folds more than 16 / 23 = 70 % of the time.
    view = hand_after(["9c 4d", "Kh 9s"], stacks=[200, 200], actions=["raise 5"]).view(1)
    folder = ExpertStrategy()
    folder.model.notes(0).faced_three_bets = 40
    folder.model.notes(0).folded_to_three_bets = 36
    assert kinds(folder, view) == {ActionKind.RAISE}
    stubborn = ExpertStrategy()
    stubborn.model.notes(0).faced_three_bets = 40
    stubborn.model.notes(0).folded_to_three_bets = 20
    assert ActionKind.RAISE not in kinds(stubborn, view)


def test_expert_bluffs_only_when_opponents_fold_more_than_a_half_pot_bluff_needs():
    hand = hand_after(["9c 4d", "Kh 9s"], stacks=[200, 200], actions=["call", "check"])
    bot = ExpertStrategy()
    rng = random.Random(1)
    seen = hand.view(hand.to_act)  # on the flop
    assert not any(bot._should_bluff(seen, 0.1, 0.30, True, rng) for _ in range(200))
    assert any(bot._should_bluff(seen, 0.1, 0.60, True, rng) for _ in range(200))


def test_the_model_counts_re_raises_and_how_the_first_raiser_answered_them():
    hand = hand_after(["9c 4d", "Kh 9s", "Qs Qd"], stacks=[200] * 3, button=0,
                      actions=["raise 6", "fold", "raise 20", "fold"])
    model = OpponentModel()
    model.observe(hand.view(1))  # the small blind, who folded, watches
    opener, reraiser = model.notes(0), model.notes(2)
    assert (opener.faced_three_bets, opener.folded_to_three_bets) == (1, 1)
    assert (reraiser.three_bet_chances, reraiser.three_bets) == (1, 1)
    assert opener.fold_to_three_bet > 0.5 and reraiser.three_bet_rate > 0.08


def test_the_model_leaves_the_viewers_own_actions_out():
    hand = hand_after(["9c 4d", "Kh 9s"], stacks=[200, 200], actions=["raise 5", "raise 18",
                                                                       "fold"])
    model = OpponentModel()
    model.observe(hand.view(0))  # the opener watches its own fold
    assert model.notes(0).faced_three_bets == 0
    assert model.notes(1).three_bets == 1


@pytest.mark.slow
@pytest.mark.parametrize(("stronger", "weaker"), [("expert", "hard"), ("hard", "medium"),
                                                  ("medium", "easy")])
def test_a_fast_ladder_check_each_level_beats_the_one_below(stronger, weaker):
    """A thousand duplicate hands on a fixed seed: the order of the levels, not their margins
    (the README's figures come from arena runs dozens of times longer)."""
    result = run_arena(ArenaConfig((stronger, weaker), hands=1000, seed=1))
    assert result.players[0].bb_per_100 > 0


def test_expert_opens_first_in_by_the_solved_opening_range_for_its_seat_and_depth():
    # Under the gun at a 6-max table, 100 bb deep: ace-king raises to 2.5 bb, seven-deuce folds.
    holes = ["3c 2h", "4h 2s", "Ac Kd", "8s 5h", "Qd 3h", "Th 4c"]
    strong = hand_after(holes, stacks=[200] * 6, button=5).view(2)
    rng = random.Random(2)
    assert {ExpertStrategy().decide(strong, rng) for _ in range(20)} == {
        Action(ActionKind.RAISE, 5)}
    holes[2] = "7c 2d"
    weak = hand_after(holes, stacks=[200] * 6, button=5).view(2)
    assert kinds(ExpertStrategy(), weak) == {ActionKind.FOLD}

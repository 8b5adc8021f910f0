"""Bot strategies: the protocol, legality, determinism, privacy, and each bot's rules."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from engine.actions import Action, ActionKind, Street
from engine.cards import Deck, parse_cards
from engine.equity import equity_vs_ranges
from engine.evaluator import evaluate
from engine.hand import Hand, deck_for
from engine.strategies import LEVELS, STRATEGIES, Strategy, make_strategy
from engine.strategies.baselines import CallingStrategy, RandomStrategy
from engine.strategies.easy import POSTFLOP_ODDS, PREFLOP_ODDS, EasyStrategy
from engine.strategies.hand_reading import board_wetness, draws, made_category
from engine.strategies.hard import HardStrategy
from engine.strategies.medium import MediumStrategy
from engine.strategies.moves import bet_pot_fraction, bet_to
from engine.strategies.names import NAME_POOLS, pick_bot_name
from engine.strategies.opponent_model import OpponentModel
from engine.strategies.preflop import (
    HandClass,
    chen_score,
    hand_class,
    in_top,
    percentile,
    ranked_classes,
    ranked_combos,
)
from engine.strategies.ranges import Range, strong_draws
from engine.strategies.situation import Position, position_of

ALL_NAMES = sorted(STRATEGIES)


def spot(holes: list[str], board: str = "", *, button: int = 0, stacks: list[int] | None = None,
         actions: list[str] = ()) -> Hand:
    """A hand with known cards, after ``actions`` (applied by whoever is to act)."""
    cards = [parse_cards(hole) for hole in holes]
    deck = deck_for(cards, parse_cards(board), button=button)
    hand = Hand(stacks or [200] * len(holes), button=button, small_blind=1, big_blind=2,
                deck=deck)
    for text in actions:
        hand.act(hand.to_act, Action.parse(text))
    return hand


def decisions(bot: Strategy, hand: Hand, tries: int = 200, seed: int = 0) -> list[Action]:
    view = hand.view(hand.to_act)
    rng = random.Random(seed)
    return [bot.decide(view, rng) for _ in range(tries)]


def play(bots: list[Strategy], rng: random.Random, stacks: list[int], button: int) -> list:
    """Play one hand, checking every decision is legal; return the actions taken."""
    hand = Hand(stacks, button=button, small_blind=1, big_blind=2, deck=Deck(rng))
    taken = []
    while not hand.is_over:
        seat = hand.to_act
        view = hand.view(seat)
        action = bots[seat].decide(view, rng)
        assert view.legal.allows(action), (action, view.legal)
        hand.act(seat, action)
        taken.append((seat, action))
    for seat, bot in enumerate(bots):
        if hasattr(bot, "hand_finished"):
            bot.hand_finished(hand.view(seat))
    return taken


# --- protocol and registry ---------------------------------------------------------------------


def test_levels_are_easy_medium_hard_expert_weakest_first():
    assert LEVELS == ("easy", "medium", "hard", "expert")


@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_registered_strategy_follows_the_protocol(name):
    assert isinstance(make_strategy(name), Strategy)


def test_make_strategy_accepts_module_and_class():
    assert isinstance(make_strategy("engine.strategies.baselines:CallingStrategy"),
                      CallingStrategy)


@pytest.mark.parametrize("name", ["grandmaster", "", "hard2"])
def test_unknown_strategy_names_raise_with_the_known_names(name):
    with pytest.raises(ValueError, match="calling, easy, expert, hard, medium, random"):
        make_strategy(name)


class NeedsArguments:
    """Looks like a strategy but cannot be built without arguments."""

    def __init__(self, aggression: float) -> None:
        self.aggression = aggression

    def decide(self, view, rng):
        raise AssertionError("never built")


@pytest.mark.parametrize("spec,message", [
    ("no.such.module:Bot", "cannot import"),
    ("engine.strategies.baselines:Nope", "has no class"),
    ("engine.cards:Deck", "no decide"),
    (".relative:Bot", "cannot import"),
    ("engine.cards:card_str", "not a class"),
    ("os:getcwd", "not a class"),
    ("math:pi", "not a class"),
    ("engine.hand:Hand", "no decide"),  # checked before building: Hand() needs arguments
    ("engine.strategies:Strategy", "cannot build"),  # a protocol has decide but no instances
    (f"{__name__}:NeedsArguments", "cannot build"),
    ("engine.strategies.baselines:", "not of the form module:Class"),
])
def test_bad_module_class_specs_raise_clear_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        make_strategy(spec)


# --- names --------------------------------------------------------------------------------------


def test_name_pools_do_not_share_names_so_levels_are_distinct():
    every = [name for pool in NAME_POOLS.values() for name in pool]
    assert len(every) == len(set(every))


@pytest.mark.parametrize("level", LEVELS)
def test_bot_names_never_repeat_a_taken_name(level):
    rng = random.Random(3)
    taken: list[str] = []
    for _ in range(3 * len(NAME_POOLS[level])):
        name = pick_bot_name(level, taken, rng)
        assert name not in taken
        taken.append(name)


def test_bot_names_ignore_case_when_avoiding_taken_names():
    pool = NAME_POOLS["hard"]
    taken = [name.upper() for name in pool[1:]]
    assert pick_bot_name("hard", taken, random.Random(0)) == pool[0]


def test_bot_names_for_an_unknown_level_raise():
    with pytest.raises(ValueError, match="no bot names"):
        pick_bot_name("grandmaster", (), random.Random(0))


# --- every decision is legal, reproducible and private ----------------------------------------


@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_decision_is_legal_over_many_random_spots(name):
    rng = random.Random(name)
    for hand_number in range(40):
        seats = rng.randint(2, 6)
        bots = [make_strategy(name) if seat % 2 == 0 else RandomStrategy()
                for seat in range(seats)]
        stacks = [rng.choice([3, 15, 60, 200, 500]) for _ in range(seats)]
        play(bots, rng, stacks, button=hand_number % seats)


@pytest.mark.parametrize("name", ALL_NAMES)
def test_decisions_are_reproducible_with_a_seeded_rng(name):
    def session(seed: int) -> list:
        rng = random.Random(seed)
        bots = [make_strategy(name), make_strategy(name), make_strategy(name)]
        return [play(bots, rng, [200, 200, 200], button=n % 3) for n in range(15)]

    assert session(11) == session(11)


def test_views_hide_other_players_hole_cards():
    hand = spot(["Ah Kh", "7c 2d", "Qs Qd"], "Jh Th 3c 4s 9d")
    view = hand.view(0)
    visible = set(view.hole_cards) | set(view.board)
    for cards in view.shown.values():
        visible |= set(cards)
    assert not visible & set(parse_cards("7c 2d Qs Qd"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hole_cards = tuple(parse_cards("7c 2d"))  # type: ignore[misc]


@pytest.mark.parametrize("name", ALL_NAMES)
def test_a_decision_cannot_depend_on_opponents_hidden_cards(name):
    actions = ["raise 6", "call", "call", "check", "bet 8"]
    first = spot(["7c 2d", "Qs Qd", "Ah Kh"], "Jh Th 3c", button=2, actions=actions)
    second = spot(["9s 9c", "5d 4d", "Ah Kh"], "Jh Th 3c", button=2, actions=actions)
    assert first.view(first.to_act).hole_cards == second.view(second.to_act).hole_cards
    assert decisions(make_strategy(name), first, 30) == decisions(make_strategy(name), second, 30)


# --- baselines ---------------------------------------------------------------------------------


def test_calling_station_checks_when_free_and_calls_any_bet():
    hand = spot(["Ah Kh", "7c 2d"], actions=["raise 40"])
    assert set(decisions(CallingStrategy(), hand, 5)) == {Action(ActionKind.CALL)}
    checked = spot(["Ah Kh", "7c 2d"], "Jh Th 3c", actions=["call", "check"])
    assert set(decisions(CallingStrategy(), checked, 5)) == {Action(ActionKind.CHECK)}


def test_random_player_never_folds_a_free_check_and_uses_every_kind():
    checked = spot(["Ah Kh", "7c 2d"], "Jh Th 3c", actions=["call", "check"])
    kinds = {action.kind for action in decisions(RandomStrategy(), checked, 100)}
    assert kinds == {ActionKind.CHECK, ActionKind.BET}
    facing = spot(["Ah Kh", "7c 2d"], actions=["raise 6"])
    kinds = {action.kind for action in decisions(RandomStrategy(), facing, 100)}
    assert kinds == {ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE}


def test_random_player_raises_at_most_a_pot_sized_raise():
    facing = spot(["Ah Kh", "7c 2d"], actions=["raise 6"])
    view = facing.view(facing.to_act)
    pot_raise = view.current_bet + view.pot + view.legal.call_amount
    raises = [a.amount for a in decisions(RandomStrategy(), facing, 200)
              if a.kind is ActionKind.RAISE]
    assert raises and max(raises) <= pot_raise


# --- easy --------------------------------------------------------------------------------------


def test_easy_odds_tables_are_probabilities():
    for pair in [*PREFLOP_ODDS.values(), *POSTFLOP_ODDS.values()]:
        for odds in pair:
            assert sum(odds) == pytest.approx(1.0)


def test_easy_never_folds_a_premium_hand_preflop():
    facing = spot(["7c 2d", "Ah Ad"], actions=["raise 40"])
    assert ActionKind.FOLD not in {a.kind for a in decisions(EasyStrategy(), facing, 200)}


def test_easy_rarely_folds_when_calling_is_cheap_and_seldom_raises():
    facing = spot(["9c 4d", "Ts 8h"], button=0, actions=["call"])  # limped to the big blind
    kinds = [a.kind for a in decisions(EasyStrategy(), facing, 400)]
    assert ActionKind.FOLD not in kinds
    assert kinds.count(ActionKind.RAISE) < 40
    cheap = spot(["7c 2d", "Ts 8h", "Kd 5s"], button=2, actions=["call", "call"])
    folds = [a.kind for a in decisions(EasyStrategy(), cheap, 400)].count(ActionKind.FOLD)
    assert folds < 200


def test_easy_gives_up_air_to_a_big_bet_more_often_than_a_pair():
    river_bet = ["call", "check", "check", "check", "check", "check", "check", "bet 12"]
    air = spot(["Ts 8h", "Ah Kd"], "2c 5d 9s 3h Js", actions=river_bet)
    pair = spot(["Ts 8h", "9h Kd"], "2c 5d 9s 3h Js", actions=river_bet)
    folds = [sum(a.kind is ActionKind.FOLD for a in decisions(EasyStrategy(), h, 300))
             for h in (air, pair)]
    assert folds[0] > 2 * folds[1]


# --- medium ------------------------------------------------------------------------------------


def test_medium_opens_aces_and_folds_seven_deuce_under_the_gun():
    holes = ["Ah Ad", "Kc Qd", "Js Jc", "4h 4d", "Tc 9c", "8s 7s"]
    aces = spot(holes, button=3)  # seat 0 is under the gun of six
    assert {a.kind for a in decisions(MediumStrategy(), aces, 5)} == {ActionKind.RAISE}
    holes[0] = "7c 2d"
    trash = spot(holes, button=3)
    assert {a.kind for a in decisions(MediumStrategy(), trash, 5)} == {ActionKind.FOLD}


def test_medium_value_bets_the_nuts_and_folds_air_to_a_pot_sized_river_bet():
    nuts = spot(["Ah Kh", "7c 2d"], "Qh Jh Th 3c 4s",
                actions=["call", "check", "check", "check", "check", "check", "check"])
    assert {a.kind for a in decisions(MediumStrategy(), nuts, 5)} == {ActionKind.BET}
    air = spot(["7c 2d", "Ah Kh"], "Qh Jh Th 3c 8s",
               actions=["call", "check", "check", "check", "check", "check", "bet 8"])
    assert {a.kind for a in decisions(MediumStrategy(), air, 5)} == {ActionKind.FOLD}


# --- hard --------------------------------------------------------------------------------------


def test_hard_reraises_aces_against_an_open_and_folds_trash():
    aces = spot(["Kc Qd", "Js Jc", "4h 4d", "Ah Ad"], button=3, actions=["raise 6"])
    assert {a.kind for a in decisions(HardStrategy(), aces, 20)} == {ActionKind.RAISE}
    trash = spot(["Kc Qd", "Js Jc", "4h 4d", "7c 2d"], button=3, actions=["raise 6"])
    assert {a.kind for a in decisions(HardStrategy(), trash, 20)} == {ActionKind.FOLD}


def test_hard_opens_wider_on_the_button_than_under_the_gun():
    button_share = HardStrategy()._open_share
    hand = spot(["Kc Qd", "Ah Ad", "Js Jc", "4h 4d", "Tc 9c", "8s 7s"], button=5)
    view = hand.view(0)
    assert button_share(view, 5, Position.LATE) > button_share(view, 2, Position.EARLY)
    assert position_of(view, 2) is Position.EARLY


def test_hard_raises_the_nuts_when_bet_into_and_folds_air_to_a_big_river_bet():
    nuts = spot(["7c 2d", "Ah Kh"], "Qh Jh Th 3c 4s",
                actions=["call", "check", "check", "check", "check", "check", "check", "bet 4"])
    kinds = {a.kind for a in decisions(HardStrategy(), nuts, 10)}
    assert kinds == {ActionKind.RAISE}
    air = spot(["7c 2d", "Ah Kh"], "Qh Jh Th 3c 8s",
               actions=["call", "check", "check", "check", "check", "check", "bet 8"])
    assert {a.kind for a in decisions(HardStrategy(), air, 10)} == {ActionKind.FOLD}


def test_hard_semi_bluffs_strong_draws_more_than_it_bluffs_air():
    draw = spot(["Ah 5h", "Kc Qd"], "Kh 9h 2c", actions=["raise 5", "call", "check"])
    air = spot(["4c 3d", "Kc Qd"], "Kh 9h Jc", actions=["raise 5", "call", "check"])
    bets = [sum(a.kind is ActionKind.BET for a in decisions(HardStrategy(), h, 300))
            for h in (draw, air)]
    assert bets[0] > bets[1] > 0


def test_hard_bluffs_more_against_players_who_fold_to_bets():
    hard = HardStrategy()
    folder = spot(["4c 3d", "Kc Qd"], "Kh 9h Jc", actions=["raise 5", "call", "check"])
    baseline = sum(a.kind is ActionKind.BET for a in decisions(hard, folder, 400))
    notes = hard.model.notes(1)
    notes.faced_bets, notes.folded_to_bets = 50, 45
    exploited = sum(a.kind is ActionKind.BET for a in decisions(hard, folder, 400))
    assert exploited > 1.5 * baseline


def test_hard_bets_bigger_on_wet_boards_than_on_dry_ones():
    def bet_size(board: str) -> int:
        hand = spot(["As Ad", "4c 3d"], board, actions=["raise 5", "call", "check"])
        return {a.amount for a in decisions(HardStrategy(), hand, 20)}

    wet, dry = bet_size("Ah 9h 8d"), bet_size("Ah 7d 2c")  # top set either way: a value bet
    assert len(wet) == len(dry) == 1
    assert wet.pop() > dry.pop()


def test_hard_narrows_a_bettor_range_towards_strong_hands():
    hand = spot(["2c 3d", "Kc Qd"], "Kh 9h 4c 5s",
                actions=["raise 5", "call", "bet 6", "call", "bet 20"])
    hard = HardStrategy()
    view = hand.view(hand.to_act)
    opponent = 1 - view.seat
    narrowed = hard.range_of(view, opponent)
    wide = Range.top(1.0, [*view.hole_cards, *view.board])
    probe = parse_cards("Jc Td")

    def equity_of(hand_range: Range) -> float:
        return equity_vs_ranges(probe, view.board, [hand_range.combos],
                                weights=[hand_range.weights], samples=2000, rng=random.Random(0))

    assert equity_of(narrowed) < equity_of(wide) - 0.1


def test_opponent_notes_count_folds_to_bets():
    hand = spot(["Ah Kh", "7c 2d"], "Qh Jh Th 3c 4s", actions=["call", "check", "bet 4", "fold"])
    model = OpponentModel()
    model.observe(hand.view(1))
    notes = model.notes(0)
    assert (notes.hands, notes.faced_bets, notes.folded_to_bets) == (1, 1, 1)
    assert notes.fold_to_bet > OpponentModel().notes(0).fold_to_bet


def test_hard_keeps_notes_per_seat_from_finished_hands():
    hard = HardStrategy()
    hand = spot(["Ah Kh", "7c 2d"], "Qh Jh Th 3c 4s", actions=["raise 6", "raise 20", "fold"])
    hard.hand_finished(hand.view(0))
    assert hard.model.notes(1).preflop_raises == 1
    assert hard.model.notes(0).hands == 0


# --- starting hands, hand reading, equity ------------------------------------------------------


def test_chen_scores_match_the_published_examples():
    scores = {label: chen_score(hand_class(parse_cards(cards))) for label, cards in
              {"AA": "Ah As", "AKs": "Ah Kh", "TT": "Tc Td", "57s": "5h 7h", "22": "2c 2d",
               "72o": "7c 2d"}.items()}
    assert scores == {"AA": 20, "AKs": 12, "TT": 10, "57s": 6, "22": 5, "72o": -1}


def test_there_are_169_starting_hands_covering_1326_combos():
    assert len(ranked_classes()) == 169
    assert len(set(ranked_combos())) == 1326
    assert percentile(ranked_classes()[-1]) == 1.0


def test_stronger_starting_hands_rank_higher():
    assert in_top(parse_cards("Ah Ad"), 0.01)
    assert percentile(HandClass(11, 11, False)) < percentile(HandClass(10, 9, True)) < \
        percentile(HandClass(5, 0, False))


def test_bad_starting_hands_raise():
    with pytest.raises(ValueError):
        hand_class(parse_cards("Ah Ah"))
    with pytest.raises(ValueError):
        HandClass(3, 3, True)


def test_a_pair_on_the_board_alone_is_not_a_made_pair():
    assert made_category(parse_cards("Ah Kd"), parse_cards("7s 7c 2d")).name == "HIGH_CARD"
    assert made_category(parse_cards("Ah Kd"), parse_cards("As 7c 2d")).name == "ONE_PAIR"


def test_draws_count_flush_and_open_ended_straight_draws_but_not_on_the_river():
    assert draws(parse_cards("9c 8d"), parse_cards("Ts 7h 2c")).is_strong
    assert not draws(parse_cards("9c 2d"), parse_cards("Ts 7h 3c")).is_strong
    assert not draws(parse_cards("Ah 5h"), parse_cards("Kh 9h 2c 3s 4d")).flush_draw


def test_paired_rainbow_boards_are_drier_than_suited_connected_ones():
    assert board_wetness(parse_cards("Kc Kd 2h")) < board_wetness(parse_cards("9s 8s 7d"))


def test_equity_against_a_random_hand_matches_known_values():
    hole, board = parse_cards("Ah Kh"), parse_cards("Kd 7c 2h")
    random_hand = Range.any_two([*hole, *board])
    equity = equity_vs_ranges(hole, board, [random_hand.combos], samples=4000,
                              rng=random.Random(5))
    assert equity == pytest.approx(0.90, abs=0.03)  # eval7 says 0.902
    aces = parse_cards("Ac Ad")
    other_aces = Range.top(0.0046, aces)
    assert equity_vs_ranges(aces, (), [other_aces.combos], weights=[other_aces.weights],
                            samples=2000, rng=random.Random(5)) == pytest.approx(0.5, abs=0.03)


def test_ranges_with_every_card_dead_raise():
    with pytest.raises(ValueError, match="no combination"):
        Range.top(0.0046, parse_cards("Ac Ad Ah"))
    with pytest.raises(ValueError):
        Range.top(0.0)


# --- moves -------------------------------------------------------------------------------------


def test_bets_are_clamped_to_the_legal_range():
    hand = spot(["Ah Kh", "7c 2d"], stacks=[50, 200], actions=["raise 6"])
    legal = hand.view(1).legal
    assert bet_to(legal, 1).amount == legal.min_to
    assert bet_to(legal, 10_000).amount == legal.max_to


def test_a_pot_sized_raise_adds_the_pot_after_calling():
    hand = spot(["Ah Kh", "7c 2d", "Qs Qd"], "Jh Th 3c",
                actions=["call", "call", "check", "check", "bet 10"])
    view = hand.view(hand.to_act)
    assert view.street is Street.FLOP
    expected = 10 + (view.pot + 10)
    assert bet_pot_fraction(view, 1.0) == Action(ActionKind.RAISE, expected)


@pytest.mark.parametrize("name", ALL_NAMES)
def test_asking_for_a_decision_out_of_turn_raises(name):
    hand = spot(["Ah Kh", "7c 2d"])
    with pytest.raises(ValueError, match="no decision to make"):
        make_strategy(name).decide(hand.view(1 - hand.to_act), random.Random(0))


def test_narrowing_keeps_the_strongest_made_hands_and_drops_hands_using_board_cards():
    board = parse_cards("Kh 9h 4c 5s 2d")
    narrowed = Range.any_two().narrowed(board, 0.1, 0.0)
    ranks = [evaluate([*combo, *board]) for combo in narrowed.combos.tolist()]
    dropped = [evaluate([*combo, *board]) for combo in Range.any_two(board).combos.tolist()
               if combo not in narrowed.combos.tolist()]
    assert not set(narrowed.combos.ravel().tolist()) & set(board)
    assert max(ranks) <= min(dropped)
    assert 0.09 < len(ranks) / len(Range.any_two(board).combos) < 0.12


def test_ranges_are_weights_over_all_1326_combos():
    with pytest.raises(ValueError, match="1326"):
        Range(np.ones(10))
    with pytest.raises(ValueError, match="card ids"):
        Range.any_two([52])
    assert len(Range.any_two(parse_cards("Ah Kd")).combos) == 1225


def test_strong_draws_in_a_range_are_flush_draws_and_open_enders_using_a_hole_card():
    board = parse_cards("Kh 9h 8c 2s")
    combos = np.array([parse_cards(cards) for cards in
                       ("Ah 3h", "Th 4d", "Ts 7d", "Js Tc", "6d 5c", "As Ac", "Qs Jd")])
    # flush draw, three hearts, 7-8-9-T, 8-9-T-J, a gutshot, a pair, a double gutshot
    assert strong_draws(combos, board).tolist() == [True, False, True, True, False, False, True]
    four_hearts = parse_cards("Kh 9h 8h 2h")
    assert not strong_draws(np.array([parse_cards("As Ac")]), four_hearts).any()


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_bot_decides_when_its_reads_of_the_opponents_cannot_all_be_true(level, monkeypatch):
    """Reads narrowed from actions can put several opponents on the same few cards, which
    no deal gives them all at once (``equity_vs_ranges`` gives up): the bot then weighs its
    hand against any hands instead of failing its turn (which refunded the whole hand)."""
    three_way = spot(["7c 2d", "Ah Kh", "Qs Qd"], "Kd 9h 4c",
                     actions=["call", "call", "check", "check", "check"])
    only_kings = np.zeros(len(Range.any_two().all_weights))
    kings = parse_cards("Kc Ks")
    only_kings[[index for index, combo in enumerate(Range.any_two().combos)
                 if set(combo) == set(kings)]] = 1.0
    bot = make_strategy(level)
    monkeypatch.setattr(bot, "range_of", lambda view, seat: Range(only_kings))
    view = three_way.view(three_way.to_act)
    action = bot.decide(view, random.Random(1))
    assert three_way.legal_actions().allows(action)

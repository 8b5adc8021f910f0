"""The arena: duplicate deals, results, the JSON shape, the command line and bad input."""

from __future__ import annotations

import json
import random

import pytest

from engine.actions import Action, ActionKind
from engine.arena import ArenaConfig, StrategyError, main, run_arena
from engine.view import PlayerView


class BetsNothing:
    """A broken strategy: bets zero chips, which is never legal."""

    def decide(self, view: PlayerView, rng: random.Random) -> Action:
        return Action(ActionKind.BET, 0)


class FoldsAlways:
    """Gives up every hand at its first decision, so it never sees a flop."""

    def decide(self, view: PlayerView, rng: random.Random) -> Action:
        return Action(ActionKind.FOLD)


def test_duplicate_deals_cancel_card_luck_between_identical_players():
    result = run_arena(ArenaConfig(("calling", "calling"), hands=200, seed=3))
    assert [player.bb_per_100 for player in result.players] == [0.0, 0.0]


def test_results_are_zero_sum_and_reproducible():
    config = ArenaConfig(("easy", "random", "calling"), hands=90, seed=5)
    first, second = run_arena(config), run_arena(config)
    assert sum(player.bb_per_100 for player in first.players) == pytest.approx(0.0, abs=1e-6)
    def outcome(result):
        return [(p.bb_per_100, p.ci95, p.decisions) for p in result.players]

    assert outcome(first) == outcome(second)


def test_value_betting_beats_the_calling_station():
    result = run_arena(ArenaConfig(("medium", "calling"), hands=400, seed=1))
    medium, calling = result.players
    assert medium.ci95[0] > 0 > calling.ci95[1]


def test_hands_round_up_to_whole_rotations_of_each_deck():
    result = run_arena(ArenaConfig(("calling", "random", "easy"), hands=10, seed=0))
    assert result.hands == 12


def test_json_output_has_the_documented_shape():
    result = run_arena(ArenaConfig(("hard", "medium"), hands=20, seed=2))
    payload = json.loads(result.to_json())
    assert payload["hands"] == 20
    assert [set(player) for player in payload["players"]] == [{
        "name", "strategy", "bb_per_100", "ci95", "decision_ms_median", "decision_ms_p99",
        "postflop_ms_median", "postflop_ms_p99",
    }] * 2
    low, high = payload["players"][0]["ci95"]
    assert low <= payload["players"][0]["bb_per_100"] <= high


def test_repeated_strategies_get_numbered_names():
    result = run_arena(ArenaConfig(("easy", "easy", "calling"), hands=3, seed=0))
    assert [player.name for player in result.players] == ["easy", "easy 2", "calling"]


def test_strategies_from_outside_the_project_can_play():
    result = run_arena(ArenaConfig(("engine.strategies.baselines:CallingStrategy", "easy"),
                                   hands=4, seed=0))
    assert result.players[0].name == "CallingStrategy"


def test_an_illegal_decision_stops_the_arena_naming_the_strategy():
    spec = f"{__name__}:BetsNothing"
    with pytest.raises(StrategyError, match="BetsNothing chose illegal bet 0"):
        run_arena(ArenaConfig((spec, "calling"), hands=2, seed=0))


def test_worker_processes_play_every_deck():
    config = ArenaConfig(("calling", "easy"), hands=40, seed=4)
    assert run_arena(config, workers=2).hands == 40


@pytest.mark.parametrize("kwargs,message", [
    ({"strategies": ("hard",)}, "2 to 9 players"),
    ({"strategies": ("easy",) * 10}, "2 to 9 players"),
    ({"strategies": ("easy", "chess")}, "unknown strategy"),
    ({"strategies": ("easy", "hard"), "hands": 0}, "at least one hand"),
    ({"strategies": ("easy", "hard"), "small_blind": 3, "big_blind": 2}, "blinds"),
    ({"strategies": ("easy", "hard"), "stack_big_blinds": 0}, "at least one big blind"),
])
def test_bad_arena_settings_raise_clear_errors(kwargs, message):
    arguments = {"hands": 10, **kwargs}
    with pytest.raises(ValueError, match=message):
        ArenaConfig(**arguments)


def test_command_line_prints_json(capsys):
    assert main(["--players", "easy,calling", "--hands", "6", "--seed", "7", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert [player["strategy"] for player in payload["players"]] == ["easy", "calling"]


def test_command_line_fills_the_seats_and_takes_stakes(capsys):
    main(["--players", "easy,calling", "--seats", "4", "--hands", "8", "--blinds", "5/10",
          "--stack", "50"])
    table = capsys.readouterr().out
    assert "easy 2" in table and "calling 2" in table
    assert "8 hands in" in table


@pytest.mark.parametrize("argv,message", [
    (["--players", "easy,wizard"], "unknown strategy 'wizard'"),
    (["--players", "easy,hard", "--blinds", "ten"], "small/big"),
    (["--players", "easy,hard,calling", "--seats", "2"], "--seats must be at least"),
])
def test_command_line_rejects_bad_input_with_a_message(argv, message, capsys):
    with pytest.raises(SystemExit):
        main(argv)
    assert message in capsys.readouterr().err


def test_decisions_after_the_flop_are_timed_on_their_own():
    checked_down = run_arena(ArenaConfig(("calling", "calling"), hands=4, seed=0)).players[0]
    assert checked_down.postflop_ms_median > 0
    folded_preflop = run_arena(ArenaConfig((f"{__name__}:FoldsAlways", "calling"), hands=4,
                                           seed=0)).players[0]
    assert folded_preflop.postflop_ms_median == folded_preflop.postflop_ms_p99 == 0

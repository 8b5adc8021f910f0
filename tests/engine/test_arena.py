"""The arena: duplicate deals, results, the JSON shape, the command line and bad input."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from engine.actions import Action, ActionKind
from engine.arena import (
    ArenaConfig,
    ArenaResult,
    PlayerResult,
    StrategyError,
    main,
    run_arena,
)
from engine.hand import Hand
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


def test_the_report_states_the_hands_really_played_and_those_requested(capsys):
    assert main(["--players", "calling,random,easy", "--hands", "10"]) == 0
    assert "12 hands (10 requested" in capsys.readouterr().out
    assert main(["--players", "calling,random,easy", "--hands", "10", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert (payload["hands"], payload["hands_requested"]) == (12, 10)
    assert main(["--players", "calling,easy", "--hands", "10"]) == 0
    assert "10 hands in" in capsys.readouterr().out


def test_the_hands_reported_are_counted_as_they_are_played(monkeypatch):
    played = []
    real_act = Hand.act

    def act(hand, seat, action):
        if hand not in played:
            played.append(hand)
        real_act(hand, seat, action)

    monkeypatch.setattr(Hand, "act", act)
    result = run_arena(ArenaConfig(("calling", "random", "easy"), hands=7, seed=1))
    assert result.hands == len(played) == 9


@pytest.mark.parametrize("workers", [0, -1])
def test_fewer_than_one_worker_is_refused(workers):
    with pytest.raises(ValueError, match="at least one worker"):
        run_arena(ArenaConfig(("calling", "easy"), hands=2), workers=workers)


def test_more_workers_than_decks_still_report_the_hands_played():
    assert run_arena(ArenaConfig(("calling", "easy"), hands=2, seed=0), workers=3).hands == 2


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
    (["--players", "easy,hard", "--blinds", "1/²"], "small/big"),
    (["--players", "easy,hard", "--blinds", "1/" + "2" * 5000], "small/big"),
    (["--players", "easy,hard,calling", "--seats", "2"], "--seats must be at least"),
    (["--players", "easy,hard", "--workers", "0"], "argument --workers: must be a whole number"),
    (["--players", "easy,hard", "--workers", "-2"], "argument --workers: must be a whole number"),
    (["--players", "easy,hard", "--workers", "²"], "argument --workers: must be a whole number"),
    (["--players", "easy,hard", "--hands", "0"], "argument --hands: must be a whole number"),
    (["--players", "easy,hard", "--hands", "9" * 400], "argument --hands: must be a whole number"),
    (["--players", "easy,hard", "--stack", "-5"], "argument --stack: must be a whole number"),
    (["--players", "easy,hard", "--seats", "99"], "argument --seats: must be a whole number"),
])
def test_command_line_rejects_bad_input_with_a_message(argv, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("spec,message", [
    ("no.such.module:Bot", "cannot import strategy module 'no.such.module'"),
    (".relative:Bot", "cannot import strategy module '.relative'"),
    ("engine.strategies.baselines:Nope", "module 'engine.strategies.baselines' has no "
                                         "class 'Nope'"),
    ("engine.cards:card_str", "engine.cards:card_str is not a class"),
    ("math:pi", "math:pi is not a class"),
    ("engine.cards:Deck", "engine.cards:Deck has no decide(view, rng) method"),
    ("engine.hand:Hand", "engine.hand:Hand has no decide(view, rng) method"),
    ("engine.strategies:Strategy", "cannot build engine.strategies:Strategy"),
])
def test_a_module_class_that_is_no_strategy_gets_a_one_line_error(spec, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--players", f"easy,{spec}", "--hands", "2"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [f"python -m engine.arena: error: {err.split('error: ', 1)[1]}"
                                .rstrip("\n")]
    assert message in err and "Traceback" not in err


def test_the_module_refuses_a_bad_strategy_without_a_traceback():
    run = subprocess.run(
        [sys.executable, "-m", "engine.arena", "--players", "easy,engine.cards:card_str"],
        capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 2
    assert run.stderr == ("python -m engine.arena: error: engine.cards:card_str is not a class "
                          "(it is a function)\n")


def test_decisions_after_the_flop_are_timed_on_their_own():
    checked_down = run_arena(ArenaConfig(("calling", "calling"), hands=4, seed=0)).players[0]
    assert checked_down.postflop_ms_median > 0
    folded_preflop = run_arena(ArenaConfig((f"{__name__}:FoldsAlways", "calling"), hands=4,
                                           seed=0)).players[0]
    assert folded_preflop.postflop_ms_median == folded_preflop.postflop_ms_p99 == 0


def test_the_table_stays_aligned_with_a_module_class_strategy():
    long = "benchmarks.opponents:EquilibriumPushFold"
    players = tuple(
        PlayerResult(name, strategy, 1.5, (-3.0, 6.0), 0.1, 0.2, 0.3, 0.4, 1000)
        for name, strategy in (("hard", "hard"), (f"{long}#2", long)))
    lines = ArenaResult(6, players, 1.0, 6).table().splitlines()[:3]
    # Every figure ends where its heading ends, whatever the names' lengths.
    for heading in ("bb/100", "decisions", "p99 ms"):
        end = lines[0].index(heading) + len(heading)
        assert all(line[end - 1].isdigit() and line[end:end + 1] in (" ", "") for line in
                   lines[1:]), (heading, lines)

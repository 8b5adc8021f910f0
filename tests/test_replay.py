"""The replay command: one JSON scenario in, one JSON result out."""

import io
import json

from engine.replay import main

SCENARIO = {
    "stacks": [1000, 500, 250], "button": 0, "small_blind": 5, "big_blind": 10, "ante": 0,
    "hole_cards": [["Ah", "Kd"], ["7c", "7d"], ["2s", "3s"]],
    "board": ["Qh", "Jc", "Ts", "4d", "4c"],
    "actions": ["call", "raise 40", "fold", "call", "check", "bet 30", "allin", "call"],
}


def run(scenario, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(scenario)))
    status = main(["-"])
    return status, json.loads(capsys.readouterr().out)


def test_replay_prints_final_stacks_pots_and_showdown(monkeypatch, capsys):
    status, outcome = run(SCENARIO, monkeypatch, capsys)
    assert status == 0
    assert outcome == {
        "final_stacks": [1510, 0, 240],
        "pots": [{"amount": 1010, "winners": [0]}],
        "showdown": [{"seat": 1, "rank": outcome["showdown"][0]["rank"],
                      "hand": "Two Pair, Sevens and Fours"},
                     {"seat": 0, "rank": outcome["showdown"][1]["rank"],
                      "hand": "Straight, Ace high"}],
        "error": None,
    }
    assert outcome["showdown"][1]["rank"] < outcome["showdown"][0]["rank"]


def test_replay_reads_a_file(tmp_path, capsys):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(SCENARIO))
    assert main([str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["final_stacks"] == [1510, 0, 240]


def test_an_illegal_action_is_reported_with_where_it_happened(monkeypatch, capsys):
    scenario = SCENARIO | {"actions": ["call", "raise 40", "fold", "call", "check", "bet 3"]}
    status, outcome = run(scenario, monkeypatch, capsys)
    assert status == 1
    assert outcome["error"] == ("action 6 (bet 3) by seat 0 on the flop: cannot bet to 3: "
                                "the amount must be 10 to 960")


def test_actions_that_stop_before_the_end_are_an_error(monkeypatch, capsys):
    status, outcome = run(SCENARIO | {"actions": ["call"]}, monkeypatch, capsys)
    assert status == 1 and "ran out before the hand ended" in outcome["error"]


def test_a_board_too_short_for_the_hand_is_an_error(monkeypatch, capsys):
    status, outcome = run(SCENARIO | {"board": ["Qh", "Jc", "Ts"]}, monkeypatch, capsys)
    assert status == 1 and "needed 5 board cards" in outcome["error"]


def test_a_malformed_scenario_is_an_error(monkeypatch, capsys):
    status, outcome = run({"stacks": [100, 100]}, monkeypatch, capsys)
    assert status == 1 and outcome["error"] == "missing key 'hole_cards'"

"""The replay command: one JSON scenario in, one JSON result out, and a clear error (never a
traceback) for any file that is not a scenario."""

import contextlib
import io
import json
import subprocess
import sys
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import Action
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
    assert status == 1
    assert outcome["error"] == ("missing keys 'button', 'small_blind', 'big_blind', "
                                "'hole_cards', 'actions'")


def replay_text(text: str) -> tuple[int, str, str]:
    """Run the command in-process on ``text`` as stdin: exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with mock.patch("sys.stdin", io.StringIO(text)), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        status = main(["-"])
    return status, out.getvalue(), err.getvalue()


def assert_one_clear_error(text: str, message: str = "") -> str:
    """The command refuses ``text``: status 1, the error on one stderr line (and in the JSON
    on stdout), no traceback. Returns the error."""
    status, out, err = replay_text(text)
    assert status == 1
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("python -m engine.replay: error: ")
    error = json.loads(out)["error"]
    assert error and error in lines[0]
    assert message in error
    return error


def with_(**changes) -> str:
    return json.dumps(SCENARIO | changes)


@pytest.mark.parametrize("text,message", [
    ("[1, 2]", "a scenario is a JSON object"),
    ("null", "a scenario is a JSON object"),
    ('"stacks"', "a scenario is a JSON object"),
    ("", "not JSON"),
    ("{", "not JSON"),
    ("[" * 100_000 + "]" * 100_000, "nests too deeply"),
    (with_(actions=[5]), "actions[0] must be an action"),
    (with_(actions="call"), "actions must be a list"),
    (with_(actions=[["call"]]), "actions[0] must be an action"),
    (with_(actions=["call", None]), "actions[1] must be an action"),
    (with_(stacks=["1000", "500", "250"]), 'stacks[0] must be a whole number'),
    (with_(stacks=[1000, -500, 250]), "stacks[1] must be a whole number of chips from 1"),
    (with_(stacks=[1000, 0, 250]), "stacks[1]"),
    (with_(stacks=[True, True, True]), "stacks[0] must be a whole number"),
    (with_(stacks=[1000.0, 500, 250]), "stacks[0] must be a whole number"),
    (with_(stacks=[10**20, 500, 250]), "stacks[0]"),
    (with_(stacks={"a": 1}), "stacks must be a list"),
    (with_(stacks=5), "stacks must be a list"),
    (with_(stacks=[100]), "2 to 10"),
    (with_(stacks=[100] * 11), "2 to 10"),
    (with_(button=True), "button must be a whole number"),
    (with_(button="0"), "button must be a whole number"),
    (with_(button=3), "button must be a whole number from 0 to 2"),
    (with_(button=10**30), "button"),
    (with_(small_blind="5"), "small_blind must be a whole number"),
    (with_(small_blind=-5), "small_blind"),
    (with_(big_blind=None), "big_blind must be a whole number"),
    (with_(big_blind=0), "big_blind"),
    (with_(ante=False), "ante must be a whole number"),
    (with_(ante=[0]), "ante must be a whole number"),
    (with_(small_blind=20), "blinds must satisfy"),
    (with_(hole_cards=None), "hole_cards must be a list"),
    (with_(hole_cards=[[["Ah"]], {"a": 1}, None]), "hole_cards[0][0] must be a card"),
    (with_(hole_cards=[["Ah", "Kd"], ["7c", "7d"]]), "hole_cards must give one pair per seat"),
    (with_(hole_cards=[["Ah", "Kd"], ["7c", "7d"], ["2s"]]), "hole_cards[2] must be two cards"),
    (with_(hole_cards=[["Ah", "Kd"], ["7c", "7d"], ["2s", "Xx"]]), "hole_cards[2][1]"),
    (with_(hole_cards=[[1, 2], [3, 4], [5, 6]]), "hole_cards[0][0] must be a card"),
    (with_(hole_cards=[["Ah", "Kd"], ["Ah", "7d"], ["2s", "3s"]]), "appears more than once"),
    (with_(board=5), "board must be a list"),
    (with_(board=[["Qh"]]), "board[0] must be a card"),
    (with_(board=["Qh", "Jc", "Ts", "4d", "4c", "5c"]), "board must be at most 5 cards"),
    (with_(board="Qh Jc Ts 4d 4c 5c"), "board must be at most 5 cards"),
    (with_(extra=1), 'unknown key "extra"'),
    (json.dumps(SCENARIO).replace('"ante": 0', '"ante": NaN'), "NaN"),
    (json.dumps(SCENARIO).replace('"ante": 0', '"ante": Infinity'), "Infinity"),
    (json.dumps(SCENARIO).replace("1000", "9" * 5000), "too many digits"),
    (with_(actions=["call", "raise ²"]), "needs a whole number of chips"),
    (with_(actions=["call", "raise 4²"]), "needs a whole number of chips"),
    (with_(actions=["call", "raise " + "9" * 19]), "needs a whole number of chips"),
    (with_(actions=["call", "raise " + "9" * 5000]), "actions[1] must be an action"),
    (with_(actions=["call", "raise -40"]), "needs a whole number of chips"),
    (with_(actions=["call", "x" * 10_000]), "actions[1] must be an action"),
])
def test_a_malformed_scenario_gets_one_clear_error_and_status_1(text, message):
    assert_one_clear_error(text, message)


def test_an_illegal_action_is_also_reported_on_stderr():
    error = assert_one_clear_error(with_(actions=["call", "raise 40", "fold", "call", "check",
                                                  "bet 3"]))
    assert error.startswith("action 6 (bet 3) by seat 0 on the flop: cannot bet to 3")


def test_a_missing_file_is_an_error(tmp_path, capsys):
    assert main([str(tmp_path / "nowhere.json")]) == 1
    captured = capsys.readouterr()
    assert "cannot read" in json.loads(captured.out)["error"]
    assert captured.err.count("\n") == 1 and "nowhere.json" in captured.err


def test_cards_and_boards_may_be_written_as_text():
    status, out, _ = replay_text(with_(hole_cards=["Ah Kd", "7c7d", "2s 3s"],
                                       board="Qh Jc Ts 4d 4c"))
    assert status == 0 and json.loads(out)["final_stacks"] == [1510, 0, 240]


def test_amounts_accept_unicode_decimal_digits_but_not_other_digits():
    assert Action.parse("raise ٤٠") == Action.parse("raise 40")  # Arabic-Indic 40
    for text in ("raise ²", "raise ①", "bet " + "9" * 19, "bet 4.5", "bet +4"):
        with pytest.raises(ValueError, match="needs a whole number of chips"):
            Action.parse(text)


def test_help_documents_the_scenario_format(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    for key in ("stacks", "button", "small_blind", "big_blind", "ante", "hole_cards", "board",
                "actions", "raise 40", '"error"', "status 1"):
        assert key in text


def test_the_module_runs_as_a_command_and_fails_cleanly():
    command = [sys.executable, "-m", "engine.replay", "-"]
    good = subprocess.run(command, input=json.dumps(SCENARIO), capture_output=True, text=True,
                          timeout=60, check=False)
    assert good.returncode == 0 and json.loads(good.stdout)["final_stacks"] == [1510, 0, 240]
    bad = subprocess.run(command, input="[1, 2]", capture_output=True, text=True, timeout=60,
                         check=False)
    assert bad.returncode == 1
    assert bad.stderr.strip() == ("python -m engine.replay: error: a scenario is a JSON object "
                                  "with keys stacks, button, small_blind, big_blind, ante, "
                                  "hole_cards, board, actions, straddle, not an array")


# --- fuzzing: any JSON value, and any mutation of a valid scenario, gets status 0 or 1 -----

NUMBERS = st.one_of(
    st.integers(), st.integers(min_value=-(10**40), max_value=10**40),
    st.sampled_from([0, 1, -1, 10**15, 10**15 + 1, 10**4000]),
    st.floats(allow_nan=True, allow_infinity=True),
)
TEXTS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["Ah", "kd", "10s", "A♥", "Xx", "", " ", "²", "٤٠", "call", "allin",
                     "fold", "check", "raise 40", "bet 30", "raise ²", "bet ٤", "raise -1",
                     "raise 1e9", "raise " + "9" * 30, "Ah Kd", "AhKd", "\n", "\x00"]),
    st.builds("{} {}".format, st.sampled_from(["bet", "raise"]), st.text(max_size=6)),
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | NUMBERS | TEXTS,
    lambda children: st.lists(children, max_size=6)
    | st.dictionaries(st.sampled_from([*SCENARIO, "x"]) | st.text(max_size=6), children,
                      max_size=6),
    max_leaves=24,
)


def assert_status_0_or_1(text: str) -> None:
    status, out, err = replay_text(text)
    assert status in (0, 1)
    assert "Traceback" not in err
    outcome = json.loads(out)
    assert (status == 1) == (outcome["error"] is not None)
    assert len(err.splitlines()) == status


@given(JSON_VALUES)
def test_fuzz_any_json_value_is_a_result_or_one_clear_error(value):
    assert_status_0_or_1(json.dumps(value))


@st.composite
def mutated_scenarios(draw):
    """A valid scenario with one part replaced, removed or added."""
    scenario = json.loads(json.dumps(SCENARIO))
    key = draw(st.sampled_from([*SCENARIO, "x"]))
    how = draw(st.sampled_from(["replace", "delete", "element", "nested"]))
    junk = draw(JSON_VALUES)
    if how == "delete":
        scenario.pop(key, None)
    elif how == "replace" or not isinstance(scenario.get(key), list) or not scenario[key]:
        scenario[key] = junk
    else:
        items = scenario[key]
        index = draw(st.integers(0, len(items) - 1))
        if how == "nested" and isinstance(items[index], list):
            items[index][draw(st.integers(0, len(items[index]) - 1))] = junk
        else:
            items[index] = junk
    return scenario


@given(mutated_scenarios())
def test_fuzz_a_mutated_scenario_is_a_result_or_one_clear_error(scenario):
    assert_status_0_or_1(json.dumps(scenario))


@given(st.text(max_size=40))
def test_fuzz_any_text_is_a_result_or_one_clear_error(text):
    assert_status_0_or_1(text)

"""How a player finds the hand to ``review`` or ``replay`` offline: the terminal names it,
each command's --help says where, ``#18`` is read as 18, and no id means the latest hand."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.i18n import ENGLISH
from bot.i18n.coach import review, review_text
from bot.terminal import main as play
from bot.terminal.replay_file import main as replay
from bot.terminal.review import main as print_review
from engine.hand_record import RecordedHand
from tests.terminal.test_replay_file import offline  # noqa: F401 (a fixture)

ENGLISH_LOCALE = {"LANG": "C.UTF-8"}


def test_review_without_a_hand_reviews_your_latest_and_takes_a_leading_hash(
    offline: tuple[dict[str, str], int, RecordedHand],  # noqa: F811
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    environ, hand_id, record = offline
    monkeypatch.setenv("XDG_DATA_HOME", environ["XDG_DATA_HOME"])
    expected = [ENGLISH.render(line) for line in review_text(hand_id, review(record, 0))]
    for argv in ([], [f"#{hand_id}"], [str(hand_id)]):
        assert print_review(argv, ENGLISH_LOCALE) == 0
        assert capsys.readouterr().out.splitlines() == expected


def test_replay_without_a_hand_draws_your_latest(
    offline: tuple[dict[str, str], int, RecordedHand],  # noqa: F811
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    environ, _, _ = offline
    monkeypatch.setenv("XDG_DATA_HOME", environ["XDG_DATA_HOME"])
    out = tmp_path / "latest.gif"
    assert replay(["--out", str(out)], ENGLISH_LOCALE) == 0
    assert out.read_bytes().startswith(b"GIF")


def test_with_no_hand_played_yet_the_commands_say_how_to_play_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = tmp_path / "holdem-discord" / "holdem.sqlite3"
    assert play([], stdin=io.StringIO(""), stdout=io.StringIO(), environ={}) == 0
    assert print_review([], ENGLISH_LOCALE) == 1
    assert capsys.readouterr().err == (
        f"error: you have not finished a hand in {path} yet: python -m bot play deals one\n")


@pytest.mark.parametrize("command", [print_review, replay])
def test_the_help_says_where_a_hand_s_id_is_shown(
    command: object, capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        command(["--help"], ENGLISH_LOCALE)  # type: ignore[operator]
    help_text = " ".join(capsys.readouterr().out.split())
    assert "the number after 'Hand #' on the table" in help_text
    assert "default: your latest hand" in help_text


def test_a_hand_id_that_is_not_a_number_is_refused_with_the_usage_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        print_review(["hand18"], ENGLISH_LOCALE)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: holdem review")
    assert "'hand18' is not a hand id: write the number after 'Hand #', like 18" in err


def test_leaving_the_table_names_your_last_hand_and_how_to_review_it(tmp_path: Path) -> None:
    out = io.StringIO()
    status = play(["--fast", "--seed", "3", "--bots", "easy", "--database",
                   str(tmp_path / "holdem.sqlite3")],
                  stdin=io.StringIO("1\n1\nq\n"), stdout=out, environ={})
    assert status == 0
    output = out.getvalue()
    last = output.rsplit("-- Hand #", 1)[1].split()[0]
    assert (f"Your last hand was #{last}: python -m bot review goes over your decisions in "
            "it, python -m bot replay --out hand.gif draws it") in output

"""``python -m bot play``: options that only make sense together, refusals that look like
argparse's, and one message for each way of leaving."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.terminal import main
from bot.terminal.cli import parse_options
from tests.terminal.test_terminal_tournament import play as play_tournament


@pytest.mark.parametrize("argv", [["--structure", "turbo"], ["--stack", "3000"]])
def test_tournament_options_without_tournament_are_refused(
    argv: list[str], capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        parse_options(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: holdem play")
    assert err.endswith("holdem play: error: --structure and --stack are a tournament's: add "
                        "--tournament (at a cash table, --buy-in sets your stack)\n")


def test_an_unknown_lang_gets_the_usage_line_like_any_bad_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--lang", "fr", "--database", str(tmp_path / "x.sqlite3")],
             stdin=io.StringIO(""), stdout=io.StringIO(), environ={})
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: holdem play")
    assert err.endswith("holdem play: error: unknown language 'fr' for --lang; use en, "
                        "zh-Hans (or zh-CN) or zh-Hant (or zh-TW)\n")
    assert not (tmp_path / "x.sqlite3").exists()


def test_a_buy_in_the_daily_bonus_cannot_cover_offers_no_bonus_and_refunds_nothing(
    tmp_path: Path,
) -> None:
    status, output, _ = play_tournament(tmp_path, "y\n", "--buy-in", "999999999")
    assert status == 1
    assert "Cannot register: You need 999,999,999 chips but your balance is 10,000." in output
    assert "daily bonus" not in output
    assert "The tournament is cancelled." in output and "refunded" not in output


def test_q_in_the_middle_of_a_hand_says_once_that_you_leave_when_it_is_over(
    tmp_path: Path,
) -> None:
    out = io.StringIO()
    # With seed 1 the hand goes on after the call: q comes while it is running.
    status = main(["--fast", "--seed", "1", "--bots", "easy", "--database",
                   str(tmp_path / "holdem.sqlite3")],
                  stdin=io.StringIO("2\nq\n"), stdout=out, environ={})
    output = out.getvalue()
    assert status == 0
    assert output.count("You leave when this hand is over.") == 1
    assert "You leave the table." not in output

"""``python -m bot play --tournament``: a sit-and-go against bots in the terminal, played to
the end from a script, its standings, the prize in the offline balance, and the ledger's
audit; in English and in Chinese."""

from __future__ import annotations

import asyncio
import io
import re
import time
from pathlib import Path

import pytest

from bot.i18n import language_for
from bot.ledger import Ledger
from bot.terminal import main
from bot.terminal.cli import parse_options
from bot.terminal.console_notifier import ConsoleNotifier
from bot.terminal.game import GUILD_ID, LOCAL_USER_ID
from bot.terminal.render import Style
from bot.terminal.tournament import tournament_settings
from bot.terminal.tournament_view import place_text
from engine.blinds import LevelUnit

STARTING_BALANCE = 10_000
ALL_IN = "a\nn\n" * 150
"""Go all-in every hand (``n``: run it once); each line meets the other prompt's hint."""


async def ledger_figures(path: Path) -> tuple[int, bool]:
    async with await Ledger.open(path) as ledger:
        return await ledger.balance(GUILD_ID, LOCAL_USER_ID), (await ledger.audit()).ok


def play(tmp_path: Path, script: str, *args: str) -> tuple[int, str, Path]:
    database = tmp_path / "holdem.sqlite3"
    out = io.StringIO()
    status = main(["--tournament", "--database", str(database), "--no-color", *args],
                  stdin=io.StringIO(script), stdout=out, environ={})
    return status, out.getvalue(), database


def number(text: str) -> int:
    return int(re.sub(r"[,，\s]", "", text))


# -- options ---------------------------------------------------------------------------------


def test_tournament_options_default_to_a_six_player_regular_sit_and_go() -> None:
    options = parse_options(["--tournament"])
    assert options.tournament and options.bots == ("medium",) * 5
    assert (options.structure, options.starting_stack, options.buy_in) == ("regular", 1500, None)
    settings = tournament_settings(options)
    assert (settings.seats, settings.entrant_limit, settings.buy_in) == (6, 6, 500)
    assert settings.unit is LevelUnit.HANDS and settings.bot_fill == "medium"
    assert not settings.is_multi_table


def test_tournament_options_read_structure_stack_buy_in_and_bots() -> None:
    options = parse_options(["--tournament", "--structure", "Turbo", "--stack", "3000",
                             "--buy-in", "200", "--bots", "hard,hard"])
    settings = tournament_settings(options)
    assert (settings.structure, settings.starting_stack, settings.buy_in) == ("turbo", 3000, 200)
    assert (settings.seats, settings.bot_fill) == (3, "hard")


@pytest.mark.parametrize(("argv", "message"), [
    (["--tournament", "--structure", "hyper"], "unknown blind structure 'hyper'"),
    (["--tournament", "--bots", "easy,hard"], "all of one level"),
    (["--tournament", "--stack", "0"], "not a positive whole number"),
])
def test_bad_tournament_options_are_explained(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse_options(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_a_stack_too_small_for_the_structure_is_refused_and_nothing_is_charged(
    tmp_path: Path,
) -> None:
    status, output, database = play(tmp_path, "", "--stack", "20", "--fast")
    assert status == 1
    assert "Cannot start the tournament: A starting stack of 20 chips is too small" in output
    assert asyncio.run(ledger_figures(database)) == (STARTING_BALANCE, True)


def test_a_buy_in_above_the_balance_is_refused_after_the_daily_bonus_is_declined(
    tmp_path: Path,
) -> None:
    status, output, database = play(tmp_path, "n\n", "--buy-in", "50000", "--fast")
    assert status == 1
    assert "Cannot register:" in output
    assert asyncio.run(ledger_figures(database)) == (STARTING_BALANCE, True)


async def test_the_terminal_opens_no_second_table() -> None:
    notifier = ConsoleNotifier(io.StringIO(), Style(colour=False), LOCAL_USER_ID)
    with pytest.raises(RuntimeError):
        await notifier.open_tournament_table(1, 0, 2)


# -- whole tournaments -----------------------------------------------------------------------


def result_figures(output: str) -> tuple[int, int, int]:
    """(buy-in, prize, balance at the end) as the output states them."""
    buy_in = re.search(r"buy-in ([\d,]+) chips", output)
    finish = re.search(r"You finish in place (\d+)(?:–\d+)? of 6(?: and win ([\d,]+) chips)?",
                       output)
    balance = re.search(r"Balance: ([\d,]+) chips \(([+-]?[\d,]+) this session\)", output)
    assert buy_in and finish and balance, output[-3000:]
    return number(buy_in[1]), number(finish[2] or "0"), number(balance[1])


@pytest.mark.parametrize("seed", [1, 3])
def test_an_all_in_every_hand_tournament_is_played_to_the_end_and_the_prize_is_credited(
    tmp_path: Path, seed: int
) -> None:
    started = time.monotonic()
    status, output, database = play(tmp_path, ALL_IN, "--fast", "--seed", str(seed))
    assert status == 0, output[-3000:]
    assert time.monotonic() - started < 15
    assert "The tournament starts: 6 players with 1,500 chips each" in output
    assert "Level 1 | blinds 5/10 | next level in 10 hands | 6 players left | " \
           "average stack 1,500" in output
    assert "-- Tournament standings (prize pool 3,000)" in output
    standings = output[output.index("-- Tournament standings"):]
    assert [line.split(".")[0].strip() for line in standings.splitlines()[1:7]] == \
        ["1", "2", "3", "4", "5", "6"]
    assert "You" in standings and "wins 1,950" in standings and "wins 1,050" in standings
    buy_in, prize, balance = result_figures(output)
    assert buy_in == 500
    assert balance == STARTING_BALANCE - buy_in + prize
    assert asyncio.run(ledger_figures(database)) == (balance, True)
    assert "Level 2: blinds 10/20." in output  # levels change between hands, announced
    assert re.search(r"is out in place [3-6] of 6\.", output)  # and busts too


def test_a_busted_player_hears_their_place_and_the_rest_is_played_out(tmp_path: Path) -> None:
    status, output, _ = play(tmp_path, ALL_IN, "--fast", "--seed", "1")
    assert status == 0
    assert "! You are out of the tournament in place 6 of 6." in output
    assert "The other players play on; the standings follow." in output
    after = output[output.index("The other players play on"):]
    assert "-- Hand #" not in after  # nothing more is drawn
    assert "Buy in again" not in output  # no rebuys in a tournament


def test_quitting_sits_out_and_the_player_is_blinded_off_quickly_even_without_fast(
    tmp_path: Path,
) -> None:
    started = time.monotonic()
    status, output, database = play(tmp_path, "q\n", "--seed", "2", "--structure", "turbo",
                                    "--bots", "easy,easy,easy")
    assert status == 0
    assert time.monotonic() - started < 15
    assert "You sit out: you stay in the tournament" in output
    buy_in, prize, balance = result_figures(output.replace("of 4", "of 6"))
    assert balance == STARTING_BALANCE - buy_in + prize
    assert asyncio.run(ledger_figures(database)) == (balance, True)


def test_a_tournament_in_simplified_chinese(tmp_path: Path) -> None:
    status, output, database = play(tmp_path, ALL_IN, "--fast", "--seed", "1",
                                    "--lang", "zh-Hans")
    assert status == 0
    assert "锦标赛" in output and "名次" in output
    assert "Tournament standings" not in output and "You finish" not in output
    assert "players left" not in output and "next level" not in output
    balance = re.search(r"余额：([\d,]+)", output)
    assert balance, output[-2000:]
    assert asyncio.run(ledger_figures(database)) == (number(balance[1]), True)
    assert number(balance[1]) == STARTING_BALANCE - 500  # busted in 6th with seed 1


def test_a_tournament_in_traditional_chinese_shows_the_tournament_line(tmp_path: Path) -> None:
    # A seed with which the all-in player outlasts the first level (bots that call all-ins by
    # pot odds bust it sooner than they used to).
    status, output, _ = play(tmp_path, ALL_IN, "--fast", "--seed", "2", "--lang", "zh-TW")
    assert status == 0
    assert "錦標賽" in output and "級別" in output
    assert "Level " not in output and "average stack" not in output


def test_places_shared_by_a_tie_read_as_a_range() -> None:
    assert place_text((1, 1)) == "1" and place_text((3, 4)) == "3–4"
    assert language_for("zh_Hans").code == "zh_Hans"

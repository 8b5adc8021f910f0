"""Fuzzing ``python -m bot play`` with piped scripts of odd lines, in-process.

Every script is a whole game: the action menu, the amount question and the yes/no questions
(run it twice, out of chips, the daily bonus) all read from the same lines. Whatever is
typed, the game ends with status 0 within seconds, prints no traceback (on stdout or in the
log), and the ledger's audit holds afterwards. Some games start with a small balance, so
that busting, the daily bonus and buying in again are reached too; games are played in
English, 简体中文 and 繁體中文, with the Chinese shortcut words among the lines.

Run with ``--hypothesis-show-statistics`` to see how many scripts were tried.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ledger import Ledger
from bot.terminal import main
from bot.terminal.game import GUILD_ID, LOCAL_USER_ID

ODD_LINES = (
    "", " ", "1", "2", "3", "4", "5", "0", "-1", "-0", "+3", "c", "x", "k", "a", "f", "r", "b",
    "fold", "check", "call", "allin", "all-in", "raise 150", "raise", "bet 40", "r 80",
    "3 100", "3 ²", "²", "³", "½", "３", "٣", "𝟗", "9" * 5_000, "1" * 5_000,
    "raise " + "9" * 5_000, "3 " + "9" * 4_301, "1,000", "1_000", ",", "_", "1e5", "0x10",
    "y", "n", "yes", "no", "Y", "maybe", "?", "h", "help", "\x00", "\x1b[2J", "\x07", "\t",
    "\x0b2", "\x1c", "\u2028", "\u0085", "\ufffd", "\udcff", "é", "🂡", "2 2", "  4  ", "q",
    "弃牌", "棄牌", "过牌", "過牌", "跟注", "下注", "加注", "加注 150", "加注150", "全下", "全押",
    "是", "否", "？", "２", "跟注 20", "下注 ²",
)
LANGUAGES = {None: ("You sit down with", "Balance:"), "zh-Hans": ("筹码入座", "余额："),
             "zh-TW": ("籌碼入座", "餘額：")}
"""The ``--lang`` of a game (``None``: the locale's, English here) and what its output says
when the player sits down and when the session ends."""
LEAVE_LINES = frozenset({"q", "quit", "exit", "leave", "退出", "离开", "離開"})
GAME_TIME_LIMIT = 30.0  # seconds; a game that waits on a question nobody answers hangs longer

any_text = st.text(
    alphabet=st.characters(blacklist_characters="\n\r"), max_size=30
).filter(lambda line: line.strip().lower() not in LEAVE_LINES)
PLAYING_LINES = ("2", "4", "a", "c", "x", "3", "", "y", "n", "y", "1", "跟注", "是")
"""Answers that move a game on (to all-ins, run it twice, busting, the daily bonus)."""

lines = st.one_of(
    st.sampled_from(PLAYING_LINES),
    st.sampled_from(PLAYING_LINES),
    st.sampled_from(ODD_LINES),
    st.integers(min_value=-10**6, max_value=10**30).map(str),
    any_text,
)
scripts = st.lists(lines, max_size=60).map(lambda script: "".join(f"{line}\n" for line in script))


async def start_with(path: Path, balance: int) -> None:
    """A ledger whose local player has ``balance`` chips (enough for one small buy-in)."""
    async with await Ledger.open(path, starting_balance=0) as ledger:
        await ledger.ensure_player(GUILD_ID, LOCAL_USER_ID, "player")
        await ledger.grant(GUILD_ID, LOCAL_USER_ID, balance)


async def audit_holds(path: Path) -> bool:
    async with await Ledger.open(path) as ledger:
        return (await ledger.audit()).ok


@settings(max_examples=50, suppress_health_check=[HealthCheck.too_slow,
                                                  HealthCheck.data_too_large])
@given(script=scripts, seed=st.integers(min_value=0, max_value=2**16),
       balance=st.sampled_from([None, 800, 2_000]), language=st.sampled_from(list(LANGUAGES)))
def test_any_piped_script_plays_without_a_traceback_and_keeps_the_ledger_whole(
    script: str, seed: int, balance: int | None, language: str | None
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "holdem.sqlite3"
        if balance is not None:
            asyncio.run(start_with(database, balance))
        out, err = io.StringIO(), io.StringIO()
        started = time.monotonic()
        with contextlib.redirect_stderr(err):  # logging is configured inside main()
            status = main(["--fast", "--seed", str(seed), "--bots", "easy",
                           "--database", str(database),
                           *(["--lang", language] if language else [])],
                          stdin=io.StringIO(script), stdout=out, environ={})
        took = time.monotonic() - started
        output, errors = out.getvalue(), err.getvalue()
        assert status == 0, output[-2_000:]
        assert took < GAME_TIME_LIMIT, output[-2_000:]
        assert "Traceback" not in output + errors, errors[-2_000:]
        assert "ERROR" not in errors, errors[-2_000:]
        sat_down, balance_said = LANGUAGES[language]
        assert sat_down in output and balance_said in output
        assert asyncio.run(audit_holds(database))

"""``python -m bot play ... | head -3``: output into a closed pipe ends the game quietly, with
status 0 or 141 (as a tool killed by SIGPIPE), never a traceback and never a hang."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.ledger import Ledger
from tests.terminal.closed_pipe import run_into_closed_pipe
from tests.terminal.test_terminal import ENGLISH_ENVIRON

RUNS = 4


async def ledger_audit(path: Path) -> bool:
    async with await Ledger.open(path) as ledger:
        return (await ledger.audit()).ok


@pytest.mark.parametrize("run", range(RUNS))
@pytest.mark.parametrize(("game", "lines"), [
    (("--tournament",), 3), (("--tournament",), 0), ((), 3), ((), 0)])
def test_output_into_a_closed_pipe_ends_quietly(
    tmp_path: Path, game: tuple[str, ...], lines: int, run: int
) -> None:
    database = tmp_path / "holdem.sqlite3"
    status, errors = run_into_closed_pipe(
        ["play", *game, "--fast", "--database", str(database)], lines=lines, stdin="q\n",
        env={**ENGLISH_ENVIRON, "NO_COLOR": "1"})
    assert status in (0, 141) and errors == ""
    assert asyncio.run(ledger_audit(database))  # the game stopped as Ctrl-C stops it

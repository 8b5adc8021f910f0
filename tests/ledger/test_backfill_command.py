"""``python -m bot backfill-habits``: the operator's way to count the hands settled before
habits were counted at settlement, run as a real process on the bot's SQLite ledger."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.ledger import Ledger
from tests.ledger.test_habit_totals import forget_counts, old_scan, play_some_hands
from tests.ledger.test_habits import ALICE, GUILD


def backfill(**environment: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "backfill-habits"], capture_output=True, text=True,
        env={**os.environ, **environment}, timeout=120, stdin=subprocess.DEVNULL)


async def test_the_backfill_command_counts_the_old_hands_once(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    async with await Ledger.open(path) as ledger:
        await play_some_hands(ledger)
        expected = await ledger._db.read(old_scan)
        await ledger._db.write(forget_counts)
    first = backfill(DATABASE_PATH=str(path))
    assert (first.returncode, first.stderr) == (0, "")
    assert first.stdout.splitlines()[-1].startswith("done: 4 hands counted")
    again = backfill(DATABASE_PATH=str(path))
    assert again.stdout.startswith("done: 0 hands counted")
    async with await Ledger.open(path) as ledger:
        assert await ledger.habits(GUILD) == expected
        assert expected[ALICE].hands == 4


def test_the_backfill_command_refuses_a_file_that_is_not_a_ledger(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.sqlite3"
    result = backfill(DATABASE_PATH=str(missing))
    assert result.returncode == 1 and "not a chip ledger" in result.stderr
    assert result.stderr.count("\n") == 1

"""Where ``python -m bot play --database`` may put its ledger, and how it says it cannot."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import aiosqlite
import pytest

from bot.ledger import Ledger, LedgerUnavailable
from bot.terminal import main
from tests.terminal.test_terminal import ENGLISH_ENVIRON


def test_a_named_database_in_a_missing_folder_is_refused_and_no_folder_is_made(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "nowhere" / "deeper"
    out = io.StringIO()
    status = main(["--database", str(missing / "x.sqlite3")], stdin=io.StringIO(""),
                  stdout=out, environ={})
    assert status == 1
    assert out.getvalue() == (
        f"Cannot open the chip ledger {missing / 'x.sqlite3'}: the folder {missing} does not "
        "exist; create it, or name a file in a folder that does\n")
    assert not (tmp_path / "nowhere").exists()


def test_a_named_database_under_a_file_says_that_file_is_not_a_folder(tmp_path: Path) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a folder")
    out = io.StringIO()
    status = main(["--database", str(a_file / "x.sqlite3")], stdin=io.StringIO(""),
                  stdout=out, environ={})
    assert status == 1
    assert out.getvalue() == (
        f"Cannot open the chip ledger {a_file / 'x.sqlite3'}: {a_file} is not a folder\n")


def test_a_database_sqlite_cannot_create_is_one_line_without_a_traceback() -> None:
    # /proc takes no new files, even from root: SQLite refuses to open the file there.
    result = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--database", "/proc/x.sqlite3"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, env=ENGLISH_ENVIRON,
        timeout=60)
    assert result.returncode == 1
    assert result.stdout.startswith("Cannot open the chip ledger /proc/x.sqlite3: ")
    assert result.stderr == ""


async def test_a_file_sqlite_cannot_open_is_refused_before_a_connection_thread_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # aiosqlite's thread, started for a file it then fails to open, still posts its goodbye
    # to the event loop: after asyncio.run has closed the loop, that is a traceback on
    # stderr ("Event loop is closed"), depending on which comes first.
    threads: list[str] = []
    connect = aiosqlite.connect
    monkeypatch.setattr(aiosqlite, "connect",
                        lambda path, **options: threads.append(path) or connect(path, **options))
    with pytest.raises(LedgerUnavailable, match=r"cannot open /proc/x\.sqlite3"):
        await Ledger.open("/proc/x.sqlite3")
    assert threads == []

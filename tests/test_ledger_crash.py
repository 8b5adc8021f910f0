"""Crash safety: kill a process mid-hand or mid-settlement, and ``recover()`` puts every chip
back where it was at the start of the hand (or keeps a settlement that committed)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.ledger import Ledger

WORKER = Path(__file__).with_name("ledger_crash_worker.py")
GUILD, TABLE, ALICE, BOB = 0, 7, 1, 2

# Every statement the settlement runs inside its transaction, in order.
SETTLEMENT_STATEMENTS = [
    "SELECT guild_id, table_id FROM hands",
    "SELECT a.user_id",
    "UPDATE accounts",
    "INSERT INTO entries",
    "UPDATE hands",
    "INSERT INTO hand_players",
    "UPDATE players",
    "COMMIT",
]


@contextmanager
def frozen_worker(path: Path, stop_at: str, marker: str = "FROZEN") -> Iterator[dict]:
    """Run the worker until it prints ``marker``, yield its start-of-hand state, SIGKILL it."""
    worker = subprocess.Popen(
        [sys.executable, str(WORKER), str(path), stop_at],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        state = json.loads(worker.stdout.readline() or "null")
        printed = worker.stdout.readline().strip()
        assert state is not None and printed == marker, worker.stderr.read()
        yield state
    finally:
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(timeout=10)
        worker.stdout.close()
        worker.stderr.close()
    assert worker.returncode == -signal.SIGKILL


def crash(path: Path, stop_at: str) -> dict:
    with frozen_worker(path, stop_at) as state:
        return state


async def holdings_after_recovery(path: Path) -> tuple[dict[int, int], int, int]:
    """Balances of both people, the house and Alice's settled hands after a restart."""
    async with await Ledger.open(path) as ledger:
        report = await ledger.recover()
        audit = await ledger.audit()
        assert audit.ok, audit.problems
        assert audit.totals.escrow == 0
        assert await ledger.table_stacks(TABLE) == {}
        balances = {user: await ledger.balance(GUILD, user) for user in (ALICE, BOB)}
        stats = await ledger.stats(GUILD, ALICE)
        assert stats is not None
        assert report.tables_closed == (TABLE,)
        assert len(await ledger.recent_hands(GUILD, ALICE, limit=1_000)) == stats.hands_played
        return balances, audit.totals.house, stats.hands_played


@pytest.mark.parametrize("statement", SETTLEMENT_STATEMENTS)
async def test_a_crash_inside_the_settlement_restores_the_start_of_hand_chips(
    tmp_path: Path, statement: str
) -> None:
    path = tmp_path / "ledger.sqlite3"
    state = crash(path, statement)
    balances, house, hands_played = await holdings_after_recovery(path)
    start = state["start"]
    assert balances == {
        user: state["balances"][str(user)] + start[str(user)] for user in (ALICE, BOB)
    }
    assert house == state["house"] + start["Ada"]
    assert hands_played == 0
    async with await Ledger.open(path) as ledger:
        assert await ledger.hand_history(state["hand_id"]) is None


async def test_a_crash_in_the_middle_of_a_hand_restores_the_start_of_hand_chips(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ledger.sqlite3"
    state = crash(path, "in-hand")
    balances, house, hands_played = await holdings_after_recovery(path)
    start = state["start"]
    assert balances == {
        user: state["balances"][str(user)] + start[str(user)] for user in (ALICE, BOB)
    }
    assert house == state["house"] + start["Ada"]
    assert hands_played == 0


async def test_a_crash_after_the_settlement_committed_keeps_its_result(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    state = crash(path, "done")
    balances, house, hands_played = await holdings_after_recovery(path)
    final = state["final"]
    assert balances == {
        user: state["balances"][str(user)] + final[str(user)] for user in (ALICE, BOB)
    }
    assert house == state["house"] + final["Ada"]
    assert hands_played == 1


async def test_a_running_table_keeps_its_escrow_through_recovery(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    state = crash(path, "in-hand")
    async with await Ledger.open(path) as ledger:
        report = await ledger.recover(running_table_ids={TABLE})
        assert report.chips_returned == 0
        stacks = await ledger.table_stacks(TABLE)
        assert stacks == {ALICE: 2_000, BOB: 1_500, "Ada": 1_000}
        assert {str(player): chips for player, chips in stacks.items()} == state["start"]
        assert (await ledger.audit()).ok


async def test_a_crash_at_an_arbitrary_moment_of_play_loses_and_creates_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ledger.sqlite3"
    with frozen_worker(path, "never", marker="PLAYING") as state:
        await asyncio.sleep(0.3)
    balances, house, hands_played = await holdings_after_recovery(path)
    start = state["start"]
    assert hands_played >= 1
    # Every settled hand moved 100 chips one way or the other; the bot's stack never moved.
    assert house == state["house"] + start["Ada"]
    assert sum(balances.values()) == sum(state["balances"].values()) + start["1"] + start["2"]

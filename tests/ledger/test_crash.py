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

import asyncpg
import pytest

from bot.ledger import Ledger

WORKER = Path(__file__).with_name("crash_worker.py")
# The worker runs as a script; it must import this checkout's ``bot``, not an installed copy.
WORKER_ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(
        filter(None, [str(WORKER.parents[2]), os.environ.get("PYTHONPATH")])
    ),
}
GUILD, FIRST_TABLE, ALICE, BOB = 0, 7, 1, 2
# Tests that take ``ledger_location`` run on SQLite and on PostgreSQL (tests/ledger/conftest);
# those of group commit's batches and replays, SQLite's own device, on SQLite only.

# Every statement one settlement runs inside the transaction, in order, on SQLite; PostgreSQL
# runs it as one statement (bot.ledger.hands), with no BEGIN or COMMIT around it.
SETTLEMENT_STATEMENTS = [
    "UPDATE hands",
    "UPDATE accounts",
    "INSERT INTO entries",
    "INSERT INTO hand_players",
    "UPDATE players",
    "COMMIT",
]
POSTGRES_SETTLEMENT = "WITH closed AS (UPDATE hands"
# Moments inside one transaction holding three hands' settlements (``#n``: the n-th time the
# transaction runs that statement; each settlement runs ``UPDATE hands`` and ``UPDATE players``
# once, and ``INSERT INTO entries`` once per player whose stack changed, here three).
BATCH_MOMENTS = [
    "UPDATE hands#2", "UPDATE players#2", "INSERT INTO entries#7", "UPDATE players#3", "COMMIT",
]  # fmt: skip
# Moments of the same batch with a refused settlement second: the first attempt rolls back at
# the refusal, then the replay runs each settlement in its own savepoint.
REPLAY_MOMENTS = [
    "ROLLBACK#1", "SAVEPOINT#1", "ROLLBACK TO", "RELEASE#2", "UPDATE players#3", "RELEASE#4",
    "COMMIT",
]  # fmt: skip


@contextmanager
def frozen_worker(
    path: Path, stop_at: str, *options: str, marker: str = "FROZEN"
) -> Iterator[dict]:
    """Run the worker until it prints ``marker``, yield its start-of-hand state, SIGKILL it."""
    worker = subprocess.Popen(
        [sys.executable, str(WORKER), str(path), stop_at, *options],
        env=WORKER_ENV,
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


def crash(path: Path, stop_at: str, *options: str) -> dict:
    with frozen_worker(path, stop_at, *options) as state:
        return state


async def settled_after_recovery(path: Path, state: dict, tables: int = 1) -> list[bool]:
    """Restart and recover, check that each hand is either settled with its final stacks or
    back at its start-of-hand stacks (and that audit() holds), and say which hands settled."""
    async with await Ledger.open(path) as ledger:
        report = await ledger.recover()
        audit = await ledger.audit()
        assert audit.ok, audit.problems
        assert audit.totals.escrow == 0
        table_ids = tuple(range(FIRST_TABLE, FIRST_TABLE + tables))
        assert report.tables_closed == table_ids
        for table_id in table_ids:
            assert await ledger.table_stacks(table_id) == {}
        settled = [await ledger.hand_history(hand_id) is not None for hand_id in state["hand_ids"]]
        assert set(report.hands_refunded).isdisjoint(
            hand_id for hand_id, done in zip(state["hand_ids"], settled, strict=True) if done
        )
        stacks = [state["final"] if done else state["start"] for done in settled]
        balances = {user: await ledger.balance(GUILD, user) for user in (ALICE, BOB)}
        assert balances == {
            user: state["balances"][str(user)] + sum(s[str(user)] for s in stacks)
            for user in (ALICE, BOB)
        }
        assert audit.totals.house == state["house"] + sum(s["Ada"] for s in stacks)
        stats = await ledger.stats(GUILD, ALICE)
        assert stats is not None
        assert stats.hands_played == sum(settled)
        assert len(await ledger.recent_hands(GUILD, ALICE, limit=1_000)) == stats.hands_played
        return settled


@pytest.mark.parametrize("statement", SETTLEMENT_STATEMENTS)
async def test_a_crash_inside_the_settlement_restores_the_start_of_hand_chips(
    tmp_path: Path, statement: str
) -> None:
    path = tmp_path / "ledger.sqlite3"
    state = crash(path, statement)
    assert await settled_after_recovery(path, state) == [False]


async def test_a_crash_before_the_settlement_statement_restores_the_start_of_hand_chips(
    postgres_url: str,
) -> None:
    state = crash(postgres_url, POSTGRES_SETTLEMENT)
    assert await settled_after_recovery(postgres_url, state) == [False]


async def test_a_crash_while_the_server_runs_the_settlement_statement_loses_nothing(
    postgres_url: str,
) -> None:
    """The statement is under way on the server (it has closed the hand and waits for a stack
    the test holds locked) when its process dies: the server finishes it alone, and it has
    changed everything or nothing."""
    worker = subprocess.Popen(
        [sys.executable, str(WORKER), postgres_url, f"sent:{POSTGRES_SETTLEMENT}"],
        env=WORKER_ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    locker = await asyncpg.connect(postgres_url)
    try:
        state = json.loads(worker.stdout.readline() or "null")
        assert state is not None, worker.stderr.read()
        async with locker.transaction():
            await locker.execute(
                "SELECT 1 FROM accounts WHERE kind = 'escrow' AND user_id = $1 FOR UPDATE", BOB
            )
            worker.stdin.write("go\n")
            worker.stdin.flush()
            assert worker.stdout.readline().strip() == "SENT", worker.stderr.read()
            while not await locker.fetchval(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE wait_event_type = 'Lock' AND query LIKE 'WITH closed%'"
            ):
                await asyncio.sleep(0.01)
                await locker.execute("SELECT pg_stat_clear_snapshot()")  # a transaction's own
            os.kill(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)
        settled = await settled_after_recovery(postgres_url, state)
    finally:
        await locker.close()
        if worker.poll() is None:
            worker.kill()
            worker.wait(timeout=10)
        for stream in (worker.stdin, worker.stdout, worker.stderr):
            stream.close()
    assert settled in ([True], [False])


async def test_a_crash_before_a_statement_settling_several_hands_restores_every_hand_of_it(
    postgres_url: str,
) -> None:
    """Five settlements made at once on PostgreSQL go together in one statement, which the
    crash stops before it is sent: all five hands are back at their start-of-hand stacks."""
    state = crash(postgres_url, POSTGRES_SETTLEMENT, "5")
    assert await settled_after_recovery(postgres_url, state, tables=5) == [False] * 5


@pytest.mark.parametrize("moment", BATCH_MOMENTS)
async def test_a_crash_inside_a_batch_of_settlements_restores_every_hand_of_it(
    tmp_path: Path, moment: str
) -> None:
    path = tmp_path / "ledger.sqlite3"
    state = crash(path, moment, "3")
    assert await settled_after_recovery(path, state, tables=3) == [False, False, False]


@pytest.mark.parametrize("moment", REPLAY_MOMENTS)
async def test_a_crash_while_a_batch_is_replayed_around_a_refused_write_restores_every_hand(
    tmp_path: Path, moment: str
) -> None:
    path = tmp_path / "ledger.sqlite3"
    state = crash(path, moment, "3", "refused")
    assert await settled_after_recovery(path, state, tables=3) == [False, False, False]


async def test_a_batch_with_a_refused_write_commits_the_others(
    ledger_location: str | Path,
) -> None:
    state = crash(ledger_location, "done", "3", "refused")
    assert await settled_after_recovery(ledger_location, state, tables=3) == [True, True, True]


async def test_a_crash_after_a_batch_of_settlements_committed_keeps_every_result(
    ledger_location: str | Path,
) -> None:
    state = crash(ledger_location, "done", "3")
    assert await settled_after_recovery(ledger_location, state, tables=3) == [True, True, True]


async def test_a_crash_in_the_middle_of_a_hand_restores_the_start_of_hand_chips(
    ledger_location: str | Path,
) -> None:
    state = crash(ledger_location, "in-hand")
    assert await settled_after_recovery(ledger_location, state) == [False]


async def test_a_crash_after_the_settlement_committed_keeps_its_result(
    ledger_location: str | Path,
) -> None:
    state = crash(ledger_location, "done")
    assert await settled_after_recovery(ledger_location, state) == [True]


async def test_a_running_table_keeps_its_escrow_through_recovery(
    ledger_location: str | Path,
) -> None:
    state = crash(ledger_location, "in-hand")
    async with await Ledger.open(ledger_location) as ledger:
        report = await ledger.recover(running_table_ids={FIRST_TABLE})
        assert report.chips_returned == 0
        stacks = await ledger.table_stacks(FIRST_TABLE)
        assert stacks == {ALICE: 2_000, BOB: 1_500, "Ada": 1_000}
        assert {str(player): chips for player, chips in stacks.items()} == state["start"]
        assert (await ledger.audit()).ok


async def test_a_crash_at_an_arbitrary_moment_of_play_loses_and_creates_nothing(
    ledger_location: str | Path,
) -> None:
    with frozen_worker(ledger_location, "never", marker="PLAYING") as state:
        await asyncio.sleep(0.3)
    async with await Ledger.open(ledger_location) as ledger:
        await ledger.recover()
        audit = await ledger.audit()
        assert audit.ok, audit.problems
        balances = {user: await ledger.balance(GUILD, user) for user in (ALICE, BOB)}
        stats = await ledger.stats(GUILD, ALICE)
    start = state["start"]
    assert stats is not None and stats.hands_played >= 1
    # Every settled hand moved 100 chips one way or the other; the bot's stack never moved.
    assert audit.totals.house == state["house"] + start["Ada"]
    assert sum(balances.values()) == sum(state["balances"].values()) + start["1"] + start["2"]

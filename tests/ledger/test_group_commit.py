"""Group commit: writes that arrive together share one transaction, yet each stays atomic on
its own, fails only for its caller, and is durable when its caller's ``await`` returns."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import aiosqlite
import pytest

from bot.ledger import (
    HandParticipant,
    InsufficientChips,
    Ledger,
    UnknownHand,
    run_on_connection_thread,
)
from bot.ledger.transactions import commit_batch

GUILD, TABLE = 1, 100
PEOPLE = range(11, 31)


@pytest.fixture
def ledger_location(tmp_path: Path) -> Path:
    """Group commit is SQLite's device: these tests run on SQLite only."""
    return tmp_path / "ledger.sqlite3"


def committed_players(path: Path) -> set[int]:
    """The people another connection sees: only what has been committed."""
    with sqlite3.connect(path) as db:
        return {user_id for (user_id,) in db.execute("SELECT user_id FROM players")}


async def test_writes_that_arrive_together_share_one_transaction(ledger: Ledger) -> None:
    before = ledger.transactions_committed
    balances = await asyncio.gather(
        *(ledger.ensure_player(GUILD, user, f"player {user}") for user in PEOPLE)
    )
    assert balances == [ledger.starting_balance] * len(PEOPLE)
    assert ledger.transactions_committed == before + 1


async def test_without_group_commit_each_write_is_its_own_transaction(tmp_path: Path) -> None:
    async with await Ledger.open(tmp_path / "ledger.sqlite3", group_commit=False) as ledger:
        await asyncio.gather(*(ledger.ensure_player(GUILD, user, "p") for user in PEOPLE))
        assert ledger.transactions_committed == len(PEOPLE)
        assert (await ledger.audit()).ok


async def test_a_refused_write_in_a_batch_fails_alone_and_changes_nothing(
    ledger: Ledger,
) -> None:
    alice, bob = PEOPLE[0], PEOPLE[1]
    await ledger.ensure_player(GUILD, alice, "alice")
    await ledger.ensure_player(GUILD, bob, "bob")
    before = ledger.transactions_committed
    outcomes = await asyncio.gather(
        ledger.buy_in(GUILD, TABLE, alice, 1_000),
        ledger.buy_in(GUILD, TABLE, bob, 1_000_000),
        ledger.buy_in(GUILD, TABLE, bob, 500),
        ledger.settle_hand(12_345, {}, [], ""),
        return_exceptions=True,
    )
    assert ledger.transactions_committed == before + 1
    assert outcomes[0] == 1_000 and outcomes[2] == 500
    assert isinstance(outcomes[1], InsufficientChips)
    assert isinstance(outcomes[3], UnknownHand)
    assert await ledger.table_stacks(TABLE) == {alice: 1_000, bob: 500}
    assert await ledger.balance(GUILD, bob) == ledger.starting_balance - 500


async def test_a_write_sees_the_writes_queued_before_it_in_the_same_transaction(
    ledger: Ledger,
) -> None:
    alice = PEOPLE[0]
    await ledger.ensure_player(GUILD, alice, "alice")
    stacks = {alice: 1_000, "Ada": 1_000}
    outcomes = await asyncio.gather(
        ledger.buy_in(GUILD, TABLE, alice, 1_000),
        ledger.buy_in(GUILD, TABLE, "Ada", 1_000),
        ledger.begin_hand(GUILD, TABLE, 1, stacks),
    )
    hand_id = outcomes[2]
    results = [HandParticipant(alice, "alice", 0), HandParticipant("Ada", "Ada", 0)]
    await asyncio.gather(
        ledger.settle_hand(hand_id, stacks, results, "Hand #1"),
        ledger.cash_out(GUILD, TABLE, alice),
    )
    assert await ledger.table_stacks(TABLE) == {"Ada": 1_000}


async def test_each_await_returns_only_after_the_commit_holding_its_write(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ledger.sqlite3"
    async with await Ledger.open(path) as ledger:

        async def join(user: int) -> set[int]:
            await ledger.ensure_player(GUILD, user, "p")
            return committed_players(path)

        seen = await asyncio.gather(*(join(user) for user in PEOPLE))
    for user, committed in zip(PEOPLE, seen, strict=True):
        assert user in committed


async def test_writes_queued_while_a_transaction_runs_commit_together_in_the_next(
    ledger: Ledger,
) -> None:
    entered, release = threading.Event(), threading.Event()

    def hold_the_first_transaction(statement: str) -> None:
        if statement.startswith("BEGIN") and not entered.is_set():
            entered.set()
            release.wait(10)

    await ledger._db.connection.set_trace_callback(hold_the_first_transaction)
    before = ledger.transactions_committed
    first = asyncio.create_task(ledger.ensure_player(GUILD, PEOPLE[0], "first"))
    await asyncio.to_thread(entered.wait, 10)
    later = [ledger.ensure_player(GUILD, user, "later") for user in PEOPLE[1:]]
    release.set()
    await asyncio.gather(first, *later)
    await ledger._db.connection.set_trace_callback(None)
    assert ledger.transactions_committed == before + 2


async def test_close_commits_the_writes_still_queued(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    ledger = await Ledger.open(path)
    writes = [asyncio.create_task(ledger.ensure_player(GUILD, u, "p")) for u in PEOPLE]
    await asyncio.sleep(0)  # the writes are queued, not yet committed
    await ledger.close()
    assert all(write.done() and write.exception() is None for write in writes)
    assert committed_players(path) == set(PEOPLE)


def test_a_write_that_ends_the_transaction_fails_the_whole_batch() -> None:
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.execute("CREATE TABLE t (x INTEGER)")

    def insert(connection: sqlite3.Connection) -> None:
        connection.execute("INSERT INTO t VALUES (1)")

    def end_transaction(connection: sqlite3.Connection) -> None:
        connection.execute("ROLLBACK")
        raise sqlite3.OperationalError("disk I/O error")

    with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
        commit_batch(db, [insert, end_transaction, insert])
    assert db.execute("SELECT COUNT(*) FROM t").fetchone() == (0,)
    assert not db.in_transaction


async def test_aiosqlite_still_runs_a_function_on_its_thread(tmp_path: Path) -> None:
    for internal in ("_execute", "_conn"):
        assert hasattr(aiosqlite.Connection, internal), (
            f"aiosqlite {aiosqlite.__version__} no longer has Connection.{internal}, which"
            " bot.ledger.transactions.run_on_connection_thread relies on: adapt it or pin"
            " aiosqlite lower."
        )
    async with aiosqlite.connect(tmp_path / "x.sqlite3") as db:

        def where(connection: sqlite3.Connection, offset: int) -> tuple[bool, int, int]:
            (one,) = connection.execute("SELECT 1").fetchone()
            return isinstance(connection, sqlite3.Connection), threading.get_ident(), one + offset

        is_sqlite3, thread_id, answer = await run_on_connection_thread(db, where, 41)
    assert is_sqlite3 and answer == 42
    assert thread_id != threading.get_ident()

"""How every statement reaches SQLite: one connection thread, transactions, group commit.

The ledger owns a single aiosqlite connection. Each operation runs as one call on that
connection's worker thread: calls queue there one at a time, so transactions are serialized
without a lock, and a transaction never waits on the event loop between its statements.

Writes that arrive while a transaction is running are grouped into the next one (group
commit), so under load many hands share one ``BEGIN IMMEDIATE … COMMIT`` and one thread hop.
Each write is still atomic on its own: if one raises, the batch is replayed with every write
in its own savepoint, so the refused write changes nothing and fails only for its caller. Each
caller's ``await`` returns once the transaction holding its write has committed and is on
disk (``SYNCHRONOUS``): a write whose call has returned survives a crash of the process, of
the machine, or a power loss.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from typing import Concatenate, Generic, ParamSpec, Protocol, TypeVar

import aiosqlite

from bot.ledger.statements import (
    Command,
    CommandMany,
    Dialect,
    Query,
    Script,
    ScriptFactory,
    ScriptRun,
    Statement,
    UniqueViolation,
)

T = TypeVar("T")
P = ParamSpec("P")

BUSY_TIMEOUT_MS = 5_000
"""How long a statement waits for another process's lock before failing."""

MAX_WRITES_PER_TRANSACTION = 256
"""Bounds how long one grouped transaction holds the write lock and its callers wait."""

SYNCHRONOUS = "FULL"
"""SQLite's sync policy: in WAL mode, ``FULL`` syncs the log to disk at every commit.

It keeps the promise that a write is durable once its call returns. ``NORMAL`` syncs only at
checkpoints: a commit then survives a crash of the process but not a power loss or a crash of
the machine, which can lose the last commits after their callers were told they happened.

Measured with ``python -m benchmarks.ledger [--synchronous NORMAL]`` (2-core VM, ext4 on a
virtual disk, three alternating runs each), FULL against NORMAL:

- 1,000 tables at once, group commit (the default): 6,025 against 6,497 hands/s, 0.93×,
  since a whole batch shares one sync;
- one table alone (each write waits for its own sync): 0.9-1.1 ms against 0.4-0.6 ms per
  hand (two commits), about 2× the latency but half a millisecond, and a lower p99 (2-3 ms
  against 4.5-6 ms: NORMAL pays its syncs in bursts at checkpoints);
- one transaction per write, 1,000 tables: 1,154 against 2,079 hands/s, 0.56×.

A hand takes seconds to play, so the cost is small where it is paid; a slower disk's sync
adds to lone writes, while group commit amortizes it under load.
"""


def configure(db: sqlite3.Connection) -> None:
    """Set the connection's pragmas: write-ahead log synced at every commit (see
    ``SYNCHRONOUS``), foreign keys, and how long to wait for another process's lock."""
    db.execute("PRAGMA journal_mode = WAL")
    db.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")
    db.execute("PRAGMA foreign_keys = ON")
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


class Transactions:
    """Reads and writes on one aiosqlite connection, with concurrent writes group-committed.

    ``group_commit=False`` gives every write its own transaction instead (slower under load;
    kept to measure the difference). ``committed`` counts the write transactions committed.
    """

    dialect: Dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection, *, group_commit: bool = True) -> None:
        self.connection = connection
        self.committed = 0
        self._group_commit = group_commit
        self._pending: list[_QueuedWrite] = []
        self._flusher: asyncio.Task[None] | None = None

    async def call(
        self,
        function: Callable[Concatenate[sqlite3.Connection, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Run ``function(connection, *args, **kwargs)`` on the connection's thread."""
        return await run_on_connection_thread(self.connection, function, *args, **kwargs)

    async def read(self, script: ScriptFactory[T]) -> T:
        """Run the script in a read transaction, so that it sees one consistent state."""
        return await self.call(in_transaction, "BEGIN", _body(script))

    async def write(self, script: ScriptFactory[T]) -> T:
        """Run the script atomically in a write transaction and return once it has committed;
        any exception it raises undoes its statements and is raised here."""
        body = _body(script)
        if not self._group_commit:
            result = await self.call(in_transaction, "BEGIN IMMEDIATE", body)
            self.committed += 1
            return result
        outcome: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._pending.append(_WriteRequest(body, outcome))
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._commit_pending())
        return await outcome

    async def _commit_pending(self) -> None:
        """Commit the queued writes, up to ``MAX_WRITES_PER_TRANSACTION`` per transaction,
        until none are left; writes queued meanwhile join the next transaction."""
        try:
            while self._pending:
                batch = self._pending[:MAX_WRITES_PER_TRANSACTION]
                del self._pending[:MAX_WRITES_PER_TRANSACTION]
                errors: list[Exception | None]
                try:
                    errors = await self.call(commit_batch, [write.run for write in batch])
                except Exception as error:  # nothing of the batch was committed
                    errors = [error] * len(batch)
                else:
                    self.committed += 1
                for write, write_error in zip(batch, errors, strict=True):
                    write.deliver(write_error)
        except BaseException:
            for write in self._pending:
                write.cancel()
            self._pending.clear()
            raise
        finally:
            self._flusher = None

    def refused(self, error: Exception) -> bool:
        """Whether SQLite refused a statement (``sqlite3.Error``, ``UniqueViolation``)."""
        return isinstance(error, sqlite3.Error | UniqueViolation)

    async def trace(self, callback: Callable[[str], None] | None) -> None:
        """Call ``callback`` with each statement's text just before SQLite runs it (``None``
        stops): crash tests stop the process at a chosen statement with it."""
        await self.call(sqlite3.Connection.set_trace_callback, callback)

    async def close(self) -> None:
        """Commit the writes still queued, then close the connection."""
        if self._flusher is not None:
            await asyncio.wait([self._flusher])
        await self.connection.close()


def _body(script: ScriptFactory[T]) -> Callable[[sqlite3.Connection], T]:
    """A body for the connection's thread that runs a fresh run of ``script`` on it."""
    return lambda db: run_script(db, script())


def run_script(db: sqlite3.Connection, script: Script[T]) -> T:
    """Run each statement the script yields and send it the result; a broken unique
    constraint is thrown into the script as ``UniqueViolation``."""
    run = ScriptRun(script)
    statement = run.next_statement()
    while statement is not None:
        try:
            result = _execute(db, statement)
        except sqlite3.IntegrityError as error:
            if "UNIQUE constraint failed" not in str(error):
                raise
            statement = run.next_statement(failure=UniqueViolation(str(error)))
        else:
            statement = run.next_statement(result)
    return run.value


def _execute(db: sqlite3.Connection, statement: Statement) -> object:
    match statement:
        case Query(sql, args):
            return db.execute(sql, args).fetchall()
        case Command(sql, args):
            return db.execute(sql, args).rowcount
        case CommandMany(sql, args_list):
            return db.executemany(sql, args_list).rowcount


def run_on_connection_thread(
    db: aiosqlite.Connection,
    function: Callable[Concatenate[sqlite3.Connection, P], T],
    *args: P.args,
    **kwargs: P.kwargs,
) -> Awaitable[T]:
    """Run ``function(sqlite3_connection, *args, **kwargs)`` as one call on aiosqlite's worker
    thread.

    aiosqlite has no public way to run several statements in one thread hop, so this reaches
    into its internals ``_execute`` and ``_conn`` (stable since 0.17; pyproject pins
    ``aiosqlite<0.23`` and ``test_aiosqlite_still_runs_a_function_on_its_thread`` checks them).
    This is the only place that does.
    """
    execute: Callable[..., Awaitable[T]] = db._execute  # untyped in aiosqlite; typed here
    return execute(function, db._conn, *args, **kwargs)


class _QueuedWrite(Protocol):
    """A write waiting for the next transaction, whatever its result's type."""

    def run(self, db: sqlite3.Connection) -> None:
        """Run the write's statements; on the connection's thread, inside the transaction."""

    def deliver(self, error: Exception | None) -> None:
        """Tell the caller its write committed (``None``) or was refused; on the loop."""

    def cancel(self) -> None:
        """Tell the caller its write will not run."""


class _WriteRequest(Generic[T]):
    """A write waiting for the next transaction, and the future its caller awaits."""

    __slots__ = ("_body", "_outcome", "_result")

    def __init__(
        self, body: Callable[[sqlite3.Connection], T], outcome: asyncio.Future[T]
    ) -> None:
        self._body = body
        self._outcome = outcome
        self._result: T

    def run(self, db: sqlite3.Connection) -> None:
        """Run the body and keep its result (a replayed batch runs it again)."""
        self._result = self._body(db)

    def deliver(self, error: Exception | None) -> None:
        """Resolve the caller's future with the result kept, or ``error``, unless the caller
        was cancelled."""
        if self._outcome.done():
            return
        if error is None:
            self._outcome.set_result(self._result)
        else:
            self._outcome.set_exception(error)

    def cancel(self) -> None:
        """Cancel the caller's future."""
        self._outcome.cancel()


def in_transaction(
    db: sqlite3.Connection, begin: str, body: Callable[[sqlite3.Connection], T]
) -> T:
    """Run ``body`` between ``begin`` and ``COMMIT``; roll back if it raises."""
    db.execute(begin)
    try:
        result = body(db)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return result


def commit_batch(
    db: sqlite3.Connection, bodies: Sequence[Callable[[sqlite3.Connection], object]]
) -> list[Exception | None]:
    """Run the writes in order in one ``BEGIN IMMEDIATE`` transaction and commit; return each
    one's exception, or ``None`` if it committed (results stay with the bodies).

    The common case, where every write succeeds, runs without savepoints: a savepoint makes
    SQLite copy every page a write touches, about a fifth of a hand's cost. If a write raises,
    the transaction is rolled back and the batch replayed with each write in its own savepoint,
    so that the refused one is undone alone (the bodies only touch the database, so running
    them again is safe). If the replay's transaction itself fails (``COMMIT``, or SQLite
    dropped it), everything is rolled back and the error raised.
    """

    def every_write(db: sqlite3.Connection) -> list[Exception | None]:
        for body in bodies:
            body(db)
        return [None] * len(bodies)

    try:
        return in_transaction(db, "BEGIN IMMEDIATE", every_write)
    except Exception as error:
        if len(bodies) == 1:
            return [error]

    def each_in_a_savepoint(db: sqlite3.Connection) -> list[Exception | None]:
        return [_in_savepoint(db, body) for body in bodies]

    return in_transaction(db, "BEGIN IMMEDIATE", each_in_a_savepoint)


def _in_savepoint(
    db: sqlite3.Connection, body: Callable[[sqlite3.Connection], object]
) -> Exception | None:
    """Run ``body`` in a savepoint: undo it alone and return the exception if it raises."""
    db.execute("SAVEPOINT write")
    try:
        body(db)
    except Exception as error:
        if not db.in_transaction:  # SQLite rolled back the whole transaction
            raise
        db.execute("ROLLBACK TO write")
        db.execute("RELEASE write")
        return error
    db.execute("RELEASE write")
    return None

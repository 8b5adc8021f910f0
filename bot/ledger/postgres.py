"""How every statement reaches PostgreSQL: a pool of asyncpg connections, one transaction per
operation, retried when the server asks for it.

Several bot processes share one PostgreSQL database, so the ledger cannot serialize writes in
one thread as it does on SQLite. Each operation borrows a connection from the pool and runs
its script in its own ``READ COMMITTED`` transaction; the scripts lock every row they read
and then change (``Query.lock`` → ``FOR UPDATE``) in one fixed order, so two processes never
spend the same chips and never wait on each other in a circle. Should the server still abort
a transaction (a deadlock it detected, a serialization failure, or a unique row another
transaction inserted first), the operation is run again from the start, up to
``MAX_ATTEMPTS`` times. Reads run in ``REPEATABLE READ READ ONLY`` transactions, so an
audit sees one consistent state.

Every statement is a round trip between two processes, which costs both of them CPU (about
130 µs in the bot's process and 50 µs in the server's, measured with asyncpg on the 2-core
machine of the README's figures): a hand's two writes, ``begin_hand`` and ``settle_hand``, are
therefore one statement each (``Query.alone``: no ``BEGIN`` or ``COMMIT``), 2.3 round trips
per hand under ``benchmarks.tables`` where they were 12.3, and the hands begun or settled
while such statements are under way share the next one (the ledger's ``batches``).

Group commit, SQLite's device for sharing one disk sync among many writes, is not used for
the other operations: what it saves is syncs, and turning them off altogether
(``synchronous_commit = off``) moved ``benchmarks.tables --tables 300`` from 547 to 555
hands/s, within the noise; grouping writes in one transaction would add round trips
(``BEGIN``, ``COMMIT``, savepoints) to the single-statement writes, and one transaction per
operation keeps each refusal local. Batching hands is different: several hands in one
statement save its round trip and its per-statement work on the server (0.36 ms of the bot's
CPU and 0.93 ms of the server's per hand become 0.11 and 0.22 with 1,000 tables settling).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Callable, Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, TypeAlias, TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.ledger.errors import LedgerUnavailable
from bot.ledger.locations import describe_url
from bot.ledger.schema import migration_files
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
    columns,
)

T = TypeVar("T")

if TYPE_CHECKING:  # asyncpg's classes are generic only in its stubs
    Connection: TypeAlias = PoolConnectionProxy[asyncpg.Record]

POSTGRES_MIGRATIONS_DIR: Traversable = files("bot.ledger") / "migrations" / "postgresql"
"""The PostgreSQL migrations shipped with the package."""

MAX_ATTEMPTS = 5
"""How many times an operation runs before a retryable failure reaches its caller. Row locks
taken in a fixed order leave only the aborts the server decides on its own (a row another
process inserted first, a deadlock with some other client); a handful of attempts rides out a
burst of those without hiding a lasting fault. The count is a judgement, not a measurement:
no benchmark run has surfaced a retryable error (``benchmarks.tables --processes 2``)."""

CONNECT_TIMEOUT_SECONDS = 10.0
"""How long opening the ledger waits for the server before saying it is unreachable."""

MIGRATION_LOCK = 0x686F6C64656D  # "holdem": the advisory lock held while migrating
"""Taken while migrating, so that processes starting together apply each migration once."""

_RETRYABLE = (
    asyncpg.SerializationError,
    asyncpg.DeadlockDetectedError,
    UniqueViolation,
)

def postgres_sql(sql: str, lock: bool = False) -> str:
    """A statement written with ``?`` placeholders, as PostgreSQL numbers them (``$1``…).

    >>> postgres_sql("SELECT id FROM accounts WHERE guild_id = ? AND user_id = ?", lock=True)
    'SELECT id FROM accounts WHERE guild_id = $1 AND user_id = $2 FOR UPDATE'
    """
    return _translated(sql) + (" FOR UPDATE" if lock else "")


_translations: dict[str, str] = {}


def _translated(sql: str) -> str:
    found = _translations.get(sql)
    if found is None:
        numbers = iter(range(1, sql.count("?") + 1))
        found = _translations[sql] = re.sub(r"\?", lambda _: f"${next(numbers)}", sql)
    return found


class PostgresTransactions:
    """Reads and writes on a pool of connections to one PostgreSQL database.

    ``committed`` counts the write transactions committed; ``retried`` the attempts run again.
    """

    dialect: Dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._trace: Callable[[str], None] | None = None
        self.committed = 0
        self.retried = 0

    @classmethod
    async def connect(
        cls, url: str, migrations: Traversable = POSTGRES_MIGRATIONS_DIR
    ) -> PostgresTransactions:
        """Open a pool on ``url`` and apply the migrations not yet applied; the server's
        refusals (unreachable, wrong password, no such database) raise ``LedgerUnavailable``
        with the reason. Cancelled (a stop signal while the bot starts), it lets the opening
        finish, at most ``CONNECT_TIMEOUT_SECONDS``, and closes the pool before it gives way:
        asyncpg cancelled in the middle of a connection's SSL negotiation leaves that
        negotiation's failure unread, one "Future exception was never retrieved" error a
        connection."""
        opening = asyncio.ensure_future(cls._open(url, migrations))
        try:
            return await asyncio.shield(opening)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await (await opening).close()
            raise

    @classmethod
    async def _open(cls, url: str, migrations: Traversable) -> PostgresTransactions:
        where = describe_url(url)
        try:
            pool = await asyncpg.create_pool(
                url, timeout=CONNECT_TIMEOUT_SECONDS, reset=_end_open_transaction
            )
        except (TimeoutError, OSError) as error:
            reason = str(error) or type(error).__name__
            raise LedgerUnavailable(f"cannot reach PostgreSQL at {where}: {reason}") from error
        except (asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
            raise LedgerUnavailable(f"PostgreSQL at {where} refused: {error}") from error
        transactions = cls(pool)
        try:
            async with pool.acquire() as connection:
                await _migrate(connection, migrations)
        except BaseException:
            await pool.close()
            raise
        return transactions

    async def read(self, script: ScriptFactory[T]) -> T:
        """Run the script in a read-only transaction that sees one consistent state."""
        return await self._run(script, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    async def write(self, script: ScriptFactory[T]) -> T:
        """Run the script in its own transaction and return once it has committed; a failure
        the server asks to retry runs it again, any other undoes it and is raised here."""
        result = await self._run(script, "BEGIN")
        self.committed += 1
        return result

    async def _run(self, script: ScriptFactory[T], begin: str) -> T:
        for attempt in range(1, MAX_ATTEMPTS + 1):
            try:
                async with self._pool.acquire() as connection:
                    return await self._transaction(connection, script(), begin)
            except _RETRYABLE:
                if attempt == MAX_ATTEMPTS:
                    raise
                self.retried += 1
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def _transaction(
        self, connection: Connection, script: Script[T], begin: str
    ) -> T:
        """Run the script between ``begin`` and ``COMMIT``, or without them when its first
        statement is ``alone``; a broken unique constraint is thrown into the script as
        ``UniqueViolation``."""
        run = ScriptRun(script)
        statement = run.next_statement()
        wrapped = not (isinstance(statement, Query) and statement.alone)
        try:
            if wrapped:  # (in the try: a cancellation can land once BEGIN was sent)
                await self._execute(connection, begin)
            while statement is not None:
                try:
                    result = await self._statement(connection, statement)
                except asyncpg.UniqueViolationError as error:
                    failure = UniqueViolation(f"{error.constraint_name}: {error}")
                    statement = run.next_statement(failure=failure)
                else:
                    statement = run.next_statement(result)
            if wrapped:
                await self._execute(connection, "COMMIT")
        except BaseException:
            if wrapped and not connection.is_closed():
                await connection.execute("ROLLBACK")
            raise
        return run.value

    async def _statement(self, connection: Connection, statement: Statement) -> object:
        match statement:
            case Query(sql, args, lock):
                text = postgres_sql(sql, lock)
                self._traced(text)
                return [tuple(record) for record in await connection.fetch(text, *args)]
            case Command(sql, args):
                status = await self._execute(connection, postgres_sql(sql), args)
                return int(status.rpartition(" ")[2] or 0)
            case CommandMany(_, args_list, unnest):
                assert unnest is not None, "a statement written for SQLite only"
                arrays = columns(args_list, len(args_list[0]))
                status = await self._execute(connection, postgres_sql(unnest), arrays)
                return int(status.rpartition(" ")[2] or 0)

    async def _execute(
        self, connection: Connection, text: str, args: Sequence[object] = ()
    ) -> str:
        self._traced(text)
        status: str = await connection.execute(text, *args)
        return status

    def _traced(self, text: str) -> None:
        if self._trace is not None:
            self._trace(text)

    def refused(self, error: Exception) -> bool:
        """Whether the server refused a statement (``asyncpg.PostgresError``, which rolls it
        back, or ``UniqueViolation``): an error of the connection (``InterfaceError``, an
        ``OSError``) leaves unknown whether a statement sent alone committed."""
        return isinstance(error, asyncpg.PostgresError | UniqueViolation)

    async def trace(self, callback: Callable[[str], None] | None) -> None:
        """Call ``callback`` with each statement's text just before it is sent (``None``
        stops): crash tests stop the process at a chosen statement with it."""
        self._trace = callback

    async def close(self) -> None:
        """Wait for the operations running, then close every connection."""
        await self._pool.close()


async def _end_open_transaction(connection: asyncpg.Connection) -> None:
    """What a connection needs when it goes back to the pool: only a transaction left open
    by an interrupted rollback ends. The ledger sets no session state, so asyncpg's default
    reset (a round trip that closes cursors, listeners and settings) would be work for
    nothing at every operation."""
    if connection.is_in_transaction():
        await connection.execute("ROLLBACK")


async def _migrate(connection: Connection, migrations: Traversable) -> None:
    """Apply the numbered migrations not recorded as applied, in order, each in its own
    transaction, holding an advisory lock so that processes starting together apply each once
    (the same rule as SQLite's ``schema.migrate``)."""
    await connection.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        await connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
            " name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
        )
        applied = {row[0] for row in await connection.fetch("SELECT version FROM schema_version")}
        for version, path in migration_files(migrations):
            if version in applied:
                continue
            async with connection.transaction():
                await connection.execute(path.read_text(encoding="utf-8"))
                await connection.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                    version, path.name, time.time(),
                )  # fmt: skip
    finally:
        await connection.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

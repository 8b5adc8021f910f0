"""Transactions written once for both databases: scripts that yield their statements.

A ledger operation's body is a *script*: a generator that yields each statement it wants run
and receives that statement's result. It never touches a connection itself, so the same
body runs on SQLite (synchronously, on the connection's thread, where group commit replays it)
and on PostgreSQL (awaited on a pooled asyncpg connection, retried on a serialization failure).
Each backend drives scripts with its own small loop; the SQL and the logic exist once.

SQL is written with ``?`` placeholders and in the subset both dialects read alike. Where they
differ, a statement says so with a flag the PostgreSQL driver honours (``lock``: take row
locks with ``FOR UPDATE``, which SQLite's single writer never needs).

Statements run once per row (``CommandMany``) carry a PostgreSQL form that takes arrays, so
the server runs them once.

A statement that breaks a unique constraint makes the driver throw ``UniqueViolation`` into
the script at that ``yield``, whatever the database, so a body can turn it into a refusal.

Where one statement of PostgreSQL's can do what takes SQLite several (a data-modifying
``WITH``), the body asks the database its ``dialect`` and yields that statement, marked
``alone``: it is atomic by itself, so the driver sends it without ``BEGIN`` and ``COMMIT``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

T = TypeVar("T")

Row = tuple[Any, ...]
"""One result row, as a tuple on both backends."""


@dataclass(frozen=True, slots=True)
class Query:
    """A statement whose rows the script wants (``SELECT``, or ``… RETURNING``).

    ``lock`` appends ``FOR UPDATE`` on PostgreSQL: the rows stay locked until the transaction
    ends, so a balance read and then changed cannot be spent twice by two processes.

    ``alone`` (PostgreSQL only), on a write's first statement: the statement is the whole
    write, atomic on its own, so PostgreSQL runs the script without ``BEGIN`` and ``COMMIT``
    (one round trip instead of three) and every statement after it on its own as well: only
    reads may follow (to word a refusal).
    """

    sql: str
    args: Sequence[object] = ()
    lock: bool = False
    alone: bool = False


@dataclass(frozen=True, slots=True)
class Command:
    """A statement whose number of changed rows the script wants."""

    sql: str
    args: Sequence[object] = ()


@dataclass(frozen=True, slots=True)
class CommandMany:
    """One statement run once per argument tuple; the script gets the rows changed in all.

    ``unnest`` is the same statement for PostgreSQL taking one array per column of
    ``args_list`` (``unnest(?::bigint[], ?::text[]) AS m(a, b)``): the driver sends the
    columns once and the server runs it once, where a statement per tuple would cost a round
    trip and an execution each (a settlement has three such statements of one row per player).
    ``None`` in a body only SQLite runs (PostgreSQL's has its own statement).
    """

    sql: str
    args_list: Sequence[Sequence[object]]
    unnest: str | None


Statement = Query | Command | CommandMany

Script = Generator[Statement, object, T]
"""A transaction's body: yields statements, is sent their results, returns its value."""

ScriptFactory = Callable[[], Script[T]]
"""Makes a fresh run of a script: a driver may run a body again (a replayed group commit, a
retried serialization failure), and a generator runs only once."""


Dialect = Literal["sqlite", "postgresql"]
"""Which SQL a database speaks."""


class Database(Protocol):
    """What the ledger needs of a backend: scripts run as transactions."""

    dialect: Dialect
    """The SQL the database speaks, for the bodies written once per dialect."""

    committed: int
    """Write transactions committed since the database was opened."""

    async def read(self, script: ScriptFactory[T]) -> T:
        """Run the script in a transaction that sees one consistent state."""
        ...

    async def write(self, script: ScriptFactory[T]) -> T:
        """Run the script atomically; return once it has committed and is durable."""
        ...

    def refused(self, error: Exception) -> bool:
        """Whether ``error`` is the database refusing a statement, which then changed
        nothing (a broken constraint, say), rather than a failure to reach the database."""
        ...

    async def trace(self, callback: Callable[[str], None] | None) -> None:
        """Call ``callback`` with each statement's text just before it runs."""
        ...

    async def close(self) -> None:
        """Finish the writes under way and close the connections."""
        ...


class UniqueViolation(Exception):
    """Thrown into a script where its statement broke a unique constraint (either database);
    the message names the constraint or its columns, as the database reported it."""


class ScriptRun(Generic[T]):
    """One run of a script, stepped by a driver: ``next_statement`` hands out each statement
    after taking the previous one's result (or the ``UniqueViolation`` it raised), and
    ``None`` once the script has returned ``value``."""

    def __init__(self, script: Script[T]) -> None:
        self._outcome: list[T] = []
        self._steps = self._keep_result(script)

    def _keep_result(self, script: Script[T]) -> Generator[Statement, object, None]:
        self._outcome.append((yield from script))

    def next_statement(
        self, result: object = None, failure: UniqueViolation | None = None
    ) -> Statement | None:
        """The next statement to run, given the last one's result or failure."""
        try:
            return self._steps.send(result) if failure is None else self._steps.throw(failure)
        except StopIteration:
            return None

    @property
    def value(self) -> T:
        """What the script returned (once ``next_statement`` has said ``None``)."""
        return self._outcome[0]


def rows(
    sql: str, *args: object, lock: bool = False, alone: bool = False
) -> Script[list[Row]]:
    """Run a query (``alone``: see ``Query``); its rows."""
    result = yield Query(sql, args, lock, alone)
    assert isinstance(result, list)
    return result


def first_row(sql: str, *args: object, lock: bool = False) -> Script[Row | None]:
    """Run a query; its first row, or ``None`` when it has none."""
    found = yield from rows(sql, *args, lock=lock)
    return found[0] if found else None


def command(sql: str, *args: object) -> Script[int]:
    """Run a statement; the number of rows it changed."""
    changed = yield Command(sql, args)
    assert isinstance(changed, int)
    return changed


def command_many(
    sql: str, args_list: Sequence[Sequence[object]], *, unnest: str | None
) -> Script[int]:
    """Run a statement once per argument tuple (``unnest``: on PostgreSQL, once for all of
    them; see ``CommandMany``); the rows changed in all (0 when there are no tuples)."""
    if not args_list:
        return 0
    changed = yield CommandMany(sql, args_list, unnest)
    assert isinstance(changed, int)
    return changed


def columns(table: Sequence[Sequence[object]], width: int) -> list[list[object]]:
    """The ``width`` columns of ``table``'s rows as lists: the arrays PostgreSQL takes.

    >>> columns([(1, "a"), (2, "b")], 2), columns([], 2)
    ([[1, 2], ['a', 'b']], [[], []])
    """
    return [list(column) for column in zip(*table, strict=True)] or [[] for _ in range(width)]


def placeholders(count: int) -> str:
    """``?, ?, …`` for an ``IN (…)`` list of ``count`` values.

    >>> placeholders(3)
    '?, ?, ?'
    """
    return ", ".join("?" * count)

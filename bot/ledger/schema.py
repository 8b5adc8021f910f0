"""The database schema: numbered migration files, found, ordered and applied once each.

A migration is a file ``NNN_name.sql``; the database records each number applied
(``schema_version``), and opening a ledger applies the others in order, each in its
own transaction, so a failing migration leaves the database at the previous version. A
released migration is never edited: a change to the schema is a new file.

The files ship inside the package, one folder per SQL dialect (``migrations/sqlite/``), and
are read through ``importlib.resources``, never a filesystem path: an installed wheel (or a
zipped package) has no source tree around it. ``pyproject.toml`` lists them as package data.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from importlib.resources import files
from importlib.resources.abc import Traversable

from bot.ledger.errors import LedgerError
from bot.ledger.transactions import in_transaction

MIGRATIONS_DIR: Traversable = files("bot.ledger") / "migrations" / "sqlite"
"""The SQLite migrations shipped with the package."""


def holds_a_ledger(db: sqlite3.Connection) -> bool:
    """Whether the database has the ledger's migration record (its first table). Raises
    ``sqlite3.DatabaseError`` for a file that is not a database."""
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table'"
                      " AND name = 'schema_version'").fetchone() is not None


def migrate(db: sqlite3.Connection, migrations: Traversable) -> None:
    """Apply the numbered ``NNN_name.sql`` files not recorded as applied, in order, each in its
    own transaction: a number left free and shipped later (migrations written on branches
    side by side) is applied too, not skipped for being below the highest."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS schema_version"
        " (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    applied = {version for (version,) in db.execute("SELECT version FROM schema_version")}
    for version, path in migration_files(migrations):
        if version not in applied:
            in_transaction(db, "BEGIN IMMEDIATE", _migration(version, path))


def _migration(version: int, path: Traversable) -> Callable[[sqlite3.Connection], None]:
    def apply(db: sqlite3.Connection) -> None:
        # Another process opening the same new file may have applied it since we looked: the
        # write lock is ours now, so this look is the one that counts.
        if db.execute("SELECT 1 FROM schema_version WHERE version = ?", (version,)).fetchone():
            return
        for statement in _statements(path.read_text(encoding="utf-8")):
            db.execute(statement)
        db.execute(
            "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
            (version, path.name, time.time()),
        )

    return apply


def migration_files(directory: Traversable) -> list[tuple[int, Traversable]]:
    """The ``.sql`` files in ``directory`` with their numbers, in order; ``LedgerError`` if a
    name does not start with a number or two share one."""
    found = []
    for path in directory.iterdir():
        if not (path.name.endswith(".sql") and path.is_file()):
            continue
        number, _, _ = path.name.partition("_")
        if not number.isdigit():
            raise LedgerError(f"Migration {path.name} must start with its number, like 001_.")
        found.append((int(number), path))
    found.sort(key=lambda numbered: numbered[0])
    versions = [version for version, _ in found]
    if len(set(versions)) != len(versions):
        raise LedgerError("Two migrations share a number.")
    return found


def _statements(script: str) -> list[str]:
    """Split a migration into complete statements (triggers contain inner semicolons)."""
    statements, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip() and not pending.strip().startswith("--"):
        raise LedgerError("A migration ends with an incomplete statement.")
    return statements

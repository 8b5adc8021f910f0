"""Accounts and their entries: the only statements that change where chips are.

Chips live in accounts: each person's *balance* per guild, each guild's *house* (it funds bot
opponents and may go negative) and *escrow* (a player's stack at a table). Every change to an
account's chips is written together with an append-only entry of the same amount, so
``audit()`` can prove that each account equals the sum of its entries. Only ``credit`` creates
chips (a grant, with one of ``GRANT_REASONS``); ``transfer`` moves them with two entries that
sum to zero.

These functions run on the connection's thread, inside the transaction of their caller.
"""

from __future__ import annotations

import sqlite3

from bot.ledger.errors import UnknownPlayer

GRANT_REASONS = ("grant", "daily", "admin")
"""The entry reasons that create chips; all chips together must equal what they granted."""


def account(
    db: sqlite3.Connection,
    kind: str,
    guild_id: int,
    *,
    table_id: int = 0,
    user_id: int = 0,
    bot_name: str = "",
) -> tuple[int, int]:
    """The (id, chips) of an account, opening it empty if it does not exist yet."""
    rows: list[tuple[int, int]] = db.execute(
        "INSERT INTO accounts (kind, table_id, guild_id, user_id, bot_name)"
        " VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (kind, table_id, guild_id, user_id, bot_name) DO UPDATE SET chips = chips"
        " RETURNING id, chips",
        (kind, table_id, guild_id, user_id, bot_name),
    ).fetchall()
    (row,) = rows
    return row


def person_account(db: sqlite3.Connection, guild_id: int, user_id: int) -> tuple[int, int]:
    """The (id, chips) of a known person's balance; ``UnknownPlayer`` otherwise."""
    row: tuple[int, int] | None = db.execute(
        "SELECT id, chips FROM accounts WHERE kind = 'balance' AND table_id = 0"
        " AND guild_id = ? AND user_id = ? AND bot_name = ''",
        (guild_id, user_id),
    ).fetchone()
    if row is None:
        raise UnknownPlayer(guild_id, user_id)
    return row


def owner_account(db: sqlite3.Connection, guild_id: int, user_id: int, bot_name: str) -> int:
    """Where a stack goes when it leaves the table: the person's balance or the house."""
    if bot_name:
        return account(db, "house", guild_id)[0]
    return account(db, "balance", guild_id, user_id=user_id)[0]


def credit(
    db: sqlite3.Connection,
    account_id: int,
    amount: int,
    reason: str,
    now: float,
    note: str | None = None,
) -> int:
    """Create chips in an account (a grant) and return its new chips."""
    db.execute(
        "INSERT INTO entries (account_id, delta, reason, note, created_at) VALUES (?, ?, ?, ?, ?)",
        (account_id, amount, reason, note, now),
    )
    rows: list[tuple[int]] = db.execute(
        "UPDATE accounts SET chips = chips + ? WHERE id = ? RETURNING chips", (amount, account_id)
    ).fetchall()
    ((chips,),) = rows
    return chips


def transfer(
    db: sqlite3.Connection, source_id: int, target_id: int, amount: int, reason: str, now: float
) -> None:
    """Move chips between two accounts: two entries that sum to zero."""
    moves = [(-amount, source_id), (amount, target_id)]
    db.executemany("UPDATE accounts SET chips = chips + ? WHERE id = ?", moves)
    db.executemany(
        "INSERT INTO entries (account_id, delta, reason, created_at) VALUES (?, ?, ?, ?)",
        [(account_id, delta, reason, now) for delta, account_id in moves],
    )

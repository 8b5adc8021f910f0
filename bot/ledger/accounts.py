"""Accounts and their entries: the only statements that change where chips are.

Chips live in accounts: each person's *balance* per guild, each guild's *house* (it funds bot
opponents and may go negative) and *escrow* (a player's stack at a table). Every change to an
account's chips is written together with an append-only entry of the same amount, so
``audit()`` can prove that each account equals the sum of its entries. Only ``credit`` creates
chips (a grant, with one of ``GRANT_REASONS``); ``transfer`` moves them with two entries that
sum to zero.

These are scripts (``statements``): they run inside the transaction of their caller. On
PostgreSQL every account they return or change is locked until that transaction ends, and a
transaction locks a stack's escrow before the balance or house it pays from or into, the same
order everywhere, so two processes never deadlock over them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.ledger.errors import UnknownPlayer
from bot.ledger.statements import Script, command, command_many, first_row, rows

GRANT_REASONS = ("grant", "daily", "admin")
"""The entry reasons that create chips; all chips together must equal what they granted."""


def account(
    kind: str,
    guild_id: int,
    *,
    table_id: int = 0,
    user_id: int = 0,
    bot_name: str = "",
) -> Script[tuple[int, int]]:
    """The (id, chips) of an account, opening it empty if it does not exist yet (the upsert
    locks its row on PostgreSQL)."""
    found = yield from rows(
        "INSERT INTO accounts (kind, table_id, guild_id, user_id, bot_name)"
        " VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (kind, table_id, guild_id, user_id, bot_name)"
        " DO UPDATE SET chips = accounts.chips RETURNING id, chips",
        kind, table_id, guild_id, user_id, bot_name,
    )  # fmt: skip
    ((account_id, chips),) = found
    return int(account_id), int(chips)


def person_account(guild_id: int, user_id: int, *, lock: bool = True) -> Script[tuple[int, int]]:
    """The (id, chips) of a known person's balance, locked unless ``lock`` is false (a read
    alone); ``UnknownPlayer`` otherwise."""
    row = yield from first_row(
        "SELECT id, chips FROM accounts WHERE kind = 'balance' AND table_id = 0"
        " AND guild_id = ? AND user_id = ? AND bot_name = ''",
        guild_id, user_id, lock=lock,
    )  # fmt: skip
    if row is None:
        raise UnknownPlayer(guild_id, user_id)
    return int(row[0]), int(row[1])


def owner_account(guild_id: int, user_id: int, bot_name: str) -> Script[int]:
    """Where a stack goes when it leaves the table: the person's balance or the house."""
    if bot_name:
        house_id, _ = yield from account("house", guild_id)
        return house_id
    balance_id, _ = yield from account("balance", guild_id, user_id=user_id)
    return balance_id


def credit(
    account_id: int, amount: int, reason: str, now: float, note: str | None = None
) -> Script[int]:
    """Create chips in an account (a grant) and return its new chips."""
    yield from command(
        "INSERT INTO entries (account_id, delta, reason, note, created_at) VALUES (?, ?, ?, ?, ?)",
        account_id, amount, reason, note, now,
    )  # fmt: skip
    ((chips,),) = yield from rows(
        "UPDATE accounts SET chips = chips + ? WHERE id = ? RETURNING chips", amount, account_id
    )
    return int(chips)


def transfer(source_id: int, target_id: int, amount: int, reason: str, now: float) -> Script[None]:
    """Move chips between two accounts: two entries that sum to zero."""
    yield from move_chips([(-amount, source_id), (amount, target_id)], reason, now)


def move_chips(
    moves: Sequence[tuple[int, int]], reason: str, now: float, hand_id: int | None = None
) -> Script[None]:
    """Add each ``(delta, account_id)`` to its account, each with its entry (of the hand
    ``hand_id``, if any). The deltas must sum to zero; callers list the accounts in the order
    their rows are locked (by id)."""
    yield from command_many(
        "UPDATE accounts SET chips = chips + ? WHERE id = ?",
        moves,
        unnest="UPDATE accounts SET chips = chips + m.delta"
        " FROM unnest(?::bigint[], ?::bigint[]) AS m(delta, id) WHERE accounts.id = m.id",
    )
    yield from command_many(
        "INSERT INTO entries (account_id, delta, reason, hand_id, created_at)"
        " VALUES (?, ?, ?, ?, ?)",
        [(account_id, delta, reason, hand_id, now) for delta, account_id in moves],
        unnest="INSERT INTO entries (account_id, delta, reason, hand_id, created_at)"
        " SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::text[], ?::bigint[], ?::float8[])",
    )

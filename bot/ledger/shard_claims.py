"""Claims on shards: which process owns the tables of which guilds, held with a heartbeat.

A claim is one row per shard, ``(shard_count, shard_id) -> owner, expires_at``. A process
takes all of its shards in one transaction or none of them, renews them every third of its
lease, and deletes them on a clean shutdown; a killed process's rows lapse at ``expires_at``
and may then be taken by whoever starts next. A claim conflicts with a live claim of another
owner on the same shard, or on any shard of another shard count (the guilds would overlap).

These are scripts (``statements``) run inside the ``Ledger``'s transactions; ``owned_guilds``
is the filter that keeps a process's recovery to the guilds on its shards. On PostgreSQL two
processes taking one shard at the same moment both insert its row: one breaks the primary key,
its transaction is run again and then finds the other's live claim.
"""

from __future__ import annotations

from bot.ledger.errors import ShardClaimLost, ShardsTaken
from bot.ledger.statements import Script, command, command_many, placeholders, rows
from bot.shards import ShardSet


def take(owner: str, shards: ShardSet, now: float, lease: float) -> Script[None]:
    """Claim every shard of ``shards`` for ``owner`` until ``now + lease``; ``ShardsTaken``
    names the first live conflicting claim of another owner, and nothing is written."""
    live = yield from rows(
        "SELECT shard_count, shard_id, owner, expires_at FROM shard_claims"
        " WHERE expires_at > ? AND owner <> ? ORDER BY shard_count, shard_id",
        now, owner,
    )  # fmt: skip
    for count, shard_id, holder, expires_at in live:
        if count != shards.count or shard_id in shards.ids:
            raise ShardsTaken(shard_id, count, holder, expires_at, now, wanted_count=shards.count)
    yield from command("DELETE FROM shard_claims WHERE expires_at <= ? OR owner = ?", now, owner)
    yield from command_many(
        "INSERT INTO shard_claims (shard_count, shard_id, owner, expires_at) VALUES (?, ?, ?, ?)",
        [(shards.count, shard_id, owner, now + lease) for shard_id in shards.ids],
        unnest="INSERT INTO shard_claims (shard_count, shard_id, owner, expires_at)"
        " SELECT * FROM unnest(?::int[], ?::int[], ?::text[], ?::float8[])",
    )


def renew(owner: str, shards: ShardSet, now: float, lease: float) -> Script[None]:
    """Extend ``owner``'s claim on ``shards`` to ``now + lease``. A claim that lapsed but that
    nobody took is still the owner's; ``ShardClaimLost`` when any row has gone to another."""
    renewed = yield from command(
        "UPDATE shard_claims SET expires_at = ? WHERE owner = ? AND shard_count = ?"
        f" AND shard_id IN ({placeholders(len(shards.ids))})",
        now + lease, owner, shards.count, *shards.ids,
    )  # fmt: skip
    if renewed != len(shards.ids):
        raise ShardClaimLost(str(shards))


def release(owner: str) -> Script[None]:
    """Give up every claim of ``owner`` (a clean shutdown): the next process need not wait."""
    yield from command("DELETE FROM shard_claims WHERE owner = ?", owner)


def owned_guilds(shards: ShardSet | None) -> tuple[str, tuple[int, ...]]:
    """A condition on a ``guild_id`` column that holds for the guilds on ``shards`` (and
    always when ``shards`` is ``None`` or every shard), with its parameters; it reads the
    same in SQLite and PostgreSQL.

    >>> owned_guilds(ShardSet(4, (1, 3)))
    ('((guild_id >> 22) % ?) IN (?, ?)', (4, 1, 3))
    >>> owned_guilds(ShardSet(2, (0, 1)))
    ('1 = 1', ())
    """
    if shards is None or shards.is_everything:
        return "1 = 1", ()
    return (f"((guild_id >> 22) % ?) IN ({placeholders(len(shards.ids))})",
            (shards.count, *shards.ids))

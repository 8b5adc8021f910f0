"""The saved state of cash tables, so that they open again after the process stops.

The ledger keeps each table's state as the runtime wrote it (opaque JSON text, see
``bot.tables.saved_state``) beside the chips it already holds in the seats' escrow: a
restarted process reads the state back and seats everyone with their escrow. ``recover()``
leaves the escrow of a table with a saved state where it is instead of returning it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.ledger.records import SavedTable
from bot.ledger.statements import Script, command, rows

SAVED_TABLES = "SELECT channel_id FROM table_states"
"""The channels whose table has a saved state (a sub-query for ``recover()``)."""


def save(channel_id: int, guild_id: int, state: str, now: float) -> Script[None]:
    """Keep ``state`` as the table's saved state (replacing the last one)."""
    yield from command(
        "INSERT INTO table_states (channel_id, guild_id, state, saved_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id,"
        " state = excluded.state, saved_at = excluded.saved_at",
        channel_id, guild_id, state, now,
    )  # fmt: skip


def forget(channel_id: int) -> Script[None]:
    """The table closed for good: nothing of it is opened again."""
    yield from command("DELETE FROM table_states WHERE channel_id = ?", channel_id)


def forget_owned(owned: str, owned_params: Sequence[object]) -> Script[None]:
    """Forget the saved tables of the guilds ``owned`` selects (their escrow is returned)."""
    yield from command(f"DELETE FROM table_states WHERE {owned}", *owned_params)


def saved(owned: str, owned_params: Sequence[object]) -> Script[list[SavedTable]]:
    """The saved tables of the guilds ``owned`` selects, with their table message if one is
    remembered, in channel order."""
    found = yield from rows(
        "SELECT s.channel_id, s.guild_id, s.state, m.message_id FROM table_states s"
        " LEFT JOIN table_messages m ON m.channel_id = s.channel_id"
        f" WHERE {owned.replace('guild_id', 's.guild_id')} ORDER BY s.channel_id",
        *owned_params,
    )  # fmt: skip
    return [SavedTable(int(channel_id), int(guild_id), str(state),
                       None if message_id is None else int(message_id))
            for channel_id, guild_id, state, message_id in found]

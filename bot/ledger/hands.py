"""A hand's chips while it is played: the start-of-hand snapshot and the checks on settling.

A hand's chips stay in escrow while it is played: ``begin_hand`` records each player's
start-of-hand stack (the snapshot), ``settle_hand`` moves the escrow to the final stacks in one
transaction. A hand that never settles (a crash, an error in the table) therefore still holds
exactly its snapshot, and refunding it only has to close it. No chips may move into or out of a
stack while its hand runs.

The functions that read the database are scripts (``statements``) run inside the transaction
of their caller. Opening a hand and settling it are written twice: a few statements on SQLite,
and one statement on PostgreSQL (a data-modifying ``WITH``), where every statement is a round
trip between processes: those two writes are most of a hand's ledger work, and as one
statement each they cost one round trip instead of four and eight (``Query.alone``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.errors import HandInProgress
from bot.ledger.accounts import move_chips
from bot.ledger.errors import UnbalancedHand
from bot.ledger.records import HandParticipant
from bot.ledger.statements import (
    Dialect,
    Row,
    Script,
    UniqueViolation,
    columns,
    command,
    command_many,
    first_row,
    placeholders,
    rows,
)
from bot.ledger.validation import Holder, player_key

Holdings = dict[Holder, tuple[int, int]]
"""Chips by holder (user_id, bot_name): (account id, chips)."""


def refuse_if_in_hand(table_id: int, escrow_id: int) -> Script[None]:
    """Raise ``HandInProgress`` if the stack ``escrow_id`` is in a hand running at the table."""
    row = yield from first_row(
        "SELECT 1 FROM hands h JOIN hand_stacks s ON s.hand_id = h.id AND s.account_id = ?"
        " WHERE h.table_id = ? AND h.status = 'running'",
        escrow_id, table_id,
    )  # fmt: skip
    if row is not None:
        raise HandInProgress("move these chips")


def stack_mismatch(
    guild_id: int, table_id: int, wanted: Mapping[Holder, int]
) -> Script[UnbalancedHand]:
    """Name the first stack of a hand being begun that its escrow does not hold."""
    found = yield from rows(
        "SELECT user_id, bot_name, chips FROM accounts"
        " WHERE kind = 'escrow' AND table_id = ? AND guild_id = ?",
        table_id, guild_id,
    )  # fmt: skip
    held = {(user_id, bot_name): chips for user_id, bot_name, chips in found}
    holder, chips = next((h, c) for h, c in wanted.items() if held.get(h) != c)
    return UnbalancedHand(
        f"{player_key(*holder)!r} holds {held.get(holder, 0):,} chips at this table,"
        f" not {chips:,}."
    )


def snapshot(hand_id: int) -> Script[Holdings]:
    """Each holder's start-of-hand chips in a running hand, in the order of their accounts
    (empty when the hand is not running)."""
    found = yield from rows(
        "SELECT a.user_id, a.bot_name, a.id, s.chips FROM hand_stacks s"
        " JOIN accounts a ON a.id = s.account_id JOIN hands h ON h.id = s.hand_id"
        " WHERE s.hand_id = ? AND h.status = 'running' ORDER BY a.id",
        hand_id,
    )
    return _holdings(found)


def _holdings(found: Sequence[Row]) -> Holdings:
    return {
        (user_id, bot_name): (account_id, chips) for user_id, bot_name, account_id, chips in found
    }


def record_start(
    dialect: Dialect, guild_id: int, table_id: int, hand_number: int, now: float,
    wanted: Mapping[Holder, int],
) -> Script[tuple[int, Holdings]]:
    """Open a hand at the table with a snapshot of each stack in ``wanted``; its id and
    snapshot. ``HandInProgress`` if the table runs a hand already, ``UnbalancedHand`` (and
    nothing written) if an escrow does not hold exactly its stack."""
    try:  # the unique index hands_running allows one running hand per table
        if dialect == "postgresql":
            stacks = [(user_id, bot_name, chips) for (user_id, bot_name), chips in wanted.items()]
            found = yield from rows(
                _START_IN_ONE_STATEMENT, *columns(stacks, 3),
                table_id, guild_id, guild_id, table_id, hand_number, now, len(wanted),
                alone=True,
            )  # fmt: skip
            if found:
                return found[0][0], _holdings([row[1:] for row in found])
        else:
            hand_id = yield from _start_in_statements(guild_id, table_id, hand_number, now, wanted)
            if hand_id is not None:
                return hand_id, (yield from snapshot(hand_id))
    except UniqueViolation:
        raise HandInProgress("start another") from None
    raise (yield from stack_mismatch(guild_id, table_id, wanted))


def _start_in_statements(
    guild_id: int, table_id: int, hand_number: int, now: float, wanted: Mapping[Holder, int]
) -> Script[int | None]:
    """Insert the hand, then snapshot each stack only if its escrow holds exactly that many
    chips; the hand's id, or ``None`` if a stack was not snapshotted (the caller undoes it)."""
    ((hand_id,),) = yield from rows(
        "INSERT INTO hands (guild_id, table_id, hand_number, started_at)"
        " VALUES (?, ?, ?, ?) RETURNING id",
        guild_id, table_id, hand_number, now,
    )  # fmt: skip
    recorded = yield from command_many(
        "INSERT INTO hand_stacks (hand_id, account_id, chips)"
        " SELECT ?, id, chips FROM accounts WHERE kind = 'escrow'"
        " AND table_id = ? AND guild_id = ? AND user_id = ? AND bot_name = ? AND chips = ?",
        [
            (hand_id, table_id, guild_id, user_id, bot_name, chips)
            for (user_id, bot_name), chips in wanted.items()
        ],
        unnest=None,
    )
    return int(hand_id) if recorded == len(wanted) else None


_START_IN_ONE_STATEMENT = (
    # The escrows holding exactly their stack; the hand only if every stack is among them.
    "WITH wanted AS (SELECT a.id, a.user_id, a.bot_name, a.chips"
    " FROM unnest(?::bigint[], ?::text[], ?::bigint[]) AS w(user_id, bot_name, chips)"
    " JOIN accounts a ON a.kind = 'escrow' AND a.table_id = ? AND a.guild_id = ?"
    " AND a.user_id = w.user_id AND a.bot_name = w.bot_name AND a.chips = w.chips),"
    " hand AS (INSERT INTO hands (guild_id, table_id, hand_number, started_at)"
    " SELECT ?::bigint, ?::bigint, ?::bigint, ?::float8"
    " WHERE (SELECT COUNT(*) FROM wanted) = ? RETURNING id),"
    " stacks AS (INSERT INTO hand_stacks (hand_id, account_id, chips)"
    " SELECT hand.id, wanted.id, wanted.chips FROM hand, wanted)"
    " SELECT hand.id, wanted.user_id, wanted.bot_name, wanted.id, wanted.chips"
    " FROM hand, wanted ORDER BY wanted.id"
)


def record_settlement(
    dialect: Dialect, hand_id: int, now: float, history_text: str, replay: str | None,
    moves: Sequence[tuple[int, int]], results: Mapping[Holder, HandParticipant],
) -> Script[bool]:
    """Close a running hand as settled with its history and replay, add each
    ``(delta, account_id)`` of ``moves`` to its account, record everyone's result and update
    people's stats; False, and nothing written, if the hand is not running."""
    played = [
        (user_id, bot_name, p.name, p.net, int(p.won), int(p.showdown_won), int(p.vpip),
         int(p.pfr), p.pot_won)
        for (user_id, bot_name), p in results.items()
    ]  # fmt: skip
    closing = (now, history_text, replay, hand_id)
    if dialect == "postgresql":
        settled = yield from rows(
            _SETTLE_IN_ONE_STATEMENT, *closing, *columns(moves, 2), now, *columns(played, 9),
            alone=True,
        )  # fmt: skip
        return bool(settled)
    closed = yield from first_row(_CLOSE_HAND + " RETURNING guild_id", *closing)
    if closed is None:
        return False
    yield from move_chips(moves, "hand result", now, hand_id)
    yield from command_many(
        "INSERT INTO hand_players (hand_id, user_id, bot_name, name, net, won,"
        " showdown_won, vpip, pfr, pot_won) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(hand_id, *row) for row in played],
        unnest=None,
    )
    yield from command(  # every person's stats from the rows just recorded, at once
        f"UPDATE players SET {_STATS} FROM hand_players hp WHERE hp.hand_id = ?"
        " AND hp.bot_name = '' AND players.guild_id = ? AND players.user_id = hp.user_id",
        hand_id, closed[0],
    )  # fmt: skip
    return True


_CLOSE_HAND = (
    "UPDATE hands SET status = 'settled', finished_at = ?, history = ?, replay = ?"
    " WHERE id = ? AND status = 'running'"
)

_STATS = (
    "hands_played = hands_played + 1, hands_won = hands_won + hp.won,"
    " showdowns_won = showdowns_won + hp.showdown_won, net_chips = net_chips + hp.net,"
    " biggest_pot = CASE WHEN hp.pot_won > biggest_pot THEN hp.pot_won ELSE biggest_pot END,"
    " vpip_hands = vpip_hands + hp.vpip, pfr_hands = pfr_hands + hp.pfr"
)
"""A person's stats after one more hand, from their row ``hp`` of ``hand_players``."""

_SETTLE_IN_ONE_STATEMENT = (
    # Every part joins the closed hand: if it was not running, the statement changes nothing.
    f"WITH closed AS ({_CLOSE_HAND} RETURNING id, guild_id),"
    " moves AS (SELECT closed.id AS hand_id, m.delta, m.account_id"
    " FROM closed, unnest(?::bigint[], ?::bigint[]) AS m(delta, account_id)),"
    " moved AS (UPDATE accounts SET chips = chips + moves.delta FROM moves"
    " WHERE accounts.id = moves.account_id),"
    " entered AS (INSERT INTO entries (account_id, delta, reason, hand_id, created_at)"
    " SELECT account_id, delta, 'hand result', hand_id, ?::float8 FROM moves),"
    " results AS (SELECT closed.id AS hand_id, closed.guild_id, r.* FROM closed,"
    " unnest(?::bigint[], ?::text[], ?::text[], ?::bigint[], ?::int[], ?::int[], ?::int[],"
    " ?::int[], ?::bigint[])"
    " AS r(user_id, bot_name, name, net, won, showdown_won, vpip, pfr, pot_won)),"
    " recorded AS (INSERT INTO hand_players (hand_id, user_id, bot_name, name, net, won,"
    " showdown_won, vpip, pfr, pot_won) SELECT hand_id, user_id, bot_name, name, net, won,"
    " showdown_won, vpip, pfr, pot_won FROM results),"
    f" counted AS (UPDATE players SET {_STATS} FROM results hp WHERE hp.bot_name = ''"
    " AND players.guild_id = hp.guild_id AND players.user_id = hp.user_id)"
    " SELECT id FROM closed"
)


def close_refunded(hand_ids: Sequence[int], now: float) -> Script[None]:
    """Close running hands as refunded: their escrow already holds their snapshots."""
    if hand_ids:
        yield from command(
            "UPDATE hands SET status = 'refunded', finished_at = ?"
            f" WHERE id IN ({placeholders(len(hand_ids))})",
            now, *hand_ids,
        )  # fmt: skip


def check_settlement(
    start: Holdings,
    final: Mapping[Holder, int],
    participants: Mapping[Holder, HandParticipant],
) -> None:
    """Refuse a settlement that would create or lose chips or misreport a player's result."""
    if set(final) != set(start) or set(participants) != set(start):
        raise UnbalancedHand("The final stacks and participants must be the hand's players.")
    if sum(final.values()) != sum(chips for _, chips in start.values()):
        raise UnbalancedHand("The final stacks do not add up to the chips in the hand.")
    for holder, participant in participants.items():
        if participant.net != final[holder] - start[holder][1]:
            raise UnbalancedHand(f"{participant.name}'s net result does not match their stacks.")

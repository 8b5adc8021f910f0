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
statement each they cost one round trip instead of four and eight (``Query.alone``). Those
statements take several hands at once (``start_hands``, ``settle_hands``): the ledger sends the
hands of every table that begins or settles while earlier statements are under way together
(``batches``), and one hand refused changes nothing of the others.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.errors import HandInProgress
from bot.i18n import tr
from bot.ledger.accounts import move_chips
from bot.ledger.errors import TournamentNotOpen, UnbalancedHand
from bot.ledger.habits import COLUMNS, HandHabits, add_totals
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
        raise HandInProgress(tr("move these chips"))


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
            (outcome,) = yield from start_hands(
                [HandStart(guild_id, table_id, hand_number, now, wanted)]
            )
            if isinstance(outcome, Exception):
                raise outcome
            return outcome
        else:
            hand_id = yield from _start_in_statements(guild_id, table_id, hand_number, now, wanted)
            if hand_id is not None:
                return hand_id, (yield from snapshot(hand_id))
    except UniqueViolation:
        raise HandInProgress(tr("start another")) from None
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


@dataclass(frozen=True, slots=True)
class HandStart:
    """A hand to open at a table: ``record_start``'s arguments, one of a batch."""

    guild_id: int
    table_id: int
    hand_number: int
    now: float
    wanted: Mapping[Holder, int]


def start_hands(starts: Sequence[HandStart]) -> Script[list[tuple[int, Holdings] | Exception]]:
    """PostgreSQL: open hands at several tables in one statement (at most one per table);
    each one's id and snapshot, or its refusal (``HandInProgress``, or ``UnbalancedHand`` for
    a hand none of whose stacks is recorded), as ``record_start``."""
    hands = [(k, s.guild_id, s.table_id, s.hand_number, s.now, len(s.wanted))
             for k, s in enumerate(starts)]  # fmt: skip
    stacks = [
        (k, user_id, bot_name, chips)
        for k, start in enumerate(starts)
        for (user_id, bot_name), chips in start.wanted.items()
    ]
    found = yield from rows(
        _START_IN_ONE_STATEMENT, *columns(hands, 6), *columns(stacks, 4), alone=True
    )
    by_hand: dict[int, list[Row]] = {}
    balanced: set[int] = set()
    for k, hand_id, complete, *stack in found:
        if hand_id is not None:
            by_hand.setdefault(k, []).append((hand_id, *stack))
        elif complete:
            balanced.add(k)
    outcomes: list[tuple[int, Holdings] | Exception] = []
    for k, start in enumerate(starts):
        if k in by_hand:
            opened = by_hand[k]
            outcomes.append((int(opened[0][0]), _holdings([row[1:] for row in opened])))
        elif k in balanced:  # every stack was right: the table runs a hand already
            outcomes.append(HandInProgress("start another"))
        else:
            outcomes.append((yield from stack_mismatch(start.guild_id, start.table_id,
                                                       start.wanted)))  # fmt: skip
    return outcomes


_START_IN_ONE_STATEMENT = (
    # The hands wanted, numbered k, and the escrows holding exactly their stacks (held).
    "WITH wanted AS (SELECT * FROM unnest(?::int[], ?::bigint[], ?::bigint[], ?::bigint[],"
    " ?::float8[], ?::int[]) AS h(k, guild_id, table_id, hand_number, started_at, players)),"
    " held AS (SELECT w.k, a.id, a.user_id, a.bot_name, a.chips"
    " FROM unnest(?::int[], ?::bigint[], ?::text[], ?::bigint[]) AS w(k, user_id, bot_name, chips)"
    " JOIN wanted h ON h.k = w.k"
    " JOIN accounts a ON a.kind = 'escrow' AND a.table_id = h.table_id"
    " AND a.guild_id = h.guild_id AND a.user_id = w.user_id AND a.bot_name = w.bot_name"
    " AND a.chips = w.chips),"
    # A hand whose every stack is right; none at a table that runs one already (the unique
    # index hands_running), so one refused hand does not abort the others.
    " complete AS (SELECT h.* FROM wanted h"
    " WHERE (SELECT COUNT(*) FROM held WHERE held.k = h.k) = h.players),"
    " hand AS (INSERT INTO hands (guild_id, table_id, hand_number, started_at)"
    " SELECT guild_id, table_id, hand_number, started_at FROM complete ORDER BY k"
    " ON CONFLICT (table_id) WHERE status = 'running' DO NOTHING RETURNING id, table_id),"
    " opened AS (SELECT complete.k, hand.id FROM hand JOIN complete USING (table_id)),"
    " stacks AS (INSERT INTO hand_stacks (hand_id, account_id, chips)"
    " SELECT opened.id, held.id, held.chips FROM opened JOIN held USING (k))"
    # Per hand: its stacks if it opened, else one row saying whether its stacks were right.
    " SELECT opened.k, opened.id, TRUE, held.user_id, held.bot_name, held.id,"
    " held.chips FROM opened JOIN held USING (k)"
    " UNION ALL SELECT complete.k, NULL, TRUE, NULL, NULL, NULL, NULL FROM complete"
    " WHERE complete.k NOT IN (SELECT k FROM opened)"
    " ORDER BY 1, 6"
)


def record_settlement(
    dialect: Dialect, hand_id: int, now: float, history_text: str, replay: str | None,
    moves: Sequence[tuple[int, int]], results: Mapping[Holder, HandParticipant],
    habits: Mapping[Holder, HandHabits],
) -> Script[bool]:
    """Close a running hand as settled with its history and replay, add each
    ``(delta, account_id)`` of ``moves`` to its account, record everyone's result and
    ``habits`` (``habits.count_hand``) and update people's stats and habit totals; False, and
    nothing written, if the hand is not running."""
    if dialect == "postgresql":
        settled = yield from settle_hands(
            [HandSettlement(hand_id, now, history_text, replay, moves, results, habits)]
        )
        return bool(settled)
    closing = (now, history_text, replay, hand_id)
    closed = yield from first_row(_CLOSE_HAND + " RETURNING guild_id", *closing)
    if closed is None:
        return False
    yield from move_chips(moves, "hand result", now, hand_id)
    yield from _record_results(hand_id, closed[0], results, habits, _stats("1"))
    return True


def record_tournament_start(
    tournament_id: int, table_id: int, hand_number: int, now: float
) -> Script[int]:
    """Open a hand of a running tournament at its table; the hand's id, drawn from the same
    sequence as cash hands', so every hand has one number. Its chips are play chips: no
    account and no snapshot. A hand of the tournament still running at the table was left
    by a refund the ledger could not record (the table deals one hand at a time): it is
    closed as refunded first, as nothing of it needs undoing. ``TournamentNotOpen`` unless
    the tournament runs, ``HandInProgress`` if the table runs a cash hand."""
    yield from command(
        "UPDATE hands SET status = 'refunded', finished_at = ?"
        " WHERE table_id = ? AND tournament_id = ? AND status = 'running'",
        now, table_id, tournament_id,
    )  # fmt: skip
    try:  # the unique index hands_running allows one running hand per table
        opened = yield from first_row(
            "INSERT INTO hands (guild_id, table_id, hand_number, started_at, tournament_id)"
            " SELECT guild_id, ?, ?, ?, id FROM tournaments WHERE id = ? AND status = 'running'"
            " RETURNING id",
            table_id, hand_number, now, tournament_id,
        )  # fmt: skip
    except UniqueViolation:
        raise HandInProgress(tr("start another")) from None
    if opened is None:
        raise TournamentNotOpen(f"Tournament {tournament_id} is not running.")
    return int(opened[0])


def record_tournament_settlement(
    hand_id: int, now: float, history_text: str, replay: str | None,
    results: Mapping[Holder, HandParticipant], habits: Mapping[Holder, HandHabits],
) -> Script[bool]:
    """Close a running tournament hand as settled with its history, replay and everyone's
    result and habits, adding to people's hand counts and habit totals only; False, and
    nothing written, if it is not a running tournament hand."""
    closed = yield from first_row(
        _CLOSE_HAND + " AND tournament_id IS NOT NULL RETURNING guild_id",
        now, history_text, replay, hand_id,
    )  # fmt: skip
    if closed is None:
        return False
    yield from _record_results(hand_id, closed[0], results, habits, _counts("1"))
    return True


def _record_results(
    hand_id: int, guild_id: int, results: Mapping[Holder, HandParticipant],
    habits: Mapping[Holder, HandHabits], stats: str,
) -> Script[None]:
    """Record everyone's result and habits in a closed hand and update people's ``stats`` (an
    SQL assignment list reading ``hp``) from them."""
    played = [_result_row(key, participant, habits[key]) for key, participant in results.items()]
    yield from command_many(
        f"INSERT INTO {_HAND_PLAYERS} VALUES ({placeholders(len(played[0]) + 1)})",
        [(hand_id, *row) for row in played],
        # rowid numbers the rows in the order given, as SQLite does.
        unnest=f"INSERT INTO {_HAND_PLAYERS} SELECT h, u, b, n, net, w, s, v, p, pot,"
        f" {', '.join(COLUMNS)} FROM unnest(?::bigint[], ?::bigint[], ?::text[], ?::text[],"
        f" ?::bigint[], ?::int[], ?::int[], ?::int[], ?::int[], ?::bigint[]{_HABIT_ARRAYS})"
        f" WITH ORDINALITY AS r(h, u, b, n, net, w, s, v, p, pot, {', '.join(COLUMNS)}, k)"
        " ORDER BY k",
    )
    yield from command(  # every person's stats from the rows just recorded, at once
        f"UPDATE players SET {stats} FROM hand_players hp WHERE hp.hand_id = ?"
        " AND hp.bot_name = '' AND players.guild_id = ? AND players.user_id = hp.user_id",
        hand_id, guild_id,
    )  # fmt: skip


_CLOSE_HAND = (
    "UPDATE hands SET status = 'settled', finished_at = ?, history = ?, replay = ?"
    " WHERE id = ? AND status = 'running'"
)
_HAND_PLAYERS = (
    "hand_players (hand_id, user_id, bot_name, name, net, won, showdown_won, vpip, pfr, pot_won,"
    f" {', '.join(COLUMNS)})"
)
_HABIT_ARRAYS = ", ?::int[]" * len(COLUMNS)
"""PostgreSQL: the arrays of a hand's habit counts, one per column of ``COLUMNS``."""

def _stats(hands: str) -> str:
    """A person's stats after ``hands`` more hands (an SQL expression), from ``hp``: their
    counts (``_counts``), their ``net`` summed and their biggest ``pot_won``."""
    return (
        f"{_counts(hands)}, net_chips = net_chips + hp.net,"
        " biggest_pot = CASE WHEN hp.pot_won > biggest_pot THEN hp.pot_won ELSE biggest_pot END"
    )


def _counts(hands: str) -> str:
    """A person's hand counts after ``hands`` more hands, from ``hp``: ``won``,
    ``showdown_won``, ``vpip``, ``pfr`` and the habits (every hand is counted as it settles)
    summed. Play chips (tournament hands) count here and in no chip figure."""
    return (
        f"hands_played = hands_played + {hands}, hands_won = hands_won + hp.won,"
        " showdowns_won = showdowns_won + hp.showdown_won,"
        f" vpip_hands = vpip_hands + hp.vpip, pfr_hands = pfr_hands + hp.pfr,"
        f" {add_totals(hands, 'hp')}"
    )

def _result_row(holder: Holder, p: HandParticipant, habits: HandHabits) -> tuple[object, ...]:
    """A participant's row of ``hand_players``, but for the hand's id."""
    user_id, bot_name = holder
    return (user_id, bot_name, p.name, p.net, int(p.won), int(p.showdown_won), int(p.vpip),
            int(p.pfr), p.pot_won, *habits.as_row())  # fmt: skip


@dataclass(frozen=True, slots=True)
class HandSettlement:
    """A hand to close: ``record_settlement``'s arguments, one of a batch."""

    hand_id: int
    now: float
    history_text: str
    replay: str | None
    moves: Sequence[tuple[int, int]]
    results: Mapping[Holder, HandParticipant]
    habits: Mapping[Holder, HandHabits]
    """Each player's counts (``habits.count_hand``), worked out before the transaction: a
    transaction may be run again, and counting is the dearest part of a settlement."""


def settle_hands(settlements: Sequence[HandSettlement]) -> Script[set[int]]:
    """PostgreSQL: settle several hands in one statement, as ``record_settlement`` does each
    (an account is moved by one hand at most, a person's stats by every hand they played);
    the ids of the hands settled: a hand not running is left out, and nothing of it written."""
    closing = [(s.hand_id, s.now, s.history_text, s.replay) for s in settlements]
    moves = [(s.hand_id, delta, account_id) for s in settlements for delta, account_id in s.moves]
    played = [
        (s.hand_id, *_result_row(holder, participant, s.habits[holder]))
        for s in settlements
        for holder, participant in s.results.items()
    ]
    settled = yield from rows(
        _SETTLE_IN_ONE_STATEMENT, *columns(closing, 4), *columns(moves, 3),
        *columns(played, 10 + len(COLUMNS)), alone=True,
    )  # fmt: skip
    return {int(hand_id) for (hand_id,) in settled}


_SETTLE_IN_ONE_STATEMENT = (
    # Every part joins the hands closed: one that was not running changes nothing.
    "WITH closed AS (UPDATE hands SET status = 'settled', finished_at = c.finished_at,"
    " history = c.history, replay = c.replay"
    " FROM unnest(?::bigint[], ?::float8[], ?::text[], ?::text[])"
    " AS c(id, finished_at, history, replay)"
    " WHERE hands.id = c.id AND hands.status = 'running'"
    " RETURNING hands.id, hands.guild_id, hands.finished_at),"
    " moves AS (SELECT m.n, closed.id AS hand_id, closed.finished_at, m.delta, m.account_id"
    " FROM unnest(?::bigint[], ?::bigint[], ?::bigint[]) WITH ORDINALITY"
    " AS m(hand_id, delta, account_id, n) JOIN closed ON closed.id = m.hand_id),"
    " moved AS (UPDATE accounts SET chips = chips + moves.delta FROM moves"
    " WHERE accounts.id = moves.account_id),"
    " entered AS (INSERT INTO entries (account_id, delta, reason, hand_id, created_at)"
    " SELECT account_id, delta, 'hand result', hand_id, finished_at FROM moves ORDER BY n),"
    " results AS (SELECT r.*, closed.guild_id FROM unnest(?::bigint[], ?::bigint[], ?::text[],"
    f" ?::text[], ?::bigint[], ?::int[], ?::int[], ?::int[], ?::int[], ?::bigint[]{_HABIT_ARRAYS})"
    " WITH ORDINALITY AS r(hand_id, user_id, bot_name, name, net, won, showdown_won, vpip,"
    f" pfr, pot_won, {', '.join(COLUMNS)}, n) JOIN closed ON closed.id = r.hand_id),"
    # rowid numbers the rows in the order given, as SQLite does.
    f" recorded AS (INSERT INTO {_HAND_PLAYERS} SELECT hand_id, user_id, bot_name, name, net,"
    f" won, showdown_won, vpip, pfr, pot_won, {', '.join(COLUMNS)} FROM results ORDER BY n),"
    # A person at two tables of a server has a row of results in each hand: one update each.
    f" counted AS (UPDATE players SET {_stats('hp.hands')} FROM (SELECT guild_id, user_id,"
    " COUNT(*) AS hands, SUM(won) AS won, SUM(showdown_won) AS showdown_won, SUM(net) AS net,"
    " MAX(pot_won) AS pot_won, SUM(vpip) AS vpip, SUM(pfr) AS pfr,"
    f" {', '.join(f'SUM({name}) AS {name}' for name in COLUMNS)} FROM results"
    " WHERE bot_name = '' GROUP BY guild_id, user_id) hp"
    " WHERE players.guild_id = hp.guild_id AND players.user_id = hp.user_id)"
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

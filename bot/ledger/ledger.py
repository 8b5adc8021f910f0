"""The ``Ledger``: every persistent fact of the bot behind intent-level async methods.

Each method is one intent of a caller (seat a player, settle a hand, rank a server) and runs
as one transaction: it checks its arguments, then hands its body, a script of statements
(``statements``), to the database: SQLite's connection thread (``transactions``), which
commits it alone or grouped with other writes, or a PostgreSQL pool (``postgres``). The SQL
that moves chips is in ``accounts`` and ``hands``; this module composes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import UTC, datetime
from functools import partial
from importlib.resources.abc import Traversable
from pathlib import Path

import aiosqlite

import bot.ledger.habits as habits
import bot.ledger.pruning as pruning
import bot.ledger.table_states as table_states
import bot.ledger.tournaments as tournaments
from bot.errors import InvalidAmount, NotSeated
from bot.i18n import tr
from bot.ledger.accounts import (
    account,
    credit,
    owner_account,
    person_account,
    transfer,
)
from bot.ledger.audit import audit_report
from bot.ledger.batches import Batcher, Outcome
from bot.ledger.errors import (
    DailyNotReady,
    InsufficientChips,
    InvalidRequest,
    LedgerUnavailable,
    UnbalancedHand,
    UnknownHand,
)
from bot.ledger.hands import (
    HandSettlement,
    HandStart,
    Holdings,
    check_settlement,
    close_refunded,
    record_settlement,
    record_start,
    record_tournament_settlement,
    record_tournament_start,
    refuse_if_in_hand,
    settle_hands,
    snapshot,
    start_hands,
)
from bot.ledger.locations import is_postgres_url
from bot.ledger.records import (
    LEADERBOARD_MIN_HANDS,
    RANKED_HABITS,
    AuditReport,
    HabitFigure,
    Habits,
    HandParticipant,
    HandRecord,
    HandResultPoint,
    HandSummary,
    LeaderboardOrder,
    LeaderboardRow,
    PlayerKey,
    PlayerStats,
    RecoveryReport,
    SavedTable,
    SavedTournament,
    ServerAverages,
    TournamentInfo,
    TournamentPlace,
    TournamentStats,
)
from bot.ledger.schema import MIGRATIONS_DIR, holds_a_ledger, migrate
from bot.ledger.shard_claims import owned_guilds, release, renew, take
from bot.ledger.statements import (
    Database,
    Script,
    command,
    first_row,
    placeholders,
    rows,
)
from bot.ledger.transactions import BUSY_TIMEOUT_MS, Transactions, configure
from bot.ledger.validation import (
    MAX_CHIPS,
    Holder,
    check_amount,
    check_chips,
    check_id,
    check_stacks,
    holder_of,
    player_key,
)
from bot.shards import ShardSet
from engine.export import ExportedHand
from engine.hand_record import RecordedHand

MAX_PAGE_SIZE = 100
"""The most rows one leaderboard page may hold."""

MAX_HANDS_PER_READ = 500
"""The most hands one ``hands_to_export`` read returns (with their replays): exports page."""

HANDS_PER_STATEMENT = 64
"""PostgreSQL: the most hands one ``begin_hand`` or ``settle_hand`` statement carries
(``batches``), which bounds how long one statement holds its rows. Not tuned: under
``benchmarks.tables --tables 1000`` a statement carries about a dozen hands (0.16 commits
per hand, each hand begun and settled, rebuys included), far below it; only a ledger-only loop
of 1,000 tables reached it (50-61 hands per statement)."""

STATEMENTS_IN_FLIGHT = 1
"""PostgreSQL: how many batched statements of each kind (hands begun, hands settled) run at
once; what arrives meanwhile waits for the next. A ledger-only loop of 1,000 tables ran fastest
with 2-4 (3,900-5,100 hands/s against 2,800-3,800 with 1), but there the database was the
bottleneck; with the tables and bots around it (``benchmarks.tables --tables 1000``, 2-core
machine) the processors are, and every statement costs the bot and the server CPU whatever it
carries. There 1 gave 824 hands/s at 2.30 ms of machine CPU per hand and 0.16 commits per hand,
against 730-759 hands/s, 2.48-2.58 ms and 0.33 with 2; two processes of 500 tables, 926 hands/s
at 2.16 ms against 708-739 at 2.70-2.82 ms; median action latency fell too (220 ms against
242)."""


class Ledger:
    """All persistent state of the bot, behind intent-level async methods.

    Open it with ``await Ledger.open(location)``: an SQLite file (the default, for one
    process) or a ``postgresql://`` URL (one database shared by several processes); it
    applies pending migrations. It is an async context manager that closes the connections on
    exit. Every method runs the same script on either database (``statements``).

    On SQLite every operation is one transaction on the connection's thread. Writes that
    arrive while a transaction runs commit together in the next one (group commit), so under
    load many hands share one ``BEGIN IMMEDIATE … COMMIT``; each write is still atomic on its
    own and durable when its ``await`` returns: committed and synced to disk, so it survives a
    crash or a power loss (``transactions.SYNCHRONOUS`` has the measured cost).
    ``group_commit=False`` gives every write its own transaction. On PostgreSQL every
    operation is its own transaction on a pooled connection (``postgres``), and the hands
    begun, and those settled, while such statements are under way go together in the next
    one (``batches``): each is still atomic and refused on its own.

    ``transactions_committed`` counts the write transactions committed so far.
    """

    def __init__(
        self,
        database: Database,
        *,
        starting_balance: int,
        daily_amount: int,
        daily_interval: float,
        clock: Callable[[], float],
    ) -> None:
        self._db = database
        self._snapshots: dict[int, Holdings] = {}
        """The start-of-hand snapshots of the hands this ledger began, until they end: a
        hand's snapshot never changes, so settling it needs no read of it (a round trip on
        PostgreSQL). A hand begun elsewhere (another process, before a restart) is read."""
        self._starts: Batcher[HandStart, tuple[int, Holdings]] | None = None
        self._settlements: Batcher[HandSettlement, None] | None = None
        if database.dialect == "postgresql":
            self._starts = Batcher(
                self._start_hands, key=lambda start: start.table_id, isolate=database.refused,
                limit=HANDS_PER_STATEMENT, in_flight=STATEMENTS_IN_FLIGHT,
            )  # fmt: skip
            self._settlements = Batcher(
                self._settle_hands, key=lambda settlement: settlement.hand_id,
                isolate=database.refused, limit=HANDS_PER_STATEMENT,
                in_flight=STATEMENTS_IN_FLIGHT,
            )  # fmt: skip
        self.starting_balance = starting_balance
        self.daily_amount = daily_amount
        self.daily_interval = daily_interval
        self._clock = clock

    @classmethod
    async def open(
        cls,
        location: str | Path,
        *,
        starting_balance: int = 10_000,
        daily_amount: int = 1_000,
        daily_interval: float = 86_400,
        clock: Callable[[], float] = time.time,
        migrations_dir: Traversable | None = None,
        group_commit: bool = True,
        existing: bool = False,
    ) -> Ledger:
        """Connect to ``location`` and apply the numbered migrations of ``migrations_dir``
        (the package's, for the database's dialect, by default) it has not seen yet.

        ``location`` is a ``postgresql://user:password@host:port/database`` URL, or else the
        path of an SQLite file (created, with its folder, if missing). ``group_commit=False``
        commits every SQLite write alone (slower under load; kept to measure the difference).
        ``existing=True`` opens only an SQLite file that already holds a ledger, for tools that
        read one: any other file is refused and left exactly as it was.

        Raises ``InvalidAmount`` for a starting balance or daily amount out of range,
        ``InvalidRequest`` for a negative daily interval, ``LedgerError`` for a misnamed
        migration, ``LedgerUnavailable`` when the database cannot be opened (a folder or a
        file that is not a database; a server that is unreachable or refuses the login), and
        the database's error if a migration fails (its changes are undone).
        """
        if starting_balance != 0:
            check_amount(starting_balance)
        check_amount(daily_amount)
        if daily_interval < 0:
            raise InvalidRequest("The daily interval cannot be negative.")
        database: Database
        if is_postgres_url(location):
            assert isinstance(location, str)
            database = await _open_postgres(location, migrations_dir)
        else:
            database = await _open_sqlite(location, migrations_dir or MIGRATIONS_DIR,
                                          group_commit, existing)
        return cls(
            database,
            starting_balance=starting_balance,
            daily_amount=daily_amount,
            daily_interval=daily_interval,
            clock=clock,
        )

    @property
    def transactions_committed(self) -> int:
        """The write transactions committed since the ledger was opened."""
        return self._db.committed

    async def close(self) -> None:
        """Commit the writes still queued, then close the connections."""
        for batcher in (self._starts, self._settlements):
            if batcher is not None:
                await batcher.drain()
        await self._db.close()

    async def __aenter__(self) -> Ledger:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # ----------------------------------------------------------------- people

    async def ensure_player(self, guild_id: int, user_id: int, name: str) -> int:
        """Create the person with the starting grant on first use, refresh the display name,
        and return the balance. ``InvalidRequest`` if an id or the name is malformed."""
        check_id(guild_id, "server")
        check_id(user_id, "user")
        if not isinstance(name, str):
            raise InvalidRequest("A display name must be text.")

        def body() -> Script[int]:
            renamed = yield from command(
                "UPDATE players SET name = ? WHERE guild_id = ? AND user_id = ?",
                name, guild_id, user_id,
            )  # fmt: skip
            if renamed:
                _, balance = yield from person_account(guild_id, user_id)
                return balance
            now = self._clock()
            yield from command(
                "INSERT INTO players (guild_id, user_id, name, created_at) VALUES (?, ?, ?, ?)",
                guild_id, user_id, name, now,
            )  # fmt: skip
            account_id, balance = yield from account("balance", guild_id, user_id=user_id)
            if self.starting_balance:
                note = "starting balance"
                balance = yield from credit(
                    account_id, self.starting_balance, "grant", now, note
                )
            return balance

        return await self._db.write(body)

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The person's chips away from tables; raises ``UnknownPlayer`` if they have none."""

        def body() -> Script[int]:
            _, chips = yield from person_account(guild_id, user_id, lock=False)
            return chips

        return await self._db.read(body)

    async def claim_daily(self, guild_id: int, user_id: int) -> int:
        """Grant the daily bonus and return the new balance; ``DailyNotReady`` if it was
        claimed within the interval, ``UnknownPlayer`` if the person has no account. The
        balance's row lock makes two claims at once (two processes) take turns: one grants."""

        def body() -> Script[int]:
            account_id, _ = yield from person_account(guild_id, user_id)
            ((last,),) = yield from rows(
                "SELECT last_daily_at FROM players WHERE guild_id = ? AND user_id = ?",
                guild_id, user_id,
            )  # fmt: skip
            now = self._clock()
            if last is not None and now - last < self.daily_interval:
                raise DailyNotReady(self.daily_interval - (now - last))
            yield from command(
                "UPDATE players SET last_daily_at = ? WHERE guild_id = ? AND user_id = ?",
                now, guild_id, user_id,
            )  # fmt: skip
            chips = yield from credit(account_id, self.daily_amount, "daily", now)
            return chips

        return await self._db.write(body)

    async def grant(
        self, guild_id: int, user_id: int, amount: int, *, reason: str = "admin"
    ) -> int:
        """Create chips for a person (an admin's gift) and return the new balance; ``reason``
        is kept as a note. ``InvalidAmount`` unless 1 <= amount <= ``MAX_CHIPS``,
        ``UnknownPlayer`` if the person has no account."""
        check_amount(amount)

        def body() -> Script[int]:
            account_id, _ = yield from person_account(guild_id, user_id)
            chips = yield from credit(account_id, amount, "admin", self._clock(), reason)
            return chips

        return await self._db.write(body)

    # ----------------------------------------------------------------- tables

    async def buy_in(self, guild_id: int, table_id: int, player: PlayerKey, amount: int) -> int:
        """Move chips to the player's stack at a table and return that stack.

        A person pays from their balance; a bot is paid for by the guild's house. Raises
        ``InsufficientChips`` if the balance is short, ``UnknownPlayer`` if the person has no
        account, ``InvalidAmount`` for an amount out of range or a stack that would pass
        ``MAX_CHIPS``, ``HandInProgress`` if the stack is in the running hand, and
        ``InvalidRequest`` for a malformed id or player.
        """
        return await self._fund_stack(guild_id, table_id, player, amount, "buy-in")

    async def top_up(self, guild_id: int, table_id: int, player: PlayerKey, amount: int) -> int:
        """Add chips to a stack already at the table, between hands; return the stack.

        Raises ``NotSeated`` if the player has no stack there, and otherwise what ``buy_in``
        raises.
        """
        return await self._fund_stack(guild_id, table_id, player, amount, "top-up")

    async def _fund_stack(
        self, guild_id: int, table_id: int, player: PlayerKey, amount: int, reason: str
    ) -> int:
        check_id(guild_id, "server")
        check_id(table_id, "table")
        user_id, bot_name = holder_of(player)
        check_amount(amount)

        def body() -> Script[int]:
            escrow_id, stack = yield from account(
                "escrow", guild_id, table_id=table_id, user_id=user_id, bot_name=bot_name
            )
            if reason == "top-up" and stack == 0:
                raise NotSeated(tr("You have no stack at this table to top up."))
            if stack + amount > MAX_CHIPS:
                raise InvalidAmount(tr(
                    "A stack can hold at most {most} chips; this one holds {stack}.",
                    most=MAX_CHIPS, stack=stack))
            yield from refuse_if_in_hand(table_id, escrow_id)
            if bot_name:
                source_id, _ = yield from account("house", guild_id)
            else:
                source_id, balance = yield from person_account(guild_id, user_id)
                if balance < amount:
                    raise InsufficientChips(amount, balance)
            yield from transfer(source_id, escrow_id, amount, reason, self._clock())
            return stack + amount

        return await self._db.write(body)

    async def cash_out(self, guild_id: int, table_id: int, player: PlayerKey) -> int:
        """Return the player's whole stack to their balance (a bot's to the house) and return
        it (0 if there was none). ``HandInProgress`` if the stack is in the running hand,
        ``InvalidRequest`` for a malformed id or player."""
        check_id(guild_id, "server")
        check_id(table_id, "table")
        user_id, bot_name = holder_of(player)

        def body() -> Script[int]:
            row = yield from first_row(
                "SELECT id, chips FROM accounts WHERE kind = 'escrow' AND table_id = ?"
                " AND guild_id = ? AND user_id = ? AND bot_name = ?",
                table_id, guild_id, user_id, bot_name, lock=True,
            )  # fmt: skip
            if row is None or row[1] == 0:
                return 0
            escrow_id, stack = int(row[0]), int(row[1])
            yield from refuse_if_in_hand(table_id, escrow_id)
            owner_id = yield from owner_account(guild_id, user_id, bot_name)
            yield from transfer(escrow_id, owner_id, stack, "cash-out", self._clock())
            return stack

        return await self._db.write(body)

    async def table_stacks(self, table_id: int) -> dict[PlayerKey, int]:
        """The chips each player holds at a table (players with an empty stack are left out)."""

        def body() -> Script[dict[PlayerKey, int]]:
            found = yield from rows(
                "SELECT user_id, bot_name, chips FROM accounts"
                " WHERE kind = 'escrow' AND table_id = ? AND chips > 0 ORDER BY id",
                table_id,
            )
            return {player_key(user_id, bot_name): chips for user_id, bot_name, chips in found}

        return await self._db.read(body)

    # ----------------------------------------------------------------- hands

    async def begin_hand(
        self, guild_id: int, table_id: int, hand_number: int, stacks: Mapping[PlayerKey, int]
    ) -> int:
        """Record the start-of-hand stacks and return the new hand's id.

        Each stack must equal the player's escrow at the table (``UnbalancedHand``), the table
        must have no other hand running (``HandInProgress``), and the stacks may total at most
        ``MAX_CHIPS`` (``InvalidAmount``); ``InvalidRequest`` for no players or a malformed
        id or player.
        """
        check_id(guild_id, "server")
        check_id(table_id, "table")
        check_id(hand_number, "hand number")
        wanted = check_stacks(stacks)
        if not wanted:
            raise InvalidRequest("A hand needs at least one player.")
        if sum(wanted.values()) > MAX_CHIPS:
            raise InvalidAmount(tr("A hand can put at most {most} chips in play.",
                                    most=MAX_CHIPS))

        def body() -> Script[tuple[int, Holdings]]:
            return (yield from record_start(
                self._db.dialect, guild_id, table_id, hand_number, self._clock(), wanted
            ))  # fmt: skip

        if self._starts is None:
            hand_id, start = await self._db.write(body)
        else:
            request = HandStart(guild_id, table_id, hand_number, self._clock(), wanted)
            hand_id, start = await self._starts.submit(request)
        self._snapshots[hand_id] = start
        return hand_id

    async def _start_hands(
        self, starts: Sequence[HandStart]
    ) -> Sequence[Outcome[tuple[int, Holdings]]]:
        """PostgreSQL: a batch of ``begin_hand`` in one statement."""
        return await self._db.write(lambda: start_hands(starts))

    async def settle_hand(
        self,
        hand_id: int,
        final_stacks: Mapping[PlayerKey, int],
        participants: Sequence[HandParticipant],
        history_text: str,
        replay: str | None = None,
        *,
        habit_counts: Sequence[habits.HandHabits] | None = None,
    ) -> None:
        """Finish a hand in one transaction: escrow becomes the final stacks, the hand and
        everyone's result are recorded (with ``replay``, the hand as JSON for replays), and
        people's stats are updated. ``habit_counts`` are the players' habits in the order of
        ``participants`` when the caller counted them as the hand was played
        (``habits.HabitCounter``); otherwise they are counted from ``replay``.

        ``final_stacks`` and ``participants`` must name exactly the players of the hand, the
        total must equal the start-of-hand total, and each ``net`` must be final minus start;
        otherwise ``UnbalancedHand`` is raised and nothing changes. Also raises
        ``UnknownHand`` if the hand is not running, ``InvalidAmount`` for a stack or pot that
        is negative or above ``MAX_CHIPS``, and ``InvalidRequest`` for a malformed player.
        """
        final = check_stacks(final_stacks)
        by_holder = {holder_of(p.player): p for p in participants}
        if len(by_holder) != len(participants):
            raise UnbalancedHand("A player is listed twice among the participants.")
        for participant in participants:
            check_chips(participant.pot_won, "pot won")
        counted = _habits_of(by_holder, hand_id, replay, habit_counts)

        known = self._snapshots.get(hand_id)
        if known is not None and self._settlements is not None:
            try:
                check_settlement(known, final, by_holder)
                await self._settlements.submit(HandSettlement(
                    hand_id, self._clock(), history_text, replay,
                    _moves(known, final), by_holder, counted,
                ))  # fmt: skip
            finally:  # settled, or refused: a retry reads the snapshot again
                self._snapshots.pop(hand_id, None)
            return

        def body() -> Script[None]:
            start = known if known is not None else (yield from snapshot(hand_id))
            if not start:
                raise UnknownHand(f"Hand {hand_id} is not running.")
            check_settlement(start, final, by_holder)
            settled = yield from record_settlement(
                self._db.dialect, hand_id, self._clock(), history_text, replay,
                _moves(start, final), by_holder, counted,
            )  # fmt: skip
            if not settled:
                raise UnknownHand(f"Hand {hand_id} is not running.")

        try:
            await self._db.write(body)
        finally:  # settled, or refused: a retry reads the snapshot again
            self._snapshots.pop(hand_id, None)

    async def _settle_hands(
        self, settlements: Sequence[HandSettlement]
    ) -> Sequence[Outcome[None]]:
        """PostgreSQL: a batch of ``settle_hand`` (of hands whose snapshot is known) in one
        statement; ``UnknownHand`` for each hand that was not running."""
        settled = await self._db.write(lambda: settle_hands(settlements))
        return [
            None if s.hand_id in settled else UnknownHand(f"Hand {s.hand_id} is not running.")
            for s in settlements
        ]

    async def begin_tournament_hand(
        self, tournament_id: int, table_id: int, hand_number: int
    ) -> int:
        """Open a hand of a running tournament at its table in the hand log; returns its id,
        from the same sequence as cash hands' (one number for every hand, ``/history`` takes
        it). Its stacks are play chips, which stay with the tournament's runtime: nothing
        moves here. ``TournamentNotOpen`` unless the tournament runs, ``HandInProgress`` if
        the table runs a cash hand (one of the tournament's own left running there is closed
        first); ``refund_hand`` aborts it."""
        check_id(tournament_id, "tournament")
        check_id(table_id, "table")
        check_id(hand_number, "hand number")
        return await self._db.write(lambda: record_tournament_start(
            tournament_id, table_id, hand_number, self._clock()))

    async def settle_tournament_hand(
        self,
        hand_id: int,
        participants: Sequence[HandParticipant],
        history_text: str,
        replay: str | None = None,
        *,
        habit_counts: Sequence[habits.HandHabits] | None = None,
    ) -> None:
        """Record a finished tournament hand: its history, replay and everyone's result in
        play chips. People's hand counts (played, won, at showdown, VPIP, PFR) include it;
        their net and biggest pot, which are real chips, do not. ``UnbalancedHand`` unless the
        results add up to nothing (or a player is listed twice), ``UnknownHand`` unless it is a
        running tournament hand; nothing changes then. ``habit_counts`` as for
        ``settle_hand``."""
        by_holder = {holder_of(p.player): p for p in participants}
        if len(by_holder) != len(participants):
            raise UnbalancedHand("A player is listed twice among the participants.")
        if not participants or sum(p.net for p in participants) != 0:
            raise UnbalancedHand("A tournament hand's results must add up to nothing.")
        for participant in participants:
            check_chips(participant.pot_won, "pot won")
        counted = _habits_of(by_holder, hand_id, replay, habit_counts)

        def body() -> Script[None]:
            settled = yield from record_tournament_settlement(
                hand_id, self._clock(), history_text, replay, by_holder, counted)
            if not settled:
                raise UnknownHand(f"Hand {hand_id} is not a running tournament hand.")

        await self._db.write(body)

    async def refund_hand(self, hand_id: int) -> None:
        """Abort a hand: its players keep their start-of-hand stacks.

        Chips only leave the snapshot when a hand settles, so the escrow already holds the
        snapshot; the hand is closed as refunded and its players may cash out again.
        ``UnknownHand`` if the hand is not running.
        """

        def body() -> Script[None]:
            closed = yield from command(
                "UPDATE hands SET status = 'refunded', finished_at = ?"
                " WHERE id = ? AND status = 'running'",
                self._clock(), hand_id,
            )  # fmt: skip
            if not closed:
                raise UnknownHand(f"Hand {hand_id} is not running.")

        self._snapshots.pop(hand_id, None)
        await self._db.write(body)

    async def recover(
        self, running_table_ids: Collection[int] = (), shards: ShardSet | None = None,
        *, keep_saved_tables: bool = False,
    ) -> RecoveryReport:
        """Start-up repair: close every unsettled hand at its snapshot, and return the escrow
        of tables not in ``running_table_ids`` to balances (bots' to the house). With
        ``keep_saved_tables`` the escrow of every table with a saved state stays too (those
        tables open again: ``saved_tables``), and so do the buy-ins of tournaments that can
        resume (``saved_tournaments``); without it their saved states are forgotten.
        With ``shards``, only in the guilds on those shards: other processes own the rest."""
        keep = set(running_table_ids)
        owned, owned_params = owned_guilds(shards)

        def body() -> Script[RecoveryReport]:
            now = self._clock()
            running = yield from rows(  # +id: SQLite reads the index of running hands, not all
                f"SELECT id FROM hands WHERE status = 'running' AND {owned} ORDER BY +id",
                *owned_params, lock=True,
            )  # fmt: skip
            hand_ids = [int(hand_id) for (hand_id,) in running]
            yield from close_refunded(hand_ids, now)
            refunded = yield from tournaments.refund_open(
                owned, owned_params, now, keep_resumable=keep_saved_tables)
            if keep_saved_tables:
                saved = yield from rows(
                    f"{table_states.SAVED_TABLES} WHERE {owned}", *owned_params)
                kept = {int(channel_id) for (channel_id,) in saved}
            else:
                yield from table_states.forget_owned(owned, owned_params)
                kept = set()
            escrows = yield from rows(  # tables' escrow (a tournament's, table_id < 0, stays)
                "SELECT id, guild_id, table_id, user_id, bot_name, chips FROM accounts"
                f" WHERE kind = 'escrow' AND chips > 0 AND table_id > 0 AND {owned}"
                " ORDER BY id",
                *owned_params, lock=True,
            )  # fmt: skip
            stranded = [row for row in escrows if row[2] not in keep | kept]
            for escrow_id, guild_id, _table_id, user_id, bot_name, chips in stranded:
                owner_id = yield from owner_account(guild_id, user_id, bot_name)
                yield from transfer(escrow_id, owner_id, chips, "refund", now)
            return RecoveryReport(
                hands_refunded=tuple(hand_ids),
                tables_closed=tuple(sorted({int(row[2]) for row in stranded})),
                chips_returned=sum(int(row[5]) for row in stranded),
                tournaments_refunded=refunded,
                tables_kept=tuple(sorted(kept)),
            )

        report = await self._db.write(body)
        for hand_id in report.hands_refunded:
            self._snapshots.pop(hand_id, None)
        return report

    # ----------------------------------------------------------------- saved tables

    async def save_table_state(self, guild_id: int, channel_id: int, state: str) -> None:
        """Keep a cash table's state (JSON text from the runtime) so that the table opens
        again after a restart; its chips stay in the seats' escrow meanwhile."""
        check_id(guild_id, "server")
        check_id(channel_id, "table")
        await self._db.write(
            lambda: table_states.save(channel_id, guild_id, state, self._clock()))

    async def forget_table_state(self, channel_id: int) -> None:
        """The table closed for good (its seats cashed out): it does not open again."""
        check_id(channel_id, "table")
        await self._db.write(lambda: table_states.forget(channel_id))

    async def saved_tables(self, shards: ShardSet | None = None) -> list[SavedTable]:
        """The cash tables saved in the guilds on ``shards`` (all without), to open again
        after ``recover(keep_saved_tables=True)``."""
        owned, owned_params = owned_guilds(shards)
        return await self._db.read(lambda: table_states.saved(owned, owned_params))

    # ----------------------------------------------------------------- shard claims

    async def claim_shards(self, owner: str, shards: ShardSet, lease: float) -> None:
        """Claim ``shards`` for ``owner`` (a token unique to one process) for ``lease``
        seconds, all or none, in one transaction; claiming again what ``owner`` holds renews
        it. ``ShardsTaken`` names a shard another owner holds (or a live claim made with
        another shard count) and how long until it lapses; ``InvalidRequest`` for an empty
        owner or a lease that is not positive."""
        _check_claim(owner, lease)
        await self._db.write(lambda: take(owner, shards, self._clock(), lease))

    async def renew_shards(self, owner: str, shards: ShardSet, lease: float) -> None:
        """The heartbeat: extend ``owner``'s claim on ``shards`` by ``lease`` seconds from now.
        ``ShardClaimLost`` when another process has taken any of them over."""
        _check_claim(owner, lease)
        await self._db.write(lambda: renew(owner, shards, self._clock(), lease))

    async def release_shards(self, owner: str) -> None:
        """Drop every claim of ``owner`` (on a clean shutdown, once its tables are closed)."""
        _check_claim(owner, 1.0)
        await self._db.write(lambda: release(owner))

    # ----------------------------------------------------------------- records

    async def leaderboard(
        self,
        guild_id: int | None,
        *,
        by: LeaderboardOrder = "balance",
        page: int = 1,
        page_size: int = 10,
    ) -> list[LeaderboardRow]:
        """People ranked by balance, net winnings, hands won, tournament net or a
        ``RANKED_HABITS`` figure, in one guild or (``None``) summed over all guilds; ``page``
        counts from 1. ``InvalidRequest`` for an unknown order, a page below 1 or a page size
        outside 1..``MAX_PAGE_SIZE``."""
        if by not in _LEADERBOARD_VALUES and by not in RANKED_HABITS:
            raise InvalidRequest("A leaderboard is ordered by "
                                 f"{', '.join([*_LEADERBOARD_VALUES, *RANKED_HABITS])}.")
        check_id(page, "page")
        check_id(page_size, "page size")
        if page < 1 or not 1 <= page_size <= MAX_PAGE_SIZE:
            raise InvalidRequest(f"Pages count from 1 and hold 1 to {MAX_PAGE_SIZE} rows.")
        if by in RANKED_HABITS:
            return await self._habits_leaderboard(guild_id, by, page, page_size)
        value = _LEADERBOARD_VALUES[by]
        where = "" if guild_id is None else "WHERE p.guild_id = ?"
        params: list[int] = [] if guild_id is None else [check_id(guild_id, "server")]
        offset = (page - 1) * page_size
        sql = (
            f"SELECT p.user_id, MAX(p.name), CAST(SUM({value}) AS BIGINT) AS value"
            f" FROM players p JOIN accounts a ON {_BALANCE_OF_PLAYER}"
            f" {where} GROUP BY p.user_id ORDER BY value DESC, p.user_id LIMIT ? OFFSET ?"
        )
        found = await self._db.read(lambda: rows(sql, *params, page_size, offset))
        return [
            LeaderboardRow(rank=offset + i, user_id=user_id, name=name, value=total)
            for i, (user_id, name, total) in enumerate(found, start=1)
        ]

    async def _habits_leaderboard(
        self, guild_id: int | None, by: HabitFigure, page: int, page_size: int
    ) -> list[LeaderboardRow]:
        """People with ``LEADERBOARD_MIN_HANDS`` counted hands and the figure ``by`` defined,
        highest first (ties by user id), ranked from their running totals (one row of
        ``players`` a person, never the hand log)."""
        offset = (page - 1) * page_size
        found = await self._db.read(lambda: habits.ranked(
            guild_id, by, LEADERBOARD_MIN_HANDS, page_size, offset))
        return [LeaderboardRow(rank=offset + i, user_id=user_id, name=name, value=value)
                for i, (user_id, name, value) in enumerate(found, start=1)]

    async def habits(self, guild_id: int | None) -> dict[int, Habits]:
        """Each person's ``Habits`` in a guild (``None``: summed over all guilds), by user
        id, for the people who have played a hand there: their running totals, counted as
        each hand settled, so it reads one row a person, never the hand log. Hands settled
        before habits were counted at settlement are left out until ``backfill_habits``.
        ``InvalidRequest`` for a guild id that is not an integer."""
        if guild_id is not None:
            check_id(guild_id, "server")
        return await self._db.read(lambda: habits.people_habits(guild_id))

    async def backfill_habits(self, progress: Callable[[int], None] | None = None) -> int:
        """Count the habits of the settled hands not counted yet (settled before habits were
        counted at settlement) and add them to people's totals, ``habits.BATCH_HANDS`` at a
        time, counting off the event loop; how many hands. ``progress`` is told the hands
        counted so far after each round. The operator's ``python -m bot backfill-habits``:
        it may run beside the bot, each round a short transaction, each hand counted once."""
        done = 0
        while True:
            found = await self._db.read(habits.uncounted)
            if not found:
                return done
            counted = await asyncio.to_thread(habits.count_rows, found)
            done += await self._db.write(partial(habits.record_counts, counted))
            if progress is not None:
                progress(done)
            if len({row[0] for row in found}) < habits.BATCH_HANDS:
                return done

    async def prune_hands(self, before: float,
                          progress: Callable[[int], None] | None = None) -> int:
        """Clear the history and replay of the hands finished before ``before`` (a unix
        time) and drop their start-of-hand stacks (``pruning``), ``pruning.BATCH_HANDS`` hands
        a transaction; how many hands. Hands whose habits are not counted yet are kept (run
        ``backfill_habits`` first). ``progress`` hears the hands pruned so far after each
        round. The operator's ``python -m bot prune-hands``: it may run beside the bot."""
        done, after = 0, 0
        while True:
            chosen, last = await self._db.read(partial(pruning.candidates, after, before))
            done += await self._db.write(partial(pruning.prune, chosen))
            if progress is not None and chosen:
                progress(done)
            if last is None:
                return done
            after = last

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """A person's balance and lifetime record in a guild, or ``None`` if never seen."""
        row = await self._db.read(lambda: first_row(
            "SELECT p.guild_id, p.user_id, p.name, a.chips, p.hands_played, p.hands_won,"
            " p.showdowns_won, p.net_chips, p.biggest_pot, p.vpip_hands, p.pfr_hands"
            f" FROM players p JOIN accounts a ON {_BALANCE_OF_PLAYER}"
            " WHERE p.guild_id = ? AND p.user_id = ?",
            guild_id, user_id,
        ))  # fmt: skip
        if row is None:
            return None
        (guild, user, name, balance, played, won, showdowns, net, biggest, vpip, pfr) = row
        return PlayerStats(
            guild_id=guild,
            user_id=user,
            name=name,
            balance=balance,
            hands_played=played,
            hands_won=won,
            showdowns_won=showdowns,
            net_chips=net,
            biggest_pot=biggest,
            vpip_hands=vpip,
            pfr_hands=pfr,
        )

    async def recent_hands(self, guild_id: int, user_id: int, limit: int = 10) -> list[HandSummary]:
        """The person's latest ``limit`` settled hands in a guild, newest first;
        ``InvalidRequest`` if ``limit`` is not a positive integer."""
        if check_id(limit, "limit") < 1:
            raise InvalidRequest("Ask for at least one hand.")
        found = await self._db.read(lambda: rows(
            "SELECT h.id, h.table_id, h.hand_number, h.finished_at, hp.net, hp.won,"
            " h.tournament_id FROM hand_players hp JOIN hands h ON h.id = hp.hand_id"
            " WHERE hp.user_id = ? AND hp.bot_name = '' AND h.guild_id = ?"
            " ORDER BY hp.hand_id DESC LIMIT ?",
            user_id, guild_id, limit,
        ))  # fmt: skip
        return [
            HandSummary(
                hand_id=hand_id,
                table_id=table_id,
                hand_number=number,
                finished_at=finished_at,
                net=net,
                won=bool(won),
                tournament_id=tournament_id,
            )
            for hand_id, table_id, number, finished_at, net, won, tournament_id in found
        ]

    async def results_over_time(
        self, guild_id: int, user_id: int, limit: int = 1000
    ) -> list[HandResultPoint]:
        """The person's latest ``limit`` settled cash hands in a guild (tournament hands are
        in play chips), in the order they were played (by finish time, then hand id), each
        with its net result and whether it was won at showdown. The latest are the last
        begun (by hand id): read backwards through the index of a person's hands, they stop
        at ``limit`` instead of sorting every hand of the person. ``InvalidRequest`` for an
        id that is not an integer or a ``limit`` that is not a positive integer."""
        check_id(guild_id, "server")
        check_id(user_id, "user id")
        if check_id(limit, "limit") < 1:
            raise InvalidRequest("Ask for at least one hand.")
        found = await self._db.read(lambda: rows(
            "SELECT * FROM ("
            " SELECT h.id, h.finished_at, hp.net, hp.won, hp.showdown_won,"
            "  EXISTS (SELECT 1 FROM hand_players o"
            "          WHERE o.hand_id = h.id AND o.showdown_won = 1)"
            " FROM hand_players hp JOIN hands h ON h.id = hp.hand_id"
            " WHERE hp.user_id = ? AND hp.bot_name = '' AND h.guild_id = ?"
            "  AND h.status = 'settled' AND h.tournament_id IS NULL"
            " ORDER BY hp.user_id DESC, hp.hand_id DESC LIMIT ?"
            ") AS latest ORDER BY 2, 1",
            user_id, guild_id, limit,
        ))  # fmt: skip
        return [
            HandResultPoint(
                hand_id=hand_id,
                finished_at=finished_at,
                net=net,
                won=bool(won),
                showdown_won=bool(showdown_won),
                reached_showdown=bool(reached),
            )
            for hand_id, finished_at, net, won, showdown_won, reached in found
        ]

    async def server_averages(self, guild_id: int) -> ServerAverages:
        """The mean VPIP and PFR percentages over the guild's people who have played at
        least one hand; ``InvalidRequest`` for a guild id that is not an integer."""
        check_id(guild_id, "server")
        ((players, vpip, pfr),) = await self._db.read(lambda: rows(
            "SELECT COUNT(*), CAST(AVG(100.0 * vpip_hands / hands_played) AS DOUBLE PRECISION),"
            " CAST(AVG(100.0 * pfr_hands / hands_played) AS DOUBLE PRECISION)"
            " FROM players WHERE guild_id = ? AND hands_played > 0",
            guild_id,
        ))  # fmt: skip
        return ServerAverages(
            players=players, vpip_percent=vpip or 0.0, pfr_percent=pfr or 0.0
        )

    async def hand_history(self, hand_id: int) -> HandRecord | None:
        """A settled hand with its participants, history text and replay, or ``None``."""

        def body() -> Script[HandRecord | None]:
            hand = yield from first_row(
                "SELECT id, guild_id, table_id, hand_number, started_at, finished_at, history,"
                " replay, tournament_id FROM hands WHERE id = ? AND status = 'settled'",
                hand_id,
            )
            if hand is None:
                return None
            players = yield from rows(
                "SELECT user_id, bot_name, name, net, won, showdown_won, vpip, pfr, pot_won"
                " FROM hand_players WHERE hand_id = ? ORDER BY rowid",
                hand_id,
            )
            participants = tuple(
                HandParticipant(
                    player=player_key(user_id, bot_name),
                    name=name,
                    net=net,
                    won=bool(won),
                    showdown_won=bool(showdown_won),
                    vpip=bool(vpip),
                    pfr=bool(pfr),
                    pot_won=pot_won,
                )
                for user_id, bot_name, name, net, won, showdown_won, vpip, pfr, pot_won in players
            )
            (_, guild_id, table_id, number, started_at, finished_at, history, replay,
             tournament_id) = hand
            return HandRecord(
                hand_id=hand_id,
                guild_id=guild_id,
                table_id=table_id,
                hand_number=number,
                started_at=started_at,
                finished_at=finished_at,
                participants=participants,
                history_text=history,
                replay=replay,
                tournament_id=tournament_id,
            )

        return await self._db.read(body)

    # ----------------------------------------------------------------- guild settings

    async def guild_settings(self, guild_id: int) -> dict[str, object]:
        """The table defaults a server admin saved, or ``{}``."""
        row = await self._db.read(lambda: first_row(
            "SELECT settings FROM guild_settings WHERE guild_id = ?", guild_id
        ))
        if row is None:
            return {}
        settings: dict[str, object] = json.loads(row[0])
        return settings

    async def save_guild_settings(self, guild_id: int, settings: Mapping[str, object]) -> None:
        """Replace a server's saved table defaults; ``InvalidRequest`` unless they are plain
        JSON values."""
        check_id(guild_id, "server")
        try:
            text = json.dumps(dict(settings), sort_keys=True)
        except (TypeError, ValueError) as error:
            raise InvalidRequest(f"Settings must be plain values: {error}") from None
        await self._db.write(lambda: command(
            "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
            guild_id, text,
        ))  # fmt: skip

    # ----------------------------------------------------------------- table messages

    async def save_table_message(self, channel_id: int, message_id: int) -> None:
        """Remember the message that shows the channel's table (replacing an older one)."""
        check_id(channel_id, "channel")
        check_id(message_id, "message")
        await self._db.write(lambda: command(
            "INSERT INTO table_messages (channel_id, message_id) VALUES (?, ?)"
            " ON CONFLICT (channel_id) DO UPDATE SET message_id = excluded.message_id",
            channel_id, message_id,
        ))  # fmt: skip

    async def take_table_messages(self, channel_ids: Collection[int]) -> dict[int, int]:
        """The remembered table messages of ``channel_ids`` (channel -> message), forgotten as
        they are handed out: after a restart each is updated once."""
        wanted = sorted({check_id(channel_id, "channel") for channel_id in channel_ids})

        def body() -> Script[dict[int, int]]:
            found: dict[int, int] = {}
            for channel_id in wanted:
                row = yield from first_row(
                    "DELETE FROM table_messages WHERE channel_id = ? RETURNING message_id",
                    channel_id,
                )
                if row is not None:
                    found[channel_id] = int(row[0])
            return found

        return await self._db.write(body)

    # ----------------------------------------------------------------- DM channels

    async def dm_channel(self, user_id: int) -> int | None:
        """The DM channel remembered for a person, if any."""
        check_id(user_id, "user")
        row = await self._db.read(lambda: first_row(
            "SELECT channel_id FROM dm_channels WHERE user_id = ?", user_id))
        return None if row is None else int(row[0])

    async def save_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Remember a person's DM channel (replacing an older one)."""
        check_id(user_id, "user")
        check_id(channel_id, "channel")
        await self._db.write(lambda: command(
            "INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
            user_id, channel_id,
        ))  # fmt: skip

    # ----------------------------------------------------------------- turn pings

    async def turn_ping_users(self) -> set[int]:
        """The people who asked to be pinged when it is their turn (``/notify on``)."""
        found = await self._db.read(lambda: rows("SELECT user_id FROM turn_pings"))
        return {int(row[0]) for row in found}

    async def save_turn_ping(self, user_id: int, wanted: bool) -> None:
        """Keep (or, when not ``wanted``, forget) a person's wish for turn pings."""
        check_id(user_id, "user")
        if wanted:
            await self._db.write(lambda: command(
                "INSERT INTO turn_pings (user_id) VALUES (?) ON CONFLICT (user_id) DO NOTHING",
                user_id))
        else:
            await self._db.write(lambda: command(
                "DELETE FROM turn_pings WHERE user_id = ?", user_id))

    # ----------------------------------------------------------------- command copies

    async def command_guilds(self) -> list[int]:
        """The servers the bot's slash commands were last synced to one by one."""
        found = await self._db.read(lambda: rows("SELECT guild_id FROM command_guilds"))
        return sorted(int(row[0]) for row in found)

    async def save_command_guilds(self, guild_ids: Collection[int]) -> None:
        """Replace the servers that hold a copy of the bot's slash commands.

        Raises ``InvalidRequest`` for an id that is not a positive integer (a Discord id),
        changing nothing."""
        for guild_id in guild_ids:
            if check_id(guild_id, "server") <= 0:
                raise InvalidRequest(f"A server id is a positive integer, not {guild_id!r}.")

        def body() -> Script[None]:
            yield from command("DELETE FROM command_guilds")
            for guild_id in sorted(set(guild_ids)):
                yield from command("INSERT INTO command_guilds (guild_id) VALUES (?)", guild_id)

        await self._db.write(body)

    # ----------------------------------------------------------------- audit

    async def audit(self) -> AuditReport:
        """Check that every account equals the sum of its entries, that all chips equal what
        was granted, and that every running hand's escrow still equals its snapshot."""
        return await self._db.read(audit_report)

    # ----------------------------------------------------------------- tournaments

    async def create_tournament(
        self, guild_id: int, channel_id: int, creator_id: int, buy_in: int,
        settings: Mapping[str, object], *, addon_price: int = 0,
        starts_at: float | None = None,
    ) -> int:
        """Open a tournament for registration, with its escrow; its id. ``buy_in`` and
        ``addon_price`` (what an add-on costs, when its settings offer one) are 0 to
        ``MAX_CHIPS`` (``InvalidAmount``); ``settings`` are the runtime's, plain JSON values
        (``InvalidRequest``), kept as they are; ``starts_at`` (unix time) schedules its
        start."""
        check_id(guild_id, "server")
        check_id(channel_id, "channel")
        check_id(creator_id, "user")
        buy_in = tournaments.check_buy_in(buy_in)
        addon_price = tournaments.check_buy_in(addon_price)
        text = tournaments.settings_text(settings)
        starts_at = tournaments.check_start(starts_at)
        return await self._db.write(lambda: tournaments.create(
            guild_id, channel_id, creator_id, buy_in, text, self._clock(), addon_price,
            starts_at))

    async def register_tournament(self, tournament_id: int, player: PlayerKey) -> int:
        """Enter ``player`` and move the buy-in into the tournament's escrow, from their
        balance (a bot's from the house); the number of entrants. ``TournamentNotOpen`` unless
        it is registering (or running, when its settings offer late registration),
        ``AlreadyRegistered``, ``InsufficientChips``, ``UnknownPlayer``."""
        check_id(tournament_id, "tournament")
        holder = holder_of(player)
        return await self._db.write(
            lambda: tournaments.register(tournament_id, holder, self._clock()))

    async def unregister_tournament(self, tournament_id: int, player: PlayerKey) -> None:
        """Take ``player`` out before the start and refund the buy-in. ``TournamentNotOpen``
        unless it is registering, ``NotRegistered`` if the player is not entered."""
        check_id(tournament_id, "tournament")
        holder = holder_of(player)
        await self._db.write(
            lambda: tournaments.unregister(tournament_id, holder, self._clock()))

    async def tournament_rebuy(self, tournament_id: int, player: PlayerKey) -> int:
        """``player`` rebuys in a running tournament: the buy-in moves from their balance (a
        bot's from the house) into its escrow; their rebuys now. The runtime says when a
        rebuy is allowed; the ledger refuses more than the settings' ``rebuys``
        (``InvalidRequest``), ``TournamentNotOpen``, ``NotRegistered``,
        ``InsufficientChips``."""
        return await self._buy_more(tournament_id, player, "rebuy")

    async def tournament_addon(self, tournament_id: int, player: PlayerKey) -> int:
        """``player`` takes the add-on of a running tournament whose settings offer one: its
        price moves into the escrow; 1. Refusals as ``tournament_rebuy`` (a second add-on:
        ``InvalidRequest``)."""
        return await self._buy_more(tournament_id, player, "add-on")

    async def tournament_reentry(self, tournament_id: int, player: PlayerKey) -> int:
        """An eliminated ``player`` enters a running tournament offering re-entry again: the
        buy-in moves into the escrow; their re-entries now. Refusals as
        ``tournament_rebuy``."""
        return await self._buy_more(tournament_id, player, "re-entry")

    async def _buy_more(self, tournament_id: int, player: PlayerKey, what: str) -> int:
        check_id(tournament_id, "tournament")
        holder = holder_of(player)
        return await self._db.write(
            lambda: tournaments.buy_more(tournament_id, holder, what, self._clock()))

    async def set_tournament_event(self, tournament_id: int, event_id: int | None) -> None:
        """Keep the Discord Scheduled Event that announces a scheduled tournament."""
        check_id(tournament_id, "tournament")
        if event_id is not None:
            check_id(event_id, "event")
        await self._db.write(lambda: tournaments.set_schedule(tournament_id, event_id))

    async def mark_tournament_reminded(self, tournament_id: int) -> bool:
        """Note that a scheduled tournament's players were reminded; False when they already
        were (or it is over), so that they are reminded once whatever the restarts."""
        check_id(tournament_id, "tournament")
        return await self._db.write(lambda: tournaments.set_schedule(
            tournament_id, reminded_at=self._clock()))

    async def start_tournament(self, tournament_id: int) -> tuple[PlayerKey, ...]:
        """Close registration (the tournament is running); its entrants in registration
        order. ``TournamentNotOpen`` unless it is registering."""
        check_id(tournament_id, "tournament")
        return await self._db.write(lambda: tournaments.start(tournament_id, self._clock()))

    async def cancel_tournament(self, tournament_id: int) -> None:
        """Refund every buy-in of a registering or running tournament and mark it cancelled;
        ``TournamentNotOpen`` if it is over or unknown."""
        check_id(tournament_id, "tournament")
        await self._db.write(lambda: tournaments.cancel(tournament_id, self._clock()))

    async def finish_tournament(
        self, tournament_id: int, places: Mapping[PlayerKey, int],
        prizes: Mapping[PlayerKey, int],
    ) -> None:
        """Pay the prizes out of the escrow (a bot's to the house), record every entrant's
        place and prize and people's tournament records; the tournament is finished.
        ``places`` names every entrant (players who tied share a place); the prizes must add up
        to the pool exactly (``UnbalancedPrizes``). ``TournamentNotOpen`` unless running,
        ``InvalidRequest`` for places that are not the entrants'. A refusal changes nothing."""
        check_id(tournament_id, "tournament")
        placed = tournaments.check_places(places)
        paid = tournaments.check_prizes(prizes)
        await self._db.write(
            lambda: tournaments.finish(tournament_id, placed, paid, self._clock()))

    async def tournament_info(self, tournament_id: int) -> TournamentInfo | None:
        """The tournament with its entrants and prize pool, or ``None`` if unknown."""
        check_id(tournament_id, "tournament")
        return await self._db.read(lambda: tournaments.info(tournament_id))

    async def open_tournaments(self, guild_id: int) -> list[TournamentInfo]:
        """The guild's registering or running tournaments, oldest first."""
        check_id(guild_id, "server")
        return await self._db.read(lambda: tournaments.open_in_guild(guild_id))

    async def recent_tournaments(self, guild_id: int, limit: int = 10) -> list[TournamentInfo]:
        """The guild's last ``limit`` (at most ``MAX_PAGE_SIZE``) finished or cancelled
        tournaments, newest first."""
        check_id(guild_id, "server")
        check_id(limit, "count")
        if not 1 <= limit <= MAX_PAGE_SIZE:
            raise InvalidRequest(f"Ask for 1 to {MAX_PAGE_SIZE} tournaments.")
        return await self._db.read(lambda: tournaments.recent_in_guild(guild_id, limit))

    async def tournament_results(self, tournament_id: int) -> list[TournamentPlace]:
        """A finished tournament's places and prizes, best first (empty before it ends)."""
        check_id(tournament_id, "tournament")
        return await self._db.read(lambda: tournaments.results(tournament_id))

    async def tournament_stats(self, guild_id: int, user_id: int) -> TournamentStats:
        """A person's record in the guild's finished tournaments (zeros if none)."""
        check_id(guild_id, "server")
        check_id(user_id, "user")
        return await self._db.read(lambda: tournaments.stats(guild_id, user_id))

    async def save_tournament_state(self, tournament_id: int, state: str) -> None:
        """Keep a running tournament's state (JSON text from the runtime, written at its hand
        boundaries) so that it resumes after a restart; nothing once it is over."""
        check_id(tournament_id, "tournament")
        await self._db.write(lambda: tournaments.save_state(tournament_id, state))

    async def saved_tournaments(self, shards: ShardSet | None = None) -> list[SavedTournament]:
        """The registering or running tournaments in the guilds on ``shards`` (all without)
        with their entrants' names and saved states, to resume after
        ``recover(keep_saved_tables=True)``."""
        owned, owned_params = owned_guilds(shards)
        return await self._db.read(lambda: tournaments.saved(owned, owned_params))

    async def table_messages(self, channel_ids: Collection[int]) -> dict[int, int]:
        """The remembered table messages of ``channel_ids`` (channel -> message), kept: the
        tables of a resumed tournament show themselves in them again."""
        wanted = sorted({check_id(channel_id, "channel") for channel_id in channel_ids})
        if not wanted:
            return {}
        found = await self._db.read(lambda: rows(
            "SELECT channel_id, message_id FROM table_messages"
            f" WHERE channel_id IN ({placeholders(len(wanted))})", *wanted))
        return {int(channel_id): int(message_id) for channel_id, message_id in found}

    async def hands_to_export(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        limit: int = MAX_HANDS_PER_READ,
        before: int | None = None,
        after: int | None = None,
        since: float | None = None,
        until: float | None = None,
    ) -> list[ExportedHand]:
        """A person's settled hands that have a replay, newest first, as ``engine.export``
        writes them for that person: in ``guild_id`` (``None``: every server), at most
        ``limit``, with ids below ``before`` and above ``after`` (the next page is ``before=``
        the last id of this one), started from ``since`` until before ``until`` (Unix times).
        Read backwards through the index of a person's hands, so a page costs its own hands.
        ``InvalidRequest`` for ids that are not integers or a ``limit`` outside 1 to
        ``MAX_HANDS_PER_READ``."""
        check_id(user_id, "user id")
        if not 1 <= check_id(limit, "limit") <= MAX_HANDS_PER_READ:
            raise InvalidRequest(f"Ask for 1 to {MAX_HANDS_PER_READ} hands at a time.")
        conditions, params = ["hp.user_id = ?"], [user_id]
        for clause, value, what in (("h.guild_id = ?", guild_id, "server"),
                                    ("hp.hand_id < ?", before, "hand id"),
                                    ("hp.hand_id > ?", after, "hand id")):
            if value is not None:
                conditions.append(clause)
                params.append(check_id(value, what))
        times = [(clause, float(value)) for clause, value in (("h.started_at >= ?", since),
                                                               ("h.started_at < ?", until))
                 if value is not None]

        def body() -> Script[list[ExportedHand]]:
            hands = yield from rows(
                "SELECT h.id, h.table_id, h.started_at, h.replay"
                " FROM hand_players hp JOIN hands h ON h.id = hp.hand_id"
                f" WHERE {' AND '.join(conditions + [clause for clause, _ in times])}"
                " AND hp.bot_name = '' AND h.status = 'settled' AND h.replay IS NOT NULL"
                " ORDER BY hp.user_id DESC, hp.hand_id DESC LIMIT ?",
                *params, *(value for _, value in times), limit,
            )  # fmt: skip
            if not hands:
                return []
            players = yield from rows(
                "SELECT hand_id, user_id, bot_name, name FROM hand_players"
                f" WHERE hand_id IN ({placeholders(len(hands))}) ORDER BY hand_id, rowid",
                *(hand[0] for hand in hands),
            )  # fmt: skip
            seated: dict[int, list[tuple[PlayerKey, str]]] = {}
            for hand_id, seat_user, bot_name, name in players:
                seated.setdefault(hand_id, []).append((player_key(seat_user, bot_name), name))
            return [
                ExportedHand(
                    hand_id=hand_id, record=RecordedHand.from_json(replay),
                    names=tuple(name for _, name in seated[hand_id]),
                    viewer=[player for player, _ in seated[hand_id]].index(user_id),
                    started_at=datetime.fromtimestamp(started_at, UTC), table=f"#{table_id}")
                for hand_id, table_id, started_at, replay in hands
            ]

        return await self._db.read(body)


def _check_claim(owner: str, lease: float) -> None:
    if not isinstance(owner, str) or not owner:
        raise InvalidRequest("A shard claim needs its owner's token.")
    if not lease > 0:
        raise InvalidRequest("A shard claim's lease must be a positive number of seconds.")


def _habits_of(
    by_holder: Mapping[Holder, HandParticipant], hand_id: int, replay: str | None,
    counted: Sequence[habits.HandHabits] | None,
) -> dict[Holder, habits.HandHabits]:
    """Each player's habits in a settling hand: those the caller counted (``InvalidRequest``
    unless one per player), else counted from the replay."""
    if counted is None:
        counted = habits.count_hand(hand_id, replay, len(by_holder))
    elif len(counted) != len(by_holder):
        raise InvalidRequest(f"{len(counted)} habit counts for {len(by_holder)} players.")
    return dict(zip(by_holder, counted, strict=True))


def _moves(start: Holdings, final: Mapping[Holder, int]) -> list[tuple[int, int]]:
    """The ``(delta, account_id)`` that turn a hand's snapshot into its final stacks, in the
    order of the accounts (row locks are always taken in that order)."""
    return [
        (final[holder] - chips, account_id)
        for holder, (account_id, chips) in start.items()
        if final[holder] != chips
    ]


async def _open_postgres(url: str, migrations: Traversable | None) -> Database:
    """A pool on the PostgreSQL database at ``url``, migrated (see ``Ledger.open``)."""
    try:
        from bot.ledger.postgres import POSTGRES_MIGRATIONS_DIR, PostgresTransactions
    except ImportError as error:  # asyncpg comes with the [postgres] extra only
        raise LedgerUnavailable(
            f"a postgresql:// database needs asyncpg ({error}); install the PostgreSQL"
            " extra: pip install 'holdem-discord[postgres]'"
        ) from error
    return await PostgresTransactions.connect(url, migrations or POSTGRES_MIGRATIONS_DIR)


async def _open_sqlite(
    path: str | Path, migrations: Traversable, group_commit: bool, existing: bool
) -> Transactions:
    """The SQLite file at ``path`` on its connection thread, migrated (see ``Ledger.open``);
    with ``existing``, only if it holds a ledger already."""
    if str(path) != ":memory:":
        if Path(path).is_dir():  # refused before aiosqlite starts a thread for it
            raise LedgerUnavailable(f"{path} is a folder, not a database file")
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            # A file SQLite cannot open (in /proc, say) is refused before aiosqlite starts a
            # thread for it: that thread, failing, would post to an event loop closed by then.
            await asyncio.to_thread(_try_to_open, path)
            db = await _connect_sqlite(path)
        except (OSError, sqlite3.Error) as error:
            raise LedgerUnavailable(f"cannot open {path}: {error}") from error
    else:
        db = await _connect_sqlite(path)
    transactions = Transactions(db, group_commit=group_commit)
    try:
        if existing and not await transactions.call(holds_a_ledger):
            raise LedgerUnavailable(f"{path} is not a chip ledger: it has no ledger tables")
        await _configure(transactions)
        await transactions.call(migrate, migrations)
    except sqlite3.DatabaseError as error:
        await db.close()
        if "not a database" not in str(error):
            raise
        raise LedgerUnavailable(f"{path} is not a chip ledger: {error}") from error
    except BaseException:
        await db.close()
        raise
    return transactions


def _try_to_open(path: str | Path) -> None:
    """Open and close the SQLite file at ``path``; raises ``sqlite3.Error`` if SQLite cannot."""
    sqlite3.connect(path).close()


async def _connect_sqlite(path: str | Path) -> aiosqlite.Connection:
    """``aiosqlite.connect(path)``, closed again if the wait is cancelled (the bot stopped
    while it started): the connection's thread opens it anyway, and left open it would outlive
    the event loop and fail there with a traceback."""
    opening = asyncio.ensure_future(aiosqlite.connect(path, isolation_level=None))
    try:
        return await asyncio.shield(opening)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await (await opening).close()
        raise


async def _configure(transactions: Transactions) -> None:
    """Set the connection's pragmas. While another process switches a new file to WAL, SQLite
    answers "database is locked" at once instead of waiting out the busy timeout (seen with two
    bot processes starting on one new file), so try again until that timeout has passed."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            await transactions.call(configure)
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            await asyncio.sleep(CONFIGURE_RETRY_SECONDS)


CONFIGURE_RETRY_SECONDS = 0.05
"""The pause between tries: short against the busy timeout, so a start waits little longer
than the other process holds the lock."""


_LEADERBOARD_VALUES: dict[str, str] = {
    "balance": "a.chips",
    "net": "p.net_chips",
    "hands_won": "p.hands_won",
    "tournaments": tournaments.LEADERBOARD_VALUE,
}

_BALANCE_OF_PLAYER = (
    "a.kind = 'balance' AND a.table_id = 0 AND a.guild_id = p.guild_id"
    " AND a.user_id = p.user_id AND a.bot_name = ''"
)

"""The ``Ledger``: every persistent fact of the bot behind intent-level async methods.

Each method is one intent of a caller (seat a player, settle a hand, rank a server) and runs
as one transaction: it checks its arguments, then hands a body of statements to the
connection thread (``transactions``), which commits it alone or grouped with other writes.
The SQL that moves chips is in ``accounts`` and ``hands``; this module composes it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from importlib.resources.abc import Traversable
from pathlib import Path

import aiosqlite

from bot.errors import HandInProgress, InvalidAmount, NotSeated
from bot.ledger.accounts import account, credit, owner_account, person_account, transfer
from bot.ledger.audit import audit_report
from bot.ledger.errors import (
    DailyNotReady,
    InsufficientChips,
    InvalidRequest,
    LedgerUnavailable,
    UnbalancedHand,
    UnknownHand,
)
from bot.ledger.hands import (
    check_settlement,
    close_refunded,
    refuse_if_in_hand,
    snapshot,
    stack_mismatch,
)
from bot.ledger.records import (
    AuditReport,
    HandParticipant,
    HandRecord,
    HandResultPoint,
    HandSummary,
    LeaderboardOrder,
    LeaderboardRow,
    PlayerKey,
    PlayerStats,
    RecoveryReport,
    ServerAverages,
)
from bot.ledger.schema import MIGRATIONS_DIR, migrate
from bot.ledger.shard_claims import owned_guilds, release, renew, take
from bot.ledger.transactions import Transactions, configure
from bot.ledger.validation import (
    MAX_CHIPS,
    check_amount,
    check_chips,
    check_id,
    check_stacks,
    holder_of,
    player_key,
)
from bot.shards import ShardSet

MAX_PAGE_SIZE = 100
"""The most rows one leaderboard page may hold."""


class Ledger:
    """All persistent state of the bot, behind intent-level async methods.

    Open it with ``await Ledger.open(path)``; it applies pending migrations. It is an async
    context manager that closes the connection on exit.

    Every operation is one transaction on the connection's thread. Writes that arrive while a
    transaction runs commit together in the next one (group commit), so under load many hands
    share one ``BEGIN IMMEDIATE … COMMIT``; each write is still atomic on its own and durable
    when its ``await`` returns: committed and synced to disk, so it survives a crash or a power
    loss (``transactions.SYNCHRONOUS`` has the measured cost). ``group_commit=False`` gives
    every write its own transaction.

    ``transactions_committed`` counts the write transactions committed so far.
    """

    def __init__(
        self,
        db: aiosqlite.Connection,
        *,
        starting_balance: int,
        daily_amount: int,
        daily_interval: float,
        clock: Callable[[], float],
        group_commit: bool = True,
    ) -> None:
        self._db = Transactions(db, group_commit=group_commit)
        self.starting_balance = starting_balance
        self.daily_amount = daily_amount
        self.daily_interval = daily_interval
        self._clock = clock

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        starting_balance: int = 10_000,
        daily_amount: int = 1_000,
        daily_interval: float = 86_400,
        clock: Callable[[], float] = time.time,
        migrations_dir: Traversable = MIGRATIONS_DIR,
        group_commit: bool = True,
    ) -> Ledger:
        """Connect to the SQLite file at ``path`` (created, with its folder, if missing) and
        apply the numbered migrations of ``migrations_dir`` it has not seen yet.
        ``group_commit=False`` commits every write alone (slower under load; kept to measure
        the difference).

        Raises ``InvalidAmount`` for a starting balance or daily amount out of range,
        ``InvalidRequest`` for a negative daily interval, ``LedgerError`` for a misnamed
        migration, ``LedgerUnavailable`` when the file cannot be opened as a database (a
        folder, not a database, not readable), and ``sqlite3.Error`` if a migration fails
        (its changes are undone).
        """
        if starting_balance != 0:
            check_amount(starting_balance)
        check_amount(daily_amount)
        if daily_interval < 0:
            raise InvalidRequest("The daily interval cannot be negative.")
        if str(path) != ":memory:":
            if Path(path).is_dir():  # refused before aiosqlite starts a thread for it
                raise LedgerUnavailable(f"{path} is a folder, not a database file")
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                db = await aiosqlite.connect(path, isolation_level=None)
            except (OSError, sqlite3.Error) as error:
                raise LedgerUnavailable(f"cannot open {path}: {error}") from error
        else:
            db = await aiosqlite.connect(path, isolation_level=None)
        ledger = cls(
            db,
            starting_balance=starting_balance,
            daily_amount=daily_amount,
            daily_interval=daily_interval,
            clock=clock,
            group_commit=group_commit,
        )
        try:
            await ledger._db.call(configure)
            await ledger._db.call(migrate, migrations_dir)
        except sqlite3.DatabaseError as error:
            await db.close()
            if "not a database" not in str(error):
                raise
            raise LedgerUnavailable(f"{path} is not a chip ledger: {error}") from error
        except BaseException:
            await db.close()
            raise
        return ledger

    @property
    def transactions_committed(self) -> int:
        """The write transactions committed since the ledger was opened."""
        return self._db.committed

    async def close(self) -> None:
        """Commit the writes still queued, then close the connection."""
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

        def body(db: sqlite3.Connection) -> int:
            renamed = db.execute(
                "UPDATE players SET name = ? WHERE guild_id = ? AND user_id = ?",
                (name, guild_id, user_id),
            )
            if renamed.rowcount:
                return person_account(db, guild_id, user_id)[1]
            now = self._clock()
            db.execute(
                "INSERT INTO players (guild_id, user_id, name, created_at) VALUES (?, ?, ?, ?)",
                (guild_id, user_id, name, now),
            )
            account_id, balance = account(db, "balance", guild_id, user_id=user_id)
            if self.starting_balance:
                note = "starting balance"
                balance = credit(db, account_id, self.starting_balance, "grant", now, note)
            return balance

        return await self._db.write(body)

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The person's chips away from tables; raises ``UnknownPlayer`` if they have none."""
        return await self._db.read(lambda db: person_account(db, guild_id, user_id)[1])

    async def claim_daily(self, guild_id: int, user_id: int) -> int:
        """Grant the daily bonus and return the new balance; ``DailyNotReady`` if it was
        claimed within the interval, ``UnknownPlayer`` if the person has no account."""

        def body(db: sqlite3.Connection) -> int:
            account_id, _ = person_account(db, guild_id, user_id)
            (last,) = db.execute(
                "SELECT last_daily_at FROM players WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            ).fetchone()
            now = self._clock()
            if last is not None and now - last < self.daily_interval:
                raise DailyNotReady(self.daily_interval - (now - last))
            db.execute(
                "UPDATE players SET last_daily_at = ? WHERE guild_id = ? AND user_id = ?",
                (now, guild_id, user_id),
            )
            return credit(db, account_id, self.daily_amount, "daily", now)

        return await self._db.write(body)

    async def grant(
        self, guild_id: int, user_id: int, amount: int, *, reason: str = "admin"
    ) -> int:
        """Create chips for a person (an admin's gift) and return the new balance; ``reason``
        is kept as a note. ``InvalidAmount`` unless 1 <= amount <= ``MAX_CHIPS``,
        ``UnknownPlayer`` if the person has no account."""
        check_amount(amount)

        def body(db: sqlite3.Connection) -> int:
            account_id, _ = person_account(db, guild_id, user_id)
            return credit(db, account_id, amount, "admin", self._clock(), reason)

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

        def body(db: sqlite3.Connection) -> int:
            escrow_id, stack = account(
                db, "escrow", guild_id, table_id=table_id, user_id=user_id, bot_name=bot_name
            )
            if reason == "top-up" and stack == 0:
                raise NotSeated("You have no stack at this table to top up.")
            if stack + amount > MAX_CHIPS:
                raise InvalidAmount(
                    f"A stack can hold at most {MAX_CHIPS:,} chips; this one holds {stack:,}."
                )
            refuse_if_in_hand(db, table_id, escrow_id)
            if bot_name:
                source_id, _ = account(db, "house", guild_id)
            else:
                source_id, balance = person_account(db, guild_id, user_id)
                if balance < amount:
                    raise InsufficientChips(amount, balance)
            transfer(db, source_id, escrow_id, amount, reason, self._clock())
            return stack + amount

        return await self._db.write(body)

    async def cash_out(self, guild_id: int, table_id: int, player: PlayerKey) -> int:
        """Return the player's whole stack to their balance (a bot's to the house) and return
        it (0 if there was none). ``HandInProgress`` if the stack is in the running hand,
        ``InvalidRequest`` for a malformed id or player."""
        check_id(guild_id, "server")
        check_id(table_id, "table")
        user_id, bot_name = holder_of(player)

        def body(db: sqlite3.Connection) -> int:
            row: tuple[int, int] | None = db.execute(
                "SELECT id, chips FROM accounts WHERE kind = 'escrow' AND table_id = ?"
                " AND guild_id = ? AND user_id = ? AND bot_name = ?",
                (table_id, guild_id, user_id, bot_name),
            ).fetchone()
            if row is None or row[1] == 0:
                return 0
            escrow_id, stack = row
            refuse_if_in_hand(db, table_id, escrow_id)
            owner_id = owner_account(db, guild_id, user_id, bot_name)
            transfer(db, escrow_id, owner_id, stack, "cash-out", self._clock())
            return stack

        return await self._db.write(body)

    async def table_stacks(self, table_id: int) -> dict[PlayerKey, int]:
        """The chips each player holds at a table (players with an empty stack are left out)."""

        def body(db: sqlite3.Connection) -> dict[PlayerKey, int]:
            rows = db.execute(
                "SELECT user_id, bot_name, chips FROM accounts"
                " WHERE kind = 'escrow' AND table_id = ? AND chips > 0 ORDER BY id",
                (table_id,),
            )
            return {player_key(user_id, bot_name): chips for user_id, bot_name, chips in rows}

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
            raise InvalidAmount(f"A hand can put at most {MAX_CHIPS:,} chips in play.")

        def body(db: sqlite3.Connection) -> int:
            try:  # the unique index hands_running allows one running hand per table
                hand_id = db.execute(
                    "INSERT INTO hands (guild_id, table_id, hand_number, started_at)"
                    " VALUES (?, ?, ?, ?)",
                    (guild_id, table_id, hand_number, self._clock()),
                ).lastrowid
            except sqlite3.IntegrityError as error:
                if "hands.table_id" not in str(error):
                    raise
                raise HandInProgress("start another") from None
            assert hand_id is not None  # an INSERT that succeeded has a row id
            # Each stack is snapshotted only if the escrow holds exactly that many chips.
            recorded = db.executemany(
                "INSERT INTO hand_stacks (hand_id, account_id, chips)"
                " SELECT ?, id, chips FROM accounts WHERE kind = 'escrow' AND table_id = ?"
                " AND guild_id = ? AND user_id = ? AND bot_name = ? AND chips = ?",
                [
                    (hand_id, table_id, guild_id, user_id, bot_name, chips)
                    for (user_id, bot_name), chips in wanted.items()
                ],
            ).rowcount
            if recorded != len(wanted):
                raise stack_mismatch(db, guild_id, table_id, wanted)
            return hand_id

        return await self._db.write(body)

    async def settle_hand(
        self,
        hand_id: int,
        final_stacks: Mapping[PlayerKey, int],
        participants: Sequence[HandParticipant],
        history_text: str,
    ) -> None:
        """Finish a hand in one transaction: escrow becomes the final stacks, the hand and
        everyone's result are recorded, and people's stats are updated.

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

        def body(db: sqlite3.Connection) -> None:
            now = self._clock()
            closed = db.execute(
                "UPDATE hands SET status = 'settled', finished_at = ?, history = ?"
                " WHERE id = ? AND status = 'running' RETURNING guild_id",
                (now, history_text, hand_id),
            ).fetchone()
            if closed is None:
                raise UnknownHand(f"Hand {hand_id} is not running.")
            start = snapshot(db, hand_id)
            check_settlement(start, final, by_holder)
            moves = [
                (final[holder] - chips, account_id)
                for holder, (account_id, chips) in start.items()
                if final[holder] != chips
            ]
            db.executemany("UPDATE accounts SET chips = chips + ? WHERE id = ?", moves)
            db.executemany(
                "INSERT INTO entries (account_id, delta, reason, hand_id, created_at)"
                " VALUES (?, ?, 'hand result', ?, ?)",
                [(account_id, delta, hand_id, now) for delta, account_id in moves],
            )
            db.executemany(
                "INSERT INTO hand_players (hand_id, user_id, bot_name, name, net, won,"
                " showdown_won, vpip, pfr, pot_won) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (hand_id, user_id, bot_name, p.name, p.net, p.won, p.showdown_won,
                     p.vpip, p.pfr, p.pot_won)
                    for (user_id, bot_name), p in by_holder.items()
                ],
            )  # fmt: skip
            db.execute(  # every person's stats from the rows just recorded, in one statement
                "UPDATE players SET hands_played = hands_played + 1,"
                " hands_won = hands_won + hp.won, showdowns_won = showdowns_won + hp.showdown_won,"
                " net_chips = net_chips + hp.net, biggest_pot = MAX(biggest_pot, hp.pot_won),"
                " vpip_hands = vpip_hands + hp.vpip, pfr_hands = pfr_hands + hp.pfr"
                " FROM hand_players hp WHERE hp.hand_id = ? AND hp.bot_name = ''"
                " AND players.guild_id = ? AND players.user_id = hp.user_id",
                (hand_id, closed[0]),
            )

        await self._db.write(body)

    async def refund_hand(self, hand_id: int) -> None:
        """Abort a hand: its players keep their start-of-hand stacks.

        Chips only leave the snapshot when a hand settles, so the escrow already holds the
        snapshot; the hand is closed as refunded and its players may cash out again.
        ``UnknownHand`` if the hand is not running.
        """

        def body(db: sqlite3.Connection) -> None:
            closed = db.execute(
                "UPDATE hands SET status = 'refunded', finished_at = ?"
                " WHERE id = ? AND status = 'running'",
                (self._clock(), hand_id),
            )
            if not closed.rowcount:
                raise UnknownHand(f"Hand {hand_id} is not running.")

        await self._db.write(body)

    async def recover(
        self, running_table_ids: Collection[int] = (), shards: ShardSet | None = None
    ) -> RecoveryReport:
        """Start-up repair: close every unsettled hand at its snapshot, and return the escrow
        of tables not in ``running_table_ids`` to balances (bots' to the house). With
        ``shards``, only in the guilds on those shards: other processes own the rest."""
        keep = set(running_table_ids)
        owned, owned_params = owned_guilds(shards)

        def body(db: sqlite3.Connection) -> RecoveryReport:
            now = self._clock()
            hand_ids = [
                hand_id
                for (hand_id,) in db.execute(
                    f"SELECT id FROM hands WHERE status = 'running' AND {owned} ORDER BY id",
                    owned_params,
                )
            ]
            close_refunded(db, hand_ids, now)
            stranded = [
                row
                for row in db.execute(
                    "SELECT id, guild_id, table_id, user_id, bot_name, chips FROM accounts"
                    f" WHERE kind = 'escrow' AND chips > 0 AND {owned} ORDER BY id",
                    owned_params,
                )
                if row[2] not in keep
            ]
            for escrow_id, guild_id, _table_id, user_id, bot_name, chips in stranded:
                owner_id = owner_account(db, guild_id, user_id, bot_name)
                transfer(db, escrow_id, owner_id, chips, "refund", now)
            return RecoveryReport(
                hands_refunded=tuple(hand_ids),
                tables_closed=tuple(sorted({row[2] for row in stranded})),
                chips_returned=sum(row[5] for row in stranded),
            )

        return await self._db.write(body)

    # ----------------------------------------------------------------- shard claims

    async def claim_shards(self, owner: str, shards: ShardSet, lease: float) -> None:
        """Claim ``shards`` for ``owner`` (a token unique to one process) for ``lease``
        seconds, all or none, in one transaction; claiming again what ``owner`` holds renews
        it. ``ShardsTaken`` names a shard another owner holds (or a live claim made with
        another shard count) and how long until it lapses; ``InvalidRequest`` for an empty
        owner or a lease that is not positive."""
        _check_claim(owner, lease)
        await self._db.write(lambda db: take(db, owner, shards, self._clock(), lease))

    async def renew_shards(self, owner: str, shards: ShardSet, lease: float) -> None:
        """The heartbeat: extend ``owner``'s claim on ``shards`` by ``lease`` seconds from now.
        ``ShardClaimLost`` when another process has taken any of them over."""
        _check_claim(owner, lease)
        await self._db.write(lambda db: renew(db, owner, shards, self._clock(), lease))

    async def release_shards(self, owner: str) -> None:
        """Drop every claim of ``owner`` (on a clean shutdown, once its tables are closed)."""
        _check_claim(owner, 1.0)
        await self._db.write(lambda db: release(db, owner))

    # ----------------------------------------------------------------- records

    async def leaderboard(
        self,
        guild_id: int | None,
        *,
        by: LeaderboardOrder = "balance",
        page: int = 1,
        page_size: int = 10,
    ) -> list[LeaderboardRow]:
        """People ranked by balance, net winnings or hands won, in one guild or (``None``)
        summed over all guilds; ``page`` counts from 1. ``InvalidRequest`` for an unknown
        order, a page below 1 or a page size outside 1..``MAX_PAGE_SIZE``."""
        if by not in _LEADERBOARD_VALUES:
            raise InvalidRequest(f"A leaderboard is ordered by {', '.join(_LEADERBOARD_VALUES)}.")
        check_id(page, "page")
        check_id(page_size, "page size")
        if page < 1 or not 1 <= page_size <= MAX_PAGE_SIZE:
            raise InvalidRequest(f"Pages count from 1 and hold 1 to {MAX_PAGE_SIZE} rows.")
        value = _LEADERBOARD_VALUES[by]
        where = "" if guild_id is None else "WHERE p.guild_id = ?"
        params: list[int] = [] if guild_id is None else [check_id(guild_id, "server")]
        offset = (page - 1) * page_size
        sql = (
            f"SELECT p.user_id, MAX(p.name), SUM({value}) AS value FROM players p"
            f" JOIN accounts a ON {_BALANCE_OF_PLAYER}"
            f" {where} GROUP BY p.user_id ORDER BY value DESC, p.user_id LIMIT ? OFFSET ?"
        )
        rows = await self._db.read(
            lambda db: db.execute(sql, [*params, page_size, offset]).fetchall()
        )
        return [
            LeaderboardRow(rank=offset + i, user_id=user_id, name=name, value=total)
            for i, (user_id, name, total) in enumerate(rows, start=1)
        ]

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """A person's balance and lifetime record in a guild, or ``None`` if never seen."""
        row = await self._db.read(
            lambda db: db.execute(
                "SELECT p.guild_id, p.user_id, p.name, a.chips, p.hands_played, p.hands_won,"
                " p.showdowns_won, p.net_chips, p.biggest_pot, p.vpip_hands, p.pfr_hands"
                f" FROM players p JOIN accounts a ON {_BALANCE_OF_PLAYER}"
                " WHERE p.guild_id = ? AND p.user_id = ?",
                (guild_id, user_id),
            ).fetchone()
        )
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
        rows = await self._db.read(
            lambda db: db.execute(
                "SELECT h.id, h.table_id, h.hand_number, h.finished_at, hp.net, hp.won"
                " FROM hand_players hp JOIN hands h ON h.id = hp.hand_id"
                " WHERE hp.user_id = ? AND hp.bot_name = '' AND h.guild_id = ?"
                " ORDER BY hp.hand_id DESC LIMIT ?",
                (user_id, guild_id, limit),
            ).fetchall()
        )
        return [
            HandSummary(
                hand_id=hand_id,
                table_id=table_id,
                hand_number=number,
                finished_at=finished_at,
                net=net,
                won=bool(won),
            )
            for hand_id, table_id, number, finished_at, net, won in rows
        ]

    async def results_over_time(
        self, guild_id: int, user_id: int, limit: int = 1000
    ) -> list[HandResultPoint]:
        """The person's latest ``limit`` settled hands in a guild, in the order they were
        played (by finish time, then hand id), each with its net result and whether it was
        won at showdown. ``InvalidRequest`` for an id that is not an integer or a ``limit``
        that is not a positive integer."""
        check_id(guild_id, "server")
        check_id(user_id, "user id")
        if check_id(limit, "limit") < 1:
            raise InvalidRequest("Ask for at least one hand.")
        rows = await self._db.read(
            lambda db: db.execute(
                "SELECT * FROM ("
                " SELECT h.id, h.finished_at, hp.net, hp.won, hp.showdown_won,"
                "  EXISTS (SELECT 1 FROM hand_players o"
                "          WHERE o.hand_id = h.id AND o.showdown_won = 1)"
                " FROM hand_players hp JOIN hands h ON h.id = hp.hand_id"
                " WHERE hp.user_id = ? AND hp.bot_name = '' AND h.guild_id = ?"
                "  AND h.status = 'settled'"
                " ORDER BY h.finished_at DESC, h.id DESC LIMIT ?"
                ") ORDER BY 2, 1",
                (user_id, guild_id, limit),
            ).fetchall()
        )
        return [
            HandResultPoint(
                hand_id=hand_id,
                finished_at=finished_at,
                net=net,
                won=bool(won),
                showdown_won=bool(showdown_won),
                reached_showdown=bool(reached),
            )
            for hand_id, finished_at, net, won, showdown_won, reached in rows
        ]

    async def server_averages(self, guild_id: int) -> ServerAverages:
        """The mean VPIP and PFR percentages over the guild's people who have played at
        least one hand; ``InvalidRequest`` for a guild id that is not an integer."""
        check_id(guild_id, "server")
        players, vpip, pfr = await self._db.read(
            lambda db: db.execute(
                "SELECT COUNT(*), AVG(100.0 * vpip_hands / hands_played),"
                " AVG(100.0 * pfr_hands / hands_played)"
                " FROM players WHERE guild_id = ? AND hands_played > 0",
                (guild_id,),
            ).fetchone()
        )
        return ServerAverages(
            players=players, vpip_percent=vpip or 0.0, pfr_percent=pfr or 0.0
        )

    async def hand_history(self, hand_id: int) -> HandRecord | None:
        """A settled hand with its participants and history text, or ``None``."""

        def body(db: sqlite3.Connection) -> HandRecord | None:
            hand = db.execute(
                "SELECT id, guild_id, table_id, hand_number, started_at, finished_at, history"
                " FROM hands WHERE id = ? AND status = 'settled'",
                (hand_id,),
            ).fetchone()
            if hand is None:
                return None
            rows = db.execute(
                "SELECT user_id, bot_name, name, net, won, showdown_won, vpip, pfr, pot_won"
                " FROM hand_players WHERE hand_id = ? ORDER BY rowid",
                (hand_id,),
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
                for user_id, bot_name, name, net, won, showdown_won, vpip, pfr, pot_won in rows
            )
            _, guild_id, table_id, number, started_at, finished_at, history = hand
            return HandRecord(
                hand_id=hand_id,
                guild_id=guild_id,
                table_id=table_id,
                hand_number=number,
                started_at=started_at,
                finished_at=finished_at,
                participants=participants,
                history_text=history,
            )

        return await self._db.read(body)

    # ----------------------------------------------------------------- guild settings

    async def guild_settings(self, guild_id: int) -> dict[str, object]:
        """The table defaults a server admin saved, or ``{}``."""
        row = await self._db.read(
            lambda db: db.execute(
                "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
            ).fetchone()
        )
        return {} if row is None else json.loads(row[0])

    async def save_guild_settings(self, guild_id: int, settings: Mapping[str, object]) -> None:
        """Replace a server's saved table defaults; ``InvalidRequest`` unless they are plain
        JSON values."""
        check_id(guild_id, "server")
        try:
            text = json.dumps(dict(settings), sort_keys=True)
        except (TypeError, ValueError) as error:
            raise InvalidRequest(f"Settings must be plain values: {error}") from None
        await self._db.write(
            lambda db: db.execute(
                "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
                (guild_id, text),
            )
        )

    # ----------------------------------------------------------------- table messages

    async def save_table_message(self, channel_id: int, message_id: int) -> None:
        """Remember the message that shows the channel's table (replacing an older one)."""
        check_id(channel_id, "channel")
        check_id(message_id, "message")
        await self._db.write(
            lambda db: db.execute(
                "INSERT INTO table_messages (channel_id, message_id) VALUES (?, ?)"
                " ON CONFLICT (channel_id) DO UPDATE SET message_id = excluded.message_id",
                (channel_id, message_id),
            )
        )

    async def take_table_messages(self, channel_ids: Collection[int]) -> dict[int, int]:
        """The remembered table messages of ``channel_ids`` (channel -> message), forgotten as
        they are handed out: after a restart each is updated once."""
        wanted = sorted({check_id(channel_id, "channel") for channel_id in channel_ids})

        def body(db: sqlite3.Connection) -> dict[int, int]:
            found: dict[int, int] = {}
            for channel_id in wanted:
                row = db.execute("SELECT message_id FROM table_messages WHERE channel_id = ?",
                                 (channel_id,)).fetchone()
                if row is not None:
                    found[channel_id] = row[0]
                    db.execute("DELETE FROM table_messages WHERE channel_id = ?", (channel_id,))
            return found

        return await self._db.write(body)

    # ----------------------------------------------------------------- audit

    async def audit(self) -> AuditReport:
        """Check that every account equals the sum of its entries, that all chips equal what
        was granted, and that every running hand's escrow still equals its snapshot."""
        return await self._db.read(audit_report)


def _check_claim(owner: str, lease: float) -> None:
    if not isinstance(owner, str) or not owner:
        raise InvalidRequest("A shard claim needs its owner's token.")
    if not lease > 0:
        raise InvalidRequest("A shard claim's lease must be a positive number of seconds.")


_LEADERBOARD_VALUES: dict[str, str] = {
    "balance": "a.chips",
    "net": "p.net_chips",
    "hands_won": "p.hands_won",
}

_BALANCE_OF_PLAYER = (
    "a.kind = 'balance' AND a.table_id = 0 AND a.guild_id = p.guild_id"
    " AND a.user_id = p.user_id AND a.bot_name = ''"
)

"""Chips and records: balances, escrow at tables, the hand log, stats and leaderboards.

This is the only module that speaks SQL. It owns a single aiosqlite connection whose worker
thread runs every operation, so many tables can call it at once. Writes that arrive while a
transaction is running are grouped into the next one (group commit): each write runs inside its
own savepoint, so a refused write changes nothing and fails only for its caller, and each
caller's ``await`` returns once the transaction holding its write has committed.

Chips live in accounts: each person's *balance* per guild, each guild's *house* (it funds bot
opponents and may go negative) and *escrow* (a player's stack at a table). Every change to an
account is an append-only entry, so ``audit()`` can prove that each account equals the sum of
its entries and that all chips together equal what was ever granted.

A hand's chips stay in escrow while it is played: ``begin_hand`` records the start-of-hand
stacks, ``settle_hand`` moves the escrow to the final stacks in one transaction. A hand that
never settles (a crash, an error in the table) therefore still holds exactly its snapshot, and
``refund_hand`` / ``recover`` only have to close it.
"""

from __future__ import annotations

import asyncio
import json
import math
import sqlite3
import time
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar

import aiosqlite

from bot.errors import (
    HandInProgress,
    HoldemError,
    InputError,
    InvalidAmount,
    NotEnoughChips,
    NotSeated,
)

PlayerKey = int | str
"""A seat holder: an ``int`` is a Discord user id (a person), a ``str`` is a bot's name."""

T = TypeVar("T")
LeaderboardOrder = Literal["balance", "net", "hands_won"]

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "data" / "migrations"
BUSY_TIMEOUT_MS = 5_000
MAX_PAGE_SIZE = 100
GRANT_REASONS = ("grant", "daily", "admin")
MAX_WRITES_PER_TRANSACTION = 256
"""Bounds how long one grouped transaction holds the write lock and its callers wait."""


# --------------------------------------------------------------------------- errors


class LedgerError(HoldemError):
    """An operation was refused; ``str(error)`` is a short sentence to show the user."""


class InvalidRequest(LedgerError, InputError):
    """An argument is malformed (wrong type, unknown option, empty name)."""


class UnknownPlayer(LedgerError):
    """The person has no account in this server yet."""

    def __init__(self, guild_id: int, user_id: int) -> None:
        super().__init__("You have no chips here yet: play or claim your daily bonus first.")
        self.guild_id = guild_id
        self.user_id = user_id


class InsufficientChips(NotEnoughChips, LedgerError):
    """A person asked to move more chips than their balance holds."""

    def __init__(self, needed: int, balance: int) -> None:
        super().__init__(f"You need {needed:,} chips but your balance is {balance:,}.")
        self.needed = needed
        self.balance = balance


class DailyNotReady(LedgerError):
    """The daily bonus was already claimed within the interval."""

    def __init__(self, seconds_left: float) -> None:
        self.seconds_left = seconds_left
        super().__init__(f"Your next daily bonus is ready in {_duration(seconds_left)}.")


class UnknownHand(LedgerError):
    """No hand with this id is waiting to be settled or refunded."""


class UnbalancedHand(LedgerError):
    """The stacks given for a hand do not match the chips the ledger holds for it."""


def _duration(seconds: float) -> str:
    """Say how long to wait, rounded up to the minute: ``3h 05m`` or ``12m``."""
    minutes = max(1, math.ceil(seconds / 60))
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m" if hours else f"{minutes}m"


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class HandParticipant:
    """How one player dealt into a hand fared, as the table reports it at settlement.

    ``net`` is the final stack minus the start-of-hand stack; ``pot_won`` is the chips pushed
    to the player (used for the biggest-pot stat); ``vpip`` and ``pfr`` say whether the player
    voluntarily put chips in, and raised, before the flop.
    """

    player: PlayerKey
    name: str
    net: int
    won: bool = False
    showdown_won: bool = False
    vpip: bool = False
    pfr: bool = False
    pot_won: int = 0


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One person's place on a leaderboard page; ``value`` is what the board ranks by."""

    rank: int
    user_id: int
    name: str
    value: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A person's balance and lifetime record in one guild."""

    guild_id: int
    user_id: int
    name: str
    balance: int
    hands_played: int
    hands_won: int
    showdowns_won: int
    net_chips: int
    biggest_pot: int
    vpip_hands: int
    pfr_hands: int

    @property
    def vpip_percent(self) -> float:
        """Share of hands in which the player voluntarily put chips in preflop."""
        return 100 * self.vpip_hands / self.hands_played if self.hands_played else 0.0

    @property
    def pfr_percent(self) -> float:
        """Share of hands in which the player raised preflop."""
        return 100 * self.pfr_hands / self.hands_played if self.hands_played else 0.0


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One settled hand as seen by one person, for "recent hands"."""

    hand_id: int
    table_id: int
    hand_number: int
    finished_at: float
    net: int
    won: bool


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A settled hand with everyone's result and the hand-history text."""

    hand_id: int
    guild_id: int
    table_id: int
    hand_number: int
    started_at: float
    finished_at: float
    participants: tuple[HandParticipant, ...]
    history_text: str


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    """What ``recover()`` put back: unsettled hands closed, escrow returned from idle tables."""

    hands_refunded: tuple[int, ...]
    tables_closed: tuple[int, ...]
    chips_returned: int


@dataclass(frozen=True, slots=True)
class LedgerTotals:
    """Where all chips are; ``balances + house + escrow`` must equal ``granted``."""

    granted: int
    balances: int
    house: int
    escrow: int


@dataclass(frozen=True, slots=True)
class AuditReport:
    """The result of ``audit()``: ``ok`` when ``problems`` is empty."""

    ok: bool
    problems: tuple[str, ...]
    totals: LedgerTotals


# --------------------------------------------------------------------------- validation


def _check_amount(amount: object) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount(f"An amount of chips must be a whole number, not {amount!r}.")
    if amount <= 0:
        raise InvalidAmount(f"An amount of chips must be positive, not {amount:,}.")
    return amount


def _check_id(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRequest(f"A {what} must be an integer id, not {value!r}.")
    return value


def _holder(player: object) -> tuple[int, str]:
    """The (user_id, bot_name) columns of a player key: a person has bot_name ''."""
    if isinstance(player, str):
        if not player.strip():
            raise InvalidRequest("A bot needs a non-empty name.")
        return 0, player
    return _check_id(player, "player"), ""


def _player_key(user_id: int, bot_name: str) -> PlayerKey:
    return bot_name or user_id


def _check_chips(chips: object, what: str) -> int:
    """A count of chips that may be zero, such as a stack."""
    if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
        raise InvalidAmount(f"A {what} must be a whole number of chips, not {chips!r}.")
    return chips


def _check_stacks(stacks: Mapping[PlayerKey, int]) -> dict[tuple[int, str], int]:
    """Stacks keyed by holder columns."""
    return {_holder(player): _check_chips(chips, "stack") for player, chips in stacks.items()}


# --------------------------------------------------------------------------- the ledger


class Ledger:
    """All persistent state of the bot, behind intent-level async methods.

    Open it with ``await Ledger.open(path)``; it applies pending migrations. It is an async
    context manager that closes the connection on exit.

    Each operation runs as a single call on the aiosqlite connection's worker thread: calls
    queue there one at a time, so transactions are serialized without a lock, and a
    transaction never waits on the event loop between its statements. Writes queue in
    ``_pending`` while a transaction runs and then commit together in the next one, so under
    load many hands share one ``BEGIN IMMEDIATE … COMMIT`` and one thread hop; each write is
    still atomic on its own (a savepoint) and durable when its ``await`` returns.
    ``group_commit=False`` gives every write its own transaction instead.

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
        self._db = db
        self.starting_balance = starting_balance
        self.daily_amount = daily_amount
        self.daily_interval = daily_interval
        self._clock = clock
        self._group_commit = group_commit
        self._pending: list[_WriteRequest] = []
        self._flusher: asyncio.Task[None] | None = None
        self.transactions_committed = 0

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        starting_balance: int = 10_000,
        daily_amount: int = 1_000,
        daily_interval: float = 86_400,
        clock: Callable[[], float] = time.time,
        migrations_dir: Path = MIGRATIONS_DIR,
        group_commit: bool = True,
    ) -> Ledger:
        """Connect to the SQLite file at ``path`` (created if missing) and apply the numbered
        migrations it has not seen yet. ``group_commit=False`` commits every write alone
        (slower under load; kept to measure the difference)."""
        if starting_balance != 0:
            _check_amount(starting_balance)
        _check_amount(daily_amount)
        if daily_interval < 0:
            raise InvalidRequest("The daily interval cannot be negative.")
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
            await ledger._call(_prepare, Path(migrations_dir))
        except BaseException:
            await db.close()
            raise
        return ledger

    async def close(self) -> None:
        """Commit the writes still queued, then close the connection."""
        if self._flusher is not None:
            await asyncio.wait([self._flusher])
        await self._db.close()

    async def __aenter__(self) -> Ledger:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def _call(self, function: Callable[..., T], *args: object) -> T:
        """Run ``function(connection, *args)`` on the connection's thread."""
        return await run_on_connection_thread(self._db, function, *args)

    async def _write(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``body`` atomically in a write transaction and return once it has committed;
        any exception it raises undoes its statements and is raised here."""
        if not self._group_commit:
            result = await self._call(_in_transaction, "BEGIN IMMEDIATE", body)
            self.transactions_committed += 1
            return result
        outcome: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._pending.append(_WriteRequest(body, outcome))
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._commit_pending())
        return await outcome

    async def _commit_pending(self) -> None:
        """Commit the queued writes, up to ``MAX_WRITES_PER_TRANSACTION`` per transaction,
        until none are left; writes queued meanwhile join the next transaction."""
        try:
            while self._pending:
                batch = self._pending[:MAX_WRITES_PER_TRANSACTION]
                del self._pending[:MAX_WRITES_PER_TRANSACTION]
                try:
                    results = await self._call(_commit_batch, [r.body for r in batch])
                except Exception as error:  # nothing of the batch was committed
                    results = [(False, error)] * len(batch)
                else:
                    self.transactions_committed += 1
                for request, (ok, value) in zip(batch, results, strict=True):
                    if request.outcome.done():  # its caller was cancelled
                        continue
                    if ok:
                        request.outcome.set_result(value)
                    else:
                        request.outcome.set_exception(value)
        except BaseException:
            for request in self._pending:
                request.outcome.cancel()
            self._pending.clear()
            raise
        finally:
            self._flusher = None

    async def _read(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``body`` in a read transaction, so that it sees one consistent state."""
        return await self._call(_in_transaction, "BEGIN", body)

    # ----------------------------------------------------------------- people

    async def ensure_player(self, guild_id: int, user_id: int, name: str) -> int:
        """Create the person with the starting grant on first use, refresh the display name,
        and return the balance."""
        _check_id(guild_id, "server")
        _check_id(user_id, "user")
        if not isinstance(name, str):
            raise InvalidRequest("A display name must be text.")

        def body(db: sqlite3.Connection) -> int:
            renamed = db.execute(
                "UPDATE players SET name = ? WHERE guild_id = ? AND user_id = ?",
                (name, guild_id, user_id),
            )
            if renamed.rowcount:
                return _person_account(db, guild_id, user_id)[1]
            now = self._clock()
            db.execute(
                "INSERT INTO players (guild_id, user_id, name, created_at) VALUES (?, ?, ?, ?)",
                (guild_id, user_id, name, now),
            )
            account_id, balance = _account(db, "balance", guild_id, user_id=user_id)
            if self.starting_balance:
                note = "starting balance"
                balance = _credit(db, account_id, self.starting_balance, "grant", now, note)
            return balance

        return await self._write(body)

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The person's chips away from tables; raises ``UnknownPlayer`` if they have none."""
        return await self._read(lambda db: _person_account(db, guild_id, user_id)[1])

    async def claim_daily(self, guild_id: int, user_id: int) -> int:
        """Grant the daily bonus and return the new balance, or raise ``DailyNotReady``."""

        def body(db: sqlite3.Connection) -> int:
            account_id, _ = _person_account(db, guild_id, user_id)
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
            return _credit(db, account_id, self.daily_amount, "daily", now)

        return await self._write(body)

    async def grant(
        self, guild_id: int, user_id: int, amount: int, *, reason: str = "admin"
    ) -> int:
        """Create chips for a person (an admin's gift); ``reason`` is kept as a note."""
        _check_amount(amount)

        def body(db: sqlite3.Connection) -> int:
            account_id, _ = _person_account(db, guild_id, user_id)
            return _credit(db, account_id, amount, "admin", self._clock(), reason)

        return await self._write(body)

    # ----------------------------------------------------------------- tables

    async def buy_in(self, guild_id: int, table_id: int, player: PlayerKey, amount: int) -> int:
        """Move chips to the player's stack at a table and return that stack.

        A person pays from their balance (``InsufficientChips`` if short); a bot is paid for
        by the guild's house.
        """
        return await self._fund_stack(guild_id, table_id, player, amount, "buy-in")

    async def top_up(self, guild_id: int, table_id: int, player: PlayerKey, amount: int) -> int:
        """Add chips to a stack already at the table, between hands; return the stack."""
        return await self._fund_stack(guild_id, table_id, player, amount, "top-up")

    async def _fund_stack(
        self, guild_id: int, table_id: int, player: PlayerKey, amount: int, reason: str
    ) -> int:
        _check_id(guild_id, "server")
        _check_id(table_id, "table")
        user_id, bot_name = _holder(player)
        _check_amount(amount)

        def body(db: sqlite3.Connection) -> int:
            escrow_id, stack = _account(
                db, "escrow", guild_id, table_id=table_id, user_id=user_id, bot_name=bot_name
            )
            if reason == "top-up" and stack == 0:
                raise NotSeated("You have no stack at this table to top up.")
            _refuse_if_in_hand(db, table_id, escrow_id)
            if bot_name:
                source_id, _ = _account(db, "house", guild_id)
            else:
                source_id, balance = _person_account(db, guild_id, user_id)
                if balance < amount:
                    raise InsufficientChips(amount, balance)
            _transfer(db, source_id, escrow_id, amount, reason, self._clock())
            return stack + amount

        return await self._write(body)

    async def cash_out(self, guild_id: int, table_id: int, player: PlayerKey) -> int:
        """Return the player's whole stack to their balance (a bot's to the house); return it."""
        _check_id(guild_id, "server")
        _check_id(table_id, "table")
        user_id, bot_name = _holder(player)

        def body(db: sqlite3.Connection) -> int:
            row = db.execute(
                "SELECT id, chips FROM accounts WHERE kind = 'escrow' AND table_id = ?"
                " AND guild_id = ? AND user_id = ? AND bot_name = ?",
                (table_id, guild_id, user_id, bot_name),
            ).fetchone()
            if row is None or row[1] == 0:
                return 0
            escrow_id, stack = row
            _refuse_if_in_hand(db, table_id, escrow_id)
            owner_id = _owner_account(db, guild_id, user_id, bot_name)
            _transfer(db, escrow_id, owner_id, stack, "cash-out", self._clock())
            return stack

        return await self._write(body)

    async def table_stacks(self, table_id: int) -> dict[PlayerKey, int]:
        """The chips each player holds at a table (players with an empty stack are left out)."""

        def body(db: sqlite3.Connection) -> dict[PlayerKey, int]:
            rows = db.execute(
                "SELECT user_id, bot_name, chips FROM accounts"
                " WHERE kind = 'escrow' AND table_id = ? AND chips > 0 ORDER BY id",
                (table_id,),
            )
            return {_player_key(user_id, bot_name): chips for user_id, bot_name, chips in rows}

        return await self._read(body)

    # ----------------------------------------------------------------- hands

    async def begin_hand(
        self, guild_id: int, table_id: int, hand_number: int, stacks: Mapping[PlayerKey, int]
    ) -> int:
        """Record the start-of-hand stacks and return the new hand's id.

        Each stack must equal the player's escrow at the table, and the table must have no
        other hand running.
        """
        _check_id(guild_id, "server")
        _check_id(table_id, "table")
        _check_id(hand_number, "hand number")
        wanted = _check_stacks(stacks)
        if not wanted:
            raise InvalidRequest("A hand needs at least one player.")

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
                raise _stack_mismatch(db, guild_id, table_id, wanted)
            return hand_id

        return await self._write(body)

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
        otherwise ``UnbalancedHand`` is raised and nothing changes.
        """
        final = _check_stacks(final_stacks)
        by_holder = {_holder(p.player): p for p in participants}
        if len(by_holder) != len(participants):
            raise UnbalancedHand("A player is listed twice among the participants.")
        for participant in participants:
            _check_chips(participant.pot_won, "pot won")

        def body(db: sqlite3.Connection) -> None:
            now = self._clock()
            closed = db.execute(
                "UPDATE hands SET status = 'settled', finished_at = ?, history = ?"
                " WHERE id = ? AND status = 'running' RETURNING guild_id",
                (now, history_text, hand_id),
            ).fetchone()
            if closed is None:
                raise UnknownHand(f"Hand {hand_id} is not running.")
            start = _snapshot(db, hand_id)
            _check_settlement(start, final, by_holder)
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

        await self._write(body)

    async def refund_hand(self, hand_id: int) -> None:
        """Abort a hand: its players keep their start-of-hand stacks.

        Chips only leave the snapshot when a hand settles, so the escrow already holds the
        snapshot; the hand is closed as refunded and its players may cash out again.
        """

        def body(db: sqlite3.Connection) -> None:
            closed = db.execute(
                "UPDATE hands SET status = 'refunded', finished_at = ?"
                " WHERE id = ? AND status = 'running'",
                (self._clock(), hand_id),
            )
            if not closed.rowcount:
                raise UnknownHand(f"Hand {hand_id} is not running.")

        await self._write(body)

    async def recover(self, running_table_ids: Collection[int] = ()) -> RecoveryReport:
        """Start-up repair: close every unsettled hand at its snapshot, and return the escrow
        of tables not in ``running_table_ids`` to balances (bots' to the house)."""
        keep = set(running_table_ids)

        def body(db: sqlite3.Connection) -> RecoveryReport:
            now = self._clock()
            hand_ids = [
                hand_id
                for (hand_id,) in db.execute(
                    "SELECT id FROM hands WHERE status = 'running' ORDER BY id"
                )
            ]
            _close_refunded(db, hand_ids, now)
            stranded = [
                row
                for row in db.execute(
                    "SELECT id, guild_id, table_id, user_id, bot_name, chips FROM accounts"
                    " WHERE kind = 'escrow' AND chips > 0 ORDER BY id"
                )
                if row[2] not in keep
            ]
            for escrow_id, guild_id, _table_id, user_id, bot_name, chips in stranded:
                owner_id = _owner_account(db, guild_id, user_id, bot_name)
                _transfer(db, escrow_id, owner_id, chips, "refund", now)
            return RecoveryReport(
                hands_refunded=tuple(hand_ids),
                tables_closed=tuple(sorted({row[2] for row in stranded})),
                chips_returned=sum(row[5] for row in stranded),
            )

        return await self._write(body)

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
        summed over all guilds; ``page`` counts from 1."""
        if by not in _LEADERBOARD_VALUES:
            raise InvalidRequest(f"A leaderboard is ordered by {', '.join(_LEADERBOARD_VALUES)}.")
        _check_id(page, "page")
        _check_id(page_size, "page size")
        if page < 1 or not 1 <= page_size <= MAX_PAGE_SIZE:
            raise InvalidRequest(f"Pages count from 1 and hold 1 to {MAX_PAGE_SIZE} rows.")
        value = _LEADERBOARD_VALUES[by]
        where = "" if guild_id is None else "WHERE p.guild_id = ?"
        params: list[int] = [] if guild_id is None else [_check_id(guild_id, "server")]
        offset = (page - 1) * page_size
        sql = (
            f"SELECT p.user_id, MAX(p.name), SUM({value}) AS value FROM players p"
            f" JOIN accounts a ON {_BALANCE_OF_PLAYER}"
            f" {where} GROUP BY p.user_id ORDER BY value DESC, p.user_id LIMIT ? OFFSET ?"
        )
        rows = await self._read(lambda db: db.execute(sql, [*params, page_size, offset]).fetchall())
        return [
            LeaderboardRow(rank=offset + i, user_id=user_id, name=name, value=total)
            for i, (user_id, name, total) in enumerate(rows, start=1)
        ]

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """A person's balance and lifetime record in a guild, or ``None`` if never seen."""
        row = await self._read(
            lambda db: db.execute(
                "SELECT p.guild_id, p.user_id, p.name, a.chips, p.hands_played, p.hands_won,"
                " p.showdowns_won, p.net_chips, p.biggest_pot, p.vpip_hands, p.pfr_hands"
                f" FROM players p JOIN accounts a ON {_BALANCE_OF_PLAYER}"
                " WHERE p.guild_id = ? AND p.user_id = ?",
                (guild_id, user_id),
            ).fetchone()
        )
        return None if row is None else PlayerStats(*row)

    async def recent_hands(self, guild_id: int, user_id: int, limit: int = 10) -> list[HandSummary]:
        """The person's latest settled hands in a guild, newest first."""
        if _check_id(limit, "limit") < 1:
            raise InvalidRequest("Ask for at least one hand.")
        rows = await self._read(
            lambda db: db.execute(
                "SELECT h.id, h.table_id, h.hand_number, h.finished_at, hp.net, hp.won"
                " FROM hand_players hp JOIN hands h ON h.id = hp.hand_id"
                " WHERE hp.user_id = ? AND hp.bot_name = '' AND h.guild_id = ?"
                " ORDER BY hp.hand_id DESC LIMIT ?",
                (user_id, guild_id, limit),
            ).fetchall()
        )
        return [
            HandSummary(hand_id, table_id, number, finished_at, net, bool(won))
            for hand_id, table_id, number, finished_at, net, won in rows
        ]

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
                    _player_key(user_id, bot_name), name, net,
                    bool(won), bool(showdown_won), bool(vpip), bool(pfr), pot_won,
                )
                for user_id, bot_name, name, net, won, showdown_won, vpip, pfr, pot_won in rows
            )  # fmt: skip
            *head, history = hand
            return HandRecord(*head, participants=participants, history_text=history)

        return await self._read(body)

    # ----------------------------------------------------------------- guild settings

    async def guild_settings(self, guild_id: int) -> dict[str, object]:
        """The table defaults a server admin saved, or ``{}``."""
        row = await self._read(
            lambda db: db.execute(
                "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
            ).fetchone()
        )
        return {} if row is None else json.loads(row[0])

    async def save_guild_settings(self, guild_id: int, settings: Mapping[str, object]) -> None:
        """Replace a server's saved table defaults (they must be JSON-serializable)."""
        _check_id(guild_id, "server")
        try:
            text = json.dumps(dict(settings), sort_keys=True)
        except (TypeError, ValueError) as error:
            raise InvalidRequest(f"Settings must be plain values: {error}") from None
        await self._write(
            lambda db: db.execute(
                "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
                (guild_id, text),
            )
        )

    # ----------------------------------------------------------------- audit

    async def audit(self) -> AuditReport:
        """Check that every account equals the sum of its entries, that all chips equal what
        was granted, and that every running hand's escrow still equals its snapshot."""
        return await self._read(_audit)


_LEADERBOARD_VALUES: dict[str, str] = {
    "balance": "a.chips",
    "net": "p.net_chips",
    "hands_won": "p.hands_won",
}

_BALANCE_OF_PLAYER = (
    "a.kind = 'balance' AND a.table_id = 0 AND a.guild_id = p.guild_id"
    " AND a.user_id = p.user_id AND a.bot_name = ''"
)


# --------------------------------------------------------------------------- SQL helpers
# Each runs on the connection's thread, inside the transaction of its caller.


def run_on_connection_thread(
    db: aiosqlite.Connection, function: Callable[..., T], *args: object
) -> Awaitable[T]:
    """Run ``function(sqlite3_connection, *args)`` as one call on aiosqlite's worker thread.

    aiosqlite has no public way to run several statements in one thread hop, so this reaches
    into its internals ``_execute`` and ``_conn`` (stable since 0.17; pyproject pins
    ``aiosqlite<0.23`` and ``test_aiosqlite_still_runs_a_function_on_its_thread`` checks them).
    This is the only place that does.
    """
    return db._execute(function, db._conn, *args)


@dataclass(frozen=True, slots=True)
class _WriteRequest:
    """A write waiting for the next transaction, and the future its caller awaits."""

    body: Callable[[sqlite3.Connection], object]
    outcome: asyncio.Future[object]


def _in_transaction(
    db: sqlite3.Connection, begin: str, body: Callable[[sqlite3.Connection], T]
) -> T:
    db.execute(begin)
    try:
        result = body(db)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return result


def _commit_batch(
    db: sqlite3.Connection, bodies: Sequence[Callable[[sqlite3.Connection], object]]
) -> list[tuple[bool, object]]:
    """Run the writes in order in one ``BEGIN IMMEDIATE`` transaction and commit; return each
    one's (succeeded, result or exception).

    The common case, where every write succeeds, runs without savepoints: a savepoint makes
    SQLite copy every page a write touches, about a fifth of a hand's cost. If a write raises,
    the transaction is rolled back and the batch replayed with each write in its own savepoint,
    so that the refused one is undone alone (the bodies only touch the database, so running
    them again is safe). If the replay's transaction itself fails (``COMMIT``, or SQLite
    dropped it), everything is rolled back and the error raised.
    """

    def every_write(db: sqlite3.Connection) -> list[tuple[bool, object]]:
        return [(True, body(db)) for body in bodies]

    try:
        return _in_transaction(db, "BEGIN IMMEDIATE", every_write)
    except Exception as error:
        if len(bodies) == 1:
            return [(False, error)]

    def each_in_a_savepoint(db: sqlite3.Connection) -> list[tuple[bool, object]]:
        return [_in_savepoint(db, body) for body in bodies]

    return _in_transaction(db, "BEGIN IMMEDIATE", each_in_a_savepoint)


def _in_savepoint(
    db: sqlite3.Connection, body: Callable[[sqlite3.Connection], object]
) -> tuple[bool, object]:
    db.execute("SAVEPOINT write")
    try:
        result = body(db)
    except Exception as error:
        if not db.in_transaction:  # SQLite rolled back the whole transaction
            raise
        db.execute("ROLLBACK TO write")
        db.execute("RELEASE write")
        return False, error
    db.execute("RELEASE write")
    return True, result


def _account(
    db: sqlite3.Connection,
    kind: str,
    guild_id: int,
    *,
    table_id: int = 0,
    user_id: int = 0,
    bot_name: str = "",
) -> tuple[int, int]:
    """The (id, chips) of an account, opening it empty if it does not exist yet."""
    (row,) = db.execute(
        "INSERT INTO accounts (kind, table_id, guild_id, user_id, bot_name)"
        " VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (kind, table_id, guild_id, user_id, bot_name) DO UPDATE SET chips = chips"
        " RETURNING id, chips",
        (kind, table_id, guild_id, user_id, bot_name),
    ).fetchall()
    return row


def _person_account(db: sqlite3.Connection, guild_id: int, user_id: int) -> tuple[int, int]:
    """The (id, chips) of a known person's balance; ``UnknownPlayer`` otherwise."""
    row = db.execute(
        "SELECT id, chips FROM accounts WHERE kind = 'balance' AND table_id = 0"
        " AND guild_id = ? AND user_id = ? AND bot_name = ''",
        (guild_id, user_id),
    ).fetchone()
    if row is None:
        raise UnknownPlayer(guild_id, user_id)
    return row


def _owner_account(db: sqlite3.Connection, guild_id: int, user_id: int, bot_name: str) -> int:
    """Where a stack goes when it leaves the table: the person's balance or the house."""
    if bot_name:
        return _account(db, "house", guild_id)[0]
    return _account(db, "balance", guild_id, user_id=user_id)[0]


def _credit(
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
    ((chips,),) = db.execute(
        "UPDATE accounts SET chips = chips + ? WHERE id = ? RETURNING chips", (amount, account_id)
    ).fetchall()
    return chips


def _transfer(
    db: sqlite3.Connection, source_id: int, target_id: int, amount: int, reason: str, now: float
) -> None:
    """Move chips between two accounts: two entries that sum to zero."""
    moves = [(-amount, source_id), (amount, target_id)]
    db.executemany("UPDATE accounts SET chips = chips + ? WHERE id = ?", moves)
    db.executemany(
        "INSERT INTO entries (account_id, delta, reason, created_at) VALUES (?, ?, ?, ?)",
        [(account_id, delta, reason, now) for delta, account_id in moves],
    )


def _refuse_if_in_hand(db: sqlite3.Connection, table_id: int, escrow_id: int) -> None:
    row = db.execute(
        "SELECT 1 FROM hands h JOIN hand_stacks s ON s.hand_id = h.id AND s.account_id = ?"
        " WHERE h.table_id = ? AND h.status = 'running'",
        (escrow_id, table_id),
    ).fetchone()
    if row is not None:
        raise HandInProgress("move these chips")


Holdings = dict[tuple[int, str], tuple[int, int]]
"""Chips by holder (user_id, bot_name): (account id, chips)."""


def _stack_mismatch(
    db: sqlite3.Connection, guild_id: int, table_id: int, wanted: Mapping[tuple[int, str], int]
) -> UnbalancedHand:
    """Name the first stack of a hand being begun that its escrow does not hold."""
    rows = db.execute(
        "SELECT user_id, bot_name, chips FROM accounts"
        " WHERE kind = 'escrow' AND table_id = ? AND guild_id = ?",
        (table_id, guild_id),
    )
    held = {(user_id, bot_name): chips for user_id, bot_name, chips in rows}
    holder, chips = next((h, c) for h, c in wanted.items() if held.get(h) != c)
    return UnbalancedHand(
        f"{_player_key(*holder)!r} holds {held.get(holder, 0):,} chips at this table,"
        f" not {chips:,}."
    )


def _snapshot(db: sqlite3.Connection, hand_id: int) -> Holdings:
    """Each holder's start-of-hand chips in a hand."""
    rows = db.execute(
        "SELECT a.user_id, a.bot_name, a.id, s.chips FROM hand_stacks s"
        " JOIN accounts a ON a.id = s.account_id WHERE s.hand_id = ?",
        (hand_id,),
    )
    return {
        (user_id, bot_name): (account_id, chips) for user_id, bot_name, account_id, chips in rows
    }


def _close_refunded(db: sqlite3.Connection, hand_ids: Sequence[int], now: float) -> None:
    db.executemany(
        "UPDATE hands SET status = 'refunded', finished_at = ? WHERE id = ?",
        [(now, hand_id) for hand_id in hand_ids],
    )


def _check_settlement(
    start: Holdings,
    final: Mapping[tuple[int, str], int],
    participants: Mapping[tuple[int, str], HandParticipant],
) -> None:
    """Refuse a settlement that would create or lose chips or misreport a player's result."""
    if set(final) != set(start) or set(participants) != set(start):
        raise UnbalancedHand("The final stacks and participants must be the hand's players.")
    if sum(final.values()) != sum(chips for _, chips in start.values()):
        raise UnbalancedHand("The final stacks do not add up to the chips in the hand.")
    for holder, participant in participants.items():
        if participant.net != final[holder] - start[holder][1]:
            raise UnbalancedHand(f"{participant.name}'s net result does not match their stacks.")


def _audit(db: sqlite3.Connection) -> AuditReport:
    problems = [
        f"{kind} account {account_id} holds {chips} but its entries sum to {total}"
        for account_id, kind, chips, total in db.execute(
            "SELECT a.id, a.kind, a.chips, COALESCE(e.total, 0) FROM accounts a"
            " LEFT JOIN (SELECT account_id, SUM(delta) AS total FROM entries"
            " GROUP BY account_id) e ON e.account_id = a.id"
            " WHERE a.chips <> COALESCE(e.total, 0)"
        )
    ]
    problems += [
        f"running hand {hand_id}: account {account_id} holds {chips}, its snapshot {snapshot}"
        for hand_id, account_id, snapshot, chips in db.execute(
            "SELECT s.hand_id, s.account_id, s.chips, a.chips FROM hand_stacks s"
            " JOIN hands h ON h.id = s.hand_id JOIN accounts a ON a.id = s.account_id"
            " WHERE h.status = 'running' AND a.chips <> s.chips"
        )
    ]
    (granted,) = db.execute(
        "SELECT COALESCE(SUM(delta), 0) FROM entries"
        f" WHERE reason IN ({', '.join('?' * len(GRANT_REASONS))})",
        GRANT_REASONS,
    ).fetchone()
    held = dict(db.execute("SELECT kind, SUM(chips) FROM accounts GROUP BY kind"))
    totals = LedgerTotals(
        granted=granted,
        balances=held.get("balance", 0),
        house=held.get("house", 0),
        escrow=held.get("escrow", 0),
    )
    held_total = totals.balances + totals.house + totals.escrow
    if held_total != granted:
        problems.append(f"accounts hold {held_total} chips but {granted} were granted")
    return AuditReport(ok=not problems, problems=tuple(problems), totals=totals)


# --------------------------------------------------------------------------- schema


def _prepare(db: sqlite3.Connection, migrations: Path) -> None:
    """Set the connection's pragmas, then apply the numbered ``NNN_name.sql`` files above the
    recorded schema version, in order, each in its own transaction."""
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA foreign_keys = ON")
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    db.execute(
        "CREATE TABLE IF NOT EXISTS schema_version"
        " (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    (current,) = db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
    for version, path in _migration_files(migrations):
        if version > current:
            _in_transaction(db, "BEGIN IMMEDIATE", _migration(version, path))


def _migration(version: int, path: Path) -> Callable[[sqlite3.Connection], None]:
    def apply(db: sqlite3.Connection) -> None:
        for statement in _statements(path.read_text(encoding="utf-8")):
            db.execute(statement)
        db.execute(
            "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
            (version, path.name, time.time()),
        )

    return apply


def _migration_files(directory: Path) -> list[tuple[int, Path]]:
    files = []
    for path in directory.glob("*.sql"):
        number, _, _ = path.name.partition("_")
        if not number.isdigit():
            raise LedgerError(f"Migration {path.name} must start with its number, like 001_.")
        files.append((int(number), path))
    files.sort()
    versions = [version for version, _ in files]
    if len(set(versions)) != len(versions):
        raise LedgerError("Two migrations share a number.")
    return files


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

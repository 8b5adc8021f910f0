"""Tournaments: registration, the start, levels, busts, balancing, payouts, cancellation.

``TournamentManager`` (``TableManager.tournaments``) is what front ends call. A tournament's
life:

- **registering**: ``create`` records it in the ledger; ``join`` moves the buy-in from the
  person's balance into the tournament's escrow (``leave`` refunds it). It starts when its
  creator says so (``start``) or by itself when the last place is taken; bots of
  ``settings.bot_fill`` then fill the empty places, registered and paid by the house.
- **running**: every entrant gets ``starting_stack`` play chips (``TournamentChips``, in
  memory: the real chips stay in the ledger's escrow). ``ceil(n / seats)`` tables open, the
  first in the creation channel when it has no table (else, like the others, in a channel
  the front end opens: ``Notifier.open_tournament_table``), and the players are seated at
  random. With ``settings.late_registration`` (a number of levels), ``join`` still takes
  players until the end of that level: their buy-in joins the pool, they enter the standings
  (``Standings.enter``: the players already out move one place down) and sit down with the
  starting stack at the table with the fewest players. Tables are ordinary ``Table``s in
  ``TableManager``, so ``act``, ``sit_out``, ``state`` … work there as at any table;
  cash-table requests are refused there.
- Between two hands at a table (its runner calls the ``TournamentHooks``): the blinds of the
  level being played are set before each deal, never mid-hand. Levels count minutes since the
  start, or hands: the hands dealt at the table that has dealt the most (for a sit-and-go,
  simply its hands). After each hand the players it busted are placed (``Standings.bust``:
  more chips at the start of the hand places higher, equal chips share), then the tables are
  balanced (``engine.balancing.plan_moves``: tables break as the field shrinks, the player who
  would next be in the big blind moves from the biggest table). A move takes a player off a
  table only between that table's hands: a move whose player is in a hand now waits for the
  next plan, made after the next hand at any table. A moved player keeps their stack.
- **finished**: when one player is left, the prizes (``prize_amounts`` of the pool, shared by
  ``Standings.payouts``) are paid from the escrow in one ledger transaction, every place
  recorded, and the tables close.
- **cancelled**: ``cancel``, a start that fails, a payout the ledger refuses, or a table
  whose channel or thread is gone when its players cannot sit down again (``table_gone``)
  stop it (``_stop``), refund every buy-in and close its tables; a ledger failing then leaves
  the refund to the ledger's ``recover()`` at the next start. Tournament play chips are never
  paid by count.
- **across a restart** (once ``resume`` ran at start-up, as the bot does): a running
  tournament saves its state (``bot.tables.tournament_state``) at each table's hand
  boundary and when seats change; a stop or a crash voids the hands in progress, and the
  next start's ``resume`` seats everyone as saved, at the same level with the play time or
  hands left of it, and plays on. Registering tournaments stay registering. One whose state
  cannot be restored (none saved yet, unreadable, not adding up, a channel taken) is
  refunded at the start. Without ``resume`` (the terminal) a shutdown refunds them.

Rebuys, add-on, re-entry (``settings.rebuys``, ``addon``, ``reentry``): every purchase is one
ledger transaction into the escrow, so the pool (``_Tournament.pool``) counts them all.

- **rebuy** (``rebuy``): the buy-in for the starting stack, while the level played is one of
  the first ``rebuy_levels``, for a player at or below the starting stack or knocked out,
  ``rebuys`` times at most. Chips bought during the player's hand are added when it ends.
- **knocked out with a way back** (a rebuy left in the rebuy period, or re-entry during late
  registration): the player is not placed yet. They decide within ``decision_seconds``
  (their clock starts again after a restart), or before the period ends, whichever is first;
  declining (``decline``), or letting it pass, places them then, with the chips they had at
  the start of the hand that knocked them out. A table left with one player waits for them.
- **add-on** (``addon``): once per player still in, at ``addon_price`` for ``addon_chips``,
  during the level after the rebuy period; everyone still in is told when it opens.
- **re-entry** (``join`` again): a knocked-out player deciding may enter again while late
  registration is open: a new entry in the pool (the buy-in, the starting stack); they keep
  one place in the standings, their last entry's.
- **bots** rebuy whenever they are knocked out with a rebuy allowed, and take the add-on when
  it opens, paid by the house; they never re-enter.

Scheduled tournaments (``create(starts_at=…)``): registration is open from the creation; the
players are reminded once ``reminder_seconds`` before the start (``TournamentStatus.remind``);
at ``starts_at`` it starts by itself with at least two entrants (bots of ``bot_fill``
included), or it is cancelled and refunded. The schedule is in the ledger: ``resume`` arms
the timers again (a start missed while stopped happens at once).

Rules at the tables: nobody leaves with chips (``NoLeavingTournament``); players who sit out
(or time out twice) are still dealt in, post blinds and antes, and check or fold at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import math
import random
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from bot.errors import HoldemError
from bot.i18n import tr
from bot.ledger import (
    AlreadyRegistered,
    LedgerUnavailable,
    NotRegistered,
    PlayerKey,
    SavedTournament,
    TournamentNotOpen,
)
from bot.shards import ShardSet
from bot.tables.bot_worker import BotWorker
from bot.tables.bots import Bot
from bot.tables.errors import (
    LateRegistrationClosed,
    NoLeavingTournament,
    NoSuchTournament,
    NotEnoughEntrants,
    NotOurServer,
    NotTournamentCreator,
    TableClosed,
    TableError,
    TournamentFull,
    TournamentTablesUnavailable,
)
from bot.tables.ledger_port import TableLedger, TournamentLedger
from bot.tables.notifier import Notifier
from bot.tables.saved_state import SavedSeat, SavedTableState, UnreadableState
from bot.tables.seats import Seat
from bot.tables.settings import TableSettings
from bot.tables.table import Table, TournamentHooks
from bot.tables.tournament_chips import TournamentChips
from bot.tables.tournament_settings import TournamentSettings
from bot.tables.tournament_state import (
    Event,
    KeptSeat,
    KeptTable,
    SavedEntrant,
    SavedTournamentState,
)
from bot.tables.tournament_status import (
    OFFERS,
    EntrantStatus,
    PlayerMoved,
    Purchase,
    TournamentPhase,
    TournamentResults,
    TournamentStatus,
)
from engine.balancing import plan_moves
from engine.blinds import BlindSchedule, LevelUnit
from engine.payouts import Standings, prize_amounts
from engine.strategies.names import pick_bot_name

log = logging.getLogger(__name__)

_T = TypeVar("_T")

DECISION_SECONDS = 60.0
"""How long a knocked-out player may take to rebuy or enter again: long enough to read the
note and press a button, short enough that a heads-up table does not wait long."""
REMINDER_SECONDS = 300.0
"""How long before a scheduled start its players are reminded."""

FINISH_RETRIES = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0)
"""Seconds between attempts to pay a finished tournament while the ledger fails; after the
last one it is left to the ledger's recovery (which refunds the buy-ins) at the next start."""


class TableHost(Protocol):
    """Where tournament tables live: ``TableManager`` (so that requests reach them by
    channel like any table's)."""

    def owns_guild(self, guild_id: int) -> bool:
        """True when this process runs the guild's tables."""
        ...

    def channel_is_free(self, channel_id: int) -> bool:
        """True when the channel has no table."""
        ...

    def offline_seconds(self, guild_id: int) -> float:
        """Seconds the guild's gateway was down since this process started (growing during
        an outage): a level clock does not count them."""
        ...

    async def guild_settings(self, guild_id: int) -> TableSettings:
        """The server's table settings (clocks, language) tournament tables start from."""
        ...

    def host_tournament_table(
        self, guild_id: int, channel_id: int, settings: TableSettings, chips: TableLedger,
        hooks: TournamentHooks,
    ) -> Table:
        """Create a tournament table (not started yet) and make it the channel's table."""
        ...

    async def release_tournament_table(self, table: Table) -> None:
        """Close a tournament table and forget it (the front end hears ``table_closed``)."""
        ...


@dataclass(frozen=True, slots=True)
class ResumedTournaments:
    """What ``TournamentManager.resume`` did at start-up."""

    resumed: tuple[int, ...]
    """Opened again (registering, or running from their saved state)."""
    refunded: tuple[int, ...]
    """Cancelled with refunds: their state could not be restored."""


class PurchaseRefused(TableError):
    """A rebuy, add-on or re-entry the rules do not allow now; the message says why."""


@dataclass(slots=True)
class _Entrant:
    player: PlayerKey
    name: str
    user_id: int | None
    bot_level: str | None
    bot: Bot | None = None
    rebuys: int = 0
    addon: bool = False
    reentries: int = 0


class _Tournament:
    """One tournament's state in this process; its tables call it between hands."""

    def __init__(self, manager: TournamentManager, tournament_id: int, guild_id: int,
                 channel_id: int, creator_id: int, settings: TournamentSettings) -> None:
        self.manager = manager
        self.id = tournament_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.creator_id = creator_id
        self.settings = settings
        self.schedule: BlindSchedule = settings.schedule()
        self.phase = TournamentPhase.REGISTERING
        self.entrants: dict[PlayerKey, _Entrant] = {}
        self.lock = asyncio.Lock()
        self.chips: TournamentChips | None = None
        self.tables: dict[int, Table] = {}
        self.table_settings: TableSettings | None = None
        """The settings its tables open with (known from the start)."""
        self.standings: Standings[PlayerKey] | None = None
        self.percents: tuple[int, ...] = ()
        self.prizes: dict[PlayerKey, int] = {}
        self.started_at: float | None = None
        self.finished_at: float | None = None
        self.hands = 0
        self.level_index = 0
        self.field: tuple[PlayerKey, ...] = ()
        """The players seated at the start, in the standings' order."""
        self.events: list[Event] = []
        """The busts and late entries since then: the standings replay from them."""
        self.played_before = 0.0
        """Play time (seconds) of the processes before this one (levels by minutes)."""
        self.playing_since: float | None = None
        """When this process started the level clock (``None`` while it is stopped)."""
        self.offline_at = 0.0
        """The guild's offline seconds (``TableHost.offline_seconds``) when it started."""
        self.kept_tables: dict[int, KeptTable] = {}
        self.kept_seats: dict[PlayerKey, KeptSeat] = {}
        """Each table and player as of that table's last hand boundary: what is saved."""
        self.resumed = False
        """True when it was opened again after a restart (its board was shown before)."""
        self.deciding: dict[PlayerKey, int] = {}
        """Knocked out with a way back, not placed yet: their chips at the start of the hand
        that knocked them out."""
        self.pending: dict[PlayerKey, int] = {}
        """Chips bought during the player's hand, added to their stack when it ends."""
        self.timers: dict[PlayerKey | None, asyncio.TimerHandle] = {}
        """The deciding players' deadlines; ``None``: the next scheduled step."""
        self.starts_at: float | None = None
        self.event_id: int | None = None
        self.reminded = False

    @property
    def pool(self) -> int:
        """Every chip paid in: the buy-in for each entry, rebuy and re-entry, the add-ons."""
        bought = sum(1 + e.rebuys + e.reentries for e in self.entrants.values())
        addons = sum(e.addon for e in self.entrants.values())
        return self.settings.buy_in * bought + (self.settings.addon_price or 0) * addons

    def issued(self) -> int:
        """Every play chip its entrants were given (``TournamentChips.total`` with the
        pending chips)."""
        settings = self.settings
        entries = sum(1 + e.rebuys + e.reentries for e in self.entrants.values())
        addons = sum(e.addon for e in self.entrants.values())
        return settings.starting_stack * entries + (settings.addon_chips or 0) * addons

    def level_played(self) -> int:
        """The level being played, or due to begin with the next deal."""
        return max(self.level_index, self._level_now())

    def rebuy_period(self) -> bool:
        """True while rebuys are sold."""
        return bool(self.settings.rebuys) and self.level_played() < self.settings.rebuy_levels

    def addon_period(self) -> bool:
        """True during the level after the rebuy period, when add-ons are sold."""
        return self.settings.addon and self.level_played() == self.settings.rebuy_levels

    def reentry_open(self) -> bool:
        """True while a knocked-out player may enter again (late registration)."""
        return self.settings.reentry and self.level_played() < self.settings.late_registration

    def way_back(self, player: PlayerKey) -> tuple[Purchase, ...]:
        """What a knocked-out ``player`` may buy to play on now."""
        entrant = self.entrants[player]
        ways = []
        if entrant.rebuys < self.settings.rebuys and self.rebuy_period():
            ways.append(Purchase.REBUY)
        if self.reentry_open() and entrant.user_id is not None:
            ways.append(Purchase.REENTRY)
        return tuple(ways)

    def cancel_timers(self) -> None:
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()

    # -- TournamentHooks ---------------------------------------------------------------------

    async def before_deal(self, table: Table) -> None:
        if self.phase is not TournamentPhase.RUNNING:
            return
        index = self._level_now()
        if index > self.level_index:
            self.level_index = index
            self.manager._in_background(self.manager._level_began(self))
        level = self.schedule.level(self.level_index)
        table.set_blinds(level.small_blind, level.big_blind, level.ante)
        for player, chips in list(self.pending.items()):
            if self.chips is not None and self.chips.table_of(player) == table.channel_id \
                    and await table.add_chips(player, chips):
                del self.pending[player]

    async def after_hand(self, table: Table, busted: Sequence[tuple[Seat, int]]) -> None:
        try:
            async with self.lock:
                await self.manager._after_hand(self, table, busted)
        except Exception:
            log.exception("tournament %s: the work after a hand at table %s failed",
                          self.id, table.channel_id)

    def moved_to(self, user_id: int) -> int | None:
        return self.chips.table_of(user_id) if self.chips is not None else None

    def _level_now(self) -> int:
        if self.schedule.unit is LevelUnit.HANDS:
            return self.schedule.level_index(hands=self.hands)
        return self.schedule.level_index(minutes=self.played_seconds() / 60.0)

    def played_seconds(self) -> float:
        """Play time since the start: levels by minutes count it, so the time the process
        was stopped never shortens a level."""
        if self.playing_since is None:
            return self.played_before
        offline = self.manager.offline_seconds(self.guild_id) - self.offline_at
        return self.played_before + max(0.0, self.manager.clock() - self.playing_since - offline)

    def play_began_at(self) -> float:
        """The clock time the play time counts from (so a level ends at this plus its
        minutes); with the clock running it does not depend on the time now, so two statuses
        of an unchanged tournament are equal."""
        now = self.manager.clock()
        if self.playing_since is None:
            return now - self.played_before
        offline = self.manager.offline_seconds(self.guild_id) - self.offline_at
        return min(now, self.playing_since + offline) - self.played_before

    def start_clock(self) -> None:
        """Run the level clock from now (at the start, or when resumed)."""
        self.playing_since = self.manager.clock()
        self.offline_at = self.manager.offline_seconds(self.guild_id)

    def keep_table(self, table: Table) -> None:
        """``table`` is at a hand boundary: keep its button, its count of hands and its
        players' seats and stacks (the busted, stackless, are left out: they are placed)."""
        assert self.chips is not None
        channel = table.channel_id
        self.kept_tables[channel] = KeptTable(channel, table.button, table.hands_dealt)
        for player in [p for p, seat in self.kept_seats.items() if seat.channel_id == channel]:
            del self.kept_seats[player]
        for seat in table.state().seats:
            key: PlayerKey = seat.user_id if seat.user_id is not None else seat.name
            stack = self.chips.stack(key)
            if stack > 0:
                self.kept_seats[key] = KeptSeat(key, channel, seat.seat, stack, seat.sitting_out)

    def keep_seat(self, player: PlayerKey, table: Table, stack: int) -> None:
        """``player`` sat down at ``table`` with ``stack`` (seated, moved, or late)."""
        seat = next(seat for seat in table.state().seats
                    if (seat.user_id if seat.user_id is not None else seat.name) == player)
        self.kept_seats[player] = KeptSeat(player, table.channel_id, seat.seat, stack,
                                           seat.sitting_out)

    def saved_state(self) -> SavedTournamentState:
        """What is saved: the tables and players as kept, the standings and levels now."""
        assert self.table_settings is not None and self.started_at is not None
        return SavedTournamentState(
            entrants=tuple(SavedEntrant(e.player, e.name, e.bot_level, e.rebuys, e.addon,
                                        e.reentries) for e in self.entrants.values()),
            field=self.field, events=tuple(self.events), percents=self.percents,
            level_index=self.level_index, hands=self.hands,
            played_seconds=self.played_seconds(), started_at=self.started_at,
            table_settings=self.table_settings, tables=tuple(self.kept_tables.values()),
            seats=tuple(self.kept_seats.values()), deciding=tuple(self.deciding.items()),
            pending=tuple(self.pending.items()))


class TournamentManager:
    """Every tournament of the process. Front ends call it through ``TableManager.tournaments``.

    Every request a person makes raises a ``HoldemError`` (a ``TableError`` subclass, or the
    ledger's refusal) for what it refuses, with a sentence to show them, and nothing changed;
    ``LedgerUnavailable`` while the ledger fails. ``rng`` seats players and names bots;
    ``clock`` (``time.time`` by default) times levels by minutes and scheduled starts;
    ``decision_seconds`` and ``reminder_seconds``: see the module's docstring.
    """

    def __init__(
        self,
        ledger: TournamentLedger,
        notifier: Notifier,
        host: TableHost,
        *,
        rng: random.Random | None = None,
        bot_worker: BotWorker | None = None,
        clock: Callable[[], float] = time.time,
        decision_seconds: float = DECISION_SECONDS,
        reminder_seconds: float = REMINDER_SECONDS,
    ) -> None:
        self._ledger = ledger
        self._notifier = notifier
        self._host = host
        self._rng = rng if rng is not None else random.Random()
        self._bot_worker = bot_worker
        self.clock = clock
        self.decision_seconds = decision_seconds
        self.reminder_seconds = reminder_seconds
        self._tournaments: dict[int, _Tournament] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._fenced = False
        self._keeping = False
        """Set by ``resume``: tournaments are kept across restarts (states saved, none
        refunded at shutdown); without it, as nothing would open them again, a shutdown
        refunds them."""

    def offline_seconds(self, guild_id: int) -> float:
        """The guild's gateway down time so far (``TableHost.offline_seconds``)."""
        return self._host.offline_seconds(guild_id)

    # -- requests ----------------------------------------------------------------------------

    async def create(self, guild_id: int, channel_id: int, creator_id: int,
                     settings: TournamentSettings, starts_at: float | None = None) -> int:
        """Record a new tournament, open for registration, created in ``channel_id``; returns
        its id. With ``starts_at`` (a ``clock`` time) it starts by itself then (see the
        module's docstring). ``NotOurServer`` for a server another process runs."""
        if not isinstance(settings, TournamentSettings):
            raise TypeError("settings must be TournamentSettings")
        if not self._host.owns_guild(guild_id):
            raise NotOurServer()
        tournament_id = await self._call(self._ledger.create_tournament(
            guild_id, channel_id, creator_id, settings.buy_in, settings.to_mapping(),
            addon_price=settings.addon_price or 0, starts_at=starts_at))
        tournament = _Tournament(self, tournament_id, guild_id, channel_id, creator_id, settings)
        tournament.starts_at = starts_at
        self._tournaments[tournament_id] = tournament
        self._arm(tournament)
        await self._changed(tournament)
        return tournament_id

    async def set_event(self, tournament_id: int, event_id: int) -> None:
        """Keep the front end's announcement of a scheduled tournament (a Discord Scheduled
        Event) with it, in the ledger."""
        tournament = self._get(tournament_id)
        await self._call(self._ledger.set_tournament_event(tournament_id, event_id))
        tournament.event_id = event_id
        await self._changed(tournament)

    async def rebuy(self, tournament_id: int, user_id: int) -> int:
        """Rebuy: the buy-in from the person's balance for the starting stack (see the
        module's docstring for when); their rebuys so far. Refusals: ``NoSuchTournament``,
        ``NotRegistered``, ``PurchaseRefused``, the ledger's ``InsufficientChips``."""
        return await self._buy(tournament_id, user_id, Purchase.REBUY)

    async def addon(self, tournament_id: int, user_id: int) -> int:
        """Take the add-on: its price for its chips, once, in the level after the rebuy
        period. Refusals as ``rebuy``."""
        return await self._buy(tournament_id, user_id, Purchase.ADDON)

    async def decline(self, tournament_id: int, user_id: int) -> None:
        """A knocked-out person deciding takes their place now instead of buying back in.
        ``PurchaseRefused`` for anyone not deciding."""
        tournament = self._get(tournament_id)
        async with tournament.lock:
            if user_id not in tournament.deciding:
                raise PurchaseRefused(tr("You have nothing to decide in this tournament."))
            await self._place_deciding(tournament, [user_id])

    async def join(self, tournament_id: int, user_id: int, name: str) -> int:
        """Register a person: the buy-in moves from their balance into the tournament's
        escrow. Returns the number of entrants. Starts the tournament when this took the last
        place. While late registration is open (a running tournament), the player is seated
        at once with the starting stack; a knocked-out player deciding enters again (a
        re-entry, when the settings offer it). Refusals: ``NoSuchTournament``,
        ``TournamentNotOpen``, ``LateRegistrationClosed``, ``AlreadyRegistered``,
        ``TournamentFull``, the ledger's ``InsufficientChips``."""
        tournament = self._get(tournament_id)
        if user_id in tournament.deciding:
            await self._buy(tournament_id, user_id, Purchase.REENTRY)
            return len(tournament.entrants)
        async with tournament.lock:
            late = tournament.phase is TournamentPhase.RUNNING
            if late:
                self._require_late_registration(tournament)
            else:
                self._require_registering(tournament)
            if user_id in tournament.entrants:
                raise AlreadyRegistered()
            limit = tournament.settings.entrant_limit
            if len(tournament.entrants) >= limit:
                raise TournamentFull(limit)
            table = self._late_table(tournament) if late else None
            await self._call(self._ledger.ensure_player(tournament.guild_id, user_id, name))
            await self._call(self._ledger.register_tournament(tournament_id, user_id))
            entrant = _Entrant(user_id, name, user_id, None)
            tournament.entrants[user_id] = entrant
            count = len(tournament.entrants)
            if table is not None:
                await self._seat_late(tournament, entrant, table)
            full = count >= limit and not late
            if full:
                try:
                    await self._start(tournament, None)
                except HoldemError as error:
                    log.warning("tournament %s is full but did not start: %s",
                                tournament_id, error)
        if not full or tournament.phase is not TournamentPhase.RUNNING:
            await self._changed(tournament)
        return count

    async def leave(self, tournament_id: int, user_id: int) -> None:
        """Unregister before the start (the buy-in is refunded). After the start a player
        still in gets ``NoLeavingTournament``; ``NotRegistered`` for someone not
        registered."""
        tournament = self._get(tournament_id)
        async with tournament.lock:
            if tournament.phase is TournamentPhase.RUNNING:
                standings = tournament.standings
                if standings is not None and user_id in standings.remaining:
                    raise NoLeavingTournament()
                if user_id in tournament.entrants:
                    raise TournamentNotOpen(tournament.phase.value)
                raise NotRegistered()
            self._require_registering(tournament)
            if user_id not in tournament.entrants:
                raise NotRegistered()
            await self._call(self._ledger.unregister_tournament(tournament_id, user_id))
            del tournament.entrants[user_id]
        await self._changed(tournament)

    async def start(self, tournament_id: int, by_user: int | None) -> None:
        """Start now: bots fill the empty places if the settings say so, then players are
        seated at random. ``by_user`` must be the creator (``None``: the server, or a
        manager the front end has checked). Refusals: ``NotTournamentCreator``,
        ``TournamentNotOpen``, ``NotEnoughEntrants``, ``InvalidTournamentSettings`` (more
        places paid than players), ``TournamentTablesUnavailable``; nothing changed then."""
        tournament = self._get(tournament_id)
        async with tournament.lock:
            await self._start(tournament, by_user)

    async def cancel(self, tournament_id: int) -> None:
        """Stop the tournament and refund every buy-in (registering or running; its tables
        close). ``TournamentNotOpen`` once it is finished or cancelled. The front end checks
        who may cancel."""
        tournament = self._get(tournament_id)
        async with tournament.lock:
            if tournament.phase in (TournamentPhase.FINISHED, TournamentPhase.CANCELLED):
                raise TournamentNotOpen(tournament.phase.value)
            await self._call(self._ledger.cancel_tournament(tournament_id))
            tables = self._stop(tournament)
        await self._release(tournament, tables)

    async def table_gone(self, table: Table) -> None:
        """A tournament table's channel or thread is gone (the host closed the table: its hand
        refunded, its players holding their stacks off the table). They sit down with their
        stacks at the tournament's other tables, or at a new one when those lack the seats;
        when no table can be opened, the tournament is cancelled and every buy-in refunded
        (by the ledger's recovery at the next start if the ledger fails now)."""
        tournament = next((t for t in self._tournaments.values()
                           if t.tables.get(table.channel_id) is table), None)
        if tournament is None:
            return
        async with tournament.lock:
            if tournament.tables.pop(table.channel_id, None) is not table:
                return
            tournament.kept_tables.pop(table.channel_id, None)
            chips, standings = tournament.chips, tournament.standings
            assert chips is not None and standings is not None
            unseated = [player for player in standings.remaining if chips.table_of(player) is None]
            try:
                if table.channel_id == tournament.channel_id:
                    raise TournamentTablesUnavailable()  # its threads are gone with it
                if len(unseated) > sum(other.free_seats() for other in tournament.tables.values()):
                    self._host_table(tournament, (await self._open_channels(
                        tournament, 1, numbered_from=len(tournament.tables) + 1))[0]).start()
                for player in unseated:
                    await self._seat_moved(tournament, player, chips.stack(player),
                                           table.channel_id, self._late_table(tournament),
                                           table_broken=True)
            except HoldemError:
                log.warning("tournament %s: the players of its table %s could not sit down "
                            "again; cancelling it", tournament.id, table.channel_id)
            else:
                await self._save(tournament)
                if unseated:
                    await self._changed(tournament)
                return
            tables = self._stop(tournament)
            await self._refund(tournament)
        await self._release(tournament, tables)

    # -- reading -----------------------------------------------------------------------------

    def status(self, tournament_id: int) -> TournamentStatus:
        """The tournament now (``NoSuchTournament`` if unknown)."""
        return self._status(self._get(tournament_id))

    def tournaments(self, guild_id: int) -> list[TournamentStatus]:
        """The server's tournaments that are registering or running, oldest first."""
        return [self._status(t) for t in self._tournaments.values()
                if t.guild_id == guild_id
                and t.phase in (TournamentPhase.REGISTERING, TournamentPhase.RUNNING)]

    def in_channel(self, channel_id: int) -> int | None:
        """The tournament created in ``channel_id`` or playing a table there, if one is
        registering or running (the newest)."""
        found: int | None = None
        for tournament in self._tournaments.values():
            if tournament.phase not in (TournamentPhase.REGISTERING, TournamentPhase.RUNNING):
                continue
            if tournament.channel_id == channel_id or channel_id in tournament.tables:
                found = tournament.id
        return found

    def table_channels(self, tournament_id: int) -> tuple[int, ...]:
        """The channels of the tournament's tables playing now."""
        return tuple(self._get(tournament_id).tables)

    async def wait_until_done(self) -> None:
        """Wait for the background work started so far (tables closing, a payout retried):
        for tests."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    # -- life cycle --------------------------------------------------------------------------

    def fence(self) -> None:
        """Another process owns these guilds now: touch the ledger no more."""
        self._fenced = True

    async def shutdown(self) -> None:
        """The process stops. After ``resume`` every tournament is kept for the next start,
        nothing refunded: a running one's tables stop (a hand in progress is void: it deals
        again from its start), its state is saved with the level's play time now, and its
        tables' front end hears that they are paused. Else every tournament registering or
        running is refunded. Fenced, nothing is written: the process that took the guilds
        over resumes them from their last saved state (or refunds them)."""
        for tournament in self._tournaments.values():
            tournament.cancel_timers()
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*list(self._background), return_exceptions=True)
        for tournament in list(self._tournaments.values()):
            if tournament.phase not in (TournamentPhase.REGISTERING, TournamentPhase.RUNNING):
                continue
            if not self._keeping:
                self._stop(tournament)
                await self._refund(tournament)
                await self._changed(tournament)
            elif tournament.phase is TournamentPhase.RUNNING:
                await self._pause(tournament)

    async def _pause(self, tournament: _Tournament) -> None:
        """Stop a running tournament's tables and clock for the next start (``shutdown``)."""
        tables = list(tournament.tables.values())
        for table in tables:  # not under the lock: a runner may wait for it
            await table.suspend()
        async with tournament.lock:
            await self._save(tournament)
            tournament.played_before = tournament.played_seconds()
            tournament.playing_since = None
        for table in tables:
            await self._deliver(self._notifier.table_paused, table.channel_id)

    async def resume(self, shards: ShardSet | None = None) -> ResumedTournaments:
        """Open again the tournaments the ledger kept in the guilds on ``shards`` (after
        ``recover(keep_saved_tables=True)``): a registering one takes registrations again; a
        running one's tables open in their channels (their messages shown again) with the
        saved seats, stacks and buttons, at the saved level with what was left of it, and
        deal on by themselves. One whose state cannot be restored is cancelled and refunded,
        with one log line saying why (a refund the ledger fails is left to the next start)."""
        self._keeping = True
        resumed: list[int] = []
        refunded: list[int] = []
        for saved in await self._ledger.saved_tournaments(shards):
            if saved.info.id in self._tournaments:
                continue
            try:
                await self._reopen(saved)
            except (UnreadableState, HoldemError) as why:
                log.error("tournament %s cannot be restored (%s); refunding it",
                          saved.info.id, why)
                with contextlib.suppress(Exception):  # logged by _call
                    await self._call(self._ledger.cancel_tournament(saved.info.id))
                    refunded.append(saved.info.id)
                continue
            resumed.append(saved.info.id)
        if resumed:
            log.info("tournaments resumed: %s", resumed)
        return ResumedTournaments(tuple(resumed), tuple(refunded))

    # -- resuming ----------------------------------------------------------------------------

    async def _reopen(self, saved: SavedTournament) -> None:
        """Rebuild one kept tournament (see ``resume``); ``UnreadableState`` or a
        ``HoldemError`` says why it cannot be, before anything is opened."""
        info = saved.info
        settings = TournamentSettings.from_mapping(info.settings)
        tournament = _Tournament(self, info.id, info.guild_id, info.channel_id,
                                 info.creator_id, settings)
        tournament.resumed = True
        tournament.starts_at, tournament.event_id = info.starts_at, info.event_id
        tournament.reminded = info.reminded
        for player in info.entrants:
            user_id = player if isinstance(player, int) else None
            bought = info.purchases.get(player)
            tournament.entrants[player] = _Entrant(
                player, saved.names.get(player, str(player)), user_id,
                None if user_id is not None else settings.bot_fill or "medium",
                rebuys=bought.rebuys if bought else 0, addon=bool(bought and bought.addons),
                reentries=bought.reentries if bought else 0)
        if info.status == TournamentPhase.RUNNING.value:
            if saved.state is None:
                raise UnreadableState("no state was saved")
            try:
                await self._restore(tournament, SavedTournamentState.from_json(saved.state))
            except BaseException:
                for table in self._stop(tournament):
                    await self._host.release_tournament_table(table)
                raise
        self._tournaments[info.id] = tournament
        self._arm(tournament)
        await self._changed(tournament)

    async def _restore(self, tournament: _Tournament, state: SavedTournamentState) -> None:
        """Seat a running tournament's players as ``state`` kept them and start its tables.
        Entrants the ledger has but the state missed (a late registration the stop cut
        short) sit down as late entrants; purchases it missed (the ledger sold them, the stop
        came before the save) are given as pending chips. Knocked-out players deciding get
        their full time again."""
        paid = dict(tournament.entrants)
        standings = state.standings()
        saved = {entrant.player: entrant for entrant in state.entrants}
        if not saved.keys() <= paid.keys() or set(standings.players) != saved.keys():
            raise UnreadableState("its entrants are not the ledger's")
        tournament.entrants = {
            kept.player: _Entrant(kept.player, kept.name, None, kept.bot_level,
                                  rebuys=kept.rebuys, addon=kept.addon,
                                  reentries=kept.reentries) for kept in state.entrants}
        issued = tournament.issued()
        held = sum(seat.stack for seat in state.seats) + sum(c for _, c in state.pending)
        if held != issued:
            raise UnreadableState(f"its stacks do not add up to the {issued} chips issued")
        seats: dict[int, list[KeptSeat]] = {}
        for seat in state.seats:
            seats.setdefault(seat.channel_id, []).append(seat)
        busy = [channel for channel in seats if not self._host.channel_is_free(channel)]
        if busy:
            raise UnreadableState(f"channel {busy[0]} has another table")
        for entrant in tournament.entrants.values():
            entrant.user_id = entrant.player if isinstance(entrant.player, int) else None
            if entrant.bot_level is not None:
                entrant.bot = Bot(entrant.bot_level, random.Random(self._rng.getrandbits(64)))
        tournament.deciding = dict(state.deciding)
        tournament.pending = dict(state.pending)
        chips = TournamentChips(self._ledger, tournament.id)
        tournament.phase = TournamentPhase.RUNNING
        tournament.chips = chips
        tournament.percents = state.percents
        tournament.standings = standings
        tournament.field = state.field
        tournament.events = list(state.events)
        tournament.level_index = state.level_index
        tournament.hands = state.hands
        tournament.started_at = state.started_at
        tournament.played_before = state.played_seconds
        tournament.start_clock()
        level = tournament.schedule.level(state.level_index)
        tournament.table_settings = state.table_settings
        table_settings = state.table_settings.with_changes(
            small_blind=level.small_blind, big_blind=level.big_blind, ante=level.ante)
        messages = await self._call(self._ledger.table_messages(list(seats)))
        for kept_table in state.tables:
            channel = kept_table.channel_id
            if channel not in seats:
                continue  # broken: its players sat down elsewhere
            table = self._host_table(tournament, channel)
            tournament.kept_tables[channel] = kept_table
            stacks: dict[PlayerKey, int] = {}
            for seat in seats[channel]:
                chips.issue(seat.player, seat.stack)
                stacks[seat.player] = await chips.buy_in(
                    tournament.guild_id, channel, seat.player, seat.stack)
                tournament.kept_seats[seat.player] = seat
            await self._deliver(self._notifier.table_resumed, channel, messages.get(channel))
            await table.restore(SavedTableState(
                table_settings, kept_table.button, kept_table.hands_dealt,
                tuple(self._saved_seat(tournament.entrants[seat.player], seat)
                      for seat in sorted(seats[channel], key=lambda seat: seat.index))),
                stacks)
        for player in paid.keys() - saved.keys():
            entrant = tournament.entrants[player] = paid[player]
            await self._seat_late(tournament, entrant, self._late_table(tournament))
        await self._catch_up(tournament, paid)
        for player in list(tournament.deciding):
            if tournament.way_back(player):
                self._offer(tournament, player, tournament.channel_id)
            else:
                await self._place_deciding(tournament, [player])
        log.info("tournament %s: open again at level %d with %d players at %d tables",
                 tournament.id, state.level_index + 1, len(standings.remaining),
                 len(tournament.tables))

    async def _catch_up(self, tournament: _Tournament, ledger: dict[PlayerKey, _Entrant]
                        ) -> None:
        """Give the chips of purchases the ledger sold but the saved state missed."""
        settings = tournament.settings
        for player, entrant in tournament.entrants.items():
            sold = ledger.get(player, entrant)
            chips = settings.starting_stack * (sold.rebuys - entrant.rebuys
                                               + sold.reentries - entrant.reentries)
            if sold.addon and not entrant.addon:
                chips += settings.addon_chips or 0
            entrant.rebuys, entrant.reentries = sold.rebuys, sold.reentries
            entrant.addon = sold.addon
            if chips > 0:
                log.info("tournament %s: %s chips bought by %s before the stop given now",
                         tournament.id, chips, entrant.name)
                await self._give(tournament, entrant, chips)

    @staticmethod
    def _saved_seat(entrant: _Entrant, seat: KeptSeat) -> SavedSeat:
        """A kept seat as a table restores it (no count of hands or timeouts: a tournament
        seat is dealt in whatever they are)."""
        return SavedSeat(seat.index, entrant.name, entrant.user_id, entrant.bot_level,
                         seat.sitting_out, 0, 0, 0.0)

    # -- starting ----------------------------------------------------------------------------

    async def _start(self, tournament: _Tournament, by_user: int | None) -> None:
        """Start ``tournament`` (its lock held)."""
        self._require_registering(tournament)
        if by_user is not None and by_user != tournament.creator_id:
            raise NotTournamentCreator()
        settings = tournament.settings
        people = len(tournament.entrants)
        fill = settings.entrant_limit - people if settings.bot_fill is not None else 0
        field = people + fill
        if field < 2:
            raise NotEnoughEntrants(people)
        percents = settings.check_payouts(field)
        channels = await self._open_channels(tournament, math.ceil(field / settings.seats))
        try:
            bots = await self._register_bots(tournament, fill)
            try:
                order = await self._call(self._ledger.start_tournament(tournament.id))
            except BaseException:
                await self._unregister(tournament, bots)
                raise
        except BaseException:
            await self._close_channels(channels)
            raise
        try:
            await self._seat_field(tournament, order, channels, percents)
        except BaseException:
            log.exception("tournament %s could not be seated; cancelling it", tournament.id)
            tables = self._stop(tournament)
            try:
                await self._call(self._ledger.cancel_tournament(tournament.id))
            finally:
                await self._release(tournament, tables)
            raise
        await self._changed(tournament)

    def _host_table(self, tournament: _Tournament, channel: int) -> Table:
        """Make ``channel`` a table of the (started) tournament, not dealing yet."""
        assert tournament.table_settings is not None and tournament.chips is not None
        table = self._host.host_tournament_table(
            tournament.guild_id, channel, tournament.table_settings, tournament.chips,
            tournament)
        tournament.tables[channel] = table
        tournament.kept_tables[channel] = KeptTable(channel, None, 0)
        return table

    async def _open_channels(self, tournament: _Tournament, count: int, *,
                             numbered_from: int = 1) -> list[int]:
        """A channel for each table, the tables numbered from ``numbered_from``: the creation
        channel first if it has no table. ``TournamentTablesUnavailable`` when the front end
        cannot open them."""
        channels: list[int] = []
        if self._host.channel_is_free(tournament.channel_id):
            channels.append(tournament.channel_id)
        try:
            while len(channels) < count:
                channel = await self._notifier.open_tournament_table(
                    tournament.id, tournament.channel_id, numbered_from + len(channels))
                if not isinstance(channel, int) or channel in channels \
                        or not self._host.channel_is_free(channel):
                    raise RuntimeError(f"the front end opened table channel {channel!r}")
                channels.append(channel)
        except Exception as error:
            log.exception("tournament %s: the front end could not open its tables",
                          tournament.id)
            await self._close_channels(channels)
            raise TournamentTablesUnavailable() from error
        return channels

    async def _close_channels(self, channels: Sequence[int]) -> None:
        """A start failed before its tables were hosted: the front end closes (archives) what
        it opened for them."""
        for channel in channels:
            await self._deliver(self._notifier.table_closed, channel)

    async def _register_bots(self, tournament: _Tournament, count: int) -> list[_Entrant]:
        level = tournament.settings.bot_fill
        bots: list[_Entrant] = []
        if level is None or count <= 0:
            return bots
        taken = [entrant.name for entrant in tournament.entrants.values()]
        try:
            for _ in range(count):
                name = pick_bot_name(level, taken, self._rng)
                await self._call(self._ledger.register_tournament(tournament.id, name))
                taken.append(name)
                entrant = _Entrant(name, name, None, level)
                tournament.entrants[name] = entrant
                bots.append(entrant)
        except BaseException:
            await self._unregister(tournament, bots)
            raise
        return bots

    async def _unregister(self, tournament: _Tournament, bots: list[_Entrant]) -> None:
        for entrant in bots:
            try:
                await self._call(self._ledger.unregister_tournament(tournament.id,
                                                                    entrant.player))
            except Exception:
                log.exception("tournament %s: bot %s stays registered", tournament.id,
                              entrant.name)
                continue
            tournament.entrants.pop(entrant.player, None)

    async def _seat_field(self, tournament: _Tournament, order: Sequence[PlayerKey],
                          channels: list[int], percents: tuple[int, ...]) -> None:
        """Running: issue the stacks, open the tables, seat everyone at random."""
        settings = tournament.settings
        for player in order:  # the ledger's list is the truth
            if player not in tournament.entrants:
                tournament.entrants[player] = _Entrant(
                    player, str(player), player if isinstance(player, int) else None, None)
        players = list(order)
        self._rng.shuffle(players)
        chips = TournamentChips(self._ledger, tournament.id)
        level = tournament.schedule.level(0)
        base = await self._host.guild_settings(tournament.guild_id)
        table_settings = base.with_changes(
            max_seats=settings.seats, max_bots=None, small_blind=level.small_blind,
            big_blind=level.big_blind, ante=level.ante)
        tournament.phase = TournamentPhase.RUNNING
        tournament.chips = chips
        tournament.percents = percents
        tournament.standings = Standings(players)
        tournament.field = tuple(players)
        tournament.started_at = self.clock()
        tournament.start_clock()
        tournament.table_settings = table_settings
        for channel in channels:
            self._host_table(tournament, channel)
        tables = list(tournament.tables.values())
        for number, player in enumerate(players):
            entrant = tournament.entrants[player]
            if entrant.bot_level is not None:
                entrant.bot = Bot(entrant.bot_level, random.Random(self._rng.getrandbits(64)))
            chips.issue(player, settings.starting_stack)
            table = tables[number % len(tables)]
            await table.seat_player(
                entrant.user_id, entrant.name, entrant.bot, settings.starting_stack)
            tournament.keep_seat(player, table, settings.starting_stack)
        await self._save(tournament)
        for table in tables:
            table.start()

    # -- purchases and decisions -------------------------------------------------------------

    def purchases_open(self, channel_id: int,
                       user_id: int) -> tuple[int, tuple[Purchase, ...]] | None:
        """The tournament playing at ``channel_id`` and the purchases (rebuy, add-on) its
        person ``user_id`` may make there now, or ``None`` when there are none: what a front
        end offers beside their cards."""
        tournament_id = self.in_channel(channel_id)
        if tournament_id is None:
            return None
        tournament = self._tournaments[tournament_id]
        entrant = tournament.entrants.get(user_id)
        if entrant is None:
            return None
        allowed = []
        for what in (Purchase.REBUY, Purchase.ADDON):
            try:
                self._may_buy(tournament, entrant, what)
            except HoldemError:
                continue
            allowed.append(what)
        return (tournament_id, tuple(allowed)) if allowed else None

    async def _buy(self, tournament_id: int, player: PlayerKey, what: Purchase) -> int:
        """Sell ``what`` to ``player`` if the rules allow it now (the ledger takes the chips
        first), then give them its chips; how many of it they have."""
        tournament = self._get(tournament_id)
        async with tournament.lock:
            entrant = tournament.entrants.get(player)
            if entrant is None:
                raise NotRegistered()
            self._may_buy(tournament, entrant, what)
            bought = await self._pay(tournament, entrant, what)
        await self._changed(tournament)
        return bought

    def _may_buy(self, tournament: _Tournament, entrant: _Entrant, what: Purchase) -> None:
        """``PurchaseRefused`` (saying why) unless ``entrant`` may buy ``what`` now."""
        settings, standings = tournament.settings, tournament.standings
        if tournament.phase is not TournamentPhase.RUNNING or standings is None \
                or tournament.chips is None:
            raise PurchaseRefused(tr("Rebuys, add-ons and re-entries are sold while the "
                                     "tournament is running."))
        player = entrant.player
        if player not in standings.remaining:
            raise PurchaseRefused(tr("You are out of this tournament."))
        deciding = player in tournament.deciding
        if what is Purchase.REBUY:
            if not settings.rebuys:
                raise PurchaseRefused(tr("This tournament has no rebuys."))
            if not tournament.rebuy_period():
                raise PurchaseRefused(tr("The rebuy period ended with level {level}.",
                                         level=settings.rebuy_levels))
            if entrant.rebuys >= settings.rebuys:
                raise PurchaseRefused(tr("You have taken all {count} of your rebuys.",
                                         count=settings.rebuys))
            chips = tournament.chips.stack(player) + tournament.pending.get(player, 0)
            if not deciding and chips > settings.starting_stack:
                raise PurchaseRefused(tr(
                    "You can rebuy at or below the starting stack of {stack} chips; you have "
                    "{chips}.", stack=settings.starting_stack, chips=chips))
        elif what is Purchase.ADDON:
            if not settings.addon:
                raise PurchaseRefused(tr("This tournament has no add-on."))
            if entrant.addon:
                raise PurchaseRefused(tr("You have taken your add-on already."))
            if deciding or not tournament.addon_period():
                raise PurchaseRefused(tr(
                    "The add-on is sold to players still in during level {level}.",
                    level=settings.rebuy_levels + 1))
        elif not deciding or Purchase.REENTRY not in tournament.way_back(player):
            raise PurchaseRefused(tr("You can enter again after being knocked out while "
                                     "late registration is open, if the tournament offers "
                                     "re-entry."))

    async def _pay(self, tournament: _Tournament, entrant: _Entrant, what: Purchase) -> int:
        """The ledger sells ``what`` (one transaction), then the chips go to the player:
        onto their stack, or a knocked-out player sits down again (tournament lock held)."""
        settings, player = tournament.settings, entrant.player
        if what is Purchase.REBUY:
            entrant.rebuys = await self._call(
                self._ledger.tournament_rebuy(tournament.id, player))
            chips, bought = settings.starting_stack, entrant.rebuys
        elif what is Purchase.ADDON:
            await self._call(self._ledger.tournament_addon(tournament.id, player))
            entrant.addon = True
            chips, bought = settings.addon_chips or 0, 1
        else:
            entrant.reentries = await self._call(
                self._ledger.tournament_reentry(tournament.id, player))
            chips, bought = settings.starting_stack, entrant.reentries
        await self._give(tournament, entrant, chips)
        await self._save(tournament)
        return bought

    async def _give(self, tournament: _Tournament, entrant: _Entrant, chips: int) -> None:
        """Bought chips to their player: a knocked-out one sits down with them at the table
        with the most free seats; on a seated one's stack now, or when their hand ends."""
        assert tournament.chips is not None
        player = entrant.player
        if tournament.deciding.pop(player, None) is not None:
            handle = tournament.timers.pop(player, None)
            if handle is not None:
                handle.cancel()
            tournament.chips.issue(player, chips)
            table = self._late_table(tournament)
            await table.seat_player(entrant.user_id, entrant.name, entrant.bot, chips)
            tournament.keep_seat(player, table, chips)
            return
        tournament.pending[player] = tournament.pending.get(player, 0) + chips
        await self._add_pending(tournament, player)

    async def _add_pending(self, tournament: _Tournament, player: PlayerKey) -> None:
        """Put ``player``'s pending chips on their stack unless they are in a hand."""
        assert tournament.chips is not None
        table = tournament.tables.get(tournament.chips.table_of(player) or 0)
        chips = tournament.pending.get(player, 0)
        if table is not None and chips and await table.add_chips(player, chips):
            del tournament.pending[player]
            tournament.keep_seat(player, table, tournament.chips.stack(player))

    def _offer(self, tournament: _Tournament, player: PlayerKey, channel_id: int) -> None:
        """A knocked-out person with a way back decides: their clock runs, and they are told
        (with buttons) what they may buy."""
        entrant = tournament.entrants[player]
        ways = tournament.way_back(player)
        tournament.timers[player] = asyncio.get_running_loop().call_later(
            self.decision_seconds, self._in_background_now,
            functools.partial(self._decision_over, tournament, player))
        if entrant.user_id is None:
            return
        settings = tournament.settings
        values = {"price": settings.buy_in, "stack": settings.starting_stack,
                  "seconds": round(self.decision_seconds), "tournament": tournament.id,
                  OFFERS: (*ways, Purchase.DECLINE)}
        if Purchase.REBUY in ways:
            note = tr("You are out of chips in the tournament: rebuy for {price} chips to get "
                      "{stack} chips within {seconds} seconds (the button, or /tournament "
                      "rebuy); otherwise you take your place.", **values)
        else:
            note = tr("You are out of chips in the tournament: enter again for {price} chips "
                      "to get {stack} chips within {seconds} seconds (the button, or "
                      "/tournament join); otherwise you take your place.", **values)
        self._in_background(self._tell(channel_id, entrant.user_id, note))

    def _in_background_now(self, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """A timer fired: run its work (made now, so a cancelled timer leaves no coroutine)."""
        self._in_background(work())

    async def _decision_over(self, tournament: _Tournament, player: PlayerKey) -> None:
        """A deciding player's time ran out: they take their place."""
        async with tournament.lock:
            tournament.timers.pop(player, None)
            if player in tournament.deciding:
                await self._place_deciding(tournament, [player])

    async def _place_deciding(self, tournament: _Tournament, players: Sequence[PlayerKey]
                              ) -> None:
        """Place knocked-out players who will not buy back in (tournament lock held)."""
        out = []
        for player in players:
            handle = tournament.timers.pop(player, None)
            if handle is not None:
                handle.cancel()
            out.append((player, tournament.deciding.pop(player)))
        await self._placed(tournament, tournament.tables.get(tournament.channel_id), out)

    async def _level_began(self, tournament: _Tournament) -> None:
        """A new level: players whose way back closed take their place; when the add-on
        opens, bots take it and people still in are told. Then the board shows the level."""
        async with tournament.lock:
            if tournament.phase is not TournamentPhase.RUNNING:
                return
            closed = [p for p in tournament.deciding if not tournament.way_back(p)]
            if closed:
                await self._place_deciding(tournament, closed)
            if tournament.addon_period() and tournament.standings is not None:
                await self._open_addons(tournament)
        await self._changed(tournament)

    async def _open_addons(self, tournament: _Tournament) -> None:
        """The add-on opens: bots still in buy it, people still in are told."""
        assert tournament.standings is not None and tournament.chips is not None
        settings = tournament.settings
        for player in tournament.standings.remaining:
            entrant = tournament.entrants[player]
            if entrant.addon or player in tournament.deciding:
                continue
            if entrant.bot_level is not None:
                with contextlib.suppress(HoldemError):  # the house pays; a refusal skips it
                    await self._pay(tournament, entrant, Purchase.ADDON)
            elif entrant.user_id is not None:
                channel = tournament.chips.table_of(player) or tournament.channel_id
                await self._tell(channel, entrant.user_id, tr(
                    "The rebuy period is over: take the add-on now, {price} chips for {stack} "
                    "chips, until the end of this level.", price=settings.addon_price,
                    stack=settings.addon_chips, tournament=tournament.id,
                    **{OFFERS: (Purchase.ADDON,)}))

    # -- scheduled starts ----------------------------------------------------------------------

    def _arm(self, tournament: _Tournament) -> None:
        """Time the next step of a registering scheduled tournament: the reminder, then the
        start (either at once when its time is past)."""
        old = tournament.timers.pop(None, None)
        if old is not None:
            old.cancel()
        if tournament.starts_at is None or tournament.phase is not TournamentPhase.REGISTERING:
            return
        remind_at = tournament.starts_at - self.reminder_seconds
        due = tournament.starts_at if tournament.reminded else remind_at
        tournament.timers[None] = asyncio.get_running_loop().call_later(
            max(0.0, due - self.clock()), self._in_background_now,
            functools.partial(self._scheduled_step, tournament))

    async def _scheduled_step(self, tournament: _Tournament) -> None:
        """Remind the players (once), or start the tournament at its time: with fewer than
        two entrants it is cancelled and refunded."""
        async with tournament.lock:
            tournament.timers.pop(None, None)
            if tournament.phase is not TournamentPhase.REGISTERING \
                    or tournament.starts_at is None:
                return
            if not tournament.reminded:
                tournament.reminded = True
                try:
                    fresh = await self._call(self._ledger.mark_tournament_reminded(tournament.id))
                except LedgerUnavailable:
                    fresh = False  # logged; better no ping than two
                self._arm(tournament)
                if fresh and self.clock() < tournament.starts_at:
                    status = dataclasses.replace(self._status(tournament), remind=True)
                    await self._deliver(self._notifier.tournament_changed, status)
                return
            try:
                await self._start(tournament, None)
            except HoldemError as why:
                log.info("tournament %s did not start at its time (%s); cancelling it",
                         tournament.id, why)
            else:
                return
            await self._refund(tournament)
            tables = self._stop(tournament)
        await self._release(tournament, tables)

    # -- between hands -----------------------------------------------------------------------

    async def _after_hand(self, tournament: _Tournament, table: Table,
                          busted: Sequence[tuple[Seat, int]]) -> None:
        """A hand ended at ``table`` (tournament lock held): place the busted, finish or
        balance."""
        if tournament.phase is not TournamentPhase.RUNNING or tournament.standings is None:
            return
        tournament.hands = max(tournament.hands, table.hands_dealt)
        tournament.keep_table(table)
        out: list[tuple[PlayerKey, int]] = []
        for seat, start in busted:
            entrant = tournament.entrants[seat.key]
            if seat.key in tournament.pending:  # bought during the hand: plays on
                tournament.deciding[seat.key] = start
                await self._give(tournament, entrant, tournament.pending.pop(seat.key))
            elif Purchase.REBUY in tournament.way_back(seat.key) and entrant.bot is not None:
                tournament.deciding[seat.key] = start
                try:
                    await self._pay(tournament, entrant, Purchase.REBUY)
                except HoldemError:
                    log.warning("tournament %s: bot %s could not rebuy", tournament.id,
                                entrant.name, exc_info=True)
                    out.append((seat.key, tournament.deciding.pop(seat.key)))
            elif tournament.way_back(seat.key) and entrant.user_id is not None:
                tournament.deciding[seat.key] = start
                self._offer(tournament, seat.key, table.channel_id)
            else:
                out.append((seat.key, start))
        await self._placed(tournament, table, out, changed=bool(busted))

    async def _placed(self, tournament: _Tournament, table: Table | None,
                      out: Sequence[tuple[PlayerKey, int]], *, changed: bool = True) -> None:
        """Place players knocked out (each with their chips at the start of the hand that did
        it), then finish, or balance the tables and save (tournament lock held)."""
        standings = tournament.standings
        assert standings is not None
        if out:
            standings.bust(tuple(out))
            tournament.events.append(tuple(out))
            places = standings.places
            for player, _ in out:
                user_id = tournament.entrants[player].user_id
                if user_id is not None:
                    best, worst = places[player]
                    place = best if best == worst else f"{best}–{worst}"
                    channel = table.channel_id if table is not None else tournament.channel_id
                    await self._tell(channel, user_id, tr(
                        "You are out of the tournament in place {place} of {entrants}.",
                        place=place, entrants=len(standings.players)))
        if standings.is_finished:
            await self._finish(tournament)
            return
        moved = await self._balance(tournament)
        await self._save(tournament)
        if changed or out or moved:
            await self._changed(tournament)

    async def _balance(self, tournament: _Tournament) -> bool:
        """Apply the balancing plan as far as the tables allow now; True if anyone moved."""
        if len(tournament.tables) < 2:
            return False
        orders = {channel: table.big_blind_order()
                  for channel, table in tournament.tables.items()}
        moves, broken = plan_moves(orders, tournament.settings.seats)
        moved = False
        for move in moves:
            source = tournament.tables.get(move.from_table)  # type: ignore[call-overload]
            target = tournament.tables.get(move.to_table)  # type: ignore[call-overload]
            if source is None or target is None or target.free_seats() < 1:
                continue
            player: PlayerKey = move.player  # type: ignore[assignment]
            taken = await source.take_player(player)
            if taken is None:
                continue  # in a hand there now: the next plan moves them
            _, stack = taken
            await self._seat_moved(tournament, player, stack, source.channel_id, target,
                                   table_broken=move.from_table in broken)
            moved = True
        for channel in broken:
            table = tournament.tables.get(channel)
            if table is not None and table.is_empty():
                del tournament.tables[channel]
                tournament.kept_tables.pop(channel, None)
                self._in_background(self._host.release_tournament_table(table))
        return moved

    async def _seat_moved(self, tournament: _Tournament, player: PlayerKey, stack: int,
                          from_channel: int, target: Table, *, table_broken: bool) -> None:
        """Seat a player taken off the table of ``from_channel`` at ``target`` with their
        stack, and tell the front end and the person."""
        entrant = tournament.entrants[player]
        await target.seat_player(entrant.user_id, entrant.name, entrant.bot, stack)
        tournament.keep_seat(player, target, stack)
        await self._deliver(self._notifier.player_moved, PlayerMoved(
            tournament_id=tournament.id, guild_id=tournament.guild_id, player=player,
            name=entrant.name, user_id=entrant.user_id, from_channel_id=from_channel,
            to_channel_id=target.channel_id, stack=stack, table_broken=table_broken))
        if entrant.user_id is not None:
            await self._tell(target.channel_id, entrant.user_id, tr(
                "You were moved with your {stack} chips to another table of the "
                "tournament: <#{channel}>.", stack=stack, channel=target.channel_id))

    async def _finish(self, tournament: _Tournament) -> None:
        """One player is left: pay the prizes, record the places, close the tables."""
        standings = tournament.standings
        assert standings is not None
        prizes = standings.payouts(prize_amounts(tournament.pool, tournament.percents))
        places = {player: best for player, (best, _) in standings.places.items()}
        tournament.prizes = prizes
        tournament.cancel_timers()
        tournament.phase = TournamentPhase.FINISHED
        tournament.finished_at = self.clock()
        for table in list(tournament.tables.values()):
            self._in_background(self._host.release_tournament_table(table))
        tournament.tables.clear()
        try:
            await self._call(self._ledger.finish_tournament(tournament.id, places, prizes))
        except LedgerUnavailable:
            self._in_background(self._pay_later(tournament, places, prizes))
            return
        except HoldemError:
            log.exception("tournament %s: the ledger refused its prizes; refunding it",
                          tournament.id)
            await self._refund_refused(tournament)
            return
        await self._finished(tournament)

    async def _pay_later(self, tournament: _Tournament, places: dict[PlayerKey, int],
                         prizes: dict[PlayerKey, int]) -> None:
        for delay in FINISH_RETRIES:
            await asyncio.sleep(delay)
            try:
                await self._call(self._ledger.finish_tournament(tournament.id, places, prizes))
            except LedgerUnavailable:
                continue
            except HoldemError:
                log.exception("tournament %s: the ledger refused its prizes", tournament.id)
                await self._refund_refused(tournament)
                return
            await self._finished(tournament)
            return
        log.error("tournament %s: prizes not paid; the ledger's recovery refunds the buy-ins "
                  "at the next start", tournament.id)

    def _stop(self, tournament: _Tournament) -> list[Table]:
        """Mark ``tournament`` cancelled (the buy-ins are the caller's to refund); its tables,
        for ``_release``."""
        tournament.cancel_timers()
        tournament.phase = TournamentPhase.CANCELLED
        tournament.finished_at = self.clock()
        tables = list(tournament.tables.values())
        tournament.tables.clear()
        return tables

    async def _release(self, tournament: _Tournament, tables: Sequence[Table]) -> None:
        """Close a stopped tournament's tables and show it; not under its lock, which a
        table's runner may be waiting for to finish its hand."""
        for table in tables:
            await self._host.release_tournament_table(table)
        await self._changed(tournament)

    async def _refund(self, tournament: _Tournament) -> None:
        """Refund every buy-in of a stopped tournament; when the ledger fails (or another
        process owns the tournament now), the ledger's recovery does at the next start."""
        if self._fenced:
            return
        try:
            await self._call(self._ledger.cancel_tournament(tournament.id))
        except Exception:
            log.exception("tournament %s: not refunded; the ledger's recovery refunds it at "
                          "the next start", tournament.id)

    async def _refund_refused(self, tournament: _Tournament) -> None:
        self._stop(tournament)
        await self._refund(tournament)
        await self._changed(tournament)

    async def _finished(self, tournament: _Tournament) -> None:
        status = self._status(tournament)
        results = TournamentResults(
            tournament_id=tournament.id, guild_id=tournament.guild_id,
            channel_id=tournament.channel_id, pool=tournament.pool, places=status.entrants)
        await self._deliver(self._notifier.tournament_finished, results)
        await self._changed(tournament)

    # -- helpers -----------------------------------------------------------------------------

    def _get(self, tournament_id: int) -> _Tournament:
        tournament = self._tournaments.get(tournament_id)
        if tournament is None:
            raise NoSuchTournament()
        return tournament

    @staticmethod
    def _require_late_registration(tournament: _Tournament) -> None:
        """A running tournament takes a new player until the end of the level its
        ``late_registration`` names."""
        levels = tournament.settings.late_registration
        if not levels or tournament.standings is None or tournament.chips is None:
            raise TournamentNotOpen(tournament.phase.value)
        if max(tournament.level_index, tournament._level_now()) >= levels:
            raise LateRegistrationClosed(levels)

    @staticmethod
    def _late_table(tournament: _Tournament) -> Table:
        """The table with the fewest players that has a free seat."""
        open_tables = [table for table in tournament.tables.values() if table.free_seats() > 0]
        if not open_tables:
            raise LateRegistrationClosed(tournament.settings.late_registration,
                                         tables_full=True)
        return max(open_tables, key=lambda table: table.free_seats())

    async def _seat_late(self, tournament: _Tournament, entrant: _Entrant, table: Table) -> None:
        """A late entrant (registered and paid): placed in the standings, given the
        starting stack and seated; the payouts follow the bigger field."""
        assert tournament.standings is not None and tournament.chips is not None
        stack = tournament.settings.starting_stack
        tournament.standings.enter(entrant.player)
        tournament.events.append(entrant.player)
        tournament.chips.issue(entrant.player, stack)
        with contextlib.suppress(HoldemError):  # else the start's percentages still pay
            tournament.percents = tournament.settings.check_payouts(len(tournament.entrants))
        try:
            await table.seat_player(entrant.user_id, entrant.name, entrant.bot, stack)
        except TableClosed:  # meanwhile: its ending seats them elsewhere or refunds them all
            log.info("tournament %s: table %s closed before %s sat down", tournament.id,
                     table.channel_id, entrant.name)
        else:
            tournament.keep_seat(entrant.player, table, stack)
        await self._save(tournament)

    @staticmethod
    def _require_registering(tournament: _Tournament) -> None:
        if tournament.phase is not TournamentPhase.REGISTERING:
            raise TournamentNotOpen(tournament.phase.value)

    async def _call(self, call: Awaitable[_T]) -> _T:
        """A ledger call whose faults arrive as ``LedgerUnavailable`` (refusals unchanged)."""
        if self._fenced:
            if isinstance(call, Coroutine):
                call.close()
            raise LedgerUnavailable("this process no longer owns the tournament")
        try:
            return await call
        except HoldemError:
            raise
        except Exception as error:
            log.error("the chip ledger failed a tournament request", exc_info=error)
            raise LedgerUnavailable() from error

    async def _save(self, tournament: _Tournament) -> None:
        """Keep a running tournament's state in the ledger (one statement, at hand boundaries
        and seat changes); one the ledger fails to keep is kept at the next boundary."""
        if not self._keeping or self._fenced or tournament.phase is not TournamentPhase.RUNNING:
            return
        try:
            await self._ledger.save_tournament_state(tournament.id,
                                                     tournament.saved_state().to_json())
        except Exception:
            log.warning("tournament %s: could not save its state; trying again after the next "
                        "hand", tournament.id, exc_info=True)

    async def _changed(self, tournament: _Tournament) -> None:
        await self._deliver(self._notifier.tournament_changed, self._status(tournament))

    async def _tell(self, channel_id: int, user_id: int, message: Any) -> None:
        await self._deliver(self._notifier.tell, channel_id, user_id, message)

    async def _deliver(self, method: Callable[..., Awaitable[object]], *args: Any) -> None:
        try:
            await method(*args)
        except Exception:
            log.exception("the notifier failed in %s", getattr(method, "__name__", method))

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _status(self, tournament: _Tournament) -> TournamentStatus:
        settings, chips = tournament.settings, tournament.chips
        standings = tournament.standings
        places = standings.places if standings is not None else {}
        running = tournament.phase is TournamentPhase.RUNNING
        stacks = chips.stacks() if chips is not None else {}
        entrants = []
        for player, entrant in tournament.entrants.items():
            place = places.get(player)
            in_play = chips is not None and place is None
            chips_now = stacks.get(player, 0) if chips is not None else settings.starting_stack
            if place is not None and place != (1, 1):
                chips_now = 0
            entrants.append(EntrantStatus(
                player=player, name=entrant.name, user_id=entrant.user_id,
                bot_level=entrant.bot_level, chips=chips_now + tournament.pending.get(player, 0),
                table_channel_id=chips.table_of(player) if in_play and chips else None,
                place=place, prize=tournament.prizes.get(player, 0), rebuys=entrant.rebuys,
                addon=entrant.addon, reentries=entrant.reentries,
                deciding=player in tournament.deciding))
        if standings is not None:
            entrants.sort(key=lambda e: (0, -e.chips) if e.place is None else (1, e.place[0]))
        left = [e for e in entrants if e.place is None] if standings is not None else entrants
        field = len(tournament.entrants)
        deciding = len(tournament.deciding)
        try:
            percents = tournament.percents or settings.check_payouts(max(2, field))
        except HoldemError:
            percents = ()
        prizes = prize_amounts(tournament.pool, percents) if percents else ()
        level = tournament.schedule.level(tournament.level_index)
        next_at: float | None = None
        next_hands: int | None = None
        upcoming = tournament.schedule.next_level_after(tournament.level_index)
        if running and upcoming is not None:
            if tournament.schedule.unit is LevelUnit.MINUTES:
                next_at = tournament.play_began_at() + upcoming * 60.0
            elif tournament.schedule.unit is LevelUnit.HANDS:
                next_hands = max(0, int(upcoming) - tournament.hands)
        chips_in_play = sum(e.chips for e in left) if standings is not None else 0
        return TournamentStatus(
            tournament_id=tournament.id, guild_id=tournament.guild_id,
            channel_id=tournament.channel_id, creator_id=tournament.creator_id,
            phase=tournament.phase, settings=settings, entrants=tuple(entrants),
            pool=tournament.pool, prizes=prizes, level=tournament.level_index + 1,
            small_blind=level.small_blind, big_blind=level.big_blind, ante=level.ante,
            unit=tournament.schedule.unit, next_level_at=next_at, next_level_in_hands=next_hands,
            hands_played=tournament.hands, players_left=len(left),
            average_stack=(chips_in_play // (len(left) - deciding)
                           if standings is not None and len(left) > deciding
                           else settings.starting_stack),
            table_channel_ids=tuple(tournament.tables), started_at=tournament.started_at,
            finished_at=tournament.finished_at, resumed=tournament.resumed,
            rebuys_open=running and tournament.rebuy_period(),
            addon_open=running and tournament.addon_period(), starts_at=tournament.starts_at,
            event_id=tournament.event_id)

"""The lobby: one table per channel, created on the first join, and the runtime's life cycle.

Front ends (Discord, terminal) call only this class. Every method that a player triggers
raises a ``HoldemError`` (most of them ``TableError`` subclasses) for a request it refuses;
its ``str()`` is the sentence to show that player, and nothing has changed. While the chip
ledger is failing, requests that need it raise ``LedgerUnavailable``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import time
from collections.abc import Callable, Sequence

from bot.ledger import RecoveryReport, SavedTable
from bot.shards import ShardSet
from bot.tables.bot_worker import BotWorker
from bot.tables.errors import NoTableHere, NotOurServer, TableClosed
from bot.tables.ledger_guard import GuardedLedger
from bot.tables.ledger_port import TableLedger, TableStateStore, TournamentLedger
from bot.tables.notifier import Notifier, TableState, Turn
from bot.tables.outages import Outages
from bot.tables.pacing import StepPacer
from bot.tables.pre_actions import PreAction, PreActionChoices
from bot.tables.saved_state import SavedTableState, UnreadableState
from bot.tables.seats import PlayerKey
from bot.tables.settings import TableSettings
from bot.tables.show_cards import ShowChoice
from bot.tables.table import Table, TournamentHooks
from bot.tables.tournaments import TournamentManager
from engine.actions import Action
from engine.cards import Card
from engine.view import PlayerView

log = logging.getLogger(__name__)


class TableManager:
    """Runs every table of the process on the current event loop.

    ``rng`` seeds shuffles and bot choices (tests pass ``random.Random(seed)``; by default the
    deck is shuffled with the OS CSPRNG). ``bot_worker``, when given, makes the bots'
    equity-simulating decisions in its process (another core); the manager closes it at
    shutdown. Without one they run inline (see ``bot.tables.bots``). ``shards`` are the
    shards whose guilds' tables this process owns (all of them by default): it opens and
    recovers tables only there, and refuses the rest with ``NotOurServer``.

    ``tournaments`` runs the tournaments (``TournamentManager``); it needs a ledger with the
    tournament methods (``TournamentLedger``): ``ledger`` itself when it has them, else
    ``tournament_ledger``. Tournament tables are tables of this manager like any other, so
    ``act``, ``sit_out``, ``state`` … reach them by channel.
    """

    def __init__(
        self,
        ledger: TableLedger,
        notifier: Notifier,
        *,
        rng: random.Random | None = None,
        default_settings: TableSettings | None = None,
        bot_worker: BotWorker | None = None,
        shards: ShardSet | None = None,
        tournament_ledger: TournamentLedger | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._ledger = GuardedLedger(ledger)
        self._state_store = ledger if isinstance(ledger, TableStateStore) else None
        self._shards = shards or ShardSet()
        self._notifier = notifier
        self._rng = rng
        self._default_settings = default_settings or TableSettings()
        self._bot_worker = bot_worker
        self._tables: dict[int, Table] = {}
        self._pacer = StepPacer()
        self.outages = Outages(self._shards.count)
        """Which shards' gateway connections are down, and for how long they were."""
        self._closing: set[asyncio.Task[None]] = set()
        self._closed = False
        self._draining = False
        if tournament_ledger is None and isinstance(ledger, TournamentLedger):
            tournament_ledger = ledger
        self._tournaments = None if tournament_ledger is None else TournamentManager(
            tournament_ledger, notifier, self, rng=rng, bot_worker=bot_worker, clock=clock)

    @property
    def tournaments(self) -> TournamentManager:
        """The tournaments of this process (``RuntimeError`` when the ledger has none)."""
        if self._tournaments is None:
            raise RuntimeError("this ledger does not run tournaments")
        return self._tournaments

    async def start(self, *, resume: bool = False) -> RecoveryReport:
        """Run the ledger's recovery (hands cut short by a crash go back to their
        start-of-hand stacks) in the guilds on this process's shards, before any table opens;
        returns the ledger's report. With ``resume`` (and a ledger that saves tables) the
        cash tables saved there open again with their seats, chips and button, and deal on
        by themselves, and this process's tables keep their state for the next start;
        without it saved tables' chips go back to their owners and no state is kept."""
        store = self._state_store
        if not resume:
            self._state_store = None  # nothing would open them again: keep no table state
        if resume and store is not None:
            report = await store.recover(shards=self._shards, keep_saved_tables=True)
            log.info("ledger recovery: %s", report)
            for saved in await store.saved_tables(self._shards):
                await self._resume(store, saved)
            if self._tournaments is not None:
                cut_short = (await self._tournaments.resume(self._shards)).refunded
                report = dataclasses.replace(
                    report, tournaments_refunded=report.tournaments_refunded + cut_short)
        else:
            report = await self._ledger.recover(shards=self._shards)
            log.info("ledger recovery: %s", report)
        return report

    async def _resume(self, store: TableStateStore, saved: SavedTable) -> None:
        """Open a saved table again: its seats with the chips they hold in escrow. Escrow that
        no saved seat accounts for (a join the stop cut short) is cashed out; a state that
        cannot be read closes the table (everyone cashed out), with one line saying why."""
        stacks = await store.table_stacks(saved.channel_id)
        try:
            state: SavedTableState | None = SavedTableState.from_json(saved.state)
        except UnreadableState as why:
            log.error("table %s: its saved state cannot be restored (%s); everyone is cashed "
                      "out", saved.channel_id, why)
            state = None
        seated: set[PlayerKey] = set() if state is None else {
            seat.user_id if seat.user_id is not None else seat.name for seat in state.seats}
        for player in stacks.keys() - seated:
            await self._ledger.cash_out(saved.guild_id, saved.channel_id, player)
        if state is None or not seated & stacks.keys():
            await store.forget_table_state(saved.channel_id)
            return
        await self._notifier.table_resumed(saved.channel_id, saved.message_id)
        table = self._new_table(saved.guild_id, saved.channel_id, state.settings)
        self._tables[saved.channel_id] = table
        await table.restore(state, stacks)
        log.info("table %s: open again with %d seats", saved.channel_id,
                 len(table.player_keys()))

    async def drain(self, seconds: float) -> None:
        """The process is about to stop: deal no new hand, at cash and tournament tables
        alike, and wait up to ``seconds`` for the hands in progress to finish (bots act at
        once, people keep their timers and can still act), so that a deploy voids as few
        hands as it can. No table opens from now on."""
        self._draining = True
        tables = list(self._tables.values())
        if tables:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    asyncio.gather(*(table.drain() for table in tables)), timeout=seconds)

    async def suspend(self, drain: float) -> None:
        """Stop for a restart without ending the games: ``drain`` (up to that many seconds),
        then refund what is still running and keep every cash table (seats, chips in escrow,
        button) for the next start; their front end hears that they are paused."""
        await self.drain(drain)
        self._closed = True
        tables = list(self._tables.values())
        cash = [table for table in tables if not table.is_tournament]
        self._tables.clear()
        await asyncio.gather(*(table.suspend() for table in cash))
        for table in cash:
            try:
                await self._notifier.table_paused(table.channel_id)
            except Exception:
                log.exception("table %s: the notifier failed to pause it", table.channel_id)
        await asyncio.gather(*(table.close() for table in tables if table.is_tournament))
        if self._tournaments is not None:
            await self._tournaments.shutdown()
        if self._bot_worker is not None:
            self._bot_worker.close()

    async def shutdown(self) -> None:
        """Stop every table without finishing anything half-way: hands in progress are
        refunded to their start-of-hand stacks and everyone is cashed out."""
        self._closed = True
        tables = list(self._tables.values())
        self._tables.clear()
        await asyncio.gather(*(table.close() for table in tables))
        if self._tournaments is not None:
            await self._tournaments.shutdown()
        if self._bot_worker is not None:
            self._bot_worker.close()

    async def abandon(self) -> None:
        """Stop every table without touching the ledger, because another process has taken
        these tables over (and recovered their hands): nothing here may move their chips."""
        self._ledger.fence()
        if self._tournaments is not None:
            self._tournaments.fence()
        await self.shutdown()

    async def close_table(self, channel_id: int) -> bool:
        """Close the channel's table as ``shutdown`` closes them all: a hand in progress is
        refunded to its start-of-hand stacks and everyone is cashed out. For a channel that is
        gone (deleted, or its server left); a tournament's table then tells its tournament,
        which seats its players elsewhere or is cancelled. Returns whether there was a
        table."""
        table = self._tables.pop(channel_id, None)
        if table is None:
            return False
        await table.close()
        if table.is_tournament:  # the chips first: the front end may wait on Discord
            await self.tournaments.table_gone(table)
        await self._tell_closed(channel_id)
        return True

    async def close_guild(self, guild_id: int) -> list[int]:
        """Close every table of a server (the bot left it, or was removed); returns their
        channels."""
        channels = [channel_id for channel_id, table in self._tables.items()
                    if table.guild_id == guild_id]
        await asyncio.gather(*(self.close_table(channel_id) for channel_id in channels))
        return channels

    # -- lobby -------------------------------------------------------------------------------

    async def join(
        self, guild_id: int, channel_id: int, user_id: int, name: str, buy_in: int | None = None
    ) -> int:
        """Seat a person with a buy-in from their balance (the table's default buy-in, or all
        of a smaller balance that still covers the minimum, when ``buy_in`` is ``None``).
        Opens the channel's table with the server's settings if there is none. Returns the
        stack."""
        table = await self._table_for(guild_id, channel_id)
        return await table.join(user_id, name, buy_in)

    async def leave(self, channel_id: int, user_id: int) -> int | None:
        """Leave the table. Outside a hand the stack is cashed out now and returned; a player
        still in the hand folds when their turn comes and is cashed out when the hand ends
        (``None`` is returned)."""
        table = self._table(channel_id)
        cashed = await table.leave(user_id)
        await self._forget_if_empty(channel_id, table)
        return cashed

    async def choose_straddle(self, channel_id: int, user_id: int, straddles: bool) -> None:
        """The person's voluntary straddle, on or off (``Table.choose_straddle``)."""
        await self._table(channel_id).choose_straddle(user_id, straddles)

    async def sit_out(self, channel_id: int, user_id: int) -> None:
        """Keep the seat but skip the coming hands (the current one is played out)."""
        await self._table(channel_id).sit_out(user_id)

    async def sit_in(self, channel_id: int, user_id: int) -> None:
        """Take part in hands again from the next one."""
        await self._table(channel_id).sit_in(user_id)

    async def top_up(self, channel_id: int, user_id: int, amount: int) -> int:
        """Add ``amount`` chips from the balance to the stack, up to the maximum buy-in;
        not while the player is in a hand. Returns the new stack."""
        return await self._table(channel_id).top_up(user_id, amount)

    async def add_bots(
        self, guild_id: int, channel_id: int, level: str = "medium", count: int = 1
    ) -> list[str]:
        """Seat ``count`` bots of a level (``engine.strategies.LEVELS``), bought in by the
        house; opens the table if needed. Returns their names."""
        table = await self._table_for(guild_id, channel_id)
        return await table.add_bots(level, count)

    async def remove_bot(self, channel_id: int, name: str | None = None) -> str:
        """Remove a bot (the named one, or the last one seated), cashing its chips back to
        the house; a bot in a hand leaves when it ends. Returns its name."""
        table = self._table(channel_id)
        removed = await table.remove_bot(name)
        await self._forget_if_empty(channel_id, table)
        return removed

    async def start_hand(self, channel_id: int) -> None:
        """Deal the next hand now instead of after the delay."""
        await self._table(channel_id).start_hand()

    async def run_hands(self, channel_id: int, count: int) -> None:
        """Play ``count`` hands even when no person is seated (bots only), and return once
        they are settled: for demonstrations, simulations and benchmarks."""
        await self._table(channel_id).run_hands(count)

    async def wait_until_idle(self, channel_id: int) -> float | None:
        """Return once the channel's table has nothing to do but wait for a request or for its
        next deal (no hand running, the last one's cash-outs and notices done): for tests and
        demonstrations. Returns the seconds until the next deal, or ``None`` when no hand will
        be dealt until a request changes the table."""
        return await self._table(channel_id).wait_until_idle()

    # -- play --------------------------------------------------------------------------------

    async def act(
        self, channel_id: int, user_id: int, action: Action, turn: Turn | None = None
    ) -> None:
        """Take a person's action. Raises ``NotYourTurn`` unless they are the player to act
        and ``IllegalAction`` when the engine refuses it. ``turn`` (from a button or form)
        must be the open turn, else ``TableMovedOn``: a double click applies once."""
        await self._table(channel_id).act(user_id, action, turn)

    async def pre_act(self, channel_id: int, user_id: int, choice: PreAction) -> PreAction | None:
        """Choose a pre-action for the person's coming turn (``Table.pre_act``); the same
        choice again clears it. Returns their pre-action now."""
        return await self._table(channel_id).pre_act(user_id, choice)

    def pre_action_choices(self, channel_id: int, user_id: int) -> PreActionChoices | None:
        """What the person may choose ahead of their turn at the channel's table now."""
        table = self._tables.get(channel_id)
        return table.pre_action_choices(user_id) if table is not None else None

    async def answer_run_it_twice(
        self, channel_id: int, user_id: int, agree: bool, hand: int | None = None
    ) -> None:
        """Answer the run-it-twice question (asked in ``hand``, if given); one "no" (or the
        deadline) means run once."""
        await self._table(channel_id).answer_run_it_twice(user_id, agree, hand)

    async def answer_show(self, channel_id: int, user_id: int, hand: int,
                          choice: ShowChoice) -> None:
        """Show one card, both or none, as offered in ``hand`` (``ShowOffer``)."""
        await self._table(channel_id).answer_show(user_id, hand, choice)

    # -- reading -----------------------------------------------------------------------------

    def state(self, channel_id: int) -> TableState | None:
        """The public state of the channel's table, or ``None`` when it has none."""
        table = self._tables.get(channel_id)
        return table.state() if table is not None else None

    def hole_cards(self, channel_id: int, user_id: int) -> tuple[Card, ...] | None:
        """A person's own hole cards in the current hand (``None`` when not dealt in); for a
        "my cards" button when direct messages fail."""
        table = self._tables.get(channel_id)
        return table.hole_cards(user_id) if table is not None else None

    def coaching_view(self, channel_id: int, user_id: int) -> PlayerView | None:
        """A person's view of the channel's running hand for a hint in **My cards**, or
        ``None`` when the table shows no hints or they are not in the hand."""
        table = self._tables.get(channel_id)
        return table.coaching_view(user_id) if table is not None else None

    def channel_ids(self) -> Sequence[int]:
        """The channels that have a table now."""
        return tuple(self._tables)

    def table_settings(self, channel_id: int) -> TableSettings:
        """The settings of the channel's table."""
        return self._table(channel_id).settings

    # -- settings ----------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> TableSettings:
        """The settings new tables in a server start with."""
        stored = await self._ledger.guild_settings(guild_id)
        return TableSettings.from_mapping({**self._default_settings.to_mapping(), **stored})

    async def update_guild_settings(self, guild_id: int, **changes: object) -> TableSettings:
        """Change a server's defaults for tables opened from now on; raises
        ``InvalidSettings`` (saving nothing) for an unknown name or a bad value."""
        updated = (await self.guild_settings(guild_id)).with_changes(**changes)
        await self._ledger.save_guild_settings(guild_id, updated.to_mapping())
        return updated

    async def update_table_settings(self, channel_id: int, **changes: object) -> TableSettings:
        """Change one table's settings; blinds and buy-ins apply from the next hand."""
        return self._table(channel_id).update_settings(**changes)

    # -- tournament tables (TableHost) -------------------------------------------------------

    def owns_guild(self, guild_id: int) -> bool:
        """True when this process runs the guild's tables (its shard is ours)."""
        return self._shards.owns(guild_id)

    def offline_seconds(self, guild_id: int) -> float:
        """Seconds the guild's gateway was down since this process started."""
        return self.outages.offline_seconds(guild_id)

    def channel_is_free(self, channel_id: int) -> bool:
        """True when the channel has no table."""
        return self._table_if_open(channel_id) is None

    def host_tournament_table(
        self, guild_id: int, channel_id: int, settings: TableSettings, chips: TableLedger,
        hooks: TournamentHooks,
    ) -> Table:
        """Create a tournament table (started by the tournament once seated) as the channel's
        table; ``TableClosed`` while shutting down."""
        if self._table_if_open(channel_id) is not None:
            raise RuntimeError(f"channel {channel_id} has a table already")
        table = Table(
            guild_id, channel_id, settings, chips, self._notifier, rng=self._rng,
            bot_worker=self._bot_worker, pacer=self._pacer, tournament=hooks,
            outages=self.outages,
        )
        self._tables[channel_id] = table
        return table

    async def release_tournament_table(self, table: Table) -> None:
        """Close a tournament table (broken, or its tournament is over) and forget it."""
        forgotten = self._forget(table)
        await table.close()
        if forgotten:
            await self._tell_closed(table.channel_id)

    async def gateway_down(self, shard_id: int) -> None:
        """The front end's connection for ``shard_id`` (Discord's gateway) dropped: no click
        from its guilds can reach their tables, so until ``gateway_up`` their clocks stop,
        their bots wait and they deal no hand; the tables say so. Saying it again is
        harmless."""
        if self.outages.down(shard_id):
            await self._show_shard(shard_id)

    async def gateway_up(self, shard_id: int) -> None:
        """The connection for ``shard_id`` is back: its tables play on, and the person to act
        gets the time they had left plus ``outages.GRACE_SECONDS``. Harmless when it was
        up."""
        if self.outages.up(shard_id):
            await self._show_shard(shard_id)

    async def _show_shard(self, shard_id: int) -> None:
        """Publish the tables of the shard's guilds (whose runners may be parked)."""
        for table in list(self._tables.values()):
            if self.outages.shard(table.guild_id) == shard_id:
                try:
                    await self._notifier.table_changed(table.state())
                except Exception:
                    log.exception("table %s: the notifier failed", table.channel_id)

    # -- internals ---------------------------------------------------------------------------

    def _table(self, channel_id: int) -> Table:
        table = self._table_if_open(channel_id)
        if table is None:
            raise NoTableHere()
        return table

    async def _table_for(self, guild_id: int, channel_id: int) -> Table:
        table = self._table_if_open(channel_id)
        if table is not None:
            return table
        if not self._shards.owns(guild_id):
            raise NotOurServer()
        if self._draining:
            raise TableClosed()
        settings = await self.guild_settings(guild_id)
        # No await from here on: a racing request that opened the table meanwhile wins.
        table = self._table_if_open(channel_id)
        if table is None:
            table = self._new_table(guild_id, channel_id, settings)
            table.start()
            self._tables[channel_id] = table
        return table

    def _new_table(self, guild_id: int, channel_id: int, settings: TableSettings) -> Table:
        """A cash table of this manager (not started), which keeps its state in the store."""
        return Table(
            guild_id, channel_id, settings, self._ledger, self._notifier,
            rng=self._rng, bot_worker=self._bot_worker, on_empty=self._forget_emptied,
            pacer=self._pacer, state_store=self._state_store, outages=self.outages,
        )

    def _table_if_open(self, channel_id: int) -> Table | None:
        if self._closed:
            raise TableClosed()
        return self._tables.get(channel_id)

    def _forget(self, table: Table) -> bool:
        if self._tables.get(table.channel_id) is table:
            del self._tables[table.channel_id]
            return True
        return False

    def _forget_emptied(self, table: Table) -> None:
        """A table's last seat emptied after a hand: it stops; its front end hears of it."""
        if self._forget(table):
            closing = asyncio.get_running_loop().create_task(self._tell_closed(table.channel_id))
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)

    async def _forget_if_empty(self, channel_id: int, table: Table) -> None:
        if table.is_empty() and self._forget(table):
            await table.close()
            await self._tell_closed(channel_id)

    async def _tell_closed(self, channel_id: int) -> None:
        try:
            await self._notifier.table_closed(channel_id)
        except Exception:
            log.exception("table %s: the notifier failed to close it", channel_id)

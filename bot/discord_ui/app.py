"""The Discord application: a ``commands.Bot`` that opens the ledger, runs the tables, loads the
cogs and keeps the table buttons working across restarts.

``create_bot()`` returns it unstarted; ``python -m bot`` runs it with the settings from the
environment, and the tests run it against a fake Discord server with ``BotOptions`` suited to
them (no command sync wait, short edit interval, a seeded shuffle).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import discord
import yarl
from discord.ext import commands

from bot.discord_ui.cogs import EXTENSIONS
from bot.discord_ui.notifier import DM_DEADLINE_SECONDS, DiscordNotifier
from bot.discord_ui.replies import language_of
from bot.discord_ui.translator import CatalogTranslator
from bot.discord_ui.tree import HoldemCommandTree
from bot.discord_ui.views.amount_form import answer_form
from bot.discord_ui.views.outdated import OutdatedButton
from bot.discord_ui.views.pre_actions import BackButton, PreActionButton
from bot.discord_ui.views.run_it_twice import RunItTwiceButton
from bot.discord_ui.views.show_cards import ShowButton
from bot.discord_ui.views.table_controls import answer_table_click
from bot.discord_ui.views.tournament_buttons import PurchaseButton
from bot.ledger import Ledger, LedgerError, ShardClaimLost
from bot.process import PROCESS_TOKEN
from bot.render.pictures import Pictures
from bot.settings import Settings
from bot.tables.bot_worker import BotWorker
from bot.tables.fan_out import FanOutNotifier, TableWatcher
from bot.tables.manager import TableManager
from bot.tables.notifier import Notifier
from bot.tables.settings import TableSettings
from bot.tables.shard_lease import ShardLease

log = logging.getLogger(__name__)

COMMAND_COOLDOWNS: Mapping[str, tuple[int, float]] = {
    "table": (2, 30.0),
    "start": (3, 30.0),
    "addbot": (3, 60.0),
    "removebot": (3, 60.0),
    "stats": (3, 30.0),
    "leaderboard": (3, 30.0),
}
"""Uses per member and period of the commands that change or repost a whole table, and of
/stats and the /leaderboard orders that read habits (its other orders have none), whose
reads and chart take turns on the ledger's connection and the picture worker with every
table. Each is needed once in a while (a hand lasts longer than the periods allow; a few
records are looked at in a row); a burst beyond them can only be spam, which would otherwise
queue work for everyone at the table."""


class Companion(Protocol):
    """A front end served from the bot's process beside Discord (the web companion with its
    live tables, ``bot.web.live_server``): it watches every table and runs while the bot
    does."""

    @property
    def watcher(self) -> TableWatcher:
        """What it hears of the tables (public state only)."""
        ...

    async def start(self, ledger: Ledger, tables: TableManager) -> None:
        """Start serving, over the bot's ledger and tables (before the tables open again)."""

    async def close(self) -> None:
        """Stop serving (harmless when it never started)."""


@dataclass(frozen=True, slots=True)
class BotOptions:
    """How the application runs, beyond the process settings.

    ``edit_interval`` is the minimum time between two edits of one table message; Discord
    allows about five per five seconds per channel. ``guild_ready_timeout`` is how long
    discord.py waits for server data before ``on_ready``. ``dm_deadline`` is how long a DM may
    take before the person is sent to the My cards button instead. ``cooldowns`` limit how
    often one member may use a command: ``{name: (uses, per seconds)}``. ``shard_owner``
    names this bot in its claim on its shards; two bots with the same name would not keep
    each other out. ``companion`` is served from the same process and watches the tables.
    """

    sync_commands: bool = True
    edit_interval: float = 1.2
    table_settings: TableSettings | None = None
    rng: random.Random | None = None
    draw_images: bool = True
    guild_ready_timeout: float = 2.0
    dm_deadline: float = DM_DEADLINE_SECONDS
    cooldowns: Mapping[str, tuple[int, float]] = field(
        default_factory=lambda: dict(COMMAND_COOLDOWNS))
    shard_owner: str = PROCESS_TOKEN
    companion: Companion | None = None


@dataclass(frozen=True, slots=True)
class LedgerDmChannels:
    """People's DM channels kept in the ledger's database (the notifier's ``DmChannelBook``);
    a database error only costs opening the channel again."""

    ledger: Ledger

    async def dm_channel(self, user_id: int) -> int | None:
        try:
            return await self.ledger.dm_channel(user_id)
        except LedgerError:
            log.warning("could not read the DM channel of user %s", user_id)
            return None

    async def save_dm_channel(self, user_id: int, channel_id: int) -> None:
        try:
            await self.ledger.save_dm_channel(user_id, channel_id)
        except LedgerError:
            log.warning("could not keep the DM channel of user %s", user_id)


class HoldemBot(commands.AutoShardedBot):
    """The bot: tables in channels, chips in the ledger, slash commands and buttons.

    It runs the shards of ``settings.shards`` (shard 0 of 1 without sharding settings) and
    owns the tables of their guilds: before it recovers anything it claims those shards in the
    ledger, keeps the claim alive while it runs, and gives it up when it closes. If another
    process takes the claim over (this one stalled past its lease), it stops its tables
    without touching their chips and closes; ``lost_claim`` then says why.
    """

    ledger: Ledger
    notifier: DiscordNotifier
    tables: TableManager
    lost_claim: ShardClaimLost | None = None
    pictures: Pictures | None = None
    """Draws the table and card images (``None`` with ``draw_images`` off)."""

    def __init__(self, settings: Settings, options: BotOptions) -> None:
        # The bot plays no audio: discord.py's switches for its warnings that the voice
        # libraries (PyNaCl, davey) are missing, which it would log at every start.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            shard_count=settings.shards.count,
            shard_ids=list(settings.shards.ids),
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            help_command=None,
            guild_ready_timeout=options.guild_ready_timeout,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=HoldemCommandTree,
        )
        self.settings = settings
        self.options = options
        self._closing_for_loss: asyncio.Task[None] | None = None
        self._check_kept_tables: asyncio.Task[None] | None = None

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        """Log in and connect; with ``settings.discord_api_base`` (a REST proxy, or a test
        server), to that API and the gateway it names instead of Discord's."""
        if self.settings.discord_api_base is None:
            return await super().start(token, reconnect=reconnect)
        await connect_through(self, self.settings.discord_api_base, token, reconnect=reconnect)

    async def setup_hook(self) -> None:
        self.ledger = await Ledger.open(self.settings.database)
        self.lease = ShardLease(self.ledger, self.options.shard_owner, self.settings.shards,
                                self.settings.shard_lease)
        await self.lease.acquire(wait=self.settings.wait_for_shards)
        self.lease.keep(self._claim_lost)
        self.pictures = Pictures(worker=self.settings.picture_worker) \
            if self.options.draw_images else None
        if self.pictures is not None:
            self.pictures.start()
        self.notifier = DiscordNotifier(
            self, edit_interval=self.options.edit_interval,
            pictures=self.pictures,
            dm_deadline=self.options.dm_deadline,
            remember_message=self._remember_table_message,
            dm_channel_book=LedgerDmChannels(self.ledger),
        )
        companion = self.options.companion
        notifier: Notifier = self.notifier if companion is None \
            else FanOutNotifier(self.notifier, companion.watcher)
        self.tables = TableManager(
            self.ledger, notifier, rng=self.options.rng,
            default_settings=self.options.table_settings,
            bot_worker=BotWorker() if self.settings.bot_worker else None,
            shards=self.settings.shards,
        )
        self.notifier.use_guild_settings(self.tables.guild_settings)
        self.notifier.turn_pings.wanted = await self.ledger.turn_ping_users()
        if companion is not None:
            await companion.start(self.ledger, self.tables)
        for shard_id in self.settings.shards.ids:  # until each is ready (on_shard_ready):
            await self.tables.gateway_down(shard_id)  # no clock runs before a click can come
        report = await self.tables.start(resume=True)
        if self.tables.channel_ids():  # cash tables kept, or tournaments resumed
            self._check_kept_tables = asyncio.get_running_loop().create_task(
                self._close_tables_gone_while_away(), name="check-kept-tables")
        messages = await self.ledger.take_table_messages(report.tables_closed)
        for channel_id in report.tables_closed:
            self.notifier.closed_by_restart(channel_id, messages.get(channel_id))
        if report.tournaments_refunded:
            self.notifier.tournaments_closed_by_restart(
                await self._tournament_channels(report.tournaments_refunded),
                self.ledger.take_table_messages)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(RunItTwiceButton, PreActionButton, BackButton, OutdatedButton,
                               ShowButton, PurchaseButton)
        await self.tree.set_translator(CatalogTranslator())
        if self.options.sync_commands:
            await self._sync_commands()

    async def _close_tables_gone_while_away(self) -> None:
        """Once connected, close the tables opened again whose channel (or thread, or server)
        went away while the bot was down: everyone there is cashed out, as when a channel is
        deleted while the bot runs."""
        await self.wait_until_ready()
        for channel_id in self.tables.channel_ids():
            if self.get_channel(channel_id) is None:
                await self._close_tables_of_channel(channel_id)

    async def _claim_lost(self, lost: ShardClaimLost) -> None:
        """Another process owns these tables now: stop them without moving a chip, then
        close (from a task of its own: closing stops the heartbeat that calls this)."""
        self.lost_claim = lost
        await self.tables.abandon()
        self._closing_for_loss = asyncio.get_running_loop().create_task(self.close())

    async def _tournament_channels(self, tournament_ids: Sequence[int]) -> dict[int, int]:
        """The channel each of ``tournament_ids`` was created in."""
        infos = [await self.ledger.tournament_info(tournament_id)
                 for tournament_id in tournament_ids]
        return {info.id: info.channel_id for info in infos if info is not None}

    async def _remember_table_message(self, channel_id: int, message_id: int) -> None:
        try:
            await self.ledger.save_table_message(channel_id, message_id)
        except LedgerError:
            log.warning("could not remember the table message of channel %s", channel_id)

    async def _sync_commands(self) -> None:
        """Sync the commands to ``DEV_GUILD_ID`` (shown at once) or globally (within the hour),
        then clear the copies that servers synced to before still hold: a server that keeps
        its copies after the switch to global shows every command twice."""
        guild_id = self.settings.dev_guild_id
        if guild_id is None:
            synced = await self.tree.sync()
            log.info("synced %d commands globally (may take up to an hour to show)", len(synced))
        else:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to server %s", len(synced), guild_id)
        kept = {guild_id} if guild_id is not None else set()
        for former in set(await self.ledger.command_guilds()) - kept:
            try:
                await self.tree.sync(guild=discord.Object(former))  # none for it: clears them
            except (discord.Forbidden, discord.NotFound):
                log.info("server %s is out of reach; its command copies went with it", former)
            except discord.HTTPException:
                log.warning("could not clear the commands synced to server %s", former)
                kept.add(former)  # tried again at the next start
            else:
                log.info("cleared the commands synced to server %s before", former)
        await self.ledger.save_command_guilds(kept)

    async def on_interaction(self, interaction: discord.Interaction[HoldemBot]) -> None:
        """Every interaction tells the member's language, which the notifier keeps for the
        DMs it sends them later. Forms are answered here, not by kept ``Modal`` objects, so that
        one opened before a restart is answered too (see ``views.amount_form``), and so are
        the table's buttons (see ``views.table_controls``)."""
        self.notifier.remember_language(interaction.user.id, language_of(interaction))
        if interaction.type is discord.InteractionType.modal_submit:
            await answer_form(interaction)
        else:
            await answer_table_click(interaction)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A deleted channel's table closes at once: its hand refunded, everyone cashed out."""
        await self._close_tables_of_channel(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A table in a deleted thread closes at once, like one in a deleted channel."""
        await self._close_tables_of_channel(payload.thread_id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server (or it was deleted): its tables close, chips back to players."""
        closed = await self.tables.close_guild(guild.id)
        if closed:
            log.info("left server %s: closed the tables of channels %s", guild.id, closed)

    async def _close_tables_of_channel(self, channel_id: int) -> None:
        if await self.tables.close_table(channel_id):
            log.info("channel %s is gone: its table closed and everyone was cashed out",
                     channel_id)

    # The gateway's connection per shard. An AutoShardedClient dispatches ``on_disconnect``
    # and ``on_resumed`` together with ``on_shard_disconnect`` and ``on_shard_resumed``,
    # which name the shard, so only those are handled; ``on_ready`` waits for every shard.

    async def on_shard_disconnect(self, shard_id: int) -> None:
        """A shard's gateway connection dropped: no click from its servers can reach the
        bot, so their tables' clocks stop (discord.py says it again at every failed attempt
        to reconnect, which changes nothing)."""
        log.info("shard %s: the gateway connection dropped", shard_id)
        await self.tables.gateway_down(shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        """The shard's session resumed: the events of the gap are replayed, clicks arrive
        again, and its tables' clocks run on (with a grace for the person to act)."""
        log.info("shard %s: the gateway session resumed", shard_id)
        await self.tables.gateway_up(shard_id)

    async def on_shard_ready(self, shard_id: int) -> None:
        """The shard identified (at start, or anew after an outage too long to resume): as
        for a resumed session; at the start, nothing was down."""
        await self.tables.gateway_up(shard_id)

    async def on_ready(self) -> None:
        """Every shard is ready. It runs again after a shard identifies anew, so it only
        logs: the tables and their messages live on across reconnections."""
        log.info("logged in as %s in %d servers", self.user, len(self.guilds))

    async def drain(self) -> None:
        """Before a stop, while still connected (so that people can act): deal no new hand
        and let the hands in progress finish, for up to ``settings.drain_seconds``."""
        if hasattr(self, "tables"):
            await self.tables.drain(self.settings.drain_seconds)

    async def close(self) -> None:
        """Stop the tables for the next start (the hands in progress get
        ``settings.drain_seconds`` to finish, what still runs then is refunded; seats and
        chips stay), show them paused, close the ledger, then disconnect."""
        # A failed setup_hook may have opened only some of the three.
        if hasattr(self, "tables"):
            if self.lost_claim is None:
                await self.tables.suspend(self.settings.drain_seconds)
            else:
                await self.tables.shutdown()
        if self.options.companion is not None:
            await self.options.companion.close()
        if hasattr(self, "notifier"):
            await self.notifier.close()
        if self.pictures is not None:
            self.pictures.close()
        if hasattr(self, "lease") and self.lost_claim is None:
            try:
                await self.lease.release()
            except LedgerError:
                log.warning("could not release the claim on %s; it lapses in %g s",
                            self.settings.shards, self.settings.shard_lease)
        if hasattr(self, "ledger"):
            await self.ledger.close()
        await super().close()


async def connect_through(client: discord.Client, api_base: str, token: str, *,
                          reconnect: bool = True) -> None:
    """Log ``client`` in at ``api_base`` (a REST proxy, or a test server) and connect it to
    the gateway that API names, as ``Client.start`` does with Discord's."""
    discord.http.Route.BASE = api_base
    await client.login(token)
    _, gateway, _ = await client.http.get_bot_gateway()
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    await client.connect(reconnect=reconnect)


def create_bot(settings: Settings | None = None, options: BotOptions | None = None) -> HoldemBot:
    """The unstarted bot; with ``settings=None`` they are read from the environment, and
    without ``options`` the defaults, images as ``settings.images`` says."""
    settings = settings or Settings.from_env()
    return HoldemBot(settings, options or BotOptions(draw_images=settings.images))

"""Tournaments: ``/tournament create | join | leave | start | status | cancel | rebuy |
addon``.

A tournament is created in a channel (Manage Server, or anyone when the server's
``/settings tournament_creators`` says so), which then shows its status message;
the commands without a ``tournament`` number act on the tournament of the channel they are
used in (the one created there, or the one whose table plays there). A sit-and-go plays in
that channel; a tournament with more players than seats opens its tables in threads under it.
``start_at`` schedules the start (the server's ``timezone``; ``bot.discord_ui.tournament_events``)
and announces it as a Discord Scheduled Event; ``/tournament cancel`` cancels that event too.
Every refusal is an ephemeral sentence in the member's language (``HoldemError`` through the
tree's error ladder); the channel's messages are the notifier's, in the server's language.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.permissions import THREAD_PERMISSIONS, missing
from bot.discord_ui.replies import language_of, reply, within_deadline
from bot.discord_ui.tournament_embeds import status_embed
from bot.discord_ui.tournament_events import create_event, parse_start
from bot.discord_ui.views.tournament_buttons import bought_text
from bot.errors import HoldemError, InputError
from bot.i18n import tr
from bot.tables.errors import NoSuchTournament
from bot.tables.tournament_settings import (
    MAX_BUY_IN,
    MAX_ENTRANTS,
    MAX_LATE_REGISTRATION,
    MAX_REBUY_LEVELS,
    MAX_REBUYS,
    MAX_SEATS,
    MAX_STARTING_STACK,
    MIN_SEATS,
    TournamentSettings,
)
from bot.tables.tournament_status import Purchase, TournamentPhase, TournamentStatus
from engine.blinds import LevelUnit
from engine.strategies import LEVELS

if TYPE_CHECKING:
    from bot.discord_ui.app import HoldemBot

log = logging.getLogger(__name__)

MAX_PAID_PLACES = 60
STRUCTURE_CHOICES = [app_commands.Choice(name="Turbo", value="turbo"),
                     app_commands.Choice(name="Regular", value="regular"),
                     app_commands.Choice(name="Deep", value="deep")]
UNIT_CHOICES = [app_commands.Choice(name="Minutes", value=LevelUnit.MINUTES.value),
                app_commands.Choice(name="Hands", value=LevelUnit.HANDS.value)]
ON_OFF = [app_commands.Choice(name="On", value="on"), app_commands.Choice(name="Off", value="off")]
BOT_CHOICES = [app_commands.Choice(name=level.capitalize(), value=level) for level in LEVELS]
TOURNAMENT_ID = app_commands.Range[int, 1, 2**53]
_PAYOUT_SEPARATORS = re.compile(r"[\s/,;|]+")


class NoTournamentHere(HoldemError):
    """A command without a tournament number, in a channel with no open tournament; it points
    to the open ones, else to who may create one (``anyone_creates``: the server lets anyone)."""

    def __init__(self, open_ids: list[int], *, anyone_creates: bool) -> None:
        if open_ids:
            super().__init__(tr(
                "There is no open tournament in this channel. Open in this server: {numbers}; "
                "give its number with the tournament option.",
                numbers=[f"#{number}" for number in open_ids]))
        elif anyone_creates:
            super().__init__(tr("There is no open tournament in this channel. Anyone can "
                                "start one with /tournament create."))
        else:
            super().__init__(tr("There is no open tournament in this channel. A member with "
                                "Manage Server can start one with /tournament create."))


class NotTournamentOrganiser(HoldemError):
    """Only the creator or a server manager may cancel (or start) a tournament."""

    def __init__(self) -> None:
        super().__init__(tr("Only the player who created this tournament, or members with "
                            "Manage Server, can do that."))


class NotAllowedToCreate(HoldemError):
    """Only server managers may create tournaments, unless the server lets anyone."""

    def __init__(self) -> None:
        super().__init__(tr("Only members with Manage Server can create tournaments in this "
                            "server (a manager can let anyone, with /settings "
                            "tournament_creators)."))


class ThreadsNeedATextChannel(HoldemError):
    """Multi-table tournaments open threads, which a thread cannot have."""

    def __init__(self) -> None:
        super().__init__(tr("A tournament with more players than seats opens its tables in "
                            "threads: create it in a text channel, not in a thread."))


def parse_payouts(text: str) -> tuple[int, ...]:
    """Percentages like ``"50/30/20"`` (or ``50 30 20``, ``50%, 30%, 20%``), best first;
    ``InputError`` for anything else. Whether they add up is the settings' check."""
    words = [word for word in _PAYOUT_SEPARATORS.split(text.replace("%", " ")) if word]
    if not words or len(words) > MAX_PAID_PLACES or not all(
            word.isascii() and word.isdigit() and len(word) <= 3 for word in words):
        raise InputError(tr("Write payouts as percentages of the prize pool, best place "
                            "first, like 50/30/20."))
    return tuple(int(word) for word in words)


def _require_threads(interaction: discord.Interaction[HoldemBot]) -> None:
    """A multi-table tournament needs a text channel where the bot may open threads."""
    if isinstance(interaction.channel, discord.Thread):
        raise ThreadsNeedATextChannel()
    lacking = missing(THREAD_PERMISSIONS, interaction.app_permissions)
    if lacking:
        raise app_commands.BotMissingPermissions(lacking)


class TournamentCog(commands.Cog, name="Tournament"):
    """Sit-and-go and multi-table tournaments, on the tables of this bot."""

    tournament = app_commands.Group(
        name="tournament", description="Sit-and-go and multi-table tournaments.",
        guild_only=True)

    def __init__(self, bot: HoldemBot) -> None:
        self.bot = bot

    @tournament.command(name="create", description="Open a tournament in this channel "
                                                   "(Manage Server, or anyone if allowed).")
    @app_commands.describe(
        buy_in="Chips each player pays into the prize pool (0 for a freeroll)",
        starting_stack="Tournament chips each player starts with",
        seats=f"Seats per table ({MIN_SEATS}-{MAX_SEATS})",
        structure="How fast the blinds rise",
        levels_by="Whether blind levels last minutes or hands",
        antes_from_level="The blind level where antes start (default: no antes)",
        payouts="Percentages of the pool per place, like 50/30/20 (default: by field size)",
        bot_fill="Bots of this level fill the empty places at the start",
        max_entrants="Most players (default: the seats; more makes a multi-table tournament)",
        late_registration="Players may still join until the end of this blind level "
                          "(default 0: off)",
        rebuys="Rebuys each player may take, at or below the starting stack (default 0)",
        rebuy_levels="How many blind levels rebuys last (default 3)",
        addon="One add-on for everyone still in, after the rebuy period (default off)",
        addon_price="What the add-on costs (default: the buy-in)",
        addon_chips="The add-on's chips (default: the starting stack)",
        reentry="Players knocked out may enter again during late registration (default off)",
        start_at="Start by itself then: in 2h, 20:30, tomorrow 20:00 (server time)",
    )
    @app_commands.choices(structure=STRUCTURE_CHOICES, levels_by=UNIT_CHOICES,
                          bot_fill=BOT_CHOICES, addon=ON_OFF, reentry=ON_OFF)
    async def create(
        self,
        interaction: discord.Interaction[HoldemBot],
        buy_in: app_commands.Range[int, 0, MAX_BUY_IN],
        starting_stack: app_commands.Range[int, 1, MAX_STARTING_STACK] = 1500,
        seats: app_commands.Range[int, MIN_SEATS, MAX_SEATS] = MAX_SEATS,
        structure: str = "regular",
        levels_by: str = LevelUnit.MINUTES.value,
        antes_from_level: app_commands.Range[int, 1, 100] | None = None,
        payouts: app_commands.Range[str, 1, 200] | None = None,
        bot_fill: str | None = None,
        max_entrants: app_commands.Range[int, MIN_SEATS, MAX_ENTRANTS] | None = None,
        late_registration: app_commands.Range[int, 0, MAX_LATE_REGISTRATION] = 0,
        rebuys: app_commands.Range[int, 0, MAX_REBUYS] = 0,
        rebuy_levels: app_commands.Range[int, 1, MAX_REBUY_LEVELS] = 3,
        addon: str = "off",
        addon_price: app_commands.Range[int, 0, MAX_BUY_IN] | None = None,
        addon_chips: app_commands.Range[int, 1, MAX_STARTING_STACK] | None = None,
        reentry: str = "off",
        start_at: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        guild_id, channel_id = interaction.guild_id or 0, interaction.channel_id or 0
        if not interaction.permissions.manage_guild:
            server = await within_deadline(interaction, self.bot.tables.guild_settings(guild_id))
            if server.tournament_creators != "anyone":
                raise NotAllowedToCreate()
        try:
            unit = LevelUnit(levels_by)
        except ValueError:
            raise InputError(tr("Blind levels last a number of minutes or of hands.")) from None
        settings = TournamentSettings(
            buy_in=buy_in, starting_stack=starting_stack, seats=seats, structure=structure,
            unit=unit, antes_from_level=antes_from_level,
            payouts=parse_payouts(payouts) if payouts is not None else None,
            bot_fill=bot_fill, max_entrants=max_entrants, late_registration=late_registration,
            rebuys=rebuys, rebuy_levels=rebuy_levels, addon=addon == "on",
            addon_price=addon_price, addon_chips=addon_chips, reentry=reentry == "on")
        if settings.is_multi_table:
            _require_threads(interaction)
        starts_at = None
        if start_at is not None:
            server = await within_deadline(interaction, self.bot.tables.guild_settings(guild_id))
            starts_at = parse_start(start_at, discord.utils.utcnow(), server.timezone)
        tournaments = self.bot.tables.tournaments
        tournament_id = await within_deadline(interaction, tournaments.create(
            guild_id, channel_id, interaction.user.id, settings,
            starts_at.timestamp() if starts_at is not None else None))
        if starts_at is None:
            await reply(interaction, tr("Tournament #{number} is open. Players enter with "
                                        "/tournament join; you start it with /tournament start "
                                        "(it starts by itself when full).",
                                        number=str(tournament_id)))
            return
        await within_deadline(interaction, self._announce(interaction, tournament_id))
        await reply(interaction, tr("Tournament #{number} is open and starts by itself "
                                    "<t:{at}:F> with at least two players. Players enter with "
                                    "/tournament join.", number=str(tournament_id),
                                    at=str(int(starts_at.timestamp()))))

    async def _announce(self, interaction: discord.Interaction[HoldemBot],
                        tournament_id: int) -> None:
        """Announce a scheduled tournament as a Discord Scheduled Event, kept with it; one the
        server does not let the bot create (Manage Events) leaves the tournament as it is."""
        tournaments = self.bot.tables.tournaments
        guild = interaction.guild
        if guild is None:
            return
        language = await self.bot.notifier.server_language(guild.id)
        try:
            event = await create_event(guild, tournaments.status(tournament_id), language)
        except discord.HTTPException:
            log.warning("tournament %s: no Discord event (the bot may lack Manage Events)",
                        tournament_id, exc_info=True)
            return
        await tournaments.set_event(tournament_id, event.id)

    @tournament.command(name="rebuy", description="Buy the starting stack again for the "
                                                  "buy-in (while rebuys are open).")
    @app_commands.describe(tournament="The tournament's number (default: this channel's)")
    async def rebuy(self, interaction: discord.Interaction[HoldemBot],
                    tournament: TOURNAMENT_ID | None = None) -> None:
        status = await self._tournament(interaction, tournament)
        count = await within_deadline(interaction, self.bot.tables.tournaments.rebuy(
            status.tournament_id, interaction.user.id))
        await reply(interaction, bought_text(Purchase.REBUY, status.tournament_id, count))

    @tournament.command(name="addon", description="Take the add-on once, in the level after "
                                                  "the rebuy period.")
    @app_commands.describe(tournament="The tournament's number (default: this channel's)")
    async def addon(self, interaction: discord.Interaction[HoldemBot],
                    tournament: TOURNAMENT_ID | None = None) -> None:
        status = await self._tournament(interaction, tournament)
        count = await within_deadline(interaction, self.bot.tables.tournaments.addon(
            status.tournament_id, interaction.user.id))
        await reply(interaction, bought_text(Purchase.ADDON, status.tournament_id, count))

    @tournament.command(name="join", description="Enter a tournament; the buy-in comes from "
                                                 "your balance.")
    @app_commands.describe(tournament="The tournament's number (default: this channel's)")
    async def join(self, interaction: discord.Interaction[HoldemBot],
                   tournament: TOURNAMENT_ID | None = None) -> None:
        status = await self._tournament(interaction, tournament)
        user = interaction.user
        count = await within_deadline(interaction, self.bot.tables.tournaments.join(
            status.tournament_id, user.id, user.display_name))
        number, limit = str(status.tournament_id), status.settings.entrant_limit
        if status.phase is TournamentPhase.RUNNING:
            now = self.bot.tables.tournaments.status(status.tournament_id)
            seat = next((entrant for entrant in now.entrants if entrant.user_id == user.id),
                        None)
            table = seat.table_channel_id if seat is not None else None
            text = tr("You are in tournament #{number} with {chips} chips, at <#{channel}>. "
                      "Your buy-in of {buy_in} chips is in the prize pool.", number=number,
                      chips=status.settings.starting_stack, channel=str(table or 0),
                      buy_in=status.settings.buy_in)
        elif count >= limit:
            text = tr("You are in tournament #{number}, the last of {limit} players: it "
                      "starts now.", number=number, limit=limit)
        else:
            text = tr("You are in tournament #{number} ({count} of {limit} players). Your "
                      "buy-in of {buy_in} chips is in the prize pool.", number=number,
                      count=count, limit=limit, buy_in=status.settings.buy_in)
        await reply(interaction, text)

    @tournament.command(name="leave", description="Leave a tournament before it starts; your "
                                                  "buy-in is refunded.")
    @app_commands.describe(tournament="The tournament's number (default: this channel's)")
    async def leave(self, interaction: discord.Interaction[HoldemBot],
                    tournament: TOURNAMENT_ID | None = None) -> None:
        status = await self._tournament(interaction, tournament)
        await within_deadline(interaction, self.bot.tables.tournaments.leave(
            status.tournament_id, interaction.user.id))
        await reply(interaction, tr("You left tournament #{number}; your buy-in of {buy_in} "
                                    "chips is back in your balance.",
                                    number=str(status.tournament_id),
                                    buy_in=status.settings.buy_in))

    @tournament.command(name="start", description="Start a tournament now (its creator, or "
                                                  "Manage Server).")
    @app_commands.describe(tournament="The tournament's number (default: this channel's)")
    async def start(self, interaction: discord.Interaction[HoldemBot],
                    tournament: TOURNAMENT_ID | None = None) -> None:
        status = await self._tournament(interaction, tournament)
        by_user = None if interaction.permissions.manage_guild else interaction.user.id
        await within_deadline(interaction, self.bot.tables.tournaments.start(
            status.tournament_id, by_user))
        await reply(interaction, tr("Tournament #{number} starts. Good luck!",
                                    number=str(status.tournament_id)))

    @tournament.command(name="status", description="Blinds, next level, players left and "
                                                   "payouts of a tournament.")
    @app_commands.describe(tournament="The tournament's number (default: this channel's)")
    async def status(self, interaction: discord.Interaction[HoldemBot],
                     tournament: TOURNAMENT_ID | None = None) -> None:
        status = await self._tournament(interaction, tournament)
        await reply(interaction, embed=status_embed(status, language_of(interaction)))

    @tournament.command(name="cancel", description="Cancel a tournament and refund every "
                                                   "buy-in (its creator, or Manage Server).")
    @app_commands.describe(tournament="The tournament's number (default: this channel's)")
    async def cancel(self, interaction: discord.Interaction[HoldemBot],
                     tournament: TOURNAMENT_ID | None = None) -> None:
        status = await self._tournament(interaction, tournament)
        if not interaction.permissions.manage_guild \
                and interaction.user.id != status.creator_id:
            raise NotTournamentOrganiser()
        await within_deadline(interaction, self.bot.tables.tournaments.cancel(
            status.tournament_id), ephemeral=True)
        await reply(interaction, tr("Tournament #{number} is cancelled; every buy-in was "
                                    "refunded.", number=str(status.tournament_id)))

    @join.autocomplete("tournament")
    @rebuy.autocomplete("tournament")
    @addon.autocomplete("tournament")
    @leave.autocomplete("tournament")
    @start.autocomplete("tournament")
    @status.autocomplete("tournament")
    @cancel.autocomplete("tournament")
    async def open_tournaments(self, interaction: discord.Interaction[HoldemBot],
                               current: str) -> list[app_commands.Choice[int]]:
        language = language_of(interaction)
        choices = []
        for status in self.bot.tables.tournaments.tournaments(interaction.guild_id or 0):
            if current and current not in str(status.tournament_id):
                continue
            label = language.render(tr(
                "#{number} · buy-in {buy_in} · {count}/{limit} players",
                number=str(status.tournament_id), buy_in=status.settings.buy_in,
                count=status.entrant_count, limit=status.settings.entrant_limit))
            choices.append(app_commands.Choice(name=label[:100], value=status.tournament_id))
        return choices[-25:]

    async def _tournament(self, interaction: discord.Interaction[HoldemBot],
                          number: int | None) -> TournamentStatus:
        """The tournament ``number`` of this server, else the open one of this channel."""
        tournaments = self.bot.tables.tournaments
        guild_id = interaction.guild_id or 0
        if number is None:
            found = tournaments.in_channel(interaction.channel_id or 0)
            if found is None:
                server = await within_deadline(interaction,
                                               self.bot.tables.guild_settings(guild_id))
                raise NoTournamentHere([status.tournament_id
                                        for status in tournaments.tournaments(guild_id)],
                                       anyone_creates=server.tournament_creators == "anyone")
            number = found
        status = tournaments.status(number)
        if status.guild_id != guild_id:
            raise NoSuchTournament()
        return status


async def setup(bot: HoldemBot) -> None:
    await bot.add_cog(TournamentCog(bot))

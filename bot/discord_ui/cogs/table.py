"""Sitting at the channel's table: join, leave, start, sit out/in, top up, cards, bots."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.amounts import check_amount
from bot.discord_ui.permissions import TABLE_PERMISSIONS
from bot.discord_ui.player_actions import show_my_cards
from bot.discord_ui.replies import reply, within_deadline
from bot.discord_ui.views.pre_actions import SITTING_IN
from bot.errors import HoldemError, InputError
from bot.i18n import Text, tr, tr_c
from bot.tables.errors import NoTableHere
from engine.strategies import LEVELS

if TYPE_CHECKING:
    from bot.discord_ui.app import HoldemBot

MAX_BOTS_PER_COMMAND = 8
LEVEL_NAMES: dict[str, Text] = {"easy": tr("Easy"), "medium": tr("Medium"), "hard": tr("Hard"),
                                "expert": tr("Expert")}
"""How the bots' levels read in menus and answers (the English names are also the choices'
names, which the catalogs translate)."""
AMOUNT = app_commands.Range[int, 1, 10**12]

needs_table_permissions = app_commands.checks.bot_has_permissions(
    **dict.fromkeys(TABLE_PERMISSIONS, True))


def _level_name(level: str) -> str:
    """A level's English name, as the choice shows it (``Medium``)."""
    return str(LEVEL_NAMES[level]) if level in LEVEL_NAMES else level.capitalize()


class NotYourTable(HoldemError):
    """Only the table's players and the server's managers may add bots, remove them or deal."""

    def __init__(self) -> None:
        super().__init__(tr("Only players seated at this table, or members with Manage "
                            "Server, can do that."))


def member_cooldown(
    command: str,
) -> Callable[[discord.Interaction[HoldemBot]], app_commands.Cooldown | None]:
    """The cooldown of ``command`` for one member, from the bot's options (none if unset)."""
    def cooldown(interaction: discord.Interaction[HoldemBot]) -> app_commands.Cooldown | None:
        limit = interaction.client.options.cooldowns.get(command)
        return None if limit is None else app_commands.Cooldown(*limit)
    return cooldown


class TableCog(commands.Cog, name="Table"):
    """One table per channel, opened by the first /join or /addbot."""

    def __init__(self, bot: HoldemBot) -> None:
        self.bot = bot

    @app_commands.command(description="Sit down at this channel's table (opens one if needed).")
    @app_commands.describe(buy_in="Chips to bring from your balance (default: the table's)")
    @app_commands.guild_only()
    @needs_table_permissions
    async def join(
        self,
        interaction: discord.Interaction[HoldemBot],
        buy_in: AMOUNT | None = None,
    ) -> None:
        guild_id, channel_id, user = _where(interaction)
        if buy_in is not None:
            check_amount(buy_in)
        name = user.display_name

        async def sit_down() -> int:
            await self.bot.ledger.ensure_player(guild_id, user.id, name)
            return await self.bot.tables.join(guild_id, channel_id, user.id, name, buy_in)

        stack = await within_deadline(interaction, sit_down())
        await reply(interaction, tr("You sit down with {chips} chips. Use /start (or wait) "
                                    "for the next hand.", chips=stack))

    @app_commands.command(description="Leave the table; your stack goes back to your balance.")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[HoldemBot]) -> None:
        _, channel_id, user = _where(interaction)
        cashed = await within_deadline(interaction, self.bot.tables.leave(channel_id, user.id))
        if cashed is None:
            text = tr("You will leave when this hand is over; your stack goes back to your "
                      "balance.")
        else:
            text = tr("You leave the table; {chips} chips go back to your balance.",
                      chips=cashed)
        await reply(interaction, text)

    @app_commands.command(description="Deal the next hand now.")
    @app_commands.guild_only()
    @app_commands.checks.dynamic_cooldown(member_cooldown("start"))
    async def start(self, interaction: discord.Interaction[HoldemBot]) -> None:
        _, channel_id, _ = _where(interaction)
        self._require_table_rights(interaction)
        await within_deadline(interaction, self.bot.tables.start_hand(channel_id))
        await reply(interaction, tr("Dealing. Your cards come by DM (or press My cards)."))

    @app_commands.command(description="Post the voluntary straddle whenever it is your seat's.")
    @app_commands.describe(choice="On: you straddle when the straddle's seat is yours; off: never")
    @app_commands.choices(choice=[app_commands.Choice(name="On", value="on"),
                                  app_commands.Choice(name="Off", value="off")])
    @app_commands.guild_only()
    async def straddle(self, interaction: discord.Interaction[HoldemBot], choice: str) -> None:
        _, channel_id, user = _where(interaction)
        await self.bot.tables.choose_straddle(channel_id, user.id, choice == "on")
        await reply(interaction, tr(
            "You will post a straddle of two big blinds whenever the straddle's seat is yours, "
            "from the next hand.") if choice == "on" else tr("You will not straddle."))

    @app_commands.command(description="Keep your seat but skip the coming hands.")
    @app_commands.guild_only()
    async def sitout(self, interaction: discord.Interaction[HoldemBot]) -> None:
        _, channel_id, user = _where(interaction)
        await self.bot.tables.sit_out(channel_id, user.id)
        await reply(interaction, tr("You are sitting out from the next hand. /sitin to play "
                                    "again."))

    @app_commands.command(description="Play again from the next hand.")
    @app_commands.guild_only()
    async def sitin(self, interaction: discord.Interaction[HoldemBot]) -> None:
        _, channel_id, user = _where(interaction)
        await self.bot.tables.sit_in(channel_id, user.id)
        await reply(interaction, SITTING_IN)

    @app_commands.command(description="A ping when your turn has waited a few seconds for you.")
    @app_commands.describe(ping="On: a DM (or a mention, with DMs closed); off: none")
    @app_commands.choices(ping=[app_commands.Choice(name="On", value="on"),
                                app_commands.Choice(name="Off", value="off")])
    async def notify(self, interaction: discord.Interaction[HoldemBot], ping: str) -> None:
        wanted = ping == "on"
        user_id = interaction.user.id
        await within_deadline(interaction, self.bot.ledger.save_turn_ping(user_id, wanted))
        pings = self.bot.notifier.turn_pings
        if wanted:
            pings.wanted.add(user_id)
            await reply(interaction, tr(
                "Turn pings on: when your turn has waited {seconds} s for you, I send you a DM "
                "(or, if your DMs are closed, mention you in the table's channel and delete it "
                "once you act).", seconds=format(pings.after, "g")))
        else:
            pings.wanted.discard(user_id)
            await reply(interaction, tr("Turn pings off."))

    @app_commands.command(description="Add chips from your balance to your stack.")
    @app_commands.describe(amount="Chips to add (up to the table's maximum buy-in)")
    @app_commands.guild_only()
    async def topup(self, interaction: discord.Interaction[HoldemBot], amount: AMOUNT) -> None:
        _, channel_id, user = _where(interaction)
        check_amount(amount)
        stack = await within_deadline(
            interaction, self.bot.tables.top_up(channel_id, user.id, amount)
        )
        await reply(interaction, tr("Your stack is now {chips} chips.", chips=stack))

    @app_commands.command(description="See your hole cards again (only you see them).")
    @app_commands.guild_only()
    async def cards(self, interaction: discord.Interaction[HoldemBot]) -> None:
        await show_my_cards(interaction)

    @app_commands.command(name="table", description="Post the table again at the bottom.")
    @app_commands.guild_only()
    @app_commands.checks.dynamic_cooldown(member_cooldown("table"))
    async def show_table(self, interaction: discord.Interaction[HoldemBot]) -> None:
        _, channel_id, _ = _where(interaction)
        state = self.bot.tables.state(channel_id)
        if state is None:
            raise NoTableHere()
        self.bot.notifier.repost_table(state)
        await reply(interaction, tr("The table is posted below."))

    @app_commands.command(description="Seat bot opponents, bought in by the house.")
    @app_commands.describe(level="How well the bots play", count="How many bots to seat")
    @app_commands.choices(level=[app_commands.Choice(name=_level_name(level), value=level)
                                 for level in LEVELS])
    @app_commands.guild_only()
    @needs_table_permissions
    @app_commands.checks.dynamic_cooldown(member_cooldown("addbot"))
    async def addbot(
        self,
        interaction: discord.Interaction[HoldemBot],
        level: str = "medium",
        count: app_commands.Range[int, 1, MAX_BOTS_PER_COMMAND] = 1,
    ) -> None:
        guild_id, channel_id, _ = _where(interaction)
        self._require_table_rights(interaction)
        if not 1 <= count <= MAX_BOTS_PER_COMMAND:
            raise InputError(tr("Add 1 to {count} bots at a time.",
                                count=MAX_BOTS_PER_COMMAND))
        names = await within_deadline(
            interaction, self.bot.tables.add_bots(guild_id, channel_id, level, count)
        )
        await reply(interaction, tr("Seated {names} ({level}).", names=_commas(names),
                                    level=LEVEL_NAMES.get(level, level)))

    @app_commands.command(description="Remove a bot from the table.")
    @app_commands.describe(name="Which bot (default: the last one seated)")
    @app_commands.guild_only()
    @app_commands.checks.dynamic_cooldown(member_cooldown("removebot"))
    async def removebot(
        self,
        interaction: discord.Interaction[HoldemBot],
        name: str | None = None,
    ) -> None:
        _, channel_id, _ = _where(interaction)
        self._require_table_rights(interaction)
        removed = await within_deadline(
            interaction, self.bot.tables.remove_bot(channel_id, name)
        )
        await reply(interaction, tr("{name} leaves the table.", name=removed))

    @removebot.autocomplete("name")
    async def bot_names(
        self, interaction: discord.Interaction[HoldemBot], current: str
    ) -> list[app_commands.Choice[str]]:
        state = self.bot.tables.state(interaction.channel_id or 0)
        if state is None:
            return []
        names = [seat.name for seat in state.seats if seat.is_bot]
        return [app_commands.Choice(name=name, value=name)
                for name in names if current.lower() in name.lower()][:25]

    def _require_table_rights(self, interaction: discord.Interaction[HoldemBot]) -> None:
        """Raise ``NotYourTable`` unless the member is seated here or manages the server."""
        if interaction.permissions.manage_guild:
            return
        state = self.bot.tables.state(interaction.channel_id or 0)
        if state is None or state.seat_of(interaction.user.id) is None:
            raise NotYourTable()


def _commas(names: list[str]) -> Text | str:
    """Names one after another, separated the reader's way (``Ann, Bob`` / ``Ann、Bob``)."""
    if not names:
        return ""
    joined: Text | str = names[0]
    for name in names[1:]:
        joined = tr_c("list", "{names}, {name}", names=joined, name=name)
    return joined


def _where(interaction: discord.Interaction[HoldemBot]) -> tuple[int, int, discord.abc.User]:
    """The server, channel and person of a table command (the commands are server-only)."""
    return interaction.guild_id or 0, interaction.channel_id or 0, interaction.user


async def setup(bot: HoldemBot) -> None:
    await bot.add_cog(TableCog(bot))

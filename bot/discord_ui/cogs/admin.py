"""Server administration (Manage Server only): table settings, and chip grants."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.embeds import TABLE_COLOUR, chips
from bot.discord_ui.replies import reply, within_deadline
from bot.errors import InputError
from bot.tables.settings import MAX_SEATS, MIN_SEATS, TableSettings

if TYPE_CHECKING:
    from bot.discord_ui.app import HoldemBot

BLIND = app_commands.Range[int, 1, 10**9]
BIG_BLINDS = app_commands.Range[int, 1, 10_000]
SECONDS = app_commands.Range[float, 0, 3600]
GRANT = app_commands.Range[int, 1, 100_000_000]
NOTE = app_commands.Range[str, 1, 200]


class AdminCog(commands.Cog, name="Admin"):
    """Table defaults for the server (a running table changes from its next hand), and chip
    grants, which the ledger records as admin entries."""

    def __init__(self, bot: HoldemBot) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description="Show or change the server's table "
                                                        "settings (Manage Server).")
    @app_commands.describe(
        small_blind="Small blind, in chips",
        big_blind="Big blind, in chips",
        min_buy_in="Smallest buy-in, in big blinds",
        max_buy_in="Largest buy-in, in big blinds",
        default_buy_in="Buy-in when a player names none, in big blinds (follows the range)",
        seats=f"Seats per table ({MIN_SEATS}-{MAX_SEATS})",
        max_bots="Most bots at one table (default: all seats but two)",
        turn_timer="Seconds a player has to act",
        bot_delay_min="Shortest pause before a bot acts, in seconds",
        bot_delay_max="Longest pause before a bot acts, in seconds",
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction[HoldemBot],
        small_blind: BLIND | None = None,
        big_blind: BLIND | None = None,
        min_buy_in: BIG_BLINDS | None = None,
        max_buy_in: BIG_BLINDS | None = None,
        default_buy_in: BIG_BLINDS | None = None,
        seats: app_commands.Range[int, MIN_SEATS, MAX_SEATS] | None = None,
        max_bots: app_commands.Range[int, 0, MAX_SEATS - 1] | None = None,
        turn_timer: SECONDS | None = None,
        bot_delay_min: SECONDS | None = None,
        bot_delay_max: SECONDS | None = None,
    ) -> None:
        guild_id, channel_id = interaction.guild_id or 0, interaction.channel_id or 0
        given = {
            "small_blind": small_blind, "big_blind": big_blind,
            "min_buy_in_bb": min_buy_in, "max_buy_in_bb": max_buy_in,
            "default_buy_in_bb": default_buy_in, "max_seats": seats, "max_bots": max_bots,
            "turn_timeout": turn_timer, "bot_delay_min": bot_delay_min,
            "bot_delay_max": bot_delay_max,
        }
        changes = {name: value for name, value in given.items() if value is not None}

        async def apply() -> TableSettings:
            if not changes:
                return await self.bot.tables.guild_settings(guild_id)
            updated = await self.bot.tables.update_guild_settings(guild_id, **changes)
            if self.bot.tables.state(channel_id) is not None:
                await self.bot.tables.update_table_settings(channel_id, **changes)
            return updated

        current = await within_deadline(interaction, apply())
        title = "Table settings updated" if changes else "Table settings"
        await reply(interaction, embed=settings_embed(current, title))


    @app_commands.command(name="grant", description="Give chips to a player in this server "
                                                     "(Manage Server).")
    @app_commands.describe(player="Who receives the chips", amount="How many chips",
                           note="Why (kept with the ledger entry)")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def grant(
        self,
        interaction: discord.Interaction[HoldemBot],
        player: discord.User,
        amount: GRANT,
        note: NOTE | None = None,
    ) -> None:
        if player.bot:
            raise InputError("Bots have no balance; table bots are funded by the house.")
        guild_id = interaction.guild_id or 0

        async def apply() -> int:
            await self.bot.ledger.ensure_player(guild_id, player.id, player.display_name)
            return await self.bot.ledger.grant(
                guild_id, player.id, amount, reason=note or f"granted by {interaction.user.id}")

        balance = await within_deadline(interaction, apply(), ephemeral=False)
        await reply(interaction, f"{interaction.user.mention} gave {chips(amount)} chips to "
                                 f"{player.mention}; their balance is {chips(balance)}.",
                    ephemeral=False)

def settings_embed(settings: TableSettings, title: str) -> discord.Embed:
    """The settings as an embed, money in chips and clocks in seconds."""
    embed = discord.Embed(title=title, colour=TABLE_COLOUR)
    embed.add_field(name="Blinds", value=settings.blinds_text)
    embed.add_field(name="Buy-in", value=f"{chips(settings.min_buy_in)} to "
                                         f"{chips(settings.max_buy_in)} chips "
                                         f"(default {chips(settings.default_buy_in)})")
    embed.add_field(name="Seats", value=f"{settings.max_seats} (bots: at most "
                                        f"{settings.bot_limit})")
    embed.add_field(name="Turn timer", value=f"{settings.turn_timeout:g} s")
    embed.add_field(name="Bot delay",
                    value=f"{settings.bot_delay_min:g} to {settings.bot_delay_max:g} s")
    embed.set_footer(text="New tables use these; this channel's table from its next hand.")
    return embed


async def setup(bot: HoldemBot) -> None:
    await bot.add_cog(AdminCog(bot))

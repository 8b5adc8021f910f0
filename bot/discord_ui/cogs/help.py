"""/help: every command with its description, grouped by cog."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.embeds import TABLE_COLOUR
from bot.discord_ui.replies import reply

if TYPE_CHECKING:
    from bot.discord_ui.app import HoldemBot

INTRODUCTION = (
    "No-Limit Texas Hold'em in this channel. /join to sit down, /addbot for opponents, "
    "/start to deal. Act with the buttons under the table or the commands below; your cards "
    "come by DM or with **My cards**."
)


class HelpCog(commands.Cog, name="Help"):
    """How to play with this bot."""

    def __init__(self, bot: HoldemBot) -> None:
        self.bot = bot

    @app_commands.command(description="How to play, and every command.")
    async def help(self, interaction: discord.Interaction[HoldemBot]) -> None:
        await reply(interaction, embed=help_embed(self.bot))


def help_embed(bot: HoldemBot) -> discord.Embed:
    """One field per cog listing its slash commands."""
    embed = discord.Embed(title="Hold'em for Discord", description=INTRODUCTION,
                          colour=TABLE_COLOUR)
    for cog in bot.cogs.values():
        lines = [f"`/{command.name}` {command.description}"
                 for command in cog.get_app_commands()]
        if lines:
            embed.add_field(name=cog.qualified_name, value="\n".join(lines)[:1024], inline=False)
    return embed


async def setup(bot: HoldemBot) -> None:
    await bot.add_cog(HelpCog(bot))

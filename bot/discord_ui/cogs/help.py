"""/help: every command with its description, grouped by cog, in the member's language."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.ext import commands

from bot.discord_ui.embeds import TABLE_COLOUR
from bot.discord_ui.replies import language_of, reply
from bot.discord_ui.translator import catalog_text
from bot.i18n import ENGLISH, Language, Text, tr, tr_c
from bot.web_access import web_page

if TYPE_CHECKING:
    from bot.discord_ui.app import HoldemBot

INTRODUCTION = tr(
    "No-Limit Texas Hold'em in this channel. /join to sit down, /addbot for opponents, "
    "/start to deal. Act with the buttons under the table or the commands below; your cards "
    "come by DM or with **My cards**."
)
SHOWING_CARDS = tr(
    "Win a hand without a showdown and a DM offers you, for a few seconds, to show one card "
    "or both. At showdown a hand that wins nothing is mucked unseen, unless /settings "
    "auto_muck is off: then you choose to show it or muck it. What is shown is in /history "
    "and /replay for everyone; the rest stays yours."
)
TOURNAMENT_EXTRAS = tr(
    "/tournament create with rebuys (and rebuy_levels) lets a player at or below the starting "
    "stack, or knocked out, buy it again for the buy-in (/tournament rebuy, or the button of "
    "the note saying they are out); addon sells one more stack to everyone still in, in the "
    "level after the rebuys; reentry lets a player knocked out enter again during late "
    "registration. start_at (“in 2h”, “20:30”, “tomorrow 20:00”, the server's time zone) "
    "announces it as a Discord event and starts it by itself."
)
COG_TITLES: dict[str, Text] = {
    "Table": tr_c("help", "Table"), "Actions": tr_c("help", "Actions"),
    "Account": tr_c("help", "Account"), "Admin": tr_c("help", "Admin"),
    "Help": tr_c("help", "Help"),
}
"""The headings of /help, one per cog."""


class HelpCog(commands.Cog, name="Help"):
    """How to play with this bot."""

    def __init__(self, bot: HoldemBot) -> None:
        self.bot = bot

    @app_commands.command(description="How to play, and every command.")
    async def help(self, interaction: discord.Interaction[HoldemBot]) -> None:
        await reply(interaction, embed=help_embed(self.bot, language_of(interaction)))

    @app_commands.command(description="The link to this server's web pages: tables, "
                                      "leaderboards, players and hands.")
    @app_commands.guild_only()
    async def web(self, interaction: discord.Interaction[HoldemBot]) -> None:
        """Only the asker sees the link; whether the pages open for them is the server's
        ``web_page`` setting, which the answer names."""
        guild_id = interaction.guild_id or 0
        page = web_page(await self.bot.ledger.guild_settings(guild_id))
        link = f"{self.bot.settings.web.url}/servers/{guild_id}"
        text = {"public": tr("This server's pages, open to anyone with the link: {link}",
                             link=link),
                "members": tr("This server's pages, for its members (log in with Discord): "
                              "{link}", link=link),
                "off": tr("This server's web pages are off; an admin can turn them on with "
                          "/settings web_page.")}[page]
        await reply(interaction, text)


def help_embed(bot: HoldemBot, language: Language = ENGLISH) -> discord.Embed:
    """One field per cog listing its slash commands, with the names and descriptions Discord
    shows in ``language``."""
    embed = discord.Embed(title=language.render(tr("Hold'em for Discord")),
                          description=language.render(INTRODUCTION), colour=TABLE_COLOUR)
    for cog in bot.cogs.values():
        lines = [
            f"`/{language.render(catalog_text(command.name, Where.command_name))}` "
            f"{language.render(catalog_text(command.description, Where.command_description))}"
            for command in cog.get_app_commands()
        ]
        if lines:
            title = COG_TITLES.get(cog.qualified_name) or cog.qualified_name
            embed.add_field(name=language.render(title), value="\n".join(lines)[:1024],
                            inline=False)
    embed.add_field(name=language.render(tr("Showing your cards")),
                    value=language.render(SHOWING_CARDS), inline=False)
    embed.add_field(name=language.render(tr("Rebuys, add-ons and scheduled tournaments")),
                    value=language.render(TOURNAMENT_EXTRAS), inline=False)
    return embed


async def setup(bot: HoldemBot) -> None:
    await bot.add_cog(HelpCog(bot))

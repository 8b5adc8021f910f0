"""The bot's command tree: one error ladder for every slash command, installed with
``tree_cls=`` so that no command needs its own ``try``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.discord_ui.error_replies import report_error

if TYPE_CHECKING:
    from bot.discord_ui.app import HoldemBot


class HoldemCommandTree(app_commands.CommandTree["HoldemBot"]):
    """A ``CommandTree`` whose ``on_error`` shows expected refusals to the person and logs
    bugs (with a generic apology), through ``report_error``."""

    async def on_error(
        self, interaction: discord.Interaction[HoldemBot], error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)

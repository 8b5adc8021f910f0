"""The bot's command tree: one error ladder for every slash command, installed with
``tree_cls=`` so that no command needs its own ``try``."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_ui.error_replies import report_error


class HoldemCommandTree(app_commands.CommandTree[discord.Client]):
    """A ``CommandTree`` whose ``on_error`` shows expected refusals to the person and logs
    bugs (with a generic apology), through ``report_error``. It needs nothing of the
    application but a client, so the application that installs it is not imported here."""

    async def on_error(
        self, interaction: discord.Interaction[discord.Client], error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)

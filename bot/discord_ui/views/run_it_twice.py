"""The run-it-twice question: two buttons for the all-in players, answered ephemerally."""

from __future__ import annotations

import discord

from bot.discord_ui.error_replies import report_error
from bot.discord_ui.replies import reply
from bot.discord_ui.services import table_services

YES_ID = "holdem:run_twice:yes"
NO_ID = "holdem:run_twice:no"


class RunItTwiceButtons(discord.ui.View):
    """Yes/No for running the rest of the board twice; the runtime decides who may answer."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    async def on_error(
        self,
        interaction: discord.Interaction[discord.Client],
        error: Exception,
        item: discord.ui.Item[RunItTwiceButtons],
        /,
    ) -> None:
        await report_error(interaction, error)

    @discord.ui.button(label="Run it twice", style=discord.ButtonStyle.success, custom_id=YES_ID)
    async def agree(
        self,
        interaction: discord.Interaction[discord.Client],
        _button: discord.ui.Button[RunItTwiceButtons],
    ) -> None:
        await self._answer(interaction, agree=True)

    @discord.ui.button(label="Run it once", style=discord.ButtonStyle.secondary, custom_id=NO_ID)
    async def refuse(
        self,
        interaction: discord.Interaction[discord.Client],
        _button: discord.ui.Button[RunItTwiceButtons],
    ) -> None:
        await self._answer(interaction, agree=False)

    async def _answer(
        self,
        interaction: discord.Interaction[discord.Client],
        *,
        agree: bool,
    ) -> None:
        bot = table_services(interaction)
        await bot.tables.answer_run_it_twice(interaction.channel_id or 0, interaction.user.id,
                                             agree)
        await reply(interaction, "You chose to run it twice." if agree
                    else "You chose to run it once.")

"""What every button of the bot shares: errors are answered, never only logged.

discord.py logs what a ``DynamicItem``'s callback raises and leaves the click unanswered, so
the person would see "This interaction failed". Button work goes through ``answer_errors``
(dynamic items derive from ``Pressable`` and put their work in ``press``); a refusal then
reaches the person as its sentence, a bug as the apology (and the log), through the one
error ladder.
"""

from __future__ import annotations

from collections.abc import Awaitable

import discord

from bot.discord_ui.error_replies import report_error


async def answer_errors(interaction: discord.Interaction[discord.Client],
                        work: Awaitable[None]) -> None:
    """Run ``work``; an exception becomes the person's ephemeral answer."""
    try:
        await work
    except Exception as error:
        await report_error(interaction, error)


class Pressable:
    """Mixin for dynamic items: ``callback`` runs ``press`` and answers what it raises."""

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Run ``press`` through ``answer_errors``."""
        await answer_errors(interaction, self.press(interaction))

    async def press(self, interaction: discord.Interaction[discord.Client]) -> None:
        """The button's work."""
        raise NotImplementedError

"""What every button of the bot shares: errors are answered, never only logged.

discord.py logs what a ``DynamicItem``'s callback raises and leaves the click unanswered, so
the person would see "This interaction failed". Buttons derive from ``Pressable`` and put
their work in ``press``; a refusal then reaches the person as its sentence, a bug as the
apology (and the log), through the one error ladder.
"""

from __future__ import annotations

import discord

from bot.discord_ui.error_replies import report_error


class Pressable:
    """Mixin for dynamic items: ``callback`` runs ``press`` and answers what it raises."""

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Run ``press``; an exception becomes the person's ephemeral answer."""
        try:
            await self.press(interaction)
        except Exception as error:
            await report_error(interaction, error)

    async def press(self, interaction: discord.Interaction[discord.Client]) -> None:
        """The button's work."""
        raise NotImplementedError

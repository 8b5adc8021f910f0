"""The one place where errors become what a person sees.

Expected errors (a user mistake: not your turn, an amount out of range, no table here, a
missing permission) become one short ephemeral sentence. Anything else is a bug: it is logged
with its traceback and the person gets a generic apology, never the traceback.
"""

from __future__ import annotations

import logging
import math

import discord
from discord import app_commands

from bot.discord_ui.replies import reply
from bot.errors import HoldemError

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on my side. Please try again in a moment."


def user_message(error: BaseException) -> str | None:
    """The sentence to show for an expected error, or ``None`` when ``error`` is a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, HoldemError):
        return str(error)
    if isinstance(error, app_commands.MissingPermissions):
        return f"You need the {_names(error.missing_permissions)} permission to do that."
    if isinstance(error, app_commands.BotMissingPermissions):
        missing = error.missing_permissions
        return (f"I need the {_names(missing)} permission{'s' if len(missing) > 1 else ''} in "
                "this channel to run a table here; ask a server admin to grant "
                f"{'them' if len(missing) > 1 else 'it'}.")
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This command works in a server channel, not in direct messages."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {math.ceil(error.retry_after)} seconds."
    if isinstance(error, app_commands.TransformerError):
        return f"{error.value!r} is not something I can use here."
    if isinstance(error, app_commands.CheckFailure):
        return "You cannot use this command here."
    return None


def _names(permissions: list[str]) -> str:
    """Permission names as Discord shows them: ``Send Messages and Embed Links``."""
    names = [name.replace("_", " ").title() for name in permissions]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


async def report_error(
    interaction: discord.Interaction[discord.Client], error: BaseException
) -> None:
    """Tell the person about ``error`` ephemerally; log it first when it is a bug."""
    message = user_message(error)
    if message is None:
        command = interaction.command.qualified_name if interaction.command else None
        log.error(
            "unexpected error in %s (command %s, user %s, channel %s)",
            interaction.type.name, command, interaction.user.id, interaction.channel_id,
            exc_info=error,
        )
        message = APOLOGY
    try:
        await reply(interaction, message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error message to user %s", interaction.user.id)

"""The one place where errors become what a person sees.

Expected errors (a user mistake: not your turn, an amount out of range, no table here, a
missing permission) become one short ephemeral sentence in the member's language. Anything
else is a bug: it is logged (in English) with its traceback and the person gets a generic
apology, never the traceback.
"""

from __future__ import annotations

import logging
import math

import aiohttp
import discord
from discord import app_commands

from bot.discord_ui.expired_interactions import EXPIRED, is_expired
from bot.discord_ui.replies import language_of, reply
from bot.errors import HoldemError
from bot.i18n import ENGLISH, Language, Message, Text, tr, tr_c, tr_n

log = logging.getLogger(__name__)

APOLOGY_TEXT = tr("Sorry, something went wrong on my side. Please try again in a moment.")
APOLOGY = str(APOLOGY_TEXT)
"""The apology in English (``APOLOGY_TEXT`` is the message, shown in the member's language)."""

PERMISSION_NAMES: dict[str, Text] = {
    "manage_guild": tr_c("permission", "Manage Guild"),
    "view_channel": tr_c("permission", "View Channel"),
    "send_messages": tr_c("permission", "Send Messages"),
    "create_public_threads": tr_c("permission", "Create Public Threads"),
    "send_messages_in_threads": tr_c("permission", "Send Messages in Threads"),
    "embed_links": tr_c("permission", "Embed Links"),
    "attach_files": tr_c("permission", "Attach Files"),
    "read_message_history": tr_c("permission", "Read Message History"),
    "manage_messages": tr_c("permission", "Manage Messages"),
    "use_external_emojis": tr_c("permission", "Use External Emojis"),
    "add_reactions": tr_c("permission", "Add Reactions"),
}
"""Discord's names of the permissions the bot asks for (others are shown in English)."""


def error_text(error: BaseException) -> Message | None:
    """What to show for an expected error, or ``None`` when ``error`` is a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, HoldemError):
        return error.message
    if isinstance(error, app_commands.MissingPermissions):
        return tr("You need the {permissions} permission to do that.",
                  permissions=_names(error.missing_permissions))
    if isinstance(error, app_commands.BotMissingPermissions):
        missing = error.missing_permissions
        return tr_n("I need the {permissions} permission in this channel to run a table here; "
                    "ask a server admin to grant it.",
                    "I need the {permissions} permissions in this channel to run a table here; "
                    "ask a server admin to grant them.", len(missing),
                    permissions=_names(missing))
    if isinstance(error, app_commands.NoPrivateMessage):
        return tr("This command works in a server channel, not in direct messages.")
    if isinstance(error, app_commands.CommandOnCooldown):
        return tr("Slow down: try again in {seconds} seconds.",
                  seconds=math.ceil(error.retry_after))
    if isinstance(error, app_commands.TransformerError):
        return tr("{value} is not something I can use here.", value=repr(error.value)[:100])
    if isinstance(error, app_commands.CheckFailure):
        return tr("You cannot use this command here.")
    return None


def user_message(error: BaseException, language: Language = ENGLISH) -> str | None:
    """The sentence to show for an expected error, in ``language``, or ``None`` when
    ``error`` is a bug."""
    message = error_text(error)
    return None if message is None else language.render(message)


def _names(permissions: list[str]) -> list[Text | str]:
    """Permission names as Discord shows them (``Send Messages``), joined by the reader's
    language when rendered."""
    return [PERMISSION_NAMES.get(name) or name.replace("_", " ").title() for name in permissions]


async def report_error(
    interaction: discord.Interaction[discord.Client], error: BaseException
) -> None:
    """Tell the person about ``error`` ephemerally, in their language; log it first when it is
    a bug. An interaction Discord already expired can be told nothing: it is only counted."""
    if is_expired(error):
        EXPIRED.note()
        return
    message = error_text(error)
    if message is None:
        command = interaction.command.qualified_name if interaction.command else None
        log.error(
            "unexpected error in %s (command %s, user %s, channel %s)",
            interaction.type.name, command, interaction.user.id, interaction.channel_id,
            exc_info=error,
        )
        message = APOLOGY_TEXT
    try:
        await reply(interaction, message, ephemeral=True, language=language_of(interaction))
    except (discord.HTTPException, aiohttp.ClientError, TimeoutError):
        # (a dropped connection too: a click that comes as the bot stops)
        log.warning("could not deliver an error message to user %s", interaction.user.id)

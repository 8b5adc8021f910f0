"""Answering interactions: within Discord's 3-second window, and as a response or a follow-up.

Discord drops an interaction that is not acknowledged within 3 seconds. ``within_deadline``
runs the work and defers only if it is still running shortly before that, so a fast command
costs one REST call and a slow one still answers in time. ``reply`` then picks the initial
response or a follow-up, whichever is still possible, and writes the answer in the member's
own language (``language_of``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from typing import TypeVar

import discord

from bot.i18n import Language, Message, language_for

T = TypeVar("T")

DEFER_AFTER_SECONDS = 2.0
"""How long after Discord created an interaction the bot still waits for its real answer
before acknowledging it silently: a second of margin on Discord's 3."""
_THINKING_REPLACED = "holdem.thinking_replaced"


def seconds_to_acknowledge(interaction: discord.Interaction[discord.Client]) -> float:
    """How long the bot may still wait before acknowledging ``interaction``:
    ``DEFER_AFTER_SECONDS`` from when Discord created it (its id says when), so one that sat
    in a busy event loop is acknowledged sooner. An age outside Discord's 3 seconds says the
    clocks disagree rather than that the interaction is old, and counts as none."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    if not 0.0 <= age <= 3.0:
        age = 0.0
    return max(0.0, DEFER_AFTER_SECONDS - age)


def language_of(interaction: discord.Interaction[discord.Client]) -> Language:
    """The language the member's Discord client is set to (what their answers are in)."""
    return language_for(interaction.locale.value)


def server_language_of(interaction: discord.Interaction[discord.Client],
                       setting: str = "") -> Language:
    """What everyone in the server reads: ``setting`` (a ``TableSettings.language`` code),
    else the server's own Discord language."""
    guild_locale = interaction.guild_locale
    return language_for(setting or (guild_locale.value if guild_locale is not None else None))


async def within_deadline(
    interaction: discord.Interaction[discord.Client],
    work: Awaitable[T],
    *,
    ephemeral: bool = True,
) -> T:
    """Await ``work``; if it is not done by ``seconds_to_acknowledge``, acknowledge the
    interaction (a "thinking" message for commands, a silent update for components) first."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=seconds_to_acknowledge(interaction))
    if not done and not interaction.response.is_done():
        is_component = interaction.type is discord.InteractionType.component
        await interaction.response.defer(ephemeral=ephemeral, thinking=not is_component)
    return await task


async def reply(
    interaction: discord.Interaction[discord.Client],
    content: Message | None = None,
    *,
    ephemeral: bool = True,
    embed: discord.Embed | None = None,
    file: discord.File | None = None,
    files: Sequence[discord.File] = (),
    language: Language | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Send ``content`` (with an optional ``embed``, ``file`` or ``files`` and buttons in
    ``view``) as the response.

    ``content`` is rendered in ``language``, by default the member's own (``language_of``);
    a ``str`` is sent as it is. After a "thinking" deferral the answer replaces the thinking
    message (its visibility was chosen when deferring); after any other acknowledgement it is
    a follow-up.
    """
    text = None if content is None else (language or language_of(interaction)).render(content)
    embeds = [] if embed is None else [embed]
    files = [*files] if file is None else [file, *files]
    buttons = discord.utils.MISSING if view is None else view
    response = interaction.response
    if not response.is_done():
        await response.send_message(text, ephemeral=ephemeral, embeds=embeds, files=files,
                                    view=buttons)
    elif (response.type is discord.InteractionResponseType.deferred_channel_message
          and not interaction.extras.get(_THINKING_REPLACED)):
        interaction.extras[_THINKING_REPLACED] = True
        await interaction.edit_original_response(content=text, embeds=embeds,
                                                 attachments=files, view=buttons)
    else:
        await interaction.followup.send(
            discord.utils.MISSING if text is None else text,
            ephemeral=ephemeral, embeds=embeds, files=files,
            view=buttons,
        )

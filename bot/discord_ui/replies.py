"""Answering interactions: within Discord's 3-second window, and as a response or a follow-up.

Discord drops an interaction that is not acknowledged within 3 seconds. ``within_deadline``
runs the work and defers only if it is still running shortly before that, so a fast command
costs one REST call and a slow one still answers in time. ``reply`` then picks the initial
response or a follow-up, whichever is still possible.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from typing import TypeVar

import discord

T = TypeVar("T")

DEFER_AFTER_SECONDS = 2.0
_THINKING_REPLACED = "holdem.thinking_replaced"


async def within_deadline(
    interaction: discord.Interaction[discord.Client],
    work: Awaitable[T],
    *,
    ephemeral: bool = True,
) -> T:
    """Await ``work``; if it takes longer than ``DEFER_AFTER_SECONDS``, acknowledge the
    interaction (a "thinking" message for commands, a silent update for components) first."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER_SECONDS)
    if not done and not interaction.response.is_done():
        is_component = interaction.type is discord.InteractionType.component
        await interaction.response.defer(ephemeral=ephemeral, thinking=not is_component)
    return await task


async def reply(
    interaction: discord.Interaction[discord.Client],
    content: str | None = None,
    *,
    ephemeral: bool = True,
    embed: discord.Embed | None = None,
    file: discord.File | None = None,
    files: Sequence[discord.File] = (),
) -> None:
    """Send ``content`` (with an optional ``embed`` and ``file`` or ``files``) as the response.

    After a "thinking" deferral the answer replaces the thinking message (its visibility
    was chosen when deferring); after any other acknowledgement it is a follow-up.
    """
    embeds = [] if embed is None else [embed]
    files = [*files] if file is None else [file, *files]
    response = interaction.response
    if not response.is_done():
        await response.send_message(content, ephemeral=ephemeral, embeds=embeds, files=files)
    elif (response.type is discord.InteractionResponseType.deferred_channel_message
          and not interaction.extras.get(_THINKING_REPLACED)):
        interaction.extras[_THINKING_REPLACED] = True
        await interaction.edit_original_response(content=content, embeds=embeds,
                                                 attachments=files)
    else:
        await interaction.followup.send(
            discord.utils.MISSING if content is None else content,
            ephemeral=ephemeral, embeds=embeds, files=files,
        )

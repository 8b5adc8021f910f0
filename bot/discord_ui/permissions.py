"""The permissions the bot checks for, in one place: the cogs check these sets, and the invite
integer (README, the no-token message) is their union, so an invite made as told never lacks
one that a command then asks for.

Sets are of discord.py's flag names (``view_channel``), the names refusals show (translated
in ``error_replies.PERMISSION_NAMES``); ``discord.Permissions`` would name some by an alias.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

TABLE_PERMISSIONS = (
    "view_channel", "send_messages", "embed_links", "attach_files", "read_message_history",
)
"""What the bot needs in a channel to show a table there: the live message with its embed and
image, and finding that message again after a restart."""

THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
"""What a multi-table tournament needs besides: a thread for each of its tables."""


def permissions(names: Iterable[str]) -> discord.Permissions:
    """The permissions ``names``, as Discord counts them (``.value`` is the integer)."""
    return discord.Permissions(**dict.fromkeys(names, True))


def missing(names: Iterable[str], have: discord.Permissions) -> list[str]:
    """Those of ``names`` that ``have`` lacks."""
    return [name for name in names if not getattr(have, name)]


INVITE_PERMISSIONS = permissions((*TABLE_PERMISSIONS, *THREAD_PERMISSIONS))
"""Every permission the bot checks for: what to invite it with."""

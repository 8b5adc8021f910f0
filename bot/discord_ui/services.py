"""What buttons and modals need from the client, typed through a Protocol.

A button's or modal's callback is handed ``discord.Interaction[discord.Client]`` by the
library; the application behind it is the ``HoldemBot``, which the views cannot import (the
application imports them). ``table_services`` narrows the client with a checked
``isinstance`` against this Protocol instead of a cast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

import discord

if TYPE_CHECKING:
    from bot.discord_ui.notifier import DiscordNotifier
    from bot.tables.manager import TableManager


@runtime_checkable
class TableServices(Protocol):
    """The running tables and the notifier that shows them (``HoldemBot`` has both)."""

    tables: TableManager
    notifier: DiscordNotifier


def table_services(interaction: discord.Interaction[discord.Client]) -> TableServices:
    """The tables and notifier behind ``interaction``'s client.

    Raises ``RuntimeError`` when the client is not the Hold'em application (a programming
    error: the views are only registered on it).
    """
    client = interaction.client
    if not isinstance(client, TableServices):
        raise RuntimeError(f"{type(client).__name__} does not run Hold'em tables")
    return client

"""What buttons and modals need from the client, typed through a Protocol.

A button's or modal's callback is handed ``discord.Interaction[discord.Client]`` by the
library; the application behind it is the ``HoldemBot``, which the views cannot import (the
application imports them). ``table_services`` checks that the client has the two attributes
this Protocol names before it narrows the type; not with ``isinstance`` against a
``runtime_checkable`` Protocol, which walks every attribute of the client's classes (16 µs,
and a hand asks some 15 times: 2.5 % of the event loop in a py-spy profile of
``benchmarks.discord``). The notifier is typed the same way, by the four things a click asks
of it: the notifier imports the views (its table message carries the buttons), so the views
must not import it back.
"""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from typing import Protocol, cast

import discord

from bot.i18n import Language
from bot.tables.manager import TableManager
from bot.tables.notifier import TurnPrompt
from engine.cards import Card


class ClickedTable(Protocol):
    """The live table message a click was on (``live_table.LiveTableMessage``)."""

    async def carry_click(
        self, interaction: discord.Interaction[discord.Client], work: Awaitable[None]
    ) -> None:
        """Apply the click's action (``work``) and answer the click with the edit showing it."""


class TableNotices(Protocol):
    """What clicks and forms ask of the notifier (``notifier.DiscordNotifier``)."""

    def turn(self, channel_id: int) -> tuple[int, TurnPrompt] | None:
        """Who is to act at the channel's table (a person's user id) and their options."""

    def clicked_table(
        self, interaction: discord.Interaction[discord.Client]
    ) -> ClickedTable | None:
        """The live table message ``interaction`` is a click on, if it is the current one."""

    def take_notices(self, user_id: int, language: Language | None = None) -> list[str]:
        """The private notes waiting for a person, handed out once."""

    async def cards_image(self, cards: Sequence[Card]) -> discord.File | None:
        """A picture of ``cards`` as an attachment, or ``None`` when images are off."""


class TableServices(Protocol):
    """The running tables and the notifier that shows them (``HoldemBot`` has both)."""

    @property
    def tables(self) -> TableManager: ...

    @property
    def notifier(self) -> TableNotices: ...


def table_services(interaction: discord.Interaction[discord.Client]) -> TableServices:
    """The tables and notifier behind ``interaction``'s client.

    Raises ``RuntimeError`` when the client is not the Hold'em application (a programming
    error: the views are only registered on it).
    """
    client = interaction.client
    if not (hasattr(client, "tables") and hasattr(client, "notifier")):
        raise RuntimeError(f"{type(client).__name__} does not run Hold'em tables")
    return cast(TableServices, client)

"""What the core pages need from live tables: the ``live`` object given to ``create_app``.

Live tables are the bot process's runtime; the pages over the ledger only list them. Whoever
serves live tables (``bot.web.live*``) passes an object with this shape to ``create_app``;
without one (a web process that only reads the ledger) the pages list no open tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.i18n import Text


@dataclass(frozen=True, slots=True)
class OpenTable:
    """One open table, as a server's or a tournament's page lists it: public facts only."""

    channel_id: int
    blinds: Text
    """The stakes, as the table shows them (``TableSettings.blinds_text``)."""
    seated: int
    """How many seats are taken, bots included."""
    max_seats: int
    hand_number: int
    """The current or last hand's number (0 before the first)."""
    path: str
    """Where its live page is, under this site (``/servers/1/tables/2``)."""
    tournament_id: int | None = None
    """The tournament the table belongs to, ``None`` for a cash table."""


class LivePort(Protocol):
    """The live tables a page may list. Called on the event loop for every server and
    tournament page, so it must answer from memory (or a quick lookup), never wait on play."""

    async def open_tables(self, guild_id: int) -> Sequence[OpenTable]:
        """The guild's open tables (cash and tournament), in the order to list them."""
        ...

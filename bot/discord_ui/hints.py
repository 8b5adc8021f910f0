"""The coach's hint in the private **My cards** answer (``engine.coach.hint``): only there, an
ephemeral answer to the person it is about, never in a message others read."""

from __future__ import annotations

import asyncio

from bot.i18n import Language
from bot.i18n.coach import hint, hint_text
from bot.tables.manager import TableManager


async def hint_lines(tables: TableManager, channel_id: int, user_id: int,
                     language: Language) -> list[str]:
    """The hint's lines for the person in ``language``, or none when the table shows no hints
    (``TableSettings.shows_hints``) or they are not in the hand. Its equities take a few
    milliseconds of numpy, so they are worked out off the event loop."""
    view = tables.coaching_view(channel_id, user_id)
    if view is None:
        return []
    found = await asyncio.to_thread(hint, view)
    return [language.render(line) for line in hint_text(found)]

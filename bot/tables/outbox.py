"""A table's notifications to its front end, delivered so that a failing front end never stops
the table: an exception raised by the ``Notifier`` is logged and the table goes on."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import ParamSpec

from bot.i18n import Message
from bot.tables.notifier import HandOutcome, Notifier, ShowOffer, TableState, TurnPrompt
from engine.cards import Card

log = logging.getLogger(__name__)

_P = ParamSpec("_P")


class Outbox:
    """The ``Notifier`` of one table (``channel_id``), each call guarded."""

    __slots__ = ("_channel_id", "_notifier")

    def __init__(self, notifier: Notifier, channel_id: int) -> None:
        self._notifier = notifier
        self._channel_id = channel_id

    async def table_changed(self, state: TableState) -> None:
        """The public state changed."""
        await self._deliver(self._notifier.table_changed, state)

    async def hole_cards(self, state: TableState, user_id: int, cards: tuple[Card, ...]) -> None:
        """A person's own cards, privately."""
        await self._deliver(self._notifier.hole_cards, state, user_id, cards)

    async def your_turn(self, state: TableState, user_id: int, prompt: TurnPrompt) -> None:
        """A person's turn."""
        await self._deliver(self._notifier.your_turn, state, user_id, prompt)

    async def hand_finished(self, state: TableState, outcome: HandOutcome) -> None:
        """A hand is over."""
        await self._deliver(self._notifier.hand_finished, state, outcome)

    async def tell(self, user_id: int, message: Message) -> None:
        """A message for one person at this table."""
        await self._deliver(self._notifier.tell, self._channel_id, user_id, message)

    async def ask_run_it_twice(
        self, state: TableState, user_ids: Sequence[int], deadline: float
    ) -> None:
        """The run-it-twice question for the all-in people."""
        await self._deliver(self._notifier.ask_run_it_twice, state, user_ids, deadline)

    async def offer_show(self, state: TableState, user_id: int, offer: ShowOffer) -> None:
        """A person may show their cards."""
        await self._deliver(self._notifier.offer_show, state, user_id, offer)

    async def _deliver(
        self, method: Callable[_P, Awaitable[None]], *args: _P.args, **kwargs: _P.kwargs
    ) -> None:
        try:
            await method(*args, **kwargs)
        except Exception:
            log.exception("table %s: notifier failed", self._channel_id)

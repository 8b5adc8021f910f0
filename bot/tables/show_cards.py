"""Showing cards by choice: the winner without a showdown may show one card or both, and at
showdown with auto-muck off a player whose hand wins nothing may show it or muck it.

The rules (``engine.hand``): only the person offered may answer, once, within the table's
``show_timeout`` (``SHOW_SECONDS``) and for the hand named; silence shows nothing (a card is
never shown without its owner's say) and mucks at showdown. Bots never show by choice and muck
at showdown, as online sites' players do by default. The pots never depend on the answers.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from enum import StrEnum

from bot.i18n import tr
from bot.tables.doorbell import Doorbell
from bot.tables.errors import TableError
from bot.tables.notifier import ShowOffer, TableState
from bot.tables.outbox import Outbox
from engine.cards import Card


class ShowChoice(StrEnum):
    """What a person offered to show chooses (at showdown only ``BOTH`` or ``NONE``)."""

    FIRST = "first"
    SECOND = "second"
    BOTH = "both"
    NONE = "none"
    """Show nothing: keep the cards private, or muck at showdown."""

    def of(self, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        """The cards of ``cards`` (the two hole cards) this choice shows."""
        return {ShowChoice.FIRST: cards[:1], ShowChoice.SECOND: cards[1:],
                ShowChoice.BOTH: cards, ShowChoice.NONE: ()}[self]


class ShowRefused(TableError):
    """An answer to a show offer that is not this person's, or no longer open."""

    def __init__(self, hand_id: int, *, offered: bool) -> None:
        super().__init__(
            tr("Your time to show your cards in hand #{hand} is over.", hand=str(hand_id))
            if offered else
            tr("Only the player offered it may show cards in hand #{hand}.", hand=str(hand_id)))


class ShowQuestion:
    """One table's offer to show, made by its runner and answered through requests."""

    __slots__ = ("_answers", "_at_showdown", "_chosen", "_doorbell", "_hand_id", "_offered",
                 "_outbox", "_state")

    def __init__(self, outbox: Outbox, doorbell: Doorbell,
                 state: Callable[[], TableState]) -> None:
        self._outbox = outbox
        self._doorbell = doorbell
        self._state = state
        self._hand_id = 0
        self._at_showdown = False
        self._offered: frozenset[int] = frozenset()
        """The people offered in the last offer: a late answer of theirs is told "over"."""
        self._answers: dict[int, tuple[Card, ...] | None] = {}
        """Open offers: each person's hole cards while unanswered (``None`` once answered)."""
        self._chosen: dict[int, tuple[Card, ...]] = {}

    def answer(self, user_id: int, hand_id: int, choice: ShowChoice) -> None:
        """Record a person's choice; ``ShowRefused`` unless they were offered it for
        ``hand_id``, have not answered, and its time is not over."""
        cards = self._answers.get(user_id) if hand_id == self._hand_id else None
        if cards is None or (self._at_showdown and choice not in (ShowChoice.BOTH,
                                                                   ShowChoice.NONE)):
            raise ShowRefused(hand_id, offered=hand_id == self._hand_id
                              and user_id in self._offered)
        self._chosen[user_id] = choice.of(cards)
        self._answers[user_id] = None
        self._doorbell.ring()

    async def ask(self, hand_id: int, people: Mapping[int, tuple[Card, ...]], timeout: float, *,
                  at_showdown: bool) -> dict[int, tuple[Card, ...]]:
        """Offer each person in ``people`` (by id, with their hole cards) to show, for
        ``timeout`` seconds or until all have answered; the cards each chose to show (none
        for those who did not answer)."""
        self._chosen = {}
        if timeout <= 0 or not people:
            return {}
        loop = asyncio.get_running_loop()
        ends_at = loop.time() + timeout
        self._hand_id, self._at_showdown = hand_id, at_showdown
        self._offered = frozenset(people)
        self._answers = dict(people)
        try:
            state = self._state()
            for user_id, cards in people.items():
                await self._outbox.offer_show(state, user_id, ShowOffer(
                    hand_id, cards, time.time() + timeout, at_showdown))
            while any(self._answers.values()) and loop.time() < ends_at:
                await self._doorbell.wait(ends_at - loop.time())
        finally:
            self._answers = {}
        return self._chosen

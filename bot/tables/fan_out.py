"""One ``Notifier`` made of the front end that runs the tables and of public watchers.

The runtime talks to exactly one notifier. When a process also shows its tables elsewhere (the
web companion's live pages beside Discord), ``FanOutNotifier`` tells the front end and then
every ``TableWatcher``, so the runtime stays unaware of how many front ends look on. A watcher
is typed to hear only what everyone in the channel may see (public ``TableState``s, results
with the cards shown at showdown): hole cards, turn prompts and messages for one person go to
the front end alone, so a page or stream built on a watcher cannot leak them. The front end
alone opens channels, and its errors reach the runtime as before; a failing watcher is
logged and costs the front end nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from bot.i18n import Message
from bot.tables.notifier import HandOutcome, Notifier, ShowOffer, TableState, TurnPrompt
from bot.tables.tournament_status import PlayerMoved, TournamentResults, TournamentStatus
from engine.cards import Card

log = logging.getLogger(__name__)


class TableWatcher(Protocol):
    """What a public onlooker of the tables hears (the part of ``Notifier`` that everyone in
    the channel sees)."""

    async def table_changed(self, state: TableState) -> None:
        """The public state of a table changed."""

    async def hand_finished(self, state: TableState, outcome: HandOutcome) -> None:
        """A hand is over; ``state`` shows the final board, stacks and shown hands."""

    async def table_closed(self, channel_id: int) -> None:
        """The channel's table closed."""

    async def table_paused(self, channel_id: int) -> None:
        """The process is stopping and keeps the table for the next start."""


class FanOutNotifier:
    """A ``Notifier`` that tells ``front_end`` everything and each of ``watchers`` what is
    public."""

    def __init__(self, front_end: Notifier, *watchers: TableWatcher) -> None:
        self.front_end = front_end
        self.watchers = watchers

    async def _watchers(self, call: Callable[[TableWatcher], Awaitable[None]]) -> None:
        for watcher in self.watchers:
            try:
                await call(watcher)
            except Exception:
                log.exception("a table watcher (%s) failed", type(watcher).__name__)

    async def table_changed(self, state: TableState) -> None:
        try:
            await self.front_end.table_changed(state)
        finally:
            await self._watchers(lambda watcher: watcher.table_changed(state))

    async def hand_finished(self, state: TableState, outcome: HandOutcome) -> None:
        try:
            await self.front_end.hand_finished(state, outcome)
        finally:
            await self._watchers(lambda watcher: watcher.hand_finished(state, outcome))

    async def table_closed(self, channel_id: int) -> None:
        try:
            await self.front_end.table_closed(channel_id)
        finally:
            await self._watchers(lambda watcher: watcher.table_closed(channel_id))

    async def table_paused(self, channel_id: int) -> None:
        try:
            await self.front_end.table_paused(channel_id)
        finally:
            await self._watchers(lambda watcher: watcher.table_paused(channel_id))

    # -- the front end's alone: private, or Discord's own -----------------------------------

    async def hole_cards(self, state: TableState, user_id: int, cards: tuple[Card, ...]) -> None:
        await self.front_end.hole_cards(state, user_id, cards)

    async def your_turn(self, state: TableState, user_id: int, prompt: TurnPrompt) -> None:
        await self.front_end.your_turn(state, user_id, prompt)

    async def tell(self, channel_id: int, user_id: int, message: Message) -> None:
        await self.front_end.tell(channel_id, user_id, message)

    async def ask_run_it_twice(
        self, state: TableState, user_ids: Sequence[int], deadline: float
    ) -> None:
        await self.front_end.ask_run_it_twice(state, user_ids, deadline)

    async def offer_show(self, state: TableState, user_id: int, offer: ShowOffer) -> None:
        await self.front_end.offer_show(state, user_id, offer)

    async def table_resumed(self, channel_id: int, message_id: int | None) -> None:
        await self.front_end.table_resumed(channel_id, message_id)

    async def tournament_changed(self, status: TournamentStatus) -> None:
        await self.front_end.tournament_changed(status)

    async def tournament_finished(self, results: TournamentResults) -> None:
        await self.front_end.tournament_finished(results)

    async def player_moved(self, move: PlayerMoved) -> None:
        await self.front_end.player_moved(move)

    async def open_tournament_table(
        self, tournament_id: int, channel_id: int, number: int
    ) -> int:
        return await self.front_end.open_tournament_table(tournament_id, channel_id, number)

"""A fake front end that records every notification, for tests of anything driving tables.

Optionally it answers for people: ``auto_actions[user_id]`` is a function from the turn prompt
to an action (or ``None`` to let the timer run), applied through the manager as a front end
would; ``auto_run_it_twice`` answers the run-it-twice question.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.errors import HoldemError
from bot.i18n import Message
from bot.tables.notifier import HandOutcome, ShowOffer, TableState, TurnPrompt
from bot.tables.tournament_status import PlayerMoved, TournamentResults, TournamentStatus
from engine.actions import Action
from engine.cards import Card

TurnPolicy = Callable[[TurnPrompt], Action | None]


@dataclass
class RecordingNotifier:
    """Implements ``bot.tables.notifier.Notifier`` by appending to lists.

    ``events`` holds ``(method name, arguments)`` in call order; the typed lists below hold
    the same calls by kind. ``turn_waiters`` lets a test await the next prompt for a person.
    """

    manager: Any = None
    auto_actions: dict[int, TurnPolicy] = field(default_factory=dict)
    auto_run_it_twice: dict[int, bool] = field(default_factory=dict)
    events: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)
    states: list[TableState] = field(default_factory=list)
    hole_cards_sent: list[tuple[int, int, tuple[Card, ...]]] = field(default_factory=list)
    prompts: list[tuple[int, TurnPrompt]] = field(default_factory=list)
    outcomes: list[HandOutcome] = field(default_factory=list)
    messages: list[tuple[int, int, str]] = field(default_factory=list)
    questions: list[tuple[int, tuple[int, ...], float]] = field(default_factory=list)
    closed: list[int] = field(default_factory=list)
    paused: list[int] = field(default_factory=list)
    resumed: list[tuple[int, int | None]] = field(default_factory=list)
    errors: list[HoldemError] = field(default_factory=list)
    fail_on: set[str] = field(default_factory=set)
    tournament_statuses: list[TournamentStatus] = field(default_factory=list)
    tournament_results: list[TournamentResults] = field(default_factory=list)
    moves: list[PlayerMoved] = field(default_factory=list)
    opened_tables: list[tuple[int, int, int, int]] = field(default_factory=list)
    """``(tournament id, creation channel, table number, channel opened)``."""
    next_table_channel: int = 900_000
    _answering: set[asyncio.Task[None]] = field(default_factory=set)
    _prompt_event: asyncio.Event = field(default_factory=asyncio.Event)
    _prompts_read: int = 0

    def _record(self, name: str, *args: Any) -> None:
        self.events.append((name, args))
        if name in self.fail_on:
            raise RuntimeError(f"front end failed in {name}")

    async def table_changed(self, state: TableState) -> None:
        self.states.append(state)
        self._record("table_changed", state)

    async def hole_cards(self, state: TableState, user_id: int, cards: tuple[Card, ...]) -> None:
        self.hole_cards_sent.append((state.channel_id, user_id, cards))
        self._record("hole_cards", state, user_id, cards)

    async def your_turn(self, state: TableState, user_id: int, prompt: TurnPrompt) -> None:
        self.states.append(state)
        self.prompts.append((user_id, prompt))
        self._prompt_event.set()
        self._record("your_turn", state, user_id, prompt)
        policy = self.auto_actions.get(user_id)
        if policy is not None and self.manager is not None:
            action = policy(prompt)
            if action is not None:
                self._answer_later(self.manager.act(state.channel_id, user_id, action))

    async def hand_finished(self, state: TableState, outcome: HandOutcome) -> None:
        self.states.append(state)
        self.outcomes.append(outcome)
        self._record("hand_finished", state, outcome)

    async def tell(self, channel_id: int, user_id: int, message: Message) -> None:
        self.messages.append((channel_id, user_id, str(message)))
        self._record("tell", channel_id, user_id, message)

    async def offer_show(self, state: TableState, user_id: int, offer: ShowOffer) -> None:
        self._record("offer_show", state, user_id, offer)

    async def ask_run_it_twice(
        self, state: TableState, user_ids: Sequence[int], deadline: float
    ) -> None:
        self.questions.append((state.channel_id, tuple(user_ids), deadline))
        self._record("ask_run_it_twice", state, tuple(user_ids), deadline)
        if self.manager is not None:
            for user_id in user_ids:
                if user_id in self.auto_run_it_twice:
                    self._answer_later(self.manager.answer_run_it_twice(
                        state.channel_id, user_id, self.auto_run_it_twice[user_id]))

    async def table_closed(self, channel_id: int) -> None:
        self.closed.append(channel_id)
        self._record("table_closed", channel_id)

    async def table_paused(self, channel_id: int) -> None:
        self.paused.append(channel_id)
        self._record("table_paused", channel_id)

    async def table_resumed(self, channel_id: int, message_id: int | None) -> None:
        self.resumed.append((channel_id, message_id))
        self._record("table_resumed", channel_id, message_id)

    async def tournament_changed(self, status: TournamentStatus) -> None:
        self.tournament_statuses.append(status)
        self._record("tournament_changed", status)

    async def tournament_finished(self, results: TournamentResults) -> None:
        self.tournament_results.append(results)
        self._record("tournament_finished", results)

    async def player_moved(self, move: PlayerMoved) -> None:
        self.moves.append(move)
        self._record("player_moved", move)

    async def open_tournament_table(
        self, tournament_id: int, channel_id: int, number: int
    ) -> int:
        self._record("open_tournament_table", tournament_id, channel_id, number)
        self.next_table_channel += 1
        self.opened_tables.append((tournament_id, channel_id, number, self.next_table_channel))
        return self.next_table_channel

    def _answer_later(self, request: Coroutine[Any, Any, None]) -> None:
        """Send a request from another task, as a click would; keep refusals in ``errors``."""

        async def send() -> None:
            try:
                await request
            except HoldemError as error:
                self.errors.append(error)

        task = asyncio.get_running_loop().create_task(send())
        self._answering.add(task)
        task.add_done_callback(self._answering.discard)

    async def next_prompt(self, timeout: float = 5.0) -> tuple[int, TurnPrompt]:
        """The first turn prompt not yet returned by this method, waiting for it if needed
        (a table may prompt again before the test asks, so none is skipped)."""
        async with asyncio.timeout(timeout):
            while len(self.prompts) == self._prompts_read:
                self._prompt_event.clear()
                await self._prompt_event.wait()
        self._prompts_read += 1
        return self.prompts[self._prompts_read - 1]

    def messages_to(self, user_id: int) -> list[str]:
        """The messages told to one person, in order."""
        return [text for _, user, text in self.messages if user == user_id]

"""The terminal's ``Notifier``: draws what the table reports and queues what needs an answer.

The runtime must never wait on a person typing, so turns and run-it-twice questions are put
in ``requests`` for the local player's session to answer; everything else is printed at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from bot.i18n import Language, Message, Text
from bot.tables.notifier import HandOutcome, TableState, TurnPrompt
from bot.terminal.render import (
    Style,
    render_last_action,
    render_outcome,
    render_table,
    uncalled_bets,
)
from engine.cards import Card


@dataclass(frozen=True, slots=True)
class TurnRequest:
    """The local player is to act."""

    state: TableState
    prompt: TurnPrompt


@dataclass(frozen=True, slots=True)
class RunItTwiceRequest:
    """The local player is asked whether to run the board twice."""

    state: TableState
    deadline: float


@dataclass(frozen=True, slots=True)
class OutOfChipsRequest:
    """The local player's stack is empty: buy in again, or leave."""

    state: TableState


Request = TurnRequest | RunItTwiceRequest | OutOfChipsRequest


class ConsoleNotifier:
    """Prints one player's view of a table to ``out``; the other seats are bots."""

    def __init__(self, out: TextIO, style: Style, user_id: int) -> None:
        self.out = out
        self.style = style
        self.user_id = user_id
        self.requests: asyncio.Queue[Request] = asyncio.Queue()
        self._hand_number = 0
        self._cards: tuple[Card, ...] = ()
        self._last_drawing = ""
        self._action_shown: tuple[int, Text | str | None] = (0, None)  # (hand, action) drawn
        self.final_stack: int | None = None  # the local player's stack after the last hand

    @property
    def language(self) -> Language:
        """The language the local player reads."""
        return self.style.language

    def say(self, text: Message, end: str = "\n") -> None:
        """Print (a ``Text`` in the player's language) and flush, so a pipe sees each line as
        it happens."""
        self.out.write(self.language.render(text) + end)
        self.out.flush()

    def draw(self, state: TableState) -> None:
        """Print the table while the local player sits at it, unless it looks exactly as it
        was last printed."""
        if state.seat_of(self.user_id) is None:
            return
        cards = self._cards if state.hand_number == self._hand_number else ()
        drawing = render_table(state, self.style, self.user_id, cards)
        if drawing != self._last_drawing:
            self._last_drawing = drawing
            self._action_shown = (state.hand_number, state.last_action)
            self.say(drawing)

    async def table_changed(self, state: TableState) -> None:
        between_hands = not state.is_hand_running and state.hand_number > 0
        # Between hands the result was just printed; a new hand is drawn once the cards come.
        if not between_hands and not self._awaiting_cards(state):
            self.draw(state)

    async def hole_cards(self, state: TableState, user_id: int, cards: tuple[Card, ...]) -> None:
        if user_id == self.user_id:
            self._hand_number, self._cards = state.hand_number, tuple(cards)
            self.draw(state)

    async def your_turn(self, state: TableState, user_id: int, prompt: TurnPrompt) -> None:
        if user_id == self.user_id:
            self.draw(state)
            self.requests.put_nowait(TurnRequest(state, prompt))

    async def hand_finished(self, state: TableState, outcome: HandOutcome) -> None:
        # The action that ended the hand (a fold, the last call, run it once or twice) is
        # never drawn on a table: the runtime settles the hand straight after it.
        shown = (state.hand_number, state.last_action) == self._action_shown
        if state.last_action and not shown:
            self.say(render_last_action(state, self.style, self.user_id))
        for line in uncalled_bets(outcome, self.user_id, self.language):
            self.say(line)
        self.say(render_outcome(outcome, self.style, self.user_id))
        result = next((result for result in outcome.results if result.user_id == self.user_id),
                      None)
        if result is not None:
            self.final_stack = result.final_stack
        self._last_drawing = ""
        seat = state.seat_of(self.user_id)
        if seat is not None and seat.stack == 0 and not seat.leaving:
            self.requests.put_nowait(OutOfChipsRequest(state))

    async def tell(self, channel_id: int, user_id: int, message: Message) -> None:
        if user_id == self.user_id:
            self.say("! " + self.language.render(message))

    async def ask_run_it_twice(
        self, state: TableState, user_ids: Sequence[int], deadline: float
    ) -> None:
        if self.user_id in user_ids:
            self.draw(state)
            self.requests.put_nowait(RunItTwiceRequest(state, deadline))

    async def table_closed(self, channel_id: int) -> None:
        """Nothing to forget: the terminal shows one table, and says goodbye itself."""

    def _awaiting_cards(self, state: TableState) -> bool:
        """True for a new hand whose table is drawn once our cards arrive (just after)."""
        mine = state.seat_of(self.user_id)
        return (state.is_hand_running and state.hand_number != self._hand_number
                and mine is not None and mine.in_hand)

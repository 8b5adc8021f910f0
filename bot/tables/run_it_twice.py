"""The run-it-twice question: when everyone left in a hand is all-in before the river, the
people among them may agree to deal the rest of the board twice.

Bots agree by a coin flip each. If every bot agrees, the people are asked; one "no", or the
deadline passing without every answer, means the board runs once. A player who has left the
table counts as a "no", so nobody waits for them.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Sequence

from bot.tables.doorbell import Doorbell
from bot.tables.errors import NoQuestionPending
from bot.tables.notifier import TableState
from bot.tables.outbox import Outbox
from bot.tables.seats import Seat


class RunItTwiceQuestion:
    """One table's question, asked by its runner and answered through requests."""

    __slots__ = ("_answers", "_doorbell", "_outbox", "_rng", "_state")

    def __init__(
        self,
        rng: random.Random,
        outbox: Outbox,
        doorbell: Doorbell,
        state: Callable[[], TableState],
    ) -> None:
        self._rng = rng
        self._outbox = outbox
        self._doorbell = doorbell
        self._state = state
        self._answers: dict[int, bool | None] | None = None

    def answer(self, user_id: int, agree: bool) -> None:
        """Record a person's answer; ``NoQuestionPending`` unless they were asked and have not
        answered yet."""
        answers = self._answers
        if answers is None or user_id not in answers or answers[user_id] is not None:
            raise NoQuestionPending()
        answers[user_id] = bool(agree)
        self._doorbell.ring()

    def decline_for(self, user_id: int) -> None:
        """The person left the table: their pending answer (if asked) is "no"."""
        answers = self._answers
        if answers is not None and answers.get(user_id, False) is None:
            answers[user_id] = False
            self._doorbell.ring()

    async def ask(self, live: Sequence[Seat], timeout: float) -> bool:
        """Whether the players still in the hand (``live``) agree to run it twice; the people
        among them have ``timeout`` seconds to answer."""
        agree = all(self._rng.random() < 0.5 for seat in live if seat.is_bot)
        agree = agree and not any(seat.leaving for seat in live)
        people = [seat.user_id for seat in live if seat.user_id is not None]
        if not agree or not people:
            return agree
        loop = asyncio.get_running_loop()
        ends_at = loop.time() + timeout
        answers: dict[int, bool | None] = dict.fromkeys(people)
        self._answers = answers
        try:
            await self._outbox.ask_run_it_twice(self._state(), people, time.time() + timeout)
            while (None in answers.values() and False not in answers.values()
                   and loop.time() < ends_at):
                await self._doorbell.wait(ends_at - loop.time())
        finally:
            self._answers = None
        return all(answers.values())

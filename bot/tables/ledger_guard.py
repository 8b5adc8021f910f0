"""The chip ledger's faults as the tables see them, and how tables retry.

A ledger call ends in one of three ways: an answer, a refusal (a ``HoldemError`` such as
``InsufficientChips``, meant for the person who asked), or a fault of the ledger itself: the
database is locked, read-only, full or gone. ``GuardedLedger`` turns every fault into
``LedgerUnavailable``, which a front end shows like any refusal ("the chip ledger is
unavailable right now"), and remembers that the ledger is failing until a write succeeds.

A table whose hand could not be dealt or settled, or whose departures could not be cashed out,
waits before it tries again, twice as long each time up to a cap (``Backoff``), so a lasting
fault costs one attempt per table every ``LEDGER_RETRY_CAP`` seconds, not one per second.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Mapping, Sequence
from typing import TypeVar

from bot.errors import HoldemError
from bot.ledger import (
    HandHabits,
    HandParticipant,
    LedgerUnavailable,
    PlayerKey,
    RecoveryReport,
)
from bot.shards import ShardSet
from bot.tables.ledger_port import TableLedger

log = logging.getLogger(__name__)

_T = TypeVar("_T")

LEDGER_RETRY_FIRST = 1.0
"""Seconds a table waits after its first failure before it tries the ledger again."""
LEDGER_RETRY_CAP = 30.0
"""The longest wait between two attempts: while the ledger is down, each table tries once
every 30 s (1,000 tables: about 33 failing writes per second), and it resumes at once when a
request at that table gets an answer from the ledger."""


class Backoff:
    """Delays that double after every failure, from ``first`` up to ``cap`` seconds
    (by default ``LEDGER_RETRY_FIRST`` and ``LEDGER_RETRY_CAP``).

    >>> backoff = Backoff(first=1.0, cap=30.0)
    >>> [backoff.next() for _ in range(7)]
    [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    >>> backoff.reset()
    >>> backoff.next()
    1.0
    """

    __slots__ = ("_cap", "_failures", "_first")

    def __init__(self, first: float | None = None, cap: float | None = None) -> None:
        first = LEDGER_RETRY_FIRST if first is None else first
        cap = LEDGER_RETRY_CAP if cap is None else cap
        if not 0 < first <= cap:
            raise ValueError("the delays must satisfy 0 < first <= cap")
        self._first = first
        self._cap = cap
        self._failures = 0

    def next(self) -> float:
        """The delay after one more failure."""
        delay = min(self._cap, self._first * 2.0 ** min(self._failures, 64))
        self._failures += 1
        return delay

    def reset(self) -> None:
        """Something succeeded: the next failure waits ``first`` seconds again."""
        self._failures = 0


class GuardedLedger:
    """A ``TableLedger`` whose faults arrive as ``LedgerUnavailable`` (the fault chained as
    its cause and logged once per outage); refusals pass through unchanged.

    ``failing`` is true from a fault until the next write that succeeds (a read can succeed
    on a database that refuses writes, so reads do not end an outage).
    """

    __slots__ = ("_failing", "_fenced", "_ledger")

    def __init__(self, ledger: TableLedger) -> None:
        self._ledger = ledger
        self._failing = False
        self._fenced = False

    @property
    def failing(self) -> bool:
        """True while the ledger is failing (since a fault, until a write succeeds)."""
        return self._failing

    def fence(self) -> None:
        """Refuse every call from now on, as a fault: another process owns these tables now,
        and only it may move their chips."""
        self._fenced = True

    async def ensure_player(self, guild_id: int, user_id: int, name: str) -> int:
        """See ``TableLedger.ensure_player``."""
        return await self._write(self._ledger.ensure_player(guild_id, user_id, name))

    async def buy_in(self, guild_id: int, table_id: int, player: PlayerKey, amount: int) -> int:
        """See ``TableLedger.buy_in``."""
        return await self._write(self._ledger.buy_in(guild_id, table_id, player, amount))

    async def top_up(self, guild_id: int, table_id: int, player: PlayerKey, amount: int) -> int:
        """See ``TableLedger.top_up``."""
        return await self._write(self._ledger.top_up(guild_id, table_id, player, amount))

    async def cash_out(self, guild_id: int, table_id: int, player: PlayerKey) -> int:
        """See ``TableLedger.cash_out``."""
        return await self._write(self._ledger.cash_out(guild_id, table_id, player))

    async def begin_hand(
        self, guild_id: int, table_id: int, hand_number: int, stacks: Mapping[PlayerKey, int]
    ) -> int:
        """See ``TableLedger.begin_hand``."""
        return await self._write(
            self._ledger.begin_hand(guild_id, table_id, hand_number, stacks))

    async def settle_hand(
        self,
        hand_id: int,
        final_stacks: Mapping[PlayerKey, int],
        participants: Sequence[HandParticipant],
        history_text: str,
        replay: str | None = None,
        *,
        habit_counts: Sequence[HandHabits] | None = None,
    ) -> None:
        """See ``TableLedger.settle_hand``."""
        await self._write(self._ledger.settle_hand(
            hand_id, final_stacks, participants, history_text, replay,
            habit_counts=habit_counts))

    async def refund_hand(self, hand_id: int) -> None:
        """See ``TableLedger.refund_hand``."""
        await self._write(self._ledger.refund_hand(hand_id))

    async def recover(self, *, shards: ShardSet | None = None) -> RecoveryReport:
        """See ``TableLedger.recover``."""
        return await self._write(self._ledger.recover(shards=shards))

    async def guild_settings(self, guild_id: int) -> Mapping[str, object]:
        """See ``TableLedger.guild_settings``."""
        return await self._call(self._ledger.guild_settings(guild_id), write=False)

    async def save_guild_settings(self, guild_id: int, settings: Mapping[str, object]) -> None:
        """See ``TableLedger.save_guild_settings``."""
        await self._write(self._ledger.save_guild_settings(guild_id, settings))

    async def _write(self, call: Awaitable[_T]) -> _T:
        return await self._call(call, write=True)

    async def _call(self, call: Awaitable[_T], *, write: bool) -> _T:
        if self._fenced:
            if inspect.iscoroutine(call):
                call.close()
            raise LedgerUnavailable("this process no longer owns the table")
        try:
            result = await call
        except HoldemError:
            raise  # a refusal: the ledger answered
        except Exception as error:
            if not self._failing:
                log.error("the chip ledger is failing", exc_info=error)
            else:
                log.warning("the chip ledger is still failing: %s: %s",
                            type(error).__name__, error)
            self._failing = True
            raise LedgerUnavailable() from error
        if write and self._failing:
            log.warning("the chip ledger answers again")
            self._failing = False
        return result

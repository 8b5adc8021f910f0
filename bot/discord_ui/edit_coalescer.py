"""Coalescing of message edits, so a busy table never exceeds Discord's per-channel rate limit.

Discord allows about five messages or edits per five seconds in one channel. A table changes
state far more often than that when bots act quickly, so a table's states go through an
``EditCoalescer``: one publish in flight at a time, a minimum interval between publishes, and
newer states replacing ones still waiting, except states marked ``keep`` (the end of a hand),
which are always published. A state submitted ``now`` (one that answers a click: Discord
counts an interaction's answer against neither the channel's edits nor the global limit)
does not wait out the interval, so the person sees their action at once rather than up to
``min_interval`` later; the interval then counts from it. A state whose publish failed is
tried again until it lands or a newer one replaces it: the latest state is never dropped (it
may hold the next player's turn, whose buttons name it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_RETRY_DELAY = 30.0
"""Seconds between two tries of a state whose publish keeps failing, at most: the delay
doubles from ``retry_delay`` so that a Discord in trouble is not pressed."""


@dataclass(slots=True)
class _Pending(Generic[T]):
    item: T
    keep: bool


class EditCoalescer(Generic[T]):
    """Publishes the latest submitted item through ``publish``, at most one call at a time and
    with at least ``min_interval`` seconds between the starts of two calls.

    A failing ``publish`` is logged and tried again, ``retry_delay`` seconds later (twice that
    after a second failure, and so on up to ``MAX_RETRY_DELAY``), unless a newer item
    replaced it meanwhile; it does not stop later publishes.
    """

    def __init__(
        self,
        publish: Callable[[T], Awaitable[None]],
        min_interval: float,
        *,
        retry_delay: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if min_interval < 0:
            raise ValueError(f"min_interval must be ≥ 0 seconds, not {min_interval!r}")
        if retry_delay <= 0:
            raise ValueError(f"retry_delay must be > 0 seconds, not {retry_delay!r}")
        self._publish = publish
        self._min_interval = min_interval
        self._retry_delay = retry_delay
        self._failures = 0
        """Publishes that failed in a row."""
        self._clock = clock
        self._pending: deque[_Pending[T]] = deque()
        self._worker: asyncio.Task[None] | None = None
        self._last_start: float | None = None
        self._now = asyncio.Event()

    @property
    def is_idle(self) -> bool:
        """True when nothing is waiting and nothing is being published."""
        return self._worker is None or self._worker.done()

    def submit(self, item: T, *, keep: bool = False, now: bool = False) -> None:
        """Queue ``item``; it replaces waiting items that were not submitted with ``keep``.
        With ``now`` the next publish starts without waiting out the interval."""
        while self._pending and not self._pending[-1].keep:
            self._pending.pop()
        self._pending.append(_Pending(item, keep))
        if now:
            self._now.set()
        if self.is_idle:
            self._worker = asyncio.get_running_loop().create_task(self._run())

    async def flush(self) -> None:
        """Wait until every submitted item has been published (or dropped for a newer one)."""
        while self._worker is not None and not self._worker.done():
            await asyncio.shield(self._worker)

    def cancel(self) -> None:
        """Drop whatever is waiting and stop publishing."""
        self._pending.clear()
        if self._worker is not None:
            self._worker.cancel()

    async def _run(self) -> None:
        while self._pending:
            if self._last_start is not None:
                wait = self._last_start + self._interval() - self._clock()
                if wait > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._now.wait(), wait)
            if not self._pending:
                return
            self._now.clear()
            pending = self._pending.popleft()
            self._last_start = self._clock()
            try:
                await self._publish(pending.item)
            except Exception:
                self._failures += 1
                log.exception("publishing a table update failed (%d in a row)", self._failures)
                if pending.keep or not self._pending:  # nothing newer replaces it
                    self._pending.appendleft(pending)
            else:
                self._failures = 0

    def _interval(self) -> float:
        """Seconds from the start of the last publish to the next: ``min_interval``, or after
        failures the retry delay if longer."""
        if not self._failures:
            return self._min_interval
        doublings = min(self._failures - 1, 32)  # the cap comes first; 2.0 ** n overflows
        backoff = self._retry_delay * 2.0 ** doublings
        return max(self._min_interval, min(backoff, MAX_RETRY_DELAY))

"""Fair sharing of the event loop between many busy tables.

With zero bot delays a thousand tables are all ready to run at once, and asyncio runs every
ready task once per loop iteration before it looks at timers again: one iteration would take
the sum of all their steps (hundreds of milliseconds), and every timer, heartbeat and reply
would wait that long. The pacer parks the tables' steps in a queue and lets only as many run
per iteration as fit in a small time slice, adapting the count to how long the last iteration
took. Tables take turns in order, so none starves.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque

DEFAULT_SLICE = 0.004
"""Target seconds of table work per loop iteration (keeps loop lag near this)."""
MAX_PER_ITERATION = 256


class StepPacer:
    """A queue that hands out "run one step now" turns, a bounded batch per loop iteration.

    ``await pacer.step()`` between two units of work instead of ``await asyncio.sleep(0)``.
    """

    def __init__(self, slice_seconds: float = DEFAULT_SLICE) -> None:
        if slice_seconds <= 0:
            raise ValueError("the time slice must be positive")
        self._slice = slice_seconds
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._per_iteration = 8
        self._last_release: float | None = None
        self._scheduled = False

    @property
    def waiting(self) -> int:
        """How many steps are queued now."""
        return len(self._waiting)

    async def step(self) -> None:
        """Wait for this caller's turn to run its next step."""
        loop = asyncio.get_running_loop()
        turn = loop.create_future()
        self._waiting.append(turn)
        if not self._scheduled:
            self._scheduled = True
            self._last_release = None
            loop.call_soon(self._release)
        await turn

    def _release(self) -> None:
        now = time.perf_counter()
        if self._last_release is not None:
            # The steps released last time ran in the iteration that just ended.
            if now - self._last_release > self._slice:
                self._per_iteration = max(1, self._per_iteration // 2)
            else:
                self._per_iteration = min(MAX_PER_ITERATION, self._per_iteration + 1)
        self._last_release = now
        released = 0
        while self._waiting and released < self._per_iteration:
            turn = self._waiting.popleft()
            if not turn.done():  # a cancelled waiter gives up its turn
                turn.set_result(None)
                released += 1
        if self._waiting:
            asyncio.get_running_loop().call_soon(self._release)
        else:
            self._scheduled = False

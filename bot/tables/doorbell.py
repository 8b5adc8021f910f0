"""How a table's runner waits: until a request changes something, a timer runs out, or the
table closes.

Requests (a join, an action, an answer) ring the doorbell after they changed the table; the
runner then looks again at what there is to do. Closing rings it too, and every wait then
raises ``TableClosing`` so that the runner unwinds whatever it was doing.
"""

from __future__ import annotations

import asyncio
import contextlib


class TableClosing(Exception):
    """Raised inside the runner when the table is closing, to unwind the hand."""


class Doorbell:
    """One table's wake-up call, shared by its runner and the requests that change it.

    >>> async def demo() -> bool:
    ...     bell = Doorbell()
    ...     waiting = asyncio.ensure_future(bell.wait(60))
    ...     await asyncio.sleep(0)
    ...     bell.ring()
    ...     await waiting
    ...     return waiting.done()
    >>> asyncio.run(demo())
    True
    """

    __slots__ = ("_closing", "_draining", "_idle", "_waiter")

    def __init__(self) -> None:
        self._waiter: asyncio.Future[None] | None = None
        self._closing = False
        self._draining = False
        self._idle = asyncio.Event()

    @property
    def draining(self) -> bool:
        """True once ``drain()`` was called: the process is stopping, so the runner finishes
        the hand in progress (bots without their thinking delay) and deals no new one."""
        return self._draining

    def drain(self) -> None:
        """Deal no new hand; wake the runner so that it looks again."""
        self._draining = True
        self.ring()

    @property
    def closing(self) -> bool:
        """True once ``close()`` was called."""
        return self._closing

    def ring(self) -> None:
        """Wake the runner if it is waiting (a request changed something); a parked runner
        is not idle any more until it parks again."""
        self._idle.clear()
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def close(self) -> None:
        """Mark the table as closing and wake the runner, whose waits raise from now on."""
        self._closing = True
        self.ring()

    def check(self) -> None:
        """Raise ``TableClosing`` if the table is closing."""
        if self._closing:
            raise TableClosing()

    async def wait(self, timeout: float | None = None) -> None:
        """Wait until rung or ``timeout`` seconds pass (``None``: no limit); raises
        ``TableClosing`` before and after waiting if the table is closing."""
        self.check()
        waiter = asyncio.get_running_loop().create_future()
        self._waiter = waiter
        try:
            if timeout is None:
                await waiter
            else:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(waiter, max(timeout, 0.0))
        finally:
            self._waiter = None
        self.check()

    async def park(self, timeout: float | None = None) -> None:
        """Wait like ``wait()`` with nothing else to do: idle until rung or the timeout."""
        self._idle.set()
        try:
            await self.wait(timeout)
        finally:
            self._idle.clear()

    def finish(self) -> None:
        """The runner has stopped: idle for good."""
        self._idle.set()

    async def until_idle(self) -> None:
        """Return once the runner is parked (or has stopped)."""
        await self._idle.wait()

    async def sleep(self, seconds: float) -> None:
        """Sleep ``seconds`` even if rung meanwhile (closing interrupts it with
        ``TableClosing``)."""
        loop = asyncio.get_running_loop()
        ends_at = loop.time() + seconds
        while loop.time() < ends_at:
            await self.wait(ends_at - loop.time())

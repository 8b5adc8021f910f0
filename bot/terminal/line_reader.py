"""Typed lines, read in a background thread so that waiting for the player never blocks the
event loop (the tables and the bots keep running).

Lines wait in order until a prompt takes them, so a piped script and type-ahead work; a line
that asks to leave (``q``), or the end of input, can be noticed at any moment with
``wait_for_leave`` without consuming what comes before it.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import deque
from collections.abc import Callable
from typing import TextIO

LEAVE_WORDS = frozenset({"q", "quit", "exit", "leave", "退出", "离开", "離開"})


def is_leave(line: str | None) -> bool:
    """True for the end of input (``None``) and for a line asking to leave."""
    return line is None or line.strip().lower() in LEAVE_WORDS


class LineReader:
    """Lines of a text stream, delivered to the event loop; ``None`` marks the end of input
    and stays at the head once reached."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._lines: deque[str | None] = deque()
        self._changed = asyncio.Event()
        self._loop = asyncio.get_running_loop()

    def start(self) -> None:
        """Start reading. The thread is a daemon: it must not keep the process alive while
        it waits on a terminal nobody types into."""
        threading.Thread(target=self._read_all, name="terminal-input", daemon=True).start()

    async def take(self) -> str | None:
        """The next line without its newline, or ``None`` at the end of input."""
        await self._wait_until(lambda: bool(self._lines))
        line = self._lines[0]
        if line is not None:
            self._lines.popleft()
            self._touch()
        return line

    @property
    def unread(self) -> int:
        """How many typed lines wait for a prompt."""
        return sum(line is not None for line in self._lines)

    def drop_typed_ahead(self) -> list[str]:
        """Forget the lines waiting before the next one that asks to leave (or the end of
        input), and return them: what a person typed before seeing what it would answer."""
        dropped = []
        while self._lines and not is_leave(self._lines[0]):
            line = self._lines.popleft()
            assert line is not None  # the end of input asks to leave
            dropped.append(line)
        if dropped:
            self._touch()
        return dropped

    async def wait_for_leave(self) -> None:
        """Return once the next unread line asks to leave, or input has ended."""
        await self._wait_until(lambda: bool(self._lines) and is_leave(self._lines[0]))

    async def _wait_until(self, condition: Callable[[], bool]) -> None:
        while not condition():
            await self._changed.wait()

    def _touch(self) -> None:
        """Wake every waiter to look again; later waiters wait on a fresh event."""
        self._changed.set()
        self._changed = asyncio.Event()

    def _read_all(self) -> None:
        post = self._loop.call_soon_threadsafe
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
            # A closed or unreadable stream ends the input like Ctrl-D does.
            with contextlib.suppress(OSError, ValueError):
                for line in self._stream:
                    post(self._deliver, line.rstrip("\r\n"))
            post(self._deliver, None)

    def _deliver(self, line: str | None) -> None:
        self._lines.append(line)
        self._touch()

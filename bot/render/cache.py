"""A least-recently-used cache bounded by the bytes it holds, safe to share between threads.

Pictures are drawn in threads off the event loop (``asyncio.to_thread``), for every table of
the process at once, so the caches of drawn pieces are shared and must stay within a memory
budget whatever the number of tables: an entry count would not do, since pieces range from a
chip (a few hundred bytes) to the board (tens of kilobytes).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")


class BoundedCache(Generic[Key, Value]):
    """Values kept by key while their sizes (``size(value)``) add up to at most ``budget``
    bytes, the least recently used dropped first. Two threads that miss the same key at once
    both make its value (a pure function of the key) and one is kept."""

    def __init__(self, size: Callable[[Value], int], budget: int) -> None:
        self._size = size
        self.budget = budget
        """Most bytes held at once."""
        self._entries: OrderedDict[Key, tuple[Value, int]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def get(self, key: Key, make: Callable[[], Value]) -> Value:
        """The value for ``key``, made by ``make()`` unless kept."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
                return entry[0]
        value = make()  # outside the lock: other threads draw meanwhile
        size = self._size(value)
        with self._lock:
            if key not in self._entries and size <= self.budget:
                self._entries[key] = (value, size)
                self._held += size
                while self._held > self.budget:
                    _, (_, dropped) = self._entries.popitem(last=False)
                    self._held -= dropped
        return value

    @property
    def held(self) -> int:
        """Bytes held now."""
        return self._held

    def __len__(self) -> int:
        return len(self._entries)

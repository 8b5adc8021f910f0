"""Interactions that Discord expired before the bot answered them.

Discord takes an interaction's first answer within 3 seconds and refuses a later one with
"Unknown interaction" (code 10062). That is not a bug in the answer but a bot too busy to reach
it in time, and one busy minute can expire hundreds: each is counted, and the log gets one
warning a minute with the count, instead of a traceback per click.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import discord

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062
WARN_EVERY_SECONDS = 60.0


def is_expired(error: BaseException) -> bool:
    """Whether ``error`` (or the error a command wrapped in it) is Discord refusing an
    answer because the interaction expired."""
    original = getattr(error, "original", None)
    if isinstance(original, BaseException) and original is not error:
        return is_expired(original)
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


class ExpiredInteractions:
    """Counts expired interactions and warns about them at most once per
    ``WARN_EVERY_SECONDS``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.total = 0
        """Expired since the process started."""
        self._unreported = 0
        self._last_warning: float | None = None

    def note(self) -> None:
        """One more interaction expired; warn if the last warning is a minute old."""
        self.total += 1
        self._unreported += 1
        now = self._clock()
        if self._last_warning is not None and now - self._last_warning < WARN_EVERY_SECONDS:
            return
        log.warning("%d interaction(s) expired before the bot could answer them (Discord "
                    "allows 3 s; %d since start): the process is too busy for its tables",
                    self._unreported, self.total)
        self._unreported = 0
        self._last_warning = now


EXPIRED = ExpiredInteractions()
"""The process's count (one event loop, one log)."""

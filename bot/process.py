"""Process start-up shared by the bot and the terminal game: logging, collector tuning, and
the token that names this process.

Logging goes to stderr in discord.py's format, at a level from ``LOG_LEVEL``.

The collector is tuned for a process that runs many tables. Every hand allocates thousands of
short-lived objects (views, states, records). With the default gen-0 threshold (2,000) the
collector runs hundreds of times a second, and every so often a full collection walks every
object the process holds: with a thousand tables that stalled the event loop for over 150 ms.
Freezing the objects that exist after start-up (modules, lookup tables, settings) takes them
out of every later collection, and a larger gen-0 threshold makes young collections rarer
without letting garbage pile up (each one is still small next to a table's memory).
"""

from __future__ import annotations

import gc
import logging
import os
import secrets
import socket
import sys

LOG_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"

PROCESS_TOKEN = f"pid {os.getpid()} on {socket.gethostname()} ({secrets.token_hex(4)})"
"""Names this process in the database (its claim on its shards): readable in an error
message, and unique even when a restarted process gets the same pid."""


def configure_logging(level: str = "INFO") -> None:
    """Send log records to stderr in discord.py's format, at the given level name."""
    numeric = logging.getLevelName(level.upper())
    if not isinstance(numeric, int):
        raise ValueError(f"unknown LOG_LEVEL {level!r}; use DEBUG, INFO, WARNING or ERROR")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(LOG_FORMAT, "%Y-%m-%d %H:%M:%S", style="{"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(numeric)


YOUNG_THRESHOLD = 50_000
"""Allocations (minus frees) between gen-0 collections. Measured with the many-tables benchmark
(1,000 tables, 20 s runs): loop lag p99/max 58/159 ms with the defaults, 54/106 ms at 5,000,
21-23/52-65 ms at 50,000, no better at 100,000; memory per table unchanged (40 KB)."""
OLDER_THRESHOLDS = (20, 100)
"""Gen-1 and gen-2 collections, counted in younger ones. The defaults (10, 10) made full
collections frequent enough to cost 10-15% of the loop thread at 1,000 tables (60 s runs:
461-530 hands/s, lag max 60-105 ms); (20, 100) measured 517-621 hands/s, lag max 34-96 ms.
Cyclic garbage is still collected, only in fewer, larger passes."""


def tune_garbage_collector() -> None:
    """Call once start-up is done (modules imported, tables and caches built): freezes what
    exists now out of later collections and makes young collections rarer.

    >>> before = gc.get_threshold()
    >>> tune_garbage_collector()
    >>> gc.get_threshold()
    (50000, 20, 100)
    >>> gc.unfreeze(); gc.set_threshold(*before)
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *OLDER_THRESHOLDS)

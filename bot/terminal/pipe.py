"""Output into a pipe whose reader has gone, as in ``holdem play | head -3``: the command ends
quietly, the way ``yes | head -1`` does, instead of with a ``BrokenPipeError`` traceback."""

from __future__ import annotations

import contextlib
import os
import sys

CLOSED_PIPE = 141
"""The exit status after writing into a closed pipe: what a shell reports for a tool killed
by SIGPIPE (128 + 13), so scripts read it as they read ``yes``'s."""


def discard_stdout() -> int:
    """Point stdout at the null device, so that the interpreter's last flush of what the
    closed pipe did not take raises nothing at exit; returns ``CLOSED_PIPE``."""
    with contextlib.suppress(OSError, ValueError):  # no file descriptor: nothing to flush
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return CLOSED_PIPE

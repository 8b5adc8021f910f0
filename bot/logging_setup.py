"""Logging configuration shared by the Discord bot and the terminal front end."""

from __future__ import annotations

import logging
import sys

LOG_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"


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

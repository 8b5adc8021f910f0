"""Hold'em for Discord: the table runtime, the chip ledger and the front ends."""

from __future__ import annotations

from typing import Any

__all__ = ["create_bot"]


def __getattr__(name: str) -> Any:
    # The Discord application is imported on demand so that the ledger, the table runtime
    # and the terminal front end can be used without loading discord.py.
    if name == "create_bot":
        from bot.discord_ui.app import create_bot

        return create_bot
    raise AttributeError(f"module 'bot' has no attribute {name!r}")

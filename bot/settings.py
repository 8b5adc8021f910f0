"""Process-wide settings read from environment variables."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE_PATH = Path("data") / "holdem.sqlite3"

# View Channel, Send Messages, Embed Links, Attach Files, Read Message History.
INVITE_PERMISSIONS = 1024 | 2048 | 16384 | 32768 | 65536


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
SNOWFLAKE_DIGITS = 20
"""Discord ids are 64-bit integers: at most 20 decimal digits."""


class SettingsError(ValueError):
    """An environment variable holds a value the bot cannot use."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What the bot process needs to start; every field has an environment variable."""

    token: str | None = None
    database_path: Path = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read DISCORD_TOKEN, DATABASE_PATH, DEV_GUILD_ID and LOG_LEVEL."""
        env = os.environ if environ is None else environ
        guild_text = env.get("DEV_GUILD_ID", "").strip()
        if guild_text and not (guild_text.isdecimal() and len(guild_text) <= SNOWFLAKE_DIGITS):
            raise SettingsError(f"DEV_GUILD_ID must be a numeric server id, not {guild_text!r}")
        log_level = env.get("LOG_LEVEL", "").strip().upper() or "INFO"
        if log_level not in LOG_LEVELS:
            raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, "
                                f"not {log_level[:20]!r}")
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            database_path=Path(env.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH),
            dev_guild_id=int(guild_text) if guild_text else None,
            log_level=log_level,
        )


MISSING_TOKEN_HELP = f"""\
DISCORD_TOKEN is not set, so the bot cannot connect to Discord.

To run it on Discord:
  1. Create an application at https://discord.com/developers/applications,
     open "Bot", and copy its token.
  2. Invite it to your server: OAuth2 > URL Generator, scopes "bot applications.commands",
     bot permissions View Channels, Send Messages, Embed Links, Attach Files and
     Read Message History (permissions integer {INVITE_PERMISSIONS}).
  3. Set the variables and start again:
       export DISCORD_TOKEN=<your bot token>
       export DATABASE_PATH=data/holdem.sqlite3   # optional, this is the default
       export DEV_GUILD_ID=<server id>            # optional: instant command sync in one server
       export LOG_LEVEL=INFO                      # optional
       python -m bot

To play offline in the terminal against bot opponents instead, no token needed:
  python -m bot play
"""

"""Process-wide settings read from environment variables."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import SplitResult, urlsplit

from bot.shards import MAX_SHARDS, ShardSet

DEFAULT_DATABASE_PATH = Path("data") / "holdem.sqlite3"

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
SNOWFLAKE_DIGITS = 20
"""Discord ids are 64-bit integers: at most 20 decimal digits."""
API_PATH = "/api/v10"
"""The Discord API version the bot speaks; a REST proxy's address ends with it."""
DEFAULT_SHARD_LEASE = 10.0
"""Seconds a process's claim on its shards lasts without a heartbeat (renewed every third of
it). A restarted process waits at most this long for a killed one's claim to lapse; shorter
risks a slow database write (busy_timeout is 5 s) letting a live claim lapse."""
MAX_SHARD_LEASE = 3600.0
DEFAULT_DRAIN_SECONDS = 20.0
"""How long a stopping bot lets the hands in progress finish. Bots act at once while it drains,
so a hand between people lasts at most its players' turn timers; 20 s fits most hands and
stays within the 30 s compose.yaml gives a stop before SIGKILL (a hand still running then is
refunded, not lost)."""
MAX_DRAIN_SECONDS = 600.0
SWITCH_WORDS = {"on": True, "off": False, "true": True, "false": False, "yes": True,
                "no": False, "1": True, "0": False}


class SettingsError(ValueError):
    """An environment variable holds a value the bot cannot use."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What the bot process needs to start; every field has an environment variable."""

    token: str | None = None
    database_path: Path = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    database_url: str | None = None
    """A ``postgresql://`` database shared by every process of the bot; when set, it holds the
    ledger instead of the SQLite file at ``database_path``."""
    shards: ShardSet = field(default_factory=ShardSet)
    """The shards this process runs and whose guilds' tables it owns (``SHARD_COUNT``,
    ``SHARD_IDS``); shard 0 of 1, every guild, without them."""
    shard_lease: float = DEFAULT_SHARD_LEASE
    """``SHARD_LEASE_SECONDS``: how long the claim on the shards outlives its last heartbeat."""
    discord_api_base: str | None = None
    """Where REST calls go instead of ``https://discord.com/api/v10``: a REST proxy shared by
    the processes of one bot token, which then share its global rate limit."""
    bot_worker: bool = True
    """``BOT_WORKER``: bot opponents think in a worker process of their own, which puts a
    second core to work. Off, they think on the process's event loop: the better choice when a
    machine runs as many bot processes as it has cores, where workers would only make the
    processes take turns on the cores (README, Running at scale, has the figures)."""
    picture_worker: bool = True
    """``PICTURE_WORKER``: table and card images are drawn in a worker process of their own
    (``bot.render.pictures``), off the event loop's GIL. Off, in threads of the bot's process:
    as with ``bot_worker``, for a machine running as many bot processes as it has cores."""
    drain_seconds: float = DEFAULT_DRAIN_SECONDS
    """``DRAIN_SECONDS``: on SIGTERM or Ctrl-C the bot deals no new hand and gives the hands in
    progress this long to finish before it refunds them; the tables are kept and open again
    at the next start."""
    wait_for_shards: bool = False
    """``WAIT_FOR_SHARDS``: a process started while another holds its shards waits for that
    one to stop (a deploy starts the new process, then stops the old one) instead of refusing
    to start."""
    images: bool = True
    """``IMAGES``: pictures of the table on its message, of the hole cards in their DMs, the
    /stats, /leaderboard and /review charts, and /replay's animations. Off, every message is
    text and embeds only, and /replay points to /history: about half the bot's CPU per hand
    and a seventh of the bytes it uploads (README, Performance)."""
    web: WebSettings = field(default_factory=lambda: WebSettings())
    """``python -m bot web``'s address and its Discord login (``WEB_*``, ``DISCORD_CLIENT_*``)."""

    @property
    def database(self) -> str | Path:
        """Where the ledger lives: ``database_url`` when set, else ``database_path``."""
        return self.database_url or self.database_path

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read DISCORD_TOKEN, DATABASE_PATH, DATABASE_URL, DEV_GUILD_ID, LOG_LEVEL,
        SHARD_COUNT, SHARD_IDS, SHARD_LEASE_SECONDS, WAIT_FOR_SHARDS, DRAIN_SECONDS,
        DISCORD_API_BASE, BOT_WORKER, PICTURE_WORKER, IMAGES and ``WebSettings``' variables.

        Raises ``SettingsError`` for a value the bot cannot use."""
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
            database_url=_database_url(env.get("DATABASE_URL", "")),
            dev_guild_id=int(guild_text) if guild_text else None,
            log_level=log_level,
            shards=_shards(env.get("SHARD_COUNT", "").strip(), env.get("SHARD_IDS", "").strip()),
            shard_lease=_lease(env.get("SHARD_LEASE_SECONDS", "").strip()),
            wait_for_shards=_switch("WAIT_FOR_SHARDS", env.get("WAIT_FOR_SHARDS", ""),
                                    default=False),
            drain_seconds=_seconds("DRAIN_SECONDS", env.get("DRAIN_SECONDS", "").strip(),
                                   DEFAULT_DRAIN_SECONDS, 0.0, MAX_DRAIN_SECONDS),
            discord_api_base=_api_base(env.get("DISCORD_API_BASE", "")),
            bot_worker=_switch("BOT_WORKER", env.get("BOT_WORKER", ""), default=True),
            picture_worker=_switch("PICTURE_WORKER", env.get("PICTURE_WORKER", ""),
                                   default=True),
            images=_switch("IMAGES", env.get("IMAGES", ""), default=True),
            web=WebSettings.from_env(env),
        )


@dataclass(frozen=True, slots=True)
class WebSettings:
    """The web companion (``python -m bot web``): where it listens, the address people reach
    it at, and the Discord application its "Log in with Discord" uses."""

    host: str = "127.0.0.1"
    """``WEB_HOST``: the interface to listen on (``0.0.0.0`` in a container)."""
    port: int = 8080
    """``WEB_PORT``."""
    base_url: str | None = None
    """``WEB_BASE_URL``: the address people open (``https://poker.example.org``), which the
    login's redirect and ``/web``'s links use; unset, ``http://{host}:{port}``. Session cookies
    are ``Secure`` when it is https."""
    client_id: str | None = None
    """``DISCORD_CLIENT_ID``: the application's id (developer portal, OAuth2)."""
    client_secret: str | None = None
    """``DISCORD_CLIENT_SECRET``: the application's OAuth2 secret; without it and the id,
    nobody can log in and only public servers' pages can be read."""
    session_secret: str | None = None
    """``WEB_SESSION_SECRET``: the key session cookies are encrypted with. Unset, it is derived
    from ``DISCORD_CLIENT_SECRET`` (so every web process and restart agrees), and without that
    is random per process."""
    oauth_base: str = "https://discord.com/api"
    """``DISCORD_OAUTH_BASE``: where the login sends people to authorize (``/oauth2/authorize``)
    and asks for tokens and the person's servers; tests point it at the fake Discord."""
    in_bot: bool = False
    """True when ``WEB_PORT`` is set: ``python -m bot`` then serves the web companion too, with
    its live tables (which need the bot's state, ``bot.web.live``)."""

    @property
    def url(self) -> str:
        """The address people open, without a trailing slash."""
        return self.base_url or f"http://{self.host}:{self.port}"

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> WebSettings:
        """Read WEB_HOST, WEB_PORT, WEB_BASE_URL, DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET,
        WEB_SESSION_SECRET and DISCORD_OAUTH_BASE; ``SettingsError`` for a bad value."""
        port_text = env.get("WEB_PORT", "").strip()
        if port_text and not (port_text.isdecimal() and len(port_text) <= 5
                              and 1 <= int(port_text) <= 65535):
            raise SettingsError(f"WEB_PORT must be a port number from 1 to 65535, "
                                f"not {port_text[:20]!r}")
        client_id = env.get("DISCORD_CLIENT_ID", "").strip()
        if client_id and not (client_id.isdecimal() and len(client_id) <= SNOWFLAKE_DIGITS):
            raise SettingsError(f"DISCORD_CLIENT_ID must be the application's numeric id, "
                                f"not {client_id[:40]!r}")
        return cls(
            host=env.get("WEB_HOST", "").strip() or "127.0.0.1",
            port=int(port_text) if port_text else 8080,
            base_url=_web_address("WEB_BASE_URL", env.get("WEB_BASE_URL", "")),
            client_id=client_id or None,
            client_secret=env.get("DISCORD_CLIENT_SECRET", "").strip() or None,
            session_secret=env.get("WEB_SESSION_SECRET", "").strip() or None,
            oauth_base=_web_address("DISCORD_OAUTH_BASE", env.get("DISCORD_OAUTH_BASE", ""))
            or "https://discord.com/api",
            in_bot=bool(port_text),
        )


def _web_address(name: str, text: str) -> str | None:
    """An http(s) address without a trailing slash, ``None`` when unset.

    >>> _web_address("WEB_BASE_URL", "https://poker.example.org/")
    'https://poker.example.org'
    """
    text = text.strip().rstrip("/")
    if not text:
        return None
    parts = _split_url(text)
    if not (parts and parts.scheme in ("http", "https") and parts.hostname
            and not parts.query and not parts.fragment):
        raise SettingsError(f"{name} must be an http(s) address, not {text[:80]!r}")
    return text


def _shards(count_text: str, ids_text: str) -> ShardSet:
    """SHARD_COUNT alone runs every shard; SHARD_IDS picks some of them."""
    if not count_text:
        if ids_text:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT (the bot's total number of shards)")
        return ShardSet()
    if not (count_text.isdecimal() and len(count_text) <= 5
            and 1 <= int(count_text) <= MAX_SHARDS):
        raise SettingsError(f"SHARD_COUNT must be a whole number from 1 to {MAX_SHARDS}, "
                            f"not {count_text[:20]!r}")
    count = int(count_text)
    if not ids_text:
        return ShardSet.all_of(count)
    ids = []
    for part in ids_text.split(","):
        part = part.strip()
        if not (part.isdecimal() and len(part) <= 5):
            raise SettingsError(f"SHARD_IDS must be shard numbers separated by commas, "
                                f"not {ids_text[:40]!r}")
        if int(part) >= count:
            raise SettingsError(f"SHARD_IDS lists shard {int(part)}, but SHARD_COUNT={count} "
                                f"numbers shards 0 to {count - 1}")
        if int(part) in ids:
            raise SettingsError(f"SHARD_IDS lists shard {int(part)} twice")
        ids.append(int(part))
    return ShardSet(count, tuple(sorted(ids)))


def _switch(name: str, text: str, *, default: bool) -> bool:
    """An on/off variable: on, off (or true/false, yes/no, 1/0); unset is ``default``."""
    word = text.strip().lower()
    if not word:
        return default
    if word not in SWITCH_WORDS:
        raise SettingsError(f"{name} must be on or off, not {text.strip()[:20]!r}")
    return SWITCH_WORDS[word]


def _lease(text: str) -> float:
    return _seconds("SHARD_LEASE_SECONDS", text, DEFAULT_SHARD_LEASE, 0.1, MAX_SHARD_LEASE)


def _seconds(name: str, text: str, default: float, low: float, high: float) -> float:
    """A number of seconds from ``low`` to ``high``; unset is ``default``.

    >>> _seconds("DRAIN_SECONDS", "7.5", 20.0, 0.0, 600.0)
    7.5
    """
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not low <= seconds <= high:
        raise SettingsError(f"{name} must be a number of seconds from {low:g} to {high:g}, "
                            f"not {text[:20]!r}")
    return seconds


def _split_url(text: str) -> SplitResult | None:
    """``text`` split as a URL, or ``None`` when it cannot be one (a bad port or host)."""
    try:
        parts = urlsplit(text)
        return parts if parts.port is None or parts.port > 0 else None
    except ValueError:
        return None


def _database_url(text: str) -> str | None:
    """A PostgreSQL URL with a host and a database name, ``None`` when unset.

    >>> _database_url(" postgresql://holdem:secret@db:5432/holdem ")
    'postgresql://holdem:secret@db:5432/holdem'
    """
    text = text.strip()
    if not text:
        return None
    parts = _split_url(text)
    database = parts.path.removeprefix("/") if parts else ""
    if not (parts and parts.scheme in ("postgresql", "postgres") and parts.hostname
            and database and "/" not in database):
        scheme, separator, _ = text.partition("://")  # never the password it may hold
        host = (parts.hostname or '') if parts else ''
        shown = f"{scheme}://{host}…" if separator else text[:40]
        raise SettingsError("DATABASE_URL must look like postgresql://user:password@host:5432/"
                            f"database, not {shown!r}")
    return text


def _api_base(text: str) -> str | None:
    """The REST proxy's address without a trailing slash, ``None`` when unset.

    >>> _api_base("http://rest-proxy:8080/api/v10/")
    'http://rest-proxy:8080/api/v10'
    """
    text = text.strip().rstrip("/")
    if not text:
        return None
    parts = _split_url(text)
    if not (parts and parts.scheme in ("http", "https") and parts.hostname
            and not parts.query and not parts.fragment and parts.path.endswith(API_PATH)):
        raise SettingsError(f"DISCORD_API_BASE must be an http(s) address ending in "
                            f"{API_PATH} (a Discord REST proxy), not {text[:80]!r}")
    return text


def missing_token_help(invite_permissions: int) -> str:
    """What to do without DISCORD_TOKEN; ``invite_permissions`` is the integer of the
    permissions the bot checks for (``bot.discord_ui.permissions``, which this neutral module
    cannot import)."""
    link = ("https://discord.com/oauth2/authorize?client_id=<application id>"
            f"&scope=bot+applications.commands&permissions={invite_permissions}")
    return f"""\
DISCORD_TOKEN is not set, so the bot cannot connect to Discord.

To run it on Discord:
  1. Create an application at https://discord.com/developers/applications,
     open "Bot", and copy its token. The bot needs no privileged gateway intents.
  2. Invite it to your server: OAuth2 > URL Generator, scopes "bot applications.commands",
     bot permissions View Channels, Send Messages, Embed Links, Attach Files,
     Read Message History, Create Public Threads and Send Messages in Threads
     (permissions integer {invite_permissions}), or open this link with your application id:
     {link}
  3. Set the variables and start again:
       export DISCORD_TOKEN=<your bot token>
       export DATABASE_PATH=data/holdem.sqlite3   # optional, this is the default
       export DATABASE_URL=postgresql://user:password@host:5432/holdem  # optional: PostgreSQL
       export DEV_GUILD_ID=<server id>            # optional: instant command sync in one server
                                                  # (Developer Mode, right-click the server,
                                                  # Copy Server ID)
       export LOG_LEVEL=INFO                      # optional
       export DISCORD_API_BASE=http://rest-proxy:8080/api/v10  # optional: a shared REST proxy
       export SHARD_COUNT=4 SHARD_IDS=0,1         # optional: run some shards (see README)
       python -m bot

To play offline in the terminal against bot opponents instead, no token needed:
  python -m bot play
"""

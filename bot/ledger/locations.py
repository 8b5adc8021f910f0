"""Where a ledger lives: an SQLite file, or a PostgreSQL database named by a URL.

Kept apart from the PostgreSQL backend so that choosing a backend does not import asyncpg,
which only the ``[postgres]`` extra installs.
"""

from __future__ import annotations

from urllib.parse import urlsplit

URL_SCHEMES = ("postgresql", "postgres")
"""The URL schemes PostgreSQL accepts for a database."""


def is_postgres_url(location: object) -> bool:
    """Whether a ledger location names a PostgreSQL database rather than an SQLite file."""
    return isinstance(location, str) and urlsplit(location).scheme in URL_SCHEMES


def describe_url(url: str) -> str:
    """The URL without its password, for messages and logs.

    >>> describe_url("postgresql://holdem:secret@db.example:5432/holdem")
    'postgresql://holdem@db.example:5432/holdem'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = f"{parts.username}@" if parts.username else ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return parts._replace(netloc=f"{user}{host}{port}").geturl()

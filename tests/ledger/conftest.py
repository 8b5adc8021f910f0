"""Fixtures of the ledger tests: a ledger on each backend (a fresh SQLite file, a fresh
PostgreSQL database) with a clock the test moves, audited when the test ends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.ledger import Ledger

BACKENDS = ("sqlite", "postgresql")


class FakeClock:
    """A clock the test sets (``clock.now += 86_400``)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=BACKENDS)
def ledger_location(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where a test's ledger lives, once per backend: an SQLite file or a PostgreSQL URL."""
    if request.param == "sqlite":
        return tmp_path / "ledger.sqlite3"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
async def ledger(ledger_location: str | Path, clock: FakeClock) -> AsyncIterator[Ledger]:
    async with await Ledger.open(ledger_location, clock=clock) as opened:
        yield opened
        report = await opened.audit()
        assert report.ok, report.problems

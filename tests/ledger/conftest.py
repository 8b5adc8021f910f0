"""Fixtures of the ledger tests: a ledger on a fresh SQLite file with a clock the test moves,
audited when the test ends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.ledger import Ledger


class FakeClock:
    """A clock the test sets (``clock.now += 86_400``)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def ledger(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Ledger]:
    async with await Ledger.open(tmp_path / "ledger.sqlite3", clock=clock) as opened:
        yield opened
        report = await opened.audit()
        assert report.ok, report.problems

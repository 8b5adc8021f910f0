"""Set-up for the tournament runtime tests: a started ``TableManager`` whose tournaments use
either the in-memory ``FakeTournamentLedger`` or (once it has the tournament methods) the real
SQLite ``Ledger``, a recording notifier, and helpers to wait for the end."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.ledger import Ledger
from bot.tables.manager import TableManager
from bot.tables.settings import TableSettings
from bot.tables.tournament_settings import TournamentSettings
from bot.tables.tournament_status import TournamentPhase, TournamentResults
from engine.blinds import LevelUnit
from tests.tables.fake_tournament_ledger import FakeTournamentLedger
from tests.tables.recording_notifier import RecordingNotifier

GUILD = 1
CHANNEL = 100
ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14

REAL_LEDGER = hasattr(Ledger, "register_tournament") and hasattr(Ledger, "finish_tournament")
LEDGERS = ["fake", pytest.param("sqlite", marks=pytest.mark.skipif(
    not REAL_LEDGER, reason="bot.ledger.Ledger has no tournament methods yet"))]


def fast_settings(**changes: Any) -> TournamentSettings:
    """A quick sit-and-go: 40 big blinds of a turbo structure, levels of 6 hands."""
    values: dict[str, Any] = {"buy_in": 100, "starting_stack": 800, "seats": 6,
                              "structure": "turbo", "unit": LevelUnit.HANDS}
    values.update(changes)
    return TournamentSettings(**values)


class Harness:
    """The manager, its notifier, and the ledger tournaments use (fake or real)."""

    def __init__(self, manager: TableManager, notifier: RecordingNotifier,
                 ledger: Ledger, tournament_ledger: Any) -> None:
        self.manager = manager
        self.notifier = notifier
        self.ledger = ledger
        self.tournament_ledger = tournament_ledger

    @property
    def real(self) -> bool:
        return self.tournament_ledger is self.ledger

    async def balance(self, user_id: int) -> int:
        if self.real:
            return await self.ledger.balance(GUILD, user_id)
        return int(self.tournament_ledger.balance(GUILD, user_id))

    async def audit_ok(self) -> bool:
        if self.real:
            report = await self.ledger.audit()
            return bool(report.ok)
        return bool(self.tournament_ledger.audit()) and (await self.ledger.audit()).ok

    async def finished(self, tournament_id: int, timeout: float = 60.0) -> TournamentResults:
        """Wait for the tournament's results."""
        notifier = self.notifier
        async with asyncio.timeout(timeout):
            while True:
                for results in notifier.tournament_results:
                    if results.tournament_id == tournament_id:
                        await self.manager.tournaments.wait_until_done()
                        return results
                status = self.manager.tournaments.status(tournament_id)
                assert status.phase is not TournamentPhase.CANCELLED
                await asyncio.sleep(0.005)


@asynccontextmanager
async def tournament_harness(
    path: Path, kind: str = "fake", *, seed: int = 7, settings: TableSettings | None = None,
    clock: Callable[[], float] = time.time,
) -> AsyncIterator[Harness]:
    """A started manager with zero delays; shut down on exit."""
    ledger = await Ledger.open(path / "ledger.sqlite3")
    tournament_ledger: Any = ledger if kind == "sqlite" else FakeTournamentLedger()
    notifier = RecordingNotifier()
    manager = TableManager(
        ledger, notifier, rng=random.Random(seed),
        default_settings=settings or TableSettings.instant(),
        tournament_ledger=tournament_ledger, clock=clock,
    )
    notifier.manager = manager
    await manager.start()
    try:
        yield Harness(manager, notifier, ledger, tournament_ledger)
    finally:
        await manager.shutdown()
        await ledger.close()

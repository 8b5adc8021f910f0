"""Shared set-up for the table runtime tests: a real ledger in a temp dir, a recording
notifier, and a manager with zero delays."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from bot.ledger import Ledger
from bot.tables.manager import TableManager
from bot.tables.notifier import TurnPrompt
from bot.tables.settings import TableSettings
from engine.actions import Action, ActionKind
from tests.tables.recording_notifier import RecordingNotifier

GUILD = 1
CHANNEL = 100
ALICE, BOB, CAROL = 11, 12, 13


def passive(prompt: TurnPrompt) -> Action:
    """Check when free, else call: keeps hands going to showdown."""
    return Action(ActionKind.CHECK if prompt.legal.can_check else ActionKind.CALL)


def shove(prompt: TurnPrompt) -> Action:
    """Put the whole stack in (by calling, when a raise is not open)."""
    return Action(ActionKind.ALL_IN if prompt.legal.can_bet_or_raise else ActionKind.CALL)


@asynccontextmanager
async def running_manager(
    path: Path, *, seed: int = 7, settings: TableSettings | None = None,
) -> AsyncIterator[tuple[TableManager, RecordingNotifier, Ledger]]:
    """A started manager on a fresh ledger; shut down (everyone cashed out) on exit."""
    ledger = await Ledger.open(path / "ledger.sqlite3")
    notifier = RecordingNotifier()
    manager = TableManager(
        ledger, notifier, rng=random.Random(seed),
        default_settings=settings or TableSettings.instant(),
    )
    notifier.manager = manager
    await manager.start()
    try:
        yield manager, notifier, ledger
    finally:
        await manager.shutdown()
        await ledger.close()


async def eventually(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Wait (yielding to the loop) until ``condition()`` holds."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.001)


async def assert_chips_match_ledger(manager: TableManager, ledger: Ledger, channel: int) -> None:
    """Every seat's stack equals the ledger's escrow for it, and the audit holds."""
    state = manager.state(channel)
    seats = {} if state is None else {
        (seat.user_id if seat.user_id is not None else seat.name): seat.stack
        for seat in state.seats if seat.stack > 0
    }
    assert seats == await ledger.table_stacks(channel)
    report = await ledger.audit()
    assert report.ok, report.problems

"""The chip ledger failing under the tables: its database refuses every write, as a read-only or
full disk would. Tables retry with growing pauses, tell the people once, never report a hand
that did not begin, refuse requests with ``LedgerUnavailable``, and carry on once it is back.

The fault is real: triggers created in the database file by a second connection make every
write the ledger tries fail inside SQLite; dropping them mends it.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.ledger import Ledger, LedgerUnavailable
from bot.tables import ledger_guard
from bot.tables.ledger_guard import Backoff
from bot.tables.manager import TableManager
from bot.tables.settings import TableSettings
from engine.actions import Action, ActionKind
from tests.tables.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, eventually
from tests.tables.recording_notifier import RecordingNotifier

FIRST, CAP = 0.05, 0.4


def refuse_writes(path: Path) -> None:
    """Make every write to the database at ``path`` fail, for every connection."""
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        tables = [name for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        for table in tables:
            for operation in ("INSERT", "UPDATE", "DELETE"):
                db.execute(
                    f"CREATE TRIGGER fault_{operation}_{table} BEFORE {operation} ON {table}"
                    " BEGIN SELECT RAISE(ABORT, 'the disk refuses writes'); END")


def accept_writes(path: Path) -> None:
    """Undo ``refuse_writes``."""
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        triggers = [name for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'fault_%'")]
        for trigger in triggers:
            db.execute(f"DROP TRIGGER {trigger}")


class WatchedLedger:
    """The real ledger, noting when each hand was asked to begin."""

    def __init__(self, ledger: Ledger) -> None:
        self._ledger = ledger
        self.begin_attempts: list[float] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self._ledger, name)

    async def begin_hand(self, *args: object) -> int:
        self.begin_attempts.append(asyncio.get_running_loop().time())
        return await self._ledger.begin_hand(*args)


@pytest.fixture
def fast_retries(monkeypatch):
    monkeypatch.setattr(ledger_guard, "LEDGER_RETRY_FIRST", FIRST)
    monkeypatch.setattr(ledger_guard, "LEDGER_RETRY_CAP", CAP)


def test_pauses_double_up_to_the_cap_and_start_again_after_a_success():
    backoff = Backoff(first=1.0, cap=30.0)
    assert [backoff.next() for _ in range(8)] == [1, 2, 4, 8, 16, 30, 30, 30]
    backoff.reset()
    assert backoff.next() == 1


async def test_a_ledger_that_refuses_writes_is_retried_with_growing_pauses_and_told_once(
        tmp_path, fast_retries):
    path = tmp_path / "ledger.sqlite3"
    ledger = await Ledger.open(path)
    watched = WatchedLedger(ledger)
    notifier = RecordingNotifier()
    manager = TableManager(watched, notifier, rng=random.Random(3),
                           default_settings=TableSettings.instant())
    notifier.manager = manager
    try:
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.sit_out(CHANNEL, ALICE)
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        refuse_writes(path)
        await manager.sit_in(CHANNEL, ALICE)  # two players: the table tries to deal
        await eventually(lambda: len(watched.begin_attempts) >= 6)

        attempts = watched.begin_attempts
        gaps = [later - earlier for earlier, later in itertools.pairwise(attempts)]
        for gap, planned in zip(gaps, [FIRST, 2 * FIRST, 4 * FIRST, CAP, CAP], strict=False):
            assert gap >= planned * 0.9, gaps
        assert notifier.outcomes == [] and not manager.state(CHANNEL).is_hand_running
        for person in (ALICE, BOB):
            told = notifier.messages_to(person)
            assert len(told) == 1 and "chip ledger is unavailable" in told[0], told
            assert not any("cancelled" in message for message in told)

        # Requests that need the ledger are refused with a sentence, and change nothing.
        with pytest.raises(LedgerUnavailable, match="chip ledger is unavailable"):
            await manager.join(GUILD, CHANNEL, CAROL, "Carol")
        with pytest.raises(LedgerUnavailable):
            await manager.top_up(CHANNEL, ALICE, 100)
        with pytest.raises(LedgerUnavailable):
            await manager.leave(CHANNEL, BOB)
        with pytest.raises(LedgerUnavailable):
            await manager.start_hand(CHANNEL)
        state = manager.state(CHANNEL)
        assert [(seat.user_id, seat.stack) for seat in state.seats] == [
            (ALICE, 2000), (BOB, 2000)]

        accept_writes(path)
        user, _ = await notifier.next_prompt()  # the next attempt deals
        await manager.act(CHANNEL, user, Action(ActionKind.FOLD))
        await eventually(lambda: len(notifier.outcomes) == 1)
        assert all(len(notifier.messages_to(person)) == 1 for person in (ALICE, BOB))
    finally:
        await manager.shutdown()
    assert await ledger.balance(GUILD, ALICE) + await ledger.balance(GUILD, BOB) == 20_000
    assert (await ledger.audit()).ok
    await ledger.close()


async def test_a_hand_the_ledger_cannot_settle_is_refunded_once_it_is_back(
        tmp_path, fast_retries):
    path = tmp_path / "ledger.sqlite3"
    ledger = await Ledger.open(path)
    notifier = RecordingNotifier()
    manager = TableManager(ledger, notifier, rng=random.Random(3),
                           default_settings=TableSettings.instant())
    notifier.manager = manager
    try:
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        user, _ = await notifier.next_prompt()
        refuse_writes(path)
        await manager.act(CHANNEL, user, Action(ActionKind.FOLD))  # settling fails
        await eventually(lambda: all(
            any("cancelled" in message for message in notifier.messages_to(person))
            for person in (ALICE, BOB)))
        assert notifier.outcomes == []
        with pytest.raises(LedgerUnavailable):
            await manager.leave(CHANNEL, user)  # no chips can move

        accept_writes(path)  # the refund goes through, then the next hand is dealt
        await notifier.next_prompt()
        for person in (ALICE, BOB):
            told = notifier.messages_to(person)
            assert sum("cancelled" in message for message in told) == 1, told
            assert sum("chip ledger is unavailable" in message for message in told) == 1, told
    finally:
        await manager.shutdown()
    assert await ledger.balance(GUILD, ALICE) == await ledger.balance(GUILD, BOB) == 10_000
    assert (await ledger.audit()).ok
    await ledger.close()

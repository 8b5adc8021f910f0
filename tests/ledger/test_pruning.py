"""Pruning old hands' details (``Ledger.prune_hands``, ``python -m bot prune-hands``): the
history and replay of hands finished before the cutoff go, with their start-of-hand stacks;
balances, entries, results, stats totals and leaderboards stay, and the audit holds. Hands
whose habits are not counted yet, running hands and newer hands keep everything. Both
backends."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import NoReturn

from bot.ledger import Ledger
from bot.ledger.statements import Script, command, rows
from tests.ledger.conftest import FakeClock
from tests.ledger.test_habits import ALICE, BOB, GUILD, THREE_BET_CALLED, play, settle

DAY = 86_400.0


def stack_rows() -> Script[int]:
    ((count,),) = yield from rows("SELECT COUNT(*) FROM hand_stacks")
    return int(count)


def uncount(hand_id: int) -> Script[None]:
    """Make a hand's habits uncounted, as a hand settled before habits were counted is."""
    yield from command("UPDATE hand_players SET saw_flop = NULL WHERE hand_id = ?", hand_id)


async def test_old_hands_lose_their_details_and_nothing_else(
        ledger: Ledger, clock: FakeClock) -> None:
    old = await settle(ledger, play(THREE_BET_CALLED), (ALICE, BOB, "Bot"))
    kept_uncounted = await settle(ledger, play(THREE_BET_CALLED), (BOB, ALICE, "Bot"))
    await ledger._db.write(lambda: uncount(kept_uncounted))
    await ledger.buy_in(GUILD, 300, "Ada", 500)
    running = await ledger.begin_hand(GUILD, 300, 1, {"Ada": 500})
    clock.now += 40 * DAY
    recent = await settle(ledger, play(THREE_BET_CALLED), (ALICE, BOB, "Bot"))
    results_before = (await ledger.hand_history(old) or None)
    assert results_before is not None
    stats_before = [await ledger.stats(GUILD, person) for person in (ALICE, BOB)]
    board_before = await ledger.leaderboard(GUILD, by="net")
    habits_before = await ledger.habits(GUILD)
    stacks_before = await ledger._db.read(stack_rows)

    assert await ledger.prune_hands(clock.now - 30 * DAY) == 1

    gone = await ledger.hand_history(old)
    assert gone is not None and gone.history_text == "" and gone.replay is None
    assert gone.participants == results_before.participants
    for hand_id in (kept_uncounted, recent):
        record = await ledger.hand_history(hand_id)
        assert record is not None and record.history_text and record.replay
    assert await ledger._db.read(stack_rows) == stacks_before - 3  # the old hand's three
    assert [await ledger.stats(GUILD, person) for person in (ALICE, BOB)] == stats_before
    assert await ledger.leaderboard(GUILD, by="net") == board_before
    assert await ledger.habits(GUILD) == habits_before
    assert await ledger.prune_hands(clock.now - 30 * DAY) == 0  # once is enough
    await ledger.refund_hand(running)  # the running hand kept its snapshot to go back to
    audit = await ledger.audit()
    assert audit.ok, audit.problems


def prune_command(*args: str, **environment: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "prune-hands", *args], capture_output=True, text=True,
        env={**os.environ, **environment}, timeout=120, stdin=subprocess.DEVNULL)


async def test_the_prune_command_keeps_the_days_it_is_told(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    async with await Ledger.open(path, clock=lambda: time.time() - 10 * DAY) as ledger:
        old = await settle(ledger, play(THREE_BET_CALLED), (ALICE, BOB, "Bot"))
    async with await Ledger.open(path) as ledger:
        recent = await settle(ledger, play(THREE_BET_CALLED), (ALICE, BOB, "Bot"))
    kept = prune_command("--days", "30", DATABASE_PATH=str(path))
    assert (kept.returncode, kept.stdout) == (0, "done: 0 hands older than 30 days pruned\n")
    pruned = prune_command("--days", "7", DATABASE_PATH=str(path))
    assert pruned.returncode == 0 and pruned.stdout.endswith(
        "done: 1 hands older than 7 days pruned\n"), pruned.stdout
    async with await Ledger.open(path) as ledger:
        assert [bool((await ledger.hand_history(hand) or _missing()).replay)
                for hand in (old, recent)] == [False, True]
        assert (await ledger.audit()).ok


def _missing() -> NoReturn:
    raise AssertionError("the hand is gone")


def test_the_prune_command_wants_a_number_of_days(tmp_path: Path) -> None:
    refused = prune_command("--days", "0", DATABASE_PATH=str(tmp_path / "x.sqlite3"))
    assert refused.returncode == 2
    assert "a whole number of days from 1, not '0'" in refused.stderr

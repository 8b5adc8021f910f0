"""Random kills: a process running a cash table, or a sit-and-go, is killed with SIGKILL at
random moments (in a hand, between two, in a settlement) and started again, many times, on
SQLite and PostgreSQL. After every kill the audit holds; after every restart both people are
seated again, and the tournament is running or has finished by itself; closing the table at
the end gives them back exactly the chips they brought, and the tournament played to its end
pays its pool."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.ledger import Ledger
from tests.bot_processes import ROOT, Backend
from tests.tables.helpers import ALICE, BOB, GUILD

WORKER = Path(__file__).parent / "tables" / "kill_worker.py"
KILLS = 8
STARTING_BALANCE = 10_000


def run_worker(location: str, mode: str) -> subprocess.Popen[str]:
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.Popen([sys.executable, str(WORKER), location, mode], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def seated_after_start(worker: subprocess.Popen[str], last_line: str) -> Any:
    """What the worker printed at its start (the names seated, or the running tournaments),
    once it printed ``last_line``."""
    assert worker.stdout is not None and worker.stderr is not None
    seated = worker.stdout.readline()
    marker = worker.stdout.readline().strip()
    if marker != last_line:
        worker.kill()
        raise AssertionError(worker.stderr.read())
    return json.loads(seated)


async def kill_at_random_moments(backend: Backend, location: str, mode: str,
                                 expected: Callable[[Any], bool],
                                 over: Callable[[Any], bool] = lambda resumed: False) -> int:
    """Up to ``KILLS`` times: start the worker, check what it says it resumed, let it play for a
    random moment, SIGKILL it, and check the audit. It stops early once ``over`` says the game
    ended by itself; it returns how many kills landed in a game still running."""
    moments = random.Random()
    for kill in range(KILLS):
        worker = run_worker(location, mode)
        try:
            resumed = seated_after_start(worker, "PLAYING")
            if over(resumed):
                return kill
            assert expected(resumed), (kill, resumed)
            time.sleep(moments.uniform(0.0, 0.4))  # a random moment of play, not a wait
        finally:
            worker.send_signal(signal.SIGKILL)
            worker.communicate(timeout=30)
        assert worker.returncode == -signal.SIGKILL
        ledger = await backend.open()
        try:
            audit = await ledger.audit()
            assert audit.ok, (kill, audit.problems)
        finally:
            await ledger.close()
    return KILLS


async def test_a_table_killed_at_random_moments_keeps_its_seats_and_every_chip(
        backend: Backend):
    location = backend.env.get("DATABASE_URL") or backend.env["DATABASE_PATH"]
    await kill_at_random_moments(backend, location, "play",
                                 lambda seated: seated == ["Alice", "Bob"])
    worker = run_worker(location, "finish")
    assert seated_after_start(worker, "CLOSED") == ["Alice", "Bob"]
    assert worker.wait(timeout=30) == 0
    ledger: Ledger = await backend.open()
    try:
        assert (await ledger.audit()).ok
        balances = [await ledger.balance(GUILD, person) for person in (ALICE, BOB)]
        assert sum(balances) == 2 * STARTING_BALANCE
        assert await ledger.saved_tables() == []
        assert len(await ledger.recent_hands(GUILD, ALICE, limit=1000)) > 0
    finally:
        await ledger.close()


async def test_a_sit_and_go_killed_at_random_moments_runs_on_and_pays_its_pool(
        backend: Backend):
    """The sit-and-go may end by itself between two kills (its bots shove and the people call,
    a few seconds of play in all): then the kills stop, and what it paid is read from the
    ledger instead of from the process that finished it."""
    location = backend.env.get("DATABASE_URL") or backend.env["DATABASE_PATH"]
    first = run_worker(location, "tournament")
    [tournament_id] = seated_after_start(first, "PLAYING")
    first.send_signal(signal.SIGKILL)
    first.communicate(timeout=30)
    kills = await kill_at_random_moments(backend, location, "tournament",
                                         lambda running: running == [tournament_id],
                                         over=lambda running: running == [])
    if kills == KILLS:
        worker = run_worker(location, "tournament-finish")
        assert worker.stdout is not None
        assert json.loads(worker.stdout.readline()) == [tournament_id]  # still running
        paid = json.loads(worker.stdout.readline() or "null")
        assert worker.stdout.readline().strip() == "FINISHED", worker.communicate(timeout=30)
        assert worker.wait(timeout=30) == 0
        assert paid is not None and paid["prizes"] == paid["pool"] == 6 * 100
    ledger: Ledger = await backend.open()
    try:
        info = await ledger.tournament_info(tournament_id)
        assert info is not None and info.status == "finished", (kills, info)
        places = await ledger.tournament_results(tournament_id)
        assert sum(place.prize for place in places) == 6 * 100
        assert len(places) == 6
        audit = await ledger.audit()
        assert audit.ok, audit.problems
    finally:
        await ledger.close()

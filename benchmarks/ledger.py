"""Ledger throughput: many tables settling hands at once through one connection.

Each table seats two people and a bot, then loops: ``begin_hand`` then ``settle_hand`` (three
participants, stats and the hand record). For each commit mode (one transaction per write, then
group commit) it prints hands settled and transactions committed per second, CPU per hand on
the ledger's sqlite thread and in the whole process, and the latency of one begin+settle pair
as tables queue for the connection.

    python -m benchmarks.ledger [--tables 1000] [--hands 5] [--mode both|single|grouped]
                                [--synchronous FULL|NORMAL]

``--synchronous NORMAL`` replaces the ledger's ``FULL`` (the log synced to disk at every
commit) with SQLite's ``NORMAL`` (synced only at checkpoints), to measure what durability
across a power loss costs.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import threading
import time
from pathlib import Path

from bot.ledger import HandParticipant, Ledger
from bot.ledger.transactions import Transactions

GUILD = 1
HISTORY = "Hand #{n}\n" + "Seat 1: player (1,000 in chips)\n" * 12


async def seat_table(ledger: Ledger, table_id: int) -> dict[int | str, int]:
    people = (table_id * 2, table_id * 2 + 1)
    for user in people:
        await ledger.ensure_player(GUILD, user, f"player {user}")
        await ledger.buy_in(GUILD, table_id, user, 1_000)
    await ledger.buy_in(GUILD, table_id, f"Bot {table_id}", 1_000)
    return await ledger.table_stacks(table_id)


async def play_table(
    ledger: Ledger,
    table_id: int,
    stacks: dict[int | str, int],
    hands: int,
    latencies: list[float],
) -> None:
    players = list(stacks)
    for number in range(1, hands + 1):
        started = time.perf_counter()
        hand_id = await ledger.begin_hand(GUILD, table_id, number, stacks)
        winner, loser = players[number % 3], players[(number + 1) % 3]
        moved = min(50, stacks[loser])
        final = {**stacks, winner: stacks[winner] + moved, loser: stacks[loser] - moved}
        results = [
            HandParticipant(
                player,
                str(player),
                final[player] - stacks[player],
                won=player == winner,
                showdown_won=player == winner,
                vpip=True,
                pot_won=2 * moved * (player == winner),
            )
            for player in players
        ]
        await ledger.settle_hand(hand_id, final, results, HISTORY.format(n=number))
        latencies.append(time.perf_counter() - started)
        stacks = final


def sqlite_thread_cpu() -> float:
    """CPU seconds used so far by the ledger's sqlite thread (aiosqlite names its worker
    ``..._connection_worker_thread``)."""
    (thread,) = (t for t in threading.enumerate() if "_connection_worker_thread" in t.name)
    assert thread.ident is not None
    return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))


async def run(
    tables: int, hands: int, path: Path, *, group_commit: bool, synchronous: str
) -> None:
    async with await Ledger.open(path, group_commit=group_commit) as ledger:
        if synchronous != "FULL":  # only to measure the cost; the ledger itself always syncs
            database = ledger._db
            if not isinstance(database, Transactions):
                raise TypeError(f"PRAGMA synchronous needs a SQLite ledger, not {database!r}")
            await database.connection.execute(f"PRAGMA synchronous = {synchronous}")
        started = time.perf_counter()
        seats = await asyncio.gather(*(seat_table(ledger, t) for t in range(1, tables + 1)))
        seating = time.perf_counter() - started
        latencies: list[float] = []
        commits = ledger.transactions_committed
        started, cpu_started = time.perf_counter(), time.process_time()
        sqlite_cpu_started = sqlite_thread_cpu()
        await asyncio.gather(
            *(play_table(ledger, t, stacks, hands, latencies) for t, stacks in enumerate(seats, 1))
        )
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        sqlite_cpu = sqlite_thread_cpu() - sqlite_cpu_started
        commits = ledger.transactions_committed - commits
        audit = await ledger.audit()
    settled = tables * hands
    latencies.sort()
    mode = "group commit" if group_commit else "one transaction per write"
    print(f"--- {mode}, synchronous={synchronous}")
    print(f"seating {tables} tables (2 people and a bot each): {seating:.2f} s")
    print(f"{tables} tables x {hands} hands: {settled} hands in {elapsed:.2f} s")
    print(f"throughput: {settled / elapsed:,.0f} hands/s (begin_hand + settle_hand)")
    print(f"transactions: {commits / elapsed:,.0f}/s, {commits / settled:.3f} per hand")
    print(f"CPU per hand: sqlite thread {sqlite_cpu / settled * 1e3:.3f} ms,", end=" ")
    print(f"whole process {cpu / settled * 1e3:.3f} ms")
    print(
        f"latency per hand: median {statistics.median(latencies) * 1e3:.1f} ms, "
        f"p99 {latencies[int(len(latencies) * 0.99)] * 1e3:.1f} ms"
    )
    print(f"audit ok: {audit.ok}")


MODES = {"single": (False,), "grouped": (True,), "both": (False, True)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1_000)
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--mode", choices=MODES, default="both")
    parser.add_argument("--synchronous", choices=("FULL", "NORMAL"), default="FULL")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        for group_commit in MODES[args.mode]:
            path = Path(directory) / f"bench-{group_commit}.sqlite3"
            asyncio.run(
                run(
                    args.tables,
                    args.hands,
                    path,
                    group_commit=group_commit,
                    synchronous=args.synchronous,
                )
            )


if __name__ == "__main__":
    main()

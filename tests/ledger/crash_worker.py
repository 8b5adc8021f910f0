"""A process that plays hands through the ledger and freezes at a chosen moment, so that
``test_ledger_crash.py`` can kill it there.

Usage: ``python crash_worker.py DATABASE STOP_AT [TABLES [refused]]`` (DATABASE: an SQLite
path or a postgresql:// URL). The worker seats
the same two people and a bot at TABLES tables (default 1), begins one hand at each, then settles
them all at once, so that their settlements share one grouped transaction; with ``refused``, a
settlement of a hand that does not exist joins them, second, so that the transaction is replayed
with each write in a savepoint. STOP_AT is ``in-hand``
(after the start-of-hand snapshots), ``done`` (after the settlements committed), the start of
an SQL statement the settlements run, optionally with the occurrence to stop at (e.g.
``INSERT INTO entries``, ``UPDATE hands#2``, ``COMMIT``): the process freezes just before
the database runs it, inside the open transaction; ``sent:`` and such a statement: the process
waits for a line on its input before settling, then says ``SENT`` as the statement leaves for
the database and goes on; or ``never``: it keeps playing hands at the first table.

It prints one JSON line with the start-of-hand state and the final stacks it settles with,
then ``FROZEN`` when it has reached the moment and waits to be killed (``PLAYING`` for
``never``).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
import traceback
from collections.abc import Callable

from bot.ledger import HandParticipant, Ledger

GUILD, FIRST_TABLE = 0, 7
ALICE, BOB, BOT = 1, 2, "Ada"
START_STACKS = {ALICE: 2_000, BOB: 1_500, BOT: 1_000}
FINAL_STACKS = {ALICE: 3_100, BOB: 1_000, BOT: 400}
RESULTS = [
    HandParticipant(ALICE, "alice", 1_100, won=True, showdown_won=True, vpip=True, pot_won=2_200),
    HandParticipant(BOB, "bob", -500, vpip=True, pfr=True),
    HandParticipant(BOT, BOT, -600, vpip=True),
]


def freeze() -> None:
    print("FROZEN", flush=True)
    while True:
        time.sleep(60)


def freeze_before(stop_at: str) -> Callable[[str], None]:
    """A trace callback that freezes the database thread before the ``n``-th statement (of the
    settlements, counted from the first one traced) that starts with the text of ``stop_at``,
    written ``TEXT`` or ``TEXT#n``; ``sent:TEXT`` prints ``SENT`` instead of freezing, and the
    statement goes to the database."""
    sent = stop_at.startswith("sent:")
    statement_start, _, occurrence = stop_at.removeprefix("sent:").partition("#")
    remaining = int(occurrence or 1)

    def trace(statement: str) -> None:
        nonlocal remaining
        if statement.lstrip().upper().startswith(statement_start.upper()):
            remaining -= 1
            if remaining == 0 and sent:
                print("SENT", flush=True)
            elif remaining == 0:
                freeze()

    return trace


async def main(path: str, stop_at: str, tables: int, with_refused: bool) -> None:
    ledger = await Ledger.open(path, starting_balance=10_000 * tables)
    for user, name in ((ALICE, "alice"), (BOB, "bob")):
        await ledger.ensure_player(GUILD, user, name)
    table_ids = range(FIRST_TABLE, FIRST_TABLE + tables)
    for table_id in table_ids:
        for player, chips in START_STACKS.items():
            await ledger.buy_in(GUILD, table_id, player, chips)
    hand_ids = [await ledger.begin_hand(GUILD, t, 1, START_STACKS) for t in table_ids]
    state = {
        "hand_ids": hand_ids,
        "balances": {user: await ledger.balance(GUILD, user) for user in (ALICE, BOB)},
        "house": (await ledger.audit()).totals.house,
        "start": {str(player): chips for player, chips in START_STACKS.items()},
        "final": {str(player): chips for player, chips in FINAL_STACKS.items()},
    }
    print(json.dumps(state), flush=True)
    if stop_at == "in-hand":
        freeze()
    if stop_at == "never":
        await keep_playing(ledger, hand_ids[0])
    if stop_at.startswith("sent:"):  # the test holds a lock the settlements will wait for
        await asyncio.to_thread(sys.stdin.readline)
    if stop_at != "done":
        # The test reaches into the database: it is the only way to stop mid-transaction.
        await ledger._db.trace(freeze_before(stop_at))
    settlements = [
        ledger.settle_hand(hand_id, FINAL_STACKS, RESULTS, f"Hand #1 at table {table_id}")
        for hand_id, table_id in zip(hand_ids, table_ids, strict=True)
    ]
    if with_refused:
        settlements.insert(1, ledger.settle_hand(max(hand_ids) + 1, {}, [], "no such hand"))
    outcomes = await asyncio.gather(*settlements, return_exceptions=True)
    assert sum(isinstance(outcome, Exception) for outcome in outcomes) == with_refused, outcomes
    freeze()


async def keep_playing(ledger: Ledger, hand_id: int) -> None:
    """Settle hand after hand between the two people, until killed at an arbitrary moment."""
    stacks = dict(START_STACKS)
    for number in range(2, 1_000_000):
        winner, loser = (ALICE, BOB) if number % 2 else (BOB, ALICE)
        final = {**stacks, winner: stacks[winner] + 100, loser: stacks[loser] - 100}
        results = [
            HandParticipant(winner, "winner", 100, won=True, pot_won=200),
            HandParticipant(loser, "loser", -100),
            HandParticipant(BOT, BOT, 0),
        ]
        await ledger.settle_hand(hand_id, final, results, f"Hand #{number - 1}")
        if number == 2:
            print("PLAYING", flush=True)
        stacks = final
        hand_id = await ledger.begin_hand(GUILD, FIRST_TABLE, number, stacks)


if __name__ == "__main__":
    path, stop_at, *options = sys.argv[1:]
    try:
        asyncio.run(main(path, stop_at, int(options[0]) if options else 1, "refused" in options))
    except BaseException:
        # Exit at once: the ledger's open connection thread would otherwise keep the process
        # alive, and the test would wait forever for a marker that never comes.
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)

"""A process that plays one hand through the ledger and freezes at a chosen moment, so that
``test_ledger_crash.py`` can kill it there.

Usage: ``python ledger_crash_worker.py DB_PATH STOP_AT`` where STOP_AT is ``in-hand`` (after
the start-of-hand snapshot), ``done`` (after the settlement committed), the start of an SQL
statement of the settlement (e.g. ``INSERT INTO entries``, ``COMMIT``): the process freezes just
before SQLite runs it, inside the open transaction; or ``never``: it keeps playing hands.

It prints one JSON line with the start-of-hand state and the final stacks it settles with,
then ``FROZEN`` when it has reached the moment and waits to be killed (``PLAYING`` for
``never``).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from bot.ledger import HandParticipant, Ledger

GUILD, TABLE = 0, 7
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


def freeze_before(statement_start: str):
    """A trace callback that freezes the database thread before the first statement of the
    settlement that starts with ``statement_start``."""
    begun = False

    def trace(statement: str) -> None:
        nonlocal begun
        begun = begun or statement.startswith("BEGIN")
        if begun and statement.lstrip().upper().startswith(statement_start.upper()):
            freeze()

    return trace


async def main(path: str, stop_at: str) -> None:
    ledger = await Ledger.open(path)
    for user, name in ((ALICE, "alice"), (BOB, "bob")):
        await ledger.ensure_player(GUILD, user, name)
    for player, chips in START_STACKS.items():
        await ledger.buy_in(GUILD, TABLE, player, chips)
    hand_id = await ledger.begin_hand(GUILD, TABLE, 1, START_STACKS)
    state = {
        "hand_id": hand_id,
        "balances": {user: await ledger.balance(GUILD, user) for user in (ALICE, BOB)},
        "house": (await ledger.audit()).totals.house,
        "start": {str(player): chips for player, chips in START_STACKS.items()},
        "final": {str(player): chips for player, chips in FINAL_STACKS.items()},
    }
    print(json.dumps(state), flush=True)
    if stop_at == "in-hand":
        freeze()
    if stop_at == "never":
        await keep_playing(ledger, hand_id)
    if stop_at != "done":
        # The test reaches into the connection: it is the only way to stop mid-transaction.
        await ledger._db.set_trace_callback(freeze_before(stop_at))
    await ledger.settle_hand(hand_id, FINAL_STACKS, RESULTS, "Hand #1")
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
        hand_id = await ledger.begin_hand(GUILD, TABLE, number, stacks)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

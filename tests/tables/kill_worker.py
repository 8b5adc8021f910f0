"""A process that runs a cash table on a ledger until it is killed, for
``tests/test_table_random_kills.py``.

Usage: ``python kill_worker.py DATABASE play|finish`` (DATABASE: an SQLite path or a
postgresql:// URL). It starts a ``TableManager`` that opens the saved tables again; when the
channel has no table it seats Alice and Bob, who check or call at every turn. It prints one JSON
line with the names seated after the start, then ``PLAYING``, and plays until killed; with
``finish`` it closes the table for good instead (everyone cashed out) and prints ``CLOSED``.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys

from bot.ledger import Ledger
from bot.tables.manager import TableManager
from bot.tables.settings import TableSettings
from tests.tables.helpers import ALICE, BOB, CHANNEL, GUILD, passive
from tests.tables.recording_notifier import RecordingNotifier

SETTINGS = TableSettings.instant(next_hand_delay=0.02)
"""A few dozen hands a second, so that a kill lands anywhere in a hand or between two."""


async def main(location: str, mode: str) -> None:
    async with await Ledger.open(location) as ledger:
        notifier = RecordingNotifier(auto_actions={ALICE: passive, BOB: passive})
        manager = TableManager(ledger, notifier, rng=random.Random(),
                               default_settings=SETTINGS)
        notifier.manager = manager
        await manager.start(resume=True)
        if manager.state(CHANNEL) is None and mode == "play":
            await manager.join(GUILD, CHANNEL, ALICE, "Alice", 2_000)
            await manager.join(GUILD, CHANNEL, BOB, "Bob", 2_000)
        state = manager.state(CHANNEL)
        print(json.dumps(sorted(seat.name for seat in state.seats) if state else []),
              flush=True)
        if mode == "finish":
            await manager.shutdown()
            print("CLOSED", flush=True)
            return
        print("PLAYING", flush=True)
        await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

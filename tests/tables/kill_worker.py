"""A process that runs a cash table on a ledger until it is killed, for
``tests/test_table_random_kills.py``.

Usage: ``python kill_worker.py DATABASE MODE`` (DATABASE: an SQLite path or a postgresql://
URL). It starts a ``TableManager`` that opens the saved tables and tournaments again.

- ``play``: when the channel has no table it seats Alice and Bob, who check or call at every
  turn; it prints one JSON line with the names seated after the start, then ``PLAYING``, and
  plays until killed. ``finish``: it closes the table for good instead (everyone cashed out),
  prints the names and ``CLOSED``.
- ``tournament``: when the guild has no tournament it creates a sit-and-go of Alice, Bob and
  four bots and starts it; it prints the ids of the guild's running tournaments, then
  ``PLAYING``, and plays until killed. ``tournament-finish``: Alice and Bob go all in at every
  turn until the tournament ends; it prints the running ids, then the pool and the prizes paid
  as JSON, then ``FINISHED``.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections.abc import Callable

from bot.ledger import Ledger
from bot.tables.manager import TableManager
from bot.tables.settings import TableSettings
from bot.tables.tournament_status import TournamentPhase
from engine.blinds import LevelUnit
from tests.tables.helpers import ALICE, BOB, CHANNEL, GUILD, eventually, passive, shove
from tests.tables.recording_notifier import RecordingNotifier
from tests.tables.tournament_helpers import fast_settings

TOURNAMENT = fast_settings(bot_fill="easy", starting_stack=2_000, unit=LevelUnit.MINUTES)
"""Blinds that stay 10/20 while the kills land (levels of minutes), deep enough to last."""

SETTINGS = TableSettings.instant(next_hand_delay=0.02)
"""A few dozen hands a second, so that a kill lands anywhere in a hand or between two."""


async def main(location: str, mode: str) -> None:
    async with await Ledger.open(location) as ledger:
        notifier = RecordingNotifier(auto_actions={ALICE: passive, BOB: passive})
        manager = TableManager(ledger, notifier, rng=random.Random(),
                               default_settings=SETTINGS,
                               clock=fast_clock() if mode == "tournament-finish" else time.time)
        notifier.manager = manager
        await manager.start(resume=True)
        if mode.startswith("tournament"):
            await tournament(manager, notifier, ledger, mode)
            return
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


def fast_clock() -> Callable[[], float]:
    """A clock that runs ten minutes a second from now: the levels rise, and the tournament that
    the kills could not end ends."""
    start = time.time()
    return lambda: start + (time.time() - start) * 600.0


async def tournament(manager: TableManager, notifier: RecordingNotifier, ledger: Ledger,
                     mode: str) -> None:
    tournaments = manager.tournaments
    if mode == "tournament" and not await ledger.open_tournaments(GUILD) \
            and not await ledger.recent_tournaments(GUILD):
        created = await tournaments.create(GUILD, CHANNEL, ALICE, TOURNAMENT)
        for user, name in ((ALICE, "Alice"), (BOB, "Bob")):
            await tournaments.join(created, user, name)
        await tournaments.start(created, ALICE)
    running = [status.tournament_id for status in tournaments.tournaments(GUILD)
               if status.phase is TournamentPhase.RUNNING]
    print(json.dumps(running), flush=True)
    if mode == "tournament":
        print("PLAYING", flush=True)
        await asyncio.Event().wait()
    notifier.auto_actions.update({ALICE: shove, BOB: shove})
    await eventually(lambda: bool(notifier.tournament_results), timeout=120)
    [results] = notifier.tournament_results
    print(json.dumps({"pool": results.pool,
                      "prizes": sum(place.prize for place in results.places)}), flush=True)
    print("FINISHED", flush=True)
    await manager.shutdown()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

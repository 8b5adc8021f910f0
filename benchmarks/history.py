"""What a long hand log costs the commands that read it: builds a ledger of many settled hands
through the ledger's own ``begin_hand``/``settle_hand`` (replays included, so habits are
counted as the bot counts them), then times the ledger work of start-up (open + ``recover``),
``/stats`` (record, tournaments, habits, chart points, server averages), ``/leaderboard``
(every order, both scopes), ``/history`` and ``/replay`` (the latest hand found and read), each
alone, as the median of ``--repeat`` runs, and the backfill of every hand's habits.

    python -m benchmarks.history [--hands 10000] [--guilds 20] [--repeat 5] [--json]
                                 [--database PATH|postgresql://…] [--busy TABLES]

With ``--busy``, bots-only tables then play on the same ledger in the same process, as a busy
bot's do, in a window alone and in a window beside the commands run back to back: their hands
a second and the p99 wait of their ledger calls in each (``beside_busy_tables``). On SQLite it
also measures the disk a hand takes, kept and pruned (``disk_figures``).

Building is the slow part: each hand is fourteen writes (six buy-ins, the hand begun and
settled, six cash-outs), 250 to 700 hands a second on SQLite (2-core machine shared with other
work), so the default 10,000 hands take 15-40 s and ``--hands 1000000`` the issue's million
25-70 minutes.
The hands are six-handed (four people of their table's six and two bots), played by the
random strategy: 15 actions a hand on average.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks.tables import SimulatedPeople
from bot.ledger import HABIT_FIGURES, HandParticipant, LeaderboardOrder, Ledger
from bot.tables.manager import TableManager
from bot.tables.settings import TableSettings
from engine.cards import Deck
from engine.hand import Hand
from engine.hand_record import RecordedHand
from engine.history import format_hand_history
from engine.strategies import make_strategy

PEOPLE_PER_GUILD = 60
SEATS, PEOPLE_SEATED = 6, 4
TABLES_PER_GUILD = 10
STACK = 1_000
ORDERS: tuple[LeaderboardOrder, ...] = ("balance", "net", "hands_won", "tournaments",
                                        "won_at_showdown", "aggression")


def played_hand(rng: random.Random, button: int) -> Hand:
    """A finished six-handed hand of the random strategy, everyone starting with ``STACK``."""
    strategy = make_strategy("random")
    hand = Hand([STACK] * SEATS, button=button, small_blind=5, big_blind=10,
                deck=Deck(random.Random(rng.random())))
    while (seat := hand.to_act) is not None:
        hand.act(seat, strategy.decide(hand.view(seat), rng))
    return hand


async def play_table(ledger: Ledger, guild: int, table: int, pool: list[int], hands: int,
                     rng: random.Random) -> None:
    """``hands`` hands at one table of ``guild``, each with four people of the table's
    ``pool`` and two bots, every stack bought in afresh and cashed out after; a person short of
    a stack is granted chips."""
    for number in range(1, hands + 1):
        players: list[int | str] = [*rng.sample(pool, PEOPLE_SEATED),
                                    f"Bot {table}a", f"Bot {table}b"]
        for player in players:
            if isinstance(player, int) and await ledger.balance(guild, player) < STACK:
                await ledger.grant(guild, player, STACK)
            await ledger.buy_in(guild, table, player, STACK)
        hand = played_hand(rng, number % SEATS)
        result = hand.result
        assert result is not None
        hand_id = await ledger.begin_hand(guild, table, number, dict.fromkeys(players, STACK))
        history = format_hand_history(hand, hand_id=hand_id, table_name=f"#{table}",
                                      player_names=[str(player) for player in players],
                                      started_at=datetime.now(UTC))
        await ledger.settle_hand(
            hand_id, dict(zip(players, result.final_stacks, strict=True)),
            [HandParticipant(player, str(player), net, won=net > 0,
                             pot_won=max(net, 0) + STACK * (net > 0))
             for player, net in zip(players, result.net, strict=True)],
            history, RecordedHand.from_hand(hand).to_json())
        for player in players:
            await ledger.cash_out(guild, table, player)


async def build(ledger: Ledger, hands: int, guilds: int) -> None:
    """The people of every guild, then ``hands`` hands over ``guilds`` guilds,
    ``TABLES_PER_GUILD`` tables each playing at once (the ledger groups their writes as it
    does a busy bot's)."""
    for guild in range(1, guilds + 1):
        for person in range(1, PEOPLE_PER_GUILD + 1):
            await ledger.ensure_player(guild, guild * 1_000 + person, f"person {person}")
    tables = [(guild, guild * 100 + k) for guild in range(1, guilds + 1)
              for k in range(TABLES_PER_GUILD)]
    each, extra = divmod(hands, len(tables))
    pool = PEOPLE_PER_GUILD // TABLES_PER_GUILD
    await asyncio.gather(*(
        play_table(ledger, guild, table,
                   [guild * 1_000 + table % 100 * pool + k for k in range(1, pool + 1)],
                   each + (k < extra), random.Random(table))
        for k, (guild, table) in enumerate(tables)))


async def timed(call: Callable[[], Awaitable[object]], repeat: int) -> float:
    """The median wall time of ``call``, in milliseconds."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1e3)
    return statistics.median(times)


async def measure(location: str | Path, hands: int, guilds: int, repeat: int) -> dict[str, float]:
    figures: dict[str, float] = {}
    started = time.perf_counter()
    async with await Ledger.open(location) as ledger:
        await build(ledger, hands, guilds)
    figures["build_s"] = time.perf_counter() - started

    async def start_up() -> None:
        async with await Ledger.open(location) as opened:
            await opened.recover()

    figures["start_up_ms"] = await timed(start_up, repeat)
    guild, person = 1, 1_001
    async with await Ledger.open(location) as ledger:
        async def stats() -> None:
            await ledger.stats(guild, person)
            await ledger.tournament_stats(guild, person)
            await ledger.habits(guild)
            await ledger.results_over_time(guild, person)
            await ledger.server_averages(guild)

        async def history() -> None:
            (latest,) = await ledger.recent_hands(guild, person, limit=1)
            record = await ledger.hand_history(latest.hand_id)
            assert record is not None and record.replay is not None
            RecordedHand.from_json(record.replay)

        figures["stats_ms"] = await timed(stats, repeat)
        for order in ORDERS:
            for scope, where in (("server", guild), ("global", None)):
                figures[f"leaderboard_{order}_{scope}_ms"] = await timed(
                    partial(ledger.leaderboard, where, by=order), repeat)
        figures["history_and_replay_ms"] = await timed(history, repeat)
        counted = (await ledger.habits(guild))[person]
        assert counted.hands > 0 and any(counted.figure(name) is not None
                                         for name in HABIT_FIGURES)
    return figures


BUSY_GUILD = 999_999
"""The guild of the busy tables (not one of the history's)."""
TABLE_CALLS = frozenset({"begin_hand", "settle_hand", "buy_in", "cash_out", "save_table_state"})
"""The ledger calls of a table's hand path, whose waits ``beside_busy_tables`` times."""


class TimedLedger:
    """The ledger as the busy tables use it, timing each of their hand path's calls."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.waits: list[float] = []

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self.ledger, name)
        if name not in TABLE_CALLS:
            return attribute

        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await attribute(*args, **kwargs)
            finally:
                self.waits.append(time.perf_counter() - started)

        return timed


async def every_command(ledger: Ledger, guild: int, person: int) -> None:
    """What /stats, every /leaderboard (both scopes), /history and /replay read, once."""
    await ledger.stats(guild, person)
    await ledger.tournament_stats(guild, person)
    await ledger.habits(guild)
    await ledger.results_over_time(guild, person)
    await ledger.server_averages(guild)
    for order in ORDERS:
        for where in (guild, None):
            await ledger.leaderboard(where, by=order)
    (latest,) = await ledger.recent_hands(guild, person, limit=1)
    record = await ledger.hand_history(latest.hand_id)
    assert record is not None and record.replay is not None
    RecordedHand.from_json(record.replay)


async def beside_busy_tables(location: str | Path, tables: int,
                             seconds: float) -> dict[str, float]:
    """Bots-only tables play on the history's ledger in this process, as a busy bot's do: their
    hands a second and the p99 wait of their ledger calls, in a window alone and then in a
    window beside the commands run back to back (a person reading /stats, /leaderboard,
    /history and /replay without pause)."""
    async with await Ledger.open(location) as ledger:
        timed = TimedLedger(ledger)
        people = SimulatedPeople(random.Random(1))
        manager = TableManager(timed, people, rng=random.Random(2),
                               default_settings=TableSettings.instant())
        people.manager = manager
        await manager.start(resume=True)
        channels = [10**7 + k for k in range(tables)]
        for channel in channels:
            await manager.add_bots(BUSY_GUILD, channel, "easy", count=4)
        playing = [asyncio.create_task(manager.run_hands(channel, 10**9)) for channel in channels]
        figures: dict[str, float] = {}
        try:
            await asyncio.sleep(1.0)  # the tables get going (not measured)
            for window in ("alone", "beside"):
                reading = asyncio.create_task(_read_without_pause(ledger)) \
                    if window == "beside" else None
                people.reset_counts()
                timed.waits.clear()
                await asyncio.sleep(seconds)
                hands = sum(people.hands_by_table.values())
                if reading is not None:
                    reading.cancel()
                    await asyncio.gather(reading, return_exceptions=True)
                figures[f"busy_hands_per_s_{window}"] = hands / seconds
                waits = sorted(timed.waits)
                figures[f"busy_ledger_wait_p99_ms_{window}"] = \
                    waits[int(0.99 * (len(waits) - 1))] * 1e3 if waits else 0.0
        finally:
            for task in playing:
                task.cancel()
            await asyncio.gather(*playing, return_exceptions=True)
            await manager.shutdown()
    figures["busy_hands_ratio"] = (figures["busy_hands_per_s_beside"]
                                   / max(figures["busy_hands_per_s_alone"], 1e-9))
    return figures


async def _read_without_pause(ledger: Ledger) -> None:
    while True:
        await every_command(ledger, 1, 1_001)


HAND_LOG = ("hands", "hand_players", "hand_stacks")
"""The tables that grow by a hand's rows; with their indexes and the hand's result entries
they are what a hand takes on disk (this benchmark's buy-ins and cash-outs around every hand
are left out: a table's players buy in once, not every hand)."""


def hand_log_bytes(path: Path) -> float:
    """Bytes per settled hand of an SQLite ledger's hand log (``HAND_LOG``, their indexes, and
    the entries of hand results, by the entries' average size), from SQLite's ``dbstat``."""
    with sqlite3.connect(path) as db:
        sizes: dict[str, int] = dict(db.execute(
            "SELECT s.name, SUM(s.pgsize) FROM dbstat s JOIN sqlite_schema m ON m.name = s.name"
            " GROUP BY s.name, m.tbl_name HAVING m.tbl_name IN (?, ?, ?, 'entries')",
            HAND_LOG).fetchall())
        hands: int = db.execute("SELECT COUNT(*) FROM hands WHERE status = 'settled'").fetchone()[0]
        row: tuple[int, int | None] = db.execute(
            "SELECT COUNT(*), SUM(reason = 'hand result') FROM entries").fetchone()
        entries, results = row[0], row[1] or 0
        tables = {name: size for name, size in sizes.items() if name != "entries"
                  and not name.startswith(("entries", "sqlite_autoindex_entries"))}
        entry_bytes = sum(size for name, size in sizes.items()
                          if name not in tables) / max(entries, 1)
    return (sum(tables.values()) + entry_bytes * results) / max(hands, 1)


async def disk_figures(path: Path) -> dict[str, float]:
    """What a hand takes in SQLite, then after ``prune_hands`` of every hand and VACUUM (on a
    copy of the file)."""
    figures = {"hand_bytes": hand_log_bytes(path)}
    pruned = path.with_name("pruned-" + path.name)
    shutil.copyfile(path, pruned)

    async with await Ledger.open(pruned) as ledger:
        await ledger.prune_hands(time.time() + 1)
    with sqlite3.connect(pruned) as db:
        db.execute("VACUUM")
    figures["pruned_hand_bytes"] = hand_log_bytes(pruned)
    pruned.unlink()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--guilds", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database", default=None,
                        help="an SQLite path or a postgresql:// URL of an empty database "
                             "(default: a temporary SQLite file)")
    parser.add_argument("--busy", type=int, default=0, metavar="TABLES",
                        help="also time TABLES bots-only tables on the same ledger, alone and "
                             "beside the commands run back to back")
    parser.add_argument("--busy-seconds", type=float, default=10.0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        location = args.database or Path(directory) / "history.sqlite3"
        figures = asyncio.run(measure(location, args.hands, args.guilds, args.repeat))
        if isinstance(location, Path) or not str(location).startswith("postgres"):
            figures.update(asyncio.run(disk_figures(Path(location))))
        if args.busy:
            figures.update(asyncio.run(beside_busy_tables(location, args.busy,
                                                          args.busy_seconds)))
    if args.json:
        print(json.dumps({"hands": args.hands, "guilds": args.guilds, **figures}))
        return
    print(f"{args.hands:,} hands over {args.guilds} guilds, built in {figures['build_s']:.1f} s"
          f" ({args.hands / figures['build_s']:,.0f} hands/s)")
    for name, value in figures.items():
        if name.endswith("_ms"):
            print(f"{name.removesuffix('_ms')}: {value:.2f} ms")
    if "busy_hands_ratio" in figures:
        print(f"{args.busy} busy tables: {figures['busy_hands_per_s_alone']:,.0f} hands/s alone,"
              f" {figures['busy_hands_per_s_beside']:,.0f} beside the commands "
              f"({figures['busy_hands_ratio']:.2f}x); their ledger calls' p99 wait "
              f"{figures['busy_ledger_wait_p99_ms_alone']:.1f} ms alone, "
              f"{figures['busy_ledger_wait_p99_ms_beside']:.1f} ms beside")
    if "hand_bytes" in figures:
        print(f"disk: {figures['hand_bytes']:,.0f} bytes a hand, "
              f"{figures['pruned_hand_bytes']:,.0f} once pruned (prune-hands, then VACUUM)")


if __name__ == "__main__":
    main()

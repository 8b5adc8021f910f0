"""Multi-table tournaments, crashes, and the simulation of many tournaments at zero delay."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from bot.ledger import Ledger
from bot.tables.tournament_status import TournamentPhase, TournamentStatus
from engine.blinds import PRESETS
from tests.tables.helpers import passive
from tests.tables.tournament_helpers import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    LEDGERS,
    Harness,
    fast_settings,
    tournament_harness,
)


def table_sizes(status: TournamentStatus) -> dict[int, int]:
    sizes = dict.fromkeys(status.table_channel_ids, 0)
    for entrant in status.entrants:
        if entrant.place is None and entrant.table_channel_id in sizes:
            sizes[entrant.table_channel_id] += 1
    return sizes


async def run_multi_table(h: Harness, entrants: int, seats: int, channel: int = CHANNEL,
                          **changes: object) -> int:
    tournaments = h.manager.tournaments
    tid = await tournaments.create(GUILD, channel, ALICE, fast_settings(
        seats=seats, max_entrants=entrants, bot_fill="easy", **changes))
    await tournaments.start(tid, ALICE)
    return tid


@pytest.mark.parametrize("kind", LEDGERS)
async def test_multi_table_balancing_keeps_tables_within_one_player_and_breaks_to_a_final_table(
        tmp_path: Path, kind: str) -> None:
    async with tournament_harness(tmp_path, kind) as h:
        tid = await run_multi_table(h, 23, 6)
        first = h.manager.tournaments.status(tid)
        assert sorted(table_sizes(first).values()) == [5, 6, 6, 6]  # ceil(23 / 6) tables
        assert len(h.notifier.opened_tables) == 3  # the first table plays in the channel
        results = await h.finished(tid)
        statuses = [s for s in h.notifier.tournament_statuses
                    if s.tournament_id == tid and s.phase is TournamentPhase.RUNNING]
        tables_seen = [len(s.table_channel_ids) for s in statuses]
        assert tables_seen == sorted(tables_seen, reverse=True)  # tables only ever close
        assert tables_seen[-1] == 1  # the final table
        # Moves wait for a table's hand to end, so right after a bust a table may be short
        # for a moment; once balanced (a status after moves), tables are within one player.
        balanced = [table_sizes(s) for s in statuses
                    if max(table_sizes(s).values()) - min(table_sizes(s).values()) <= 1]
        assert len(balanced) >= len(statuses) * 3 // 4
        for status in statuses:
            sizes = table_sizes(status).values()
            assert max(sizes) <= 6
            assert len(status.table_channel_ids) <= -(-status.players_left // 6) + 1
        assert h.notifier.moves and any(move.table_broken for move in h.notifier.moves)
        for move in h.notifier.moves:
            assert move.stack > 0
        assert sorted(p.place[0] for p in results.places if p.place[0] == p.place[1]) \
            == sorted(set(p.place[0] for p in results.places if p.place[0] == p.place[1]))
        assert sum(p.prize for p in results.places) == results.pool == 23 * 100
        await asyncio.sleep(0)
        for channel in first.table_channel_ids:
            assert h.manager.state(channel) is None
        assert await h.audit_ok()


@pytest.mark.parametrize("kind", LEDGERS)
async def test_crash_mid_tournament_refunds_every_buy_in_and_audit_holds(
        tmp_path: Path, kind: str) -> None:
    async with tournament_harness(tmp_path, kind) as h:
        tournaments = h.manager.tournaments
        h.notifier.auto_actions[ALICE] = passive
        h.notifier.auto_actions[BOB] = passive
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(
            seats=4, max_entrants=10, bot_fill="easy", starting_stack=4000))
        await tournaments.join(tid, ALICE, "Alice")
        await tournaments.join(tid, BOB, "Bob")
        granted = await h.balance(ALICE) + 100
        await tournaments.start(tid, ALICE)
        while tournaments.status(tid).hands_played < 3:
            await asyncio.sleep(0.001)
        # The crash: the process stops without finishing, cancelling or refunding anything.
        await h.manager.abandon()
        assert await h.balance(ALICE) == granted - 100
        if h.real:
            await h.ledger.close()
            h.ledger = h.tournament_ledger = await Ledger.open(tmp_path / "ledger.sqlite3")
            report = await h.ledger.recover()
            refunded = getattr(report, "tournaments_refunded", None)
            assert refunded is None or tid in refunded
        else:
            assert await h.tournament_ledger.recover() == (tid,)
        assert await h.balance(ALICE) == granted
        assert await h.balance(BOB) == granted
        assert await h.audit_ok()
        if h.real:
            await h.ledger.close()


async def check_finished(h: Harness, tid: int, entrants: int, buy_in: int) -> None:
    results = await h.finished(tid, timeout=120)
    assert len(results.places) == entrants
    # Places are a permutation of 1..n (ties share a range (best, worst) covering theirs).
    covered = sorted(place for p in results.places for place in [p.place[0]])
    slots: list[int] = []
    for p in results.places:
        best, worst = p.place
        assert 1 <= best <= worst <= entrants
    groups = {p.place for p in results.places}
    for best, worst in groups:
        count = sum(1 for p in results.places if p.place == (best, worst))
        assert count == worst - best + 1
        slots.extend(range(best, worst + 1))
    assert sorted(slots) == list(range(1, entrants + 1)), covered
    assert sum(p.prize for p in results.places) == results.pool == entrants * buy_in


@pytest.mark.slow
async def test_simulation_of_many_sit_and_gos_and_multi_table_tournaments(
        tmp_path: Path) -> None:
    """200 random sit-and-gos (2-9 easy bots, random presets, levels by hands) and 20
    multi-table tournaments of 20-40 bots, at zero delay, several at once: every one
    finishes, places are a permutation, prizes sum to the pool, the audit holds."""
    rng = random.Random(2024)
    started = time.perf_counter()
    async with tournament_harness(tmp_path) as h:
        tournaments = h.manager.tournaments
        channel = 10_000
        batch: list[tuple[int, int, int]] = []

        async def drain() -> None:
            for tid, entrants, buy_in in batch:
                await check_finished(h, tid, entrants, buy_in)
            batch.clear()

        for number in range(200):
            seats = rng.randint(2, 9)
            structure = rng.choice(PRESETS)
            buy_in = rng.choice((0, 1, 7, 33, 100))
            stack = {"turbo": 2000, "regular": 4000, "deep": 8000}[structure]
            channel += 1
            tid = await tournaments.create(GUILD, channel, ALICE, fast_settings(
                seats=seats, structure=structure, buy_in=buy_in, bot_fill="easy",
                starting_stack=stack))
            await tournaments.start(tid, ALICE)
            batch.append((tid, seats, buy_in))
            if len(batch) >= 20 or number == 199:
                await drain()
        sit_and_gos = time.perf_counter() - started
        for _ in range(20):
            entrants = rng.randint(20, 40)
            seats = rng.randint(6, 9)
            channel += 1
            tid = await run_multi_table(h, entrants, seats, channel=channel,
                                        starting_stack=2000)
            batch.append((tid, entrants, 100))
            if len(batch) >= 5:
                await drain()
        await drain()
        assert await h.audit_ok()
    elapsed = time.perf_counter() - started
    print(f"\nsimulation: 200 sit-and-gos in {sit_and_gos:.1f} s, "
          f"all with 20 multi-table tournaments in {elapsed:.1f} s")

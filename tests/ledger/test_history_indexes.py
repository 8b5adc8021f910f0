"""Start-up and the /stats chart read through indexes, whatever the length of the hand log:
``recover`` finds the running hands through the partial index ``hands_running``, and
``results_over_time`` reads a person's latest hands through ``hand_players_by_person`` and
stops at its limit instead of sorting all of them. Checked on each backend's plan of the
statement the ledger runs (PostgreSQL's with sequential scans priced out, so that a plan
without one shows that an index can serve)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

from bot.ledger import Ledger
from tests.ledger.test_results_over_time import ALICE, BOB, GUILD, TABLE, play, seat


async def statement_of(ledger: Ledger, call: object, starts: str) -> str:
    seen: list[str] = []
    await ledger._db.trace(seen.append)
    try:
        await call  # type: ignore[misc]
    finally:
        await ledger._db.trace(None)
    (found,) = [text for text in seen if text.lstrip().startswith(starts)]
    return found


async def plan(location: str | Path, sql: str, *args: object) -> list[str]:
    """The plan's lines: SQLite's ``EXPLAIN QUERY PLAN`` (each with the plan of the subquery
    it is part of, ``CO-ROUTINE …: …``), or PostgreSQL's ``EXPLAIN``."""
    if isinstance(location, Path):
        with sqlite3.connect(location) as db:
            found = db.execute("EXPLAIN QUERY PLAN " + sql).fetchall()
        details = {node: detail for node, _, _, detail in found}
        return [f"{details[parent]}: {detail}" if parent in details else detail
                for _, parent, _, detail in found]
    connection = await asyncpg.connect(location)
    try:
        await connection.execute("SET enable_seqscan = off")
        await connection.execute(f"PREPARE wanted AS {sql}")
        values = ", ".join(str(arg) for arg in args)
        rows = await connection.fetch(f"EXPLAIN EXECUTE wanted{f'({values})' if args else ''}")
        return [row[0] for row in rows]
    finally:
        await connection.close()


async def test_start_up_finds_the_running_hands_through_their_partial_index(
        ledger: Ledger, ledger_location: str | Path) -> None:
    await seat(ledger, GUILD, TABLE, ALICE, BOB)
    await play(ledger, ALICE, BOB, 10, 1)
    await ledger.begin_hand(GUILD, TABLE, 2, await ledger.table_stacks(TABLE))
    sql = await statement_of(ledger, ledger.recover([TABLE]), "SELECT id FROM hands")
    lines = await plan(ledger_location, sql)
    assert any("hands_running" in line for line in lines), lines
    assert not any((line.startswith("SCAN hands") and "INDEX" not in line)
                   or "Seq Scan on hands" in line for line in lines), lines


async def test_the_stats_chart_reads_only_the_latest_hands_through_an_index(
        ledger: Ledger, ledger_location: str | Path) -> None:
    await seat(ledger, GUILD, TABLE, ALICE, BOB)
    for number in range(1, 4):
        await play(ledger, ALICE, BOB, 10, number)
    sql = await statement_of(ledger, ledger.results_over_time(GUILD, ALICE, limit=2),
                             "SELECT * FROM (")
    lines = await plan(ledger_location, sql, ALICE, GUILD, 2)
    assert any("hand_players_by_person" in line for line in lines), lines
    if isinstance(ledger_location, Path):  # the latest hands come in order, unsorted
        inner = [line for line in lines if line.startswith(("CO-ROUTINE", "MATERIALIZE"))]
        assert inner and not any("TEMP B-TREE" in line for line in inner), lines
    else:
        limit = next(k for k, line in enumerate(lines)
                     if line.strip().removeprefix("->").strip().startswith("Limit"))
        assert not any("Sort" in line or "Seq Scan" in line for line in lines[limit:]), lines

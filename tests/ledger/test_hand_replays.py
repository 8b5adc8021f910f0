"""The ledger keeps a settled hand's replay, and migrations apply across a gap in numbers."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from bot.ledger import MIGRATIONS_DIR, HandParticipant, Ledger

GUILD, TABLE, ALICE, BOB = 1, 100, 11, 12


async def settle_one(ledger: Ledger, replay: str | None) -> int:
    for user in (ALICE, BOB):
        await ledger.ensure_player(GUILD, user, str(user))
        await ledger.buy_in(GUILD, TABLE, user, 500)
    hand_id = await ledger.begin_hand(GUILD, TABLE, 1, {ALICE: 500, BOB: 500})
    await ledger.settle_hand(
        hand_id, {ALICE: 510, BOB: 490},
        [HandParticipant(ALICE, "a", 10, won=True), HandParticipant(BOB, "b", -10)],
        "Hand ...", replay)
    return hand_id


async def test_a_settled_hand_keeps_its_replay(ledger: Ledger) -> None:
    hand_id = await settle_one(ledger, '{"stacks":[500,500]}')
    record = await ledger.hand_history(hand_id)
    assert record is not None and record.replay == '{"stacks":[500,500]}'
    assert (record.seat_of(BOB), record.seat_of(99)) == (1, None)


async def test_a_hand_settled_before_replays_were_recorded_has_none(tmp_path: Path) -> None:
    """A database of the release before replays: its hands read back with ``replay=None``."""
    old = tmp_path / "old"
    old.mkdir()
    for name in ("001_initial.sql", "002_one_running_hand_per_table.sql",
                 "003_table_messages.sql"):
        (old / name).write_bytes((MIGRATIONS_DIR / name).read_bytes())
    path = tmp_path / "ledger.sqlite3"
    async with await Ledger.open(path, migrations_dir=old) as ledger:
        for user in (ALICE, BOB):
            await ledger.ensure_player(GUILD, user, str(user))
            await ledger.buy_in(GUILD, TABLE, user, 500)
        hand_id = await ledger.begin_hand(GUILD, TABLE, 1, {ALICE: 500, BOB: 500})
        with sqlite3.connect(path) as db:  # settled as the old release did: no replay column
            db.execute("UPDATE hands SET status = 'settled', finished_at = 1 WHERE id = ?",
                       (hand_id,))
    async with await Ledger.open(path) as ledger:
        record = await ledger.hand_history(hand_id)
        assert record is not None and record.replay is None
        assert (await ledger.audit()).ok


async def test_a_migration_numbered_below_the_highest_applied_is_still_applied(
    tmp_path: Path,
) -> None:
    """Migrations written side by side (004 on one branch, 005 on another) may reach a
    database in either order: each applies once, none is skipped for its number."""
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    shutil.copy(Path(str(MIGRATIONS_DIR / "001_initial.sql")), migrations)
    (migrations / "003_later.sql").write_text("CREATE TABLE later (id INTEGER);")
    path = tmp_path / "ledger.sqlite3"
    async with await Ledger.open(path, migrations_dir=migrations):
        pass
    (migrations / "002_earlier.sql").write_text("CREATE TABLE earlier (id INTEGER);")
    for _ in range(2):
        async with await Ledger.open(path, migrations_dir=migrations):
            pass
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM schema_version ORDER BY applied_at, version"
                          ).fetchall() == [(1,), (3,), (2,)]
        assert db.execute("SELECT COUNT(*) FROM earlier").fetchone() == (0,)

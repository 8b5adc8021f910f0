"""The runtime counts each hand's habits as it plays it (``HabitCounter``), so settling
replays nothing: the counts it stores are those a replay of the stored record gives."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.ledger.habits import COLUMNS, count_hand
from tests.tables.helpers import CHANNEL, GUILD, running_manager


async def test_the_counts_stored_at_settlement_are_those_of_the_hands_replay(
        tmp_path: Path) -> None:
    async with running_manager(tmp_path, seed=39) as (manager, _, _):
        await manager.add_bots(GUILD, CHANNEL, "random", count=3)
        await manager.add_bots(GUILD, CHANNEL, "hard", count=2)
        await manager.run_hands(CHANNEL, 30)
    with sqlite3.connect(tmp_path / "ledger.sqlite3") as db:
        replays = dict(db.execute("SELECT id, replay FROM hands WHERE status = 'settled'"))
        stored: dict[int, list[tuple[int, ...]]] = {}
        for hand_id, *counts in db.execute(
                f"SELECT hand_id, {', '.join(COLUMNS)} FROM hand_players ORDER BY rowid"):
            stored.setdefault(hand_id, []).append(tuple(counts))
    assert len(replays) == 30
    chances = 0
    for hand_id, replay in replays.items():
        replayed = [habits.as_row() for habits in count_hand(hand_id, replay, 5)]
        assert stored[hand_id] == replayed, hand_id
        chances += sum(row[0] + row[4] for row in replayed)  # 3-bet and c-bet chances
    assert chances > 0

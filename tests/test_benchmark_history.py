"""``benchmarks.history`` at a small size: every figure is measured, a pruned hand takes less
disk than a kept one, and busy tables play beside the commands."""

from __future__ import annotations

from pathlib import Path

from benchmarks.history import ORDERS, beside_busy_tables, disk_figures, measure


async def test_the_history_benchmark_measures_every_command_and_the_disk(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    figures = await measure(path, hands=60, guilds=2, repeat=1)
    expected = {"build_s", "start_up_ms", "stats_ms", "history_and_replay_ms",
                *(f"leaderboard_{order}_{scope}_ms" for order in ORDERS
                  for scope in ("server", "global"))}
    assert set(figures) == expected
    assert all(value > 0 for value in figures.values())
    disk = await disk_figures(path)
    assert 0 < disk["pruned_hand_bytes"] < disk["hand_bytes"]
    busy = await beside_busy_tables(path, tables=3, seconds=0.5)
    assert set(busy) == {"busy_hands_per_s_alone", "busy_hands_per_s_beside", "busy_hands_ratio",
                         "busy_ledger_wait_p99_ms_alone", "busy_ledger_wait_p99_ms_beside"}
    assert busy["busy_hands_per_s_alone"] > 0 and busy["busy_hands_per_s_beside"] > 0

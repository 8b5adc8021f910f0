"""``benchmarks.history`` at a small size: every figure is measured, and a pruned hand takes
less disk than a kept one."""

from __future__ import annotations

from pathlib import Path

from benchmarks.history import ORDERS, disk_figures, measure


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

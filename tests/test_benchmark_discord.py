"""The whole-bot benchmark, run small: a real bot process plays a few tables against the fake
Discord and every figure comes back, with sane values."""

from __future__ import annotations

import json

import pytest

from benchmarks.discord import REQUIRED_KEYS, main


@pytest.mark.slow
def test_a_few_tables_play_against_the_real_bot_process_and_are_measured(capsys) -> None:
    # --min-hands and --min-actions wait for a finished hand and an answered click (a busy
    # machine may take long; a short window may see a hand end by the bot's action alone).
    figures = main(["--tables", "4", "--seconds", "1", "--min-hands", "1", "--min-actions", "1",
                    "--json"])
    printed = json.loads(capsys.readouterr().out)
    assert set(REQUIRED_KEYS) <= set(printed)
    assert printed == json.loads(figures.to_json())
    assert printed["hands"] >= 1 and printed["hands_per_s"] > 0
    assert printed["bot_cpu_ms_per_hand"] > 0
    assert printed["bot_cpu_ms_per_hand_by_part"]["event loop"] > 0
    assert printed["fake_cpu_ms_per_hand"] > 0
    assert printed["requests_per_hand"]["interaction_response"] > 0
    assert printed["upload_kb_per_hand"] > printed["upload_file_kb_per_hand"] > 0
    assert printed["actions_measured"] > 0 and printed["action_ms_p99"] > 0
    assert 0 <= printed["deferred_share"] <= 1
    assert printed["loop_lag_ms_max"] >= printed["loop_lag_ms_p99"] >= printed["loop_lag_ms_p50"]
    assert printed["bot_errors"] == {}

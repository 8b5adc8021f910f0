"""The spectators benchmark, run small: the real bot process serves its live tables to a few
spectators while it plays, and every figure comes back with sane values."""

from __future__ import annotations

import json

import pytest

from benchmarks.web import REQUIRED_KEYS, main


@pytest.mark.slow
def test_a_few_spectators_watch_the_real_bot_process_and_are_measured(capsys) -> None:
    figures = main(["--tables", "3", "--spectators", "12", "--seconds", "3", "--rounds", "1",
                    "--min-hands", "1", "--json"])
    printed = json.loads(capsys.readouterr().out)
    assert set(REQUIRED_KEYS) <= set(printed)
    assert printed == json.loads(figures.to_json())  # type: ignore[union-attr]
    assert printed["hands_without"] >= 1 and printed["hands_with"] >= 1
    assert printed["bot_cpu_ms_per_hand_without"] > 0 and printed["bot_cpu_ms_per_hand_with"] > 0
    assert printed["events_received"] > 0 and printed["stream_errors"] == 0
    assert printed["latency_ms_max"] >= printed["latency_ms_p99"] >= printed["latency_ms_p50"] > 0

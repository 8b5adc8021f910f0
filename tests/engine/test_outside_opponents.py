"""The outside opponents in ``benchmarks.opponents`` play legal poker in the arena, by name."""

from __future__ import annotations

import pytest

from engine.arena import ArenaConfig, run_arena

OPPONENTS = ("EquilibriumPushFold", "EquilibriumPushFoldWide", "TightAggressive", "Maniac",
             "CallingStation")


@pytest.mark.parametrize("opponent", OPPONENTS)
@pytest.mark.parametrize("stack", [10, 100])
def test_an_outside_opponent_plays_a_short_match_by_module_and_class(opponent, stack):
    config = ArenaConfig(strategies=("medium", f"benchmarks.opponents:{opponent}"), hands=60,
                         seed=2, stack_big_blinds=stack)
    result = run_arena(config)  # raises StrategyError on an illegal action
    assert result.hands == 60
    assert result.players[0].bb_per_100 == pytest.approx(-result.players[1].bb_per_100)

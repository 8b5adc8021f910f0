"""The solved opening ranges the expert plays first in: their shapes, and that they regenerate."""

from __future__ import annotations

import numpy as np
import pytest

from engine.strategies.open_ranges import DEPTHS, load_open_ranges, open_range, solve_open
from engine.strategies.solve import MAX_BEHIND, classes, load_equity, range_share


def test_heads_up_at_100_bb_the_raiser_opens_about_three_hands_in_four():
    assert range_share(open_range(100, 1)) == pytest.approx(0.73, abs=0.02)


def test_ranges_narrow_with_more_players_behind():
    for depth in DEPTHS:
        shares = [range_share(open_range(depth, behind)) for behind in range(1, MAX_BEHIND + 1)]
        assert shares == sorted(shares, reverse=True)


def test_the_best_hands_always_open_and_the_worst_never_from_early_position():
    labels = [hand.label for hand in classes()]
    for depth in DEPTHS:
        for behind in range(1, MAX_BEHIND + 1):
            assert open_range(depth, behind)[labels.index("AA")] == 1.0
        assert open_range(depth, MAX_BEHIND)[labels.index("72o")] == 0.0


@pytest.mark.slow
@pytest.mark.parametrize(("depth", "behind"), [(20, 1), (40, 2), (100, 5)])
def test_regenerating_a_spot_reproduces_the_shipped_range(depth, behind):
    equity, pairs = load_equity()
    fresh = solve_open(equity, pairs, depth, behind, iterations=400)
    shipped = load_open_ranges()["open"][behind - 1, DEPTHS.index(depth)]
    assert range_share(fresh) == pytest.approx(range_share(shipped), abs=0.015)
    assert np.abs(fresh - shipped).mean() < 0.03

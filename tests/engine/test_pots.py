"""Building pots from contributions and splitting them between tied winners."""

import pytest

from engine.pots import Pot, build_pots, split_pot


def test_no_all_in_means_one_pot_for_everyone_still_in():
    assert build_pots([30, 30, 10], [False, False, True], [False] * 3) == [Pot(70, (0, 1))]


def test_each_all_in_amount_caps_a_layer():
    pots = build_pots([100, 200, 300, 300], [False] * 4, [True, True, True, False])
    assert pots == [Pot(400, (0, 1, 2, 3)), Pot(300, (1, 2, 3)), Pot(200, (2, 3))]


def test_equal_all_ins_make_one_layer():
    assert build_pots([100, 100, 100], [False] * 3, [True, True, False]) == [
        Pot(300, (0, 1, 2))
    ]


def test_folded_chips_above_an_all_in_go_to_the_side_pot():
    pots = build_pots([50, 120, 200, 200], [False, True, False, False], [True, False, False, False])
    assert pots == [Pot(200, (0, 2, 3)), Pot(370, (2, 3))]


def test_split_gives_odd_chips_one_at_a_time_from_left_of_the_button():
    assert split_pot(11, [0, 1, 2], button=0, num_seats=3) == [3, 4, 4]
    assert split_pot(10, [3, 5], button=4, num_seats=6) == [5, 5]
    assert split_pot(7, [0, 5], button=4, num_seats=6) == [3, 4]


def test_split_refuses_nonsense():
    with pytest.raises(ValueError, match="at least one winner"):
        split_pot(10, [], button=0, num_seats=2)
    with pytest.raises(ValueError, match="one entry per seat"):
        build_pots([1, 2], [False], [False, False])

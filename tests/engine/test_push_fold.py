"""The push/fold solver and its shipped charts: published figures, and that they regenerate."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cards import parse_cards
from engine.equity import equity
from engine.strategies import push_fold
from engine.strategies.preflop import hand_class
from engine.strategies.solve import (
    MAX_BEHIND,
    STACKS,
    class_indices,
    classes,
    equity_matrix,
    load_charts,
    load_equity,
    range_share,
    solve_first_in,
)


def label(text: str):
    return next(hand for hand in classes() if hand.label == text)


def test_the_heads_up_chart_at_10_bb_matches_the_published_equilibrium():
    # HoldemResources' heads-up push/fold Nash chart: SB shoves 57.7 %, BB calls 37.4 %.
    assert range_share(push_fold.shove_range(10, 1)) == pytest.approx(0.577, abs=0.01)
    assert range_share(push_fold.call_range(10, 1)) == pytest.approx(0.374, abs=0.01)


def test_a_published_threshold_hand_falls_on_the_same_side():
    # HoldemResources' chart: the big blind calls with Q2o up to 5.6 bb.
    assert push_fold.call_frequency(label("Q2o"), 5.5, 1) == 1.0
    assert push_fold.call_frequency(label("Q2o"), 6.5, 1) == 0.0


def test_ranges_narrow_as_stacks_deepen_and_as_players_behind_grow():
    for behind in range(1, MAX_BEHIND + 1):
        shares = [range_share(push_fold.shove_range(stack, behind)) for stack in (3, 8, 15, 25)]
        assert shares == sorted(shares, reverse=True)
    by_seat = [range_share(push_fold.shove_range(10, behind)) for behind in (1, 2, 3, 4, 5)]
    assert by_seat == sorted(by_seat, reverse=True)


def test_premium_hands_always_shove_and_call():
    for stack in STACKS:
        for behind in range(1, MAX_BEHIND + 1):
            assert push_fold.shove_frequency(label("AA"), stack, behind) == 1.0
            assert push_fold.call_frequency(label("AKs"), stack, behind) == 1.0


def test_the_shipped_equity_matrix_is_symmetric_and_matches_exact_equities():
    equity_table, pairs = load_equity()
    assert np.allclose(equity_table + equity_table.T, 1.0, atol=1e-6)
    assert pairs[class_indices()[label("AA")], class_indices()[label("KK")]] == 36
    assert pairs[class_indices()[label("AA")], class_indices()[label("AKs")]] == 6 * 4 - 12
    for first, second in (("AA", "KK"), ("AKo", "QQ"), ("72o", "32o")):
        exact = equity([parse_cards(_example(first, 0)), parse_cards(_example(second, 1))])[0]
        estimate = equity_table[class_indices()[label(first)], class_indices()[label(second)]]
        assert estimate == pytest.approx(exact, abs=0.015)  # suits vary within a class


def _example(text: str, offset: int) -> str:
    """Two cards of the class, with suits that avoid the other example's."""
    suits = "cdhs"
    first, second = text[0], text[1]
    if first == second:
        return f"{first}{suits[2 * offset]} {second}{suits[2 * offset + 1]}"
    second_suit = suits[2 * offset] if text.endswith("s") else suits[2 * offset + 1]
    return f"{first}{suits[2 * offset]} {second}{second_suit}"


@pytest.mark.slow
def test_regenerating_the_equity_matrix_agrees_within_sampling_error():
    # 200 boards instead of 10,000: each class's equity against a random hand then has a
    # standard error near 0.015 (measured: mean gap 0.013, largest 0.055).
    fresh, fresh_pairs = equity_matrix(boards=200, seed=5)
    shipped, pairs = load_equity()
    assert np.array_equal(fresh_pairs, pairs)
    vs_random = (shipped * pairs).sum(axis=1) / pairs.sum(axis=1)
    gaps = np.abs(vs_random - (fresh * pairs).sum(axis=1) / pairs.sum(axis=1))
    assert gaps.mean() < 0.025
    assert gaps.max() < 0.09


@pytest.mark.slow
@pytest.mark.parametrize(("stack", "behind"), [(4.0, 1), (10.0, 1), (20.0, 1), (10.0, 3),
                                                (15.0, 5)])
def test_regenerating_the_charts_reproduces_the_shipped_file(stack, behind):
    equity_table, pairs = load_equity()
    shove, calls = solve_first_in(equity_table, pairs, stack, behind, iterations=1500)
    shipped = load_charts()
    column = STACKS.index(stack)
    assert range_share(shove) == pytest.approx(
        range_share(shipped["shove"][behind - 1, column]), abs=0.01)
    for caller, call in enumerate(calls):
        assert range_share(call) == pytest.approx(
            range_share(shipped["call"][behind - 1, caller, column]), abs=0.01)
    # Hand by hand, only hands at the margin (played sometimes) may differ much.
    assert np.abs(shove - shipped["shove"][behind - 1, column]).mean() < 0.02


def test_equity_against_a_range_counts_card_removal():
    aces = hand_class(parse_cards("As Ad"))
    only_aces = np.zeros(len(classes()))
    only_aces[class_indices()[aces]] = 1.0
    assert push_fold.equity_against(aces, only_aces) == pytest.approx(0.5, abs=0.02)
    with pytest.raises(ValueError, match="no hand"):
        push_fold.equity_against(aces, np.zeros(len(classes())))


def test_a_call_pays_when_equity_against_the_range_beats_the_price():
    queens = hand_class(parse_cards("Qh Qs"))
    trash = hand_class(parse_cards("7c 2d"))
    wide = push_fold.shove_range(10, 1)
    assert push_fold.calls_all_in(queens, wide, call_amount=18, pot_after_call=40)
    assert not push_fold.calls_all_in(trash, wide, call_amount=18, pot_after_call=40)
    # Getting 10:1, even seven-deuce calls.
    assert push_fold.calls_all_in(trash, wide, call_amount=2, pot_after_call=22)

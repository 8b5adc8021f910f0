"""Pot equity: exact enumeration, Monte Carlo, and equity against random hands and ranges."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations
from math import comb, sqrt

import numpy as np
import pytest

from engine.cards import parse_card, parse_cards
from engine.equity import (
    _mean_share,
    card_combinations,
    draw_cards,
    equity,
    equity_vs_random,
    equity_vs_ranges,
)
from engine.evaluator import evaluate

AK_SUITED_VS_QUEENS = (787_966 + 6_732 / 2) / 1_712_304


def brute_force_equity(holes, board):
    """Reference: every remaining board, ranked one hand at a time."""
    used = {*board, *(card for hole in holes for card in hole)}
    deck = [card for card in range(52) if card not in used]
    totals = [0.0] * len(holes)
    runouts = list(combinations(deck, 5 - len(board)))
    for runout in runouts:
        ranks = [evaluate([*hole, *board, *runout]) for hole in holes]
        winners = [seat for seat, rank in enumerate(ranks) if rank == min(ranks)]
        for seat in winners:
            totals[seat] += 1 / len(winners)
    return [total / len(runouts) for total in totals]


def test_preflop_heads_up_equity_is_exact_over_all_1712304_boards():
    hero, villain = equity([parse_cards("AhKh"), parse_cards("QsQd")])
    assert hero == pytest.approx(AK_SUITED_VS_QUEENS, abs=1e-12)
    assert hero + villain == pytest.approx(1.0)


@pytest.mark.parametrize(("holes", "board"), [
    (["AsAd", "KsKd"], "2c 7h Kh"),
    (["AhKh", "QsQd", "7c8c"], "2h 9c Td 5h"),
    (["Ah2h", "AdKc"], "Kh 8h 3c 4d"),
])
def test_exact_equity_matches_a_brute_force_count(holes, board):
    holes = [parse_cards(hole) for hole in holes]
    board = parse_cards(board)
    assert equity(holes, board) == pytest.approx(brute_force_equity(holes, board), abs=1e-12)


def test_a_split_pot_gives_each_player_an_equal_share():
    board = parse_cards("Ac Kd Qh Js Tc")
    assert equity([parse_cards("2c 3d"), parse_cards("4h 5s")], board) == [0.5, 0.5]


def test_three_way_tie_shares_the_pot_in_thirds():
    holes = [parse_cards(hole) for hole in ("2c3c", "2d3d", "2h3h")]
    shares = equity(holes, parse_cards("As Ks Qs Js Ts"))
    assert shares == pytest.approx([1 / 3] * 3)


def test_dead_cards_are_not_dealt():
    # With every remaining heart dead, the flush draw cannot come in.
    hero, board = parse_cards("Ah Kh"), parse_cards("2h 7h Jc 3d")
    dead = [card for card in range(52) if card & 3 == 2 and card not in (*hero, *board)]
    shares = equity([hero, parse_cards("Qs Qd")], board, dead)
    assert shares == pytest.approx(brute_force_equity_without(dead, [hero, parse_cards("QsQd")],
                                                              board))


def brute_force_equity_without(dead, holes, board):
    used = {*board, *dead, *(card for hole in holes for card in hole)}
    deck = [card for card in range(52) if card not in used]
    wins = [0.0, 0.0]
    for river in deck:
        ranks = [evaluate([*hole, *board, river]) for hole in holes]
        for seat in range(2):
            wins[seat] += (ranks[seat] == min(ranks)) / ranks.count(min(ranks))
    return [win / len(deck) for win in wins]


def test_monte_carlo_is_within_three_standard_errors_of_the_exact_value():
    samples = 200_000
    hero, _ = equity([parse_cards("AhKh"), parse_cards("QsQd")], samples=samples,
                     rng=random.Random(7))
    standard_error = sqrt(AK_SUITED_VS_QUEENS * (1 - AK_SUITED_VS_QUEENS) / samples)
    assert abs(hero - AK_SUITED_VS_QUEENS) < 3 * standard_error
    assert hero != AK_SUITED_VS_QUEENS


def test_monte_carlo_is_reproducible_with_an_injected_rng():
    holes = [parse_cards("AhKh"), parse_cards("QsQd"), parse_cards("7c8c")]
    first = equity(holes, samples=5_000, rng=random.Random(3))
    assert first == equity(holes, samples=5_000, rng=random.Random(3))
    assert first != equity(holes, samples=5_000, rng=random.Random(4))


def test_a_time_budget_stops_sampling():
    shares = equity([parse_cards("AhKh"), parse_cards("QsQd")], time_budget=0.01,
                    rng=random.Random(1))
    assert sum(shares) == pytest.approx(1.0)
    assert 0.4 < shares[0] < 0.52


def test_asking_for_more_samples_than_boards_enumerates_exactly():
    holes = [parse_cards("AsAd"), parse_cards("KsKd")]
    board = parse_cards("2c 7h Kh Ac")
    assert equity(holes, board, samples=1_000, rng=random.Random(1)) == equity(holes, board)


@pytest.mark.parametrize(("holes", "board", "dead"), [
    ([], "", ""),
    (["AhKh", "AhQd"], "", ""),
    (["AhKh", "QsQd"], "Ah 2c 3d", ""),
    (["AhKh", "QsQd"], "2c 3d", ""),
    (["AhKhQh", "QsQd"], "", ""),
    (["AhKh", "QsQd"], "", "Kh"),
])
def test_equity_rejects_impossible_deals(holes, board, dead):
    with pytest.raises(ValueError):
        equity([parse_cards(hole) for hole in holes], parse_cards(board), parse_cards(dead))


@pytest.mark.parametrize("samples", [0, -10])
def test_equity_rejects_a_sample_count_below_one(samples):
    with pytest.raises(ValueError):
        equity([parse_cards("AhKh"), parse_cards("QsQd")], samples=samples)


def test_equity_vs_one_random_hand_matches_exact_enumeration_on_the_river():
    hole, board = parse_cards("Th 9h"), parse_cards("2c 7d Jh Qs 4h")
    deck = [card for card in range(52) if card not in (*hole, *board)]
    exact = np.mean([
        equity([hole, list(villain)], board)[0] for villain in combinations(deck, 2)
    ])
    estimate = equity_vs_random(hole, board, samples=40_000, rng=random.Random(5))
    assert abs(estimate - exact) < 3 * sqrt(exact * (1 - exact) / 40_000)


def test_pocket_aces_win_less_often_against_more_opponents():
    aces = parse_cards("As Ah")
    shares = [equity_vs_random(aces, opponents=count, samples=20_000, rng=random.Random(count))
              for count in (1, 3, 6)]
    assert shares[0] == pytest.approx(0.852, abs=0.01)
    assert shares[0] > shares[1] > shares[2]


def test_equity_vs_random_respects_dead_cards():
    # All four kings dead: the opponent can never make a pair of kings with the board's king.
    hole, board = parse_cards("Qc Qd"), parse_cards("Kh 7s 2d 3c 9h")
    dead = parse_cards("Ks Kd Kc")
    with_dead = equity_vs_random(hole, board, samples=20_000, rng=random.Random(2), dead=dead)
    without = equity_vs_random(hole, board, samples=20_000, rng=random.Random(2))
    assert with_dead > without


def test_equity_vs_random_rejects_too_many_opponents():
    with pytest.raises(ValueError):
        equity_vs_random(parse_cards("As Ah"), opponents=23)


def test_equity_vs_a_single_combo_range_equals_exact_heads_up_equity():
    hole, board = parse_cards("Ah Kh"), parse_cards("2h 7h Jc")
    villain = (parse_card("Qs"), parse_card("Qd"))
    estimate = equity_vs_ranges(hole, board, [[villain]], samples=20_000, rng=random.Random(9))
    exact = equity([hole, list(villain)], board)[0]
    assert abs(estimate - exact) < 3 * sqrt(exact * (1 - exact) / 20_000)


def test_range_weights_shift_the_equity_toward_the_likelier_hands():
    hole, board = parse_cards("Ts Td"), parse_cards("2c 7d 9h 4s 3c")
    aces, fives = (parse_card("Ac"), parse_card("Ad")), (parse_card("5c"), parse_card("5d"))
    mostly_aces = equity_vs_ranges(hole, board, [[aces, fives]], weights=[[3.0, 1.0]],
                                   samples=20_000, rng=random.Random(1))
    assert mostly_aces == pytest.approx(0.25, abs=0.02)


def test_range_combos_that_use_known_cards_are_never_dealt():
    hole, board = parse_cards("As Ah"), parse_cards("Kc 7d 2h 9s 4c")
    blocked = (parse_card("Kc"), parse_card("Kd"))  # shares the board's Kc
    losing = (parse_card("7c"), parse_card("7h"))
    assert equity_vs_ranges(hole, board, [[blocked, losing]], samples=2_000) == 0.0


def test_opponents_in_ranges_never_share_a_card():
    hole, board = parse_cards("2c 3d"), parse_cards("Ac Kd Qh 8s 7c")
    first = [(parse_card("As"), parse_card("Ad"))]
    second = [(parse_card("As"), parse_card("Ks")), (parse_card("Jh"), parse_card("Th"))]
    # The second opponent must hold the straight, so the first one never wins the pot.
    assert equity_vs_ranges(hole, board, [first, second], samples=2_000) == 0.0


@pytest.mark.parametrize(("ranges", "weights"), [
    ([], None),
    ([[(parse_card("As"), parse_card("Kd"))]], None),  # uses the hero's ace
    ([[(parse_card("Qs"), parse_card("Qd"))]], [[1.0, 2.0]]),
    ([[(parse_card("Qs"), parse_card("Qd"))]], [[-1.0]]),
    ([[(parse_card("Qs"), parse_card("Qd"))], [(parse_card("Qs"), parse_card("Qd"))]], None),
])
def test_equity_vs_ranges_rejects_ranges_that_cannot_be_dealt(ranges, weights):
    with pytest.raises(ValueError):
        equity_vs_ranges(parse_cards("As Ah"), (), ranges, weights=weights, samples=100)


def test_card_combinations_lists_every_subset_once():
    rows = card_combinations(range(10), 4)
    assert rows.tolist() == [list(subset) for subset in combinations(range(10), 4)]
    assert len(card_combinations(range(48), 5)) == comb(48, 5)


@pytest.mark.parametrize("count", [3, 20])
def test_draw_cards_draws_distinct_cards_from_the_deck_uniformly(count):
    deck = list(range(10, 40))
    drawn = draw_cards(deck, count, 30_000, np.random.default_rng(1))
    assert all(len(set(row)) == count for row in drawn.tolist())
    frequencies = np.bincount(drawn[:, 0], minlength=52)[10:40] / len(drawn)
    assert np.allclose(frequencies, 1 / 30, atol=0.004)
    assert set(np.unique(drawn)) <= set(deck)


def test_equity_vs_ranges_takes_arrays_of_pairs_and_weights():
    hole, board = parse_cards("Ts Td"), parse_cards("2c 7d 9h 4s 3c")
    pairs = np.array([parse_cards("Ac Ad"), parse_cards("5c 5d")])
    from_arrays = equity_vs_ranges(hole, board, [pairs], weights=[np.array([3.0, 1.0])],
                                   samples=20_000, rng=random.Random(1))
    assert from_arrays == pytest.approx(0.25, abs=0.02)


def test_equity_vs_ranges_is_reproducible_with_a_seeded_rng():
    hole, board = parse_cards("Ah Kd"), parse_cards("Kc 7h 2s")
    pairs = card_combinations([card for card in range(52) if card not in {*hole, *board}], 2)
    estimates = {equity_vs_ranges(hole, board, [pairs, pairs], samples=500, rng=random.Random(3),
                                  thresholds=[0.5]) for _ in range(2)}
    assert len(estimates) == 1


def test_clear_decisions_stop_sampling_early_on_the_right_side():
    hole, board = parse_cards("As Ah"), parse_cards("Ad 7c 2h")
    pairs = card_combinations([card for card in range(52) if card not in {*hole, *board}], 2)
    rng = random.Random(4)
    stopped = [equity_vs_ranges(hole, board, [pairs], samples=10_000, rng=rng,
                                thresholds=[0.3]) for _ in range(20)]
    full = equity_vs_ranges(hole, board, [pairs], samples=10_000, rng=random.Random(4))
    assert all(estimate > 0.3 for estimate in stopped)
    # A stopped run averages at most 64 + 128 samples: its estimate moves in coarse steps.
    assert all(round(estimate * 192) == estimate * 192 for estimate in stopped)
    assert full > 0.9


def counting_deal(share_of: Callable[[int], float]) -> tuple[list[int], Callable]:
    """A deal that hands out fixed shares (``share_of(i)`` for the i-th sample), counting them."""
    dealt: list[int] = []

    def deal(size: int) -> np.ndarray:
        start = sum(dealt)
        dealt.append(size)
        return np.array([share_of(start + index) for index in range(size)], dtype=float)

    return dealt, deal


def test_sampling_stops_once_the_estimate_is_clear_of_every_threshold():
    dealt, deal = counting_deal(lambda index: 1.0)
    assert _mean_share(deal, 10_000, [0.5]) == 1.0
    assert dealt == [64]
    dealt, deal = counting_deal(lambda index: 1.0)
    _mean_share(deal, 10_000, [0.5, 0.99])  # 0.99 is close: it takes a few more looks
    assert dealt == [64, 128, 256]


def test_sampling_uses_every_sample_when_the_estimate_sits_on_a_threshold():
    dealt, deal = counting_deal(lambda index: float(index % 2))
    assert _mean_share(deal, 1000, [0.5]) == 0.5
    assert sum(dealt) == 1000


@pytest.mark.parametrize(("pairs", "weights", "message"), [
    ([(parse_card("Qs"), parse_card("Qs"))], None, "same card twice"),
    ([(parse_card("Qs"), 52)], None, "between 0 and 51"),
    ([(parse_card("Qs"), parse_card("Qd"), parse_card("Qc"))], None, "two-card pairs"),
    ([(parse_card("Qs"), parse_card("Qd"))], [[float("nan")]], "finite"),
])
def test_bad_ranges_are_refused_with_the_reason(pairs, weights, message):
    with pytest.raises(ValueError, match=message):
        equity_vs_ranges(parse_cards("As Ah"), (), [pairs], weights=weights, samples=100)


def test_equity_against_one_range_on_the_river_weighs_every_pair_exactly():
    hole, board = parse_cards("Ts Td"), parse_cards("2c 7d 9h 4s 3c")
    pairs = [parse_cards(cards) for cards in ("Ac Ad", "5c 5d", "Tc Th", "6h 5h")]
    # Aces win, fives lose, tens tie, 6-5 makes a straight: 1 * 0 + 2 * 1 + 1 * 0.5 + 4 * 0
    estimate = equity_vs_ranges(hole, board, [pairs], weights=[[1.0, 2.0, 1.0, 4.0]],
                                samples=1)
    assert estimate == pytest.approx(2.5 / 8)

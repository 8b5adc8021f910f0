"""Hand ranks, categories and names, checked exhaustively and against phevaluator."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from phevaluator import evaluate_cards as reference_rank

from engine.cards import cards_str, parse_cards
from engine.equity import card_combinations
from engine.evaluator import (
    HandCategory,
    category,
    describe,
    evaluate,
    evaluate_batch,
    hand_name,
)


@pytest.fixture(scope="module")
def every_five_card_ranks() -> np.ndarray:
    return evaluate_batch(card_combinations(range(52), 5))


def random_hands(count: int, size: int, seed: int) -> np.ndarray:
    keys = np.random.default_rng(seed).random((count, 52))
    return np.argpartition(keys, size, axis=1)[:, :size].astype(np.uint8)


def test_every_five_card_hand_falls_in_the_known_category_counts(every_five_card_ranks):
    categories = np.searchsorted([10, 166, 322, 1599, 1609, 2467, 3325, 6185, 7462],
                                 every_five_card_ranks)
    counts = np.bincount(categories, minlength=9).tolist()
    assert len(every_five_card_ranks) == 2_598_960
    assert counts == [40, 624, 3744, 5108, 10200, 54912, 123552, 1098240, 1302540]


def test_five_card_hands_take_exactly_7462_distinct_ranks(every_five_card_ranks):
    assert np.array_equal(np.unique(every_five_card_ranks), np.arange(1, 7463))


@pytest.mark.parametrize(("hand", "rank"), [
    ("Ah Kh Qh Jh Th", 1),
    ("5s 4s 3s 2s As", 10),
    ("As Ad Ac Ah Kd", 11),
    ("2s 2d 2c 2h 3d", 166),
    ("As Ad Ac Kh Kd", 167),
    ("Ac Kc Qc Jc 9c", 323),
    ("7d 5d 4d 3d 2d", 1599),
    ("Ac Kd Qh Js Tc", 1600),
    ("5c 4d 3h 2s Ac", 1609),
    ("As Ad Kc Kh Qd", 2468),
    ("7c 5d 4h 3s 2c", 7462),
])
def test_seed_landmarks_keep_cactus_kev_numbers(hand, rank):
    assert evaluate(parse_cards(hand)) == rank


def test_the_wheel_is_the_lowest_straight():
    wheel = evaluate(parse_cards("Ac 2d 3h 4s 5c"))
    six_high = evaluate(parse_cards("2d 3h 4s 5c 6d"))
    assert category(wheel) is HandCategory.STRAIGHT
    assert wheel > six_high


def test_an_ace_does_not_wrap_around_into_a_straight():
    assert category(evaluate(parse_cards("Qc Kd Ah 2s 3c"))) is HandCategory.HIGH_CARD


def test_seven_cards_play_their_best_five():
    # A flush on board beats the pair in hand; the sixth and seventh cards never count.
    assert evaluate(parse_cards("2c 2d Ah 9h 6h 4h Kh")) == evaluate(parse_cards("Ah Kh 9h 6h 4h"))


@pytest.mark.parametrize("size", [6, 7])
def test_batches_match_phevaluator_on_random_hands(size):
    hands = random_hands(100_000, size, seed=size)
    expected = [reference_rank(*hand) for hand in hands.tolist()]
    assert evaluate_batch(hands).tolist() == expected


@pytest.mark.parametrize("size", [5, 6, 7])
def test_single_evaluate_matches_the_batch(size):
    hands = random_hands(5_000, size, seed=10 + size)
    assert [evaluate(hand) for hand in hands.tolist()] == evaluate_batch(hands).tolist()


@given(st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True))
def test_card_order_does_not_change_the_rank(cards):
    assert evaluate(cards) == evaluate(cards[::-1]) == evaluate(sorted(cards))


@pytest.mark.parametrize("cards", [[0, 1, 2, 3], [0, 1, 2, 3, 4, 5, 6, 7], [0, 0, 1, 2, 3],
                                   [0, 1, 2, 3, 52], [-1, 1, 2, 3, 4]])
def test_evaluate_rejects_wrong_counts_repeats_and_unknown_cards(cards):
    with pytest.raises(ValueError):
        evaluate(cards)


def test_evaluate_batch_names_the_row_with_a_repeated_card():
    hands = np.array([[0, 1, 2, 3, 4], [5, 6, 7, 8, 5]])
    with pytest.raises(ValueError, match="hand 1 repeats a card"):
        evaluate_batch(hands)


@pytest.mark.parametrize("hands", [np.zeros((3, 4), int), np.zeros(5, int),
                                   np.full((2, 5), 1.5), np.array([[0, 1, 2, 3, 60]])])
def test_evaluate_batch_rejects_bad_shapes_types_and_ids(hands):
    with pytest.raises(ValueError):
        evaluate_batch(hands)


@pytest.mark.parametrize(("rank", "expected"), [
    (1, HandCategory.STRAIGHT_FLUSH), (10, HandCategory.STRAIGHT_FLUSH),
    (11, HandCategory.FOUR_OF_A_KIND), (322, HandCategory.FULL_HOUSE),
    (323, HandCategory.FLUSH), (1609, HandCategory.STRAIGHT),
    (1610, HandCategory.THREE_OF_A_KIND), (3325, HandCategory.TWO_PAIR),
    (3326, HandCategory.ONE_PAIR), (6186, HandCategory.HIGH_CARD),
])
def test_category_boundaries_follow_the_seed_order(rank, expected):
    assert category(rank) is expected


@pytest.mark.parametrize("rank", [0, 7463, -5])
def test_category_rejects_ranks_outside_1_to_7462(rank):
    with pytest.raises(ValueError):
        category(rank)


@pytest.mark.parametrize(("cards", "name", "best_five"), [
    ("Ah Kh Qh Jh Th 2c 3d", "Royal Flush", "Ah Kh Qh Jh Th"),
    ("9d 8d 7d 6d 5d Ad", "Straight Flush, Nine high", "9d 8d 7d 6d 5d"),
    ("2h 3h 4h 5h Ah", "Straight Flush, Five high", "5h 4h 3h 2h Ah"),
    ("As Ad Ac Ah Kd 2c", "Four of a Kind, Aces", "As Ad Ac Ah Kd"),
    ("Kd 2c Ks 2h Kc 9d 8s", "Full House, Kings full of Twos", "Kd Ks Kc 2c 2h"),
    ("Ac Kc Qc Jc 9c 8d", "Flush, Ace high", "Ac Kc Qc Jc 9c"),
    ("5c 4d 3h 2s Ac 9d", "Straight, Five high", "5c 4d 3h 2s Ac"),
    ("7h 7d 7s Kc 2d", "Three of a Kind, Sevens", "7h 7d 7s Kc 2d"),
    ("Js Jd 3c 3h 9s 2d Ac", "Two Pair, Jacks and Threes", "Js Jd 3c 3h Ac"),
    ("9c Kd 4h 9d 2s", "Pair of Nines", "9c 9d Kd 4h 2s"),
    ("Kc 3c 9s 7h Qd", "High Card, King", "Kc Qd 9s 7h 3c"),
])
def test_describe_names_hands_the_way_players_say_them(cards, name, best_five):
    hand = describe(parse_cards(cards))
    assert (hand.name, cards_str(hand.best_five)) == (name, best_five)
    assert hand.rank == evaluate(parse_cards(cards))
    assert hand.category is category(hand.rank)
    assert str(hand) == name


@given(st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True))
def test_describe_picks_five_of_the_cards_that_make_the_rank(cards):
    hand = describe(cards)
    assert set(hand.best_five) <= set(cards)
    assert evaluate(hand.best_five) == hand.rank


def test_every_rank_has_one_name_and_equal_ranks_share_it():
    names = [hand_name(rank) for rank in range(1, 7463)]
    assert names[0] == "Royal Flush" and names[-1] == "High Card, Seven"
    assert len(set(names)) < len(names)  # kickers do not change a hand's name


@pytest.mark.parametrize("rank", [0, 7463, -1])
def test_a_rank_outside_1_to_7462_has_no_name(rank):
    with pytest.raises(ValueError, match="1 to 7462"):
        hand_name(rank)

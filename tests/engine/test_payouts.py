"""Payout tables, exact prize amounts, and places from the order players bust."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.payouts import (
    PayoutError,
    Standings,
    check_payouts,
    preset_payouts,
    prize_amounts,
)


@st.composite
def valid_percents(draw: st.DrawFn) -> tuple[int, ...]:
    """Any non-increasing positive percentages that add up to 100."""
    places = draw(st.integers(1, 30))
    cuts = sorted(draw(st.sets(st.integers(1, 99), min_size=places - 1, max_size=places - 1)))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, 100], strict=True)]
    return tuple(sorted(parts, reverse=True))


@pytest.mark.parametrize("entrants", range(2, 61))
def test_payout_presets_sum_to_100_and_pay_no_more_places_than_entrants(entrants):
    percents = preset_payouts(entrants)
    assert sum(percents) == 100
    assert len(percents) <= entrants
    assert all(p > 0 for p in percents)
    assert all(a >= b for a, b in itertools.pairwise(percents))
    assert check_payouts(percents, entrants) == percents
    if entrants >= 19:  # big enough fields pay about 15 to 20 %, at most a third
        assert 0.15 <= len(percents) / entrants <= 1 / 3


def test_payout_presets_grow_with_the_field():
    places = [len(preset_payouts(n)) for n in range(2, 61)]
    assert places == sorted(places)
    assert preset_payouts(4) == (100,)
    assert preset_payouts(5) == (65, 35)
    assert preset_payouts(9) == (50, 30, 20)
    assert preset_payouts(1000) == preset_payouts(60)


@pytest.mark.parametrize("entrants", [1, 0, -3])
def test_payout_presets_refuse_fields_under_two(entrants):
    with pytest.raises(PayoutError, match="at least 2 entrants"):
        preset_payouts(entrants)


@pytest.mark.parametrize(
    ("percents", "entrants", "message"),
    [
        ([60, 30], 5, "add up to 100, not 90"),
        ([60, 50], 5, "add up to 100, not 110"),
        ([], 5, "At least one place"),
        ([100, 0], 5, "Place 2 must get a whole percentage above 0"),
        ([110, -10], 5, "Place 2 must get a whole percentage above 0"),
        ([50.5, 49.5], 5, "Place 1 must get a whole percentage"),
        ([30, 70], 5, "Place 2 cannot get more"),
        ([40, 30, 20, 10], 3, "4 places are paid but only 3 players entered"),
    ],
)
def test_check_payouts_refuses_bad_percentages(percents, entrants, message):
    with pytest.raises(PayoutError, match=message):
        check_payouts(percents, entrants)


def test_check_payouts_accepts_equal_places():
    assert check_payouts([50, 50], 2) == (50, 50)


@given(st.integers(0, 10**15), valid_percents())
def test_prize_amounts_sum_exactly_with_odd_chips_to_the_top(pool, percents):
    prizes = prize_amounts(pool, percents)
    assert sum(prizes) == pool
    floors = [pool * p // 100 for p in percents]
    extra = [prize - floor for prize, floor in zip(prizes, floors, strict=True)]
    assert all(e in (0, 1) for e in extra)
    assert extra == sorted(extra, reverse=True)  # odd chips to the best places first
    assert all(a >= b for a, b in itertools.pairwise(prizes))


def test_prize_amounts_examples():
    assert prize_amounts(1000, (50, 30, 20)) == (500, 300, 200)
    assert prize_amounts(999, (50, 30, 20)) == (500, 300, 199)
    assert prize_amounts(0, (65, 35)) == (0, 0)
    with pytest.raises(PayoutError, match="prize pool"):
        prize_amounts(-1, (100,))
    with pytest.raises(PayoutError, match="add up to 100"):
        prize_amounts(100, (50, 20))


def test_one_bust_takes_the_worst_open_place():
    standings = Standings(["a", "b", "c", "d"])
    standings.bust([("c", 500)])
    assert standings.places == {"c": (4, 4)}
    assert standings.remaining == ("a", "b", "d")
    assert not standings.is_finished


def test_two_busts_on_the_same_hand_are_placed_by_starting_chips():
    standings = Standings(["a", "b", "c", "d", "e"])
    standings.bust([("a", 200), ("d", 900)])
    assert standings.places == {"a": (5, 5), "d": (4, 4)}


def test_three_busts_on_the_same_hand_are_placed_by_starting_chips():
    standings = Standings(["a", "b", "c", "d", "e", "f"])
    standings.bust([("f", 40)])
    standings.bust([("b", 300), ("e", 100), ("c", 700)])
    assert standings.places == {"b": (4, 4), "c": (3, 3), "e": (5, 5), "f": (6, 6)}
    assert standings.remaining == ("a", "d")
    standings.bust([("d", 2000)])
    assert standings.is_finished
    assert standings.winner == "a"
    assert standings.places["a"] == (1, 1)


def test_equal_starting_chips_tie_and_share_places():
    standings = Standings(["a", "b", "c", "d", "e"])
    standings.bust([("b", 100), ("d", 300), ("e", 100)])
    assert standings.places == {"b": (4, 5), "d": (3, 3), "e": (4, 5)}


def test_equal_starting_chips_split_the_prizes_with_odd_chips_in_seat_order():
    standings = Standings(["a", "b", "c", "d"])
    standings.bust([("d", 100), ("b", 100), ("c", 100)])  # listed out of seat order
    assert standings.places["b"] == standings.places["c"] == standings.places["d"] == (2, 4)
    payouts = standings.payouts([50, 30, 20, 1])  # 51 chips over three players
    assert payouts == {"a": 50, "b": 17, "c": 17, "d": 17}
    payouts = standings.payouts([50, 30, 22])  # 52 chips: one odd chip to b, the first seat
    assert payouts == {"a": 50, "b": 18, "c": 17, "d": 17}
    payouts = standings.payouts([50, 31, 22])  # 53: b and c
    assert payouts == {"a": 50, "b": 18, "c": 18, "d": 17}


def test_payouts_give_zero_to_players_out_of_the_money_and_sum_to_the_prizes():
    standings = Standings(range(6))
    for player in (5, 0, 3, 1, 2):
        standings.bust([(player, 10)])
    prizes = prize_amounts(600, preset_payouts(6))
    payouts = standings.payouts(prizes)
    assert payouts == {4: 390, 2: 210, 1: 0, 3: 0, 0: 0, 5: 0}
    assert sum(payouts.values()) == sum(prizes)


def test_payouts_can_be_read_before_the_end_for_players_already_out():
    standings = Standings(["a", "b", "c", "d"])
    standings.bust([("a", 10)])
    assert standings.payouts([60, 30, 10]) == {"a": 0}
    standings.bust([("b", 10)])
    assert standings.payouts([60, 30, 10]) == {"b": 10, "a": 0}


def test_bust_refuses_unknown_repeated_and_already_busted_players():
    standings = Standings(["a", "b", "c", "d"])
    standings.bust([("a", 10)])
    with pytest.raises(ValueError, match="already out"):
        standings.bust([("a", 10)])
    with pytest.raises(ValueError, match="not in this event"):
        standings.bust([("z", 10)])
    with pytest.raises(ValueError, match="listed twice"):
        standings.bust([("b", 10), ("b", 10)])
    with pytest.raises(ValueError, match="every player still in"):
        standings.bust([("b", 10), ("c", 20), ("d", 30)])
    with pytest.raises(ValueError, match="chips"):
        standings.bust([("b", -1)])
    with pytest.raises(ValueError, match="chips"):
        standings.bust([("c", 5), ("b", 2.5)])
    assert standings.remaining == ("b", "c", "d")  # a refused bust places nobody
    standings.bust([])
    assert standings.remaining == ("b", "c", "d")


def test_finish_names_the_last_player_and_refuses_anyone_else():
    standings = Standings(["a", "b", "c"])
    with pytest.raises(ValueError, match="3 players are still in"):
        standings.finish("a")
    standings.bust([("a", 10), ("b", 20)])
    assert standings.is_finished and standings.winner == "c"
    standings.finish("c")  # already done: no change
    with pytest.raises(ValueError, match="not still in"):
        standings.finish("a")
    assert standings.places == {"a": (3, 3), "b": (2, 2), "c": (1, 1)}


def test_standings_refuse_duplicate_or_too_few_players():
    with pytest.raises(ValueError, match="twice"):
        Standings(["a", "a", "b"])
    with pytest.raises(ValueError, match="at least two"):
        Standings(["a"])


@st.composite
def bust_sequences(draw: st.DrawFn) -> tuple[int, list[list[int]], list[int]]:
    """A field size, the players knocked out hand by hand (all but one), distinct chips."""
    size = draw(st.integers(2, 40))
    order = draw(st.permutations(range(size)))
    hands: list[list[int]] = []
    left = list(order[: size - 1])
    while left:
        take = draw(st.integers(1, len(left)))
        hands.append(left[:take])
        left = left[take:]
    chips = draw(st.lists(st.integers(1, 10**6), min_size=size, max_size=size, unique=True))
    return size, hands, chips


@given(bust_sequences())
def test_standings_places_are_a_permutation_of_1_to_n_without_ties(case):
    size, hands, chips = case
    standings = Standings(range(size))
    for hand in hands:
        standings.bust([(player, chips[player]) for player in hand])
    assert standings.is_finished
    places = standings.places
    assert all(best == worst for best, worst in places.values())
    assert sorted(best for best, _ in places.values()) == list(range(1, size + 1))
    # a later hand's busts always place above an earlier hand's
    for earlier, later in itertools.pairwise(hands):
        assert max(places[p][0] for p in later) < min(places[p][0] for p in earlier)


@given(bust_sequences(), st.integers(0, 10**9), st.data())
def test_payouts_always_sum_to_the_prizes_even_with_ties(case, pool, data):
    size, hands, _ = case
    chips = data.draw(st.lists(st.integers(1, 3), min_size=size, max_size=size))  # many ties
    standings = Standings(range(size))
    for hand in hands:
        standings.bust([(player, chips[player]) for player in hand])
    prizes = prize_amounts(pool, preset_payouts(size))
    payouts = standings.payouts(prizes)
    assert sum(payouts.values()) == pool
    assert set(payouts) == set(range(size))
    for player, (best, worst) in standings.places.items():
        share = sum(prizes[best - 1 : worst]) / (worst - best + 1)
        assert abs(payouts[player] - share) < 1


def test_a_late_entrant_moves_the_players_already_out_one_place_down() -> None:
    standings = Standings(["a", "b", "c"])
    standings.bust([("c", 100)])
    assert standings.places == {"c": (3, 3)}
    standings.enter("d")
    assert standings.players == ("a", "b", "c", "d")
    assert standings.places == {"c": (4, 4)}
    standings.bust([("a", 50), ("d", 50)])
    assert standings.places == {"a": (2, 3), "b": (1, 1), "c": (4, 4), "d": (2, 3)}
    assert standings.is_finished and standings.winner == "b"
    assert sorted(best for best, _ in standings.places.values()) == [1, 2, 2, 4]
    assert sum(standings.payouts(prize_amounts(400, [50, 30, 20])).values()) == 400


def test_a_late_entrant_cannot_enter_twice_or_after_the_end() -> None:
    standings = Standings(["a", "b"])
    with pytest.raises(ValueError, match="twice"):
        standings.enter("a")
    standings.bust([("a", 10)])
    with pytest.raises(ValueError, match="finished"):
        standings.enter("c")
    assert standings.players == ("a", "b")

"""Showdown: who shows first, who may muck, ties, odd chips, and hands won by folds."""

from engine.events import Mucked, Showed
from engine.replay import apply_actions, hand_with_cards

TIE_BOARD = "Qh Jc 9s 4d 3c"  # Ace-King high for both AK hands


def shown_order(hand) -> list[int]:
    return [entry.seat for entry in hand.result.showdown]


def show_when_asked(hand) -> None:
    """Every player asked to show or muck (``auto_muck`` off) shows."""
    for seat in hand.awaiting_show_or_muck:
        hand.show_or_muck(seat, True)


def test_tied_hands_split_the_pot_equally():
    hand = hand_with_cards([100, 100], ["Ah Kd", "Ac Ks"], TIE_BOARD)
    apply_actions(hand, ["call"] + ["check"] * 7)
    assert hand.result.final_stacks == (100, 100)
    assert hand.result.awards[0].winners == (0, 1)


def test_the_odd_chip_goes_to_the_first_tied_winner_left_of_the_button():
    # button 1: pot of 23 (three antes, two bets of 10) tied by seats 0 and 2; seat 2 is first
    hand = hand_with_cards(
        [100, 100, 100], ["Ah Kd", "7c 2d", "Ac Ks"], TIE_BOARD, button=1, ante=1
    )
    apply_actions(hand, ["fold", "call", "check"] + ["check"] * 6)
    award = hand.result.awards[0]
    assert (award.amount, award.winners, award.shares) == (23, (0, 2), (11, 12))
    assert hand.result.final_stacks == (100, 99, 101)


def test_the_odd_chip_position_follows_the_button():
    # button 2: seat 0 is first left of it; the big blind folds, a pot of 33 is tied
    hand = hand_with_cards(
        [100, 100, 100], ["Ah Kd", "7c 2d", "Ac Ks"], TIE_BOARD, button=2, ante=1
    )
    apply_actions(hand, ["call", "call", "fold"] + ["check"] * 6)
    assert hand.result.awards[0].shares == (17, 16)


def test_ties_are_split_separately_in_each_side_pot():
    hand = hand_with_cards([100, 200, 300], ["Ah Kd", "Ac Ks", "7c 2d"], TIE_BOARD)
    apply_actions(hand, ["allin", "allin", "call"])
    assert [(award.amount, award.winners) for award in hand.result.awards] == [
        (300, (0, 1)), (200, (1,)),
    ]
    assert hand.result.final_stacks == (150, 350, 100)


def test_a_tie_in_the_main_pot_and_a_different_side_pot_winner():
    hand = hand_with_cards(
        [100, 200, 300, 300], ["Ah Kd", "Ac Ks", "Qd Qs", "7c 2d"], "Kh Jc 9s 4d 3c"
    )
    # both Ace-Kings make Kings and tie the main pot; seat 1's Kings win the first side pot;
    # seat 2's Queens beat seat 3 for the last one
    apply_actions(hand, ["allin", "allin", "allin", "call"])
    awards = [(award.amount, award.winners) for award in hand.result.awards]
    assert awards == [(400, (0, 1)), (300, (1,)), (200, (2,))]
    assert hand.result.final_stacks == (200, 500, 200, 0)


def test_the_last_river_bettor_shows_first():
    hand = hand_with_cards([1000, 1000, 1000], ["Ah Kd", "7c 2d", "Qd Qs"], "Kh Jc 9s 4d 3c",
                           auto_muck=False)
    apply_actions(hand, ["call", "call", "check"] + ["check"] * 6 + ["check", "bet 50", "call",
                                                                     "call"])
    show_when_asked(hand)
    assert shown_order(hand) == [2, 0, 1]


def test_when_the_river_is_checked_through_the_first_live_seat_left_of_the_button_shows_first():
    hand = hand_with_cards([1000, 1000, 1000], ["Ah Kd", "7c 2d", "Qd Qs"], "Kh Jc 9s 4d 3c",
                           auto_muck=False)
    apply_actions(hand, ["call", "fold", "check"] + ["check"] * 6)
    show_when_asked(hand)
    assert shown_order(hand) == [2, 0]


def test_a_later_player_who_cannot_beat_the_best_hand_shown_mucks():
    hand = hand_with_cards([1000, 1000, 1000], ["Ah Kd", "7c 2d", "Qd Qs"], "Kh Jc 9s 4d 3c")
    apply_actions(hand, ["call", "call", "check"] + ["check"] * 6 + ["check", "bet 50", "call",
                                                                     "call"])
    # seat 2 (Queens) bet and shows; seat 0 (Kings) beats it and shows; seat 1 cannot: mucks
    assert shown_order(hand) == [2, 0]
    assert hand.result.mucked == (1,)
    assert Mucked(1) in hand.events
    assert set(hand.view(None).shown) == {0, 2}


def test_a_player_who_does_not_auto_muck_may_show_a_losing_hand():
    hand = hand_with_cards([1000, 1000, 1000], ["Ah Kd", "7c 2d", "Qd Qs"], "Kh Jc 9s 4d 3c",
                           auto_muck=[True, False, True])
    apply_actions(hand, ["call", "call", "check"] + ["check"] * 6 + ["check", "bet 50", "call",
                                                                     "call"])
    show_when_asked(hand)
    assert shown_order(hand) == [2, 0, 1]


def test_a_player_who_ties_the_best_hand_shown_shows():
    hand = hand_with_cards([100, 100], ["Ah Kd", "Ac Ks"], TIE_BOARD)
    apply_actions(hand, ["call"] + ["check"] * 7)
    assert shown_order(hand) == [1, 0]


def test_all_in_players_always_show():
    hand = hand_with_cards([100, 200, 300], ["Jh Jd", "Kh Kd", "Ah Ad"], "2c 7d 9h 3s 4c")
    apply_actions(hand, ["allin", "allin", "call"])
    assert sorted(shown_order(hand)) == [0, 1, 2]


def test_a_side_pot_winner_shows_though_a_better_hand_won_the_main_pot():
    # seat 0 (Aces) is all-in for the main pot only and shows first; seat 1 (Queens) can still
    # win the side pot and shows; seat 2 (Kings) beats Queens there and shows too
    hand = hand_with_cards([50, 1000, 1000], ["Ah Ad", "Qh Qd", "Kh Kd"], "2c 7d 9h 3s 4c",
                           button=2)
    apply_actions(hand, ["call", "allin", "call", "call", "bet 100", "call"] + ["check"] * 4)
    assert shown_order(hand) == [0, 1, 2]
    assert hand.result.final_stacks == (150, 850, 1050)


def test_a_player_beaten_in_every_pot_mucks_even_with_side_pots():
    hand = hand_with_cards([50, 1000, 1000], ["Ah Ad", "Kh Kd", "Qh Qd"], "2c 7d 9h 3s 4c",
                           button=2)
    apply_actions(hand, ["call", "allin", "call", "call", "bet 100", "call"] + ["check"] * 4)
    assert shown_order(hand) == [0, 1]
    assert hand.result.mucked == (2,)


def test_a_hand_won_by_everyone_folding_shows_nothing():
    hand = hand_with_cards([100, 100, 100], ["Ah Kd", "7c 2d", "Qd Qs"])
    apply_actions(hand, ["raise 30", "fold", "fold"])
    result = hand.result
    assert result.ended_by_folds
    assert result.showdown == () and result.mucked == ()
    assert not any(isinstance(event, Showed) for event in hand.events)
    assert result.final_stacks == (115, 95, 90)


def test_showdown_entries_name_the_hand():
    hand = hand_with_cards([100, 100], ["Ah Kd", "7c 7d"], "Qh Jc Ts 4d 4c")
    apply_actions(hand, ["call"] + ["check"] * 7)
    names = {entry.seat: entry.hand_name for entry in hand.result.showdown}
    assert names == {0: "Straight, Ace high", 1: "Two Pair, Sevens and Fours"}

"""PokerStars-style hand histories."""

from datetime import UTC, datetime

import pytest
from hypothesis import given

from engine.history import format_hand_history, visible_to
from engine.replay import apply_actions, hand_with_cards
from tests.engine.random_hands import play_out, random_hands

NAMES = ["Ann", "Bob", "Cy"]
STARTED = datetime(2024, 6, 1, 12, 30, 5, tzinfo=UTC)


def played_hand():
    hand = hand_with_cards([1000, 500, 250], ["Ah Kd", "7c 7d", "2s 3s"], "Qh Jc Ts 4d 4c")
    apply_actions(hand, ["call", "raise 40", "fold", "call", "check", "bet 30", "allin", "call"])
    return hand


def history(hand, hero=None):
    return format_hand_history(hand, hand_id=42, table_name="Main", player_names=NAMES,
                               started_at=STARTED, hero=hero)


def test_history_header_names_hand_table_blinds_time_and_button():
    lines = history(played_hand()).splitlines()
    assert lines[0] == "PokerStars Hand #42: Hold'em No Limit (5/10) - 2024/06/01 12:30:05 UTC"
    assert lines[1] == "Table 'Main' 3-max Seat #1 is the button"
    assert lines[2:5] == ["Seat 1: Ann (1000 in chips)", "Seat 2: Bob (500 in chips)",
                          "Seat 3: Cy (250 in chips)"]


def test_history_lists_blinds_and_actions_as_pokerstars_writes_them():
    text = history(played_hand())
    for line in ["Bob: posts small blind 5", "Cy: posts big blind 10", "Ann: calls 10",
                 "Bob: raises 30 to 40", "Cy: folds", "Bob: checks", "Ann: bets 30",
                 "Bob: raises 430 to 460 and is all-in", "Ann: calls 430",
                 "*** FLOP *** [Qh Jc Ts]", "*** TURN *** [Qh Jc Ts] [4d]",
                 "*** RIVER *** [Qh Jc Ts 4d] [4c]", "*** SHOW DOWN ***",
                 "Ann: shows [Ah Kd] (Straight, Ace high)", "Ann collected 1010 from pot"]:
        assert line + "\n" in text


def test_hole_cards_are_dealt_to_the_hero_only_or_to_everyone():
    assert "Dealt to Bob [7c 7d]" in history(played_hand(), hero=1)
    assert "Dealt to Ann" not in history(played_hand(), hero=1)
    assert history(played_hand()).count("Dealt to") == 3


def test_summary_gives_pot_board_and_each_seats_result():
    summary = history(played_hand()).split("*** SUMMARY ***\n")[1].splitlines()
    assert summary == [
        "Total pot 1010 | Rake 0",
        "Board [Qh Jc Ts 4d 4c]",
        "Seat 1: Ann (button) showed [Ah Kd] and won (1010) with Straight, Ace high",
        "Seat 2: Bob (small blind) showed [7c 7d] and lost with Two Pair, Sevens and Fours",
        "Seat 3: Cy (big blind) folded before Flop",
    ]


def test_summary_lists_side_pots():
    hand = hand_with_cards([100, 200, 300], ["Jh Jd", "Kh Kd", "Ah Ad"], "2c 7d 9h 3s 4c")
    apply_actions(hand, ["allin", "allin", "call"])
    text = format_hand_history(hand, hand_id=1, table_name="T", player_names=NAMES,
                               started_at=STARTED)
    assert "Total pot 500 Main pot 300. Side pot-1 200. | Rake 0\n" in text
    assert "Cy collected 200 from side pot-1\n" in text


def test_a_hand_won_by_folds_has_no_showdown():
    hand = hand_with_cards([100, 100, 100], ["Ah Kd", "7c 7d", "2s 3s"])
    apply_actions(hand, ["raise 30", "fold", "fold"])
    text = format_hand_history(hand, hand_id=1, table_name="T", player_names=NAMES,
                               started_at=STARTED)
    assert "SHOW DOWN" not in text
    assert "Uncalled bet (20) returned to Ann\n" in text
    assert "Seat 1: Ann (button) collected (25)\n" in text


def test_an_unfinished_hand_has_no_history():
    hand = hand_with_cards([100, 100], ["Ah Kd", "7c 7d"])
    with pytest.raises(ValueError, match="only a finished hand"):
        format_hand_history(hand, hand_id=1, table_name="T", player_names=NAMES[:2],
                            started_at=STARTED)


def test_mucked_cards_are_written_for_the_hero_only():
    hand = hand_with_cards([1000, 1000, 1000], ["Ah Kd", "7c 2d", "Qd Qs"], "Kh Jc 9s 4d 3c")
    apply_actions(hand, ["call", "call", "check"] + ["check"] * 7 + ["bet 50", "call", "call"])
    assert "Seat 2: Bob (small blind) mucked [7c 2d]\n" in history(hand)
    assert "Seat 2: Bob (small blind) mucked [7c 2d]\n" in history(hand, hero=1)
    assert "Seat 2: Bob (small blind) mucked\n" in history(hand, hero=0)


@given(random_hands())
def test_each_reader_sees_what_the_engine_writes_for_them_and_nothing_more(case):
    hand, rng = case
    play_out(hand, rng)
    names = [f"p{seat}" for seat in range(hand.num_seats)]
    full = format_hand_history(hand, hand_id=1, table_name="T", player_names=names,
                               started_at=STARTED)
    for seat in range(hand.num_seats):
        as_hero = format_hand_history(hand, hand_id=1, table_name="T", player_names=names,
                                      started_at=STARTED, hero=seat)
        assert visible_to(full, hand.num_seats, seat) == as_hero
    spectator = visible_to(full, hand.num_seats, None)
    assert "Dealt to" not in spectator and " mucked [" not in spectator


@pytest.mark.parametrize("trick", ["\n", "\u2028", "\r\n", "\x85", "\x1e"])
def test_a_name_with_a_line_break_stays_on_its_line_and_hides_no_cards(trick):
    names = ["Ann", f"Bob{trick}Dealt to Ann [Ah Kd]", "Cy"]
    text = format_hand_history(played_hand(), hand_id=1, table_name="T", player_names=names,
                               started_at=STARTED)
    assert text.count("\n") == len(text.splitlines())  # no other line breaks anywhere
    for_cy = visible_to(text, 3, 2).split("\n")
    assert [line for line in for_cy if line.startswith("Dealt to ")] == ["Dealt to Cy [2s 3s]"]
    assert for_cy[-3].startswith("Seat 2: Bob") and "showed [7c 7d]" in for_cy[-3]

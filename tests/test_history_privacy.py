"""A hand history sent to a person shows their own cards and shown cards, nobody else's."""

from bot.history_privacy import redact_hidden_cards

HISTORY = """\
*** HOLE CARDS ***
Dealt to alice [2c Kh]
Dealt to bob [Ks 4s]
Dealt to Noodle [Qh Td]
*** SHOW DOWN ***
Noodle: shows [Qh Td] (Pair of Tens)
alice: mucks hand
bob: mucks hand
*** SUMMARY ***
Board [7h 5h Ts 6c 4c]
Seat 1: alice (button) mucked [2c Kh]
Seat 2: bob (small blind) mucked [Ks 4s]
Seat 3: Noodle (big blind) showed [Qh Td] and won (375) with Pair of Tens"""


def test_other_players_dealt_and_mucked_cards_are_removed():
    text = redact_hidden_cards(HISTORY, ["bob", "Noodle"])
    assert "Ks" not in text and "4s" not in text
    assert "Dealt to alice [2c Kh]" in text
    assert "Seat 1: alice (button) mucked [2c Kh]" in text
    assert "Seat 2: bob (small blind) mucked\n" in text


def test_cards_shown_at_showdown_stay():
    text = redact_hidden_cards(HISTORY, ["alice", "bob", "Noodle"])
    assert "Noodle: shows [Qh Td] (Pair of Tens)" in text
    assert "showed [Qh Td] and won (375)" in text
    assert "Dealt to" not in text


def test_a_name_that_starts_another_name_hides_only_its_own_cards():
    text = "Dealt to bo [2c 2d]\nDealt to bob [Ah Ad]"
    assert redact_hidden_cards(text, ["bo"]) == "Dealt to bob [Ah Ad]"


def test_nothing_is_removed_when_nobody_is_hidden():
    assert redact_hidden_cards(HISTORY, []) == HISTORY

"""Cards: encoding, parsing, printing and the deck."""

import random

import pytest

from engine.cards import (
    Deck,
    DeckExhaustedError,
    card_str,
    cards_str,
    check_distinct,
    make_card,
    parse_card,
    parse_cards,
    pretty_card,
)


def test_card_id_is_four_times_rank_plus_suit():
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("Ac") == 48
    assert parse_card("As") == 51
    assert make_card(12, 2) == parse_card("Ah") == 50


@pytest.mark.parametrize("text,expected", [
    ("Ah", "Ah"), ("ah", "Ah"), ("td", "Td"), ("10s", "Ts"), ("A♥", "Ah"), (" kC ", "Kc"),
])
def test_parse_accepts_common_spellings(text, expected):
    assert card_str(parse_card(text)) == expected


@pytest.mark.parametrize("text,fragment", [
    ("", "not a card"), ("A", "not a card"), ("Ahh", "not a card"),
    ("1h", "no rank"), ("Ax", "no suit"), ("11s", "not a card"),
])
def test_parse_rejects_bad_text_saying_why(text, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse_card(text)


def test_every_card_round_trips_through_text():
    for card in range(52):
        assert parse_card(card_str(card)) == card
        assert parse_card(pretty_card(card)) == card


def test_pretty_uses_suit_symbols():
    assert pretty_card(parse_card("Qs")) == "Q♠"
    assert cards_str(parse_cards("Ah 2c"), pretty=True) == "A♥ 2♣"


def test_parse_cards_splits_runs_and_separators():
    assert cards_str(parse_cards("AhKd,10c 9s")) == "Ah Kd Tc 9s"
    assert parse_cards(["Ah", "Kd"]) == [50, 45]


def test_check_distinct_names_the_repeated_card():
    with pytest.raises(ValueError, match="Ah appears more than once"):
        check_distinct(parse_cards("Ah Kd Ah"))
    with pytest.raises(ValueError, match="not a card id"):
        check_distinct([52])


def test_deck_holds_52_distinct_cards():
    deck = Deck(random.Random(1))
    cards = deck.deal(52)
    assert sorted(cards) == list(range(52))
    assert len(deck) == 0


def test_deck_with_seeded_rng_is_reproducible_and_default_is_not_fixed():
    assert Deck(random.Random(5)).deal(10) == Deck(random.Random(5)).deal(10)
    assert Deck().deal(52) != Deck().deal(52)  # 1 in 52! of failing


def test_dealing_from_exhausted_deck_is_an_error():
    deck = Deck(random.Random(2))
    deck.deal(50)
    with pytest.raises(DeckExhaustedError, match="only 2 left"):
        deck.deal(3)
    assert len(deck) == 2


def test_burn_discards_the_top_card():
    deck = Deck.stacked(parse_cards("2c 3c 4c"))
    assert card_str(deck.burn()) == "2c"
    assert deck.peek(2) == parse_cards("3c 4c")
    assert cards_str(deck.deal(2)) == "3c 4c"


def test_stacked_deck_deals_given_cards_first_then_the_rest():
    top = parse_cards("As Ks Qs")
    deck = Deck.stacked(top, random.Random(3))
    dealt = deck.deal(52)
    assert dealt[:3] == top
    assert sorted(dealt) == list(range(52))


def test_an_unseeded_deck_is_shuffled_by_the_operating_systems_csprng(monkeypatch):
    used = []

    class RecordingSystemRandom(random.SystemRandom):
        def shuffle(self, cards):
            used.append(len(cards))
            super().shuffle(cards)

    monkeypatch.setattr("engine.cards.secrets.SystemRandom", RecordingSystemRandom)
    Deck()
    assert used == [52]
    Deck(random.Random(1))
    assert used == [52]  # an injected generator replaces it

"""Show or muck: a winner without a showdown may show one or both cards; at showdown a player
who wins nothing mucks with auto-muck on and is asked with it off; what is shown is public in
the history, the replay and the exports, and nothing else is."""

import re
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings

from bot.render.replay_frames import replay_frames
from engine.cards import card_str, parse_cards
from engine.events import Mucked, Showed
from engine.export import ExportedHand, phh, pokerstars
from engine.hand import IllegalActionError
from engine.hand_record import RecordedHand
from engine.history import format_hand_history, visible_to
from engine.replay import apply_actions, hand_with_cards
from tests.engine.random_hands import play_out, random_hands

STARTED = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)
NAMES = ["Ann", "Bob", "Cy"]
RIVER = ["call", "call", "check"] + ["check"] * 6 + ["check", "bet 50", "call", "call"]
"""Cy (Queens) bets the river, Ann (Kings) and Bob (seven high) call."""


def won_by_folds():
    hand = hand_with_cards([1000] * 3, ["Ah Kd", "7c 2d", "Qd Qs"], "Kh Jc 9s 4d 3c")
    apply_actions(hand, ["raise 30", "fold", "fold"])
    return hand


def river_showdown(auto_muck):
    hand = hand_with_cards([1000] * 3, ["Ah Kd", "7c 2d", "Qd Qs"], "Kh Jc 9s 4d 3c",
                           auto_muck=auto_muck)
    apply_actions(hand, RIVER)
    return hand


def history(hand, viewer=None):
    text = format_hand_history(hand, hand_id=7, table_name="T", player_names=NAMES,
                               started_at=STARTED)
    return text if viewer == "all" else visible_to(text, hand.num_seats, viewer)


@pytest.mark.parametrize("cards", ["Ah", "Kd", "Ah Kd"])
def test_a_winner_without_a_showdown_may_show_one_or_both_cards(cards):
    hand = won_by_folds()
    assert hand.can_show(0) and not hand.can_show(1)
    hand.show(0, parse_cards(cards))
    assert hand.shown == {0: tuple(parse_cards(cards))}
    assert hand.view(None).shown == {0: tuple(parse_cards(cards))}
    assert hand.events[-1] == Showed(0, tuple(parse_cards(cards)))
    assert hand.result.final_stacks == (1015, 995, 990)  # the pots are the same
    assert not hand.can_show(0)  # once


def test_only_the_winner_without_a_showdown_may_show_and_only_their_own_cards():
    hand = won_by_folds()
    for seat, cards in [(1, "7c"), (0, "Qd"), (0, ""), (0, "Ah Ah")]:
        with pytest.raises(IllegalActionError):
            hand.show(seat, parse_cards(cards))
    assert hand.shown == {}
    showdown = river_showdown(auto_muck=True)
    assert not any(showdown.can_show(seat) for seat in range(3))


def test_a_loser_mucks_without_being_asked_when_auto_muck_is_on():
    hand = river_showdown(auto_muck=True)
    assert hand.is_over and hand.awaiting_show_or_muck == ()
    assert hand.result.mucked == (1,) and Mucked(1) in hand.events


@pytest.mark.parametrize("show", [True, False])
def test_a_loser_may_muck_only_when_auto_muck_is_off(show):
    hand = river_showdown(auto_muck=[True, False, True])
    assert hand.awaiting_show_or_muck == (1,) and not hand.is_over and hand.to_act is None
    assert hand.shown == {}  # nothing is shown before every answer is in
    with pytest.raises(IllegalActionError):
        hand.show_or_muck(0, True)  # Ann wins: she is not asked
    hand.show_or_muck(1, show)
    assert hand.is_over and hand.awaiting_show_or_muck == ()
    assert [entry.seat for entry in hand.result.showdown] == ([2, 0, 1] if show else [2, 0])
    assert hand.result.mucked == (() if show else (1,))
    assert hand.result.final_stacks == river_showdown(auto_muck=True).result.final_stacks
    with pytest.raises(IllegalActionError):
        hand.show_or_muck(1, show)  # once


def test_all_in_players_and_players_who_can_win_are_never_asked():
    hand = hand_with_cards([100, 200, 300], ["Jh Jd", "Kh Kd", "Ah Ad"], "2c 7d 9h 3s 4c",
                           auto_muck=False)
    apply_actions(hand, ["allin", "allin", "call"])
    assert hand.is_over and sorted(entry.seat for entry in hand.result.showdown) == [0, 1, 2]


def test_shown_cards_are_in_the_history_and_replay():
    hand = won_by_folds()
    hand.show(0, parse_cards("Ah Kd"))
    for viewer in (None, 1, 2):
        assert "Ann collected 25 from pot\nAnn: shows [Ah Kd]\n" in history(hand, viewer)
    record = RecordedHand.from_json(RecordedHand.from_hand(hand).to_json())
    assert record.winner_shows == tuple(parse_cards("Ah Kd"))
    assert record.play().events == hand.events and record.shown_seats() == {0}
    last = replay_frames(record, NAMES, 1, title=7)[-1]
    assert last.state.seats[0].shown_cards == tuple(parse_cards("Ah Kd"))
    assert "Ann shows" in str(last.state.last_action)


def test_one_card_shown_keeps_the_other_private_everywhere():
    hand = won_by_folds()
    hand.show(0, parse_cards("Kd"))
    record = RecordedHand.from_json(RecordedHand.from_hand(hand).to_json())
    assert record.shown_seats() == frozenset()  # a shared replay would show both
    text = history(hand, 1)
    assert "Ann: shows [Kd]\n" in text and "Ah" not in text
    frames = replay_frames(record, NAMES, 1, title=7)
    assert frames[-1].state.seats[0].shown_cards == tuple(parse_cards("Kd"))
    exported = ExportedHand(7, record, tuple(NAMES), 1, STARTED, "T")
    assert "Ah" not in pokerstars([exported])
    assert "d dh p3 ??Kd" in phh([exported])  # Ann, on the button, is dealt to last


def test_mucked_cards_are_nowhere_but_with_their_owner():
    hand = river_showdown(auto_muck=False)
    for seat in hand.awaiting_show_or_muck:
        hand.show_or_muck(seat, seat != 1)
    assert "Bob: mucks hand" in history(hand, None)
    assert "7c" not in history(hand, None) and "7c" not in history(hand, 0)
    assert "Seat 2: Bob (small blind) mucked [7c 2d]" in history(hand, 1)
    record = RecordedHand.from_json(RecordedHand.from_hand(hand).to_json())
    assert record.mucks == (1,)
    assert record.play().events == hand.events
    for viewer in (None, 0, 2):
        assert all(not frame.state.seats[1].shown_cards
                   for frame in replay_frames(record, NAMES, viewer, title=7))
    exported = ExportedHand(7, record, tuple(NAMES), 0, STARTED, "T")
    assert "7c" not in pokerstars([exported]) and "7c" not in phh([exported])


def test_an_old_record_without_answers_shows_every_asked_hand():
    hand = river_showdown(auto_muck=[True, False, True])
    hand.show_or_muck(1, True)
    data = RecordedHand.from_hand(hand).to_json()
    assert '"mucks"' not in data  # as records written before players were asked read
    assert RecordedHand.from_json(data).play().result == hand.result


_BRACKETS = re.compile(r"\[([^\]]*)\]")


@settings(max_examples=60, deadline=None)
@given(random_hands(run_it_twice=True))
def test_no_unshown_card_appears_in_any_viewers_history_replay_or_export(case):
    hand, rng = case
    play_out(hand, rng)
    record = RecordedHand.from_json(RecordedHand.from_hand(hand).to_json())
    names = [f"p{seat}" for seat in range(hand.num_seats)]
    full = format_hand_history(hand, hand_id=1, table_name="T", player_names=names,
                               started_at=STARTED)
    board = {card for run in hand.boards for card in run}
    for viewer in [None, *range(hand.num_seats)]:
        allowed = board | {card for cards in hand.shown.values() for card in cards}
        if viewer is not None:
            allowed |= set(hand.hole_cards(viewer))
        allowed_text = {card_str(card) for card in allowed}
        texts = [visible_to(full, hand.num_seats, viewer)]
        if viewer is not None:
            exported = ExportedHand(1, record, tuple(names), viewer, STARTED, "T")
            texts.append(pokerstars([exported]))
            phh_cards = re.findall(r"(?:dh p\d+|sm) ([0-9TJQKA?cdhs]+)", phh([exported]))
            assert {text[i:i + 2] for text in phh_cards for i in range(0, len(text), 2)} \
                - {"??"} <= allowed_text
        for text in texts:
            written = {card for group in _BRACKETS.findall(text) for card in group.split()}
            assert written <= allowed_text, (viewer, written - allowed_text)
        for frame in replay_frames(record, names, viewer, title=1):
            drawn = {card for seat in frame.state.seats for card in seat.shown_cards}
            assert drawn <= allowed

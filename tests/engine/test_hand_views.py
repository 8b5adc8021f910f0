"""What each player may see: their own hole cards only, until cards are shown."""

import pickle

import pytest

from engine.replay import apply_actions, hand_with_cards


def test_a_view_holds_only_its_own_seats_hole_cards():
    hand = hand_with_cards([100, 100, 100], ["Ah Kd", "7c 7d", "2s 3s"])
    view = hand.view(1)
    assert view.hole_cards == hand.hole_cards(1)
    assert view.shown == {}
    assert hand.view(None).hole_cards == ()


def test_only_the_seat_to_act_gets_its_legal_actions_in_its_view():
    hand = hand_with_cards([100, 100, 100], ["Ah Kd", "7c 7d", "2s 3s"])
    assert hand.view(0).legal == hand.legal_actions()
    assert hand.view(1).legal is None and hand.view(None).legal is None


def test_views_show_cards_shown_at_showdown():
    hand = hand_with_cards([100, 100], ["Ah Kd", "7c 7d"], "Qh Jc Ts 4d 4c")
    apply_actions(hand, ["call"] + ["check"] * 7)
    assert dict(hand.view(None).shown) == {0: hand.hole_cards(0), 1: hand.hole_cards(1)}


def test_a_view_carries_the_public_state():
    hand = hand_with_cards([100, 100, 100], ["Ah Kd", "7c 7d", "2s 3s"], ante=1)
    apply_actions(hand, ["raise 30"])
    view = hand.view(2)
    assert (view.button, view.pot, view.to_act, view.current_bet) == (0, 48, 1, 30)
    assert view.history[-1].to == 30


def test_a_view_survives_pickling_for_another_process():
    hand = hand_with_cards([100, 100], ["Ah Kd", "7c 7d"], "Qh Jc Ts 4d 4c")
    apply_actions(hand, ["call"] + ["check"] * 7)
    for view in (hand.view(0), hand_with_cards([100, 100], ["Ah Kd", "7c 7d"]).view(0)):
        copy = pickle.loads(pickle.dumps(view))
        assert copy == view and copy.shown == view.shown


def test_shown_cards_in_a_view_cannot_be_changed():
    hand = hand_with_cards([100, 100], ["Ah Kd", "7c 7d"], "Qh Jc Ts 4d 4c")
    apply_actions(hand, ["call"] + ["check"] * 7)
    view = hand.view(None)
    with pytest.raises(TypeError):
        view.shown[0] = ()  # type: ignore[index]
    assert hash(view) == hash(pickle.loads(pickle.dumps(view)))

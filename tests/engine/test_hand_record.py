"""A recorded hand plays again exactly: same events, same result, through its JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

from engine.hand import IllegalActionError
from engine.hand_record import RecordedHand
from engine.replay import ScenarioError, apply_actions, hand_with_cards
from tests.engine.random_hands import play_out, random_hands


@settings(max_examples=150, deadline=None)
@given(random_hands(run_it_twice=True))
def test_any_hand_plays_again_from_its_json(drawn):
    hand, rng = drawn
    play_out(hand, rng)
    text = RecordedHand.from_hand(hand).to_json()
    again = RecordedHand.from_json(text).play()
    assert again.events == hand.events
    assert again.result == hand.result


@settings(max_examples=50, deadline=None)
@given(random_hands())
def test_each_step_is_the_hand_after_one_more_decision(drawn):
    hand, rng = drawn
    play_out(hand, rng)
    steps = [len(step.history) for step in RecordedHand.from_hand(hand).steps()]
    done = len(hand.history)
    assert steps[:done + 1] == list(range(done + 1))
    # after the last action: a step for the show-or-muck answers, and one for a winner's show
    assert steps[done:] in ([done], [done] * 2, [done] * 3)


def test_a_record_of_a_hand_still_running_does_not_play_to_the_end():
    hand = hand_with_cards([100, 100, 100], ["Ah Kd", "7c 7d", "2s 3s"], "Qh Jc Ts 4d 4c")
    apply_actions(hand, ["call", "call"])
    record = RecordedHand.from_hand(hand)
    with pytest.raises(IllegalActionError, match="ran out before the hand ended"):
        record.play()


def record_json(**changes: object) -> str:
    hand = hand_with_cards([100, 100], ["Ah Kd", "7c 7d"], "Qh Jc Ts 4d 4c")
    apply_actions(hand, ["call"] + ["check"] * 7)
    data = json.loads(RecordedHand.from_hand(hand).to_json())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(("changes", "message"), [
    ({"stacks": [100]}, "stacks must list 2 to 10"),
    ({"actions": ["call", "shove"]}, r"actions\[1\]: 'shove' is not an action"),
    ({"run_it_twice": "yes"}, "run_it_twice must be true or false"),
    ({"auto_muck": [True]}, "auto_muck must list true or false for each of the 2 seats"),
    ({"second_board": "Qh Qh 2c 3c 4c 5c"}, "second_board must be at most 5 cards"),
    ({"second_board": "Qh Jc 7d 7c 2c"}, "cannot all be dealt"),
    ({"colour": "red"}, "unknown key"),
])
def test_a_record_not_of_the_format_is_refused_naming_the_part(changes, message):
    with pytest.raises(ScenarioError, match=message):
        RecordedHand.from_json(record_json(**changes))


def test_a_record_whose_actions_break_the_rules_is_refused_when_played():
    record = RecordedHand.from_json(record_json(actions=["call", "raise 5"]))
    with pytest.raises(IllegalActionError, match=r"action 2 \(raise 5\) by seat 1"):
        record.play()


def test_a_record_without_the_run_it_twice_answer_is_refused_when_played():
    hand = hand_with_cards([100, 100], ["Ah Kd", "7c 7d"], "Qh Jc Ts 4d 4c",
                           offer_run_it_twice=True)
    apply_actions(hand, ["allin", "call"])
    data = json.loads(RecordedHand.from_hand(hand).to_json())
    with pytest.raises(IllegalActionError, match="no answer"):
        RecordedHand.from_json(json.dumps(data)).play()
    data["run_it_twice"] = False
    assert RecordedHand.from_json(json.dumps(data)).play().is_over

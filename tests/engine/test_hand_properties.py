"""Properties of any hand played with random legal actions."""

from hypothesis import given

from engine.actions import Action, ActionKind
from engine.cards import card_str
from engine.events import (
    Acted,
    HoleCardsDealt,
    Mucked,
    Posted,
    Showed,
    StreetDealt,
    UncalledBetReturned,
    Won,
)
from engine.replay import hand_with_cards
from tests.engine.random_hands import play_out, random_hands


def chips_are_conserved_and_never_negative(hand):
    total = sum(hand.starting_stacks)
    assert all(stack >= 0 for stack in hand.stacks)
    if hand.is_over:
        assert sum(hand.stacks) == total
    else:
        assert sum(hand.stacks) + hand.pot_total == total
        assert sum(pot.amount for pot in hand.pots()) == hand.pot_total


@given(random_hands(run_it_twice=True))
def test_chips_are_conserved_no_stack_goes_negative_and_the_hand_ends(case):
    hand, rng = case
    play_out(hand, rng, chips_are_conserved_and_never_negative)
    assert hand.is_over
    assert sum(hand.result.net) == 0


@given(random_hands(run_it_twice=True))
def test_the_chip_events_add_up_to_the_final_stacks(case):
    hand, rng = case
    play_out(hand, rng)
    stacks = list(hand.starting_stacks)
    for event in hand.events:
        if isinstance(event, Posted):
            stacks[event.seat] -= event.amount
        elif isinstance(event, Acted):
            stacks[event.seat] -= event.record.added
        elif isinstance(event, UncalledBetReturned | Won):
            stacks[event.seat] += event.amount
    assert tuple(stacks) == hand.result.final_stacks


@given(random_hands())
def test_replaying_the_events_rebuilds_the_same_hand(case):
    hand, rng = case
    play_out(hand, rng)
    holes = [""] * hand.num_seats
    board = []
    for event in hand.events:
        if isinstance(event, HoleCardsDealt):
            holes[event.seat] = " ".join(card_str(card) for card in event.cards)
        elif isinstance(event, StreetDealt):
            board += [card_str(card) for card in event.cards]
    again = hand_with_cards(hand.starting_stacks, holes, board, button=hand.button,
                            small_blind=hand.small_blind, big_blind=hand.big_blind,
                            ante=hand.ante, auto_muck=hand.auto_muck)
    for event in hand.events:
        if isinstance(event, Acted):
            record = event.record
            again.act(record.seat, action_of(record))
    for seat in again.awaiting_show_or_muck:
        again.show_or_muck(seat, Mucked(seat) not in hand.events)
    for event in hand.events[len(again.events):]:
        assert isinstance(event, Showed)  # the winner without a showdown showed
        again.show(event.seat, event.cards)
    assert again.events == hand.events
    assert again.result == hand.result


def action_of(record):
    """The action that produced ``record``."""
    if record.kind in (ActionKind.BET, ActionKind.RAISE):
        return Action(record.kind, record.to)
    return Action(record.kind)

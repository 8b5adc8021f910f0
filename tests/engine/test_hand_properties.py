"""Properties of any hand played with random legal actions."""

from hypothesis import given
from hypothesis import strategies as st

from engine.actions import Action, ActionKind
from engine.cards import Deck, card_str
from engine.events import Acted, HoleCardsDealt, Posted, StreetDealt, UncalledBetReturned, Won
from engine.hand import Hand
from engine.replay import hand_with_cards, random_action

MAX_ACTIONS = 500  # far more than any hand can take: each street ends after finitely many raises


@st.composite
def random_hands(draw, run_it_twice=False):
    num_seats = draw(st.integers(2, 10))
    big_blind = draw(st.integers(1, 50))
    small_blind = draw(st.integers(0, big_blind))
    ante = draw(st.sampled_from([0, 0, 1, big_blind // 4]))
    stacks = draw(st.lists(st.integers(1, 100 * big_blind), min_size=num_seats,
                           max_size=num_seats))
    rng = draw(st.randoms(use_true_random=False))
    hand = Hand(stacks, draw(st.integers(0, num_seats - 1)), small_blind, big_blind, ante,
                Deck(rng=rng), auto_muck=draw(st.booleans()), offer_run_it_twice=run_it_twice)
    return hand, rng


def play_out(hand, rng, check=lambda hand: None):
    for _ in range(MAX_ACTIONS):
        check(hand)
        if hand.awaiting_run_it_twice:
            hand.choose_run_it_twice(rng.random() < 0.5)
        elif hand.is_over:
            return
        else:
            hand.act(hand.to_act, random_action(hand.legal_actions(), rng))
    raise AssertionError("the hand did not end")


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
    assert again.events == hand.events
    assert again.result == hand.result


def action_of(record):
    """The action that produced ``record``."""
    if record.kind in (ActionKind.BET, ActionKind.RAISE):
        return Action(record.kind, record.to)
    return Action(record.kind)

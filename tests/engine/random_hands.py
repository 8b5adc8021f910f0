"""Random hands for property tests: any table size, blinds, ante and stacks, played out with
random legal actions."""

from hypothesis import strategies as st

from engine.cards import Deck
from engine.hand import Hand, Straddle
from engine.replay import random_action

MAX_ACTIONS = 500  # far more than any hand can take: each street ends after finitely many raises


@st.composite
def random_hands(draw, run_it_twice=False, straddles=False):
    num_seats = draw(st.integers(2, 10))
    big_blind = draw(st.integers(1, 50))
    small_blind = draw(st.integers(0, big_blind))
    ante = draw(st.sampled_from([0, 0, 1, big_blind // 4]))
    stacks = draw(st.lists(st.integers(1, 100 * big_blind), min_size=num_seats,
                           max_size=num_seats))
    rng = draw(st.randoms(use_true_random=False))
    straddle = draw(st.sampled_from([None, *Straddle])) if straddles else None
    hand = Hand(stacks, draw(st.integers(0, num_seats - 1)), small_blind, big_blind, ante,
                Deck(rng=rng), auto_muck=draw(st.booleans()), offer_run_it_twice=run_it_twice,
                straddle=straddle)
    return hand, rng


def play_out(hand, rng, check=lambda hand: None):
    for _ in range(MAX_ACTIONS):
        check(hand)
        if hand.awaiting_run_it_twice:
            hand.choose_run_it_twice(rng.random() < 0.5)
        elif hand.awaiting_show_or_muck:
            for seat in hand.awaiting_show_or_muck:
                hand.show_or_muck(seat, rng.random() < 0.5)
        elif hand.is_over:
            show_sometimes(hand, rng)
            return
        else:
            hand.act(hand.to_act, random_action(hand.legal_actions(), rng))
    raise AssertionError("the hand did not end")


def show_sometimes(hand, rng):
    """A winner without a showdown shows nothing, one card or both, at random."""
    for seat in range(hand.num_seats):
        if hand.can_show(seat) and rng.random() < 0.5:
            hole = hand.hole_cards(seat)
            hand.show(seat, rng.choice([hole[:1], hole[1:], hole]))

"""Differential test: random hands played by this engine and replayed on pokerkit end the same.

Conventions mapped rather than bent: pokerkit numbers players from the small blind (heads-up:
from the big blind) with the button last, which is our clockwise order starting left of the
button — so its "odd chip to the lowest index" is our "odd chip to the first seat left of the
button", except that pokerkit gives a pot's whole remainder to that one winner where we give
the odd chips one at a time: the expected stacks are moved to pokerkit's convention for the
comparison (``stacks_with_pokerkit_odd_chips``). pokerkit's cash-game mode only warns when a
player folds instead of checking, so such folds are replayed as they are.

Straddles: pokerkit's blinds-or-straddles tuple takes the straddle at the straddler's index
(2 under the gun, the last index on the button: a "Mississippi" straddle), and pokerkit opens
the preflop left of the largest of them. Its minimum bet is one number for every street; the
straddle's rule that the preflop's minimum raise is the straddle is given to it by a preflop
street whose minimum is the straddle's, the other streets keeping the big blind.
"""

from __future__ import annotations

import dataclasses
import random
import warnings

import pytest
from pokerkit import Automation, Mode, NoLimitTexasHoldem

from engine.actions import ActionKind, LegalActions
from engine.cards import Deck, cards_str
from engine.hand import Hand, Straddle
from engine.replay import random_action

HANDS = 2000
STRADDLE_HANDS = 3000

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
    Automation.RUNOUT_COUNT_SELECTION,
)


def random_hand(rng: random.Random,
                straddle: Straddle | None = None) -> tuple[Hand, list[LegalActions]]:
    """A finished hand with random seats, stacks, blinds, ante and legal random actions, and
    the legal actions each action was chosen from; with ``straddle``, three to six seats and
    short stacks often enough to straddle all-in."""
    num_seats = rng.randint(3 if straddle else 2, 6)
    big_blind = rng.choice((2, 10, 20))
    ante = rng.choice((0, 0, 0, 1, big_blind // 2))
    # pokerkit puts every ante wholly in the main pot, even beside a player who could not
    # cover the ante; we keep such a player to the layer they paid for. Stacks above the ante
    # keep the comparison to hands where both conventions agree.
    stacks = [
        rng.randint(ante + 1, 3 * big_blind) if rng.random() < 0.2
        else rng.randint(ante + 1, 60 * big_blind)
        for _ in range(num_seats)
    ]
    hand = Hand(
        stacks, rng.randrange(num_seats), big_blind // 2, big_blind, ante, Deck(rng=rng),
        straddle=straddle,
    )
    legals = []
    while not hand.is_over:
        legals.append(hand.legal_actions())
        hand.act(hand.to_act, random_action(legals[-1], rng))
    return hand, legals


def replay_on_pokerkit(hand: Hand, legals: list[LegalActions]) -> list[int]:
    """Play ``hand``'s cards and actions on pokerkit, checking at each turn that pokerkit
    allows what we allowed (``legals``); its final stacks in our seat order."""
    num_seats = hand.num_seats
    seat_of = [(hand.button + 1 + index) % num_seats for index in range(num_seats)]
    blinds = [hand.small_blind, hand.big_blind] + [0] * (num_seats - 2)
    game = NoLimitTexasHoldem(AUTOMATIONS, False, hand.ante, blinds, hand.big_blind,
                              mode=Mode.CASH_GAME)
    if hand.straddle_seat is not None:
        blinds[seat_of.index(hand.straddle_seat)] = hand.straddle_amount
        game = NoLimitTexasHoldem(AUTOMATIONS, False, hand.ante, blinds, hand.big_blind,
                                  mode=Mode.CASH_GAME)
        preflop = dataclasses.replace(game.streets[0], min_completion_betting_or_raising_amount=
                                      hand.straddle_amount)
        game.streets = (preflop, *game.streets[1:])
    state = game([hand.starting_stacks[seat] for seat in seat_of], num_seats)
    for seat in seat_of:
        state.deal_hole(cards_str(hand.hole_cards(seat)).replace(" ", ""))
    board = iter(hand.board)
    acted: set[tuple[int, int]] = set()  # (street, seat)
    for record, legal in zip(hand.history, legals, strict=True):
        advance_to(state, board, seat_of.index(record.seat))
        assert seat_of[state.actor_index] == record.seat, "turn order differs"
        has_acted = (record.street, record.seat) in acted
        assert same_legal_actions(state, legal, has_acted), f"legal actions differ: {record}"
        acted.add((record.street, record.seat))
        if record.kind is ActionKind.FOLD:
            state.fold()
        elif record.kind in (ActionKind.CHECK, ActionKind.CALL):
            state.check_or_call()
        else:
            state.complete_bet_or_raise_to(record.to)
    advance_to(state, board, None)
    assert not state.status, "pokerkit expected more actions"
    final = [0] * num_seats
    for index, seat in enumerate(seat_of):
        final[seat] = state.stacks[index]
    return final


def same_legal_actions(state, legal: LegalActions, has_acted: bool) -> bool:
    """Whether pokerkit offers the same call and the same bet or raise sizes as ``legal``.

    pokerkit lets a player raise more often than we do: we do not when no other player could
    put in more than the current bet (nobody could call the raise), nor when a player who has
    acted faces only all-ins for less than a full raise since (betting is not reopened). There
    only the call is compared.
    """
    if state.checking_or_calling_amount != legal.call_amount:
        return False
    if not legal.can_bet_or_raise:
        current = max(state.bets)
        others_cover_more = any(
            state.statuses[index] and state.bets[index] + state.stacks[index] > current
            for index in state.player_indices if index != state.actor_index)
        return not (state.can_complete_bet_or_raise_to() and others_cover_more
                    and not has_acted)
    return (state.min_completion_betting_or_raising_to_amount,
            state.max_completion_betting_or_raising_to_amount) == (legal.min_to, legal.max_to)


def advance_to(state, board, actor: int | None) -> None:
    """Deal pokerkit the board up to ``actor``'s turn (``None``: to the end of the hand).

    pokerkit also gives a turn to a player who can only check because everyone else is all-in
    and nothing is owed; our engine skips that turn, which changes nothing: it is checked here.
    """
    while True:
        if state.can_deal_board():
            count = 3 if not state.board_cards else 1
            state.deal_board("".join(cards_str([next(board)]) for _ in range(count)))
        elif (
            state.actor_index is not None
            and state.actor_index != actor
            and state.checking_or_calling_amount == 0
            and not state.can_complete_bet_or_raise_to()
        ):
            state.check_or_call()
        else:
            return


def stacks_with_pokerkit_odd_chips(hand: Hand) -> list[int]:
    """Our final stacks, with each pot's odd chips all given to its first winner left of the
    button instead of one at a time.

    pokerkit splits its pots once the losing hands are killed, so neighbouring pots left with
    the same players (hence the same winners) are split as one: their odd chips add up first.
    """
    stacks = list(hand.result.final_stacks)
    merged: list[tuple[int, int, tuple[int, ...]]] = []  # run, amount, winners
    for award in hand.result.awards:
        if merged and merged[-1][0] == award.run and merged[-1][2] == award.winners:
            merged[-1] = (award.run, merged[-1][1] + award.amount, award.winners)
        else:
            merged.append((award.run, award.amount, award.winners))
        for seat, share in zip(award.winners, award.shares, strict=True):
            stacks[seat] -= share
    for _, amount, winners in merged:
        first = min(winners, key=lambda seat: (seat - hand.button - 1) % hand.num_seats)
        for seat in winners:
            stacks[seat] += amount // len(winners)
        stacks[first] += amount % len(winners)
    return stacks


@pytest.mark.slow
def test_random_hands_end_with_the_same_stacks_as_pokerkit():
    rng = random.Random(20240611)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns on folds where checking was possible
        for number in range(HANDS):
            hand, legals = random_hand(rng)
            assert stacks_with_pokerkit_odd_chips(hand) == replay_on_pokerkit(hand, legals), (
                f"hand {number}: {hand.starting_stacks} button {hand.button} "
                f"{[str(record) for record in hand.history]}"
            )


@pytest.mark.slow
@pytest.mark.parametrize("straddle", list(Straddle))
def test_random_straddle_hands_end_with_the_same_stacks_as_pokerkit(straddle):
    rng = random.Random(f"straddle {straddle}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for number in range(STRADDLE_HANDS):
            hand, legals = random_hand(rng, straddle)
            assert stacks_with_pokerkit_odd_chips(hand) == replay_on_pokerkit(hand, legals), (
                f"{straddle} hand {number}: {hand.starting_stacks} button {hand.button} "
                f"{[str(record) for record in hand.history]}"
            )

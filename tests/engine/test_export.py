"""engine.export against pokerkit: thousands of random hands, each written for one of its
players from its replay JSON (as the ledger keeps it), read back by pokerkit and played to the
engine's result; and nobody's unshown cards in any player's export.

pokerkit's differences, which engine.export's docstring lists, are mapped rather than bent:
odd chips go to pokerkit's first winner (``stacks_with_pokerkit_odd_chips``); a hand run twice
plays there as run once; its PokerStars parser reads no ante or straddle lines, so hands with
antes are read by that parser taught the ante line (its own ``ANTE_POSTING`` hook) and only
the PHH hands straddle; a player who could not cover the ante is kept to the part they paid
for here, not there.
"""

from __future__ import annotations

import random
import re
import warnings
from datetime import UTC, datetime

import pytest
from hypothesis import given
from pokerkit import HandHistory, State
from pokerkit.notation import PokerStarsParser

from engine.cards import Card, Deck, cards_str, parse_cards
from engine.events import Showed
from engine.export import ExportedHand, phh, pokerstars
from engine.hand import Hand, Straddle
from engine.hand_record import RecordedHand
from tests.engine.random_hands import play_out, random_hands
from tests.engine.test_hand_vs_pokerkit import stacks_with_pokerkit_odd_chips

HANDS = 500
"""Per test and kind of hand (twice as many in PHH): pokerkit takes 3 to 6 ms to read and
play a hand, on a shared machine."""
STARTED = datetime(2024, 6, 1, 12, 30, 5, tzinfo=UTC)


class PokerStarsWithAntes(PokerStarsParser):
    """pokerkit's PokerStars parser, also reading the ante lines PokerStars writes."""

    ANTE_POSTING = re.compile(r"(?P<player>.+): posts the ante (?P<ante>[0-9]+)")


def random_hand(rng: random.Random, *, ante: bool, short_of_ante: bool = False,
                straddle: Straddle | None = None) -> Hand:
    """A finished hand: 2 to 9 seats, short and deep stacks, sometimes run twice."""
    seats = rng.randint(2, 9)
    big_blind = rng.choice((2, 10, 20))
    ante_chips = rng.choice((1, big_blind // 2)) if ante else 0
    least = 1 if short_of_ante else ante_chips + 1
    stacks = [rng.randint(least, 3 * big_blind) if rng.random() < 0.2
              else rng.randint(least, 60 * big_blind) for _ in range(seats)]
    hand = Hand(stacks, rng.randrange(seats), big_blind // 2, big_blind, ante_chips,
                Deck(rng=rng), auto_muck=rng.random() < 0.5,
                offer_run_it_twice=rng.random() < 0.3, straddle=straddle)
    play_out(hand, rng)
    return hand


def exported(hand: Hand, hand_id: int, viewer: int) -> ExportedHand:
    """``hand`` as the ledger gives it back: its replay JSON read again."""
    record = RecordedHand.from_json(RecordedHand.from_hand(hand).to_json())
    return ExportedHand(hand_id=hand_id, record=record,
                        names=tuple(f"p{seat}" for seat in range(hand.num_seats)),
                        viewer=viewer, started_at=STARTED, table="#1")


def final_stacks(state: State, seat_of_index: list[int]) -> list[int]:
    """A finished pokerkit ``state``'s stacks in the engine's seat order."""
    stacks = [0] * len(seat_of_index)
    for index, stack in enumerate(state.stacks):
        stacks[seat_of_index[index]] = stack
    return stacks


@pytest.mark.slow
@pytest.mark.parametrize("ante", [False, True], ids=["no ante", "antes"])
def test_every_pokerstars_export_parses_in_pokerkit_and_ends_as_the_engine_did(ante):
    rng = random.Random(20250601 + ante)
    hands = [random_hand(rng, ante=ante) for _ in range(HANDS)]
    viewers = [rng.randrange(hand.num_seats) for hand in hands]
    text = pokerstars(exported(hand, number, viewer)
                      for number, (hand, viewer) in enumerate(zip(hands, viewers, strict=True)))
    parser = PokerStarsWithAntes() if ante else HandHistory.from_pokerstars
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns on folds where checking was possible
        parsed = list(parser(text, error_status=True))
        assert len(parsed) == HANDS
        for number, (hand, viewer, history) in enumerate(
                zip(hands, viewers, parsed, strict=True)):
            assert history.hand == number
            assert f"\nDealt to p{viewer} [{cards_str(hand.hole_cards(viewer))}]\n" in \
                text.split("PokerStars Hand #")[number + 1]
            if len(hand.boards) == 1:
                seat_of_index = [int(name[1:]) for name in history.players]
                assert final_stacks(list(history)[-1], seat_of_index) == \
                    stacks_with_pokerkit_odd_chips(hand), f"hand {number}"


@pytest.mark.slow
def test_every_phh_export_loads_in_pokerkit_and_ends_as_the_engine_did():
    rng = random.Random(20250602)
    hands = [random_hand(rng, ante=rng.random() < 0.5, short_of_ante=rng.random() < 0.1,
                         straddle=rng.choice([None, None, *Straddle]))
             for _ in range(2 * HANDS)]
    viewers = [rng.randrange(hand.num_seats) for hand in hands]
    text = phh(exported(hand, number + 1, viewer)
               for number, (hand, viewer) in enumerate(zip(hands, viewers, strict=True)))
    loaded = list(HandHistory.loads_all(text))
    assert len(loaded) == len(hands)
    compared = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for number, (hand, history) in enumerate(zip(hands, loaded, strict=True), start=1):
            assert history.hand == number
            seat_of_index = [seat - 1 for seat in history.seats]
            assert history.finishing_stacks == [hand.result.final_stacks[seat]
                                                for seat in seat_of_index]
            steps = list(history.state_actions)
            played = [action for _, action in steps if action is not None]
            assert played == history.actions, "pokerkit had to repair the actions"
            if len(hand.boards) > 1:
                assert history.user_defined_fields["_second_board"] == \
                    cards_str(hand.boards[1]).replace(" ", "")
            elif min(hand.starting_stacks) > hand.ante:
                compared += 1
                assert final_stacks(steps[-1][0], seat_of_index) == \
                    stacks_with_pokerkit_odd_chips(hand), f"hand {number}"
    assert compared > HANDS


def cards_written(text: str) -> set[Card]:
    """Every card named in an export: PokerStars writes them in brackets, PHH in its deals
    and shows (and ``_second_board``), two characters each, ``?`` for unknown."""
    found = re.findall(r"\[([^\]]*)\]", text) + re.findall(
        r'"(?:d dh p\d+|d db|p\d+ sm) ([^"]*)"|_second_board = "([^"]*)"', text)
    chunks = [part for item in found for part in ((item,) if isinstance(item, str) else item)]
    return {card for chunk in chunks
            for card in parse_cards(" ".join(re.findall(r"[2-9TJQKA][cdhs]", chunk)))}


@given(random_hands(run_it_twice=True))
def test_an_export_names_no_card_its_viewer_may_not_see(case):
    hand, rng = case
    play_out(hand, rng)
    shown = {event.seat for event in hand.events if isinstance(event, Showed)}
    for viewer in range(hand.num_seats):
        may_see = {card for board in hand.boards for card in board}
        may_see.update(card for seat in shown | {viewer} for card in hand.hole_cards(seat))
        for write in (pokerstars, phh):
            text = write([exported(hand, 1, viewer)])
            assert cards_written(text) <= may_see
            assert set(hand.hole_cards(viewer)) <= cards_written(text)


def test_names_the_formats_cannot_hold_are_written_so_that_pokerkit_reads_them():
    hand = random_hand(random.Random(7), ante=False)
    names = ("Ann: folds", "Bo [Ah Kd]", "C'''y\\\"", "\u5f20\u4e09\x7f\n", "", "Ann: folds",
             "Dee (button)", "x", "y")[:hand.num_seats]
    one = ExportedHand(hand_id=5, record=RecordedHand.from_hand(hand), names=names, viewer=0,
                       started_at=STARTED, table="#1")
    (history,) = HandHistory.loads_all(phh([one]))
    assert len(set(history.players)) == hand.num_seats
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (parsed,) = HandHistory.from_pokerstars(pokerstars([one]), error_status=True)
    assert sorted(parsed.players) == sorted(history.players)

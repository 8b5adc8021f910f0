"""Play a scripted hand from JSON and print its outcome, to compare with other poker engines.

``python -m engine.replay FILE`` (or ``-`` for stdin) reads one scenario::

    {"stacks": [1000, 500, 250], "button": 0, "small_blind": 5, "big_blind": 10, "ante": 0,
     "hole_cards": [["Ah","Kd"], ["7c","7d"], ["2s","3s"]],
     "board": ["Qh","Jc","Ts","4d","4c"],
     "actions": ["call", "raise 40", "fold", "call", "check", "bet 30", "allin", "call"]}

and prints ``{"final_stacks": [...], "pots": [{"amount": N, "winners": [...]}], "showdown":
[{"seat": i, "rank": r, "hand": "..."}], "error": null}``. An illegal action or a bad scenario
prints the same object with ``"error"`` saying what and where, and exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.actions import Action, ActionKind, LegalActions
from engine.cards import card_str, parse_cards
from engine.hand import Hand, IllegalActionError, deck_for


def apply_actions(hand: Hand, actions: Iterable[str | Action]) -> None:
    """Play ``actions`` in turn order, each by the seat whose turn it is.

    An illegal one raises ``IllegalActionError`` naming its position, seat and street.

    >>> from engine.cards import Deck
    >>> hand = Hand([100, 100, 100], button=0, small_blind=1, big_blind=2, deck=Deck())
    >>> apply_actions(hand, ["fold", "call", "check"])
    >>> hand.street.label
    'Flop'
    """
    for number, action in enumerate(actions, start=1):
        seat, street = hand.to_act, hand.street
        try:
            parsed = Action.parse(action) if isinstance(action, str) else action
            hand.act(seat if seat is not None else -1, parsed)
        except ValueError as error:
            raise IllegalActionError(
                f"action {number} ({action}) by seat {seat} on the {street.label.lower()}: {error}"
            ) from None


def random_action(legal: LegalActions, rng: random.Random) -> Action:
    """Any legal action, uniformly by kind, with bet and raise sizes that favour the edges.

    Used to drive random hands when comparing engines: it also folds when checking is free,
    and sizes are the minimum, the all-in, or anything between, a third of the time each.

    >>> from engine.actions import LegalActions
    >>> legal = LegalActions(seat=0, can_fold=True, can_check=True, can_call=False,
    ...                      call_amount=0, can_bet=False, can_raise=False, min_to=0, max_to=0,
    ...                      stack=50)
    >>> random_action(legal, random.Random(1)).kind in (ActionKind.FOLD, ActionKind.CHECK)
    True
    """
    kinds = [ActionKind.FOLD]
    if legal.can_check:
        kinds.append(ActionKind.CHECK)
    if legal.can_call:
        kinds.append(ActionKind.CALL)
    if legal.can_bet_or_raise:
        kinds.append(ActionKind.BET if legal.can_bet else ActionKind.RAISE)
    kind = rng.choice(kinds)
    if kind not in (ActionKind.BET, ActionKind.RAISE):
        return Action(kind)
    size = rng.randrange(3)
    to = legal.min_to if size == 0 else legal.max_to if size == 1 else rng.randint(
        legal.min_to, legal.max_to)
    return Action(kind, to)


def hand_with_cards(
    stacks: Sequence[int],
    hole_cards: Sequence[str | Sequence[str]],
    board: str | Sequence[str] = (),
    *,
    button: int = 0,
    small_blind: int = 5,
    big_blind: int = 10,
    ante: int = 0,
    **options: Any,
) -> Hand:
    """A new hand dealing these hole cards (one entry per seat) and this board.

    ``options`` are passed on to ``Hand`` (``auto_muck``, ``offer_run_it_twice``). Raises
    ``ValueError`` for bad cards or stakes, or a count of hole-card pairs unlike the stacks.

    >>> hand = hand_with_cards([100, 100], ["Ah Kd", "7c 7d"], "Qh Jc Ts 4d 4c")
    >>> apply_actions(hand, ["call"] + ["check"] * 7)
    >>> hand.result.final_stacks
    (110, 90)
    """
    holes = [parse_cards(cards) for cards in hole_cards]
    if len(holes) != len(stacks):
        raise ValueError(f"{len(stacks)} stacks but {len(holes)} pairs of hole cards")
    deck = deck_for(holes, parse_cards(board), button)
    return Hand(stacks, button, small_blind, big_blind, ante, deck, **options)


def run_scenario(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """Play one scenario (see the module docstring) and describe its outcome as JSON data."""
    board = parse_cards(scenario.get("board", []))
    hand = hand_with_cards(
        scenario["stacks"],
        scenario["hole_cards"],
        [card_str(card) for card in board],
        button=scenario["button"],
        small_blind=scenario["small_blind"],
        big_blind=scenario["big_blind"],
        ante=scenario.get("ante", 0),
    )
    apply_actions(hand, scenario["actions"])
    if hand.result is None:
        raise IllegalActionError(
            f"the actions ran out before the hand ended: seat {hand.to_act} is to act"
        )
    if len(hand.board) > len(board):
        raise ValueError(f"the hand needed {len(hand.board)} board cards, the scenario has "
                         f"{len(board)}")
    result = hand.result
    return {
        "final_stacks": list(result.final_stacks),
        "pots": [{"amount": award.amount, "winners": list(award.winners)}
                 for award in result.awards],
        "showdown": [{"seat": entry.seat, "rank": entry.rank, "hand": entry.hand_name}
                     for entry in result.showdown],
        "error": None,
    }


def main(argv: list[str] | None = None) -> int:
    """Read the scenario named on the command line, print the outcome, return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m engine.replay", description=__doc__.split(
        "\n")[0])
    parser.add_argument("file", help="a JSON scenario file, or - for stdin")
    arguments = parser.parse_args(argv)
    try:
        if arguments.file == "-":
            text = sys.stdin.read()
        else:
            with open(arguments.file, encoding="utf-8") as handle:
                text = handle.read()
        outcome = run_scenario(json.loads(text))
    except (OSError, ValueError, KeyError, TypeError) as error:
        message = f"missing key {error}" if isinstance(error, KeyError) else str(error)
        outcome = {"final_stacks": None, "pots": [], "showdown": [], "error": message}
    print(json.dumps(outcome))
    return 0 if outcome["error"] is None else 1


if __name__ == "__main__":
    sys.exit(main())

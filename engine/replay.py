"""Play a scripted hand from JSON and print its outcome, to compare with other poker engines.

``python -m engine.replay FILE`` (or ``-`` for stdin) reads one scenario, a JSON object::

    {"stacks": [1000, 500, 250], "button": 0, "small_blind": 5, "big_blind": 10, "ante": 0,
     "hole_cards": [["Ah","Kd"], ["7c","7d"], ["2s","3s"]],
     "board": ["Qh","Jc","Ts","4d","4c"],
     "actions": ["call", "raise 40", "fold", "call", "check", "bet 30", "allin", "call"]}

Its keys (no others are allowed):

  stacks       array of 2 to 10 whole numbers, 1 to 10^15: each seat's chips, clockwise
  button       whole number: the dealer's seat, 0 to len(stacks) - 1
  small_blind  whole number, 0 to 10^15 (at most the big blind)
  big_blind    whole number, 1 to 10^15
  ante         whole number, 0 to 10^15; optional, default 0
  hole_cards   array with one entry per seat: two cards, ["Ah","Kd"] or "Ah Kd"
  board        up to five cards, ["Qh","Jc","Ts"] or "Qh Jc Ts"; optional, default none.
               It must hold every card the hand needs
  actions      array of strings, in turn order: fold, check, call, allin, bet N or raise N
               (N is the street total bet to, in decimal digits)
  straddle     "utg" or "button": who posts a live straddle of two big blinds (see
               ``engine.hand.Straddle``); optional, default none

Cards are a rank (2-9, T or 10, J, Q, K, A) and a suit (c, d, h, s or ♣♦♥♠). Whole numbers
are JSON integers: not strings, floats or booleans.

It prints ``{"final_stacks": [...], "pots": [{"amount": N, "winners": [...]}], "showdown":
[{"seat": i, "rank": r, "hand": "..."}], "error": null}`` and exits with status 0. A file that
is not such a scenario, or an illegal action, prints the same object with "error" saying what
and where (and the error alone on stderr), and exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from engine.actions import Action, ActionKind, LegalActions
from engine.cards import Card, parse_card, parse_cards
from engine.hand import MAX_SEATS, MIN_SEATS, Hand, IllegalActionError, Straddle, deck_for

MAX_CHIPS = 10**15
"""The largest stack, blind or ante a scenario may give (far beyond any real table)."""
_MAX_DIGITS = 100
"""Longer JSON integers are refused while reading, before Python converts them; shorter ones
that are out of range are refused where they stand, with their place named."""
_MAX_TEXT = 64
"""The longest action or card text read; anything longer is no action or card."""
_KEYS = ("stacks", "button", "small_blind", "big_blind", "ante", "hole_cards", "board",
         "actions", "straddle")
_OPTIONAL = ("ante", "board", "straddle")


class ScenarioError(ValueError):
    """A scenario not of the documented format; the message says which part and why."""


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

    ``options`` are passed on to ``Hand`` (``auto_muck``, ``offer_run_it_twice``,
    ``straddle``). Raises
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


@dataclass(frozen=True, slots=True)
class Scenario:
    """A scenario read and checked against the documented format (see the module docstring)."""

    stacks: tuple[int, ...]
    button: int
    small_blind: int
    big_blind: int
    ante: int
    hole_cards: tuple[tuple[Card, ...], ...]
    board: tuple[Card, ...]
    actions: tuple[str, ...]
    straddle: Straddle | None = None


def parse_scenario(data: object) -> Scenario:
    """Check a decoded JSON value against the scenario format, so that playing it meets only
    poker errors. Raises ``ScenarioError`` naming the first bad part, like ``stacks[1]``.
    """
    if not isinstance(data, dict):
        raise ScenarioError(f"a scenario is a JSON object with keys {', '.join(_KEYS)}, "
                            f"not {_show(data)}")
    unknown = [key for key in data if key not in _KEYS]
    if unknown:
        raise ScenarioError(f"unknown key {_show(unknown[0])}: the keys are {', '.join(_KEYS)}")
    missing = [key for key in _KEYS if key not in data and key not in _OPTIONAL]
    if missing:
        names = ", ".join(repr(key) for key in missing)
        raise ScenarioError(f"missing key{'s' if len(missing) > 1 else ''} {names}")
    stacks = _array(data["stacks"], "stacks", "whole numbers")
    if not MIN_SEATS <= len(stacks) <= MAX_SEATS:
        raise ScenarioError(f"stacks must list {MIN_SEATS} to {MAX_SEATS} players, "
                            f"not {len(stacks)}")
    seats = len(stacks)
    holes = _array(data["hole_cards"], "hole_cards", "pairs of cards, one per seat")
    if len(holes) != seats:
        raise ScenarioError(f"hole_cards must give one pair per seat: {seats} stacks but "
                            f"{len(holes)} pairs")
    hole_cards = tuple(_cards(cards, f"hole_cards[{seat}]", 2, 2)
                       for seat, cards in enumerate(holes))
    return Scenario(
        stacks=tuple(_whole(stack, f"stacks[{seat}]", 1, MAX_CHIPS, " of chips")
                     for seat, stack in enumerate(stacks)),
        button=_whole(data["button"], "button", 0, seats - 1),
        small_blind=_whole(data["small_blind"], "small_blind", 0, MAX_CHIPS, " of chips"),
        big_blind=_whole(data["big_blind"], "big_blind", 1, MAX_CHIPS, " of chips"),
        ante=_whole(data.get("ante", 0), "ante", 0, MAX_CHIPS, " of chips"),
        hole_cards=hole_cards,
        board=_cards(data.get("board", []), "board", 0, 5),
        actions=tuple(_action_text(action, f"actions[{number}]") for number, action in
                      enumerate(_array(data["actions"], "actions", "strings"))),
        straddle=_straddle(data.get("straddle")),
    )


def _straddle(value: object) -> Straddle | None:
    if value is None:
        return None
    if isinstance(value, str) and value in tuple(Straddle):
        return Straddle(value)
    raise ScenarioError(f"straddle must be \"utg\" or \"button\", not {_show(value)}")


def _array(value: object, where: str, of: str) -> list[object]:
    if not isinstance(value, list):
        raise ScenarioError(f"{where} must be a list of {of}, not {_show(value)}")
    return value


def _whole(value: object, where: str, low: int, high: int, of: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        top = "10^15" if high == MAX_CHIPS else str(high)
        raise ScenarioError(f"{where} must be a whole number{of} from {low} to {top}, "
                            f"not {_show(value)}")
    return value


def _cards(value: object, where: str, least: int, most: int) -> tuple[Card, ...]:
    """Cards written as an array of card strings or as one string (``"Ah Kd"``)."""
    count = "two cards" if least == most == 2 else f"{least} to {most} cards"
    if least == 0:
        count = f"at most {most} cards"
    try:
        if isinstance(value, str):
            if len(value) > _MAX_TEXT:
                raise ScenarioError(f"{where} must be {count}, not {_show(value)}")
            cards = tuple(parse_cards(value))
        elif isinstance(value, list):
            cards = tuple(_card(card, f"{where}[{index}]") for index, card in enumerate(value))
        else:
            raise ScenarioError(f"{where} must be a list of cards like [\"Ah\", \"Kd\"] or "
                                f"a string like \"Ah Kd\", not {_show(value)}")
    except ScenarioError:
        raise
    except ValueError as error:
        raise ScenarioError(f"{where}: {error}") from None
    if not least <= len(cards) <= most:
        raise ScenarioError(f"{where} must be {count}, not {len(cards)}")
    return cards


def _card(value: object, where: str) -> Card:
    if not isinstance(value, str) or len(value) > _MAX_TEXT:
        raise ScenarioError(f"{where} must be a card like \"Ah\", not {_show(value)}")
    try:
        return parse_card(value)
    except ValueError as error:
        raise ScenarioError(f"{where}: {error}") from None


def _action_text(value: object, where: str) -> str:
    if not isinstance(value, str) or len(value) > _MAX_TEXT:
        raise ScenarioError(f"{where} must be an action like \"call\" or \"raise 40\", "
                            f"not {_show(value)}")
    return value


def _show(value: object) -> str:
    """A JSON value as an error message quotes it: short, on one line."""
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    if value is None:
        return "null"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:36] + "…"


class PotOutcome(TypedDict):
    """One pot of the outcome: its chips and who won them."""

    amount: int
    winners: list[int]


class ShowdownOutcome(TypedDict):
    """A hand shown at showdown: the seat, its evaluator rank and the hand's name."""

    seat: int
    rank: int
    hand: str


class Outcome(TypedDict):
    """What the command prints: the result, or ``error`` and nothing else."""

    final_stacks: list[int] | None
    pots: list[PotOutcome]
    showdown: list[ShowdownOutcome]
    error: str | None


def run_scenario(scenario: object) -> Outcome:
    """Play one scenario (a decoded JSON value, see the module docstring) and describe its
    outcome. Raises ``ScenarioError`` for a value not of the format, ``IllegalActionError``
    for an illegal action or actions that stop early, ``ValueError`` for impossible stakes
    or cards (blinds out of order, a card dealt twice, a board too short for the hand).
    """
    parsed = parse_scenario(scenario)
    board = parsed.board
    hand = Hand(parsed.stacks, parsed.button, parsed.small_blind, parsed.big_blind, parsed.ante,
                deck_for(parsed.hole_cards, board, parsed.button), straddle=parsed.straddle)
    apply_actions(hand, parsed.actions)
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


def load_json(text: str) -> object:
    """Decode a scenario file's text, refusing what ``json`` would take but no scenario needs
    (NaN, Infinity, integers too long to be chips) or cannot decode (deep nesting) with a
    ``ScenarioError``.
    """
    try:
        return json.loads(text, parse_int=_json_int, parse_constant=_json_constant)
    except json.JSONDecodeError as error:
        raise ScenarioError(f"the scenario is not JSON: {error}") from None
    except RecursionError:
        raise ScenarioError("the scenario is not JSON this reads: it nests too deeply") from None


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        raise ScenarioError(f"a number in the scenario has too many digits "
                            f"({len(text.lstrip('-'))}): chip amounts are at most 10^15")
    return int(text)


def _json_constant(name: str) -> float:
    raise ScenarioError(f"{name} is not a number a scenario may hold")


def main(argv: Sequence[str] | None = None) -> int:
    """Read the scenario named on the command line, print the outcome, return the exit status:
    0 for a played hand, 1 for any error (said on stdout in the JSON, and on stderr)."""
    summary, _, details = (__doc__ or "").partition("\n\n")
    parser = argparse.ArgumentParser(prog="python -m engine.replay", description=summary,
                                     epilog=details,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="a JSON scenario file, or - for stdin")
    arguments = parser.parse_args(argv)
    outcome: Outcome
    try:
        outcome = run_scenario(load_json(_read(arguments.file)))
    except ValueError as error:  # ScenarioError and IllegalActionError included
        message = " ".join(str(error).split())  # one line, whatever the scenario's text held
        outcome = {"final_stacks": None, "pots": [], "showdown": [], "error": message}
        print(f"{parser.prog}: error: {message}", file=sys.stderr)
    print(json.dumps(outcome))
    return 0 if outcome["error"] is None else 1


def _read(name: str) -> str:
    """The text of file ``name`` (``-``: stdin); raises ``ScenarioError`` if it cannot."""
    try:
        if name == "-":
            return sys.stdin.read()
        with open(name, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise ScenarioError(f"cannot read {name}: {reason}") from None


if __name__ == "__main__":
    sys.exit(main())

"""A played hand kept as data: enough to play it again, event for event, in a real ``Hand``.

A ``RecordedHand`` holds the start of a hand (stacks, button, stakes, options), every card it
dealt (hole cards and the board, or both boards when run twice), the actions in turn order
and the run-it-twice answer. ``to_json``/``from_json`` store it as one JSON object, a
superset of the ``engine.replay`` scenario (its keys read the same way) with these more:

  second_board        the second board when the hand was run twice (five cards), else absent
  run_it_twice        true or false when the question was asked, else absent (null)
  auto_muck           per seat, mucks a losing hand at showdown (default: all true); a seat
                      without it was asked to show or muck such a hand
  mucks               the seats asked that mucked (the others asked showed), else absent
  winner_shows        the cards the winner without a showdown showed ("Ah" or "Ah Kd"), else
                      absent
  offer_run_it_twice  whether all-in players were asked to run it twice (default false)

and ``straddle`` ("utg" or "button") as the scenario reads it, absent when nobody straddled:
records written before straddles existed read as hands without one.

``play`` deals the same cards again and applies the same actions, so the events, pots and
results are the engine's, never re-derived; ``steps`` yields the hand after each decision
for a front end that shows it move by move.

>>> from engine.hand import Hand, deck_for
>>> from engine.cards import parse_cards
>>> deck = deck_for([parse_cards("Ah Kd"), parse_cards("7c 7d")], parse_cards("Qh Jc Ts 4d 4c"),
...                 button=0)
>>> hand = Hand([1000, 1000], button=0, small_blind=5, big_blind=10, deck=deck)
>>> for seat, action in [(0, "raise 30"), (1, "call")] + [(1, "check"), (0, "check")] * 3:
...     hand.act(seat, Action.parse(action))
>>> record = RecordedHand.from_hand(hand)
>>> again = RecordedHand.from_json(record.to_json()).play()
>>> again.result == hand.result and again.events == hand.events
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from engine.actions import Action, ActionKind
from engine.cards import Card, Deck, cards_str, check_distinct, parse_cards
from engine.events import Mucked, RunItTwiceChosen, Showed
from engine.hand import Hand, IllegalActionError, Straddle, dealing_order
from engine.replay import ScenarioError, load_json, parse_scenario

_EXTRA_KEYS = ("second_board", "run_it_twice", "auto_muck", "offer_run_it_twice", "mucks",
               "winner_shows")
_BURN_BEFORE = (0, 3, 4)  # board positions that open a street: a card is burnt before each


@dataclass(frozen=True, slots=True)
class RecordedHand:
    """Everything needed to play a hand again exactly (see the module docstring)."""

    stacks: tuple[int, ...]
    button: int
    small_blind: int
    big_blind: int
    ante: int
    hole_cards: tuple[tuple[Card, ...], ...]
    """Two cards per seat, seat order: private, a viewer may see only what ``Hand`` shows."""
    boards: tuple[tuple[Card, ...], ...]
    """The board, or both boards when run twice (they share the cards dealt before)."""
    actions: tuple[Action, ...]
    run_it_twice: bool | None = None
    """The all-in players' answer, or ``None`` when they were not asked."""
    auto_muck: tuple[bool, ...] = ()
    """Per seat (empty: everyone mucks a losing hand)."""
    offer_run_it_twice: bool = False
    straddle: Straddle | None = None
    """Who straddled, or ``None`` when nobody did."""
    mucks: tuple[int, ...] = ()
    """The seats asked at showdown (without ``auto_muck``) that mucked; the others showed."""
    winner_shows: tuple[Card, ...] = ()
    """The cards the winner without a showdown showed (none, one or both)."""

    @classmethod
    def from_hand(cls, hand: Hand) -> RecordedHand:
        """The record of ``hand`` so far (finished or not)."""
        chosen = [event.agreed for event in hand.events if isinstance(event, RunItTwiceChosen)]
        return cls(
            stacks=hand.starting_stacks,
            button=hand.button,
            small_blind=hand.small_blind,
            big_blind=hand.big_blind,
            ante=hand.ante,
            hole_cards=tuple(hand.hole_cards(seat) for seat in range(hand.num_seats)),
            boards=hand.boards,
            actions=tuple(Action(record.kind, record.to if record.kind in (
                ActionKind.BET, ActionKind.RAISE) else 0) for record in hand.history),
            run_it_twice=chosen[0] if chosen else None,
            auto_muck=hand.auto_muck,
            offer_run_it_twice=hand.offer_run_it_twice,
            straddle=hand.straddle,
            mucks=tuple(event.seat for event in hand.events
                        if isinstance(event, Mucked) and not hand.auto_muck[event.seat]),
            winner_shows=next((event.cards for event in hand.events if isinstance(event, Showed)
                               and hand.result is not None and hand.result.ended_by_folds), ()),
        )

    def new_hand(self) -> Hand:
        """The hand as dealt, before any action, with the recorded cards coming."""
        return Hand(self.stacks, self.button, self.small_blind, self.big_blind, self.ante,
                    _deck(self.hole_cards, self.boards, self.button),
                    auto_muck=self.auto_muck or True,
                    offer_run_it_twice=self.offer_run_it_twice, straddle=self.straddle)

    def steps(self) -> Iterator[Hand]:
        """The same ``Hand`` as dealt, then after each action, the run-it-twice answer, the
        show-or-muck answers and the winner's show.

        Raises ``IllegalActionError`` when the record does not fit the rules (an action out of
        turn or illegal, a missing answer, actions left over or missing, a muck by a seat not
        asked, a show by a seat that may not show or of cards not its own).
        """
        hand = self.new_hand()
        yield hand
        for number, action in enumerate(self.actions, start=1):
            if hand.awaiting_run_it_twice:
                yield self._answer(hand)
            if hand.is_over:
                raise IllegalActionError(f"the hand ended before action {number} ({action})")
            seat = hand.to_act
            try:
                hand.act(seat if seat is not None else -1, action)
            except ValueError as error:
                raise IllegalActionError(f"action {number} ({action}) by seat {seat}: "
                                         f"{error}") from None
            yield hand
        if hand.awaiting_run_it_twice:
            yield self._answer(hand)
        asked = hand.awaiting_show_or_muck
        if set(self.mucks) - set(asked):
            raise IllegalActionError(f"seats {sorted(set(self.mucks) - set(asked))} were not "
                                     f"asked to show or muck")
        if asked:
            for seat in asked:
                hand.show_or_muck(seat, seat not in self.mucks)
            yield hand
        if not hand.is_over:
            raise IllegalActionError(f"the actions ran out before the hand ended: "
                                     f"seat {hand.to_act} is to act")
        if self.winner_shows:
            winner = next((seat for seat in range(hand.num_seats) if hand.can_show(seat)), -1)
            hand.show(winner, self.winner_shows)
            yield hand

    def play(self) -> Hand:
        """The finished hand, played again (raises like ``steps``)."""
        return list(self.steps())[-1]

    def shown_seats(self) -> frozenset[int]:
        """The seats whose two hole cards were made public (shown at showdown, or both by the
        winner without one); a seat that showed one card keeps the other private."""
        return frozenset(event.seat for event in self.play().events
                         if isinstance(event, Showed) and len(event.cards) == 2)

    def _answer(self, hand: Hand) -> Hand:
        if self.run_it_twice is None:
            raise IllegalActionError("the hand asks whether to run it twice; the record "
                                     "has no answer")
        hand.choose_run_it_twice(self.run_it_twice)
        return hand

    def to_json(self) -> str:
        """The record as one compact JSON object (see the module docstring)."""
        data: dict[str, object] = {
            "stacks": list(self.stacks), "button": self.button,
            "small_blind": self.small_blind, "big_blind": self.big_blind, "ante": self.ante,
            "hole_cards": [cards_str(cards) for cards in self.hole_cards],
            "board": cards_str(self.boards[0]) if self.boards else "",
            "actions": [str(action) for action in self.actions],
        }
        if len(self.boards) > 1:
            data["second_board"] = cards_str(self.boards[1])
        if self.run_it_twice is not None:
            data["run_it_twice"] = self.run_it_twice
        if self.auto_muck and not all(self.auto_muck):
            data["auto_muck"] = list(self.auto_muck)
        if self.offer_run_it_twice:
            data["offer_run_it_twice"] = True
        if self.straddle is not None:
            data["straddle"] = str(self.straddle)
        if self.mucks:
            data["mucks"] = list(self.mucks)
        if self.winner_shows:
            data["winner_shows"] = cards_str(self.winner_shows)
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> RecordedHand:
        """Read ``to_json``'s text back; ``ScenarioError`` names the first part that is not
        of the format. Whether the actions fit the rules is checked by ``steps``."""
        data = load_json(text)
        if not isinstance(data, dict):
            raise ScenarioError("a hand record is a JSON object")
        extra = {key: data.pop(key) for key in _EXTRA_KEYS if key in data}
        scenario = parse_scenario(data)
        boards = [scenario.board]
        if "second_board" in extra:
            try:
                boards.append(parse_scenario({**data, "board": extra["second_board"]}).board)
            except ScenarioError as error:
                raise ScenarioError(f"second_{error}") from None
        try:
            _deck(scenario.hole_cards, boards, scenario.button)
        except ValueError as error:
            raise ScenarioError(f"the cards cannot all be dealt: {error}") from None
        return cls(
            stacks=scenario.stacks, button=scenario.button, small_blind=scenario.small_blind,
            big_blind=scenario.big_blind, ante=scenario.ante, hole_cards=scenario.hole_cards,
            boards=tuple(boards),
            actions=tuple(_action(text, number) for number, text in
                          enumerate(scenario.actions)),
            run_it_twice=_flag(extra.get("run_it_twice"), "run_it_twice", optional=True),
            auto_muck=_flags(extra.get("auto_muck", []), len(scenario.stacks)),
            offer_run_it_twice=bool(_flag(extra.get("offer_run_it_twice", False),
                                          "offer_run_it_twice")),
            straddle=scenario.straddle,
            mucks=_seats(extra.get("mucks", []), len(scenario.stacks)),
            winner_shows=_shown_cards(extra.get("winner_shows", "")),
        )


def _seats(value: object, seats: int) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats
            for seat in value):
        raise ScenarioError(f"mucks must list seats from 0 to {seats - 1}")
    return tuple(value)


def _shown_cards(value: object) -> tuple[Card, ...]:
    try:
        if not isinstance(value, str):
            raise ValueError("not a string")
        cards = tuple(parse_cards(value))
    except ValueError as error:
        raise ScenarioError(f"winner_shows must be one or two cards like \"Ah Kd\": "
                            f"{error}") from None
    if len(cards) > 2:
        raise ScenarioError("winner_shows must be one or two cards like \"Ah Kd\"")
    return cards


def _action(text: str, number: int) -> Action:
    try:
        return Action.parse(text)
    except ValueError as error:
        raise ScenarioError(f"actions[{number}]: {error}") from None


def _flag(value: object, where: str, *, optional: bool = False) -> bool | None:
    if (value is None and optional) or isinstance(value, bool):
        return value
    raise ScenarioError(f"{where} must be true or false")


def _flags(value: object, seats: int) -> tuple[bool, ...]:
    if not isinstance(value, list) or (value and len(value) != seats) or not all(
            isinstance(flag, bool) for flag in value):
        raise ScenarioError(f"auto_muck must list true or false for each of the {seats} seats")
    return tuple(value)


def _deck(hole_cards: Sequence[Sequence[Card]], boards: Sequence[Sequence[Card]],
          button: int) -> Deck:
    """A deck that deals these hole cards, then the first board and the second board's own
    cards, burning an unused card before each street as ``Hand`` does (one deck, as for
    ``engine.hand.deck_for``, with a second run after the first)."""
    order = dealing_order(len(hole_cards), button)
    top = [hole_cards[seat][round_] for round_ in range(2) for seat in order]
    shared = 0
    if len(boards) > 1:
        while shared < min(map(len, boards)) and boards[0][shared] == boards[1][shared]:
            shared += 1
    dealt = [(position, card) for run, board in enumerate(boards)
             for position, card in enumerate(board) if run == 0 or position >= shared]
    check_distinct(top + [card for _, card in dealt])
    known = set(top) | {card for _, card in dealt}
    burns = iter(card for card in range(52) if card not in known)
    for position, card in dealt:
        if position in _BURN_BEFORE:
            top.append(next(burns))
        top.append(card)
    return Deck.replaying(top)

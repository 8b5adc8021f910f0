"""A player's recorded hands as files for other tools, each as that player may see it.

Two formats, written from ``RecordedHand`` (the replay the ledger keeps per hand), so the
cards, actions and results are the engine's own:

* PokerStars text (``pokerstars``), which PokerTracker 4, Hold'em Manager and GTO Wizard
  import: ``engine.history``'s writer with the viewer as hero, so it always has a
  "Dealt to" line with the viewer's cards; other players' cards only where they were shown
  (at showdown, or by a winner without one: "shows [Ah]" after the pot is collected, a line
  pokerkit's parser passes over). Each hand is followed by two blank lines, as PokerStars
  writes them.
* PHH, the open Poker Hand History standard (``phh``): a ``.phhs`` file whose hands are TOML
  tables named by hand id, as ``pokerkit.HandHistory.loads_all`` reads them, each followed
  by a blank line. Players are listed from the seat left of the button (the button last),
  as PHH counts them; cards the viewer may not see are ``??`` each; the engine's final stacks
  are in ``finishing_stacks``.

What the formats cannot carry (said in README too):

* Run it twice. The PokerStars text writes both boards as PokerStars does ("FIRST FLOP",
  "SECOND FLOP"), which tracking tools read but pokerkit's parser does not (it sees no
  board). PHH as pokerkit 0.7 reads it has no action choosing the number of runs: the
  hand is written with its first board and the second in ``_second_board``; played again
  there it ends as if run once, so only ``finishing_stacks`` has the real result.
* Antes, in pokerkit's PokerStars parser, which reads no ante lines: such hands parse, but
  pokerkit plays them without antes. PHH carries them, but pokerkit puts a whole ante in
  the main pot even beside a player who could not cover it, where the engine keeps that
  player to the part they paid for: such hands end otherwise there.
* Straddles, in pokerkit's PokerStars parser, which reads no "posts straddle" line. PHH
  carries them in ``blinds_or_straddles`` (at the straddler's place), but not the rule that
  the preflop's minimum raise is the straddle: pokerkit allows smaller raises there, so the
  hands play the same but their legal choices are not all the engine's.
* Odd chips: the engine gives a split pot's odd chips one by one from the first winner
  left of the button (the rule); pokerkit gives a pot's whole remainder to that first
  winner.
* Tournament hands are written as cash hands in the tournament's play chips.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from engine.actions import ActionKind
from engine.cards import Card, cards_str
from engine.events import Acted, Mucked, Showed, StreetDealt
from engine.hand import Hand, dealing_order
from engine.hand_record import RecordedHand
from engine.history import format_hand_history


@dataclass(frozen=True, slots=True)
class ExportedHand:
    """One recorded hand and what its export says beside the play."""

    hand_id: int
    record: RecordedHand
    names: tuple[str, ...]
    """The players' names in seat order (cleaned for the formats by the writers)."""
    viewer: int
    """The seat of the person the export is for: theirs are the only unshown cards in it."""
    started_at: datetime
    table: str


def pokerstars(hands: Iterable[ExportedHand]) -> str:
    """The hands as one PokerStars hand-history file (see the module docstring); the files
    of several lists of hands, one after another, are the file of them all.

    Raises ``engine.hand.IllegalActionError`` for a record that does not play.
    """
    return "".join(
        format_hand_history(hand.record.play(), hand_id=hand.hand_id, table_name=hand.table,
                            player_names=export_names(hand.names),
                            started_at=hand.started_at, hero=hand.viewer) + "\n\n"
        for hand in hands)


def phh(hands: Iterable[ExportedHand]) -> str:
    """The hands as one PHH ``.phhs`` file, a TOML table per hand (see the module docstring);
    the files of several lists of hands, one after another, are the file of them all.

    Raises ``engine.hand.IllegalActionError`` for a record that does not play.
    """
    return "".join(_phh_hand(hand) + "\n" for hand in hands)


def export_names(names: Sequence[str]) -> list[str]:
    """``names`` as the hand-history formats can carry them: on one line, without the
    brackets, parentheses and colons their parsers split lines at, never empty, and all
    different (parsers and tracking tools tell players apart by name).

    >>> export_names(["Ann", "Ann", " ", "Bo: [x]"])
    ['Ann', 'Ann_2', 'Player 3', 'Bo_ _x_']
    """
    cleaned = [" ".join(_SPLITTERS.sub("_", name).split()) or f"Player {seat + 1}"
               for seat, name in enumerate(names)]
    unique: list[str] = []
    for seat, name in enumerate(cleaned):
        if name in unique:
            while name in unique or name in cleaned:
                name = f"{name}_{seat + 1}"
        unique.append(name)
    return unique


_SPLITTERS = re.compile(r"[:\[\]()\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _phh_hand(exported: ExportedHand) -> str:
    hand = exported.record.play()
    result = hand.result
    assert result is not None  # play() ends the hand
    order = dealing_order(hand.num_seats, hand.button)
    player = {seat: f"p{index + 1}" for index, seat in enumerate(order)}
    shown = hand.shown
    actions = [
        f"d dh {player[seat]} " + "".join(
            _cards([card]) if seat == exported.viewer or card in shown.get(seat, ()) else "??"
            for card in hand.hole_cards(seat))
        for seat in order]
    actions += _phh_actions(hand, player)
    names = export_names(exported.names)
    started = exported.started_at
    blinds = [hand.small_blind, hand.big_blind] + [0] * (hand.num_seats - 2)
    if hand.straddle_seat is not None:
        blinds[order.index(hand.straddle_seat)] = hand.straddle_amount
    fields: list[tuple[str, object]] = [
        ("variant", "NT"),
        ("antes", [hand.ante] * hand.num_seats),
        ("blinds_or_straddles", blinds),
        ("min_bet", hand.big_blind),
        ("starting_stacks", [hand.starting_stacks[seat] for seat in order]),
        ("actions", actions),
        ("hand", exported.hand_id),
        ("table", exported.table),
        ("seat_count", hand.num_seats),
        ("seats", [seat + 1 for seat in order]),
        ("players", [names[seat] for seat in order]),
        ("year", started.year), ("month", started.month), ("day", started.day),
        ("time", _Raw(f"{started:%H:%M:%S}")),
        ("time_zone", started.tzname() or "UTC"),
        ("finishing_stacks", [result.final_stacks[seat] for seat in order]),
    ]
    if len(hand.boards) > 1:
        fields.append(("_second_board", _cards(hand.boards[1])))
    return f"[{exported.hand_id}]\n" + "".join(
        f"{key} = {_toml(value)}\n" for key, value in fields)


def _phh_actions(hand: Hand, player: dict[int, str]) -> list[str]:
    """The hand's actions, boards and showdown as PHH writes them; a winner's show after
    everyone folded is only in its dealing line (PHH has no action after the hand's end)."""
    actions: list[str] = []
    ended_by_folds = hand.result is not None and hand.result.ended_by_folds
    for event in hand.events:
        match event:
            case Acted(record=record):
                kind = record.kind
                actions.append(f"{player[record.seat]} " + (
                    "f" if kind is ActionKind.FOLD
                    else f"cbr {record.to}" if kind in (ActionKind.BET, ActionKind.RAISE)
                    else "cc"))
            case StreetDealt(cards=cards, run=0):
                actions.append(f"d db {_cards(cards)}")
            case Showed(seat=seat, cards=cards) if not ended_by_folds:
                actions.append(f"{player[seat]} sm {_cards(cards)}")
            case Mucked(seat=seat):
                actions.append(f"{player[seat]} sm")
            case _:
                pass  # posts, uncalled bets and winnings follow from the rules
    return actions


def _cards(cards: Sequence[Card]) -> str:
    return cards_str(cards).replace(" ", "")


class _Raw(str):
    """A TOML value written as it is (a local time)."""


def _toml(value: object) -> str:
    """``value`` as a TOML value: strings as basic strings (JSON's escapes are TOML's, but
    for DEL, which TOML wants escaped)."""
    if isinstance(value, _Raw):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return str(value)

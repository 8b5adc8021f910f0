"""The frames of a hand's replay, as one viewer may see them.

A real engine ``Hand`` is stepped through the ``RecordedHand`` and its events are narrated one
picture at a time, each a ``TableState`` for the live table's renderer:

- one frame for the deal (antes and blinds posted, hole cards dealt);
- one per action, per uncalled bet returned and per run-it-twice answer;
- per street dealt: one as the bets move into the pot (still the street they were made on,
  saying which street comes next), then one per card (card by card);
- one for the showdown (hands shown with their names, mucked hands face down), if any;
- one for the result: the pots awarded;
- one for the cards the winner without a showdown chose to show, if any.

The seat ``you`` names (the offline player, drawn as "You") is told in the second person
("You call 40", not "You calls 40").

Hole cards follow ``/history``'s rule: the viewer's own from the deal, others' only once
shown (at showdown, or the card or two a winner without one showed); every other live hand is
drawn face down. Frames marked ``key`` (the deal, each street's finished board, the showdown,
the result) make the shorter streets-only replay.
Each frame's line under the table is a ``Text``, drawn in the language of whoever asks for
the images (``draw_table(..., language=...)``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from bot.i18n import Text, tr
from bot.i18n.poker import street_name
from bot.tables.notifier import SeatState, TableState
from engine.actions import ActionKind, Street
from engine.cards import Card, cards_str
from engine.events import (
    Acted,
    Event,
    Forced,
    HoleCardsDealt,
    Mucked,
    Posted,
    RunItTwiceChosen,
    Showed,
    StreetDealt,
    UncalledBetReturned,
    Won,
)
from engine.hand_record import RecordedHand

DEAL_MS = 1200
ACTION_MS = 900
CARD_MS = 450
SHOWDOWN_MS = 2500
RESULT_MS = 4000
"""How long each kind of frame stays up: an action long enough to read its line, a card
short (the flop's three read as one deal), the showdown and the result long enough to find
the hand names; the result stays longest because it is also the still image."""

@dataclass(frozen=True, slots=True)
class Frame:
    """One picture: the table, the seats whose cards are face down, and its duration."""

    state: TableState
    face_down: frozenset[int]
    duration_ms: int
    key: bool
    """Kept in a streets-only replay."""


def replay_frames(record: RecordedHand, names: Sequence[str], viewer: int | None, *,
                  title: int, you: int | None = None) -> list[Frame]:
    """Every frame of the replay for ``viewer`` (a seat of the hand, or ``None`` for someone
    who was not dealt in). ``names`` are the seats' names; ``title`` is the hand number in the
    header; ``you`` is the seat whose name is "You" (its lines in the second person). Raises
    ``IllegalActionError`` for a record that does not fit the rules."""
    if len(names) != len(record.stacks):
        raise ValueError(f"need {len(record.stacks)} names, got {len(names)}")
    table = _Narrator(record, names, viewer, title, you)
    seen, events = 0, []
    for hand in record.steps():
        events = hand.events
        for group in _grouped(events[seen:]):
            table.tell(group)
        seen = len(events)
    if not any(isinstance(event, Won) for event in events):
        table.result([])
    return table.frames


def _grouped(events: Iterable[Event]) -> Iterator[list[Event]]:
    """Events told in one frame together: the deal, the showdown, the awards; else one each."""
    def kind(event: Event) -> object:
        if isinstance(event, Posted | HoleCardsDealt):
            return "deal"
        if isinstance(event, Showed | Mucked):
            return "showdown"
        if isinstance(event, Won):
            return "won"
        return id(event)

    for _, group in itertools.groupby(events, key=kind):
        yield list(group)


class _Narrator:
    """The table as the events left it so far, and the frames drawn of it."""

    def __init__(self, record: RecordedHand, names: Sequence[str], viewer: int | None,
                 title: int, you: int | None) -> None:
        seats = len(record.stacks)
        self.record, self.names, self.title, self.you = record, list(names), title, you
        self.stacks = list(record.stacks)
        self.bets = [0] * seats
        self.pot = 0
        self.folded = [False] * seats
        self.hole: dict[int, tuple[Card, ...]] = {}
        self.shown: set[int] = {viewer} if viewer is not None else set()
        self.boards: list[list[Card]] = [[]]
        self.street = Street.PREFLOP
        self.frames: list[Frame] = []

    def tell(self, group: list[Event]) -> None:
        """Apply one frame's events (see ``_grouped``) and draw the table after them."""
        first = group[0]
        if isinstance(first, Posted | HoleCardsDealt):
            self._deal(group)
        elif isinstance(first, Acted):
            record = first.record
            self.stacks[record.seat] -= record.added
            self.bets[record.seat] = record.to
            self.folded[record.seat] = record.kind is ActionKind.FOLD
            self._draw(_said(self.names[record.seat], record.kind, record.to, record.added,
                             record.is_all_in, you=record.seat == self.you),
                       ACTION_MS, active=record.seat)
        elif isinstance(first, UncalledBetReturned):
            self.bets[first.seat] -= first.amount
            self.stacks[first.seat] += first.amount
            self._draw(tr("{amount} returned to you", amount=first.amount)
                       if first.seat == self.you else
                       tr("{amount} returned to {name}", amount=first.amount,
                          name=self.names[first.seat]), ACTION_MS)
        elif isinstance(first, RunItTwiceChosen):
            self._draw(tr("Running it twice") if first.agreed else tr("Running it once"),
                       ACTION_MS)
        elif isinstance(first, StreetDealt):
            self._street(first)
        elif isinstance(first, Showed) and self.record.winner_shows:
            # The winner without a showdown showed after the awards: only the cards shown.
            if first.seat not in self.shown:
                self.hole[first.seat] = first.cards
                self.shown.add(first.seat)
            cards = cards_str(first.cards, pretty=True)
            self._draw(tr("You show {cards}", cards=cards) if first.seat == self.you else
                       tr("{name} shows {cards}", name=self.names[first.seat], cards=cards),
                       RESULT_MS, key=True)
        elif isinstance(first, Showed | Mucked):
            self._collect(Street.SHOWDOWN)
            self.shown |= {event.seat for event in group if isinstance(event, Showed)}
            mucked = [self.names[event.seat] for event in group if isinstance(event, Mucked)]
            self._draw(tr("Showdown · {names} mucked", names=mucked) if mucked
                       else street_name(Street.SHOWDOWN), SHOWDOWN_MS, key=True)
        elif isinstance(first, Won):
            self.result(group)

    def result(self, group: list[Event]) -> None:
        """The pots awarded (``group``: the ``Won`` events; none when no chips were at
        stake, like a blind of 0 and an all-in of one chip returned)."""
        self._collect(self.street)
        for event in group:
            if isinstance(event, Won):
                self.stacks[event.seat] += event.amount
                self.pot -= event.amount
        self._draw(self._awards(group) or tr("The hand is over"), RESULT_MS, key=True)

    def _deal(self, group: list[Event]) -> None:
        posted: list[Text] = []
        for event in group:
            if isinstance(event, Posted):
                self.stacks[event.seat] -= event.amount
                if event.forced is Forced.ANTE:
                    self.pot += event.amount
                else:
                    self.bets[event.seat] += event.amount
                    posted.append(self._posted(event))
            elif isinstance(event, HoleCardsDealt):
                self.hole[event.seat] = event.cards
        self._draw(_joined(posted) or tr("Cards dealt"), DEAL_MS, key=True)

    def _posted(self, event: Posted) -> Text:
        """A blind or straddle posted, as a line under the table."""
        amount = event.amount
        if event.seat == self.you:
            return (tr("You post the small blind {amount}", amount=amount)
                    if event.forced is Forced.SMALL_BLIND else
                    tr("You post a straddle of {amount}", amount=amount)
                    if event.forced is Forced.STRADDLE else
                    tr("You post the big blind {amount}", amount=amount))
        name = self.names[event.seat]
        return (tr("{name} posts the small blind {amount}", name=name, amount=amount)
                if event.forced is Forced.SMALL_BLIND else
                tr("{name} posts a straddle of {amount}", name=name, amount=amount)
                if event.forced is Forced.STRADDLE else
                tr("{name} posts the big blind {amount}", name=name, amount=amount))

    def _street(self, event: StreetDealt) -> None:
        label = street_name(event.street) if event.run == 0 else \
            tr("Second board: {street}", street=street_name(event.street))
        # The bets go in on the street they were made on: its header and cards, not the next.
        self._collect(self.street)
        if event.run >= len(self.boards):  # the second board starts from the cards shared
            self.boards.append(self.boards[0][:_SHARED_BEFORE[event.street]])
        self._draw(tr("Next: {street}", street=label), CARD_MS)
        self.street = event.street
        for number, card in enumerate(event.cards, start=1):
            self.boards[event.run].append(card)
            self._draw(label, CARD_MS, key=number == len(event.cards))

    def _collect(self, street: Street) -> None:
        """The street's bets move into the pot."""
        self.pot += sum(self.bets)
        self.bets = [0] * len(self.bets)
        self.street = street

    def _awards(self, group: list[Event]) -> Text | None:
        runs = len(self.boards)
        parts = []
        for event in group:
            if isinstance(event, Won):
                award = (tr("You win {amount}", amount=event.amount) if event.seat == self.you
                         else tr("{name} wins {amount}", name=self.names[event.seat],
                                 amount=event.amount))
                if event.pot:
                    award = tr("{award} (side pot)", award=award)
                if runs > 1:
                    award = tr("{award} on the first board", award=award) if event.run == 0 \
                        else tr("{award} on the second board", award=award)
                parts.append(award)
        return _joined(parts)

    def _draw(self, text: Text, duration_ms: int, *, key: bool = False,
              active: int | None = None) -> None:
        record = self.record
        live = [seat for seat in range(len(self.stacks)) if not self.folded[seat]]
        seats = tuple(
            SeatState(
                seat=seat, name=self.names[seat], user_id=None, bot_level=None,
                stack=self.stacks[seat], bet=self.bets[seat], in_hand=True,
                folded=self.folded[seat], all_in=seat in live and self.stacks[seat] == 0,
                sitting_out=False, leaving=False, is_button=seat == record.button,
                shown_cards=self.hole.get(seat, ()) if seat in self.shown
                and seat in live else ())
            for seat in range(len(self.stacks)))
        boards = tuple(tuple(board) for board in self.boards)
        state = TableState(
            guild_id=0, channel_id=0, hand_number=self.title, hand_id=None,
            is_hand_running=True, street=self.street, board=boards[0], boards=boards,
            pots=(), pot_total=self.pot + sum(self.bets), seats=seats, button_seat=record.button,
            to_act_seat=active, to_act_deadline=None, last_action=text,
            small_blind=record.small_blind, big_blind=record.big_blind, ante=record.ante,
            max_seats=len(self.stacks))
        face_down = frozenset(seat for seat in live if seat not in self.shown)
        self.frames.append(Frame(state, face_down, duration_ms, key))


_SHARED_BEFORE = {Street.FLOP: 0, Street.TURN: 3, Street.RIVER: 4}
"""Board cards both runs share when the second run starts dealing at this street."""


def _said(name: str, kind: ActionKind, to: int, added: int, all_in: bool, *,
          you: bool) -> Text:
    """An action as a line under the table, like ``"Ann raises to 60"``, or ``"You raise to
    60"`` for ``you``."""
    if you:
        text = (tr("You bet {amount}", amount=to) if kind is ActionKind.BET else
                tr("You raise to {amount}", amount=to) if kind is ActionKind.RAISE else
                tr("You call {amount}", amount=added) if kind is ActionKind.CALL else
                tr("You fold") if kind is ActionKind.FOLD else tr("You check"))
        return tr("{action} and are all-in", action=text) if all_in else text
    text = (tr("{name} bets {amount}", name=name, amount=to) if kind is ActionKind.BET else
            tr("{name} raises to {amount}", name=name, amount=to) if kind is ActionKind.RAISE
            else tr("{name} calls {amount}", name=name, amount=added)
            if kind is ActionKind.CALL else
            tr("{name} folds", name=name) if kind is ActionKind.FOLD else
            tr("{name} checks", name=name))
    return tr("{action} and is all-in", action=text) if all_in else text


def _joined(parts: Sequence[Text]) -> Text | None:
    """Lines told in one frame, side by side (``"a · b"``), or ``None`` for none."""
    if not parts:
        return None
    joined = parts[0]
    for part in parts[1:]:
        joined = tr("{first} · {second}", first=joined, second=part)
    return joined

"""The hand a table is playing: the engine's ``Hand``, who was dealt in, and its turn facts.

The runner deals and settles it, requests act on it, the public state reads it. It is kept
after the hand ends (for the final state: the board, the cards shown) until the next deal.
"""

from __future__ import annotations

from datetime import UTC, datetime

from bot.i18n import Text, tr
from bot.i18n.poker import action_text, why_illegal
from bot.tables.errors import IllegalAction, NotYourTurn
from bot.tables.pre_actions import PreAction, PreActionChoices
from bot.tables.seats import Seat
from engine.actions import Action
from engine.cards import Card
from engine.hand import Hand, IllegalActionError
from engine.view import PlayerView


class CurrentHand:
    """The current (or last) hand of one table.

    ``seats[p]`` is the seat that plays position ``p`` of the hand; ``positions`` maps a table
    seat index back to its position. ``awaiting`` and ``deadline`` are set while a person's
    turn is open; ``actions_taken`` counts every change of turn, so a waiting runner can tell
    that someone acted.
    """

    __slots__ = (
        "actions_taken",
        "awaiting",
        "button",
        "deadline",
        "hand",
        "hand_id",
        "last_action",
        "last_id",
        "number",
        "positions",
        "pre_actions",
        "running",
        "seats",
        "started_at",
        "time_bank_until",
    )

    def __init__(self) -> None:
        self.hand: Hand | None = None
        """The engine's hand, or ``None`` before the first deal and after a refund."""
        self.seats: list[Seat] = []
        """The seats dealt in, by position in the hand."""
        self.positions: dict[int, int] = {}
        """Table seat index -> position in the hand."""
        self.hand_id: int | None = None
        """The ledger's id of the running hand (``None`` once settled or refunded)."""
        self.last_id = 0
        """The ledger's id of the current or last hand (0 before the first deal): the hand's
        number wherever a person sees it (the table, DMs, ``/history``, ``/replay``), which
        no restart and no other table repeats."""
        self.number = 0
        """The table's count of hands dealt (the current one included)."""
        self.running = False
        """True from the deal until the hand is settled or refunded."""
        self.button: int | None = None
        """The table seat index of the button in the current (or last) hand."""
        self.started_at = datetime.now(UTC)
        """When the current (or last) hand was dealt."""
        self.awaiting: Seat | None = None
        """The person whose turn is open, while it is."""
        self.deadline: float | None = None
        """When that turn's timer runs out (unix timestamp)."""
        self.time_bank_until: float | None = None
        """While the person to act is using their time bank: when it runs out (unix
        timestamp)."""
        self.last_action: Text | None = None
        """The last action, as shown to everyone (``"Ann: raise 60"``)."""
        self.actions_taken = 0
        """Incremented by every action and run-it-twice choice."""
        self.pre_actions: dict[int, PreAction] = {}
        """Table seat index -> the pre-action its person chose for their next turn."""

    def begin(self, hand: Hand, seats: list[Seat], hand_id: int, button_position: int) -> None:
        """A new hand was dealt to ``seats`` and recorded in the ledger as ``hand_id``."""
        self.number += 1
        self.hand, self.seats, self.hand_id, self.running = hand, seats, hand_id, True
        self.last_id = hand_id
        self.positions = {seat.index: position for position, seat in enumerate(seats)}
        self.button = seats[button_position].index
        self.started_at = datetime.now(UTC)
        self.last_action = None
        self.pre_actions = {}

    def next_button(self, dealt: list[Seat]) -> int:
        """The position (in ``dealt``) of the next button: the first seat clockwise after the
        previous button, so the button moves every hand."""
        if self.button is None:
            return 0
        return next((p for p, seat in enumerate(dealt) if seat.index > self.button), 0)

    def require(self) -> Hand:
        """The hand; ``RuntimeError`` when there is none."""
        if self.hand is None:
            raise RuntimeError("no hand is being played")
        return self.hand

    def position_of(self, seat: Seat) -> int | None:
        """The seat's position in the current (or last) hand, if it was dealt in."""
        position = self.positions.get(seat.index)
        if position is None or self.seats[position] is not seat:
            return None
        return position

    def is_dealt_in(self, seat: Seat) -> bool:
        """True when the seat plays in the running hand."""
        return self.running and self.position_of(seat) is not None

    def hole_cards(self, seat: Seat) -> tuple[Card, ...] | None:
        """The seat's cards in the running hand, or ``None``."""
        position = self.position_of(seat)
        if position is None or not self.running or self.hand is None:
            return None
        return self.hand.hole_cards(position)

    def view_of(self, seat: Seat) -> PlayerView | None:
        """The running hand as ``seat``'s player sees it, while they are dealt in and have not
        folded (``None`` otherwise)."""
        position = self.position_of(seat)
        if position is None or not self.running or self.hand is None \
                or self.hand.folded[position]:
            return None
        return self.hand.view(position)

    def pre_action_choices(self, seat: Seat) -> PreActionChoices | None:
        """What ``seat``'s person may choose ahead of their turn now: ``None`` unless they
        are dealt into the running hand, still in it with chips behind, and not to act."""
        position = self.position_of(seat)
        hand = self.hand
        if (position is None or hand is None or not self.running or hand.is_over
                or hand.to_act == position or hand.folded[position]
                or hand.stacks[position] == 0 or self.hand_id is None):
            return None
        chosen = self.pre_actions.get(seat.index)
        if chosen is not None and chosen.street is not hand.street:
            chosen = None
        to_call = min(hand.current_bet - hand.bets[position], hand.stacks[position])
        return PreActionChoices(self.hand_id, hand.street, to_call, chosen)

    def take_pre_action(self, seat: Seat) -> PreAction | None:
        """Hand out (and forget) ``seat``'s pre-action at its turn, if it was chosen on this
        street of this hand."""
        chosen = self.pre_actions.pop(seat.index, None)
        hand = self.hand
        if chosen is None or hand is None or chosen.hand != self.hand_id \
                or chosen.street is not hand.street:
            return None
        return chosen

    def seat_to_act(self) -> Seat:
        """The seat whose turn it is; ``RuntimeError`` when nobody is to act."""
        position = self.require().to_act
        if position is None:
            raise RuntimeError("nobody is to act")
        return self.seats[position]

    def apply(self, seat: Seat, action: Action) -> None:
        """Apply ``seat``'s action (the caller holds the table's lock).

        Raises ``NotYourTurn`` unless ``seat`` is to act and ``IllegalAction`` when the rules
        refuse the action; either way nothing changed.
        """
        hand = self.require()
        position = hand.to_act
        if position is None or self.seats[position] is not seat:
            raise NotYourTurn()
        try:
            hand.act(position, action)
        except IllegalActionError as error:
            # A refused action changed nothing: the legal actions are still those it broke.
            raise IllegalAction(why_illegal(hand.legal_actions(), action)) from error
        self.last_action = action_text(seat.name, hand.history[-1])
        self.actions_taken += 1
        self.time_bank_until = None

    def choose_run_it_twice(self, agree: bool) -> None:
        """Record the answer to the run-it-twice question in the hand."""
        self.require().choose_run_it_twice(agree)
        self.last_action = tr("Running it twice") if agree else tr("Running it once")
        self.actions_taken += 1

    def end(self) -> None:
        """The hand is over (settled or refunded): no hand id, no open turn."""
        self.running = False
        self.hand_id = None
        self.awaiting = self.deadline = self.time_bank_until = None

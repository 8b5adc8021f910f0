"""What a front end implements to show a table, and the public snapshots it is given.

The runtime calls a ``Notifier``; the Discord adapter, the terminal front end and the tests'
recording fake are implementations. Every snapshot here is a frozen copy that is safe to keep
and to show to everyone in the channel: hole cards appear in ``TableState`` only for hands
shown (at showdown, or both cards by a winner without one). A player's own cards travel only
through ``Notifier.hole_cards``.

Front ends may coalesce ``table_changed`` calls (Discord allows about five edits per five
seconds per channel); the runtime never assumes each one was delivered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.i18n import Message, Text
from bot.pickling import reduce_by_fields
from bot.tables.tournament_status import PlayerMoved, TournamentResults, TournamentStatus
from engine.actions import LegalActions, Street
from engine.cards import Card


@dataclass(frozen=True, slots=True)
class SeatState:
    """One occupied seat as everyone sees it. ``user_id`` is ``None`` for a bot.

    ``in_hand`` is true when the seat was dealt into the current (or last) hand;
    ``shown_cards`` holds cards turned face up at showdown, and nothing before.
    """

    seat: int
    name: str
    user_id: int | None
    bot_level: str | None
    stack: int
    bet: int
    in_hand: bool
    folded: bool
    all_in: bool
    sitting_out: bool
    leaving: bool
    is_button: bool
    shown_cards: tuple[Card, ...] = ()

    __reduce__ = reduce_by_fields  # pictured about ten times a hand (bot.pickling)

    @property
    def is_bot(self) -> bool:
        """True for a bot opponent."""
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class PotState:
    """A pot (the main pot first, then side pots) and who can win it, by seat."""

    amount: int
    eligible_seats: tuple[int, ...]

    __reduce__ = reduce_by_fields  # pictured about ten times a hand (bot.pickling)


@dataclass(frozen=True, slots=True)
class TableState:
    """The public view of a table: seats, stacks, bets, pots, board(s), whose turn.

    ``to_act_deadline`` is a unix timestamp (``time.time()`` clock). ``boards`` has two boards
    when the hand is run twice, and otherwise one (equal to ``board``).
    """

    guild_id: int
    channel_id: int
    hand_number: int
    """The current or last hand's number (0 before the first): its ledger id, so the table,
    DMs, ``/history`` and ``/replay`` name a hand by the same number, across restarts."""
    hand_id: int | None
    """The ledger's id of the running hand (``None`` between hands): what a question or button
    about this hand names, since it stays unique across tables and restarts."""
    is_hand_running: bool
    street: Street | None
    board: tuple[Card, ...]
    boards: tuple[tuple[Card, ...], ...]
    pots: tuple[PotState, ...]
    pot_total: int
    seats: tuple[SeatState, ...]
    button_seat: int | None
    to_act_seat: int | None
    to_act_deadline: float | None
    last_action: Text | None
    small_blind: int
    big_blind: int
    ante: int
    max_seats: int
    language: str = ""
    """The table's language setting (a catalog code); empty follows the server's language."""
    hands_dealt: int = 0
    """The table's count of hands dealt, the running one included (a tournament's levels by
    hands count them; ``hand_number`` is an id, not a count)."""
    time_bank_deadline: float | None = None
    """When the person to act is using their time bank (their turn timer ran out): when the
    bank runs out (unix timestamp). ``to_act_deadline`` stays the timer's, as their turn
    prompt names it."""
    offline: bool = False
    """True while no click can reach the table (its front end's connection, Discord's
    gateway, is down): its clocks are stopped, bots wait and no hand is dealt, so no
    deadline is shown."""

    __reduce__ = reduce_by_fields  # pictured about ten times a hand (bot.pickling)

    def seat_of(self, user_id: int) -> SeatState | None:
        """The seat of a person, or ``None`` when they are not seated."""
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    @property
    def to_act(self) -> SeatState | None:
        """The seat whose turn it is, if any."""
        if self.to_act_seat is None:
            return None
        return next((seat for seat in self.seats if seat.seat == self.to_act_seat), None)


@dataclass(frozen=True, slots=True)
class Turn:
    """Names one turn: the hand's id in the ledger (unique across tables and restarts) and how
    many actions (and run-it-twice choices) came before it in that hand.

    A button or form shown for a turn carries it, so an answer meant for a turn that is over
    (a double click, a stale button, a form opened in an earlier hand or before a restart) is
    refused instead of being applied to whatever turn is open now.
    """

    hand: int
    action: int


@dataclass(frozen=True, slots=True)
class TurnPrompt:
    """A person's turn: what they may do (with amounts) and until when (unix timestamp).

    When the deadline passes the runtime checks if it can, and folds otherwise.
    """

    seat: int
    legal: LegalActions
    deadline: float
    pot_total: int
    turn: Turn


@dataclass(frozen=True, slots=True)
class ShownHand:
    """Hole cards turned face up at showdown, with the hand they made on each board."""

    seat: int
    name: str
    cards: tuple[Card, ...]
    hand_names: tuple[Text, ...]


@dataclass(frozen=True, slots=True)
class ShowOffer:
    """A person may show their cards until ``deadline`` (unix timestamp): the winner without a
    showdown one card or both, or, at showdown with auto-muck off, a hand that wins nothing
    (show or muck). They answer through ``TableManager.answer_show`` naming ``hand_id``."""

    hand_id: int
    cards: tuple[Card, ...]
    deadline: float
    at_showdown: bool


@dataclass(frozen=True, slots=True)
class PotAward:
    """Chips from one pot (on one board, when run twice) going to one player."""

    seat: int
    name: str
    amount: int
    pot_index: int
    board_index: int
    hand_name: Text | None


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """How a player's stack changed over the hand."""

    seat: int
    name: str
    user_id: int | None
    net: int
    final_stack: int


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """A finished hand: who won what from which pot, the hands shown, the board(s).

    ``hand_id`` is the hand's id in the ledger (where its history text is stored), which is
    also the number people see (as ``TableState.hand_number``).
    """

    hand_id: int
    boards: tuple[tuple[Card, ...], ...]
    awards: tuple[PotAward, ...]
    shown: tuple[ShownHand, ...]
    mucked_seats: tuple[int, ...]
    results: tuple[PlayerResult, ...]
    history_text: str
    shown_after: tuple[ShownHand, ...] = ()
    """The card or two the winner without a showdown chose to show (no hand names)."""

    @property
    def ran_twice(self) -> bool:
        """True when the remaining board was dealt twice."""
        return len(self.boards) > 1


class Notifier(Protocol):
    """The front end's side of the table runtime. Every method is a coroutine; an exception
    raised by one is logged and does not stop the table."""

    async def table_changed(self, state: TableState) -> None:
        """The public state of a table changed (may be coalesced by the front end)."""

    async def hole_cards(self, state: TableState, user_id: int, cards: tuple[Card, ...]) -> None:
        """Send a person their own hole cards, privately."""

    async def your_turn(self, state: TableState, user_id: int, prompt: TurnPrompt) -> None:
        """Tell a person it is their turn, with the legal actions and the deadline."""

    async def hand_finished(self, state: TableState, outcome: HandOutcome) -> None:
        """A hand is over; ``state`` shows the final board, stacks and shown hands."""

    async def tell(self, channel_id: int, user_id: int, message: Message) -> None:
        """A message for one person only (an error, a warning, being sat out or busted)."""

    async def ask_run_it_twice(
        self, state: TableState, user_ids: Sequence[int], deadline: float
    ) -> None:
        """Ask the all-in people whether to run the rest of the board twice, until the
        deadline (unix timestamp); they answer through ``TableManager.answer_run_it_twice``."""

    async def offer_show(self, state: TableState, user_id: int, offer: ShowOffer) -> None:
        """Offer a person, privately, to show their cards (see ``ShowOffer``)."""

    async def table_closed(self, channel_id: int) -> None:
        """The channel's table closed (its last player left, or the channel is gone): show
        its last state if the front end can, then forget the channel."""

    async def table_paused(self, channel_id: int) -> None:
        """The process is stopping and the channel's table is kept for the next start (its
        last state was published with no turn): say it is paused and will be back."""

    async def table_resumed(self, channel_id: int, message_id: int | None) -> None:
        """A table kept by an earlier process opens again in its channel (its state follows
        through ``table_changed``); ``message_id`` is the table message that process showed
        it in, if known, to show it there again."""

    # -- tournaments -------------------------------------------------------------------------

    async def tournament_changed(self, status: TournamentStatus) -> None:
        """A tournament changed: created, a player registered or left, it started, a level
        began, players busted or moved, it was cancelled (may be coalesced: show the latest).
        ``status.channel_id`` is where it was created."""

    async def tournament_finished(self, results: TournamentResults) -> None:
        """A tournament is over and its prizes are paid: show the standings (in
        ``results.channel_id``, where it was created)."""

    async def player_moved(self, move: PlayerMoved) -> None:
        """A player moved with their stack to another table of the tournament (tell them
        where to play now; the old table no longer takes their actions)."""

    async def open_tournament_table(
        self, tournament_id: int, channel_id: int, number: int
    ) -> int:
        """Open a channel (a thread under ``channel_id``, where the tournament was created)
        for the tournament's table ``number`` (1-based) and return its channel id. Asked once
        per extra table when a multi-table tournament starts (and for table 1 when the
        creation channel already has a table). An exception stops the start: the tournament
        stays registering and nothing is charged."""
        ...

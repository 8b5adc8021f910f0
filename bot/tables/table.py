"""One table's runner: the lobby of one channel and the task that deals and plays its hands.

``Table`` is what ``TableManager`` creates, one per channel. It composes the parts that do the
work and owns what they share:

- ``Lobby`` (``lobby.py``): the seats and the chips that enter and leave them;
- ``CurrentHand`` (``current_hand.py``): the hand being played and whose turn it is;
- ``PublicState`` (``snapshots.py``): the ``TableState`` everyone sees;
- ``HandRunner`` (``hand_runner.py``): deals, plays and settles (or refunds) one hand;
- ``RunItTwiceQuestion`` (``run_it_twice.py``): asks the all-in people;
- the table's lock, its ``Doorbell`` and its ``Outbox`` to the front end.

A single asyncio task per table deals hands while enough players have chips and, between two
hands, cashes out the players who left and buys busted bots in again. Player requests (join,
act, leave ...) are applied under the table's lock, so racing requests apply at most once.

When the ledger fails (``ledger_guard.py``), requests that move chips raise
``LedgerUnavailable`` and change nothing (a refund the ledger could not make is retried
first); the runner tells the seated people once, tries again after pauses that double up to
``LEDGER_RETRY_CAP``, and deals again once the ledger answers. A hand that never began is not
reported as cancelled.

Chips: a seat's ``stack`` changes only through the ledger (buy-in, top-up, settlement), so
after every hand the seats' stacks equal ``ledger.table_stacks(channel_id)``.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from bot.errors import HandInProgress
from bot.i18n import tr
from bot.ledger import LedgerUnavailable
from bot.tables.bot_worker import BotWorker
from bot.tables.bots import Bot, check_level
from bot.tables.current_hand import CurrentHand
from bot.tables.doorbell import Doorbell, TableClosing
from bot.tables.errors import (
    MovedToAnotherTable,
    NoLeavingTournament,
    NoPreActionNow,
    NoStraddleHere,
    NotEnoughPlayers,
    NotYourTurn,
    PreActionOutdated,
    TableClosed,
    TableMovedOn,
    TournamentTableRefusal,
)
from bot.tables.hand_runner import TIMEOUTS_BEFORE_SITTING_OUT, HandRunner, Played
from bot.tables.ledger_guard import Backoff, GuardedLedger
from bot.tables.ledger_port import TableLedger, TableStateStore
from bot.tables.lobby import Lobby
from bot.tables.notifier import Notifier, TableState, Turn
from bot.tables.outages import Outages
from bot.tables.outbox import Outbox
from bot.tables.pacing import StepPacer, TurnBudget
from bot.tables.pre_actions import PreAction, PreActionChoices
from bot.tables.run_it_twice import RunItTwiceQuestion
from bot.tables.saved_state import SavedTableState
from bot.tables.seats import PlayerKey, Seat
from bot.tables.settings import TableSettings
from bot.tables.show_cards import ShowChoice
from bot.tables.snapshots import PublicState
from engine.actions import Action, ActionKind
from engine.cards import Card
from engine.view import PlayerView

log = logging.getLogger(__name__)

LEDGER_DOWN_MESSAGE = tr(
    "The chip ledger is unavailable right now, so no new hand can start and no chips can "
    "move. Your chips are safe; the table carries on by itself once the ledger is back.")


class TournamentHooks(Protocol):
    """What a tournament adds to the runner of one of its tables (``bot.tables.tournaments``).

    Both coroutines run in the table's runner task between two hands, so the table deals
    nothing while they run: the blinds never change mid-hand, and players can be moved.
    """

    async def before_deal(self, table: Table) -> None:
        """The next hand is about to be dealt: set its blinds (``Table.set_blinds``)."""

    async def after_hand(self, table: Table, busted: Sequence[tuple[Seat, int]]) -> None:
        """A hand ended (``busted``: the seats it left with no chips, each with its stack at
        the start of the hand; they have left the table): place them, balance the tables,
        finish the tournament when one player is left."""

    def moved_to(self, user_id: int) -> int | None:
        """The channel of the table where a person of the tournament sits now, if any."""


class Table:
    """The table of one channel. Create it, ``start()`` its runner, ``close()`` it at the end.

    ``rng`` (tests) makes shuffles and bot choices reproducible; without it the deck is
    shuffled with the OS CSPRNG. ``bot_worker`` (shared) makes the bots' simulating decisions
    in another process; without it they run inline. ``pacer`` is shared by the tables of a
    process so that busy tables take turns on the event loop. When the last seat empties after
    a hand (a player who left mid-hand was cashed out) the table stops and calls ``on_empty``.
    ``ledger`` is wrapped in a ``GuardedLedger`` unless it is one (the manager shares one
    among its tables); ``retry`` paces the attempts after a failure. ``outages`` (the
    manager's) says when no click can reach the table: it then stops its clocks and deals
    nothing (``bot.tables.outages``).

    With ``tournament`` the table is a tournament table: its ``ledger`` holds the
    tournament's play chips (``TournamentChips``), players are seated and moved with their
    stacks by the tournament (``seat_player``, ``take_player``), nobody joins, leaves, tops
    up or seats bots through the cash-table requests (``TournamentTableRefusal``,
    ``NoLeavingTournament``), players who sit out are still dealt in and blinded and folded,
    busted players leave the table after the hand, and it deals whenever two players can
    play, people or not.
    """

    def __init__(
        self,
        guild_id: int,
        channel_id: int,
        settings: TableSettings,
        ledger: TableLedger,
        notifier: Notifier,
        *,
        rng: random.Random | None = None,
        bot_worker: BotWorker | None = None,
        on_empty: Callable[[Table], None] | None = None,
        pacer: StepPacer | None = None,
        retry: Backoff | None = None,
        tournament: TournamentHooks | None = None,
        outages: Outages | None = None,
        state_store: TableStateStore | None = None,
    ) -> None:
        self.guild_id = guild_id
        self.channel_id = channel_id
        shared_rng = rng if rng is not None else random.Random()
        guarded = ledger if isinstance(ledger, GuardedLedger) else GuardedLedger(ledger)
        self._ledger = guarded
        self._lock = asyncio.Lock()
        self._doorbell = Doorbell()
        self._outbox = Outbox(notifier, channel_id)
        self._lobby = Lobby(guild_id, channel_id, settings, guarded, shared_rng, bot_worker)
        self._current = CurrentHand()
        gateway = (outages if outages is not None else Outages()).link(guild_id)
        self._public = PublicState(self._lobby, self._current, gateway)
        self._question = RunItTwiceQuestion(shared_rng, self._outbox, self._doorbell,
                                            self._public.state)
        self._turns = TurnBudget(pacer if pacer is not None else StepPacer())
        self._runner = HandRunner(
            lobby=self._lobby, current=self._current, public=self._public, ledger=guarded,
            outbox=self._outbox, doorbell=self._doorbell, lock=self._lock, turns=self._turns,
            question=self._question, rng=shared_rng, deck_rng=rng, bot_worker=bot_worker,
            gateway=gateway,
        )
        self._on_empty = on_empty
        self._task: asyncio.Task[None] | None = None
        self._start_now = False
        self._bot_hands_wanted = 0
        self._hands_played = asyncio.Event()
        self._next_deal_at: float | None = None  # loop time, while the runner is parked
        self._retry = retry if retry is not None else Backoff()
        self._resume_at: float | None = None  # after a failure: no ledger work before then
        self._ledger_down = False  # the last failure was the ledger's (people were told)
        self._tournament = tournament
        self._lobby.deals_sitting_out = tournament is not None
        self._state_store = state_store if tournament is None else None
        self._saved_state: str | None = None  # the JSON last kept by the store
        self._button_played: int | None = None
        """The button of the last hand played out (settled, or refunded after a failure):
        what the state keeps, so that a hand a stop cut short deals again on its button."""

    @property
    def settings(self) -> TableSettings:
        """This table's settings (change them with ``update_settings``)."""
        return self._lobby.settings

    # -- life cycle --------------------------------------------------------------------------

    def start(self) -> None:
        """Start the runner task on the running loop."""
        self._task = asyncio.get_running_loop().create_task(
            self._run(), name=f"table-{self.channel_id}"
        )

    async def close(self) -> None:
        """Stop the runner, refund an unfinished hand, cash everyone out, forget the saved
        state and publish the closed table (no hand, no turn: its message keeps no button to
        press). What the ledger cannot do now (it is failing) its recovery does at the next
        start."""
        await self._stop()
        async with self._lock:
            try:
                await self._runner.refund_leftover()
                for seat in list(self._lobby.seats.values()):
                    await self._lobby.cash_out(seat)
                if self._state_store is not None:
                    await self._state_store.forget_table_state(self.channel_id)
            except Exception:  # LedgerUnavailable, or the store's own fault
                log.error("table %s: closed without cashing out; the chip ledger's recovery "
                          "returns the chips at the next start", self.channel_id)
        await self._runner.publish()

    async def drain(self) -> None:
        """The process is stopping: deal no new hand and return once the hand in progress
        (if any) is over; bots act without their thinking delay, people keep their timer.
        The caller bounds the wait and then ``suspend``s the table."""
        self._doorbell.drain()
        await self._doorbell.until_idle()

    async def suspend(self) -> None:
        """Stop the runner without ending the game: a hand still running is refunded to its
        start-of-hand stacks, which stay at the table with the seats, and the table's state
        is saved so that the next start opens it again (``restore``). Published as it
        stands, with no turn; the front end says it is paused."""
        await self._stop()
        async with self._lock:
            try:
                await self._runner.refund_leftover()
            except LedgerUnavailable:
                log.error("table %s: a hand is left running; the chip ledger's recovery "
                          "refunds it at the next start", self.channel_id)
        await self._persist()
        await self._runner.publish()

    async def restore(self, state: SavedTableState, stacks: Mapping[PlayerKey, int]) -> None:
        """Seat the players of a saved state with their chips at the table (``stacks``, the
        escrow), put the button where it was, and start the runner. Seats whose holder holds
        no chips here are left empty: they left, or busted, before the stop."""
        self._lobby.settings = state.settings
        self._current.button = self._button_played = state.button
        self._current.number = state.hands_dealt
        for saved in state.seats:
            key: PlayerKey = saved.user_id if saved.user_id is not None else saved.name
            if stacks.get(key, 0) > 0:
                self._lobby.restore_seat(saved, stacks[key])
        self._saved_state = self._state_now().to_json()
        self.start()
        await self._runner.publish()
        self._doorbell.ring()

    async def _stop(self) -> None:
        """Close the doorbell and wait for the runner, which refunds a hand it was playing."""
        self._doorbell.close()
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    def _state_now(self) -> SavedTableState:
        return SavedTableState.of(self._lobby.settings, self._button_played,
                                  self._current.number,
                                  (self._lobby.seats[index] for index in sorted(self._lobby.seats)))

    async def _persist(self) -> None:
        """Keep the table's state in the store when it changed since it was last kept (at
        hand boundaries and after requests, never per action). A store that fails is tried
        again at the next boundary: the chips are safe in escrow meanwhile."""
        store = self._state_store
        if store is None:
            return
        text = None if self._lobby.is_empty() else self._state_now().to_json()
        if text == self._saved_state:
            return
        try:
            if text is None:  # nobody left: the table does not open again
                await store.forget_table_state(self.channel_id)
            else:
                await store.save_table_state(self.guild_id, self.channel_id, text)
        except Exception:
            log.warning("table %s: could not save its state; trying again after the next "
                        "hand", self.channel_id, exc_info=True)
        else:
            self._saved_state = text

    def is_empty(self) -> bool:
        """True when no seat is taken."""
        return self._lobby.is_empty()

    @property
    def is_tournament(self) -> bool:
        """True for a tournament table."""
        return self._tournament is not None

    @property
    def hands_dealt(self) -> int:
        """Hands dealt at this table so far (the running one included)."""
        return self._current.number

    @property
    def button(self) -> int | None:
        """The seat index of the button in the current or last hand (``None`` before the
        first deal): kept with the table's state so that a restored table moves it on."""
        return self._current.button

    def restore_button(self, button: int | None) -> None:
        """Put the button where a saved state had it (before the runner deals): the next
        hand's button is the next seat dealt in after it."""
        self._current.button = button

    @property
    def is_hand_running(self) -> bool:
        """True from a deal until its hand is settled or refunded."""
        return self._current.running

    # -- tournament seating ------------------------------------------------------------------

    def player_keys(self) -> list[PlayerKey]:
        """The ledger keys of the players seated here, in seat order."""
        seats = self._lobby.seats
        return [seats[index].key for index in sorted(seats)]

    def free_seats(self) -> int:
        """Seats not taken."""
        return self.settings.max_seats - len(self._lobby.seats)

    def big_blind_order(self) -> list[PlayerKey]:
        """The seated players with chips in the order they will next be in the big blind,
        the next big blind first (the button moves one seat a hand; heads-up the button
        posts the small blind, so the other player is the big blind)."""
        seats = [seat for _, seat in sorted(self._lobby.seats.items()) if seat.stack > 0]
        if not seats:
            return []
        button = self._current.button
        next_button = 0 if button is None else next(
            (position for position, seat in enumerate(seats) if seat.index > button), 0)
        first = (next_button + (1 if len(seats) == 2 else 2)) % len(seats)
        return [seat.key for seat in seats[first:] + seats[:first]]

    async def seat_player(self, user_id: int | None, name: str, bot: Bot | None,
                          stack: int) -> None:
        """Seat a tournament player with their ``stack`` (their off-table tournament chips),
        outside the buy-in range; they are dealt in from the next hand."""
        async with self._lock:
            self._check_open()
            await self._lobby.seat_with_stack(user_id, name, bot, stack)
        await self._runner.publish()
        self._doorbell.ring()

    async def take_player(self, player: PlayerKey) -> tuple[Seat, int] | None:
        """Take a tournament player off this table with their stack (to seat them at another
        one): their seat and stack, or ``None`` while they are dealt into the running hand,
        when they have no chips left (busted: this table places them once its hand's work is
        done, which may wait for the tournament) or are not seated here."""
        async with self._lock:
            seat = next((seat for seat in self._lobby.seats.values() if seat.key == player),
                        None)
            if seat is None or self._current.is_dealt_in(seat) or seat.stack == 0:
                return None
            stack = await self._lobby.take(seat)
        await self._runner.publish()
        return seat, stack

    async def add_chips(self, player: PlayerKey, chips: int) -> bool:
        """Add a tournament rebuy's or add-on's ``chips`` to a player's stack here (the
        tournament's ``TableLedger.top_up`` issues them); False, nothing added, while the
        player is dealt into the running hand or not seated here."""
        async with self._lock:
            seat = next((seat for seat in self._lobby.seats.values() if seat.key == player),
                        None)
            if seat is None or self._current.is_dealt_in(seat):
                return False
            seat.stack = await self._ledger.top_up(self.guild_id, self.channel_id, player, chips)
        await self._runner.publish()
        self._doorbell.ring()
        return True

    def set_blinds(self, small_blind: int, big_blind: int, ante: int) -> None:
        """Set the blinds of the next hand (tournament levels; called between hands)."""
        settings = self._lobby.settings
        if (settings.small_blind, settings.big_blind, settings.ante) != (
                small_blind, big_blind, ante):
            self._lobby.settings = settings.with_changes(
                small_blind=small_blind, big_blind=big_blind, ante=ante)

    # -- lobby -------------------------------------------------------------------------------

    async def join(self, user_id: int, name: str, buy_in: int | None) -> int:
        """Seat a person with a buy-in from their balance; returns the stack."""
        self._no_cash_request()
        async with self._lock:
            self._check_open()
            await self._runner.refund_leftover()
            stack = await self._lobby.seat_person(user_id, name, buy_in)
        await self._runner.publish()
        self._doorbell.ring()
        return stack

    async def leave(self, user_id: int) -> int | None:
        """Leave now (cash-out returned) or, when dealt into the running hand, fold on the
        next turn and cash out when the hand ends (``None``)."""
        if self._tournament is not None:
            self._lobby.require_seat(user_id)
            raise NoLeavingTournament()
        async with self._lock:
            seat = self._lobby.require_seat(user_id)
            if not self._current.is_dealt_in(seat):
                await self._runner.refund_leftover()
                cashed: int | None = await self._lobby.cash_out(seat)
            else:
                seat.leaving = True
                if self._current.awaiting is seat:
                    self._runner.apply(seat, Action(ActionKind.FOLD))
                self._question.decline_for(user_id)
                cashed = None
        await self._runner.publish()
        self._doorbell.ring()
        return cashed

    async def choose_straddle(self, user_id: int, straddles: bool) -> None:
        """Post (or stop posting) the voluntary straddle whenever the straddle's seat is the
        person's, from the next hand; ``NoStraddleHere`` when this table has none to choose."""
        self._no_cash_request()
        settings = self._lobby.settings
        if settings.straddle == "off" or settings.straddle_mandatory:
            raise NoStraddleHere(mandatory=settings.straddle != "off")
        async with self._lock:
            self._lobby.require_seat(user_id).straddles = straddles

    async def sit_out(self, user_id: int) -> None:
        """Skip hands from the next one on."""
        async with self._lock:
            seat = self._lobby.require_seat(user_id)
            seat.sitting_out = seat.sat_out_since_last_hand = True
        await self._runner.publish()

    async def sit_in(self, user_id: int) -> None:
        """Play again from the next hand.

        Sitting in clears neither count of being away, or /sitin then /sitout would dodge
        them: the hands sat out count on until the seat is dealt in (``_dealt``), and timeouts
        until the person acts. Someone who comes back after timing out twice is on their last
        warning: the next turn they let run out before acting sits them out again at once,
        while one action gives them the full allowance back, as for anyone playing.
        """
        async with self._lock:
            seat = self._lobby.require_seat(user_id)
            seat.sitting_out = False
            seat.timeouts_in_a_row = min(seat.timeouts_in_a_row,
                                         TIMEOUTS_BEFORE_SITTING_OUT - 1)
        await self._runner.publish()
        self._doorbell.ring()

    async def top_up(self, user_id: int, amount: int) -> int:
        """Add chips from the balance to the stack (not while dealt into a hand)."""
        self._no_cash_request()
        async with self._lock:
            seat = self._lobby.require_seat(user_id)
            if self._current.is_dealt_in(seat):
                raise HandInProgress(tr("top up"))
            await self._runner.refund_leftover()
            stack = await self._lobby.top_up(seat, amount)
        await self._runner.publish()
        self._doorbell.ring()
        return stack

    async def add_bots(self, level: str, count: int) -> list[str]:
        """Seat ``count`` bots of ``level``, bought in by the house; returns their names."""
        self._no_cash_request()
        level = check_level(level)
        async with self._lock:
            self._check_open()
            await self._runner.refund_leftover()
            names = await self._lobby.seat_bots(level, count)
        await self._runner.publish()
        self._doorbell.ring()
        return names

    async def remove_bot(self, name: str | None) -> str:
        """Remove a bot (named, or the last seated); one in a hand leaves when it ends."""
        self._no_cash_request()
        async with self._lock:
            seat = self._lobby.bot_to_remove(name)
            if self._current.is_dealt_in(seat):
                seat.leaving = True
            else:
                await self._runner.refund_leftover()
                await self._lobby.cash_out(seat)
        await self._runner.publish()
        self._doorbell.ring()
        return seat.name

    async def start_hand(self) -> None:
        """Deal the next hand now (bots-only tables play one hand); ``LedgerUnavailable``
        while the ledger is failing."""
        self._no_cash_request()
        async with self._lock:
            self._check_open()
            if self._current.running:
                raise HandInProgress(tr("start a new hand"))
            if self._ledger_down and self._ledger.failing:
                raise LedgerUnavailable()
            if not self._lobby.can_deal():
                raise NotEnoughPlayers()
            if not self._lobby.has_playing_person():
                self._bot_hands_wanted += 1
            self._start_now = True
        self._doorbell.ring()

    async def run_hands(self, count: int) -> None:
        """Play ``count`` more hands even without people, returning once they are settled
        (or as soon as fewer than two players can be dealt in)."""
        current = self._current
        target = current.number + count
        self._bot_hands_wanted += count
        self._doorbell.ring()
        while current.number < target or current.running:
            if self._doorbell.closing or (not current.running and not self._lobby.can_deal()):
                break
            self._hands_played.clear()
            await self._hands_played.wait()
        self._bot_hands_wanted = 0

    async def wait_until_idle(self) -> float | None:
        """Return once the runner has nothing to do but wait for a request or for the next
        deal: no hand is running and the last one's aftermath (cash-outs, rebuys, notices)
        is done. Returns the seconds until the next deal, or ``None`` when no hand will be
        dealt until a request changes the table (or the table has closed)."""
        await self._doorbell.until_idle()
        deal_at = self._next_deal_at
        if deal_at is None:
            return None
        return max(0.0, deal_at - asyncio.get_running_loop().time())

    def update_settings(self, **changes: object) -> TableSettings:
        """Change this table's settings; blinds apply from the next hand."""
        self._no_cash_request()
        self._lobby.settings = self._lobby.settings.with_changes(**changes)
        self._doorbell.ring()  # the runner keeps the new settings
        return self._lobby.settings

    # -- play --------------------------------------------------------------------------------

    async def act(self, user_id: int, action: Action, turn: Turn | None = None) -> None:
        """Apply the action of the person whose turn it is; with ``turn`` (what a button or form
        was shown for) only while that turn is open, else ``TableMovedOn``."""
        async with self._lock:
            current = self._current
            if turn is not None and turn != Turn(current.hand_id or 0, current.actions_taken):
                raise TableMovedOn()
            seat = self._lobby.seat_of(user_id)
            if seat is None and self._tournament is not None:
                moved_to = self._tournament.moved_to(user_id)
                if moved_to is not None and moved_to != self.channel_id:
                    raise MovedToAnotherTable(moved_to)
            if seat is None or self._current.awaiting is not seat:
                raise NotYourTurn()
            self._runner.apply(seat, action)
            seat.timeouts_in_a_row = 0

    async def pre_act(self, user_id: int, choice: PreAction) -> PreAction | None:
        """Choose ``choice`` for the person's coming turn on this street, or clear it when it
        is their choice already (a second press); returns their pre-action now.

        Raises ``NotSeated``; ``PreActionOutdated`` when ``choice`` (as a button showed it)
        is not among the choices offered now (another hand or street, another amount owed);
        ``NoPreActionNow`` when they have no turn coming, or it is their turn.
        """
        async with self._lock:
            seat = self._lobby.require_seat(user_id)
            current = self._current
            if choice.hand != current.hand_id:
                raise PreActionOutdated()
            choices = current.pre_action_choices(seat)
            if choices is None:
                hand, position = current.hand, current.position_of(seat)
                raise NoPreActionNow(your_turn=hand is not None and position is not None
                                     and hand.to_act == position)
            if choice not in choices.offered:
                raise PreActionOutdated()
            if choices.chosen == choice:
                del current.pre_actions[seat.index]
                return None
            current.pre_actions[seat.index] = choice
            return choice

    async def answer_run_it_twice(self, user_id: int, agree: bool,
                                  hand: int | None = None) -> None:
        """Record a person's run-it-twice answer; with ``hand`` (the ledger's id of the hand the
        question was asked in) only during that hand, else ``TableMovedOn``."""
        async with self._lock:
            if hand is not None and hand != self._current.hand_id:
                raise TableMovedOn()
            self._question.answer(user_id, agree)

    async def answer_show(self, user_id: int, hand: int, choice: ShowChoice) -> None:
        """Record a person's answer to the offer to show their cards in ``hand`` (the ledger's
        id); ``ShowRefused`` when it is not theirs or no longer open."""
        async with self._lock:
            self._runner.answer_show(user_id, hand, choice)

    # -- reading -----------------------------------------------------------------------------

    def hole_cards(self, user_id: int) -> tuple[Card, ...] | None:
        """A person's cards in the running hand, or ``None``."""
        seat = self._lobby.seat_of(user_id)
        return None if seat is None else self._current.hole_cards(seat)

    def coaching_view(self, user_id: int) -> PlayerView | None:
        """The person's view of the running hand for a hint, or ``None`` when this table
        shows none (``TableSettings.shows_hints``) or they are not in the hand."""
        seat = self._lobby.seat_of(user_id)
        if seat is None or not self.settings.shows_hints(self.is_tournament):
            return None
        return self._current.view_of(seat)

    def pre_action_choices(self, user_id: int) -> PreActionChoices | None:
        """What the person may choose ahead of their turn now, or ``None`` when they cannot
        (not seated or dealt in, out of the hand, all-in, or to act)."""
        seat = self._lobby.seat_of(user_id)
        return None if seat is None else self._current.pre_action_choices(seat)

    def state(self) -> TableState:
        """The public state of the table now (hole cards only as shown at showdown)."""
        return self._public.state()

    # -- the runner --------------------------------------------------------------------------

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        deal_at: float | None = None  # loop time of the next deal, once one can be dealt
        try:
            while True:
                self._doorbell.check()
                await self._runner.until_gateway_up(parked=True)  # no deal while cut off
                if self._resume_at is not None:
                    if loop.time() < self._resume_at and not self._ledger_is_back():
                        await self._park(self._resume_at)
                        continue
                    self._resume_at, deal_at = None, loop.time()
                if not await self._tidy():
                    continue
                if not self._ready_to_deal():
                    deal_at = None
                    await self._park(None)
                    continue
                if deal_at is None:
                    deal_at = loop.time() + self.settings.next_hand_delay
                if not self._start_now and loop.time() < deal_at:
                    await self._park(deal_at)
                    continue
                self._start_now = False
                if self._tournament is not None:
                    await self._tournament.before_deal(self)
                await self._turns.step(urgent=self._lobby.has_playing_person())
                played = await self._runner.play()
                if played is not Played.NOT_DEALT:
                    self._button_played = self._current.button
                if played is Played.NOT_DEALT:
                    await self._failed(self._runner.last_error)
                else:
                    self._dealt()
                    busted = self._busted() if played is Played.SETTLED else []
                    await self._after_hand(refunded=played is Played.REFUNDED)
                    if played is Played.REFUNDED and self._resume_at is None:
                        await self._failed(self._runner.last_error)
                    if self._tournament is not None:
                        await self._tournament.after_hand(self, busted)
                ended = self._runner.ended_at
                deal_at = (loop.time() if ended is None else ended) + \
                    self.settings.next_hand_delay
                self._hands_played.set()
        except TableClosing:
            pass
        finally:
            self._next_deal_at = None
            self._doorbell.finish()
            self._hands_played.set()

    async def _park(self, deal_at: float | None) -> None:
        """Wait for a request, or until the loop time ``deal_at`` (``None``: no deal due)."""
        self._next_deal_at = deal_at
        timeout = None if deal_at is None else deal_at - asyncio.get_running_loop().time()
        await self._doorbell.park(timeout)

    def _dealt(self) -> None:
        """A hand was dealt: the ledger works; one fewer bots-only hand is wanted if it had
        no person. At a cash table the seats dealt in start their count of hands away again,
        and the people who sat out at any moment of the hand count one more."""
        self._retry.reset()
        self._ledger_down = False
        if self._tournament is None:
            for seat in self._lobby.seats.values():
                if self._current.position_of(seat) is not None:
                    seat.hands_sat_out = 0
                elif seat.user_id is not None \
                        and (seat.sitting_out or seat.sat_out_since_last_hand):
                    seat.hands_sat_out += 1
                seat.sat_out_since_last_hand = False
        if self._bot_hands_wanted and all(seat.user_id is None for seat in self._current.seats):
            self._bot_hands_wanted -= 1

    async def _failed(self, error: Exception | None) -> None:
        """A deal, a hand or the work between hands failed: wait longer after every failure in
        a row; tell the seated people once when the ledger is what failed."""
        delay = self._retry.next()
        self._resume_at = asyncio.get_running_loop().time() + delay
        if not isinstance(error, LedgerUnavailable):
            return
        log.warning("table %s: trying the chip ledger again in %.1f s", self.channel_id, delay)
        if not self._ledger_down:
            self._ledger_down = True
            for seat in list(self._lobby.seats.values()):
                if seat.user_id is not None:
                    await self._outbox.tell(seat.user_id, LEDGER_DOWN_MESSAGE)

    def _ledger_is_back(self) -> bool:
        """True when the ledger failed this table but has answered a write since."""
        return self._ledger_down and not self._ledger.failing

    async def _tidy(self, *, after_hand: bool = False, changed: bool = False) -> bool:
        """The ledger work between hands: a refund that failed, players who left, busted bots
        buying in again. Publishes the table if that (or the caller: ``changed``) changed it;
        after a hand or a cash-out, closes the table if nobody is left. False (the next
        attempt scheduled) when the ledger failed."""
        lobby, moved, freed = self._lobby, False, []
        try:
            async with self._lock:
                moved = await self._runner.refund_leftover()
                for seat in list(lobby.seats.values()):
                    if seat.leaving:
                        await lobby.cash_out(seat)
                        moved = True
                    elif self._away_too_long(seat):
                        freed.append((seat, await lobby.cash_out(seat)))
                        moved = True
                    elif seat.stack == 0 and self._tournament is not None:
                        await lobby.cash_out(seat)  # busted: out of the tournament
                        moved = True
                    elif seat.stack == 0 and seat.bot is not None:
                        await lobby.rebuy(seat)
                        moved = True
        except LedgerUnavailable as error:
            await self._failed(error)
            return False
        finally:
            if moved or changed:
                await self._runner.publish()
        if moved:
            self._retry.reset()
        await self._persist()
        for seat, chips in freed:
            if seat.user_id is not None:
                await self._outbox.tell(seat.user_id, tr(
                    "You sat out {hands} hands, so your seat was freed and your {chips} chips "
                    "went back to your balance. /join to play again.",
                    hands=seat.hands_sat_out, chips=chips))
        if (after_hand or moved) and lobby.is_empty() and self._tournament is None:
            # (A tournament closes its own tables: its hook still has busts to place.)
            self._doorbell.close()
            if self._on_empty is not None:
                self._on_empty(self)
            self._doorbell.check()
        return True

    async def _after_hand(self, *, refunded: bool) -> None:
        """Settle the table after a hand: cash-outs and rebuys (``_tidy``), then tell busted
        people. The table is published if that changed it or the hand was refunded (a
        settled hand was shown by ``hand_finished``)."""
        seats, lobby = self._current.seats, self._lobby
        if not await self._tidy(after_hand=True, changed=refunded):
            return
        if self._tournament is not None:
            return  # the tournament tells busted players their place
        for seat in seats:
            still_seated = lobby.seats.get(seat.index) is seat
            if still_seated and seat.stack == 0 and seat.user_id is not None and not seat.leaving:
                await self._outbox.tell(
                    seat.user_id,
                    tr("You are out of chips: top up to keep playing, or leave the table."))

    def _busted(self) -> list[tuple[Seat, int]]:
        """The seats the hand just settled left with no chips, with their stacks when it
        started."""
        hand = self._current.hand
        if hand is None:
            return []
        return [(seat, hand.starting_stacks[position])
                for position, seat in enumerate(self._current.seats) if seat.stack == 0]

    def _away_too_long(self, seat: Seat) -> bool:
        """True for a person at a cash table who sat out the hands the settings allow."""
        limit = self.settings.sit_out_hands
        return (self._tournament is None and seat.sitting_out and limit > 0
                and seat.hands_sat_out >= limit)

    def _no_cash_request(self) -> None:
        if self._tournament is not None:
            raise TournamentTableRefusal()

    def _ready_to_deal(self) -> bool:
        if self._doorbell.draining:
            return False
        if self._tournament is not None:
            return self._lobby.can_deal()
        return self._lobby.can_deal() and (
            self._lobby.has_playing_person() or self._bot_hands_wanted > 0)

    def _check_open(self) -> None:
        if self._doorbell.closing:
            raise TableClosed()

"""Playing one hand at a table: deal, turns (bots after their thinking delay, people with a
timer), the run-it-twice question, showing or mucking (``bot.tables.show_cards``: at showdown
with auto-muck off, and the winner without a showdown before the hand is settled, so that what
is shown is in its history), and the settlement in the ledger; a hand that fails on the
way is refunded to its start-of-hand stacks.

While the table's connection to the front end is down (``bot.tables.outages``) no click can
reach it: the turn timer and time bank of the person to act stop, and bots wait.

Chips: a seat's ``stack`` is its chips between hands. During a hand the engine's ``Hand`` holds
the live stacks, and the seats' stacks change only when the ledger has settled the hand.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.errors import HoldemError
from bot.i18n import tr
from bot.ledger import HabitCounter, LedgerUnavailable
from bot.tables.bot_worker import BotWorker
from bot.tables.current_hand import CurrentHand
from bot.tables.doorbell import Doorbell, TableClosing
from bot.tables.ledger_port import TableLedger
from bot.tables.lobby import Lobby
from bot.tables.notifier import Turn, TurnPrompt
from bot.tables.outages import GRACE_SECONDS, GuildLink
from bot.tables.outbox import Outbox
from bot.tables.pacing import TurnBudget
from bot.tables.run_it_twice import RunItTwiceQuestion
from bot.tables.seats import Seat
from bot.tables.settlement import finished_result, hand_outcome, participants
from bot.tables.show_cards import ShowChoice, ShowQuestion
from bot.tables.snapshots import PublicState
from bot.worker_link import WorkerFailed
from engine.actions import Action, ActionKind
from engine.cards import Deck
from engine.hand import Hand, Straddle, straddle_seat
from engine.hand_record import RecordedHand
from engine.history import format_hand_history
from engine.strategies import bot_straddles

log = logging.getLogger(__name__)

TIMEOUTS_BEFORE_SITTING_OUT = 2
"""Turns in a row a person may let run out before they are sat out."""
SAT_OUT_NOTICE = tr("Your time ran out twice in a row, so you are sitting out. "
                    "Sit in again to play.")
"""What a person sat out for their timeouts is told (a front end may offer a way back)."""


class Played(enum.Enum):
    """How an attempt to play a hand ended."""

    SETTLED = "settled"
    """Played to the end and settled in the ledger."""
    REFUNDED = "refunded"
    """Dealt, then failed: the players are back to their start-of-hand stacks."""
    NOT_DEALT = "not dealt"
    """The deal failed (the ledger did not open the hand): nothing began, nothing to undo."""


class TurnClock:
    """What is left of a person's time to act (their turn timer, or their time bank)."""

    __slots__ = ("left",)

    def __init__(self, seconds: float) -> None:
        self.left = seconds
        """Seconds left."""

    def run(self, seconds: float) -> None:
        """``seconds`` of it ran (never below nothing left)."""
        self.left = max(0.0, self.left - max(0.0, seconds))


class HandRunner:
    """Plays the hands of one table, one at a time, for the table's runner task.

    It shares the table's lock (held while a hand changes), its doorbell (rung by requests,
    closing interrupts every wait) and its turn budget on the event loop. ``rng`` draws the
    bots' thinking delays; ``deck_rng`` (tests) makes shuffles reproducible, and without it
    the deck is shuffled with the OS CSPRNG. ``gateway`` says whether clicks can reach the
    table now.
    """

    def __init__(
        self,
        *,
        lobby: Lobby,
        current: CurrentHand,
        public: PublicState,
        ledger: TableLedger,
        outbox: Outbox,
        doorbell: Doorbell,
        lock: asyncio.Lock,
        turns: TurnBudget,
        question: RunItTwiceQuestion,
        rng: random.Random,
        deck_rng: random.Random | None,
        bot_worker: BotWorker | None,
        gateway: GuildLink,
    ) -> None:
        self._lobby = lobby
        self._current = current
        self._public = public
        self._ledger = ledger
        self._outbox = outbox
        self._doorbell = doorbell
        self._lock = lock
        self._turns = turns
        self._question = question
        self._rng = rng
        self._deck_rng = deck_rng
        self._bot_worker = bot_worker
        self._gateway = gateway
        self._unrefunded: int | None = None
        self._shows = ShowQuestion(outbox, doorbell, public.state)
        self._habits = HabitCounter(0)
        """The running hand's habits, counted as it is played (none settles a replay)."""
        self.last_error: Exception | None = None
        """Why the last attempt did not settle (``None`` after a settled hand)."""
        self.ended_at: float | None = None
        """Loop time when the last hand's play ended, before its show window: the pause
        before the next deal counts from here, so a Show offer does not lengthen it."""

    @property
    def _channel_id(self) -> int:
        return self._lobby.channel_id

    async def play(self) -> Played:
        """Deal, play and settle one hand; on any failure after the deal, refund it.

        Raises ``TableClosing`` (after refunding the hand) when the table closes meanwhile.
        """
        self.last_error = self.ended_at = None
        try:
            await self._deal()
        except TableClosing:
            raise
        except LedgerUnavailable as error:
            log.warning("table %s: hand %s not dealt: the chip ledger is unavailable",
                        self._channel_id, self._current.number + 1)
            self.last_error = error
            return Played.NOT_DEALT
        except Exception as error:
            log.exception("table %s: hand %s could not be dealt", self._channel_id,
                          self._current.number + 1)
            self.last_error = error
            return Played.NOT_DEALT
        failed_bot: Seat | None = None
        try:
            await self._send_hole_cards()
            hand = self._current.require()
            while not hand.is_over:
                await self._turns.step(urgent=self._lobby.has_playing_person())
                if hand.awaiting_run_it_twice:
                    await self._run_it_twice(hand)
                    continue
                if hand.awaiting_show_or_muck:
                    await self._show_or_muck(hand)
                    continue
                seat = self._current.seat_to_act()
                if seat.is_bot:
                    failed_bot = seat
                    await self._bot_turn(seat)
                    failed_bot = None
                else:
                    await self._person_turn(seat)
            self.ended_at = asyncio.get_running_loop().time()
            await self._offer_show(hand)
            await self._settle()
            return Played.SETTLED
        except TableClosing:
            await self._refund()
            raise
        except Exception as error:
            log.exception("table %s: hand %s failed; refunding it", self._channel_id,
                          self._current.last_id)
            self.last_error = error
            if failed_bot is not None and not isinstance(error, WorkerFailed):
                failed_bot.sitting_out = True
            await self._refund()
            self._doorbell.check()
            await self._tell_cancelled()
            return Played.REFUNDED

    async def refund_leftover(self) -> bool:
        """Refund a hand whose refund failed before (the ledger was failing); True if there
        was one. Raises ``LedgerUnavailable`` while the ledger still fails."""
        hand_id = self._unrefunded
        if hand_id is None:
            return False
        try:
            await self._ledger.refund_hand(hand_id)
        except LedgerUnavailable:
            raise
        except HoldemError:  # no longer running: closed already (a recovery, a retry)
            log.warning("table %s: hand %s was already closed", self._channel_id, hand_id)
        self._unrefunded = None
        return True

    async def publish(self) -> None:
        """Show the table's public state now."""
        await self._outbox.table_changed(self._public.state())

    async def until_gateway_up(self, *, parked: bool = False) -> None:
        """Return once clicks can reach the table (at once while they can); ``parked``
        (between hands) counts the wait as idle, so that a drain need not wait for it.
        Raises ``TableClosing`` when the table closes meanwhile."""
        if not self._gateway.down:
            return
        with self._gateway.watch(self._doorbell.ring):
            while self._gateway.down:
                await (self._doorbell.park() if parked else self._doorbell.wait())

    def answer_show(self, user_id: int, hand_id: int, choice: ShowChoice) -> None:
        """A person's answer to the offer to show their cards in hand ``hand_id`` (the caller
        holds the lock); ``ShowRefused`` unless it is theirs and still open."""
        self._shows.answer(user_id, hand_id, choice)

    def apply(self, seat: Seat, action: Action) -> None:
        """Apply ``seat``'s action to the hand and wake the runner (the caller holds the
        lock); ``NotYourTurn`` or ``IllegalAction`` when refused."""
        self._current.apply(seat, action)
        self._habits.saw(self._current.require())
        self._doorbell.ring()

    # -- the hand ----------------------------------------------------------------------------

    async def _deal(self) -> None:
        current = self._current
        async with self._lock:
            self._doorbell.check()
            dealt = self._lobby.dealable()
            if len(dealt) < 2:
                raise RuntimeError("fewer than two players can be dealt in")
            button = current.next_button(dealt)
            settings = self._lobby.settings
            # Straddles are for cash tables: mandatory, or a bot's choice by a stated rule.
            straddle = None if settings.straddle == "off" or self._lobby.deals_sitting_out \
                else Straddle(settings.straddle)
            straddler = straddle_seat(len(dealt), button, straddle)
            if straddler is not None and not settings.straddle_mandatory and not (
                    dealt[straddler].straddles or (
                        dealt[straddler].is_bot
                        and bot_straddles(dealt[straddler].stack, settings.big_blind))):
                straddle = None
            hand = Hand(
                [seat.stack for seat in dealt], button, settings.small_blind,
                settings.big_blind, settings.ante,
                Deck(self._deck_rng) if self._deck_rng is not None else None,
                offer_run_it_twice=True, straddle=straddle,
                auto_muck=[settings.auto_muck or seat.is_bot for seat in dealt],
            )
            hand_id = await self._ledger.begin_hand(
                self._lobby.guild_id, self._channel_id, current.number + 1,
                {seat.key: seat.stack for seat in dealt})
            current.begin(hand, dealt, hand_id, button)
            self._habits = HabitCounter(len(dealt))
            self._habits.saw(hand)

    async def _send_hole_cards(self) -> None:
        await self._next_turn()  # after the ledger's answer, which woke many tables at once
        hand = self._current.require()
        state = self._public.state()
        await self._outbox.table_changed(state)
        for position, seat in enumerate(self._current.seats):
            if seat.user_id is not None:
                await self._outbox.hole_cards(state, seat.user_id, hand.hole_cards(position))

    async def _bot_turn(self, seat: Seat) -> None:
        hand, bot = self._current.require(), seat.bot
        if bot is None:
            raise RuntimeError(f"seat {seat.index} has no bot")
        settings = self._lobby.settings
        delay = self._rng.uniform(settings.bot_delay_min, settings.bot_delay_max)
        if delay > 0 and not self._doorbell.draining:  # a stopping bot finishes hands
            await self.publish()
            await self._doorbell.sleep(delay)
        await self.until_gateway_up()  # nobody could answer a bet made now
        if seat.leaving:
            action = Action(ActionKind.FOLD)
        elif seat.sitting_out and self._lobby.deals_sitting_out:
            action = _default_action(hand)  # a failed bot at a tournament table
        else:
            view = hand.view(hand.to_act)
            elsewhere = self._bot_worker is not None and bot.simulates(view)
            action = await bot.decide(view, self._bot_worker)
            if elsewhere:
                await self._next_turn()
        self._doorbell.check()
        async with self._lock:
            self.apply(seat, action)

    async def _person_turn(self, seat: Seat) -> None:
        current, hand, user_id = self._current, self._current.require(), seat.user_id
        if user_id is None:
            raise RuntimeError(f"seat {seat.index} has no person")
        if seat.leaving:  # a player who left folds when their turn comes, as announced
            async with self._lock:
                self.apply(seat, Action(ActionKind.FOLD))
            return
        if seat.timeouts_in_a_row >= TIMEOUTS_BEFORE_SITTING_OUT or (
                seat.sitting_out and self._lobby.deals_sitting_out):
            # Away (timed out twice, or sitting out at a tournament table, which deals them
            # in all the same): blinded and folded, checking when that is free.
            async with self._lock:
                self.apply(seat, _default_action(hand))
            return
        if await self._pre_acted(seat, user_id):
            return
        turn = current.actions_taken
        prompt = TurnPrompt(seat=seat.index, legal=hand.legal_actions(), deadline=0.0,
                            pot_total=hand.pot_total, turn=Turn(current.hand_id or 0, turn))
        current.awaiting, opened = seat, False

        async def show(deadline: float) -> None:
            """Open the turn, or show its new deadline once the gateway is back (the same
            turn: a button shown before the outage still acts)."""
            nonlocal prompt, opened
            current.deadline = deadline
            prompt = replace(prompt, deadline=deadline)
            state = self._public.state()
            if not opened:
                opened = True
                await self._outbox.table_changed(state)
            await self._outbox.your_turn(state, user_id, prompt)

        try:
            if not await self._acted_in(turn, TurnClock(self._lobby.settings.turn_timeout),
                                        show):
                await self._use_time_bank(seat, turn)
            async with self._lock:
                timed_out = current.actions_taken == turn
                if timed_out:
                    self._time_out(seat, hand)
        finally:
            current.awaiting = current.deadline = current.time_bank_until = None
        if timed_out:
            await self._tell_timeout(seat, user_id)

    async def _pre_acted(self, seat: Seat, user_id: int) -> bool:
        """Apply the pre-action ``seat``'s person chose for this turn, if it still holds
        (True); one that no longer does is cleared and they are told."""
        pre = self._current.take_pre_action(seat)
        if pre is None:
            return False
        action = pre.action_now(self._current.require().legal_actions())
        if action is None:
            await self._outbox.tell(user_id, tr(
                "Your pre-action “{choice}” was cleared: someone bet or raised since you "
                "chose it. It is your turn.", choice=pre.label))
            return False
        async with self._lock:
            self.apply(seat, action)
            seat.timeouts_in_a_row = 0
        return True

    async def _acted_in(self, turn: int, clock: TurnClock,
                        show: Callable[[float], Awaitable[None]]) -> bool:
        """Wait until the turn numbered ``turn`` is taken or ``clock`` runs out; True when it
        was taken. ``show(deadline)`` shows when the clock runs out (a unix timestamp).

        The clock stops while the gateway is down (no click could reach the table; the
        deadlines shown are cleared); once it is back it runs on with what was left plus
        ``GRACE_SECONDS``, shown anew.
        """
        current, loop, gateway = self._current, asyncio.get_running_loop(), self._gateway
        grace = 0.0
        with gateway.watch(self._doorbell.ring):
            while current.actions_taken == turn:
                if gateway.down:
                    current.deadline = current.time_bank_until = None
                    while gateway.down and current.actions_taken == turn:
                        await self._doorbell.wait()
                    grace = GRACE_SECONDS
                    continue
                began = loop.time()
                ends_at = began + clock.left + grace
                await show(time.time() + clock.left + grace)
                try:
                    while (current.actions_taken == turn and not gateway.down
                           and loop.time() < ends_at):
                        await self._doorbell.wait(ends_at - loop.time())
                finally:
                    clock.run(loop.time() - began - grace)
                if not gateway.down:
                    break
        return current.actions_taken != turn

    async def _use_time_bank(self, seat: Seat, turn: int) -> None:
        """The turn timer ran out: run what is left of the seat's time bank, shown on the
        table, and take from the bank the time it ran."""
        size = seat.time_bank.left(self._lobby.settings.time_bank)
        if size <= 0:
            return
        clock = TurnClock(size)

        async def show(deadline: float) -> None:
            self._current.time_bank_until = deadline
            await self.publish()

        try:
            await self._acted_in(turn, clock, show)
        finally:
            seat.time_bank.spend(size - clock.left)

    def _time_out(self, seat: Seat, hand: Hand) -> None:
        self.apply(seat, _default_action(hand))
        seat.timeouts_in_a_row += 1
        if seat.timeouts_in_a_row >= TIMEOUTS_BEFORE_SITTING_OUT:
            seat.sitting_out = True

    async def _tell_timeout(self, seat: Seat, user_id: int) -> None:
        if seat.sitting_out:
            message = SAT_OUT_NOTICE
        else:
            message = tr("Your time ran out, so you checked or folded.")
        await self._outbox.tell(user_id, message)

    async def _run_it_twice(self, hand: Hand) -> None:
        live = [seat for position, seat in enumerate(self._current.seats)
                if not hand.folded[position]]
        agree = await self._question.ask(live, self._lobby.settings.run_it_twice_timeout)
        async with self._lock:
            self._current.choose_run_it_twice(agree)

    async def _show_or_muck(self, hand: Hand) -> None:
        """At showdown with auto-muck off, the people whose hands win nothing show or muck
        (one leaving, or silent until the deadline, mucks)."""
        current = self._current
        asked = hand.awaiting_show_or_muck
        users = {position: current.seats[position].user_id for position in asked
                 if not current.seats[position].leaving}
        chosen = await self._shows.ask(
            current.hand_id or 0,
            {user: hand.hole_cards(position) for position, user in users.items() if user},
            self._lobby.settings.show_timeout, at_showdown=True)
        async with self._lock:
            for position in asked:
                user = users.get(position)
                hand.show_or_muck(position, user is not None and bool(chosen.get(user)))

    async def _offer_show(self, hand: Hand) -> None:
        """The person who won without a showdown may show one card or both, for the table's
        ``show_timeout``; the table shows the hand's last action meanwhile."""
        winner = next((position for position in range(hand.num_seats)
                       if hand.can_show(position)), None)
        if winner is None or self._lobby.settings.show_timeout <= 0:
            return
        seat = self._current.seats[winner]
        if seat.user_id is None or seat.leaving:
            return
        await self.publish()
        chosen = await self._shows.ask(
            self._current.hand_id or 0, {seat.user_id: hand.hole_cards(winner)},
            self._lobby.settings.show_timeout, at_showdown=False)
        cards = chosen.get(seat.user_id)
        if cards:
            async with self._lock:
                hand.show(winner, cards)

    async def _settle(self) -> None:
        current = self._current
        hand, seats, hand_id = current.require(), current.seats, current.hand_id
        if hand_id is None:
            raise RuntimeError("the hand has no ledger id")
        history = format_hand_history(
            hand, hand_id=hand_id, table_name=f"#{self._channel_id}",
            player_names=[seat.name for seat in seats], started_at=current.started_at)
        async with self._lock:
            result = finished_result(hand)
            await self._ledger.settle_hand(
                hand_id,
                {seat.key: result.final_stacks[position] for position, seat in enumerate(seats)},
                participants(hand, seats),
                history,
                RecordedHand.from_hand(hand).to_json(),
                habit_counts=self._habits.counts(hand),
            )
            for position, seat in enumerate(seats):
                seat.stack = result.final_stacks[position]
                seat.time_bank.hand_played()
            current.end()
            outcome = hand_outcome(hand, seats, hand_id, history)
        await self._next_turn()
        await self._outbox.hand_finished(self._public.state(), outcome)
        for position, seat in enumerate(seats):
            if seat.bot is not None and seat.bot.learns:
                try:
                    seat.bot.hand_finished(hand.view(position), self._bot_worker)
                except Exception:
                    log.exception("table %s: bot %s failed to review the hand",
                                  self._channel_id, seat.name)

    async def _refund(self) -> None:
        """Undo the hand: in the ledger its players keep their start-of-hand stacks (the
        seats' stacks never changed). A refund the ledger cannot make now waits for
        ``refund_leftover``; until then the ledger refuses the next deal."""
        hand_id = self._current.hand_id
        self._current.end()
        if hand_id is not None:
            try:
                await self._ledger.refund_hand(hand_id)
            except LedgerUnavailable:
                log.warning("table %s: hand %s will be refunded when the chip ledger is back",
                            self._channel_id, hand_id)
                self._unrefunded = hand_id
            except Exception:
                log.exception("table %s: refunding hand %s failed", self._channel_id, hand_id)
        self._current.hand = None

    async def _tell_cancelled(self) -> None:
        for seat in self._current.seats:
            if seat.user_id is not None:
                await self._outbox.tell(
                    seat.user_id,
                    tr("Something went wrong at the table, so this hand was cancelled and "
                       "everyone's chips are back to where they were when it started."))

    async def _next_turn(self) -> None:
        """Queue for a new turn after waiting on the ledger or the bots' worker, whose answers
        wake many tables at once."""
        self._turns.end()
        await self._turns.step(urgent=self._lobby.has_playing_person())


def _default_action(hand: Hand) -> Action:
    """Check if possible, else fold: what a turn that timed out does."""
    kind = ActionKind.CHECK if hand.legal_actions().can_check else ActionKind.FOLD
    return Action(kind)

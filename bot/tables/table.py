"""One table's runner: the lobby of one channel and the loop that deals and plays its hands.

A single asyncio task per table deals hands while enough players have chips, waits for the
player to act (with a timer), plays bots after their thinking delay, asks run-it-twice, and
settles each hand in the ledger before the next. Player requests (join, act, leave ...) are
applied under the table's lock, so racing requests apply at most once.

Chips: a seat's ``stack`` changes only through the ledger (buy-in, top-up, settlement), so
after every hand the seats' stacks equal ``ledger.table_stacks(channel_id)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from bot.errors import HandInProgress, InvalidAmount, NotEnoughChips, NotSeated
from bot.ledger import LedgerError
from bot.tables.bot_worker import BotWorker, BotWorkerFailed
from bot.tables.bots import Bot, check_level
from bot.tables.errors import (
    AlreadySeated,
    IllegalAction,
    NoQuestionPending,
    NotEnoughPlayers,
    NotYourTurn,
    TableClosed,
    TableFull,
    UnknownBot,
)
from bot.tables.notifier import Notifier, SeatState, TableState, TurnPrompt
from bot.tables.pacing import StepPacer, TurnBudget
from bot.tables.seats import Seat
from bot.tables.settings import TableSettings
from bot.tables.settlement import hand_outcome, participants
from bot.tables.snapshots import PotStates, SeatFacts, SeatStates
from engine.actions import Action, ActionKind
from engine.cards import Card, Deck
from engine.hand import Hand, IllegalActionError
from engine.history import format_hand_history
from engine.strategies.names import pick_bot_name

log = logging.getLogger(__name__)

FAILURE_PAUSE = 1.0
"""Seconds a table waits after a hand failed and was refunded, so a fault cannot spin."""
TIMEOUTS_BEFORE_SITTING_OUT = 2


class _Closing(Exception):
    """Raised inside the runner when the table is closing, to unwind the hand."""


class Table:
    """The table of one channel. Create it, ``start()`` its runner, ``close()`` it at the end.

    ``rng`` (tests) makes shuffles and bot choices reproducible; without it the deck is
    shuffled with the OS CSPRNG. ``bot_worker`` (shared) makes the bots' simulating decisions
    in another process; without it they run inline. ``pacer`` is shared by the tables of a
    process so that busy tables take turns on the event loop. When the last seat empties after
    a hand (a player who left mid-hand was cashed out) the table stops and calls ``on_empty``.
    """

    def __init__(
        self,
        guild_id: int,
        channel_id: int,
        settings: TableSettings,
        ledger: object,
        notifier: Notifier,
        *,
        rng: random.Random | None = None,
        bot_worker: BotWorker | None = None,
        on_empty: Callable[[Table], None] | None = None,
        pacer: StepPacer | None = None,
    ) -> None:
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.settings = settings
        self._ledger = ledger
        self._notifier = notifier
        self._deck_rng = rng
        self._rng = rng if rng is not None else random.Random()
        self._bot_worker = bot_worker
        self._on_empty = on_empty
        self._turns = TurnBudget(pacer if pacer is not None else StepPacer())
        self._seats: dict[int, Seat] = {}
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._waiter: asyncio.Future[None] | None = None
        self._closing = False
        self._start_now = False
        self._bot_hands_wanted = 0
        self._hands_played = asyncio.Event()
        # The current hand (kept after it ends, for the final state, until the next deal).
        self._hand: Hand | None = None
        self._hand_seats: list[Seat] = []
        self._positions: dict[int, int] = {}  # table seat index -> position in the hand
        self._seat_snapshots = SeatStates()
        self._pot_states = PotStates()
        self._hand_id: int | None = None
        self._hand_running = False
        self._hand_number = 0
        self._button: int | None = None
        self._actions_taken = 0
        self._awaiting: Seat | None = None
        self._deadline: float | None = None
        self._last_action: str | None = None
        self._run_it_twice_answers: dict[int, bool | None] | None = None

    # -- life cycle --------------------------------------------------------------------------

    def start(self) -> None:
        """Start the runner task on the running loop."""
        self._task = asyncio.get_running_loop().create_task(
            self._run(), name=f"table-{self.channel_id}"
        )

    async def close(self) -> None:
        """Stop the runner, refund an unfinished hand and cash everyone out."""
        self._closing = True
        self._wake()
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)
        async with self._lock:
            for seat in list(self._seats.values()):
                await self._cash_out(seat)

    def is_empty(self) -> bool:
        """True when no seat is taken."""
        return not self._seats

    # -- lobby -------------------------------------------------------------------------------

    async def join(self, user_id: int, name: str, buy_in: int | None) -> int:
        """Seat a person with a buy-in from their balance; returns the stack."""
        async with self._lock:
            self._check_open()
            if self._seat_of(user_id) is not None:
                raise AlreadySeated()
            index = self._free_seat()
            balance = await self._ledger.ensure_player(self.guild_id, user_id, name)
            amount = self._buy_in_amount(buy_in, balance)
            stack = await self._ledger.buy_in(self.guild_id, self.channel_id, user_id, amount)
            self._seats[index] = Seat(index, name, user_id, None, stack)
        await self._publish()
        self._wake()
        return stack

    async def leave(self, user_id: int) -> int | None:
        """Leave now (cash-out returned) or, when dealt into the running hand, fold on the
        next turn and cash out when the hand ends (``None``)."""
        async with self._lock:
            seat = self._require_seat(user_id)
            if not self._is_dealt_in(seat):
                amount = await self._cash_out(seat)
                cashed: int | None = amount
            else:
                seat.leaving = True
                if self._awaiting is seat:
                    self._apply(seat, Action(ActionKind.FOLD))
                cashed = None
        await self._publish()
        return cashed

    async def sit_out(self, user_id: int) -> None:
        """Skip hands from the next one on."""
        async with self._lock:
            self._require_seat(user_id).sitting_out = True
        await self._publish()

    async def sit_in(self, user_id: int) -> None:
        """Play again from the next hand."""
        async with self._lock:
            seat = self._require_seat(user_id)
            seat.sitting_out = False
            seat.timeouts_in_a_row = 0
        await self._publish()
        self._wake()

    async def top_up(self, user_id: int, amount: int) -> int:
        """Add chips from the balance to the stack (not while dealt into a hand)."""
        async with self._lock:
            seat = self._require_seat(user_id)
            if self._is_dealt_in(seat):
                raise HandInProgress("top up")
            room = self.settings.max_buy_in - seat.stack
            if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= room:
                raise InvalidAmount.out_of_range("top-up", amount, 1, room)
            fund = self._ledger.top_up if seat.stack > 0 else self._ledger.buy_in
            seat.stack = await fund(self.guild_id, self.channel_id, user_id, amount)
        await self._publish()
        self._wake()
        return seat.stack

    async def add_bots(self, level: str, count: int) -> list[str]:
        """Seat ``count`` bots of ``level``, bought in by the house; returns their names."""
        level = check_level(level)
        async with self._lock:
            self._check_open()
            free = self.settings.max_seats - len(self._seats)
            if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= free:
                if free == 0:
                    raise TableFull(self.settings.max_seats)
                raise InvalidAmount.out_of_range("number of bots", count, 1, free)
            names: list[str] = []
            for _ in range(count):
                name = pick_bot_name(level, [seat.name for seat in self._seats.values()],
                                     self._rng)
                bot = Bot(level, random.Random(self._rng.getrandbits(64)))
                stack = await self._ledger.buy_in(
                    self.guild_id, self.channel_id, name, self.settings.default_buy_in)
                index = self._free_seat()
                self._seats[index] = Seat(index, name, None, bot, stack)
                names.append(name)
        await self._publish()
        self._wake()
        return names

    async def remove_bot(self, name: str | None) -> str:
        """Remove a bot (named, or the last seated); one in a hand leaves when it ends."""
        async with self._lock:
            bots = [seat for seat in self._seats.values() if seat.is_bot and not seat.leaving]
            if name is not None:
                bots = [seat for seat in bots if seat.name.casefold() == name.casefold()]
            if not bots:
                raise UnknownBot(name)
            seat = bots[-1]
            if self._is_dealt_in(seat):
                seat.leaving = True
            else:
                await self._cash_out(seat)
        await self._publish()
        return seat.name

    async def start_hand(self) -> None:
        """Deal the next hand now (bots-only tables play one hand)."""
        async with self._lock:
            self._check_open()
            if self._hand_running:
                raise HandInProgress("start a new hand")
            if sum(seat.can_be_dealt_in() for seat in self._seats.values()) < 2:
                raise NotEnoughPlayers()
            if not self._has_playing_person():
                self._bot_hands_wanted += 1
            self._start_now = True
        self._wake()

    async def run_hands(self, count: int) -> None:
        """Play ``count`` more hands even without people, returning once they are settled
        (or as soon as fewer than two players can be dealt in)."""
        target = self._hand_number + count
        self._bot_hands_wanted += count
        self._wake()
        while self._hand_number < target or self._hand_running:
            if self._closing or (not self._hand_running and not self._can_deal()):
                break
            self._hands_played.clear()
            await self._hands_played.wait()
        self._bot_hands_wanted = 0

    def update_settings(self, **changes: object) -> TableSettings:
        """Change this table's settings; blinds apply from the next hand."""
        self.settings = self.settings.with_changes(**changes)
        return self.settings

    # -- play --------------------------------------------------------------------------------

    async def act(self, user_id: int, action: Action) -> None:
        """Apply the action of the person whose turn it is."""
        async with self._lock:
            seat = self._seat_of(user_id)
            if seat is None or self._awaiting is not seat:
                raise NotYourTurn()
            self._apply(seat, action)
            seat.timeouts_in_a_row = 0

    async def answer_run_it_twice(self, user_id: int, agree: bool) -> None:
        """Record a person's run-it-twice answer."""
        async with self._lock:
            answers = self._run_it_twice_answers
            if answers is None or user_id not in answers or answers[user_id] is not None:
                raise NoQuestionPending()
            answers[user_id] = bool(agree)
        self._wake()

    # -- reading -----------------------------------------------------------------------------

    def hole_cards(self, user_id: int) -> tuple[Card, ...] | None:
        """A person's cards in the running hand, or ``None``."""
        seat = self._seat_of(user_id)
        if seat is None or not self._hand_running or self._hand is None:
            return None
        position = self._position_of(seat)
        return None if position is None else self._hand.hole_cards(position)

    def state(self) -> TableState:
        """The public state of the table now (hole cards only as shown at showdown)."""
        hand = self._hand
        running = hand is not None and self._hand_running
        seats = self._seat_states(hand, running)
        to_act = hand.to_act if hand is not None and self._hand_running else None
        return TableState(
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            hand_number=self._hand_number,
            is_hand_running=self._hand_running,
            street=hand.street if hand is not None else None,
            board=hand.board if hand is not None else (),
            boards=hand.boards if hand is not None else ((),),
            pots=self._pot_states.pots(hand, self._hand_seats) if running else (),
            pot_total=hand.pot_total if running else 0,
            seats=seats,
            button_seat=self._button,
            to_act_seat=self._hand_seats[to_act].index if to_act is not None else None,
            to_act_deadline=self._deadline,
            last_action=self._last_action,
            small_blind=self.settings.small_blind,
            big_blind=self.settings.big_blind,
            ante=self.settings.ante,
            max_seats=self.settings.max_seats,
        )

    def _seat_states(self, hand: Hand | None, running: bool) -> tuple[SeatState, ...]:
        """Every seat as everyone sees it, from the hand's public facts read once (stacks and
        bets from the running hand, folds and all-ins from the current or last one)."""
        if hand is None:
            positions: dict[int, int] = {}
        else:
            positions = self._positions
            stacks, bets, folded = hand.stacks, hand.bets, hand.folded
            result = hand.result
            shown = {entry.seat: entry.cards for entry in result.showdown} \
                if result is not None else {}
        states, button = self._seat_snapshots, self._button
        seats = []
        for index in sorted(self._seats):
            seat = self._seats[index]
            level = seat.bot.level if seat.bot is not None else None
            position = positions.get(index)
            if position is None:
                facts: SeatFacts = (seat.name, seat.user_id, level, seat.stack, 0, False, False,
                                    False, seat.sitting_out, seat.leaving, index == button, ())
            else:
                out, behind = folded[position], stacks[position]
                facts = (seat.name, seat.user_id, level, behind if running else seat.stack,
                         bets[position] if running else 0, True, out, not out and behind == 0,
                         seat.sitting_out, seat.leaving, index == button,
                         shown.get(position, ()))
            seats.append(states.state(index, facts))
        return tuple(seats)

    # -- the runner --------------------------------------------------------------------------

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        pause = self.settings.next_hand_delay
        deal_at: float | None = None
        try:
            while not self._closing:
                if not self._ready_to_deal():
                    deal_at = None
                    await self._wait()
                    continue
                if deal_at is None:
                    deal_at = loop.time() + pause
                if not self._start_now and loop.time() < deal_at:
                    await self._wait(deal_at - loop.time())
                    continue
                self._start_now = False
                await self._turns.step(urgent=self._has_playing_person())
                succeeded = await self._play_hand()
                pause = self.settings.next_hand_delay if succeeded else FAILURE_PAUSE
                deal_at = loop.time() + pause
                self._hands_played.set()
        except _Closing:
            pass
        finally:
            self._hands_played.set()

    async def _play_hand(self) -> bool:
        """Deal, play and settle one hand; on any failure refund it. True if it settled."""
        failed_bot: Seat | None = None
        try:
            await self._deal()
            await self._send_hole_cards()
            hand = self._current_hand()
            while not hand.is_over:
                await self._turns.step(urgent=self._has_playing_person())
                if hand.awaiting_run_it_twice:
                    await self._run_it_twice_question(hand)
                else:
                    seat = self._hand_seats[hand.to_act]
                    if seat.is_bot:
                        failed_bot = seat
                        await self._bot_turn(seat)
                        failed_bot = None
                    else:
                        await self._person_turn(seat)
            await self._settle()
            return True
        except _Closing:
            await self._refund()
            raise
        except Exception as error:
            log.exception("table %s: hand %s failed; refunding it", self.channel_id,
                          self._hand_number)
            if failed_bot is not None and not isinstance(error, BotWorkerFailed):
                failed_bot.sitting_out = True
            await self._refund()
            return False

    async def _deal(self) -> None:
        async with self._lock:
            self._check_closing()
            dealt = [self._seats[index] for index in sorted(self._seats)
                     if self._seats[index].can_be_dealt_in()]
            if len(dealt) < 2:
                raise RuntimeError("fewer than two players can be dealt in")
            button = self._next_button(dealt)
            settings = self.settings
            hand = Hand(
                [seat.stack for seat in dealt], button, settings.small_blind,
                settings.big_blind, settings.ante,
                Deck(self._deck_rng) if self._deck_rng is not None else None,
                offer_run_it_twice=True,
            )
            number = self._hand_number + 1
            self._hand_id = await self._ledger.begin_hand(
                self.guild_id, self.channel_id, number,
                {seat.key: seat.stack for seat in dealt})
            self._hand_number = number
            self._hand, self._hand_seats, self._hand_running = hand, dealt, True
            self._positions = {seat.index: position for position, seat in enumerate(dealt)}
            self._button = dealt[button].index
            self._started_at = datetime.now(UTC)
            self._last_action = None
            if self._bot_hands_wanted and not self._has_playing_person():
                self._bot_hands_wanted -= 1

    async def _send_hole_cards(self) -> None:
        await self._next_turn()  # after the ledger's answer, which woke many tables at once
        hand = self._current_hand()
        state = self.state()
        await self._notify(self._notifier.table_changed(state))
        for position, seat in enumerate(self._hand_seats):
            if seat.user_id is not None:
                await self._notify(self._notifier.hole_cards(
                    state, seat.user_id, hand.hole_cards(position)))

    async def _bot_turn(self, seat: Seat) -> None:
        hand = self._current_hand()
        assert seat.bot is not None
        delay = self._rng.uniform(self.settings.bot_delay_min, self.settings.bot_delay_max)
        if delay > 0:
            await self._publish()
            await self._sleep(delay)
        position = hand.to_act
        if seat.leaving:
            action = Action(ActionKind.FOLD)
        else:
            view = hand.view(position)
            elsewhere = self._bot_worker is not None and seat.bot.simulates(view)
            action = await seat.bot.decide(view, self._bot_worker)
            if elsewhere:
                await self._next_turn()
        self._check_closing()
        async with self._lock:
            self._apply(seat, action)

    async def _person_turn(self, seat: Seat) -> None:
        hand = self._current_hand()
        if seat.leaving or seat.timeouts_in_a_row >= TIMEOUTS_BEFORE_SITTING_OUT:
            async with self._lock:
                self._apply(seat, self._default_action(hand))
            return
        loop = asyncio.get_running_loop()
        timeout = self.settings.turn_timeout
        turn = self._actions_taken
        ends_at = loop.time() + timeout
        self._awaiting, self._deadline = seat, time.time() + timeout
        try:
            state = self.state()
            prompt = TurnPrompt(self._position_index(hand.to_act), hand.legal_actions(),
                                self._deadline, hand.pot_total)
            await self._notify(self._notifier.table_changed(state))
            await self._notify(self._notifier.your_turn(state, seat.user_id, prompt))
            while self._actions_taken == turn and loop.time() < ends_at:
                await self._wait(ends_at - loop.time())
            async with self._lock:
                timed_out = self._actions_taken == turn
                if timed_out:
                    self._time_out(seat, hand)
        finally:
            self._awaiting, self._deadline = None, None
        if timed_out:
            await self._tell_timeout(seat)

    def _time_out(self, seat: Seat, hand: Hand) -> None:
        self._apply(seat, self._default_action(hand))
        seat.timeouts_in_a_row += 1
        if seat.timeouts_in_a_row >= TIMEOUTS_BEFORE_SITTING_OUT:
            seat.sitting_out = True

    async def _tell_timeout(self, seat: Seat) -> None:
        assert seat.user_id is not None
        if seat.sitting_out:
            message = ("Your time ran out twice in a row, so you are sitting out. "
                       "Sit in again to play.")
        else:
            message = "Your time ran out, so you checked or folded."
        await self._notify(self._notifier.tell(self.channel_id, seat.user_id, message))

    async def _run_it_twice_question(self, hand: Hand) -> None:
        live = [seat for position, seat in enumerate(self._hand_seats)
                if not hand.folded[position]]
        bots_agree = all(self._rng.random() < 0.5 for seat in live if seat.is_bot)
        people = [seat.user_id for seat in live if seat.user_id is not None]
        agree = bots_agree
        if bots_agree and people:
            loop = asyncio.get_running_loop()
            timeout = self.settings.run_it_twice_timeout
            ends_at = loop.time() + timeout
            answers: dict[int, bool | None] = dict.fromkeys(people)
            self._run_it_twice_answers = answers
            try:
                await self._notify(self._notifier.ask_run_it_twice(
                    self.state(), people, time.time() + timeout))
                while (None in answers.values() and False not in answers.values()
                       and loop.time() < ends_at):
                    await self._wait(ends_at - loop.time())
            finally:
                self._run_it_twice_answers = None
            agree = all(answers.values())
        async with self._lock:
            hand.choose_run_it_twice(agree)
            self._last_action = "Running it twice" if agree else "Running it once"
            self._actions_taken += 1

    async def _settle(self) -> None:
        hand = self._current_hand()
        seats = self._hand_seats
        assert self._hand_id is not None
        history = format_hand_history(
            hand, hand_id=self._hand_id, table_name=f"#{self.channel_id}",
            player_names=[seat.name for seat in seats], started_at=self._started_at)
        async with self._lock:
            result = hand.result
            assert result is not None
            await self._ledger.settle_hand(
                self._hand_id,
                {seat.key: result.final_stacks[position] for position, seat in enumerate(seats)},
                participants(hand, seats),
                history,
            )
            for position, seat in enumerate(seats):
                seat.stack = result.final_stacks[position]
            self._hand_running = False
            outcome = hand_outcome(hand, seats, self._hand_number, self._hand_id, history)
            self._hand_id = None
        await self._next_turn()
        await self._notify(self._notifier.hand_finished(self.state(), outcome))
        for position, seat in enumerate(seats):
            if seat.bot is not None and seat.bot.learns:
                try:
                    seat.bot.hand_finished(hand.view(position), self._bot_worker)
                except Exception:
                    log.exception("table %s: bot %s failed to review the hand",
                                  self.channel_id, seat.name)
        await self._after_hand(seats)

    async def _refund(self) -> None:
        hand_id, self._hand_id = self._hand_id, None
        self._hand_running = False
        self._awaiting = self._deadline = None
        if hand_id is not None:
            try:
                await self._ledger.refund_hand(hand_id)
            except Exception:
                log.exception("table %s: refunding hand %s failed", self.channel_id, hand_id)
        self._hand = None
        if self._closing:
            return
        for seat in self._hand_seats:
            if seat.user_id is not None:
                await self._notify(self._notifier.tell(
                    self.channel_id, seat.user_id,
                    "Something went wrong at the table, so this hand was cancelled and "
                    "everyone's chips are back to where they were when it started."))
        await self._after_hand(self._hand_seats, refunded=True)

    async def _after_hand(self, seats: list[Seat], *, refunded: bool = False) -> None:
        """Cash out the players who left, rebuy busted bots, tell busted people; publish the
        table if that changed it (``hand_finished`` already showed the settled one)."""
        changed = refunded
        async with self._lock:
            for seat in seats:
                if seat.leaving:
                    await self._cash_out(seat)
                    changed = True
                elif seat.stack == 0 and seat.bot is not None:
                    await self._rebuy(seat)
                    changed = True
        for seat in seats:
            still_seated = self._seats.get(seat.index) is seat
            if still_seated and seat.stack == 0 and seat.user_id is not None and not seat.leaving:
                await self._notify(self._notifier.tell(
                    self.channel_id, seat.user_id,
                    "You are out of chips: top up to keep playing, or leave the table."))
        if changed:
            await self._publish()
        if not self._seats:
            self._closing = True
            if self._on_empty is not None:
                self._on_empty(self)

    async def _rebuy(self, bot: Seat) -> None:
        """A busted bot buys in again from the house; if that fails it leaves the table."""
        try:
            bot.stack = await self._ledger.buy_in(
                self.guild_id, self.channel_id, bot.name, self.settings.default_buy_in)
        except LedgerError:
            log.exception("table %s: bot %s could not buy in again", self.channel_id, bot.name)
            self._seats.pop(bot.index, None)
            if bot.bot is not None:
                bot.bot.leave(self._bot_worker)

    # -- helpers -----------------------------------------------------------------------------

    def _apply(self, seat: Seat, action: Action) -> None:
        """Apply ``seat``'s action to the hand (the caller holds the lock)."""
        hand = self._current_hand()
        position = hand.to_act
        if position is None or self._hand_seats[position] is not seat:
            raise NotYourTurn()
        try:
            hand.act(position, action)
        except IllegalActionError as error:
            raise IllegalAction(f"You cannot do that: {error}.") from None
        record = hand.history[-1]
        text = f"{seat.name}: {record.kind}"
        if record.kind is not ActionKind.FOLD and record.kind is not ActionKind.CHECK:
            text += f" {record.to:,}" if record.kind is not ActionKind.CALL else \
                f" {record.added:,}"
        self._last_action = text + (" (all-in)" if record.is_all_in else "")
        self._actions_taken += 1
        self._wake()

    @staticmethod
    def _default_action(hand: Hand) -> Action:
        """Check if possible, else fold: what a timeout or a departed player does."""
        kind = ActionKind.CHECK if hand.legal_actions().can_check else ActionKind.FOLD
        return Action(kind)

    def _current_hand(self) -> Hand:
        if self._hand is None:
            raise RuntimeError("no hand is being played")
        return self._hand

    def _position_of(self, seat: Seat) -> int | None:
        return next((p for p, s in enumerate(self._hand_seats) if s is seat), None)

    def _position_index(self, position: int | None) -> int:
        assert position is not None
        return self._hand_seats[position].index

    def _is_dealt_in(self, seat: Seat) -> bool:
        return self._hand_running and self._position_of(seat) is not None

    def _seat_of(self, user_id: int) -> Seat | None:
        return next((seat for seat in self._seats.values() if seat.user_id == user_id), None)

    def _require_seat(self, user_id: int) -> Seat:
        seat = self._seat_of(user_id)
        if seat is None:
            raise NotSeated()
        return seat

    def _free_seat(self) -> int:
        index = next((i for i in range(self.settings.max_seats) if i not in self._seats), None)
        if index is None:
            raise TableFull(self.settings.max_seats)
        return index

    def _buy_in_amount(self, requested: int | None, balance: int) -> int:
        low, high = self.settings.min_buy_in, self.settings.max_buy_in
        if requested is None:
            if balance < low:
                raise NotEnoughChips(
                    f"The minimum buy-in is {low:,} chips but your balance is {balance:,}.")
            return min(self.settings.default_buy_in, balance)
        if isinstance(requested, bool) or not isinstance(requested, int) \
                or not low <= requested <= high:
            raise InvalidAmount.out_of_range("buy-in", requested, low, high)
        return requested

    def _next_button(self, dealt: list[Seat]) -> int:
        """The position (in ``dealt``) of the next button: the first seat clockwise after the
        previous button, so the button moves every hand."""
        if self._button is None:
            return 0
        return next((p for p, seat in enumerate(dealt) if seat.index > self._button), 0)

    def _has_playing_person(self) -> bool:
        return any(seat.user_id is not None and seat.can_be_dealt_in()
                   for seat in self._seats.values())

    def _can_deal(self) -> bool:
        return sum(seat.can_be_dealt_in() for seat in self._seats.values()) >= 2

    def _ready_to_deal(self) -> bool:
        return self._can_deal() and (self._has_playing_person() or self._bot_hands_wanted > 0)

    async def _cash_out(self, seat: Seat) -> int:
        """Return the seat's stack to its owner and free the seat (caller holds the lock)."""
        amount = await self._ledger.cash_out(self.guild_id, self.channel_id, seat.key)
        seat.stack = 0
        self._seats.pop(seat.index, None)
        if seat.bot is not None:
            seat.bot.leave(self._bot_worker)
        return amount

    def _check_open(self) -> None:
        if self._closing:
            raise TableClosed()

    def _check_closing(self) -> None:
        if self._closing:
            raise _Closing()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def _wait(self, timeout: float | None = None) -> None:
        """Wait until woken (a request changed something) or ``timeout`` seconds pass."""
        self._check_closing()
        waiter = asyncio.get_running_loop().create_future()
        self._waiter = waiter
        try:
            if timeout is None:
                await waiter
            else:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(waiter, max(timeout, 0.0))
        finally:
            self._waiter = None
        self._check_closing()

    async def _sleep(self, seconds: float) -> None:
        """Sleep ``seconds`` even if woken meanwhile (closing interrupts it)."""
        loop = asyncio.get_running_loop()
        ends_at = loop.time() + seconds
        while loop.time() < ends_at:
            await self._wait(ends_at - loop.time())

    async def _next_turn(self) -> None:
        """Queue for a new turn after waiting on the ledger or the bots' worker, whose answers
        wake many tables at once."""
        self._turns.end()
        await self._turns.step(urgent=self._has_playing_person())

    async def _publish(self) -> None:
        await self._notify(self._notifier.table_changed(self.state()))

    async def _notify(self, call: Awaitable[None]) -> None:
        """Deliver one notification; a failing front end is logged, never fatal."""
        try:
            await call
        except Exception:
            log.exception("table %s: notifier failed", self.channel_id)

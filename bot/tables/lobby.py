"""The seats of one table and the chips that enter and leave them: joining with a buy-in,
topping up, cashing out, bots bought in (and again when busted) by the house.

Nothing here knows about hands: the table checks that a seat is not dealt into the running
hand before it moves the seat's chips. Callers hold the table's lock, so racing requests
apply one at a time. A seat's ``stack`` changes only through the ledger.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping

from bot.errors import InvalidAmount, NotEnoughChips, NotSeated
from bot.i18n import tr
from bot.ledger import LedgerError
from bot.tables.bot_worker import BotWorker
from bot.tables.bots import Bot
from bot.tables.errors import AlreadySeated, TableFull, TooManyBots, UnknownBot
from bot.tables.ledger_port import TableLedger
from bot.tables.saved_state import SavedSeat
from bot.tables.seats import PlayerKey, Seat
from bot.tables.settings import TableSettings
from bot.tables.time_bank import TimeBank
from engine.strategies.names import pick_bot_name

log = logging.getLogger(__name__)

BANK_KEPT_SECONDS = 4 * 60 * 60
"""How long the lobby keeps the time bank of a person who left, for them to sit down with
again. Four hours: longer than any break within one evening's session (a meal, a dropped
connection), so that leaving and rejoining never refills a bank; shorter than the gap between
two sessions, so that someone back another day starts with a full bank. Only play refills a
bank (``bot.tables.time_bank``), never time away."""


class Lobby:
    """Who sits at the table of ``channel_id``, and the table's ``settings``.

    ``rng`` names the bots and seeds their own random streams; ``bot_worker`` (if any) is
    told when a bot leaves, so that it forgets its copy. A person's time bank is theirs, not
    their seat's: the lobby keeps the bank of a person who leaves for ``BANK_KEPT_SECONDS``
    by ``clock`` (seconds, monotonic) and gives it back when they sit down again.
    """

    __slots__ = ("_banks_left", "_bot_worker", "_clock", "_ledger", "_rng", "_seats",
                 "channel_id", "deals_sitting_out", "guild_id", "settings")

    def __init__(
        self,
        guild_id: int,
        channel_id: int,
        settings: TableSettings,
        ledger: TableLedger,
        rng: random.Random,
        bot_worker: BotWorker | None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.settings = settings
        """The table's rules: blinds and buy-ins apply from the next hand when changed."""
        self._ledger = ledger
        self._rng = rng
        self._bot_worker = bot_worker
        self._seats: dict[int, Seat] = {}
        self._clock = clock
        self._banks_left: dict[int, tuple[float, TimeBank]] = {}
        """The used banks of people who left, by user id, with when they left, oldest first."""
        self.deals_sitting_out = False
        """True at a tournament table: players who sit out are still dealt in (they post
        their blinds and antes, and fold or check at once when their turn comes)."""

    # -- reading -----------------------------------------------------------------------------

    @property
    def seats(self) -> Mapping[int, Seat]:
        """The occupied seats by index (read-only)."""
        return self._seats

    def is_empty(self) -> bool:
        """True when no seat is taken."""
        return not self._seats

    def seat_of(self, user_id: int) -> Seat | None:
        """The seat of a person, if they sit here."""
        return next((seat for seat in self._seats.values() if seat.user_id == user_id), None)

    def require_seat(self, user_id: int) -> Seat:
        """The seat of a person; ``NotSeated`` when they have none."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise NotSeated()
        return seat

    def dealable(self) -> list[Seat]:
        """The seats that take part in the next hand, in seat order."""
        return [self._seats[index] for index in sorted(self._seats)
                if self._dealt_in(self._seats[index])]

    def can_deal(self) -> bool:
        """True when at least two seats can be dealt in."""
        return sum(self._dealt_in(seat) for seat in self._seats.values()) >= 2

    def has_playing_person(self) -> bool:
        """True when a person (not a bot) would be dealt into the next hand."""
        return any(seat.user_id is not None and self._dealt_in(seat)
                   for seat in self._seats.values())

    def _dealt_in(self, seat: Seat) -> bool:
        if self.deals_sitting_out:
            return not seat.leaving and seat.stack > 0
        return seat.can_be_dealt_in()

    # -- chips in ----------------------------------------------------------------------------

    async def seat_person(self, user_id: int, name: str, buy_in: int | None) -> int:
        """Seat a person with a buy-in from their balance; returns the stack.

        Raises ``AlreadySeated``, ``TableFull``, ``InvalidAmount`` (a buy-in outside the
        table's range) or ``NotEnoughChips``; nothing changes then.
        """
        if self.seat_of(user_id) is not None:
            raise AlreadySeated()
        index = self._free_seat()
        balance = await self._ledger.ensure_player(self.guild_id, user_id, name)
        amount = self._buy_in_amount(buy_in, balance)
        stack = await self._ledger.buy_in(self.guild_id, self.channel_id, user_id, amount)
        self._seats[index] = Seat(index, name, user_id, None, stack,
                                  time_bank=self._bank_of(user_id))
        return stack

    async def seat_with_stack(
        self, user_id: int | None, name: str, bot: Bot | None, stack: int
    ) -> Seat:
        """Seat a tournament player (a person, or a bot) with ``stack``, outside the buy-in
        range: the ledger here is the tournament's chips. ``TableFull`` when no seat is free,
        ``AlreadySeated`` for a person seated already."""
        if user_id is not None and self.seat_of(user_id) is not None:
            raise AlreadySeated()
        index = self._free_seat()
        key: PlayerKey = user_id if user_id is not None else name
        seated = await self._ledger.buy_in(self.guild_id, self.channel_id, key, stack)
        seat = self._seats[index] = Seat(index, name, user_id, bot, seated)
        if user_id is not None:
            seat.time_bank = self._bank_of(user_id)
        return seat

    def restore_seat(self, saved: SavedSeat, stack: int) -> Seat:
        """Seat a holder of a saved table again with the ``stack`` the ledger still holds for
        them at this table (no chips move): a person with their flags and time bank, a bot
        with a strategy of its level."""
        bot = None if saved.bot_level is None else Bot(
            saved.bot_level, random.Random(self._rng.getrandbits(64)))
        seat = Seat(saved.index, saved.name, saved.user_id, bot, stack,
                    sitting_out=saved.sitting_out, hands_sat_out=saved.hands_sat_out,
                    timeouts_in_a_row=saved.timeouts_in_a_row, straddles=saved.straddles)
        seat.time_bank.used = saved.time_bank_used
        self._seats[saved.index] = seat
        return seat

    async def take(self, seat: Seat) -> int:
        """Take a tournament player off this table with their stack (it stays theirs, off
        table, to seat elsewhere); their bot, if any, goes with them. Returns the stack."""
        stack = await self._ledger.cash_out(self.guild_id, self.channel_id, seat.key)
        self._seats.pop(seat.index, None)
        self._keep_bank(seat)
        return stack

    async def top_up(self, seat: Seat, amount: int) -> int:
        """Add ``amount`` from the balance to the seat's stack, up to the maximum buy-in
        (``InvalidAmount`` otherwise); returns the new stack."""
        room = self.settings.max_buy_in - seat.stack
        if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= room:
            raise InvalidAmount.out_of_range("top-up", amount, 1, room)
        fund = self._ledger.top_up if seat.stack > 0 else self._ledger.buy_in
        seat.stack = await fund(self.guild_id, self.channel_id, seat.key, amount)
        return seat.stack

    async def seat_bots(self, level: str, count: int) -> list[str]:
        """Seat ``count`` bots of ``level`` (a registry name), bought in by the house; returns
        their names. ``TableFull`` or ``InvalidAmount`` when they do not fit, ``TooManyBots``
        when they would pass the table's bot limit."""
        free = self.settings.max_seats - len(self._seats)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= free:
            if free == 0:
                raise TableFull(self.settings.max_seats)
            raise InvalidAmount.out_of_range("number of bots", count, 1, free)
        seated = sum(seat.is_bot for seat in self._seats.values())
        if seated + count > self.settings.bot_limit:
            raise TooManyBots(self.settings.bot_limit, seated)
        names: list[str] = []
        for _ in range(count):
            name = pick_bot_name(level, [seat.name for seat in self._seats.values()], self._rng)
            bot = Bot(level, random.Random(self._rng.getrandbits(64)))
            stack = await self._ledger.buy_in(
                self.guild_id, self.channel_id, name, self.settings.default_buy_in)
            index = self._free_seat()
            self._seats[index] = Seat(index, name, None, bot, stack)
            names.append(name)
        return names

    async def rebuy(self, bot: Seat) -> None:
        """A busted bot buys in again from the house; if the ledger refuses, it leaves."""
        try:
            bot.stack = await self._ledger.buy_in(
                self.guild_id, self.channel_id, bot.name, self.settings.default_buy_in)
        except LedgerError:
            log.exception("table %s: bot %s could not buy in again", self.channel_id, bot.name)
            self._forget(bot)

    # -- chips out ---------------------------------------------------------------------------

    def bot_to_remove(self, name: str | None) -> Seat:
        """The bot called ``name`` (any case), or the last one seated; ``UnknownBot`` if none.
        Bots already leaving are not counted."""
        bots = [seat for seat in self._seats.values() if seat.is_bot and not seat.leaving]
        if name is not None:
            bots = [seat for seat in bots if seat.name.casefold() == name.casefold()]
        if not bots:
            raise UnknownBot(name)
        return bots[-1]

    async def cash_out(self, seat: Seat) -> int:
        """Return the seat's stack to its owner and free the seat; returns the amount."""
        amount = await self._ledger.cash_out(self.guild_id, self.channel_id, seat.key)
        seat.stack = 0
        self._forget(seat)
        return amount

    # -- helpers -----------------------------------------------------------------------------

    def _forget(self, seat: Seat) -> None:
        self._seats.pop(seat.index, None)
        self._keep_bank(seat)
        if seat.bot is not None:
            seat.bot.leave(self._bot_worker)

    def _keep_bank(self, seat: Seat) -> None:
        """Keep the time bank of a person leaving (a full one is what anyone sits down with)."""
        now = self._clock()
        self._forget_old_banks(now)
        if seat.user_id is not None and seat.time_bank.used > 0:
            self._banks_left.pop(seat.user_id, None)  # re-inserted last: the newest
            self._banks_left[seat.user_id] = (now, seat.time_bank)

    def _bank_of(self, user_id: int) -> TimeBank:
        """The bank a person sits down with: the one they left with less than
        ``BANK_KEPT_SECONDS`` ago, else a full one."""
        self._forget_old_banks(self._clock())
        kept = self._banks_left.pop(user_id, None)
        return TimeBank() if kept is None else kept[1]

    def _forget_old_banks(self, now: float) -> None:
        """Drop the banks kept longer than ``BANK_KEPT_SECONDS`` (the oldest come first)."""
        while self._banks_left:
            user_id, (left_at, _) = next(iter(self._banks_left.items()))
            if now - left_at < BANK_KEPT_SECONDS:
                return
            del self._banks_left[user_id]

    def _free_seat(self) -> int:
        index = next((i for i in range(self.settings.max_seats) if i not in self._seats), None)
        if index is None:
            raise TableFull(self.settings.max_seats)
        return index

    def _buy_in_amount(self, requested: int | None, balance: int) -> int:
        low, high = self.settings.min_buy_in, self.settings.max_buy_in
        if requested is None:
            if balance < low:
                raise NotEnoughChips(tr(
                    "The minimum buy-in is {low} chips but your balance is {balance}.",
                    low=low, balance=balance))
            return min(self.settings.default_buy_in, balance)
        if isinstance(requested, bool) or not isinstance(requested, int) \
                or not low <= requested <= high:
            raise InvalidAmount.out_of_range(tr("buy-in"), requested, low, high)
        return requested

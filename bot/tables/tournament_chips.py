"""The play chips of one tournament: a ``TableLedger`` that keeps its stacks in memory.

A tournament table is an ordinary ``Table`` whose ledger is this object instead of the chip
ledger. Every entrant is issued the starting stack once (``issue``); from then on chips only
move between players' stacks by settled hands, so ``total`` never changes. A player who is
not seated (before seating, while moved between tables, once busted) holds their chips
"off table"; ``buy_in`` seats the whole of them and ``cash_out`` takes them off again, which
is how a player moves with their stack. No chip of the chip ledger moves here: the
tournament's real chips are the buy-ins in the ledger's tournament escrow.

Its hands are recorded all the same, in the ledger's hand log (``TournamentHandLog``), marked
as the tournament's: the log gives each its id, from the one sequence of every hand, so a
tournament hand has one number on the table, in DMs, in ``/history`` and in ``/replay``.

>>> import asyncio
>>> class HandLog:  # the ledger's hand log, reduced to the id it gives
...     async def begin_tournament_hand(self, tournament_id, table_id, number): return 7
...     async def settle_tournament_hand(self, hand_id, participants, text, replay=None, *,
...                                      habit_counts=None): pass
>>> chips = TournamentChips(HandLog(), tournament_id=1)
>>> chips.issue("ann", 500); chips.issue("bob", 500)
>>> async def demo() -> tuple[int, int, int]:
...     await chips.buy_in(1, 10, "ann", 500)
...     await chips.buy_in(1, 10, "bob", 500)
...     hand = await chips.begin_hand(1, 10, 1, {"ann": 500, "bob": 500})
...     await chips.settle_hand(hand, {"ann": 700, "bob": 300}, [], "")
...     return hand, chips.stack("ann"), chips.total
>>> asyncio.run(demo())
(7, 700, 1000)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.ledger import (
    HandHabits,
    HandParticipant,
    InvalidRequest,
    PlayerKey,
    RecoveryReport,
    UnbalancedHand,
    UnknownHand,
)
from bot.shards import ShardSet
from bot.tables.ledger_port import TournamentHandLog


class TournamentChips:
    """Stacks by player and table, all in memory; implements ``TableLedger``. The hands of
    tournament ``tournament_id`` are recorded in ``hand_log``."""

    __slots__ = ("_hand_log", "_hands", "_off_table", "_seated", "_total", "_tournament_id")

    def __init__(self, hand_log: TournamentHandLog, tournament_id: int) -> None:
        self._hand_log = hand_log
        self._tournament_id = tournament_id
        self._off_table: dict[PlayerKey, int] = {}
        self._seated: dict[PlayerKey, tuple[int, int]] = {}  # player -> (table, stack)
        self._hands: dict[int, tuple[int, dict[PlayerKey, int]]] = {}  # id -> (table, start)
        self._total = 0

    # -- the tournament's side ---------------------------------------------------------------

    def issue(self, player: PlayerKey, stack: int) -> None:
        """Give an entrant the starting stack (off table), or a busted one the chips of a
        rebuy or re-entry; never to a player who holds chips."""
        if self._off_table.get(player, 0) or player in self._seated:
            raise ValueError(f"{player!r} already has tournament chips")
        if isinstance(stack, bool) or not isinstance(stack, int) or stack < 1:
            raise ValueError(f"a starting stack must be a positive whole number, not {stack!r}")
        self._off_table[player] = stack
        self._total += stack

    @property
    def total(self) -> int:
        """Every chip issued; settled hands never change it."""
        return self._total

    def stack(self, player: PlayerKey) -> int:
        """The player's chips now (at the start of a running hand), seated or not."""
        seated = self._seated.get(player)
        return seated[1] if seated is not None else self._off_table.get(player, 0)

    def stacks(self) -> dict[PlayerKey, int]:
        """Every player's chips, busted players with 0."""
        result = dict(self._off_table)
        result.update({player: stack for player, (_, stack) in self._seated.items()})
        return result

    def table_of(self, player: PlayerKey) -> int | None:
        """The table (channel id) where the player's chips are seated."""
        seated = self._seated.get(player)
        return seated[0] if seated is not None else None

    def check(self) -> None:
        """Raise ``AssertionError`` unless the stacks add up to ``total`` (for tests)."""
        held = sum(self._off_table.values()) + sum(stack for _, stack in self._seated.values())
        if held != self._total:
            raise AssertionError(f"tournament chips: {held} held, {self._total} issued")

    # -- TableLedger -------------------------------------------------------------------------

    async def ensure_player(self, guild_id: int, user_id: int, name: str) -> int:
        """Tournament players exist in the chip ledger already; their off-table chips."""
        return self._off_table.get(user_id, 0)

    async def buy_in(self, guild_id: int, table_id: int, player: PlayerKey, amount: int) -> int:
        """Seat all of the player's off-table chips (``amount`` must be them) at ``table_id``."""
        held = self._off_table.get(player)
        if held is None or held != amount or player in self._seated:
            raise InvalidRequest(f"{player!r} cannot bring {amount} tournament chips to a table")
        del self._off_table[player]
        self._seated[player] = (table_id, amount)
        return amount

    async def top_up(self, guild_id: int, table_id: int, player: PlayerKey, amount: int) -> int:
        """Issue a rebuy's or add-on's ``amount`` onto the stack the player has seated at
        ``table_id`` (between their hands); the new stack."""
        seated = self._seated.get(player)
        if seated is None or seated[0] != table_id or isinstance(amount, bool) \
                or not isinstance(amount, int) or amount < 1 \
                or any(player in start for _, start in self._hands.values()):
            raise InvalidRequest(f"{player!r} cannot get {amount!r} chips at {table_id} now")
        self._seated[player] = (table_id, seated[1] + amount)
        self._total += amount
        return seated[1] + amount

    async def cash_out(self, guild_id: int, table_id: int, player: PlayerKey) -> int:
        """Take the player's stack off ``table_id`` (it stays theirs); returns it."""
        seated = self._seated.get(player)
        if seated is None or seated[0] != table_id:
            return 0
        if any(table == table_id and player in start for table, start in self._hands.values()):
            raise InvalidRequest(f"{player!r} is in a hand at table {table_id}")
        del self._seated[player]
        self._off_table[player] = seated[1]
        return seated[1]

    async def begin_hand(
        self, guild_id: int, table_id: int, hand_number: int, stacks: Mapping[PlayerKey, int]
    ) -> int:
        """Check the start-of-hand stacks against the seated chips and open the hand in the
        hand log; returns its id."""
        for player, stack in stacks.items():
            if self._seated.get(player) != (table_id, stack):
                raise UnbalancedHand(f"{player!r} does not have {stack} chips at {table_id}")
        if any(table == table_id for table, _ in self._hands.values()):
            raise InvalidRequest(f"table {table_id} has a hand running")
        hand_id = await self._hand_log.begin_tournament_hand(
            self._tournament_id, table_id, hand_number)
        self._hands[hand_id] = (table_id, dict(stacks))
        return hand_id

    async def settle_hand(
        self,
        hand_id: int,
        final_stacks: Mapping[PlayerKey, int],
        participants: Sequence[HandParticipant],
        history_text: str,
        replay: str | None = None,
        *,
        habit_counts: Sequence[HandHabits] | None = None,
    ) -> None:
        """The final stacks replace the start-of-hand ones (they must hold the same chips)
        once the hand log has recorded the hand; if it cannot, nothing changed."""
        running = self._hands.get(hand_id)
        if running is None:
            raise UnknownHand(f"no running tournament hand {hand_id}")
        table_id, start = running
        if set(final_stacks) != set(start) or sum(final_stacks.values()) != sum(start.values()):
            raise UnbalancedHand(f"hand {hand_id} does not add up")
        if any(stack < 0 for stack in final_stacks.values()):
            raise UnbalancedHand(f"hand {hand_id} leaves a negative stack")
        await self._hand_log.settle_tournament_hand(
            hand_id, participants, history_text, replay, habit_counts=habit_counts)
        del self._hands[hand_id]
        for player, stack in final_stacks.items():
            self._seated[player] = (table_id, stack)

    async def refund_hand(self, hand_id: int) -> None:
        """Forget the hand (the stacks never changed), then close it in the hand log; one the
        log cannot close now is closed when the table's next hand begins."""
        if self._hands.pop(hand_id, None) is None:
            raise UnknownHand(f"no running tournament hand {hand_id}")
        await self._hand_log.refund_hand(hand_id)

    async def recover(self, *, shards: ShardSet | None = None) -> RecoveryReport:
        """Nothing to repair in memory (the ledger refunds a crashed tournament)."""
        return RecoveryReport(hands_refunded=(), tables_closed=(), chips_returned=0)

    async def guild_settings(self, guild_id: int) -> Mapping[str, object]:
        """Tournament tables take no server defaults from here."""
        return {}

    async def save_guild_settings(self, guild_id: int, settings: Mapping[str, object]) -> None:
        """Nothing to save."""

"""What the table runtime needs from the chip ledger, as a typed Protocol.

The runtime calls exactly these methods and nothing else; ``bot.ledger.Ledger`` (either
backend) implements them, and a test may pass anything that does. Every method is one
transaction: it either happens completely or raises and changes nothing. A refusal is a
``HoldemError`` (``LedgerError``) whose message is for the person who asked; any other
exception is a fault of the ledger itself (the database is locked, read-only or gone).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Protocol, runtime_checkable

from bot.ledger import (
    HandHabits,
    HandParticipant,
    PlayerKey,
    RecoveryReport,
    SavedTable,
    SavedTournament,
)
from bot.shards import ShardSet


class TableLedger(Protocol):
    """The chip ledger as the table runtime uses it.

    ``table_id`` is the table's channel id; ``player`` is a person's user id or a bot's name
    (``PlayerKey``). Chips at a table are held in escrow, one account per seat holder.
    """

    async def ensure_player(self, guild_id: int, user_id: int, name: str) -> int:
        """Create the person on first use (with the starting grant), refresh the display name,
        and return their balance."""
        ...

    async def buy_in(self, guild_id: int, table_id: int, player: PlayerKey, amount: int) -> int:
        """Move ``amount`` from the player's balance (a bot's from the house) into their
        escrow at the table; returns the stack."""
        ...

    async def top_up(self, guild_id: int, table_id: int, player: PlayerKey, amount: int) -> int:
        """Add ``amount`` from the balance to a stack that holds chips; returns the stack."""
        ...

    async def cash_out(self, guild_id: int, table_id: int, player: PlayerKey) -> int:
        """Return the player's whole stack at the table to their balance; returns the amount."""
        ...

    async def begin_hand(
        self, guild_id: int, table_id: int, hand_number: int, stacks: Mapping[PlayerKey, int]
    ) -> int:
        """Record the start-of-hand stacks (each must equal the player's escrow) and return
        the new hand's id."""
        ...

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
        """Finish the hand: escrow becomes the final stacks, results, history and replay
        (``engine.hand_record.HandRecord`` JSON) recorded, with the players' habits as
        counted while the hand was played (in the order of ``participants``)."""
        ...

    async def refund_hand(self, hand_id: int) -> None:
        """Abort the hand: its players keep their start-of-hand stacks."""
        ...

    async def recover(self, *, shards: ShardSet | None = None) -> RecoveryReport:
        """Start-up repair: close hands cut short by a crash, return idle escrow; with
        ``shards``, only in the guilds on them."""
        ...

    async def guild_settings(self, guild_id: int) -> Mapping[str, object]:
        """The table defaults a server saved (empty when none)."""
        ...

    async def save_guild_settings(self, guild_id: int, settings: Mapping[str, object]) -> None:
        """Replace a server's saved table defaults."""
        ...


@runtime_checkable
class TableStateStore(Protocol):
    """Where cash tables keep their state across a restart (``bot.ledger.Ledger`` is one):
    the seats' chips stay in escrow, and the state says who sits where
    (``bot.tables.saved_state``)."""

    async def save_table_state(self, guild_id: int, channel_id: int, state: str) -> None:
        """Keep the table's state (JSON text), replacing the last one."""
        ...

    async def forget_table_state(self, channel_id: int) -> None:
        """The table closed for good: it does not open again."""
        ...

    async def saved_tables(self, shards: ShardSet | None = None) -> list[SavedTable]:
        """The saved tables in the guilds on ``shards``."""
        ...

    async def table_stacks(self, table_id: int) -> dict[PlayerKey, int]:
        """The chips each player holds at a table (empty stacks left out)."""
        ...

    async def recover(self, running_table_ids: Collection[int] = (),
                      shards: ShardSet | None = None, *,
                      keep_saved_tables: bool = False) -> RecoveryReport:
        """Start-up repair; with ``keep_saved_tables`` the escrow of saved tables stays."""
        ...


class TournamentHandLog(Protocol):
    """The ledger's hand log as a tournament's tables record their hands (``TournamentChips``):
    a hand id from the one sequence of every hand, the history and replay, and the results in
    play chips, which move no account."""

    async def begin_tournament_hand(
        self, tournament_id: int, table_id: int, hand_number: int
    ) -> int:
        """Open a hand of the running tournament at the table; returns its id."""
        ...

    async def settle_tournament_hand(
        self,
        hand_id: int,
        participants: Sequence[HandParticipant],
        history_text: str,
        replay: str | None = None,
        *,
        habit_counts: Sequence[HandHabits] | None = None,
    ) -> None:
        """Record the finished hand: history, replay, everyone's result in play chips and
        habits (``TableLedger.settle_hand``)."""
        ...

    async def refund_hand(self, hand_id: int) -> None:
        """Close the hand unfinished."""
        ...


@runtime_checkable
class TournamentLedger(TournamentHandLog, Protocol):
    """The chip ledger as the tournament runtime uses it (``bot.ledger.Ledger`` implements it).

    A tournament's real chips are its buy-ins, held in one escrow account of the tournament
    from registration until ``finish_tournament`` pays the prizes from it (or
    ``cancel_tournament``, or ``recover()`` after a crash, refunds them). Stacks at tournament
    tables are play chips inside the tournament: the ledger records their hands
    (``TournamentHandLog``) but holds none of them. Refusals are ``LedgerError``s with a
    message for the person who asked.
    """

    async def ensure_player(self, guild_id: int, user_id: int, name: str) -> int:
        """Create the person on first use (with the starting grant), refresh the display name,
        and return their balance."""
        ...

    async def create_tournament(
        self, guild_id: int, channel_id: int, creator_id: int, buy_in: int,
        settings: Mapping[str, object], *, addon_price: int = 0,
        starts_at: float | None = None,
    ) -> int:
        """Record a new tournament, registering (scheduled to start at ``starts_at``);
        returns its id."""
        ...

    async def tournament_rebuy(self, tournament_id: int, player: PlayerKey) -> int:
        """Move the buy-in into a running tournament's escrow for a rebuy; the player's
        rebuys now. ``InsufficientChips``, ``TournamentNotOpen``, ``NotRegistered``."""
        ...

    async def tournament_addon(self, tournament_id: int, player: PlayerKey) -> int:
        """Move the add-on's price into the escrow (once per player); 1."""
        ...

    async def tournament_reentry(self, tournament_id: int, player: PlayerKey) -> int:
        """Move the buy-in into the escrow for a re-entry; the player's re-entries now."""
        ...

    async def set_tournament_event(self, tournament_id: int, event_id: int | None) -> None:
        """Keep the front end's announcement (a Discord Scheduled Event) of a tournament."""
        ...

    async def mark_tournament_reminded(self, tournament_id: int) -> bool:
        """Note that a scheduled tournament's players were reminded; False if they were."""
        ...

    async def register_tournament(self, tournament_id: int, player: PlayerKey) -> int:
        """Move the buy-in from the player's balance (a bot's: the house) into the
        tournament's escrow; returns the number of entrants. ``TournamentNotOpen``,
        ``AlreadyRegistered``, ``InsufficientChips``."""
        ...

    async def unregister_tournament(self, tournament_id: int, player: PlayerKey) -> None:
        """Refund a registered player while registering (``TournamentNotOpen`` otherwise,
        ``NotRegistered`` when absent)."""
        ...

    async def start_tournament(self, tournament_id: int) -> tuple[PlayerKey, ...]:
        """Registering -> running; returns the entrants in registration order."""
        ...

    async def cancel_tournament(self, tournament_id: int) -> None:
        """Refund every buy-in (registering or running); the tournament is cancelled."""
        ...

    async def finish_tournament(
        self, tournament_id: int, places: Mapping[PlayerKey, int], prizes: Mapping[PlayerKey, int]
    ) -> None:
        """Running -> finished: pay ``prizes`` (summing exactly to the pool) from the escrow
        and record every entrant's place and prize."""
        ...

    async def save_tournament_state(self, tournament_id: int, state: str) -> None:
        """Keep a running tournament's state (``bot.tables.tournament_state``) so that it
        resumes after a restart."""
        ...

    async def saved_tournaments(self, shards: ShardSet | None = None) -> list[SavedTournament]:
        """The registering or running tournaments on ``shards`` with their saved states."""
        ...

    async def table_messages(self, channel_ids: Collection[int]) -> dict[int, int]:
        """The remembered table messages of ``channel_ids`` (channel -> message)."""
        ...

"""Chips and records: balances, escrow at tables, the hand log, stats and leaderboards.

This package is the only code that speaks SQL. Callers use ``Ledger`` (open it with
``await Ledger.open(path)``), the records it returns and the refusals it raises, all importable
from here. Inside, one module per job:

- ``ledger``: the ``Ledger`` class, one intent-level async method per transaction;
- ``transactions``: the connection thread, transactions, group commit and savepoints;
- ``accounts``: accounts and their append-only entries, the only statements that move chips;
- ``hands``: a hand's start-of-hand snapshot and the checks on settling it;
- ``habits``: how each player played each hand (3-bet, c-bet, showdowns…), counted once;
- ``table_states``: cash tables' saved state, so that they open again after a restart;
- ``tournaments``: tournament buy-ins in one escrow per tournament, refunds and prizes;
- ``audit``: the proof that no chip was created or lost;
- ``schema``: the numbered migrations, found, ordered and applied;
- ``shard_claims``: which process owns the tables of which guilds, held with a heartbeat;
- ``validation``: checks on callers' arguments, before anything is written;
- ``records``: the frozen records taken in and handed back;
- ``errors``: the ledger's refusals, rooted in ``bot.errors.HoldemError``.
"""

from __future__ import annotations

from bot.errors import (
    HandInProgress,
    HoldemError,
    InputError,
    InvalidAmount,
    NotEnoughChips,
    NotSeated,
)
from bot.ledger.accounts import GRANT_REASONS
from bot.ledger.errors import (
    AlreadyRegistered,
    DailyNotReady,
    InsufficientChips,
    InvalidRequest,
    LedgerError,
    LedgerUnavailable,
    NotRegistered,
    ShardClaimLost,
    ShardsTaken,
    TournamentNotOpen,
    UnbalancedHand,
    UnbalancedPrizes,
    UnknownHand,
    UnknownPlayer,
)
from bot.ledger.habits import HabitCounter, HandHabits
from bot.ledger.ledger import MAX_PAGE_SIZE, Ledger
from bot.ledger.records import (
    HABIT_FIGURES,
    LEADERBOARD_MIN_HANDS,
    RANKED_HABITS,
    AuditReport,
    HabitFigure,
    Habits,
    HandParticipant,
    HandRecord,
    HandResultPoint,
    HandSummary,
    LeaderboardOrder,
    LeaderboardRow,
    LedgerTotals,
    PlayerKey,
    PlayerStats,
    Purchases,
    RecoveryReport,
    SavedTable,
    SavedTournament,
    ServerAverages,
    TournamentInfo,
    TournamentPlace,
    TournamentStats,
    TournamentStatus,
    server_habits,
)
from bot.ledger.schema import MIGRATIONS_DIR
from bot.ledger.transactions import (
    BUSY_TIMEOUT_MS,
    MAX_WRITES_PER_TRANSACTION,
    run_on_connection_thread,
)
from bot.ledger.validation import MAX_CHIPS

__all__ = [
    "BUSY_TIMEOUT_MS",
    "GRANT_REASONS",
    "HABIT_FIGURES",
    "LEADERBOARD_MIN_HANDS",
    "MAX_CHIPS",
    "MAX_PAGE_SIZE",
    "MAX_WRITES_PER_TRANSACTION",
    "MIGRATIONS_DIR",
    "RANKED_HABITS",
    "AlreadyRegistered",
    "AuditReport",
    "DailyNotReady",
    "HabitCounter",
    "HabitFigure",
    "Habits",
    "HandHabits",
    "HandInProgress",
    "HandParticipant",
    "HandRecord",
    "HandResultPoint",
    "HandSummary",
    "HoldemError",
    "InputError",
    "InsufficientChips",
    "InvalidAmount",
    "InvalidRequest",
    "LeaderboardOrder",
    "LeaderboardRow",
    "Ledger",
    "LedgerError",
    "LedgerTotals",
    "LedgerUnavailable",
    "NotEnoughChips",
    "NotRegistered",
    "NotSeated",
    "PlayerKey",
    "PlayerStats",
    "Purchases",
    "RecoveryReport",
    "SavedTable",
    "SavedTournament",
    "ServerAverages",
    "ShardClaimLost",
    "ShardsTaken",
    "TournamentInfo",
    "TournamentNotOpen",
    "TournamentPlace",
    "TournamentStats",
    "TournamentStatus",
    "UnbalancedHand",
    "UnbalancedPrizes",
    "UnknownHand",
    "UnknownPlayer",
    "run_on_connection_thread",
    "server_habits",
]

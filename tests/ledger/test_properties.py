"""Random sequences of ledger operations against a plain-Python model of where chips should be.

After every operation, refused or not, the ledger must agree with the model and ``audit()``
must hold: no chip is created or lost, whatever the order of joins, grants, buy-ins, hands,
refunds and recoveries.
"""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ledger import (
    DailyNotReady,
    HandInProgress,
    HandParticipant,
    InsufficientChips,
    InvalidAmount,
    Ledger,
    LedgerError,
    NotSeated,
    PlayerKey,
    UnknownPlayer,
)

TABLE_GUILD = {10: 1, 11: 2}
PEOPLE = (1, 2, 3)
BOTS = ("Ada", "Turing")
START, DAILY, INTERVAL = 10_000, 1_000, 100.0
# Two regulars seated with a bot, so that most sequences play hands from the start.
REGULARS = [
    ("join", 1, 1), ("join", 1, 2),
    ("buy-in", 10, 1, 2_000), ("buy-in", 10, 2, 1_000), ("buy-in", 10, "Ada", 1_500),
]

guilds = st.sampled_from(sorted(set(TABLE_GUILD.values())))
tables = st.sampled_from(sorted(TABLE_GUILD))
players = st.sampled_from((*PEOPLE, *BOTS))
amounts = st.one_of(st.integers(1, 4_000), st.integers(-5, 0), st.integers(9_000, 20_000))

hands = st.tuples(
    st.just("hand"), tables, st.integers(0, 9), st.integers(0, 9), st.floats(0, 1), st.booleans()
)

operations = st.one_of(
    st.tuples(st.just("join"), guilds, st.sampled_from(PEOPLE)),
    st.tuples(st.just("grant"), guilds, st.sampled_from(PEOPLE), amounts),
    st.tuples(st.just("daily"), guilds, st.sampled_from(PEOPLE), st.sampled_from((0, 60, 100))),
    st.tuples(st.sampled_from(("buy-in", "top-up")), tables, players, amounts),
    st.tuples(st.just("cash-out"), tables, players),
    hands,
    hands,  # twice as likely: hands are what the ledger is for
    hands,
    st.tuples(st.just("refund"), tables),
    st.tuples(st.just("recover"), st.sets(tables)),
)


@dataclass
class Model:
    """Where every chip should be, and what each operation should refuse."""

    now: float = 0.0
    balances: dict[tuple[int, int], int] = field(default_factory=dict)
    last_daily: dict[tuple[int, int], float] = field(default_factory=dict)
    stacks: dict[int, dict[PlayerKey, int]] = field(
        default_factory=lambda: {table: {} for table in TABLE_GUILD}
    )
    running: dict[int, tuple[int, frozenset[PlayerKey]]] = field(default_factory=dict)

    def in_hand(self, table: int, player: PlayerKey) -> bool:
        return table in self.running and player in self.running[table][1]

    def seated(self, table: int) -> dict[PlayerKey, int]:
        return {p: chips for p, chips in self.stacks[table].items() if chips > 0}

    def return_stack(self, table: int, player: PlayerKey) -> int:
        chips = self.stacks[table].pop(player, 0)
        if chips and isinstance(player, int):
            self.balances[TABLE_GUILD[table], player] += chips
        return chips


async def apply(ledger: Ledger, model: Model, operation: tuple) -> None:
    kind, *args = operation
    if kind == "join":
        guild, user = args
        model.balances.setdefault((guild, user), START)
        assert await ledger.ensure_player(guild, user, f"p{user}") == model.balances[guild, user]
    elif kind == "grant":
        guild, user, amount = args
        expected = (
            InvalidAmount if amount <= 0 else UnknownPlayer
            if (guild, user) not in model.balances else None
        )
        if expected is None:
            model.balances[guild, user] += amount
        await expect(expected, ledger.grant(guild, user, amount))
    elif kind == "daily":
        guild, user, wait = args
        model.now += wait
        last = model.last_daily.get((guild, user))
        expected = (
            UnknownPlayer if (guild, user) not in model.balances
            else DailyNotReady if last is not None and model.now - last < INTERVAL else None
        )
        if expected is None:
            model.balances[guild, user] += DAILY
            model.last_daily[guild, user] = model.now
        await expect(expected, ledger.claim_daily(guild, user))
    elif kind in ("buy-in", "top-up"):
        await fund(ledger, model, kind, *args)
    elif kind == "cash-out":
        table, player = args
        if model.stacks[table].get(player, 0) and model.in_hand(table, player):
            await expect(HandInProgress, ledger.cash_out(TABLE_GUILD[table], table, player))
        else:
            returned = model.return_stack(table, player)
            assert await ledger.cash_out(TABLE_GUILD[table], table, player) == returned
    elif kind == "hand":
        await play(ledger, model, *args)
    elif kind == "refund":
        (table,) = args
        if table in model.running:
            await ledger.refund_hand(model.running.pop(table)[0])
    elif kind == "recover":
        (keep,) = args
        report = await ledger.recover(keep)
        assert sorted(report.hands_refunded) == sorted(h for h, _ in model.running.values())
        model.running.clear()
        returned = sum(
            model.return_stack(table, player)
            for table in TABLE_GUILD if table not in keep
            for player in list(model.stacks[table])
        )
        assert report.chips_returned == returned


async def fund(
    ledger: Ledger, model: Model, kind: str, table: int, player: PlayerKey, amount: int
) -> None:
    guild = TABLE_GUILD[table]
    stack = model.stacks[table].get(player, 0)
    is_person = isinstance(player, int)
    expected = (
        InvalidAmount if amount <= 0
        else NotSeated if kind == "top-up" and stack == 0
        else HandInProgress if model.in_hand(table, player)
        else UnknownPlayer if is_person and (guild, player) not in model.balances
        else InsufficientChips if is_person and model.balances[guild, player] < amount
        else None
    )
    method = ledger.buy_in if kind == "buy-in" else ledger.top_up
    if expected is not None:
        await expect(expected, method(guild, table, player, amount))
        return
    if is_person:
        model.balances[guild, player] -= amount
    model.stacks[table][player] = stack + amount
    assert await method(guild, table, player, amount) == stack + amount


async def play(
    ledger: Ledger, model: Model, table: int, winner: int, loser: int, share: float, settle: bool
) -> None:
    """Start a hand with everyone seated; settle it moving part of one stack to another,
    or leave it running for a later refund or recovery."""
    seats = model.seated(table)
    if not seats or table in model.running:
        return
    hand_id = await ledger.begin_hand(TABLE_GUILD[table], table, 1, seats)
    if not settle:
        model.running[table] = (hand_id, frozenset(seats))
        return
    order = list(seats)
    win, lose = order[winner % len(order)], order[loser % len(order)]
    moved = 0 if win == lose else int(seats[lose] * share)
    final = {**seats, lose: seats[lose] - moved}
    final[win] += moved
    participants = [
        HandParticipant(p, str(p), final[p] - seats[p], won=p == win, pot_won=moved * (p == win))
        for p in order
    ]
    await ledger.settle_hand(hand_id, final, participants, "history")
    model.stacks[table].update(final)


async def expect(error: type[LedgerError] | None, call) -> None:
    if error is None:
        await call
        return
    try:
        await call
    except error:
        return
    raise AssertionError(f"expected {error.__name__}")


async def check_agreement(ledger: Ledger, model: Model) -> None:
    report = await ledger.audit()
    assert report.ok, report.problems
    for table in TABLE_GUILD:
        assert await ledger.table_stacks(table) == model.seated(table)
    for (guild, user), balance in model.balances.items():
        assert await ledger.balance(guild, user) == balance


async def run(operation_list: list[tuple]) -> None:
    model = Model()
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "ledger.sqlite3"
        ledger = await Ledger.open(
            path, starting_balance=START, daily_amount=DAILY, daily_interval=INTERVAL,
            clock=lambda: model.now,
        )
        async with ledger:
            for operation in [*REGULARS, *operation_list]:
                await apply(ledger, model, operation)
                await check_agreement(ledger, model)


@settings(max_examples=80)
@given(st.lists(operations, min_size=5, max_size=40))
def test_random_operations_keep_every_chip_accounted_for(operation_list: list[tuple]) -> None:
    asyncio.run(run(operation_list))

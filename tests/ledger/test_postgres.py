"""PostgreSQL's own guarantees, as several bot processes sharing one database rely on them:
two ledgers (two pools, as two processes have) racing over the same accounts never spend a
chip twice, grant a daily bonus twice or deadlock; the database itself refuses to edit an
entry or drive a balance below zero; migrations apply once when processes start together."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
from collections.abc import Generator

import asyncpg
import pytest

from bot.ledger import (
    DailyNotReady,
    HandInProgress,
    HandParticipant,
    InsufficientChips,
    Ledger,
    NotSeated,
    UnbalancedHand,
    UnknownHand,
)
from bot.ledger.postgres import POSTGRES_MIGRATIONS_DIR, PostgresTransactions
from bot.ledger.schema import migration_files
from bot.ledger.statements import Command, Query, Statement, rows

GUILD, ALICE, BOB = 1, 11, 12
REFUSALS = (InsufficientChips, HandInProgress, NotSeated)


async def test_two_processes_racing_over_one_balance_never_spend_a_chip_twice(
    postgres_url: str,
) -> None:
    first, second = [await Ledger.open(postgres_url, starting_balance=1_000) for _ in "12"]
    try:
        await first.ensure_player(GUILD, ALICE, "alice")
        rng = random.Random(7)

        async def churn(ledger: Ledger, table_id: int) -> int:
            """Buy in and cash out at one table until told; count the buy-ins that went in."""
            seated = 0
            for _ in range(60):
                try:
                    if rng.random() < 0.6:
                        await ledger.buy_in(GUILD, table_id, ALICE, rng.choice((300, 400, 700)))
                        seated += 1
                    else:
                        await ledger.cash_out(GUILD, table_id, ALICE)
                except REFUSALS:
                    pass
            return seated

        seated = await asyncio.gather(*(
            churn(ledger, table_id)
            for ledger, table_id in ((first, 100), (second, 200), (first, 300), (second, 400))
        ))
        assert sum(seated) > 4  # the race really ran, and was refused at times
        for ledger, table_id in ((first, 100), (second, 200), (first, 300), (second, 400)):
            await ledger.cash_out(GUILD, table_id, ALICE)
        assert await second.balance(GUILD, ALICE) == 1_000
        audit = await first.audit()
        assert audit.ok, audit.problems
        assert first._db.committed + second._db.committed > 60
    finally:
        await first.close()
        await second.close()


async def test_a_daily_bonus_claimed_from_two_processes_at_once_is_granted_once(
    postgres_url: str,
) -> None:
    ledgers = [await Ledger.open(postgres_url, starting_balance=0) for _ in range(4)]
    try:
        await ledgers[0].ensure_player(GUILD, BOB, "bob")
        outcomes = await asyncio.gather(
            *(ledger.claim_daily(GUILD, BOB) for ledger in ledgers for _ in range(5)),
            return_exceptions=True,
        )
        granted = [outcome for outcome in outcomes if isinstance(outcome, int)]
        assert granted == [1_000]
        assert all(isinstance(outcome, DailyNotReady) for outcome in outcomes
                   if not isinstance(outcome, int))
        assert await ledgers[3].balance(GUILD, BOB) == 1_000
    finally:
        for ledger in ledgers:
            await ledger.close()


async def test_hands_settled_from_two_processes_lock_in_one_order_and_never_deadlock(
    postgres_url: str,
) -> None:
    """Every hand has the same two people (one balance each) at its own table: settlements
    and cash-outs cross in both directions at once, and every one of them commits."""
    first, second = [await Ledger.open(postgres_url) for _ in "12"]
    try:
        for user, name in ((ALICE, "alice"), (BOB, "bob")):
            await first.ensure_player(GUILD, user, name)

        async def play(ledger: Ledger, table_id: int) -> None:
            for number in range(1, 11):
                stacks = {ALICE: 300, BOB: 300}
                for player, chips in stacks.items():
                    await ledger.buy_in(GUILD, table_id, player, chips)
                hand_id = await ledger.begin_hand(GUILD, table_id, number, stacks)
                winner, loser = (ALICE, BOB) if (number + table_id) % 2 else (BOB, ALICE)
                await ledger.settle_hand(
                    hand_id, {winner: 400, loser: 200},
                    [HandParticipant(winner, "w", 100, won=True, pot_won=200),
                     HandParticipant(loser, "l", -100)],
                    "history",
                )  # fmt: skip
                await ledger.cash_out(GUILD, table_id, loser)
                await ledger.cash_out(GUILD, table_id, winner)

        await asyncio.gather(*(play(ledger, table_id) for ledger, table_id in
                               ((first, 1), (second, 2), (first, 3), (second, 4))))
        stats = await second.stats(GUILD, ALICE)
        assert stats is not None and stats.hands_played == 40
        assert await first.balance(GUILD, ALICE) + await first.balance(GUILD, BOB) == 20_000
        assert (await second.audit()).ok
    finally:
        await first.close()
        await second.close()


async def test_a_hand_begins_and_settles_in_one_statement_each(postgres_url: str) -> None:
    """Each statement is a round trip to the server: a hand's two writes take one each, with
    no BEGIN or COMMIT, and do what the SQLite statements do (the other tests' checks)."""
    async with await Ledger.open(postgres_url) as ledger:
        await ledger.ensure_player(GUILD, ALICE, "alice")
        stacks = {ALICE: 1_000, "Ada": 1_000}
        for player, chips in stacks.items():
            await ledger.buy_in(GUILD, 5, player, chips)
        sent: list[str] = []
        await ledger._db.trace(sent.append)
        hand_id = await ledger.begin_hand(GUILD, 5, 1, stacks)
        await ledger.settle_hand(
            hand_id, {ALICE: 1_500, "Ada": 500},
            [HandParticipant(ALICE, "alice", 500, won=True), HandParticipant("Ada", "Ada", -500)],
            "Hand #1",
        )  # fmt: skip
        await ledger._db.trace(None)
        assert [text.split(" AS ")[0] for text in sent] == ["WITH wanted", "WITH closed"]
        assert await ledger.table_stacks(5) == {ALICE: 1_500, "Ada": 500}
        assert (await ledger.audit()).ok


async def test_the_database_refuses_to_edit_or_delete_an_entry(postgres_url: str) -> None:
    async with await Ledger.open(postgres_url) as ledger:
        await ledger.ensure_player(GUILD, ALICE, "alice")
    connection = await asyncpg.connect(postgres_url)
    try:
        for statement in ("UPDATE entries SET delta = delta + 1", "DELETE FROM entries",
                          "TRUNCATE entries CASCADE"):
            with pytest.raises(asyncpg.RaiseError, match="append-only"):
                await connection.execute(statement)
        with pytest.raises(asyncpg.CheckViolationError):
            await connection.execute("UPDATE accounts SET chips = -1 WHERE kind = 'balance'")
    finally:
        await connection.close()


async def test_processes_starting_together_apply_each_migration_once(postgres_url: str) -> None:
    ledgers = await asyncio.gather(*(Ledger.open(postgres_url) for _ in range(4)))
    for ledger in ledgers:
        await ledger.close()
    connection = await asyncpg.connect(postgres_url)
    try:
        applied = [row[0] for row in await connection.fetch(
            "SELECT version FROM schema_version ORDER BY version")]
    finally:
        await connection.close()
    assert applied == [version for version, _ in migration_files(POSTGRES_MIGRATIONS_DIR)]


def test_every_sqlite_migration_has_a_postgresql_twin_with_its_number() -> None:
    from bot.ledger import MIGRATIONS_DIR

    sqlite = [version for version, _ in migration_files(MIGRATIONS_DIR)]
    postgresql = [version for version, _ in migration_files(POSTGRES_MIGRATIONS_DIR)]
    assert sqlite == postgresql


async def _seat(ledger: Ledger, table_ids: range) -> dict[int | str, int]:
    """Alice, Bob and a bot at each table; their stacks (the same at every table)."""
    stacks: dict[int | str, int] = {ALICE: 1_000, BOB: 800, "Ada": 600}
    for user, name in ((ALICE, "alice"), (BOB, "bob")):
        await ledger.ensure_player(GUILD, user, name)
    for table_id in table_ids:
        for player, chips in stacks.items():
            await ledger.buy_in(GUILD, table_id, player, chips)
    return stacks


def _results(net: int) -> list[HandParticipant]:
    return [HandParticipant(ALICE, "alice", net, won=net > 0, pot_won=2 * max(net, 0)),
            HandParticipant(BOB, "bob", -net), HandParticipant("Ada", "Ada", 0)]  # fmt: skip


async def test_hands_begun_and_settled_together_share_statements_and_are_refused_alone(
    postgres_url: str,
) -> None:
    """Calls arriving while a statement is under way go together in the next one; in a batch,
    a table already playing and a stack that is not what its escrow holds are refused alone,
    and a hand no longer running is refused alone when the others settle."""
    async with await Ledger.open(postgres_url) as ledger:
        stacks = await _seat(ledger, range(1, 9))
        running = await ledger.begin_hand(GUILD, 8, 1, stacks)
        sent: list[str] = []
        await ledger._db.trace(sent.append)
        begun = await asyncio.gather(*(
            ledger.begin_hand(GUILD, table_id, 1, {**stacks, BOB: 799} if table_id == 7 else stacks)
            for table_id in range(1, 9)
        ), return_exceptions=True)  # fmt: skip
        assert isinstance(begun[6], UnbalancedHand) and "799" in str(begun[6])
        assert isinstance(begun[7], HandInProgress)
        hand_ids = [hand_id for hand_id in begun[:6] if isinstance(hand_id, int)]
        assert len(hand_ids) == 6
        assert len([text for text in sent if text.startswith("WITH wanted")]) < 8
        await ledger.refund_hand(hand_ids[3])
        sent.clear()
        final = {ALICE: 1_100, BOB: 700, "Ada": 600}
        settled = await asyncio.gather(*(
            ledger.settle_hand(hand_id, final, _results(100), f"Hand {hand_id}")
            for hand_id in [*hand_ids, running]
        ), return_exceptions=True)  # fmt: skip
        await ledger._db.trace(None)
        assert [type(outcome) for outcome in settled] == [
            type(None), type(None), type(None), UnknownHand, type(None), type(None), type(None)
        ]
        assert len([text for text in sent if text.startswith("WITH closed")]) < 7
        for table_id in range(1, 9):
            refused = table_id in (4, 7)  # refunded, and never begun
            assert await ledger.table_stacks(table_id) == (stacks if refused else final)
        stats = await ledger.stats(GUILD, ALICE)
        assert stats is not None
        assert (stats.hands_played, stats.hands_won, stats.net_chips) == (6, 6, 600)
        assert len(await ledger.recent_hands(GUILD, BOB, limit=100)) == 6
        history = await ledger.hand_history(hand_ids[0])
        assert history is not None
        assert [p.name for p in history.participants] == ["alice", "bob", "Ada"]
        assert (await ledger.audit()).ok


async def test_a_settlement_the_server_refuses_in_a_batch_does_not_take_the_others_down(
    postgres_url: str,
) -> None:
    """One hand's settlement breaks a constraint (its escrow was emptied behind the ledger's
    back): the batch's statement fails as a whole, and is run again hand by hand, so that only
    that settlement fails."""
    async with await Ledger.open(postgres_url) as ledger:
        stacks = await _seat(ledger, range(1, 6))
        hand_ids = [await ledger.begin_hand(GUILD, table_id, 1, stacks) for table_id in range(1, 6)]
        connection = await asyncpg.connect(postgres_url)
        try:
            await connection.execute(
                "UPDATE accounts SET chips = 0 WHERE kind = 'escrow' AND table_id = 3"
                " AND user_id = $1", BOB,
            )  # fmt: skip
        finally:
            await connection.close()
        sent: list[str] = []
        await ledger._db.trace(sent.append)
        final = {ALICE: 1_100, BOB: 700, "Ada": 600}
        settled = await asyncio.gather(*(
            ledger.settle_hand(hand_id, final, _results(100), f"Hand {hand_id}")
            for hand_id in hand_ids
        ), return_exceptions=True)  # fmt: skip
        await ledger._db.trace(None)
        assert isinstance(settled[2], asyncpg.CheckViolationError)
        assert [outcome for n, outcome in enumerate(settled) if n != 2] == [None] * 4
        assert len([text for text in sent if text.startswith("WITH closed")]) > 5  # replayed
        for table_id in (1, 2, 4, 5):
            assert await ledger.table_stacks(table_id) == final
        stats = await ledger.stats(GUILD, BOB)
        assert stats is not None and stats.hands_played == 4
        assert (await ledger.hand_history(hand_ids[2])) is None


async def test_an_opening_cancelled_at_any_moment_leaves_no_unread_failure_behind(
    postgres_url: str,
) -> None:
    """A stop signal while the bot starts cancels ``Ledger.open`` wherever it is; asyncpg
    cancelled in a connection's SSL negotiation used to leave its failure unread, logged as
    "Future exception was never retrieved" once a connection."""
    loop = asyncio.get_running_loop()
    unread: list[dict[str, object]] = []
    loop.set_exception_handler(lambda _, context: unread.append(context))
    for moment in range(40):  # 0 to 39 ms after the opening starts: its phases, one by one
        opening = asyncio.ensure_future(Ledger.open(postgres_url))
        await asyncio.sleep(moment / 1000)
        opening.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await (await opening).close()
        gc.collect()  # a failed future reports itself when it is collected
    assert not unread, unread[0]


async def test_a_transaction_cancelled_at_any_moment_leaves_no_error_behind(
    postgres_url: str,
) -> None:
    """A stop cancels the ledger's writes wherever they are; a transaction cut in the middle
    used to go back to the pool still open, which asyncpg logs as an error ("Resetting
    connection with an active transaction") before it rolls it back. The pool stays usable
    and nothing of a cut write is kept."""
    transactions = await PostgresTransactions.connect(postgres_url)
    loop = asyncio.get_running_loop()
    logged: list[dict[str, object]] = []
    loop.set_exception_handler(lambda _, context: logged.append(context))

    def slow_write() -> Generator[Statement, object, None]:
        yield Command("INSERT INTO cut VALUES (1)")
        yield Query("SELECT pg_sleep(0.02)")
        yield Command("INSERT INTO cut VALUES (2)")

    try:
        await transactions.write(lambda: rows("CREATE TABLE cut (n INTEGER)"))
        for moment in range(30):  # 0 to 29 ms into the write: its statements, one by one
            writing = asyncio.ensure_future(transactions.write(slow_write))
            await asyncio.sleep(moment / 1000)
            writing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writing
        counted = await transactions.read(lambda: rows("SELECT count(*) % 2 FROM cut"))
        assert counted == [(0,)]  # each write kept whole or not at all
    finally:
        await transactions.close()
    assert not logged, logged[0]

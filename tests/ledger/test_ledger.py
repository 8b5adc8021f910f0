"""The ledger against real SQLite files: every operation, and bad input changing nothing."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import subprocess
import sys
import zipfile
from collections.abc import Awaitable, Callable
from importlib.resources import files
from pathlib import Path

import pytest

import bot
from bot.ledger import (
    MAX_CHIPS,
    MIGRATIONS_DIR,
    DailyNotReady,
    HandInProgress,
    HandParticipant,
    InsufficientChips,
    InvalidAmount,
    InvalidRequest,
    Ledger,
    LedgerError,
    LedgerUnavailable,
    NotSeated,
    UnbalancedHand,
    UnknownHand,
    UnknownPlayer,
)
from bot.ledger.schema import migrate, migration_files
from tests.ledger.conftest import FakeClock

GUILD, OTHER_GUILD, TABLE, ALICE, BOB = 1, 2, 100, 11, 12


async def seated(ledger: Ledger, **stacks: int) -> dict[int | str, int]:
    """Seat Alice and Bob (by name) or bots (any other name) at TABLE with the given stacks."""
    people = {"alice": ALICE, "bob": BOB}
    seats: dict[int | str, int] = {}
    for name, chips in stacks.items():
        player = people.get(name, name)
        if isinstance(player, int):
            await ledger.ensure_player(GUILD, player, name)
        await ledger.buy_in(GUILD, TABLE, player, chips)
        seats[player] = chips
    return seats


def result(player: int | str, net: int, **flags: int | bool) -> HandParticipant:
    return HandParticipant(player, str(player), net, **flags)


async def snapshot(ledger: Ledger) -> tuple[object, ...]:
    """Everything a refused operation must leave untouched."""
    return (
        await ledger.audit(),
        await ledger.table_stacks(TABLE),
        await ledger.stats(GUILD, ALICE),
        await ledger.stats(GUILD, BOB),
    )


# ------------------------------------------------------------------ schema

TABLES = {
    "schema_version", "accounts", "hands", "hand_stacks", "entries", "players", "hand_players",
    "guild_settings", "table_messages", "shard_claims", "tournaments", "tournament_entries",
    "dm_channels", "command_guilds", "turn_pings", "table_states",
}  # fmt: skip


SHIPPED_VERSIONS = [(version,) for version, _ in migration_files(MIGRATIONS_DIR)]


def copy_first_migration(directory: Path) -> None:
    (directory / "001_initial.sql").write_bytes((MIGRATIONS_DIR / "001_initial.sql").read_bytes())


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_the_migrations_ship_inside_the_package(dialect: str) -> None:
    shipped = files("bot.ledger") / "migrations" / dialect
    names = sorted(entry.name for entry in shipped.iterdir() if entry.name.endswith(".sql"))
    assert names == [
        "001_initial.sql",
        "002_one_running_hand_per_table.sql",
        "003_table_messages.sql",
        "004_shard_claims.sql",
        "005_hand_replays.sql",
        "006_tournaments.sql",
        "007_dm_channels.sql",
        "008_command_guilds.sql",
        "009_tournament_hands.sql",
        "010_hand_habits.sql",
        "011_turn_pings.sql",
        "012_table_states.sql",
        "013_tournament_state.sql",
        "014_habit_totals.sql",
        "015_tournament_rebuys_and_schedule.sql",
    ]
    assert [version for version, _ in migration_files(shipped)] == [
        int(name.partition("_")[0]) for name in names]


async def test_a_fresh_ledger_has_every_table(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    async with await Ledger.open(path):
        pass
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    assert {name for (name,) in rows} == TABLES


def test_a_zipped_package_finds_its_migrations(tmp_path: Path) -> None:
    """Run from a zip, where no migration is a file on disk: only importlib.resources finds
    them (as in a wheel installed anywhere)."""
    root = Path(bot.__file__).parent
    archive = tmp_path / "bot.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for source in [root / "__init__.py", root / "errors.py", root / "shards.py",
                       *(root / "ledger").rglob("*")]:
            if source.suffix in {".py", ".sql"}:
                zipped.write(source, source.relative_to(root.parent))
    database = tmp_path / "zipped.sqlite3"
    script = (
        "import asyncio, bot.ledger\n"
        "async def main():\n"
        "    async with await bot.ledger.Ledger.open(__import__('sys').argv[1]) as ledger:\n"
        "        print(bot.ledger.__file__, await ledger.ensure_player(1, 2, 'z'))\n"
        "asyncio.run(main())\n"
    )
    ran = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(archive)!r})\n{script}",
         str(database)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == [str(archive / "bot" / "ledger" / "__init__.py"), "10000"]
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == SHIPPED_VERSIONS


async def test_open_creates_the_folder_of_the_database(tmp_path: Path) -> None:
    path = tmp_path / "data" / "nested" / "ledger.sqlite3"
    async with await Ledger.open(path) as ledger:
        assert await ledger.ensure_player(GUILD, ALICE, "alice") == ledger.starting_balance
    assert path.is_file()



async def test_open_applies_migrations_once_and_sets_wal(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    for _ in range(2):
        async with await Ledger.open(path) as ledger:
            await ledger.ensure_player(GUILD, ALICE, "alice")
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == SHIPPED_VERSIONS
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


async def test_every_commit_is_synced_to_disk_before_the_write_returns(tmp_path: Path) -> None:
    """In WAL mode, synchronous=FULL syncs the log at every commit, so a write whose call has
    returned survives a power loss; NORMAL syncs only at checkpoints (a process crash loses
    nothing, a power loss can lose the last commits)."""
    async with await Ledger.open(tmp_path / "ledger.sqlite3") as ledger:
        cursor = await ledger._db.connection.execute("PRAGMA synchronous")
        assert await cursor.fetchone() == (2,)  # FULL
        await cursor.close()


async def test_new_numbered_migrations_apply_in_order_and_a_failing_one_changes_nothing(
    tmp_path: Path,
) -> None:
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    copy_first_migration(migrations)
    path = tmp_path / "ledger.sqlite3"
    (migrations / "002_nicknames.sql").write_text("ALTER TABLE players ADD COLUMN nickname TEXT;")
    async with await Ledger.open(path, migrations_dir=migrations) as ledger:
        await ledger.ensure_player(GUILD, ALICE, "alice")
    (migrations / "003_broken.sql").write_text(
        "CREATE TABLE badges (id INTEGER);\nINSERT INTO nowhere VALUES (1);\n"
    )
    with pytest.raises(sqlite3.OperationalError, match="nowhere"):
        await Ledger.open(path, migrations_dir=migrations)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(1,), (2,)]
        assert db.execute("SELECT nickname FROM players").fetchall() == [(None,)]
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
        assert "badges" not in tables


async def test_a_database_made_by_the_first_migration_is_upgraded_in_place(
    tmp_path: Path,
) -> None:
    first_only = tmp_path / "migrations"
    first_only.mkdir()
    copy_first_migration(first_only)
    path = tmp_path / "ledger.sqlite3"
    async with await Ledger.open(path, migrations_dir=first_only) as ledger:
        seats = await seated(ledger, alice=1_000, bob=1_000)
        hand_id = await ledger.begin_hand(GUILD, TABLE, 1, seats)
    async with await Ledger.open(path) as ledger:
        with pytest.raises(HandInProgress):
            await ledger.begin_hand(GUILD, TABLE, 2, seats)
        await ledger.refund_hand(hand_id)
        await ledger.begin_hand(GUILD, TABLE, 2, seats)
        assert (await ledger.audit()).ok


async def test_concurrent_tables_settle_without_losing_a_chip(ledger: Ledger) -> None:
    async def play_table(table_id: int) -> None:
        user = 1_000 + table_id
        await ledger.ensure_player(GUILD, user, f"p{user}")
        stacks = {user: await ledger.buy_in(GUILD, table_id, user, 500)}
        stacks["Ada"] = await ledger.buy_in(GUILD, table_id, "Ada", 500)
        for number in range(1, 4):
            hand_id = await ledger.begin_hand(GUILD, table_id, number, stacks)
            final = {user: stacks[user] + 10, "Ada": stacks["Ada"] - 10}
            await ledger.settle_hand(
                hand_id, final, [result(user, 10, won=True), result("Ada", -10)], ""
            )
            stacks = final
        await ledger.cash_out(GUILD, table_id, user)
        await ledger.cash_out(GUILD, table_id, "Ada")

    await asyncio.gather(*(play_table(table_id) for table_id in range(1, 51)))
    totals = (await ledger.audit()).totals
    assert (totals.house, totals.escrow) == (-50 * 30, 0)
    assert await ledger.balance(GUILD, 1_001) == 10_030


async def test_ledger_entries_are_append_only(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    async with await Ledger.open(path) as ledger:
        await ledger.ensure_player(GUILD, ALICE, "alice")
    with sqlite3.connect(path) as db, pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE entries SET delta = delta + 1")


async def test_a_person_balance_cannot_go_negative_even_in_raw_sql(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    async with await Ledger.open(path) as ledger:
        await ledger.ensure_player(GUILD, ALICE, "alice")
    with sqlite3.connect(path) as db, pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        db.execute("UPDATE accounts SET chips = -1 WHERE kind = 'balance'")


# ------------------------------------------------------------------ people


async def test_a_new_player_gets_the_starting_balance_once(ledger: Ledger) -> None:
    assert await ledger.ensure_player(GUILD, ALICE, "alice") == 10_000
    assert await ledger.ensure_player(GUILD, ALICE, "Alice A.") == 10_000
    stats = await ledger.stats(GUILD, ALICE)
    assert stats is not None and stats.name == "Alice A."
    assert (await ledger.audit()).totals.granted == 10_000


async def test_a_player_whose_balance_is_spent_is_not_granted_again(ledger: Ledger) -> None:
    await ledger.ensure_player(GUILD, ALICE, "alice")
    await ledger.buy_in(GUILD, TABLE, ALICE, 10_000)
    assert await ledger.ensure_player(GUILD, ALICE, "alice") == 0


async def test_the_starting_balance_is_configurable(tmp_path: Path) -> None:
    async with await Ledger.open(tmp_path / "l.sqlite3", starting_balance=500) as ledger:
        assert await ledger.ensure_player(GUILD, ALICE, "alice") == 500


async def test_balances_are_per_guild(ledger: Ledger) -> None:
    await ledger.ensure_player(GUILD, ALICE, "alice")
    await ledger.ensure_player(OTHER_GUILD, ALICE, "alice")
    await ledger.grant(GUILD, ALICE, 5)
    assert await ledger.balance(GUILD, ALICE) == 10_005
    assert await ledger.balance(OTHER_GUILD, ALICE) == 10_000


async def test_an_unknown_player_has_no_balance(ledger: Ledger) -> None:
    with pytest.raises(UnknownPlayer):
        await ledger.balance(GUILD, ALICE)
    assert await ledger.stats(GUILD, ALICE) is None


async def test_daily_grants_once_per_interval_and_says_how_long_to_wait(
    ledger: Ledger, clock: FakeClock
) -> None:
    await ledger.ensure_player(GUILD, ALICE, "alice")
    assert await ledger.claim_daily(GUILD, ALICE) == 11_000
    clock.now += 3_600
    with pytest.raises(DailyNotReady) as refused:
        await ledger.claim_daily(GUILD, ALICE)
    assert refused.value.seconds_left == 86_400 - 3_600
    assert "23 h 0 min" in str(refused.value)
    assert await ledger.balance(GUILD, ALICE) == 11_000
    clock.now += 86_400 - 3_600
    assert await ledger.claim_daily(GUILD, ALICE) == 12_000


async def test_daily_amount_and_interval_are_configurable(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "l.sqlite3"
    async with await Ledger.open(path, daily_amount=50, daily_interval=60, clock=clock) as ledger:
        await ledger.ensure_player(GUILD, ALICE, "alice")
        assert await ledger.claim_daily(GUILD, ALICE) == 10_050
        clock.now += 60
        assert await ledger.claim_daily(GUILD, ALICE) == 10_100


async def test_daily_needs_a_known_player(ledger: Ledger) -> None:
    with pytest.raises(UnknownPlayer):
        await ledger.claim_daily(GUILD, ALICE)


async def test_admin_grant_adds_chips_and_counts_as_granted(ledger: Ledger) -> None:
    await ledger.ensure_player(GUILD, ALICE, "alice")
    assert await ledger.grant(GUILD, ALICE, 2_500, reason="tournament prize") == 12_500
    assert (await ledger.audit()).totals.granted == 12_500


@pytest.mark.parametrize("amount", [0, -5, 2.5, True, "10"])
async def test_grant_refuses_an_amount_that_is_not_a_positive_whole_number(
    ledger: Ledger, amount: object
) -> None:
    await ledger.ensure_player(GUILD, ALICE, "alice")
    with pytest.raises(InvalidAmount):
        await ledger.grant(GUILD, ALICE, amount)  # type: ignore[arg-type]
    assert await ledger.balance(GUILD, ALICE) == 10_000


async def test_grant_to_an_unknown_player_is_refused(ledger: Ledger) -> None:
    with pytest.raises(UnknownPlayer):
        await ledger.grant(GUILD, ALICE, 10)
    assert (await ledger.audit()).totals.granted == 0


# ------------------------------------------------------------------ the chip cap

ABOVE_THE_CAP = [MAX_CHIPS + 1, 2**63, 2**64]  # the last two do not fit in SQLite's integers
CAP_REFUSAL = "at most 1,000,000,000,000,000"


@pytest.mark.parametrize("amount", ABOVE_THE_CAP)
async def test_amounts_above_the_cap_are_refused_and_change_nothing(
    ledger: Ledger, amount: int
) -> None:
    seats = await seated(ledger, alice=1_000, bob=1_000)
    before = await snapshot(ledger)
    refused: list[Callable[[], Awaitable[object]]] = [
        lambda: ledger.grant(GUILD, ALICE, amount),
        lambda: ledger.buy_in(GUILD, TABLE, "Ada", amount),  # the house pays any amount
        lambda: ledger.top_up(GUILD, TABLE, ALICE, amount),
        lambda: ledger.begin_hand(GUILD, TABLE, 1, {**seats, ALICE: amount}),
    ]
    for operation in refused:
        with pytest.raises(InvalidAmount, match=CAP_REFUSAL):
            await operation()
    assert await snapshot(ledger) == before


@pytest.mark.parametrize("amount", ABOVE_THE_CAP)
async def test_a_settlement_naming_more_than_the_cap_is_refused_and_changes_nothing(
    ledger: Ledger, amount: int
) -> None:
    seats = await seated(ledger, alice=1_000, bob=1_000)
    hand_id = await ledger.begin_hand(GUILD, TABLE, 1, seats)
    before = await snapshot(ledger)
    with pytest.raises(InvalidAmount, match=CAP_REFUSAL):
        await ledger.settle_hand(
            hand_id, {ALICE: amount, BOB: 0}, [result(ALICE, 1_000), result(BOB, -1_000)], ""
        )
    with pytest.raises(InvalidAmount, match=CAP_REFUSAL):
        await ledger.settle_hand(
            hand_id,
            {ALICE: 2_000, BOB: 0},
            [result(ALICE, 1_000, pot_won=amount), result(BOB, -1_000)],
            "",
        )
    assert await snapshot(ledger) == before


async def test_the_cap_itself_is_accepted_and_no_stack_grows_past_it(ledger: Ledger) -> None:
    await ledger.ensure_player(GUILD, ALICE, "alice")
    assert await ledger.grant(GUILD, ALICE, MAX_CHIPS) == MAX_CHIPS + 10_000
    assert await ledger.buy_in(GUILD, TABLE, ALICE, MAX_CHIPS - 1) == MAX_CHIPS - 1
    before = await snapshot(ledger)
    with pytest.raises(InvalidAmount, match=CAP_REFUSAL):
        await ledger.top_up(GUILD, TABLE, ALICE, 2)
    with pytest.raises(InvalidAmount, match=CAP_REFUSAL):
        await ledger.buy_in(GUILD, TABLE, ALICE, 2)
    assert await snapshot(ledger) == before
    assert await ledger.top_up(GUILD, TABLE, ALICE, 1) == MAX_CHIPS


async def test_a_hand_puts_at_most_the_cap_in_play(ledger: Ledger) -> None:
    """So that no final stack or pot of a hand can exceed it either."""
    half = MAX_CHIPS // 2 + 1
    seats = {"Ada": await ledger.buy_in(GUILD, TABLE, "Ada", half)}
    seats["Turing"] = await ledger.buy_in(GUILD, TABLE, "Turing", half)
    before = await snapshot(ledger)
    with pytest.raises(InvalidAmount, match=CAP_REFUSAL):
        await ledger.begin_hand(GUILD, TABLE, 1, seats)
    assert await snapshot(ledger) == before
    assert await ledger.cash_out(GUILD, TABLE, "Turing") == half
    await ledger.begin_hand(GUILD, TABLE, 1, {"Ada": half})


@pytest.mark.parametrize("option", ["starting_balance", "daily_amount"])
async def test_a_configured_grant_above_the_cap_is_refused(tmp_path: Path, option: str) -> None:
    with pytest.raises(InvalidAmount, match=CAP_REFUSAL):
        await Ledger.open(tmp_path / "ledger.sqlite3", **{option: MAX_CHIPS + 1})


# ------------------------------------------------------------------ buy-in, top-up, cash-out


async def test_buy_in_moves_chips_from_balance_to_the_table(ledger: Ledger) -> None:
    await ledger.ensure_player(GUILD, ALICE, "alice")
    assert await ledger.buy_in(GUILD, TABLE, ALICE, 2_000) == 2_000
    assert await ledger.balance(GUILD, ALICE) == 8_000
    assert await ledger.table_stacks(TABLE) == {ALICE: 2_000}


async def test_a_bot_buy_in_is_paid_by_the_house_which_may_go_negative(ledger: Ledger) -> None:
    assert await ledger.buy_in(GUILD, TABLE, "Ada", 5_000) == 5_000
    totals = (await ledger.audit()).totals
    assert (totals.house, totals.escrow, totals.granted) == (-5_000, 5_000, 0)


async def test_buy_in_of_more_than_the_balance_is_refused_and_changes_nothing(
    ledger: Ledger,
) -> None:
    await seated(ledger, alice=9_000)
    before = await snapshot(ledger)
    with pytest.raises(InsufficientChips) as refused:
        await ledger.buy_in(GUILD, TABLE, ALICE, 1_001)
    assert refused.value.balance == 1_000
    assert "1,001" in str(refused.value)
    assert await snapshot(ledger) == before


@pytest.mark.parametrize("amount", [0, -1, 1.5, None])
async def test_buy_in_refuses_a_bad_amount(ledger: Ledger, amount: object) -> None:
    await ledger.ensure_player(GUILD, ALICE, "alice")
    with pytest.raises(InvalidAmount):
        await ledger.buy_in(GUILD, TABLE, ALICE, amount)  # type: ignore[arg-type]
    assert await ledger.table_stacks(TABLE) == {}


@pytest.mark.parametrize("player", ["", "   ", 1.5, None, b"bot"])
async def test_buy_in_refuses_a_malformed_player(ledger: Ledger, player: object) -> None:
    with pytest.raises(InvalidRequest):
        await ledger.buy_in(GUILD, TABLE, player, 10)  # type: ignore[arg-type]


async def test_buy_in_by_an_unknown_person_is_refused(ledger: Ledger) -> None:
    with pytest.raises(UnknownPlayer):
        await ledger.buy_in(GUILD, TABLE, ALICE, 10)
    assert await ledger.table_stacks(TABLE) == {}


async def test_top_up_adds_to_a_seated_stack(ledger: Ledger) -> None:
    await seated(ledger, alice=1_000, Ada=1_000)
    assert await ledger.top_up(GUILD, TABLE, ALICE, 500) == 1_500
    assert await ledger.top_up(GUILD, TABLE, "Ada", 500) == 1_500
    assert await ledger.balance(GUILD, ALICE) == 8_500


async def test_top_up_needs_a_stack_at_the_table(ledger: Ledger) -> None:
    await ledger.ensure_player(GUILD, ALICE, "alice")
    with pytest.raises(NotSeated):
        await ledger.top_up(GUILD, TABLE, ALICE, 500)
    assert await ledger.balance(GUILD, ALICE) == 10_000


async def test_cash_out_returns_the_stack_to_the_balance(ledger: Ledger) -> None:
    await seated(ledger, alice=3_000)
    assert await ledger.cash_out(GUILD, TABLE, ALICE) == 3_000
    assert await ledger.balance(GUILD, ALICE) == 10_000
    assert await ledger.table_stacks(TABLE) == {}
    assert await ledger.cash_out(GUILD, TABLE, ALICE) == 0


async def test_a_bot_cash_out_returns_its_stack_to_the_house(ledger: Ledger) -> None:
    await seated(ledger, Ada=3_000)
    assert await ledger.cash_out(GUILD, TABLE, "Ada") == 3_000
    assert (await ledger.audit()).totals.house == 0


async def test_a_person_and_a_bot_with_the_same_looking_key_are_different_seats(
    ledger: Ledger,
) -> None:
    await seated(ledger, alice=100)
    await ledger.buy_in(GUILD, TABLE, str(ALICE), 200)
    assert await ledger.table_stacks(TABLE) == {ALICE: 100, str(ALICE): 200}


# ------------------------------------------------------------------ hands


async def test_settle_hand_moves_escrow_and_records_the_hand(ledger: Ledger) -> None:
    seats = await seated(ledger, alice=1_000, bob=1_000, Ada=1_000)
    hand_id = await ledger.begin_hand(GUILD, TABLE, 7, seats)
    await ledger.settle_hand(
        hand_id,
        {ALICE: 1_600, BOB: 700, "Ada": 700},
        [
            result(ALICE, 600, won=True, showdown_won=True, vpip=True, pfr=True, pot_won=900),
            result(BOB, -300, vpip=True),
            result("Ada", -300),
        ],
        "Hand #7 ...",
    )
    assert await ledger.table_stacks(TABLE) == {ALICE: 1_600, BOB: 700, "Ada": 700}
    record = await ledger.hand_history(hand_id)
    assert record is not None
    assert (record.guild_id, record.table_id, record.hand_number) == (GUILD, TABLE, 7)
    assert record.history_text == "Hand #7 ..."
    assert [(p.player, p.net, p.won) for p in record.participants] == [
        (ALICE, 600, True), (BOB, -300, False), ("Ada", -300, False),
    ]


async def test_settlement_updates_each_persons_stats(ledger: Ledger) -> None:
    seats = await seated(ledger, alice=1_000, bob=1_000)
    for pot, net in [(400, 200), (1_000, -100)]:
        hand_id = await ledger.begin_hand(GUILD, TABLE, 1, seats)
        seats = {ALICE: seats[ALICE] + net, BOB: seats[BOB] - net}
        await ledger.settle_hand(
            hand_id,
            seats,
            [
                result(ALICE, net, won=net > 0, showdown_won=net > 0, vpip=True, pot_won=pot),
                result(BOB, -net, won=net < 0, pfr=True, vpip=True, pot_won=0),
            ],
            "",
        )
    alice = await ledger.stats(GUILD, ALICE)
    assert alice is not None
    assert (alice.hands_played, alice.hands_won, alice.showdowns_won) == (2, 1, 1)
    assert (alice.net_chips, alice.biggest_pot, alice.vpip_hands, alice.pfr_hands) == (
        100, 1_000, 2, 0,
    )
    assert alice.vpip_percent == 100.0
    bob = await ledger.stats(GUILD, BOB)
    assert bob is not None and (bob.hands_won, bob.pfr_percent) == (1, 100.0)


async def test_settlement_that_would_create_chips_is_refused_and_changes_nothing(
    ledger: Ledger,
) -> None:
    seats = await seated(ledger, alice=1_000, bob=1_000)
    hand_id = await ledger.begin_hand(GUILD, TABLE, 1, seats)
    before = await snapshot(ledger)
    with pytest.raises(UnbalancedHand, match="add up"):
        await ledger.settle_hand(
            hand_id, {ALICE: 1_500, BOB: 1_000}, [result(ALICE, 500), result(BOB, 0)], ""
        )
    assert await snapshot(ledger) == before
    assert await ledger.hand_history(hand_id) is None


@pytest.mark.parametrize(
    ("final", "participants", "error"),
    [
        ({ALICE: 2_000}, [result(ALICE, 1_000)], UnbalancedHand),
        ({ALICE: 2_000, BOB: 0, "Ada": 0}, [result(ALICE, 1_000)], UnbalancedHand),
        ({ALICE: 1_500, BOB: 500}, [result(ALICE, 500)], UnbalancedHand),
        ({ALICE: 1_500, BOB: 500}, [result(ALICE, 400), result(BOB, -400)], UnbalancedHand),
        ({ALICE: 2_100, BOB: -100}, [result(ALICE, 1_100), result(BOB, -1_100)], InvalidAmount),
        ({ALICE: 1_500, BOB: 500}, [result(ALICE, 500, pot_won=-1), result(BOB, -500)],
         InvalidAmount),
    ],
    ids=["missing-player", "stranger", "missing-participant", "wrong-net", "negative-stack",
         "negative-pot"],
)
async def test_settlement_with_inconsistent_results_is_refused(
    ledger: Ledger,
    final: dict[int | str, int],
    participants: list[HandParticipant],
    error: type[LedgerError],
) -> None:
    seats = await seated(ledger, alice=1_000, bob=1_000)
    hand_id = await ledger.begin_hand(GUILD, TABLE, 1, seats)
    before = await snapshot(ledger)
    with pytest.raises(error):
        await ledger.settle_hand(hand_id, final, participants, "")
    assert await snapshot(ledger) == before


async def test_a_hand_settles_only_once(ledger: Ledger) -> None:
    seats = await seated(ledger, alice=1_000, bob=1_000)
    hand_id = await ledger.begin_hand(GUILD, TABLE, 1, seats)
    participants = [result(ALICE, 0), result(BOB, 0)]
    await ledger.settle_hand(hand_id, seats, participants, "")
    with pytest.raises(UnknownHand):
        await ledger.settle_hand(hand_id, seats, participants, "")
    with pytest.raises(UnknownHand):
        await ledger.refund_hand(hand_id)


async def test_a_hand_begun_before_a_restart_settles_after_it(
    ledger_location: str | Path, clock: FakeClock
) -> None:
    """The ledger that began a hand keeps its snapshot; another (a restarted process) reads it
    from the database, and finds it gone once the hand is settled or refunded."""
    async with await Ledger.open(ledger_location, clock=clock) as first:
        seats = await seated(first, alice=1_000, bob=1_000, Ada=500)
        settled_id = await first.begin_hand(GUILD, TABLE, 1, seats)
    final = {ALICE: 1_600, BOB: 400, "Ada": 500}
    participants = [result(ALICE, 600, won=True), result(BOB, -600), result("Ada", 0)]
    async with await Ledger.open(ledger_location, clock=clock) as second:
        with pytest.raises(UnbalancedHand, match="add up"):
            await second.settle_hand(settled_id, {**final, ALICE: 1_700}, participants, "")
        await second.settle_hand(settled_id, final, participants, "Hand #1")
        with pytest.raises(UnknownHand):
            await second.settle_hand(settled_id, final, participants, "Hand #1")
        refunded_id = await second.begin_hand(GUILD, TABLE, 2, final)
        await second.refund_hand(refunded_id)
        with pytest.raises(UnknownHand):
            await second.settle_hand(refunded_id, final, participants, "")
        assert await second.table_stacks(TABLE) == final
        record = await second.hand_history(settled_id)
        assert record is not None and [p.net for p in record.participants] == [600, -600, 0]
        alice = await second.stats(GUILD, ALICE)
        assert alice is not None and (alice.hands_played, alice.net_chips) == (1, 600)
        assert (await second.audit()).ok


async def test_begin_hand_stacks_must_equal_the_escrow(ledger: Ledger) -> None:
    await seated(ledger, alice=1_000, bob=1_000)
    with pytest.raises(UnbalancedHand, match="holds 1,000"):
        await ledger.begin_hand(GUILD, TABLE, 1, {ALICE: 1_000, BOB: 1_200})
    with pytest.raises(UnbalancedHand, match="'Ada' holds 0 chips"):
        await ledger.begin_hand(GUILD, TABLE, 1, {ALICE: 1_000, "Ada": 1_000})
    with pytest.raises(InvalidRequest):
        await ledger.begin_hand(GUILD, TABLE, 1, {})
    # The refused hands left nothing running: the table can start one now.
    await ledger.begin_hand(GUILD, TABLE, 1, {ALICE: 1_000, BOB: 1_000})


async def test_a_table_runs_one_hand_at_a_time(ledger: Ledger) -> None:
    seats = await seated(ledger, alice=1_000, bob=1_000)
    await ledger.begin_hand(GUILD, TABLE, 1, seats)
    with pytest.raises(HandInProgress):
        await ledger.begin_hand(GUILD, TABLE, 2, seats)


async def test_chips_in_a_running_hand_cannot_be_cashed_out_or_topped_up(ledger: Ledger) -> None:
    seats = await seated(ledger, alice=1_000, bob=1_000)
    await ledger.begin_hand(GUILD, TABLE, 1, seats)
    before = await snapshot(ledger)
    with pytest.raises(HandInProgress):
        await ledger.cash_out(GUILD, TABLE, ALICE)
    with pytest.raises(HandInProgress):
        await ledger.top_up(GUILD, TABLE, BOB, 100)
    assert await snapshot(ledger) == before


async def test_a_player_not_in_the_running_hand_may_join_the_table(ledger: Ledger) -> None:
    seats = await seated(ledger, alice=1_000, bob=1_000)
    await ledger.begin_hand(GUILD, TABLE, 1, seats)
    assert await ledger.buy_in(GUILD, TABLE, "Ada", 800) == 800
    assert await ledger.cash_out(GUILD, TABLE, "Ada") == 800


async def test_refund_hand_keeps_the_start_of_hand_stacks(ledger: Ledger) -> None:
    seats = await seated(ledger, alice=1_000, bob=1_000)
    hand_id = await ledger.begin_hand(GUILD, TABLE, 1, seats)
    await ledger.refund_hand(hand_id)
    assert await ledger.table_stacks(TABLE) == seats
    assert await ledger.hand_history(hand_id) is None
    assert await ledger.cash_out(GUILD, TABLE, ALICE) == 1_000


async def test_recover_closes_unsettled_hands_and_empties_idle_tables(ledger: Ledger) -> None:
    seats = await seated(ledger, alice=1_000, Ada=2_000)
    hand_id = await ledger.begin_hand(GUILD, TABLE, 1, seats)
    await ledger.ensure_player(GUILD, BOB, "bob")
    await ledger.buy_in(GUILD, TABLE + 1, BOB, 500)
    report = await ledger.recover(running_table_ids={TABLE + 1})
    assert report.hands_refunded == (hand_id,)
    assert report.tables_closed == (TABLE,)
    assert report.chips_returned == 3_000
    assert await ledger.balance(GUILD, ALICE) == 10_000
    assert (await ledger.audit()).totals.house == 0
    assert await ledger.table_stacks(TABLE + 1) == {BOB: 500}
    assert (await ledger.recover({TABLE + 1})).chips_returned == 0


# ------------------------------------------------------------------ records


async def play_hand(ledger: Ledger, winner: int, loser: int, chips: int, number: int) -> int:
    stacks = await ledger.table_stacks(TABLE)
    hand_id = await ledger.begin_hand(GUILD, TABLE, number, stacks)
    final = {**stacks, winner: stacks[winner] + chips, loser: stacks[loser] - chips}
    nets = {winner: chips, loser: -chips}
    participants = [
        result(p, nets.get(p, 0), won=p == winner, pot_won=2 * chips if p == winner else 0)
        for p in stacks
    ]
    await ledger.settle_hand(hand_id, final, participants, f"hand {number}")
    return hand_id


async def test_leaderboards_rank_people_by_balance_net_and_hands_won(ledger: Ledger) -> None:
    await seated(ledger, alice=1_000, bob=1_000, Ada=1_000)
    await play_hand(ledger, ALICE, BOB, 300, 1)
    await play_hand(ledger, BOB, "Ada", 100, 2)
    await play_hand(ledger, BOB, "Ada", 100, 3)
    await ledger.grant(GUILD, BOB, 5_000)
    by_balance = await ledger.leaderboard(GUILD)
    assert [(r.rank, r.user_id, r.value) for r in by_balance] == [
        (1, BOB, 14_000), (2, ALICE, 9_000),
    ]
    by_net = await ledger.leaderboard(GUILD, by="net")
    assert [(r.user_id, r.value) for r in by_net] == [(ALICE, 300), (BOB, -100)]
    by_wins = await ledger.leaderboard(GUILD, by="hands_won")
    assert [(r.user_id, r.name, r.value) for r in by_wins] == [(BOB, "bob", 2), (ALICE, "alice", 1)]


async def test_global_leaderboard_sums_guilds_and_pages(ledger: Ledger) -> None:
    for user in range(1, 6):
        await ledger.ensure_player(GUILD, user, f"p{user}")
        await ledger.grant(GUILD, user, user)
    await ledger.ensure_player(OTHER_GUILD, 1, "p1")
    first = await ledger.leaderboard(None, page_size=2)
    assert [(r.rank, r.user_id, r.value) for r in first] == [(1, 1, 20_001), (2, 5, 10_005)]
    third = await ledger.leaderboard(None, page=3, page_size=2)
    assert [(r.rank, r.user_id) for r in third] == [(5, 2)]
    assert await ledger.leaderboard(None, page=4, page_size=2) == []


@pytest.mark.parametrize(
    "arguments", [{"by": "luck"}, {"page": 0}, {"page_size": 0}, {"page_size": 1_000}]
)
async def test_leaderboard_refuses_bad_options(ledger: Ledger, arguments: dict) -> None:
    with pytest.raises(InvalidRequest):
        await ledger.leaderboard(GUILD, **arguments)


async def test_recent_hands_lists_a_persons_hands_newest_first(ledger: Ledger) -> None:
    await seated(ledger, alice=1_000, bob=1_000)
    first = await play_hand(ledger, ALICE, BOB, 50, 1)
    second = await play_hand(ledger, BOB, ALICE, 20, 2)
    hands = await ledger.recent_hands(GUILD, ALICE)
    assert [(h.hand_id, h.hand_number, h.net, h.won) for h in hands] == [
        (second, 2, -20, False), (first, 1, 50, True),
    ]
    assert len(await ledger.recent_hands(GUILD, ALICE, limit=1)) == 1
    with pytest.raises(InvalidRequest):
        await ledger.recent_hands(GUILD, ALICE, limit=0)
    assert await ledger.recent_hands(OTHER_GUILD, ALICE) == []


async def test_hand_history_of_an_unknown_hand_is_none(ledger: Ledger) -> None:
    assert await ledger.hand_history(12345) is None


async def test_guild_settings_round_trip_as_json(ledger: Ledger) -> None:
    assert await ledger.guild_settings(GUILD) == {}
    await ledger.save_guild_settings(GUILD, {"small_blind": 5, "bots": ["Ada"], "timer": 30.5})
    await ledger.save_guild_settings(GUILD, {"small_blind": 10})
    assert await ledger.guild_settings(GUILD) == {"small_blind": 10}
    assert await ledger.guild_settings(OTHER_GUILD) == {}


async def test_guild_settings_must_be_plain_values(ledger: Ledger) -> None:
    with pytest.raises(InvalidRequest):
        await ledger.save_guild_settings(GUILD, {"when": object()})
    assert await ledger.guild_settings(GUILD) == {}


async def test_errors_read_as_short_sentences() -> None:
    assert str(DailyNotReady(90)) == "Your next daily bonus is ready in 2 min."
    assert str(InsufficientChips(500, 20)) == "You need 500 chips but your balance is 20."
    assert str(UnknownPlayer(1, 2)).endswith(".")


async def test_a_folder_or_a_file_that_is_no_database_is_unavailable_not_a_crash(tmp_path):
    with pytest.raises(LedgerUnavailable, match="is a folder"):
        await Ledger.open(tmp_path)
    notes = tmp_path / "notes.txt"
    notes.write_text("these are not chips\n" * 100)
    with pytest.raises(LedgerUnavailable, match="is not a chip ledger"):
        await Ledger.open(notes)
    assert notes.read_text() == "these are not chips\n" * 100


async def test_table_messages_are_remembered_per_channel_and_handed_out_once(tmp_path):
    async with await Ledger.open(tmp_path / "l.sqlite3") as ledger:
        await ledger.save_table_message(100, 1)
        await ledger.save_table_message(100, 2)  # a repost replaces the older message
        await ledger.save_table_message(200, 3)
        assert await ledger.take_table_messages([100, 300]) == {100: 2}
        assert await ledger.take_table_messages([100, 200]) == {200: 3}
        with pytest.raises(InvalidRequest):
            await ledger.save_table_message(100, "x")


async def test_dm_channels_are_kept_per_person_and_a_newer_one_replaces_the_older(
    ledger: Ledger,
) -> None:
    assert await ledger.dm_channel(7) is None
    await ledger.save_dm_channel(7, 1_100_000_000_000_000_001)
    await ledger.save_dm_channel(8, 2)
    await ledger.save_dm_channel(7, 3)  # Discord no longer knew the first one
    assert (await ledger.dm_channel(7), await ledger.dm_channel(8)) == (3, 2)
    with pytest.raises(InvalidRequest):
        await ledger.save_dm_channel(7, "x")  # type: ignore[arg-type]
    assert await ledger.dm_channel(7) == 3


async def test_turn_pings_are_kept_per_person_until_turned_off(ledger: Ledger) -> None:
    assert await ledger.turn_ping_users() == set()
    await ledger.save_turn_ping(7, True)
    await ledger.save_turn_ping(7, True)  # asked twice: kept once
    await ledger.save_turn_ping(1_100_000_000_000_000_001, True)
    assert await ledger.turn_ping_users() == {7, 1_100_000_000_000_000_001}
    await ledger.save_turn_ping(7, False)
    await ledger.save_turn_ping(8, False)  # never asked: nothing to forget
    assert await ledger.turn_ping_users() == {1_100_000_000_000_000_001}
    with pytest.raises(InvalidRequest):
        await ledger.save_turn_ping("x", True)  # type: ignore[arg-type]


async def test_the_servers_holding_command_copies_are_replaced_as_a_whole(ledger: Ledger) -> None:
    assert await ledger.command_guilds() == []
    await ledger.save_command_guilds([1_100_000_000_000_000_001, 5])
    await ledger.save_command_guilds([5, 9, 9])
    assert await ledger.command_guilds() == [5, 9]
    with pytest.raises(InvalidRequest):
        await ledger.save_command_guilds([0])
    assert await ledger.command_guilds() == [5, 9]
    await ledger.save_command_guilds([])
    assert await ledger.command_guilds() == []


def test_two_processes_opening_a_new_file_at_once_apply_each_migration_once(
    tmp_path: Path,
) -> None:
    """The second one to take the write lock finds the migration already applied by the first,
    although it saw none when it started (two bot processes starting on one new file)."""
    path = tmp_path / "ledger.sqlite3"
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as late, \
            contextlib.closing(sqlite3.connect(path, isolation_level=None)) as early:
        late.execute("PRAGMA busy_timeout = 5000")

        def let_the_other_migrate_first(statement: str) -> None:
            if statement.startswith("BEGIN IMMEDIATE"):
                late.set_trace_callback(None)
                migrate(early, MIGRATIONS_DIR)

        late.set_trace_callback(let_the_other_migrate_first)
        migrate(late, MIGRATIONS_DIR)
        versions = late.execute("SELECT version FROM schema_version ORDER BY 1").fetchall()
    assert versions == SHIPPED_VERSIONS


def test_opening_cancelled_at_once_closes_the_connection_it_started(tmp_path: Path) -> None:
    """The bot stopped while it started: ``Ledger.open`` cancelled while SQLite's thread opens
    the file (slowly here). The open waits for that connection and closes it before the
    cancellation goes on: else the thread, finishing after the event loop closed, failed
    there with a traceback ("Event loop is closed")."""
    script = (
        "import asyncio, sqlite3, sys, threading, time\n"
        "from bot.ledger import Ledger\n"
        "opening_now, connecting = sqlite3.connect, threading.Event()\n"
        "def slow_connect(*args, **kwargs):\n"
        "    connecting.set()\n"
        "    time.sleep(0.3)\n"
        "    return opening_now(*args, **kwargs)\n"
        "sqlite3.connect = slow_connect\n"
        "async def main():\n"
        "    opening = asyncio.ensure_future(Ledger.open(sys.argv[1]))\n"
        "    while not connecting.is_set():\n"
        "        await asyncio.sleep(0.01)\n"
        "    opening.cancel()\n"
        "    try:\n"
        "        await opening\n"
        "    except asyncio.CancelledError:\n"
        "        print('cancelled')\n"
        "asyncio.run(main())\n"
    )
    ran = subprocess.run([sys.executable, "-c", script, str(tmp_path / "ledger.sqlite3")],
                         capture_output=True, text=True, timeout=60)
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "cancelled\n", "")

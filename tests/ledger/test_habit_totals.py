"""The deeper stats come from running per-person totals kept as hands settle, never from a
scan of the hand log per command: habits are counted when a hand settles, read from the
totals by ``/stats`` and the habit leaderboards, and the hands settled before that are
counted once by the operator's backfill (``python -m bot backfill-habits``), which gives the
same figures the old scan of the hand log gave. Both backends."""

from __future__ import annotations

import re
from collections.abc import Awaitable

import pytest

import bot.ledger.habits as habits_module
from bot.ledger import Habits, HandParticipant, Ledger
from bot.ledger.habits import COLUMNS, count_rows
from bot.ledger.statements import Row, Script, command, rows
from engine.hand_record import RecordedHand
from tests.ledger.test_habits import ALICE, BOB, CAROL, GUILD, THREE_BET_CALLED, play, settle
from tests.ledger.test_tournaments import tournament

HAND_LOG = re.compile(r"\b(hands|hand_players)\b", re.IGNORECASE)
"""A statement that reads the hand log (``hands_played``, a column of ``players``, is not)."""

TOTALS = ("habit_hands", *(f"habit_{name}" for name in COLUMNS))
"""The running totals' columns of ``players`` (migration 014)."""


async def statements_of(ledger: Ledger, call: Awaitable[object]) -> list[str]:
    """The statements the ledger runs for ``call``."""
    seen: list[str] = []
    await ledger._db.trace(seen.append)
    try:
        await call
    finally:
        await ledger._db.trace(None)
    return seen


async def play_some_hands(ledger: Ledger) -> None:
    """A 3-bet called, a c-bet taken, a hand without a replay, and a tournament hand."""
    await settle(ledger, play(THREE_BET_CALLED), (ALICE, BOB, "Bot"))
    await settle(ledger, play("raise 30, call, fold, check, bet 40, fold"), (BOB, ALICE, CAROL))
    await settle(ledger, None, (ALICE, BOB))
    tournament_id = await tournament(ledger, 100, ALICE, BOB)
    await ledger.start_tournament(tournament_id)
    hand = play("raise 30, call, " + "check, " * 5 + "check", stacks=(1000, 1000))
    assert hand.result is not None
    hand_id = await ledger.begin_tournament_hand(tournament_id, 600, 1)
    await ledger.settle_tournament_hand(
        hand_id, [HandParticipant(ALICE, "alice", hand.result.net[0], won=True),
                  HandParticipant(BOB, "bob", hand.result.net[1])],
        "history", RecordedHand.from_hand(hand).to_json())


def old_scan() -> Script[dict[int, Habits]]:
    """The figures as ``/stats`` used to find them: every hand of the log played again and
    each person's counts summed."""
    found = yield from rows(
        "SELECT hp.hand_id, hp.user_id, hp.bot_name, h.replay FROM hand_players hp"
        " JOIN hands h ON h.id = hp.hand_id WHERE h.status = 'settled'"
        " ORDER BY hp.hand_id, hp.rowid")
    sums: dict[int, list[int]] = {}
    for *counts, _, user_id, bot_name in count_rows(found):
        if bot_name == "":
            total = sums.setdefault(int(str(user_id)), [0] * (len(COLUMNS) + 1))
            for k, value in enumerate([1, *counts]):
                total[k] += int(str(value))
    return {user_id: Habits(*total) for user_id, total in sums.items()}


def forget_counts() -> Script[None]:
    """Make every hand uncounted, as hands settled before habits were counted at settlement
    are (and their players' totals nothing)."""
    yield from command(f"UPDATE hand_players SET {', '.join(f'{n} = NULL' for n in COLUMNS)}")
    yield from command(f"UPDATE players SET {', '.join(f'{n} = 0' for n in TOTALS)}")


async def test_habits_count_when_the_hand_settles(
        ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_counting(found: list[Row]) -> list[tuple[object, ...]]:
        raise AssertionError("a hand was counted after it settled")

    await play_some_hands(ledger)
    monkeypatch.setattr(habits_module, "count_rows", no_counting)
    assert await ledger._db.read(habits_module.uncounted) == []
    alice = (await ledger.habits(GUILD))[ALICE]
    assert alice.hands == 4
    assert (alice.fold_to_three_bet_chances, alice.three_bet_chances) == (1, 1)
    assert (alice.cbet_chances, alice.showdowns, alice.showdowns_won) == (1, 2, 2)


async def test_stats_read_running_totals_not_the_history(ledger: Ledger) -> None:
    await play_some_hands(ledger)
    expected = await ledger._db.read(old_scan)
    read = [statement
            for call in (ledger.habits(GUILD), ledger.habits(None),
                         ledger.leaderboard(GUILD, by="won_at_showdown"),
                         ledger.leaderboard(None, by="aggression"))
            for statement in await statements_of(ledger, call)]
    assert read and not [statement for statement in read if HAND_LOG.search(statement)]
    assert await ledger.habits(GUILD) == expected == await ledger.habits(None)


async def test_a_habit_leaderboard_ranks_from_the_totals_in_both_scopes(
        ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.ledger.ledger.LEADERBOARD_MIN_HANDS", 2)
    showdown = play("call, call, check, " + "check, " * 8 + "check")  # aces win
    for _ in range(2):
        await settle(ledger, showdown, (BOB, ALICE, CAROL))
    await settle(ledger, showdown, (CAROL, ALICE, BOB), table=200)
    board = await ledger.leaderboard(GUILD, by="won_at_showdown")
    assert [(row.user_id, row.value) for row in board] == [
        (BOB, 100 * 2 / 3), (CAROL, 100 / 3), (ALICE, 0.0)]
    assert [row.name for row in board] == [f"player {BOB}", f"player {CAROL}",
                                           f"player {ALICE}"]
    assert await ledger.leaderboard(None, by="won_at_showdown", page=2, page_size=2) == [
        board[2]]


async def test_the_backfill_gives_the_same_figures_as_the_old_scan(ledger: Ledger) -> None:
    await play_some_hands(ledger)
    expected = await ledger._db.read(old_scan)
    await ledger._db.write(forget_counts)
    assert (await ledger.habits(GUILD))[ALICE] == Habits()  # nothing counted on /stats
    assert await ledger.backfill_habits() == 4
    assert await ledger.habits(GUILD) == expected
    assert await ledger.backfill_habits() == 0  # each hand once
    await settle(ledger, play(THREE_BET_CALLED), (ALICE, BOB, CAROL))
    assert (await ledger.habits(GUILD))[BOB].three_bets == expected[BOB].three_bets + 1


async def test_the_backfill_goes_round_by_round_through_a_long_backlog(
        ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    for _ in range(5):
        await settle(ledger, play("raise 30, call, fold, check, bet 40, fold"),
                     (ALICE, BOB, CAROL))
    await ledger._db.write(forget_counts)
    monkeypatch.setattr(habits_module, "BATCH_HANDS", 2)
    rounds: list[int] = []
    assert await ledger.backfill_habits(progress=rounds.append) == 5
    assert rounds == [2, 4, 5]
    assert (await ledger.habits(None))[ALICE].cbets == 5


async def test_the_migration_totals_the_hands_counted_before_it(
        ledger_location: object, tmp_path: object) -> None:
    """A ledger whose hands were counted by the old ``/stats`` (counts in ``hand_players``,
    no totals yet) gets its totals from those counts when migration 014 is applied; the
    hands not counted yet are left to the backfill."""
    async with await Ledger.open(ledger_location) as ledger:  # type: ignore[arg-type]
        await play_some_hands(ledger)
        expected = await ledger._db.read(old_scan)

        def before_014() -> Script[None]:
            yield from command("UPDATE hand_players SET saw_flop = NULL WHERE hand_id = 1")
            for column in TOTALS:
                yield from rows(f"ALTER TABLE players DROP COLUMN {column}")
            yield from command("DELETE FROM schema_version WHERE version = 14")

        await ledger._db.write(before_014)
    async with await Ledger.open(ledger_location) as ledger:  # type: ignore[arg-type]
        figures = await ledger.habits(GUILD)
        assert figures[ALICE].hands == expected[ALICE].hands - 1  # hand 1 waits for the backfill
        assert await ledger.backfill_habits() == 1
        assert await ledger.habits(GUILD) == expected

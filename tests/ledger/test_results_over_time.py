"""A person's results hand by hand (for the /stats chart) and the server's preflop averages,
against a real SQLite file."""

from __future__ import annotations

import pytest

from bot.ledger import HandParticipant, InvalidRequest, Ledger
from tests.ledger.conftest import FakeClock

GUILD, OTHER_GUILD, TABLE, OTHER_TABLE, ALICE, BOB, CAROL = 1, 2, 100, 200, 11, 12, 13


async def seat(ledger: Ledger, guild: int, table: int, *people: int) -> None:
    for person in people:
        await ledger.ensure_player(guild, person, f"p{person}")
        await ledger.buy_in(guild, table, person, 1_000)


async def play(
    ledger: Ledger, winner: int, loser: int, amount: int, number: int, *,
    guild: int = GUILD, table: int = TABLE, showdown: bool = True,
    winner_flags: dict[str, bool] | None = None,
) -> int:
    """One settled heads-up hand: ``winner`` takes ``amount`` from ``loser``."""
    stacks = await ledger.table_stacks(table)
    hand_id = await ledger.begin_hand(guild, table, number, stacks)
    final = {**stacks, winner: stacks[winner] + amount, loser: stacks[loser] - amount}
    await ledger.settle_hand(hand_id, final, [
        HandParticipant(winner, "w", amount, won=True, showdown_won=showdown,
                        pot_won=2 * amount, **(winner_flags or {})),
        HandParticipant(loser, "l", -amount),
    ], "history")
    return hand_id


async def test_points_come_in_the_order_played_with_their_showdown_flags(
    ledger: Ledger, clock: FakeClock
) -> None:
    await seat(ledger, GUILD, TABLE, ALICE, BOB)
    first = await play(ledger, ALICE, BOB, 50, 1)
    clock.now += 10
    second = await play(ledger, BOB, ALICE, 20, 2, showdown=False)
    clock.now += 10
    third = await play(ledger, BOB, ALICE, 30, 3)
    points = await ledger.results_over_time(GUILD, ALICE)
    assert [(p.hand_id, p.net, p.won, p.showdown_won, p.reached_showdown) for p in points] == [
        (first, 50, True, True, True),
        (second, -20, False, False, False),
        (third, -30, False, False, True),
    ]
    assert [p.finished_at for p in points] == [1_000_000.0, 1_000_010.0, 1_000_020.0]


async def test_hands_finished_at_the_same_moment_are_ordered_by_id(ledger: Ledger) -> None:
    await seat(ledger, GUILD, TABLE, ALICE, BOB)
    ids = [await play(ledger, ALICE, BOB, 10 * n, n) for n in range(1, 4)]
    points = await ledger.results_over_time(GUILD, BOB)
    assert [p.hand_id for p in points] == ids
    assert [p.net for p in points] == [-10, -20, -30]


async def test_only_settled_hands_count(ledger: Ledger) -> None:
    await seat(ledger, GUILD, TABLE, ALICE, BOB)
    settled = await play(ledger, ALICE, BOB, 50, 1)
    refunded = await ledger.begin_hand(GUILD, TABLE, 2, await ledger.table_stacks(TABLE))
    await ledger.refund_hand(refunded)
    running = await ledger.begin_hand(GUILD, TABLE, 3, await ledger.table_stacks(TABLE))
    assert [p.hand_id for p in await ledger.results_over_time(GUILD, ALICE)] == [settled]
    await ledger.refund_hand(running)


async def test_only_hands_of_that_guild_and_person(ledger: Ledger) -> None:
    await seat(ledger, GUILD, TABLE, ALICE, BOB)
    await seat(ledger, OTHER_GUILD, OTHER_TABLE, ALICE, CAROL)
    here = await play(ledger, ALICE, BOB, 50, 1)
    await play(ledger, CAROL, ALICE, 70, 1, guild=OTHER_GUILD, table=OTHER_TABLE)
    assert [p.hand_id for p in await ledger.results_over_time(GUILD, ALICE)] == [here]
    assert [p.net for p in await ledger.results_over_time(OTHER_GUILD, ALICE)] == [-70]
    assert await ledger.results_over_time(GUILD, CAROL) == []
    assert await ledger.results_over_time(OTHER_GUILD, BOB) == []


async def test_limit_keeps_the_latest_hands_oldest_first(
    ledger: Ledger, clock: FakeClock
) -> None:
    await seat(ledger, GUILD, TABLE, ALICE, BOB)
    ids = []
    for n in range(1, 6):
        clock.now += 1
        ids.append(await play(ledger, ALICE, BOB, n, n))
    points = await ledger.results_over_time(GUILD, ALICE, limit=2)
    assert [p.hand_id for p in points] == ids[-2:]
    assert [p.net for p in points] == [4, 5]
    assert len(await ledger.results_over_time(GUILD, ALICE, limit=1000)) == 5


@pytest.mark.parametrize(
    ("guild", "user", "limit"),
    [("1", ALICE, 10), (GUILD, None, 10), (GUILD, True, 10), (1.5, ALICE, 10),
     (GUILD, ALICE, 0), (GUILD, ALICE, -3), (GUILD, ALICE, "10")],
)
async def test_bad_arguments_are_refused(
    ledger: Ledger, guild: object, user: object, limit: object
) -> None:
    with pytest.raises(InvalidRequest):
        await ledger.results_over_time(guild, user, limit)  # type: ignore[arg-type]


async def test_server_averages_count_each_player_who_played_once(ledger: Ledger) -> None:
    empty = await ledger.server_averages(GUILD)
    assert (empty.players, empty.vpip_percent, empty.pfr_percent) == (0, 0.0, 0.0)
    await seat(ledger, GUILD, TABLE, ALICE, BOB)
    await ledger.ensure_player(GUILD, CAROL, "carol")  # never played: not counted
    await play(ledger, ALICE, BOB, 10, 1, winner_flags={"vpip": True, "pfr": True})
    await play(ledger, ALICE, BOB, 10, 2, winner_flags={"vpip": True})
    # Alice: VPIP 100%, PFR 50%; Bob: 0% and 0%.
    averages = await ledger.server_averages(GUILD)
    assert averages.players == 2
    assert averages.vpip_percent == pytest.approx(50.0)
    assert averages.pfr_percent == pytest.approx(25.0)
    assert (await ledger.server_averages(OTHER_GUILD)).players == 0
    with pytest.raises(InvalidRequest):
        await ledger.server_averages("1")  # type: ignore[arg-type]

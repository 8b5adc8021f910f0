"""Tournament chips in the ledger, on both backends: buy-ins into one escrow per tournament,
refunds, exact prizes, records, recovery after a crash, and refusals that change nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.i18n import language_for
from bot.ledger import (
    AlreadyRegistered,
    InsufficientChips,
    InvalidAmount,
    InvalidRequest,
    Ledger,
    NotRegistered,
    PlayerKey,
    TournamentNotOpen,
    TournamentStats,
    UnbalancedHand,
    UnbalancedPrizes,
    UnknownPlayer,
)
from bot.shards import ShardSet
from engine.payouts import Standings, preset_payouts, prize_amounts
from tests.ledger.conftest import FakeClock

GUILD, OTHER_GUILD, CHANNEL, CREATOR = 1, 2, 500, 11
ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave"}
START = 10_000  # the ledger's default starting balance
SETTINGS = {"starting_stack": 1_500, "seats": 6, "schedule": "turbo", "payouts": [65, 35]}


async def people(ledger: Ledger, *users: int, guild: int = GUILD) -> None:
    for user in users:
        await ledger.ensure_player(guild, user, NAMES.get(user, f"p{user}"))


async def tournament(ledger: Ledger, buy_in: int = 100, *entrants: PlayerKey) -> int:
    """A tournament of GUILD with ``entrants`` registered (people get accounts first)."""
    tournament_id = await ledger.create_tournament(GUILD, CHANNEL, CREATOR, buy_in, SETTINGS)
    for player in entrants:
        if isinstance(player, int):
            await people(ledger, player)
        await ledger.register_tournament(tournament_id, player)
    return tournament_id


async def everything(ledger: Ledger, tournament_id: int) -> tuple[object, ...]:
    """What a refused request must leave untouched."""
    return (
        await ledger.audit(),
        [await ledger.stats(GUILD, user) for user in (ALICE, BOB, CAROL)],
        await ledger.tournament_info(tournament_id),
        await ledger.tournament_results(tournament_id),
        await ledger.tournament_stats(GUILD, ALICE),
    )


async def started(ledger: Ledger, buy_in: int, *entrants: PlayerKey) -> int:
    tournament_id = await tournament(ledger, buy_in, *entrants)
    await ledger.start_tournament(tournament_id)
    return tournament_id


# ------------------------------------------------------------------ creating and registering


async def test_create_opens_an_empty_tournament_with_its_settings(ledger: Ledger) -> None:
    tournament_id = await ledger.create_tournament(GUILD, CHANNEL, CREATOR, 250, SETTINGS)
    info = await ledger.tournament_info(tournament_id)
    assert info is not None
    assert (info.id, info.guild_id, info.channel_id, info.creator_id) == (
        tournament_id, GUILD, CHANNEL, CREATOR,
    )  # fmt: skip
    assert (info.buy_in, info.status, info.entrants, info.pool) == (250, "registering", (), 0)
    assert dict(info.settings) == SETTINGS
    assert await ledger.tournament_info(tournament_id + 1) is None


async def test_register_moves_exactly_the_buy_in_and_the_audit_holds(ledger: Ledger) -> None:
    tournament_id = await tournament(ledger, 300)
    await people(ledger, ALICE, BOB)
    assert await ledger.register_tournament(tournament_id, ALICE) == 1
    assert await ledger.register_tournament(tournament_id, BOB) == 2
    assert await ledger.balance(GUILD, ALICE) == START - 300
    assert await ledger.balance(GUILD, BOB) == START - 300
    info = await ledger.tournament_info(tournament_id)
    assert info is not None
    assert (info.entrants, info.pool) == ((ALICE, BOB), 600)
    report = await ledger.audit()
    assert report.ok, report.problems
    assert (report.totals.tournaments, report.totals.escrow) == (600, 0)
    assert report.totals.granted == 2 * START


async def test_a_bot_registers_with_its_name_and_the_house_pays(ledger: Ledger) -> None:
    tournament_id = await tournament(ledger, 400, ALICE)
    assert await ledger.register_tournament(tournament_id, "Ada") == 2
    info = await ledger.tournament_info(tournament_id)
    assert info is not None
    assert (info.entrants, info.pool) == ((ALICE, "Ada"), 800)
    assert (await ledger.audit()).totals.house == -400


async def test_a_freeroll_moves_no_chips(ledger: Ledger) -> None:
    tournament_id = await started(ledger, 0, ALICE, BOB, "Ada")
    await ledger.finish_tournament(tournament_id, {ALICE: 1, BOB: 2, "Ada": 3}, {})
    assert await ledger.balance(GUILD, ALICE) == START
    stats = await ledger.tournament_stats(GUILD, ALICE)
    assert (stats.played, stats.in_the_money, stats.wins, stats.net) == (1, 0, 1, 0)


async def test_joining_twice_is_refused_and_changes_nothing(ledger: Ledger) -> None:
    tournament_id = await tournament(ledger, 100, ALICE, "Ada")
    before = await everything(ledger, tournament_id)
    for player in (ALICE, "Ada"):
        with pytest.raises(AlreadyRegistered):
            await ledger.register_tournament(tournament_id, player)
    assert await everything(ledger, tournament_id) == before


@pytest.mark.parametrize("state", ["running", "finished", "cancelled", "unknown"])
async def test_joining_a_started_finished_cancelled_or_unknown_tournament_is_refused(
    ledger: Ledger, state: str
) -> None:
    await people(ledger, CAROL)
    tournament_id = await tournament(ledger, 100, ALICE, BOB)
    if state != "unknown":
        await ledger.start_tournament(tournament_id)
    if state == "finished":
        await ledger.finish_tournament(tournament_id, {ALICE: 1, BOB: 2}, {ALICE: 200})
    elif state == "cancelled":
        await ledger.cancel_tournament(tournament_id)
    asked = tournament_id if state != "unknown" else tournament_id + 1
    before = await everything(ledger, asked)
    with pytest.raises(TournamentNotOpen) as refused:
        await ledger.register_tournament(asked, CAROL)
    assert refused.value.status == (None if state == "unknown" else state)
    with pytest.raises(TournamentNotOpen):
        await ledger.register_tournament(asked, "Ada")
    assert await everything(ledger, asked) == before


async def test_a_buy_in_above_the_balance_is_refused_and_changes_nothing(ledger: Ledger) -> None:
    tournament_id = await tournament(ledger, START + 1)
    await people(ledger, ALICE)
    before = await everything(ledger, tournament_id)
    with pytest.raises(InsufficientChips) as refused:
        await ledger.register_tournament(tournament_id, ALICE)
    assert (refused.value.needed, refused.value.balance) == (START + 1, START)
    assert await everything(ledger, tournament_id) == before


async def test_a_person_without_chips_here_cannot_register(ledger: Ledger) -> None:
    paid = await tournament(ledger, 100)
    free = await tournament(ledger, 0)
    for tournament_id in (paid, free):
        with pytest.raises(UnknownPlayer):
            await ledger.register_tournament(tournament_id, DAVE)
        assert (await ledger.tournament_info(tournament_id)).entrants == ()  # type: ignore[union-attr]


@pytest.mark.parametrize("buy_in", [-1, 1.5, True, "100", 10**15 + 1])
async def test_a_malformed_buy_in_is_refused(ledger: Ledger, buy_in: object) -> None:
    with pytest.raises(InvalidAmount):
        await ledger.create_tournament(GUILD, CHANNEL, CREATOR, buy_in, SETTINGS)  # type: ignore[arg-type]
    assert await ledger.open_tournaments(GUILD) == []


async def test_settings_must_be_plain_values(ledger: Ledger) -> None:
    with pytest.raises(InvalidRequest):
        await ledger.create_tournament(GUILD, CHANNEL, CREATOR, 100, {"when": object()})
    assert await ledger.open_tournaments(GUILD) == []


async def test_a_prize_pool_cannot_pass_the_cap(ledger: Ledger) -> None:
    tournament_id = await tournament(ledger, 10**15, "Ada")
    with pytest.raises(InvalidAmount):
        await ledger.register_tournament(tournament_id, "Bob the bot")
    assert (await ledger.tournament_info(tournament_id)).pool == 10**15  # type: ignore[union-attr]


# ------------------------------------------------------------------ leaving, starting, cancelling


async def test_unregister_refunds_before_the_start_only(ledger: Ledger) -> None:
    tournament_id = await tournament(ledger, 500, ALICE, BOB, "Ada")
    await ledger.unregister_tournament(tournament_id, ALICE)
    await ledger.unregister_tournament(tournament_id, "Ada")
    assert await ledger.balance(GUILD, ALICE) == START
    assert (await ledger.audit()).totals.house == 0
    info = await ledger.tournament_info(tournament_id)
    assert info is not None
    assert (info.entrants, info.pool) == ((BOB,), 500)
    with pytest.raises(NotRegistered):
        await ledger.unregister_tournament(tournament_id, ALICE)
    assert await ledger.register_tournament(tournament_id, ALICE) == 2
    assert await ledger.start_tournament(tournament_id) == (BOB, ALICE)
    before = await everything(ledger, tournament_id)
    with pytest.raises(TournamentNotOpen):
        await ledger.unregister_tournament(tournament_id, ALICE)
    assert await everything(ledger, tournament_id) == before


async def test_start_returns_the_entrants_in_registration_order_once(ledger: Ledger) -> None:
    tournament_id = await tournament(ledger, 100, BOB, "Ada", ALICE)
    assert await ledger.start_tournament(tournament_id) == (BOB, "Ada", ALICE)
    info = await ledger.tournament_info(tournament_id)
    assert info is not None and info.status == "running"
    with pytest.raises(TournamentNotOpen):
        await ledger.start_tournament(tournament_id)
    with pytest.raises(TournamentNotOpen):
        await ledger.start_tournament(tournament_id + 1)


@pytest.mark.parametrize("running", [False, True])
async def test_cancel_refunds_every_buy_in(ledger: Ledger, running: bool) -> None:
    tournament_id = await tournament(ledger, 700, ALICE, BOB, "Ada", "Bea")
    if running:
        await ledger.start_tournament(tournament_id)
    await ledger.cancel_tournament(tournament_id)
    assert [await ledger.balance(GUILD, user) for user in (ALICE, BOB)] == [START, START]
    report = await ledger.audit()
    assert report.ok, report.problems
    assert (report.totals.house, report.totals.tournaments) == (0, 0)
    info = await ledger.tournament_info(tournament_id)
    assert info is not None and (info.status, info.pool) == ("cancelled", 0)
    assert await ledger.tournament_results(tournament_id) == []
    assert await ledger.tournament_stats(GUILD, ALICE) == TournamentStats()
    with pytest.raises(TournamentNotOpen):
        await ledger.cancel_tournament(tournament_id)


async def test_a_finished_tournament_cannot_be_cancelled(ledger: Ledger) -> None:
    tournament_id = await started(ledger, 100, ALICE, BOB)
    await ledger.finish_tournament(tournament_id, {ALICE: 1, BOB: 2}, {ALICE: 200})
    before = await everything(ledger, tournament_id)
    with pytest.raises(TournamentNotOpen) as refused:
        await ledger.cancel_tournament(tournament_id)
    assert refused.value.status == "finished"
    assert await everything(ledger, tournament_id) == before


async def test_open_tournaments_lists_the_registering_and_running_ones_of_a_guild(
    ledger: Ledger,
) -> None:
    registering = await tournament(ledger, 100, ALICE)
    running = await started(ledger, 100, BOB)
    cancelled = await tournament(ledger, 100)
    await ledger.cancel_tournament(cancelled)
    await ledger.create_tournament(OTHER_GUILD, CHANNEL, CREATOR, 100, {})
    found = await ledger.open_tournaments(GUILD)
    assert [(t.id, t.status, t.entrants) for t in found] == [
        (registering, "registering", (ALICE,)), (running, "running", (BOB,)),
    ]  # fmt: skip


# ------------------------------------------------------------------ finishing


async def test_finish_pays_the_prizes_exactly_with_odd_chips_and_records_places(
    ledger: Ledger,
) -> None:
    entrants: list[PlayerKey] = [ALICE, BOB, CAROL, "Ada", "Bea", "Cy", "Di"]
    tournament_id = await started(ledger, 333, *entrants)
    pool = 7 * 333  # 2,331: 50/30/20 % does not divide it evenly
    prizes = prize_amounts(pool, preset_payouts(len(entrants)))
    assert sum(prizes) == pool and prizes[0] % 10 != 0
    standings: Standings[PlayerKey] = Standings(entrants)
    standings.bust([("Di", 10)])
    standings.bust([("Cy", 20), (CAROL, 900)])
    standings.bust([("Bea", 50)])
    standings.bust([(BOB, 400)])
    standings.bust([("Ada", 700)])
    assert standings.winner == ALICE
    places = {player: best for player, (best, _) in standings.places.items()}
    payouts = standings.payouts(prizes)
    await ledger.finish_tournament(tournament_id, places, payouts)

    assert await ledger.balance(GUILD, ALICE) == START - 333 + prizes[0]
    assert await ledger.balance(GUILD, CAROL) == START - 333
    assert (await ledger.audit()).totals.house == -4 * 333 + payouts["Ada"]
    info = await ledger.tournament_info(tournament_id)
    assert info is not None and (info.status, info.pool) == ("finished", 0)
    results = await ledger.tournament_results(tournament_id)
    assert [(r.player, r.name, r.place, r.prize) for r in results] == [
        (ALICE, "alice", 1, prizes[0]),
        ("Ada", "Ada", 2, prizes[1]),
        (BOB, "bob", 3, prizes[2]),
        ("Bea", "Bea", 4, 0),
        (CAROL, "carol", 5, 0),
        ("Cy", "Cy", 6, 0),
        ("Di", "Di", 7, 0),
    ]
    with pytest.raises(TournamentNotOpen):
        await ledger.finish_tournament(tournament_id, places, payouts)


async def test_players_who_tie_share_a_place_and_split_its_prize(ledger: Ledger) -> None:
    tournament_id = await started(ledger, 101, ALICE, BOB, CAROL)
    await ledger.finish_tournament(
        tournament_id, {ALICE: 1, BOB: 2, CAROL: 2}, {ALICE: 203, BOB: 50, CAROL: 50}
    )
    results = await ledger.tournament_results(tournament_id)
    assert [(r.player, r.place, r.prize) for r in results] == [
        (ALICE, 1, 203), (BOB, 2, 50), (CAROL, 2, 50),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "prizes",
    [{ALICE: 299}, {ALICE: 301}, {ALICE: 150, BOB: 151}, {ALICE: 200, DAVE: 100}, {}],
)
async def test_finish_refuses_prizes_that_do_not_sum_to_the_pool_and_changes_nothing(
    ledger: Ledger, prizes: dict[PlayerKey, int]
) -> None:
    tournament_id = await started(ledger, 100, ALICE, BOB, "Ada")
    before = await everything(ledger, tournament_id)
    with pytest.raises(UnbalancedPrizes) as refused:
        await ledger.finish_tournament(tournament_id, {ALICE: 1, BOB: 2, "Ada": 3}, prizes)
    assert isinstance(refused.value, UnbalancedHand)
    assert await everything(ledger, tournament_id) == before


@pytest.mark.parametrize(
    "places",
    [{ALICE: 1}, {ALICE: 1, BOB: 2, DAVE: 3}, {ALICE: 1, BOB: 3}, {ALICE: 0, BOB: 1}],
)
async def test_finish_refuses_places_that_are_not_the_entrants(
    ledger: Ledger, places: dict[PlayerKey, int]
) -> None:
    tournament_id = await started(ledger, 100, ALICE, BOB)
    before = await everything(ledger, tournament_id)
    with pytest.raises(InvalidRequest):
        await ledger.finish_tournament(tournament_id, places, {ALICE: 200})
    assert await everything(ledger, tournament_id) == before


async def test_a_tournament_not_running_cannot_finish(ledger: Ledger) -> None:
    tournament_id = await tournament(ledger, 100, ALICE, BOB)
    with pytest.raises(TournamentNotOpen) as refused:
        await ledger.finish_tournament(tournament_id, {ALICE: 1, BOB: 2}, {ALICE: 200})
    assert refused.value.status == "registering"
    assert (await ledger.tournament_info(tournament_id)).pool == 200  # type: ignore[union-attr]


# ------------------------------------------------------------------ records


async def test_tournament_stats_count_played_in_the_money_wins_and_net(ledger: Ledger) -> None:
    first = await started(ledger, 100, ALICE, BOB, CAROL)
    await ledger.finish_tournament(first, {ALICE: 1, BOB: 2, CAROL: 3}, {ALICE: 200, BOB: 100})
    second = await started(ledger, 50, ALICE, BOB)
    await ledger.finish_tournament(second, {BOB: 1, ALICE: 2}, {BOB: 100})
    cancelled = await started(ledger, 1_000, ALICE)
    await ledger.cancel_tournament(cancelled)
    alice = await ledger.tournament_stats(GUILD, ALICE)
    assert (alice.played, alice.in_the_money, alice.wins, alice.net) == (2, 1, 1, 100 - 50)
    bob = await ledger.tournament_stats(GUILD, BOB)
    assert (bob.played, bob.in_the_money, bob.wins, bob.net) == (2, 2, 1, 0 + 50)
    carol = await ledger.tournament_stats(GUILD, CAROL)
    assert (carol.played, carol.in_the_money, carol.wins, carol.net) == (1, 0, 0, -100)
    nobody = await ledger.tournament_stats(OTHER_GUILD, ALICE)
    assert (nobody.played, nobody.net) == (0, 0)
    stats = await ledger.stats(GUILD, ALICE)
    assert stats is not None and (stats.hands_played, stats.net_chips) == (0, 0)


async def test_the_leaderboard_ranks_people_by_tournament_net(ledger: Ledger) -> None:
    first = await started(ledger, 100, ALICE, BOB, CAROL, "Ada")
    await ledger.finish_tournament(
        first, {"Ada": 1, CAROL: 2, ALICE: 3, BOB: 4}, {"Ada": 250, CAROL: 150}
    )
    second = await started(ledger, 100, ALICE, BOB)
    await ledger.finish_tournament(second, {BOB: 1, ALICE: 2}, {BOB: 200})
    board = await ledger.leaderboard(GUILD, by="tournaments")
    assert [(r.rank, r.user_id, r.name, r.value) for r in board] == [
        (1, CAROL, "carol", 50), (2, BOB, "bob", 0), (3, ALICE, "alice", -200),
    ]  # fmt: skip
    everywhere = await ledger.leaderboard(None, by="tournaments", page_size=1)
    assert [(r.user_id, r.value) for r in everywhere] == [(CAROL, 50)]


# ------------------------------------------------------------------ crashes and races


async def test_recover_after_a_crash_refunds_unfinished_tournaments_and_the_audit_holds(
    ledger_location: str | Path, clock: FakeClock
) -> None:
    async with await Ledger.open(ledger_location, clock=clock) as before_the_crash:
        registering = await tournament(before_the_crash, 200, ALICE, "Ada")
        running = await started(before_the_crash, 300, ALICE, BOB, "Bea")
        finished = await started(before_the_crash, 100, ALICE, BOB)
        await before_the_crash.finish_tournament(finished, {BOB: 1, ALICE: 2}, {BOB: 200})
        await people(before_the_crash, ALICE, guild=OTHER_GUILD)
        elsewhere = await before_the_crash.create_tournament(OTHER_GUILD, CHANNEL, 1, 400, {})
        await before_the_crash.register_tournament(elsewhere, ALICE)
    # The process died with those tournaments open; the next one starts on the same ledger.
    async with await Ledger.open(ledger_location, clock=clock) as after:
        guild_shard = ShardSet(2, ((GUILD >> 22) % 2,))  # both guilds are on shard 0 of 2
        other_shard = ShardSet(2, (1 - guild_shard.ids[0],))
        assert (await after.recover(shards=other_shard)).tournaments_refunded == ()
        report = await after.recover()
        assert report.tournaments_refunded == (registering, running, elsewhere)
        assert await after.balance(GUILD, ALICE) == START - 100
        assert await after.balance(GUILD, BOB) == START + 100
        assert await after.balance(OTHER_GUILD, ALICE) == START
        audit = await after.audit()
        assert audit.ok, audit.problems
        assert (audit.totals.house, audit.totals.tournaments) == (0, 0)
        assert await after.open_tournaments(GUILD) == []
        info = await after.tournament_info(running)
        assert info is not None and info.status == "cancelled"
        assert (await after.tournament_info(finished)).status == "finished"  # type: ignore[union-attr]
        assert (await after.recover()).tournaments_refunded == ()


async def test_recover_leaves_the_tournaments_of_other_processes_shards(
    ledger_location: str | Path, clock: FakeClock
) -> None:
    guild_on_shard_1 = 1 << 22
    async with await Ledger.open(ledger_location, clock=clock) as ledger:
        await ledger.ensure_player(guild_on_shard_1, ALICE, "alice")
        theirs = await ledger.create_tournament(guild_on_shard_1, CHANNEL, 1, 400, {})
        await ledger.register_tournament(theirs, ALICE)
        report = await ledger.recover(shards=ShardSet(2, (0,)))
        assert report.tournaments_refunded == ()
        assert (await ledger.tournament_info(theirs)).pool == 400  # type: ignore[union-attr]
        assert (await ledger.recover(shards=ShardSet(2, (1,)))).tournaments_refunded == (theirs,)
        assert (await ledger.audit()).ok


async def test_concurrent_registrations_racing_never_overspend_a_balance(
    ledger: Ledger,
) -> None:
    """Twenty registrations at once, in twenty tournaments, on a balance that covers three."""
    await people(ledger, ALICE)
    ids = [
        await ledger.create_tournament(GUILD, CHANNEL + n, CREATOR, 3_000, SETTINGS)
        for n in range(20)
    ]
    outcomes = await asyncio.gather(
        *(ledger.register_tournament(tournament_id, ALICE) for tournament_id in ids),
        return_exceptions=True,
    )
    assert sum(outcome == 1 for outcome in outcomes) == 3
    assert all(isinstance(o, InsufficientChips) for o in outcomes if o != 1)
    assert await ledger.balance(GUILD, ALICE) == START - 3 * 3_000
    entered = [await ledger.tournament_info(tournament_id) for tournament_id in ids]
    assert sum(len(info.entrants) for info in entered if info is not None) == 3
    report = await ledger.audit()
    assert report.ok, report.problems
    assert report.totals.tournaments == 9_000


async def test_concurrent_registrations_of_one_player_in_one_tournament_enter_once(
    ledger: Ledger,
) -> None:
    tournament_id = await tournament(ledger, 100)
    await people(ledger, ALICE, BOB)
    outcomes = await asyncio.gather(
        *(ledger.register_tournament(tournament_id, player) for player in [ALICE, BOB] * 5),
        return_exceptions=True,
    )
    assert sorted(o for o in outcomes if isinstance(o, int)) == [1, 2]
    assert sum(isinstance(o, AlreadyRegistered) for o in outcomes) == 8
    assert [await ledger.balance(GUILD, user) for user in (ALICE, BOB)] == [START - 100] * 2
    assert (await ledger.tournament_info(tournament_id)).pool == 200  # type: ignore[union-attr]


# ------------------------------------------------------------------ the audit and languages


async def test_the_audit_finds_a_tournament_escrow_that_does_not_hold_its_buy_ins(
    tmp_path: Path,
) -> None:
    import sqlite3

    path = tmp_path / "ledger.sqlite3"
    async with await Ledger.open(path) as ledger:
        tournament_id = await tournament(ledger, 100, ALICE, BOB)
    with sqlite3.connect(path) as db:  # an entrant's row lost behind the ledger's back
        db.execute("DELETE FROM tournament_entries WHERE user_id = ?", (BOB,))
    async with await Ledger.open(path) as ledger:
        report = await ledger.audit()
    assert not report.ok
    assert report.problems == (
        f"registering tournament {tournament_id}: its escrow holds 200, not 100",
    )


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en-US", "already started"), ("zh-CN", "锦标赛"), ("zh-TW", "錦標賽")],
)
def test_tournament_refusals_read_in_the_members_language(locale: str, expected: str) -> None:
    for error in (TournamentNotOpen("running"), AlreadyRegistered(), NotRegistered(),
                  TournamentNotOpen(None), UnbalancedPrizes(10, 11)):  # fmt: skip
        assert language_for(locale).render(error.message)
    assert expected in language_for(locale).render(TournamentNotOpen("running").message)


async def test_late_registration_takes_a_buy_in_while_running_and_the_pool_grows(
        ledger: Ledger) -> None:
    await people(ledger, ALICE, BOB, CAROL)
    late = await ledger.create_tournament(GUILD, CHANNEL, CREATOR, 100,
                                          {**SETTINGS, "late_registration": 2})
    for player in (ALICE, BOB):
        await ledger.register_tournament(late, player)
    await ledger.start_tournament(late)
    assert await ledger.register_tournament(late, CAROL) == 3
    info = await ledger.tournament_info(late)
    assert info is not None and (info.status, info.pool) == ("running", 300)
    assert info.entrants == (ALICE, BOB, CAROL)
    assert await ledger.balance(GUILD, CAROL) == START - 100
    assert (await ledger.audit()).ok
    with pytest.raises(AlreadyRegistered):
        await ledger.register_tournament(late, CAROL)
    await ledger.finish_tournament(late, {ALICE: 1, BOB: 2, CAROL: 3}, {ALICE: 200, BOB: 100})
    assert (await ledger.audit()).ok
    with pytest.raises(TournamentNotOpen):
        await ledger.register_tournament(late, DAVE)

"""Rebuys, add-ons, re-entries and scheduled starts at the runtime level, on the real SQLite
ledger: every purchase moves the buy-in into the escrow and gives the starting stack, the
pool and the prizes count it, a knocked-out player with a way back is placed only when they
decline or their time runs out, and the audit holds after each."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ledger import Ledger
from bot.tables.tournament_status import Purchase, TournamentPhase, TournamentStatus, offers_in
from bot.tables.tournaments import PurchaseRefused
from engine.blinds import LevelUnit
from tests.tables.helpers import eventually, passive, shove
from tests.tables.test_tournament_late_registration import Clock
from tests.tables.test_tournament_resume import new_manager
from tests.tables.tournament_helpers import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    Harness,
    fast_settings,
    tournament_harness,
)

BUY_IN = 100


async def heads_up(harness: Harness, **settings: object) -> int:
    """Alice and Bob in a heads-up sit-and-go with ``settings``, both shoving every hand."""
    tournaments = harness.manager.tournaments
    for user, name in ((ALICE, "Alice"), (BOB, "Bob")):
        await harness.ledger.ensure_player(GUILD, user, name)
        harness.notifier.auto_actions[user] = shove
    tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(seats=2, **settings))
    await tournaments.join(tid, ALICE, "Alice")
    await tournaments.join(tid, BOB, "Bob")
    return tid


async def knocked_out(harness: Harness, tid: int) -> int:
    """Wait until someone is knocked out and deciding; who."""
    def deciding() -> list[int]:
        return [int(e.player) for e in harness.manager.tournaments.status(tid).entrants
                if e.deciding]
    await eventually(lambda: bool(deciding()), timeout=20.0)
    return deciding()[0]


async def test_rebuy_when_knocked_out_seats_them_again_and_the_prizes_pay_the_pool(
        tmp_path: Path) -> None:
    async with tournament_harness(tmp_path, "sqlite") as harness:
        tid = await heads_up(harness, rebuys=1)
        out = await knocked_out(harness, tid)
        offers = [offers_in(args[2]) for kind, args in harness.notifier.events
                  if kind == "tell" and args[1] == out]
        assert (tid, (Purchase.REBUY, Purchase.DECLINE)) in offers
        balance = await harness.balance(out)
        assert await harness.manager.tournaments.rebuy(tid, out) == 1
        assert await harness.balance(out) == balance - BUY_IN
        status = harness.manager.tournaments.status(tid)
        assert status.phase is TournamentPhase.RUNNING and status.pool == 3 * BUY_IN
        assert status.rebuys == 1 and status.entrant(out) is not None
        assert (await harness.ledger.audit()).totals.tournaments == 3 * BUY_IN
        assert await harness.audit_ok()
        with pytest.raises(PurchaseRefused):  # one rebuy each
            await harness.manager.tournaments.rebuy(tid, out)
        results = await harness.finished(tid)
        assert sum(entrant.prize for entrant in results.places) == 3 * BUY_IN == results.pool
        assert await harness.audit_ok()


async def test_a_knocked_out_player_whose_time_runs_out_takes_their_place(
        tmp_path: Path) -> None:
    async with tournament_harness(tmp_path, "sqlite") as harness:
        harness.manager.tournaments.decision_seconds = 0.2
        tid = await heads_up(harness, rebuys=2)
        out = await knocked_out(harness, tid)
        results = await harness.finished(tid)
        assert results.places[1].player == out and results.places[0].prize == 2 * BUY_IN
        assert await harness.audit_ok()


async def test_declining_places_them_now(tmp_path: Path) -> None:
    async with tournament_harness(tmp_path, "sqlite") as harness:
        tid = await heads_up(harness, rebuys=1)
        out = await knocked_out(harness, tid)
        await harness.manager.tournaments.decline(tid, out)
        results = await harness.finished(tid)
        assert results.places[1].player == out
        assert await harness.audit_ok()


async def test_rebuy_refused_above_the_starting_stack_changes_nothing(tmp_path: Path) -> None:
    async with tournament_harness(tmp_path, "sqlite") as harness:
        for user in (ALICE, BOB):
            harness.notifier.auto_actions[user] = passive
        tid = await heads_up(harness, rebuys=1)
        for user in (ALICE, BOB):
            harness.notifier.auto_actions[user] = passive

        def leader() -> int | None:
            status = harness.manager.tournaments.status(tid)
            return next((int(e.player) for e in status.entrants if e.chips > 800), None)

        await eventually(lambda: leader() is not None, timeout=20.0)
        rich = leader()
        assert rich is not None
        balance = await harness.balance(rich)
        with pytest.raises(PurchaseRefused, match="at or below the starting stack"):
            await harness.manager.tournaments.rebuy(tid, rich)
        assert await harness.balance(rich) == balance
        assert harness.manager.tournaments.status(tid).pool == 2 * BUY_IN
        assert await harness.audit_ok()


async def test_rebuy_at_the_starting_stack_adds_it_between_hands(tmp_path: Path) -> None:
    async with tournament_harness(tmp_path, "sqlite") as harness:
        for user in (ALICE, BOB):
            harness.notifier.auto_actions[user] = passive
        tid = await heads_up(harness, rebuys=1, addon=True, addon_price=30, addon_chips=500)
        for user in (ALICE, BOB):
            harness.notifier.auto_actions[user] = passive
        tournaments = harness.manager.tournaments

        def chips(status: TournamentStatus) -> int:
            entrant = status.entrant(ALICE)
            assert entrant is not None
            return entrant.chips

        before = chips(tournaments.status(tid))
        if before > 800:
            pytest.skip("Alice won the first hand")  # the seed decides; kept deterministic
        await tournaments.rebuy(tid, ALICE)
        status = tournaments.status(tid)
        assert chips(status) == before + 800 and status.pool == 3 * BUY_IN
        with pytest.raises(PurchaseRefused, match="level 4"):
            await tournaments.addon(tid, ALICE)
        assert await harness.audit_ok()


async def test_addon_once_in_the_level_after_the_rebuy_period(tmp_path: Path) -> None:
    async with tournament_harness(tmp_path, "sqlite") as harness:
        tid = await heads_up(harness, rebuys=1, rebuy_levels=1, addon=True, addon_price=30,
                             addon_chips=500, structure="deep")
        for user in (ALICE, BOB):
            harness.notifier.auto_actions[user] = passive
        tournaments = harness.manager.tournaments
        await eventually(lambda: tournaments.status(tid).addon_open, timeout=30.0)
        await eventually(lambda: any(  # told after the level opens it, in the background
            "add-on" in text for _, user, text in harness.notifier.messages if user == ALICE))
        balance = await harness.balance(ALICE)
        assert await tournaments.addon(tid, ALICE) == 1
        assert await harness.balance(ALICE) == balance - 30
        status = tournaments.status(tid)
        assert status.pool == 2 * BUY_IN + 30 and status.addons == 1
        with pytest.raises(PurchaseRefused, match="already"):
            await tournaments.addon(tid, ALICE)
        with pytest.raises(PurchaseRefused, match="rebuy period ended"):
            await tournaments.rebuy(tid, BOB)
        assert await harness.audit_ok()


async def test_reentry_during_late_registration_is_a_new_entry(tmp_path: Path) -> None:
    async with tournament_harness(tmp_path, "sqlite") as harness:
        tid = await heads_up(harness, reentry=True, late_registration=3,
                             unit=LevelUnit.MINUTES)
        out = await knocked_out(harness, tid)
        balance = await harness.balance(out)
        name = "Alice" if out == ALICE else "Bob"
        await harness.manager.tournaments.join(tid, out, name)
        status = harness.manager.tournaments.status(tid)
        entrant = status.entrant(out)
        assert entrant is not None and entrant.reentries == 1 and not entrant.deciding
        assert status.entries == 3 and status.pool == 3 * BUY_IN
        assert await harness.balance(out) == balance - BUY_IN
        assert await harness.audit_ok()
        await harness.manager.tournaments.cancel(tid)
        assert await harness.balance(out) == balance + BUY_IN  # everything paid back
        assert await harness.audit_ok()


async def test_a_scheduled_tournament_starts_itself_at_its_time(tmp_path: Path) -> None:
    async with tournament_harness(tmp_path, "sqlite") as harness:
        tournaments = harness.manager.tournaments
        tournaments.reminder_seconds = 0.2
        for user, name in ((ALICE, "Alice"), (BOB, "Bob")):
            await harness.ledger.ensure_player(GUILD, user, name)
            harness.notifier.auto_actions[user] = passive
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(),
                                       starts_at=tournaments.clock() + 0.4)
        await tournaments.join(tid, ALICE, "Alice")
        await tournaments.join(tid, BOB, "Bob")
        await eventually(lambda: any(
            status.remind for status in harness.notifier.tournament_statuses))
        await eventually(lambda: tournaments.status(tid).phase is TournamentPhase.RUNNING)
        info = await harness.ledger.tournament_info(tid)
        assert info is not None and info.reminded


async def test_a_scheduled_tournament_short_of_players_is_cancelled_and_refunded(
        tmp_path: Path) -> None:
    async with tournament_harness(tmp_path, "sqlite") as harness:
        tournaments = harness.manager.tournaments
        await harness.ledger.ensure_player(GUILD, ALICE, "Alice")
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(),
                                       starts_at=tournaments.clock() + 0.2)
        await tournaments.join(tid, ALICE, "Alice")
        await eventually(lambda: tournaments.status(tid).phase is TournamentPhase.CANCELLED)
        assert await harness.balance(ALICE) == 10_000
        assert await harness.audit_ok()


async def test_a_restart_keeps_a_rebuy_taken_and_a_schedule_pending(tmp_path: Path) -> None:
    ledger = await Ledger.open(tmp_path / "ledger.sqlite3")
    clock = Clock()
    manager, notifier = new_manager(ledger, clock)
    await manager.start(resume=True)
    for user, name in ((ALICE, "Alice"), (BOB, "Bob")):
        await ledger.ensure_player(GUILD, user, name)
        notifier.auto_actions[user] = shove
        notifier.auto_run_it_twice[user] = False
    tournaments = manager.tournaments
    tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(seats=2, rebuys=1))
    later = await tournaments.create(GUILD, CHANNEL + 1, ALICE, fast_settings(),
                                     starts_at=clock() + 7_200)
    await tournaments.join(tid, ALICE, "Alice")
    await tournaments.join(tid, BOB, "Bob")
    await eventually(lambda: any(e.deciding for e in tournaments.status(tid).entrants),
                     timeout=20.0)
    out = next(int(e.player) for e in tournaments.status(tid).entrants if e.deciding)
    notifier.auto_actions.clear()  # the rebuy's hands wait for the restart
    await tournaments.rebuy(tid, out)
    await manager.shutdown()

    manager, notifier = new_manager(ledger, clock)
    for user in (ALICE, BOB):
        notifier.auto_actions[user] = shove
        notifier.auto_run_it_twice[user] = False
    manager.tournaments.decision_seconds = 0.1  # the other one, out later, does not rebuy
    await manager.start(resume=True)
    tournaments = manager.tournaments
    status = tournaments.status(tid)
    assert status.phase is TournamentPhase.RUNNING and status.rebuys == 1
    assert status.pool == 3 * BUY_IN
    scheduled = tournaments.status(later)
    assert scheduled.phase is TournamentPhase.REGISTERING
    assert scheduled.starts_at == clock.now + 7_200
    await eventually(lambda: bool(notifier.tournament_results), timeout=30.0)
    (results,) = notifier.tournament_results
    assert sum(entrant.prize for entrant in results.places) == 3 * BUY_IN
    await manager.shutdown()
    assert (await ledger.audit()).ok
    await ledger.close()

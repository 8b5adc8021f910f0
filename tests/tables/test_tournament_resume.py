"""Tournaments outlive the process: a stop (graceful, or a crash) voids the hand in progress,
and the next start plays on from the stacks it started with, at the same level with what was
left of it, the same seats and buttons; nothing is refunded, and the prizes paid at the end are
the pool. A tournament that cannot be restored is refunded, with one log line saying why."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.ledger import Ledger
from bot.tables.manager import TableManager
from bot.tables.settings import TableSettings
from bot.tables.tournament_state import SavedTournamentState
from bot.tables.tournament_status import TournamentPhase, TournamentStatus
from engine.blinds import LevelUnit
from tests.tables.helpers import eventually, passive, shove
from tests.tables.recording_notifier import RecordingNotifier
from tests.tables.test_tournament_late_registration import Clock
from tests.tables.tournament_helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, fast_settings

PEOPLE = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}
GRANT = 10_000
SETTINGS = TableSettings.instant(turn_timeout=60.0)
"""No delays, and a turn that waits for the test."""


def new_manager(ledger: Ledger, clock: Clock) -> tuple[TableManager, RecordingNotifier]:
    notifier = RecordingNotifier()
    manager = TableManager(ledger, notifier, rng=random.Random(5), default_settings=SETTINGS,
                           clock=clock)
    notifier.manager = manager
    return manager, notifier


def seating(manager: TableManager) -> dict[str, int]:
    state = manager.state(CHANNEL)
    assert state is not None
    return {seat.name: seat.seat for seat in state.seats}


def stacks(status: TournamentStatus) -> dict[str, int]:
    return {entrant.name: entrant.chips for entrant in status.entrants}


async def mid_hand(ledger: Ledger, clock: Clock, unit: LevelUnit
                   ) -> tuple[TableManager, RecordingNotifier, TournamentStatus, int]:
    """A three-person sit-and-go whose first hands were played, a person's turn waiting in a
    new hand: the manager, its notifier, the tournament's status then and that hand's
    button."""
    manager, notifier = new_manager(ledger, clock)
    await manager.start(resume=True)
    tournaments = manager.tournaments
    for user, name in PEOPLE.items():
        await ledger.ensure_player(GUILD, user, name)
        notifier.auto_actions[user] = passive
        notifier.auto_run_it_twice[user] = False
    tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(seats=3, unit=unit))
    for user, name in PEOPLE.items():
        await tournaments.join(tid, user, name)  # the third starts it
    await eventually(lambda: len(notifier.outcomes) >= 4)
    clock.now += 200.0  # into the second level (3 minutes) when levels count minutes
    await eventually(lambda: len(notifier.outcomes) >= 8)
    notifier.auto_actions.clear()  # the next turn of a person waits

    def waiting() -> bool:
        state = manager.state(CHANNEL)
        return state is not None and state.is_hand_running and state.to_act is not None \
            and bool(notifier.prompts)

    await eventually(waiting)
    state = manager.state(CHANNEL)
    assert state is not None and state.button_seat is not None
    status = tournaments.status(tid)
    assert status.level == 2 and status.players_left == 3
    return manager, notifier, status, state.button_seat


async def plays_on_to_the_end(ledger: Ledger, clock: Clock, before: TournamentStatus,
                              seats: dict[str, int], button: int) -> None:
    """The next start resumes the tournament as it was when the interrupted hand began, and
    it is played to its end, paying exactly the pool."""
    for user in PEOPLE:
        assert await ledger.balance(GUILD, user) == GRANT - 100  # nobody refunded
    clock.now += 3_600.0  # an hour down: no play time
    again, notifier = new_manager(ledger, clock)
    report = await again.start(resume=True)
    assert report.tournaments_refunded == ()
    tid = before.tournament_id
    after = again.tournaments.status(tid)
    assert after.phase is TournamentPhase.RUNNING and after.resumed
    assert stacks(after) == stacks(before)
    assert (after.level, after.hands_played, after.next_level_in_hands) == (
        before.level, before.hands_played, before.next_level_in_hands)
    if before.next_level_at is not None:
        assert after.next_level_at is not None
        left_then = before.next_level_at - (clock.now - 3_600.0)
        assert after.next_level_at - clock.now == pytest.approx(left_then)
    assert seating(again) == seats
    assert notifier.resumed == [(CHANNEL, None)]
    await eventually(lambda: again.state(CHANNEL) is not None
                     and again.state(CHANNEL).is_hand_running)
    assert again.state(CHANNEL).button_seat == button  # the void hand's button deals again
    for user in PEOPLE:
        notifier.auto_actions[user] = shove
        notifier.auto_run_it_twice[user] = False
    for user, prompt in notifier.prompts:  # the turn already open
        await again.act(CHANNEL, user, shove(prompt), prompt.turn)
    await eventually(lambda: bool(notifier.tournament_results), timeout=30.0)
    await again.tournaments.wait_until_done()
    [results] = notifier.tournament_results
    assert sum(place.prize for place in results.places) == results.pool == 300
    balances = [await ledger.balance(GUILD, user) for user in PEOPLE]
    assert sum(balances) == 3 * GRANT
    assert (await ledger.audit()).ok
    await again.shutdown()


@pytest.mark.parametrize("unit", [LevelUnit.MINUTES, LevelUnit.HANDS])
async def test_after_a_graceful_stop_a_sit_and_go_plays_on_from_the_interrupted_hand(
        tmp_path: Path, unit: LevelUnit) -> None:
    clock = Clock()
    async with await Ledger.open(tmp_path / "ledger.sqlite3") as ledger:
        manager, _, before, button = await mid_hand(ledger, clock, unit)
        seats = seating(manager)
        await manager.suspend(drain=0.0)
        assert (await ledger.audit()).ok
        await plays_on_to_the_end(ledger, clock, before, seats, button)


async def test_a_stop_lets_a_tournament_hand_in_progress_finish_within_the_drain(
        tmp_path: Path) -> None:
    """A deploy mid-hand: the hand is played to its end (bots at once, the people acting in
    time), no other is dealt, and the next start goes on from the stacks it left."""
    clock = Clock()
    async with await Ledger.open(tmp_path / "ledger.sqlite3") as ledger:
        manager, notifier, before, _ = await mid_hand(ledger, clock, LevelUnit.HANDS)
        played = len(notifier.outcomes)

        def to_act() -> int | None:
            state = manager.state(CHANNEL)
            return state.to_act.user_id if state is not None and state.to_act else None

        await eventually(lambda: notifier.prompts[-1][0] == to_act())  # its prompt is out
        suspending = asyncio.create_task(manager.suspend(drain=30.0))
        await asyncio.sleep(0)  # the stop has begun: from now on no hand is dealt
        for user in PEOPLE:
            notifier.auto_actions[user] = passive
        user, prompt = notifier.prompts[-1]
        await manager.act(CHANNEL, user, passive(prompt), prompt.turn)
        await suspending
        assert len(notifier.outcomes) == played + 1  # finished, and no new hand dealt
        assert (await ledger.audit()).ok
        again, _ = new_manager(ledger, clock)
        await again.start(resume=True)
        after = again.tournaments.status(before.tournament_id)
        assert after.phase is TournamentPhase.RUNNING
        assert after.hands_played == before.hands_played + 1
        assert sum(stacks(after).values()) == sum(stacks(before).values())
        await again.suspend(drain=0.0)


async def test_after_a_crash_a_sit_and_go_plays_on_from_the_interrupted_hand(
        tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "ledger.sqlite3"
    ledger = await Ledger.open(path)
    manager, _, before, button = await mid_hand(ledger, clock, LevelUnit.HANDS)
    seats = seating(manager)
    await manager.abandon()  # as a killed process: nothing more is written
    await ledger.close()
    async with await Ledger.open(path) as ledger:
        await plays_on_to_the_end(ledger, clock, before, seats, button)


async def test_a_registering_tournament_takes_registrations_again(tmp_path: Path) -> None:
    clock = Clock()
    async with await Ledger.open(tmp_path / "ledger.sqlite3") as ledger:
        manager, _ = new_manager(ledger, clock)
        await manager.start(resume=True)
        tid = await manager.tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(seats=3))
        await manager.tournaments.join(tid, ALICE, "Alice")
        await manager.shutdown()
        assert await ledger.balance(GUILD, ALICE) == GRANT - 100

        again, _ = new_manager(ledger, clock)
        await again.start(resume=True)
        status = again.tournaments.status(tid)
        assert status.phase is TournamentPhase.REGISTERING
        assert [entrant.name for entrant in status.entrants] == ["Alice"]
        assert await again.tournaments.join(tid, BOB, "Bob") == 2
        assert (await ledger.audit()).ok
        await again.shutdown()


def richer(text: str) -> str:
    """The saved state with a chip more in one stack than were issued."""
    data = json.loads(text)
    data["seats"][0][3] += 1
    return json.dumps(data)


@pytest.mark.parametrize("mangle", [lambda text: '{"version": 1, "seats": "no"}', richer])
async def test_a_tournament_that_cannot_be_restored_is_refunded_with_one_log_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, mangle: Callable[[str], str]) -> None:
    clock = Clock()
    async with await Ledger.open(tmp_path / "ledger.sqlite3") as ledger:
        manager, _, before, _ = await mid_hand(ledger, clock, LevelUnit.HANDS)
        await manager.suspend(drain=0.0)
        tid = before.tournament_id
        [saved] = await ledger.saved_tournaments()
        assert saved.state is not None
        await ledger.save_tournament_state(tid, mangle(saved.state))

        again, notifier = new_manager(ledger, clock)
        with caplog.at_level(logging.ERROR, logger="bot.tables.tournaments"):
            report = await again.start(resume=True)
        assert report.tournaments_refunded == (tid,)
        assert [record.message for record in caplog.records
                if "cannot be restored" in record.message] == [caplog.records[0].message]
        assert again.state(CHANNEL) is None and notifier.resumed == []
        for user in PEOPLE:
            assert await ledger.balance(GUILD, user) == GRANT
        assert (await ledger.audit()).ok
        await again.shutdown()


async def test_a_multi_table_tournament_of_bots_resumes_after_a_crash_and_pays_the_pool(
        tmp_path: Path) -> None:
    """Tables broken, players moved and busted before the crash: the saved seats, stacks and
    places come back, and it plays to its end."""
    clock = Clock()
    path = tmp_path / "ledger.sqlite3"
    ledger = await Ledger.open(path)
    manager, notifier = new_manager(ledger, clock)
    await manager.start(resume=True)
    tid = await manager.tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(
        seats=3, max_entrants=7, bot_fill="easy"))
    await manager.tournaments.start(tid, ALICE)
    await eventually(lambda: manager.tournaments.status(tid).players_left <= 4, timeout=30.0)
    await manager.abandon()
    await ledger.close()

    async with await Ledger.open(path) as ledger:
        [saved] = await ledger.saved_tournaments()
        assert saved.state is not None
        state = SavedTournamentState.from_json(saved.state)
        again, notifier = new_manager(ledger, clock)
        await again.gateway_down(0)  # as the bot starts: nothing deals before it connects
        await again.start(resume=True)
        status = again.tournaments.status(tid)
        assert {e.player: e.chips for e in status.entrants if e.place is None} == {
            seat.player: seat.stack for seat in state.seats}
        assert {e.player: e.table_channel_id for e in status.entrants if e.place is None} == {
            seat.player: seat.channel_id for seat in state.seats}
        assert {e.player: e.place for e in status.entrants if e.place is not None} == \
            state.standings().places
        assert set(status.table_channel_ids) == {seat.channel_id for seat in state.seats}
        await again.gateway_up(0)
        await eventually(lambda: bool(notifier.tournament_results), timeout=30.0)
        await again.tournaments.wait_until_done()
        [results] = notifier.tournament_results
        assert sum(place.prize for place in results.places) == results.pool == 700
        assert (await ledger.audit()).ok
        await again.shutdown()

"""Late registration: a running tournament takes new players until the end of the blind level
its settings name; each pays the buy-in into the pool (the prizes grow with the field), enters
the standings and sits down with the starting stack at the table with the fewest players."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from bot.ledger import TournamentNotOpen
from bot.tables.errors import InvalidTournamentSettings, LateRegistrationClosed
from bot.tables.notifier import TurnPrompt
from bot.tables.tournament_settings import MAX_LATE_REGISTRATION, TournamentSettings
from bot.tables.tournament_status import TournamentPhase
from engine.actions import Action, ActionKind
from engine.blinds import LevelUnit
from engine.payouts import prize_amounts
from tests.tables.fake_tournament_ledger import GRANT
from tests.tables.helpers import shove
from tests.tables.tournament_helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    LEDGERS,
    Harness,
    fast_settings,
    tournament_harness,
)

BASE = 1_000_000.0
ERIN = 15


class Clock:
    """A clock the test moves: levels by minutes stay at level 1 until it does."""

    def __init__(self) -> None:
        self.now = BASE

    def __call__(self) -> float:
        return self.now


def fold_until(shoving: list[bool]):  # type: ignore[no-untyped-def]
    """Check or fold (nobody busts) until ``shoving[0]``, then shove."""
    def policy(prompt: TurnPrompt) -> Action:
        if shoving[0]:
            return shove(prompt)
        return Action(ActionKind.CHECK if prompt.legal.can_check else ActionKind.FOLD)
    return policy


def late_settings(**changes: object) -> TournamentSettings:
    return fast_settings(unit=LevelUnit.MINUTES, late_registration=1, **changes)


def players(h: Harness, *users: int) -> list[bool]:
    shoving = [False]
    for user in users:
        h.notifier.auto_actions[user] = fold_until(shoving)
        h.notifier.auto_run_it_twice[user] = False
    return shoving


@pytest.mark.parametrize("kind", LEDGERS)
async def test_a_player_joins_during_level_1_plays_and_the_prizes_grow_with_the_field(
        tmp_path: Path, kind: str) -> None:
    async with tournament_harness(tmp_path, kind, clock=Clock()) as h:
        tournaments = h.manager.tournaments
        shoving = players(h, ALICE, BOB, CAROL)
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, late_settings(seats=4))
        await tournaments.join(tid, ALICE, "Alice")
        await tournaments.join(tid, BOB, "Bob")
        await tournaments.start(tid, ALICE)
        assert await tournaments.join(tid, CAROL, "Carol") == 3
        status = tournaments.status(tid)
        carol = next(e for e in status.entrants if e.user_id == CAROL)
        assert (carol.chips, carol.table_channel_id, carol.place) == (800, CHANNEL, None)
        assert (status.pool, status.players_left) == (300, 3)
        assert await h.balance(CAROL) == GRANT - 100
        assert await h.audit_ok()
        shoving[0] = True
        results = await h.finished(tid)
        assert results.pool == 300
        assert sorted(p.place[0] for p in results.places if p.place[0] == p.place[1]) == \
            sorted({p.place[0] for p in results.places if p.place[0] == p.place[1]})
        assert {p.user_id for p in results.places} == {ALICE, BOB, CAROL}
        assert max(p.place[1] for p in results.places) == 3
        assert sum(p.prize for p in results.places) == 300
        for place in results.places:
            assert place.user_id is not None
            assert await h.balance(place.user_id) == GRANT - 100 + place.prize
        assert await h.audit_ok()


async def test_a_late_entrant_sits_at_the_table_with_the_fewest_players(
        tmp_path: Path) -> None:
    async with tournament_harness(tmp_path, clock=Clock()) as h:
        tournaments = h.manager.tournaments
        shoving = players(h, ALICE, BOB, CAROL, DAVE, 16, ERIN)
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, late_settings(
            seats=3, max_entrants=9))
        for user in (ALICE, BOB, CAROL, DAVE, 16):
            await tournaments.join(tid, user, f"P{user}")
        await tournaments.start(tid, ALICE)
        before = tournaments.status(tid)
        sizes = {channel: sum(1 for e in before.entrants if e.table_channel_id == channel)
                 for channel in before.table_channel_ids}
        assert sorted(sizes.values()) == [2, 3]
        smallest = min(sizes, key=lambda channel: sizes[channel])
        await tournaments.join(tid, ERIN, "Erin")
        erin = next(e for e in tournaments.status(tid).entrants if e.user_id == ERIN)
        assert (erin.table_channel_id, erin.chips) == (smallest, 800)
        shoving[0] = True
        results = await h.finished(tid)
        assert results.pool == 600
        ties = [p for p in results.places if p.place[0] != p.place[1]]
        assert len(results.places) == 6 and max(p.place[1] for p in results.places) == 6
        if not ties:
            assert sorted(p.place[0] for p in results.places) == [1, 2, 3, 4, 5, 6]
        assert sum(p.prize for p in results.places) == 600
        if not ties:
            assert [p.prize for p in results.places[:2]] == list(prize_amounts(600, (65, 35)))
        assert await h.audit_ok()


@pytest.mark.parametrize("kind", LEDGERS)
async def test_late_registration_is_refused_after_its_level_and_changes_nothing(
        tmp_path: Path, kind: str) -> None:
    clock = Clock()
    async with tournament_harness(tmp_path, kind, clock=clock) as h:
        tournaments = h.manager.tournaments
        players(h, ALICE, BOB)
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, late_settings(seats=4))
        await tournaments.join(tid, ALICE, "Alice")
        await tournaments.join(tid, BOB, "Bob")
        await tournaments.start(tid, ALICE)
        next_level = tournaments.status(tid).next_level_at
        assert next_level is not None
        clock.now = next_level + 1  # level 2 now: late registration closed with level 1
        if h.real:
            await h.ledger.ensure_player(GUILD, CAROL, "Carol")
        balance = await h.balance(CAROL)
        with pytest.raises(LateRegistrationClosed) as refused:
            await tournaments.join(tid, CAROL, "Carol")
        assert "closed at the end of level 1" in str(refused.value)
        status = tournaments.status(tid)
        assert status.phase is TournamentPhase.RUNNING
        assert (status.pool, len(status.entrants)) == (200, 2)
        assert await h.balance(CAROL) == balance
        assert await h.audit_ok()

        plain = await tournaments.create(GUILD, CHANNEL + 1, ALICE, fast_settings(seats=4))
        await tournaments.join(plain, ALICE, "Alice")
        await tournaments.join(plain, BOB, "Bob")
        await tournaments.start(plain, ALICE)
        with pytest.raises(TournamentNotOpen):
            await tournaments.join(plain, CAROL, "Carol")
        for running in (tid, plain):
            # Two players at zero delay may have finished already: then nothing is left to
            # refund, and the audit below holds either way.
            with contextlib.suppress(TournamentNotOpen):
                await tournaments.cancel(running)
        assert await h.audit_ok()


@pytest.mark.parametrize("levels", [-1, MAX_LATE_REGISTRATION + 1, True, "1", 1.5])
def test_late_registration_is_a_number_of_levels_from_0_to_10(levels: object) -> None:
    with pytest.raises(InvalidTournamentSettings):
        fast_settings(late_registration=levels)
    assert fast_settings(late_registration=MAX_LATE_REGISTRATION).late_registration == 10
    assert TournamentSettings.from_mapping(
        {"buy_in": 1, "late_registration": False}).late_registration == 0

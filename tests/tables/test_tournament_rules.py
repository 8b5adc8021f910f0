"""Tournament runtime rules, each test named after its rule (sit-and-gos at zero delay)."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from pathlib import Path

import pytest

from bot.errors import HoldemError
from bot.ledger import AlreadyRegistered, NotRegistered, TournamentNotOpen
from bot.tables.errors import (
    InvalidTournamentSettings,
    MovedToAnotherTable,
    NoLeavingTournament,
    NoTableHere,
    NotEnoughEntrants,
    NotTournamentCreator,
    TournamentFull,
    TournamentTableRefusal,
    UnknownBotLevel,
)
from bot.tables.notifier import TableState, TurnPrompt
from bot.tables.tournament_settings import TournamentSettings
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
    GUILD,
    LEDGERS,
    Harness,
    fast_settings,
    tournament_harness,
)


def check_or_fold(prompt: TurnPrompt) -> Action:
    return Action(ActionKind.CHECK if prompt.legal.can_check else ActionKind.FOLD)


@pytest.mark.parametrize("kind", LEDGERS)
async def test_sit_and_go_of_bots_plays_to_the_end_and_pays_exactly(
        tmp_path: Path, kind: str) -> None:
    async with tournament_harness(tmp_path, kind) as h:
        tournaments = h.manager.tournaments
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(bot_fill="easy"))
        await tournaments.start(tid, ALICE)
        results = await h.finished(tid)
        assert sorted(place.place[0] for place in results.places) == [1, 2, 3, 4, 5, 6]
        assert results.pool == 600
        assert [place.prize for place in results.places[:2]] == [390, 210]
        assert sum(place.prize for place in results.places) == results.pool
        assert results.winner.chips == 6 * 800
        assert tournaments.status(tid).phase is TournamentPhase.FINISHED
        assert h.manager.state(CHANNEL) is None  # the table closed
        assert CHANNEL in h.notifier.closed
        assert await h.audit_ok()


@pytest.mark.parametrize("kind", LEDGERS)
async def test_people_pay_buy_ins_and_the_prizes_reach_their_balances(
        tmp_path: Path, kind: str) -> None:
    async with tournament_harness(tmp_path, kind) as h:
        tournaments = h.manager.tournaments
        for user in (ALICE, BOB, CAROL):
            h.notifier.auto_actions[user] = shove
            h.notifier.auto_run_it_twice[user] = False
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(seats=3))
        await tournaments.join(tid, ALICE, "Alice")
        granted = await h.balance(ALICE) + 100
        await tournaments.join(tid, BOB, "Bob")
        assert await h.balance(BOB) == granted - 100
        await tournaments.join(tid, CAROL, "Carol")  # full: it starts
        results = await h.finished(tid)
        assert results.pool == 300
        for place in results.places:
            assert place.user_id is not None
            assert await h.balance(place.user_id) == granted - 100 + place.prize
        assert sum(place.prize for place in results.places) == 300
        assert await h.audit_ok()


async def test_busts_on_the_same_hand_are_placed_by_starting_chips(tmp_path: Path) -> None:
    """Everyone shoves: several players bust on one hand; the one who started it with more
    chips places higher, equal chips share (and split) the places."""
    checked_order = checked_tie = False
    for seed in range(40):
        if checked_order and checked_tie:
            break
        async with tournament_harness(tmp_path / str(seed), seed=seed) as h:
            (tmp_path / str(seed)).mkdir(exist_ok=True)
            tournaments = h.manager.tournaments
            users = (ALICE, BOB, CAROL, 15)

            def first_fold_then_shove(prompt: TurnPrompt, h: Harness = h) -> Action:
                state = h.manager.state(CHANNEL)
                first = state is not None and state.hand_number <= 1
                return check_or_fold(prompt) if first else shove(prompt)

            for user in users:
                h.notifier.auto_actions[user] = first_fold_then_shove
                h.notifier.auto_run_it_twice[user] = False
            tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(
                seats=4, payouts=(70, 30)))
            for number, user in enumerate(users):
                await tournaments.join(tid, user, f"P{number}")
            results = await h.finished(tid)
            place_of = {place.user_id: place.place for place in results.places}
            prize_of = {place.user_id: place.prize for place in results.places}
            for outcome in h.notifier.outcomes:
                out = [(r.user_id, r.final_stack - r.net) for r in outcome.results
                       if r.final_stack == 0]
                for (one, start_one) in out:
                    for (other, start_other) in out:
                        if start_one > start_other:
                            assert place_of[one][0] < place_of[other][0]
                            checked_order = True
                        elif start_one == start_other and one != other:
                            assert place_of[one] == place_of[other]
                            assert abs(prize_of[one] - prize_of[other]) <= 1
                            checked_tie = True
            assert sum(prize_of.values()) == 400
    assert checked_order and checked_tie


async def test_level_changes_between_hands_never_mid_hand(tmp_path: Path) -> None:
    async with tournament_harness(tmp_path) as h:
        tournaments = h.manager.tournaments
        settings = fast_settings(bot_fill="easy", starting_stack=2000)
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, settings)
        await tournaments.start(tid, ALICE)
        await h.finished(tid)
        schedule = settings.schedule()
        blinds_by_hand: dict[int, set[tuple[int, int, int]]] = defaultdict(set)
        for state in h.notifier.states:
            if state.is_hand_running:
                blinds_by_hand[state.hand_number].add(
                    (state.small_blind, state.big_blind, state.ante))
        assert len(blinds_by_hand) > 2 * schedule.length
        for number, blinds in blinds_by_hand.items():
            assert len(blinds) == 1, f"hand {number} changed blinds mid-hand: {blinds}"
            level = schedule.level((number - 1) // schedule.length)
            assert blinds == {(level.small_blind, level.big_blind, level.ante)}
        levels = [s.level for s in h.notifier.tournament_statuses if s.tournament_id == tid]
        assert levels == sorted(levels) and levels[-1] > 1


async def test_levels_by_minutes_follow_the_clock_between_hands(tmp_path: Path) -> None:
    """The clock passes the level's 3 minutes during hand 3: hand 4 is the first one dealt at
    level 2, and no hand changes blinds while it is played."""
    base = 1_000_000.0
    states: list[TableState] = []

    def clock() -> float:
        played = max((state.hand_number for state in states), default=0)
        return base + (3 * 60 + 1 if played >= 3 else 0)

    async with tournament_harness(tmp_path, clock=clock) as h:
        states = h.notifier.states
        tournaments = h.manager.tournaments
        settings = fast_settings(bot_fill="easy", unit=LevelUnit.MINUTES, starting_stack=4000)
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, settings)
        await tournaments.start(tid, ALICE)
        assert tournaments.status(tid).next_level_at == base + 3 * 60
        await h.finished(tid)
        schedule = settings.schedule()
        blinds_by_hand: dict[int, set[int]] = defaultdict(set)
        for state in states:
            if state.is_hand_running:
                blinds_by_hand[state.hand_number].add(state.big_blind)
        assert len(blinds_by_hand) > 4
        for number, blinds in blinds_by_hand.items():
            level = 0 if number <= 3 else 1
            assert blinds == {schedule.level(level).big_blind}, number


async def test_payouts_with_odd_chips_go_to_the_best_places(tmp_path: Path) -> None:
    async with tournament_harness(tmp_path) as h:
        tournaments = h.manager.tournaments
        settings = fast_settings(buy_in=33, seats=7, bot_fill="easy", payouts=(50, 30, 20))
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, settings)
        h.notifier.auto_actions[ALICE] = check_or_fold
        await tournaments.join(tid, ALICE, "Alice")
        await tournaments.start(tid, ALICE)
        results = await h.finished(tid)
        assert results.pool == 231
        assert prize_amounts(231, (50, 30, 20)) == (116, 69, 46)
        assert [place.prize for place in results.places[:3]] == [116, 69, 46]
        assert sum(place.prize for place in results.places) == 231
        alice = next(place for place in results.places if place.user_id == ALICE)
        assert await h.balance(ALICE) == GRANT - 33 + alice.prize
        assert await h.audit_ok()


async def test_sitting_out_player_posts_blinds_and_is_folded(tmp_path: Path) -> None:
    async with tournament_harness(tmp_path) as h:
        tournaments = h.manager.tournaments
        settings = fast_settings(seats=3, bot_fill="easy", starting_stack=4000)
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, settings)
        await tournaments.join(tid, ALICE, "Alice")
        await tournaments.start(tid, ALICE)
        await h.manager.sit_out(CHANNEL, ALICE)
        prompts_before = len(h.notifier.prompts)
        hands_before = len(h.notifier.outcomes)
        await h.manager.run_hands(CHANNEL, 6)
        # Those six hands only: the table deals on by itself meanwhile, and on a busy machine
        # enough more hands can pass before the checks to blind her out (then she is in none).
        later = h.notifier.outcomes[hands_before + 1:hands_before + 6]
        assert len(later) >= 4
        # Dealt into every hand; never put in more than a blind and an ante (she checks or
        # folds at once), and she did post blinds.
        schedule = settings.schedule()
        nets = []
        for outcome in later:
            net = next(r.net for r in outcome.results if r.user_id == ALICE)
            level = schedule.level((outcome.hand_id - 1) // schedule.length)
            assert net >= -(level.big_blind + level.ante)
            nets.append(net)
        assert any(net < 0 for net in nets)
        assert len(h.notifier.prompts) <= prompts_before + 1  # no turn waited for her
        seen = [state.seat_of(ALICE) for state in h.notifier.states[-20:]]
        assert any(seat is not None and seat.sitting_out for seat in seen)
        results = await h.finished(tid)  # blinded away, she still gets her place
        alice = next(place for place in results.places if place.user_id == ALICE)
        assert await h.balance(ALICE) == GRANT - 100 + alice.prize
        assert await h.audit_ok()


async def test_no_leaving_with_chips_after_start(tmp_path: Path) -> None:
    async with tournament_harness(tmp_path) as h:
        tournaments = h.manager.tournaments
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(
            seats=3, starting_stack=4000))
        await tournaments.join(tid, ALICE, "Alice")
        await tournaments.join(tid, BOB, "Bob")
        await tournaments.leave(tid, BOB)  # before the start: refunded
        assert await h.balance(BOB) == GRANT
        with pytest.raises(NotRegistered):
            await tournaments.leave(tid, BOB)
        await tournaments.join(tid, BOB, "Bob")
        h.notifier.auto_actions[ALICE] = check_or_fold
        h.notifier.auto_actions[BOB] = check_or_fold
        await tournaments.start(tid, ALICE)
        with pytest.raises(NoLeavingTournament):
            await tournaments.leave(tid, ALICE)
        with pytest.raises(NoLeavingTournament):
            await h.manager.leave(CHANNEL, BOB)
        with pytest.raises(TournamentTableRefusal):
            await h.manager.top_up(CHANNEL, ALICE, 100)
        with pytest.raises(TournamentTableRefusal):
            await h.manager.join(GUILD, CHANNEL, CAROL, "Carol")
        with pytest.raises(TournamentTableRefusal):
            await h.manager.add_bots(GUILD, CHANNEL, "easy", 1)
        with pytest.raises(TournamentNotOpen):
            await tournaments.join(tid, CAROL, "Carol")
        assert tournaments.status(tid).players_left == 2
        await tournaments.cancel(tid)
        assert await h.balance(ALICE) == GRANT and await h.balance(BOB) == GRANT


async def test_bad_requests_are_refused_and_change_nothing(tmp_path: Path) -> None:
    async with tournament_harness(tmp_path) as h:
        tournaments = h.manager.tournaments
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(seats=2))
        with pytest.raises(NotEnoughEntrants):
            await tournaments.start(tid, ALICE)
        await tournaments.join(tid, ALICE, "Alice")
        with pytest.raises(AlreadyRegistered):
            await tournaments.join(tid, ALICE, "Alice")
        with pytest.raises(NotEnoughEntrants):  # one player
            await tournaments.start(tid, ALICE)
        with pytest.raises(NotTournamentCreator):
            await tournaments.start(tid, BOB)
        assert tournaments.status(tid).phase is TournamentPhase.REGISTERING
        big = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(
            seats=2, buy_in=GRANT + 1))
        from bot.ledger import InsufficientChips
        with pytest.raises(InsufficientChips):
            await tournaments.join(big, BOB, "Bob")
        assert await h.balance(BOB) == GRANT
        h.notifier.auto_actions[ALICE] = check_or_fold
        h.notifier.auto_actions[BOB] = check_or_fold
        await tournaments.join(tid, BOB, "Bob")  # full: starts
        assert tournaments.status(tid).phase is TournamentPhase.RUNNING
        with pytest.raises(TournamentNotOpen):
            await tournaments.join(tid, CAROL, "Carol")
        small = await tournaments.create(GUILD, 200, ALICE, fast_settings(seats=2))
        await tournaments.join(small, ALICE, "Alice")
        await tournaments.cancel(small)
        with pytest.raises(TournamentNotOpen):
            await tournaments.join(small, CAROL, "Carol")
        with pytest.raises(TournamentNotOpen):
            await tournaments.cancel(small)
        await tournaments.cancel(tid)
        assert await h.balance(ALICE) == GRANT
        assert await h.audit_ok()


async def test_joining_a_full_tournament_is_refused(tmp_path: Path) -> None:
    async with tournament_harness(tmp_path) as h:
        tournaments = h.manager.tournaments
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(
            seats=2, max_entrants=3))
        for user in (ALICE, BOB):
            await tournaments.join(tid, user, str(user))
        # Not full yet (3 places): a third joins and it starts.
        await tournaments.join(tid, CAROL, "Carol")
        assert tournaments.status(tid).phase is TournamentPhase.RUNNING
        with pytest.raises((TournamentFull, TournamentNotOpen)):
            await tournaments.join(tid, 15, "Dee")
        await tournaments.cancel(tid)


@pytest.mark.parametrize("changes", [
    {"starting_stack": 0}, {"starting_stack": -5}, {"starting_stack": 30},
    {"buy_in": -1}, {"buy_in": 10**15}, {"seats": 1}, {"seats": 10},
    {"structure": "hyper"}, {"payouts": (60, 30)}, {"payouts": (30, 70)},
    {"payouts": (40, 30, 20, 10)}, {"antes_from_level": 99}, {"late_registration": True},
    {"max_entrants": 1}, {"max_entrants": 100_000}, {"unit": "days"},
])
def test_absurd_tournament_settings_are_refused(changes: dict[str, object]) -> None:
    values: dict[str, object] = {"buy_in": 100, "starting_stack": 1500, "seats": 3}
    values.update(changes)
    with pytest.raises(InvalidTournamentSettings) as refused:
        TournamentSettings(**values)  # type: ignore[arg-type]
    assert str(refused.value)


def test_unknown_bot_level_is_refused() -> None:
    with pytest.raises(UnknownBotLevel):
        TournamentSettings(buy_in=1, bot_fill="godlike")


async def test_paying_more_places_than_entrants_is_refused_at_start(tmp_path: Path) -> None:
    async with tournament_harness(tmp_path) as h:
        tournaments = h.manager.tournaments
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(
            seats=6, payouts=(50, 30, 20)))
        await tournaments.join(tid, ALICE, "Alice")
        await tournaments.join(tid, BOB, "Bob")
        with pytest.raises(InvalidTournamentSettings):
            await tournaments.start(tid, ALICE)
        assert tournaments.status(tid).phase is TournamentPhase.REGISTERING
        assert h.manager.state(CHANNEL) is None


async def test_moved_player_keeps_stack_and_cannot_act_at_old_table(tmp_path: Path) -> None:
    for seed in range(30):
        async with tournament_harness(tmp_path / str(seed), seed=seed) as h:
            (tmp_path / str(seed)).mkdir(exist_ok=True)
            tournaments = h.manager.tournaments
            h.notifier.auto_actions[ALICE] = check_or_fold
            tid = await tournaments.create(GUILD, CHANNEL, ALICE, fast_settings(
                seats=3, max_entrants=7, bot_fill="easy", starting_stack=1000))
            await tournaments.join(tid, ALICE, "Alice")
            await tournaments.start(tid, ALICE)
            assert len(tournaments.table_channels(tid)) == 3
            moved = None
            while moved is None and tournaments.status(tid).phase is TournamentPhase.RUNNING:
                moved = next((m for m in h.notifier.moves if m.user_id == ALICE), None)
                await asyncio.sleep(0.001)
            if moved is None:
                continue
            # Her stack went with her: she is seated at the new table with it (no hand has
            # been settled there with her yet, or her stack since then is what it holds).
            assert moved.to_channel_id in tournaments.table_channels(tid) or \
                tournaments.status(tid).phase is not TournamentPhase.RUNNING
            entry = tournaments.status(tid).entrant(ALICE)
            assert entry is not None
            arrived = [s for s in h.notifier.states if s.channel_id == moved.to_channel_id
                       and s.seat_of(ALICE) is not None]
            assert arrived and arrived[0].seat_of(ALICE).stack == moved.stack  # type: ignore[union-attr]
            with pytest.raises((MovedToAnotherTable, NoTableHere, HoldemError)) as refused:
                await h.manager.act(moved.from_channel_id, ALICE, Action(ActionKind.FOLD))
            assert isinstance(refused.value, (MovedToAnotherTable, NoTableHere))
            assert h.notifier.messages_to(ALICE)
            await h.finished(tid)
            assert await h.audit_ok()
            return
    pytest.fail("Alice was never moved")

"""Sitting out: after two timeouts in a row a person is sat out at once; a cash table deals
without them and frees their seat after ``sit_out_hands`` hands; a tournament table deals them
in, blinded and folded without waiting."""

from __future__ import annotations

from bot.tables.settings import TableSettings
from tests.tables.fake_tournament_ledger import GRANT
from tests.tables.helpers import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    assert_chips_match_ledger,
    eventually,
    passive,
    running_manager,
)
from tests.tables.tournament_helpers import fast_settings, tournament_harness


async def test_a_cash_seat_sitting_out_too_long_is_cashed_out_and_freed(tmp_path):
    settings = TableSettings.instant(sit_out_hands=3)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, ledger):
        notifier.auto_actions[BOB] = passive
        balance = await ledger.ensure_player(GUILD, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.sit_out(CHANNEL, ALICE)
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        await eventually(lambda: manager.state(CHANNEL).seat_of(ALICE) is None, timeout=20)
        assert len(notifier.outcomes) >= 3
        assert all(ALICE not in {r.user_id for r in o.results} for o in notifier.outcomes)
        told = notifier.messages_to(ALICE)
        assert len(told) == 1 and "sat out 3 hands" in told[0] and "2,000 chips" in told[0]
        assert await ledger.ensure_player(GUILD, ALICE, "Alice") == balance
        await manager.sit_out(CHANNEL, BOB)
        await eventually(lambda: not manager.state(CHANNEL).is_hand_running)
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_being_dealt_in_again_starts_the_count_of_hands_away_again(tmp_path):
    settings = TableSettings.instant(sit_out_hands=3)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, ledger):
        notifier.auto_actions.update({ALICE: passive, BOB: passive})
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await manager.add_bots(GUILD, CHANNEL, "calling")

        def dealt_in_since(hands: int) -> bool:
            return any(ALICE in {r.user_id for r in o.results}
                       for o in notifier.outcomes[hands:])

        for _ in range(3):
            await manager.sit_out(CHANNEL, ALICE)
            hands = len(notifier.outcomes)
            await eventually(lambda hands=hands: len(notifier.outcomes) >= hands + 2,
                             timeout=20)
            await manager.sit_in(CHANNEL, ALICE)
            hands = len(notifier.outcomes)
            await eventually(lambda hands=hands: dealt_in_since(hands), timeout=20)
        assert manager.state(CHANNEL).seat_of(ALICE) is not None
        await manager.sit_out(CHANNEL, BOB)
        await manager.sit_out(CHANNEL, ALICE)
        await eventually(lambda: not manager.state(CHANNEL).is_hand_running)
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_sit_out_after_two_timeouts_hands_go_on_without_them(tmp_path):
    settings = TableSettings.instant(turn_timeout=0.05, time_bank=0.05)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, ledger):
        notifier.auto_actions[BOB] = passive
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        await eventually(lambda: manager.state(CHANNEL).seat_of(ALICE).sitting_out)
        told = notifier.messages_to(ALICE)
        assert len(told) == 2 and "sitting out" in told[1]
        prompted = sum(user == ALICE for user, _ in notifier.prompts)
        assert prompted == 2  # each timeout once; the rest of her hand went without asking
        hands = len(notifier.outcomes)
        await eventually(lambda: len(notifier.outcomes) >= hands + 4, timeout=20)
        assert all(ALICE not in {r.user_id for r in o.results}
                   for o in notifier.outcomes[hands + 1:])
        assert sum(user == ALICE for user, _ in notifier.prompts) == prompted
        notifier.auto_actions[ALICE] = passive
        await manager.sit_in(CHANNEL, ALICE)
        hands = len(notifier.outcomes)
        await eventually(lambda: len(notifier.outcomes) >= hands + 2, timeout=20)
        assert ALICE in {result.user_id for result in notifier.outcomes[-1].results}
        assert len(notifier.messages_to(ALICE)) == 2  # told once
        await manager.sit_out(CHANNEL, ALICE)
        await manager.sit_out(CHANNEL, BOB)
        await eventually(lambda: not manager.state(CHANNEL).is_hand_running)
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_tournament_sit_out_blinded_off(tmp_path):
    settings = TableSettings.instant(turn_timeout=0.05, time_bank=0.05)
    async with tournament_harness(tmp_path, settings=settings) as h:
        tournaments = h.manager.tournaments
        rules = fast_settings(seats=3, bot_fill="easy", starting_stack=4000)
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, rules)
        await tournaments.join(tid, ALICE, "Alice")
        await tournaments.start(tid, ALICE)
        await eventually(lambda: h.manager.state(CHANNEL).seat_of(ALICE).sitting_out)
        prompted = sum(user == ALICE for user, _ in h.notifier.prompts)
        hands = len(h.notifier.outcomes)
        await eventually(lambda: len(h.notifier.outcomes) >= hands + 4
                         or bool(h.notifier.tournament_results), timeout=30)
        later = [outcome for outcome in h.notifier.outcomes[hands + 1:]
                 if any(r.user_id == ALICE for r in outcome.results)]
        assert later, "dealt in while sitting out"
        assert sum(user == ALICE for user, _ in h.notifier.prompts) == prompted  # no waiting
        assert any(r.net < 0 for o in later for r in o.results if r.user_id == ALICE)
        results = await h.finished(tid)
        alice = next(place for place in results.places if place.user_id == ALICE)
        assert await h.balance(ALICE) == GRANT - 100 + alice.prize
        assert await h.audit_ok()

"""Sitting in again is no way around the limits on being away: the hands sat out count until
the seat is dealt in again, and timeouts until the person acts."""

from __future__ import annotations

from bot.tables.settings import TableSettings
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

LIMIT = 3
"""``sit_out_hands`` in these tests."""
HANDS = 8
"""Hands a dodge is tried for before the test calls it a success: more than twice the limit."""


async def test_only_being_dealt_in_resets_the_hands_sat_out(tmp_path):
    settings = TableSettings.instant(sit_out_hands=LIMIT)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, ledger):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.sit_out(CHANNEL, ALICE)
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        while True:
            user, prompt = await notifier.next_prompt()  # Bob's turn holds the hand
            assert user == BOB
            if manager.state(CHANNEL).seat_of(ALICE) is None or len(notifier.outcomes) > HANDS:
                break
            await manager.sit_in(CHANNEL, ALICE)  # during a hand dealt without her
            await manager.sit_out(CHANNEL, ALICE)
            await manager.act(CHANNEL, BOB, passive(prompt))
        assert manager.state(CHANNEL).seat_of(ALICE) is None
        assert f"sat out {LIMIT} hands" in notifier.messages_to(ALICE)[-1]
        assert all(ALICE not in {r.user_id for r in o.results} for o in notifier.outcomes)
        notifier.auto_actions[BOB] = passive
        await manager.sit_out(CHANNEL, BOB)
        await manager.act(CHANNEL, BOB, passive(prompt))
        await eventually(lambda: not manager.state(CHANNEL).is_hand_running)
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_a_hand_dealt_while_you_sat_out_counts_though_you_sit_in_before_it_ends(tmp_path):
    # Hands are dealt only when the test starts them, so that Alice can sit out between two.
    settings = TableSettings.instant(sit_out_hands=LIMIT, next_hand_delay=600.0)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, ledger):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        for _ in range(HANDS):
            await manager.wait_until_idle(CHANNEL)
            await manager.sit_out(CHANNEL, ALICE)  # between two hands
            prompts, hands = len(notifier.prompts), len(notifier.outcomes)
            await manager.start_hand(CHANNEL)
            await eventually(lambda prompts=prompts: len(notifier.prompts) > prompts)
            user, prompt = notifier.prompts[prompts]  # Bob's turn holds the hand
            assert user == BOB
            if manager.state(CHANNEL).seat_of(ALICE) is None:
                break  # freed before this deal
            await manager.sit_in(CHANNEL, ALICE)  # during the hand dealt without her
            notifier.auto_actions[BOB] = passive
            await manager.act(CHANNEL, BOB, passive(prompt))
            await eventually(lambda hands=hands: len(notifier.outcomes) > hands)
            del notifier.auto_actions[BOB]
        assert manager.state(CHANNEL).seat_of(ALICE) is None
        assert len(notifier.outcomes) == LIMIT
        notifier.auto_actions[BOB] = passive
        await manager.act(CHANNEL, BOB, passive(prompt))
        await eventually(lambda: not manager.state(CHANNEL).is_hand_running)
        assert f"sat out {LIMIT} hands" in notifier.messages_to(ALICE)[-1]
        await manager.leave(CHANNEL, BOB)
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_timeouts_are_cleared_by_acting_not_by_sitting_in(tmp_path):
    settings = TableSettings.instant(turn_timeout=0.05)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, ledger):
        seat = lambda: manager.state(CHANNEL).seat_of(ALICE)  # noqa: E731
        told = lambda: notifier.messages_to(ALICE)  # noqa: E731
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        await eventually(lambda: len(told()) == 2)
        assert seat().sitting_out and "sitting out" in told()[1]

        await manager.sit_in(CHANNEL, ALICE)  # I'm back, but away again at her next turn
        await eventually(lambda: len(told()) == 3)
        assert seat().sitting_out and "sitting out" in told()[2]

        def act_once(prompt):
            del notifier.auto_actions[ALICE]
            return passive(prompt)

        notifier.auto_actions[ALICE] = act_once
        await manager.sit_in(CHANNEL, ALICE)  # back, and she plays a turn: a fresh start
        await eventually(lambda: len(told()) == 4)
        assert not seat().sitting_out and "time ran out, so you checked" in told()[3]

        await manager.sit_out(CHANNEL, ALICE)
        await eventually(lambda: not manager.state(CHANNEL).is_hand_running)
        await assert_chips_match_ledger(manager, ledger, CHANNEL)

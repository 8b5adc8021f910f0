"""Pre-actions: chosen ahead of one's turn, applied the moment it comes if they still hold,
cleared by a bet or raise (the person is told), never kept past the street."""

from __future__ import annotations

import pytest

from bot.errors import NotSeated
from bot.tables.errors import NoPreActionNow, PreActionOutdated
from bot.tables.pre_actions import PreAction, PreActionKind
from bot.tables.settings import TableSettings
from engine.actions import Action, ActionKind, Street
from tests.tables.helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    assert_chips_match_ledger,
    eventually,
    running_manager,
)

SETTINGS = TableSettings.instant(turn_timeout=60.0)  # nobody times out during a test


def offered(manager, user: int, kind: PreActionKind) -> PreAction:
    choices = manager.pre_action_choices(CHANNEL, user)
    assert choices is not None
    return next(choice for choice in choices.offered if choice.kind is kind)


def prompts_of(notifier, user: int) -> int:
    return sum(1 for prompted, _ in notifier.prompts if prompted == user)


async def test_pre_action_check_fold_applies_the_moment_the_turn_comes(tmp_path):
    one_hand = SETTINGS.with_changes(next_hand_delay=600.0)  # dealt only on start_hand
    async with running_manager(tmp_path, settings=one_hand) as (manager, notifier, ledger):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await manager.start_hand(CHANNEL)
        first, prompt = await notifier.next_prompt()
        other = BOB if first == ALICE else ALICE
        assert await manager.pre_act(CHANNEL, other,
                                     offered(manager, other, PreActionKind.CHECK_FOLD))
        await manager.act(CHANNEL, first, Action(ActionKind.RAISE, 60), prompt.turn)
        await eventually(lambda: len(notifier.outcomes) == 1)
        assert prompts_of(notifier, other) == 0  # folded without being asked
        results = {result.user_id: result.net for result in notifier.outcomes[0].results}
        assert results == {first: 20, other: -20}  # the big blind folded to the raise
        await manager.wait_until_idle(CHANNEL)
        await assert_chips_match_ledger(manager, ledger, CHANNEL)


async def test_pre_action_voided_by_a_raise(tmp_path):
    async with running_manager(tmp_path, settings=SETTINGS) as (manager, notifier, _):
        for user, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
            await manager.join(GUILD, CHANNEL, user, name)
        first, prompt = await notifier.next_prompt()  # three-handed: the button acts first
        small_blind = next(user for user in (ALICE, BOB, CAROL) if user != first and
                           manager.pre_action_choices(CHANNEL, user).to_call == 10)
        call = offered(manager, small_blind, PreActionKind.CALL)
        assert (call.amount, str(call.label)) == (10, "Call 10")
        await manager.pre_act(CHANNEL, small_blind, call)
        await manager.act(CHANNEL, first, Action(ActionKind.RAISE, 60), prompt.turn)
        user, second = await notifier.next_prompt()
        assert user == small_blind and second.legal.call_amount == 50  # asked, not called
        told = notifier.messages_to(small_blind)
        assert len(told) == 1 and "“Call 10” was cleared" in told[0]


async def test_call_any_calls_a_raise(tmp_path):
    async with running_manager(tmp_path, settings=SETTINGS) as (manager, notifier, _):
        for user, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
            await manager.join(GUILD, CHANNEL, user, name)
        first, prompt = await notifier.next_prompt()
        small_blind = next(user for user in (ALICE, BOB, CAROL) if user != first and
                           manager.pre_action_choices(CHANNEL, user).to_call == 10)
        await manager.pre_act(CHANNEL, small_blind,
                              offered(manager, small_blind, PreActionKind.CALL_ANY))
        await manager.act(CHANNEL, first, Action(ActionKind.RAISE, 60), prompt.turn)
        user, _ = await notifier.next_prompt()
        assert user != small_blind  # the big blind is asked next: the small blind called
        seat = manager.state(CHANNEL).seat_of(small_blind)
        assert seat.bet == 60 and notifier.messages_to(small_blind) == []


async def test_a_pre_action_never_outlives_the_street(tmp_path):
    async with running_manager(tmp_path, settings=SETTINGS) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        button, prompt = await notifier.next_prompt()  # heads-up: the button acts first
        await manager.act(CHANNEL, button, Action(ActionKind.CALL), prompt.turn)
        big_blind, prompt = await notifier.next_prompt()
        await manager.act(CHANNEL, big_blind, Action(ActionKind.CHECK), prompt.turn)
        user, prompt = await notifier.next_prompt()  # the flop: the big blind first
        assert user == big_blind
        await manager.act(CHANNEL, big_blind, Action(ActionKind.CHECK), prompt.turn)
        await notifier.next_prompt()
        choice = offered(manager, big_blind, PreActionKind.CHECK_FOLD)
        assert choice.street is Street.FLOP
        await manager.pre_act(CHANNEL, big_blind, choice)
        await manager.act(CHANNEL, button, Action(ActionKind.CHECK))
        user, prompt = await notifier.next_prompt()  # the turn: asked, not checked for
        assert user == big_blind and manager.state(CHANNEL).street is Street.TURN


async def test_pre_action_refusals_change_nothing(tmp_path):
    async with running_manager(tmp_path, settings=SETTINGS) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        first, prompt = await notifier.next_prompt()
        other = BOB if first == ALICE else ALICE
        hand = prompt.turn.hand
        assert manager.pre_action_choices(CHANNEL, first) is None
        with pytest.raises(NoPreActionNow, match="your turn now"):
            await manager.pre_act(CHANNEL, first,
                                  PreAction(PreActionKind.CHECK_FOLD, hand, Street.PREFLOP))
        with pytest.raises(PreActionOutdated):  # an amount no longer owed
            await manager.pre_act(CHANNEL, other,
                                  PreAction(PreActionKind.CALL, hand, Street.PREFLOP, 500))
        with pytest.raises(PreActionOutdated):  # another hand's button
            await manager.pre_act(CHANNEL, other,
                                  PreAction(PreActionKind.CHECK, hand - 1, Street.PREFLOP))
        with pytest.raises(NotSeated):
            await manager.pre_act(CHANNEL, CAROL,
                                  PreAction(PreActionKind.CHECK, hand, Street.PREFLOP))
        assert manager.pre_action_choices(CHANNEL, other).chosen is None
        check = offered(manager, other, PreActionKind.CHECK)
        assert await manager.pre_act(CHANNEL, other, check) == check
        assert manager.pre_action_choices(CHANNEL, other).chosen == check
        assert await manager.pre_act(CHANNEL, other, check) is None  # pressed again: cleared
        assert manager.pre_action_choices(CHANNEL, other).chosen is None

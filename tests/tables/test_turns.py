"""Every answer names the turn it was shown for: a double click, a stale button or a form
from an earlier hand applies at most once, and only to its own turn."""

import asyncio

import pytest

from bot.tables.errors import TableMovedOn
from bot.tables.settings import TableSettings
from engine.actions import Action, ActionKind
from tests.tables.helpers import ALICE, BOB, CHANNEL, GUILD, running_manager

SETTINGS = TableSettings.instant(turn_timeout=30.0)


async def test_two_clicks_for_one_turn_apply_exactly_one_action(tmp_path):
    async with running_manager(tmp_path, settings=SETTINGS) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        user, prompt = await notifier.next_prompt()
        kind = ActionKind.CHECK if prompt.legal.can_check else ActionKind.CALL
        clicks = await asyncio.gather(
            *(manager.act(CHANNEL, user, Action(kind), prompt.turn) for _ in range(2)),
            return_exceptions=True)
        assert sorted(type(outcome).__name__ for outcome in clicks) == [
            "NoneType", "TableMovedOn"]
        state = manager.state(CHANNEL)
        assert state is not None and state.last_action is not None


async def test_a_stale_check_never_becomes_a_call_on_a_later_turn(tmp_path):
    async with running_manager(tmp_path, settings=SETTINGS) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        first_user, first = await notifier.next_prompt()
        await manager.act(CHANNEL, first_user, Action(ActionKind.CALL), first.turn)
        second_user, second = await notifier.next_prompt()
        await manager.act(CHANNEL, second_user, Action(ActionKind.CHECK), second.turn)
        third_user, third = await notifier.next_prompt()
        await manager.act(CHANNEL, third_user, Action(ActionKind.BET, 40), third.turn)
        fourth_user, fourth = await notifier.next_prompt()
        with pytest.raises(TableMovedOn):  # the flop check button, clicked again late
            await manager.act(CHANNEL, fourth_user, Action(ActionKind.CALL), third.turn)
        await manager.act(CHANNEL, fourth_user, Action(ActionKind.FOLD), fourth.turn)


async def test_an_answer_from_an_earlier_hand_is_refused_in_the_next(tmp_path):
    async with running_manager(tmp_path, settings=SETTINGS) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        user, old = await notifier.next_prompt()
        await manager.act(CHANNEL, user, Action(ActionKind.FOLD), old.turn)
        user, new = await notifier.next_prompt()
        assert new.turn.hand != old.turn.hand
        with pytest.raises(TableMovedOn):
            await manager.act(CHANNEL, user, Action(ActionKind.RAISE, 100), old.turn)
        with pytest.raises(TableMovedOn):
            await manager.answer_run_it_twice(CHANNEL, user, True, hand=old.turn.hand)


async def test_the_last_action_says_raise_to_the_street_total(tmp_path):
    async with running_manager(tmp_path, settings=SETTINGS) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        user, prompt = await notifier.next_prompt()
        await manager.act(CHANNEL, user, Action(ActionKind.RAISE, 100), prompt.turn)
        state = manager.state(CHANNEL)
        name = "Alice" if user == ALICE else "Bob"
        assert state is not None and str(state.last_action) == f"{name}: raise to 100"

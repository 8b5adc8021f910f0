"""Gateway outages: while no click can reach a table, the clock of the person to act stands
still, bots wait and no hand is dealt; when the connection is back the person gets the time
they had left plus a grace, shown as a new deadline, and the turn is the same turn.

Waits that must not end in a timeout are measured against ``OUTAGE``, the outage each test
makes itself: it outlasts the turn timer and the time bank together.
"""

from __future__ import annotations

import asyncio
import time

from bot.tables.outages import GRACE_SECONDS
from bot.tables.settings import TableSettings
from engine.actions import Action, ActionKind
from tests.tables.helpers import ALICE, CHANNEL, GUILD, eventually, passive, running_manager

TIMER, BANK = 0.3, 0.2
OUTAGE = 3 * (TIMER + BANK)
"""Longer than the timer and bank together: without the freeze, Alice would be timed out."""
SHARD = 0  # GUILD's shard: the manager runs one shard


async def test_the_clock_stops_while_the_gateway_is_down_and_the_same_turn_gets_a_grace(
        tmp_path):
    settings = TableSettings.instant(turn_timeout=TIMER, time_bank=BANK)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        _, prompt = await notifier.next_prompt()
        await manager.gateway_down(SHARD)
        offline = manager.state(CHANNEL)
        assert offline.offline and offline.to_act_deadline is None
        assert notifier.states[-1].offline  # said on the table at once
        await asyncio.sleep(OUTAGE)
        assert notifier.messages_to(ALICE) == []  # not timed out
        assert manager.state(CHANNEL).to_act.user_id == ALICE
        assert manager.state(CHANNEL).time_bank_deadline is None  # the bank did not start

        back = time.time()
        await manager.gateway_up(SHARD)
        _, again = await notifier.next_prompt()
        assert again.turn == prompt.turn  # a button shown before the outage still acts
        assert back + GRACE_SECONDS <= again.deadline <= time.time() + GRACE_SECONDS + TIMER
        state = manager.state(CHANNEL)
        assert not state.offline and state.to_act_deadline == again.deadline
        assert notifier.states[-1].to_act_deadline == again.deadline  # shown anew

        await manager.act(CHANNEL, ALICE, passive(prompt), prompt.turn)
        assert notifier.messages_to(ALICE) == []
        assert not manager.state(CHANNEL).seat_of(ALICE).sitting_out


async def test_a_time_bank_stops_too_and_runs_on_after_the_grace(tmp_path):
    settings = TableSettings.instant(turn_timeout=TIMER, time_bank=BANK)
    async with running_manager(tmp_path, settings=settings) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        _, prompt = await notifier.next_prompt()
        await eventually(lambda: manager.state(CHANNEL).time_bank_deadline is not None)
        await manager.gateway_down(SHARD)
        assert manager.state(CHANNEL).time_bank_deadline is None
        await asyncio.sleep(OUTAGE)
        assert notifier.messages_to(ALICE) == []

        back = time.time()
        await manager.gateway_up(SHARD)
        await eventually(lambda: manager.state(CHANNEL).time_bank_deadline is not None)
        bank_until = manager.state(CHANNEL).time_bank_deadline
        assert back + GRACE_SECONDS <= bank_until <= time.time() + GRACE_SECONDS + BANK
        await manager.act(CHANNEL, ALICE, passive(prompt), prompt.turn)
        assert notifier.messages_to(ALICE) == []


async def test_bots_wait_while_the_gateway_is_down(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.add_bots(GUILD, CHANNEL, "calling", count=2)
        _, prompt = await notifier.next_prompt()
        await manager.gateway_down(SHARD)
        # A click that arrived just before the connection dropped still acts...
        await manager.act(CHANNEL, ALICE, Action(ActionKind.FOLD), prompt.turn)
        folded = manager.state(CHANNEL)
        assert folded.is_hand_running and folded.to_act.is_bot
        await asyncio.sleep(OUTAGE)
        # ... but the bots, instant as they are, do not play on while nobody can see them.
        assert manager.state(CHANNEL).last_action == folded.last_action
        assert manager.state(CHANNEL).is_hand_running

        await manager.gateway_up(SHARD)
        await eventually(lambda: manager.state(CHANNEL).last_action != folded.last_action)


async def test_no_hand_is_dealt_while_the_gateway_is_down(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.gateway_down(SHARD)
        await manager.add_bots(GUILD, CHANNEL, "calling")  # enough to deal at once
        await asyncio.sleep(OUTAGE)
        assert manager.state(CHANNEL).hands_dealt == 0
        assert manager.state(CHANNEL).offline

        await manager.gateway_up(SHARD)
        _, prompt = await notifier.next_prompt()
        assert manager.state(CHANNEL).hands_dealt == 1
        assert prompt.deadline > time.time()  # a fresh turn, not one frozen before


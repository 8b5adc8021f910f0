"""Sharing the event loop between tables: urgent steps, turn budgets, inline bot decisions,
opening tables without waiting on each other, and the collector's tuning."""

from __future__ import annotations

import asyncio
import gc
import random

import pytest

from bot.process import YOUNG_THRESHOLD, tune_garbage_collector
from bot.tables.bots import Bot
from bot.tables.manager import TableManager
from bot.tables.pacing import StepPacer, TurnBudget
from bot.tables.settings import TableSettings
from engine.actions import Action, ActionKind
from engine.hand import Hand
from tests.tables.helpers import GUILD
from tests.tables.recording_notifier import RecordingNotifier


async def queue_steps(pacer: StepPacer, urgent: list[bool]) -> list[int]:
    """Queue one step per entry (in order, all at once) and return the order they ran in."""
    order: list[int] = []

    async def one(number: int) -> None:
        await pacer.step(urgent=urgent[number])
        order.append(number)

    await asyncio.gather(*(one(number) for number in range(len(urgent))))
    return order


async def test_urgent_steps_run_before_those_queued_earlier():
    order = await queue_steps(StepPacer(), [False, False, True, True])
    assert order.index(2) < order.index(1) and order.index(3) < order.index(1)


async def test_urgent_steps_never_starve_the_others():
    order = await queue_steps(StepPacer(), [False] * 10 + [True] * 100)
    first_twenty = order[:20]
    assert sum(number < 10 for number in first_twenty) >= 6  # every other step, at least


async def test_a_turn_budget_lets_a_table_play_on_without_queueing_again():
    pacer = StepPacer()
    turns = TurnBudget(pacer, seconds=60.0)
    await turns.step()  # the turn begins: queued once
    other = asyncio.ensure_future(pacer.step())
    await asyncio.sleep(0)
    assert pacer.waiting == 1
    await turns.step()  # budget left: no queueing behind the other table
    assert pacer.waiting == 1 and not other.done()
    await other


async def test_a_spent_turn_budget_queues_behind_the_others():
    pacer = StepPacer()
    turns = TurnBudget(pacer, seconds=0.0)
    order: list[str] = []
    await turns.step()

    async def other_table() -> None:
        await pacer.step()
        order.append("other")

    other = asyncio.ensure_future(other_table())
    await asyncio.sleep(0)
    await turns.step()
    order.append("table")
    await other
    assert order == ["other", "table"]


def test_a_negative_turn_budget_is_refused():
    with pytest.raises(ValueError, match="cannot be negative"):
        TurnBudget(StepPacer(), seconds=-1.0)


async def test_bot_decisions_run_inline_without_an_executor():
    bot = Bot("hard", random.Random(1))
    hand = Hand([2000, 2000], 0, 10, 20, 0)
    hand.act(0, Action(ActionKind.CALL))
    hand.act(1, Action(ActionKind.CHECK))
    view = hand.view(hand.to_act)
    assert bot.simulates(view)
    loop_ran = False

    def mark() -> None:
        nonlocal loop_ran
        loop_ran = True

    asyncio.get_running_loop().call_soon(mark)
    action = await bot.decide(view)
    assert not loop_ran  # decided without giving the loop a turn
    assert view.legal is not None and view.legal.allows(action)


class SlowSettingsLedger:
    """Guild settings that take a while for one guild, as under heavy ledger traffic."""

    def __init__(self, slow_guild: int) -> None:
        self.slow_guild = slow_guild
        self.release = asyncio.Event()

    async def guild_settings(self, guild_id: int) -> dict[str, object]:
        if guild_id == self.slow_guild:
            await self.release.wait()
        return {}

    async def buy_in(self, guild_id: int, channel_id: int, player: object, amount: int) -> int:
        return amount

    async def cash_out(self, guild_id: int, channel_id: int, player: object) -> int:
        return 0


async def test_opening_a_table_does_not_wait_for_another_servers_settings():
    ledger = SlowSettingsLedger(slow_guild=GUILD)
    manager = TableManager(ledger, RecordingNotifier(), rng=random.Random(2),
                           default_settings=TableSettings.instant())
    slow = asyncio.ensure_future(manager.add_bots(GUILD, 1, "calling"))
    await asyncio.sleep(0)
    async with asyncio.timeout(1.0):
        await manager.add_bots(GUILD + 1, 2, "calling")
    assert manager.channel_ids() == (2,)
    ledger.release.set()
    await slow
    assert set(manager.channel_ids()) == {1, 2}
    await manager.shutdown()


def test_collector_tuning_freezes_start_up_objects_and_raises_the_threshold():
    before = gc.get_threshold()
    try:
        tune_garbage_collector()
        assert gc.get_threshold()[0] == YOUNG_THRESHOLD
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)

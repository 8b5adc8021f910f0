"""Which tables give a person a hint (``TableManager.coaching_view``): a cash table by
default, a tournament table only when the server turned hints on; nobody out of the hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.tables.notifier import TurnPrompt
from bot.tables.settings import TableSettings
from engine.actions import Action, ActionKind
from engine.view import PlayerView
from tests.tables.helpers import ALICE, CHANNEL, GUILD, eventually, running_manager
from tests.tables.tournament_helpers import fast_settings, tournament_harness


async def test_a_cash_table_gives_a_hint_at_your_turn_and_none_out_of_the_hand(tmp_path: Path):
    async with running_manager(tmp_path) as (manager, notifier, _):
        seen: list[PlayerView | None] = []

        def look_then_fold(prompt: TurnPrompt) -> Action:
            seen.append(manager.coaching_view(CHANNEL, ALICE))
            return Action(ActionKind.FOLD if prompt.legal.can_fold else ActionKind.CHECK)

        notifier.auto_actions[ALICE] = look_then_fold
        await manager.add_bots(GUILD, CHANNEL, "calling")
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await eventually(lambda: len(seen) >= 1)
        view = seen[0]
        assert view is not None and view.hole_cards == manager.hole_cards(CHANNEL, ALICE)
        await eventually(lambda: manager.coaching_view(CHANNEL, ALICE) is None)


@pytest.mark.parametrize(("hints", "shown"), [(None, False), (True, True)])
async def test_a_tournament_table_gives_one_only_when_the_server_says(
        tmp_path: Path, hints: bool | None, shown: bool):
    settings = TableSettings.instant(hints=hints)
    async with tournament_harness(tmp_path, settings=settings) as h:
        seen: list[PlayerView | None] = []

        def look_then_fold(prompt: TurnPrompt) -> Action:
            seen.append(h.manager.coaching_view(CHANNEL, ALICE))
            return Action(ActionKind.FOLD if prompt.legal.can_fold else ActionKind.CHECK)

        h.notifier.auto_actions[ALICE] = look_then_fold
        tournaments = h.manager.tournaments
        tid = await tournaments.create(GUILD, CHANNEL, ALICE,
                                       fast_settings(seats=2, bot_fill="easy"))
        await tournaments.join(tid, ALICE, "Alice")
        await tournaments.start(tid, ALICE)
        await eventually(lambda: len(seen) >= 1, timeout=10)
        assert (seen[0] is not None) is shown

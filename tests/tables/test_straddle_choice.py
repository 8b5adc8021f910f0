"""A person chooses the voluntary straddle (``/straddle``): they post it whenever the straddle's
seat is theirs, and nobody else does; a table with no straddle, or a mandatory one, has nothing
to choose and says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.tables.errors import NoStraddleHere
from bot.tables.settings import TableSettings
from tests.tables.helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    eventually,
    passive,
    running_manager,
)

DAVE = 14


async def test_a_person_who_chose_to_straddle_posts_it_in_the_straddle_seat(tmp_path: Path):
    async with running_manager(tmp_path, settings=TableSettings.instant(straddle="utg")) as (
            manager, notifier, _):
        people = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}
        notifier.auto_actions.update(dict.fromkeys(people, passive))
        for user, name in people.items():
            await manager.join(GUILD, CHANNEL, user, name)
        await manager.choose_straddle(CHANNEL, ALICE, True)
        await eventually(lambda: len(notifier.outcomes) >= 8, timeout=20)
        for user in people:
            await manager.sit_out(CHANNEL, user)
        straddles = [line for outcome in notifier.outcomes
                     for line in outcome.history_text.splitlines() if "posts straddle" in line]
        assert straddles and all(line.startswith("Alice: posts straddle 40")
                                 for line in straddles), straddles


@pytest.mark.parametrize(("settings", "said"), [
    (TableSettings.instant(), "has no straddle"),
    (TableSettings.instant(straddle="button", straddle_mandatory=True), "every hand"),
])
async def test_a_table_without_a_voluntary_straddle_has_nothing_to_choose(
        tmp_path: Path, settings: TableSettings, said: str):
    async with running_manager(tmp_path, settings=settings) as (manager, _, _):
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        with pytest.raises(NoStraddleHere, match=said):
            await manager.choose_straddle(CHANNEL, ALICE, True)

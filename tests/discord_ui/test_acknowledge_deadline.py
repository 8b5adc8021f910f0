"""The 3 seconds Discord gives an interaction count from when Discord created it, not from
when a busy bot got round to it: the silent acknowledgment comes that much sooner."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import discord
import pytest

from bot.discord_ui.replies import DEFER_AFTER_SECONDS, seconds_to_acknowledge
from tests.fake_discord.world import World


def created(seconds_ago: float) -> discord.Interaction[discord.Client]:
    return SimpleNamespace(  # type: ignore[return-value]
        created_at=discord.utils.utcnow() - timedelta(seconds=seconds_ago))


@pytest.mark.parametrize(("age", "left"), [(0.0, DEFER_AFTER_SECONDS), (1.5, 0.5), (2.5, 0.0)])
def test_an_interaction_that_waited_is_acknowledged_that_much_sooner(age: float,
                                                                     left: float) -> None:
    assert seconds_to_acknowledge(created(age)) == pytest.approx(left, abs=0.05)


@pytest.mark.parametrize("age", [-30.0, 3.5, 3_600.0])
def test_an_age_discord_would_not_allow_is_a_clock_apart_and_counts_as_none(age: float) -> None:
    assert seconds_to_acknowledge(created(age)) == pytest.approx(DEFER_AFTER_SECONDS, abs=0.05)


def test_the_fake_discords_interaction_ids_tell_their_age_as_discords_do() -> None:
    world = World("bot")
    for age in (0.0, 1.5):
        ids = {world.new_interaction_id(age=age) for _ in range(1_000)}
        assert len(ids) == 1_000
        made = discord.utils.snowflake_time(ids.pop())
        assert (discord.utils.utcnow() - made).total_seconds() == pytest.approx(age, abs=0.2)

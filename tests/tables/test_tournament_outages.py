"""A tournament's level clock (levels by minutes) does not count the time its server's gateway
was down: no click could reach the tables then, which waited, so the level waits too."""

from __future__ import annotations

from pathlib import Path

from bot.tables.outages import Outages
from engine.blinds import LevelUnit
from tests.tables.tournament_helpers import (
    ALICE,
    CHANNEL,
    GUILD,
    fast_settings,
    tournament_harness,
)


async def test_a_gateway_outage_does_not_count_against_the_level_clock(tmp_path: Path) -> None:
    base = 1_000_000.0
    now = [base]
    async with tournament_harness(tmp_path, clock=lambda: now[0]) as h:
        h.manager.outages = Outages(1, clock=lambda: now[0])  # the same clock as the levels
        tournaments = h.manager.tournaments
        settings = fast_settings(bot_fill="easy", unit=LevelUnit.MINUTES, starting_stack=4000)
        tid = await tournaments.create(GUILD, CHANNEL, ALICE, settings)
        await tournaments.start(tid, ALICE)
        assert tournaments.status(tid).next_level_at == base + 3 * 60
        await h.manager.gateway_down(0)
        now[0] += 100.0  # down for 100 s
        await h.manager.gateway_up(0)
        now[0] += 10.0  # then 10 s of play
        assert tournaments.status(tid).next_level_at == now[0] - 10.0 + 3 * 60
        assert tournaments.status(tid).level == 1

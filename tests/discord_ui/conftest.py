"""The ``club`` fixture: a fake Discord server with a poker channel, two players and an
admin, for the tests of the Discord front end."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from tests.discord_ui.club import Club
from tests.fake_discord import FakeDiscord


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[Club]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Poker Club", channels=["poker", "lounge"])
        yield Club(
            fake, guild.id, guild.channel("poker"), guild.channel("lounge"),
            alice=fake.add_user("alice"), bob=fake.add_user("bob"),
            admin=fake.add_user("admin", permissions=discord.Permissions(manage_guild=True)),
            database=tmp_path / "holdem.sqlite3",
        )


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How many inputs the fuzz test tried, per command, button and form."""
    from tests.discord_ui.test_fuzz import TRIED

    if TRIED:
        terminalreporter.write_line(
            f"discord fuzz: {sum(TRIED.values())} inputs: "
            + ", ".join(f"{name} {count}" for name, count in sorted(TRIED.items())))

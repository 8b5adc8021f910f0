"""The permissions README tells people to invite the bot with are every permission the bot
checks for: a server set up from README opens tables and multi-table tournaments at the first
try, and the no-token message and the code carry the same integer."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest

from bot.__main__ import main
from bot.discord_ui.permissions import INVITE_PERMISSIONS, TABLE_PERMISSIONS, THREAD_PERMISSIONS
from tests.discord_ui.club import Club
from tests.discord_ui.test_tournament_play import start_tournament_bot

README = (Path(__file__).parents[2] / "README.md").read_text()


def readme_permissions() -> discord.Permissions:
    """The integer README gives, as the permissions integer and in the invite link."""
    found = re.findall(r"permissions(?: integer\s+|=)(\d+)", README)
    assert len(found) == 2 and len(set(found)) == 1, found
    return discord.Permissions(int(found[0]))


def names_every_permission(text: str) -> bool:
    """``text`` names each permission the bot checks for, as Discord's menus do."""
    words = " ".join(text.lower().split())
    return all(name.replace("_", " ") in words
               for name in (*TABLE_PERMISSIONS, *THREAD_PERMISSIONS))


def test_readme_and_the_no_token_message_carry_the_code_s_permissions(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert readme_permissions() == INVITE_PERMISSIONS
    assert names_every_permission(README)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("DEV_GUILD_ID", raising=False)
    assert main([]) == 2
    help_text = capsys.readouterr().err
    assert f"permissions integer {INVITE_PERMISSIONS.value}" in help_text
    assert f"permissions={INVITE_PERMISSIONS.value}" in help_text
    assert names_every_permission(help_text)


async def test_a_bot_invited_as_readme_says_runs_tables_and_multi_table_tournaments(club: Club):
    bot = await start_tournament_bot(club)
    club.fake.deny_bot(club.channel, ~readme_permissions())
    joined = await club.fake.slash(club.alice, club.channel, "join")
    assert bot.tables.state(club.channel) is not None, joined.all_text()
    await club.fake.slash(club.alice, club.channel, "leave")
    created = await club.fake.slash(
        club.admin, club.channel, "tournament create", buy_in=10, seats=2, max_entrants=4)
    assert bot.tables.tournaments.tournaments(club.guild_id), created.all_text()

"""Slash commands synced to DEV_GUILD_ID leave no copies behind when the bot syncs elsewhere:
a server that kept them would show every command twice (its copy and the global one)."""

from __future__ import annotations

from bot.discord_ui.app import BotOptions, HoldemBot, create_bot
from bot.settings import Settings
from tests.discord_ui.club import Club


def bot_syncing_to(club: Club, dev_guild_id: int | None) -> HoldemBot:
    settings = Settings(token="fake", database_path=club.database, dev_guild_id=dev_guild_id,
                        bot_worker=False)
    return create_bot(settings, BotOptions(draw_images=False, guild_ready_timeout=0.01))


async def test_a_server_synced_to_before_is_cleared_when_the_bot_syncs_elsewhere(club: Club):
    fake, first = club.fake, club.guild_id
    second = fake.add_guild("Second Club", channels=["poker"]).id

    await fake.run_client(bot_syncing_to(club, first))
    names = {command["name"] for command in fake.commands(first)}
    assert "join" in names and not fake.commands(None)
    await fake.stop_client()

    await fake.run_client(bot_syncing_to(club, second))
    assert {command["name"] for command in fake.commands(second)} == names
    assert not fake.commands(first)
    await fake.stop_client()

    await fake.run_client(bot_syncing_to(club, None))
    assert {command["name"] for command in fake.commands(None)} == names
    assert not fake.commands(first) and not fake.commands(second)

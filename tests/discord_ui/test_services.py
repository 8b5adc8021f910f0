"""``table_services`` hands a click its tables and notifier, and only the Hold'em bot has them."""

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord_ui.services import table_services


def interaction_of(client: object) -> Any:
    return SimpleNamespace(client=client)


def test_a_client_without_tables_is_a_programming_error():
    with pytest.raises(RuntimeError, match="Client does not run Hold'em tables"):
        table_services(interaction_of(discord.Client(intents=discord.Intents.none())))


def test_the_bot_with_tables_and_notifier_is_handed_over_as_it_is():
    bot = SimpleNamespace(tables=object(), notifier=object())
    assert table_services(interaction_of(bot)) is bot

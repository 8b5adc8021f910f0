"""Expected errors become one short sentence; anything else is a bug (``None``: apologise)."""

import discord
from discord import app_commands

from bot.discord_ui.error_replies import user_message
from bot.errors import InputError
from bot.ledger import InsufficientChips
from bot.tables.errors import NotYourTurn


def test_table_and_ledger_errors_show_their_own_sentence():
    assert user_message(NotYourTurn()) == "It is not your turn."
    assert user_message(InsufficientChips(2_000, 150)) == (
        "You need 2,000 chips but your balance is 150.")
    assert user_message(InputError("Type a number.")) == "Type a number."


def test_errors_wrapped_by_the_command_tree_are_unwrapped():
    command = app_commands.Command(name="fold", description="x", callback=_callback)
    wrapped = app_commands.CommandInvokeError(command, NotYourTurn())
    assert user_message(wrapped) == "It is not your turn."


def test_a_missing_permission_is_named():
    error = app_commands.MissingPermissions(["manage_guild"])
    assert user_message(error) == "You need the Manage Guild permission to do that."


def test_commands_outside_a_server_are_explained():
    assert "server channel" in user_message(app_commands.NoPrivateMessage())


def test_bugs_have_no_user_sentence():
    assert user_message(RuntimeError("boom")) is None
    assert user_message(KeyError("seat")) is None
    assert user_message(discord.DiscordException("gateway")) is None


async def _callback(interaction: discord.Interaction) -> None:
    """A command body for building a ``Command`` in a test."""

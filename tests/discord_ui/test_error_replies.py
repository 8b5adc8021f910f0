"""Expected errors become one short sentence; anything else is a bug (``None``: apologise)."""

import logging
from types import SimpleNamespace

import aiohttp
import discord
from discord import app_commands

from bot.discord_ui.error_replies import APOLOGY, APOLOGY_TEXT, report_error, user_message
from bot.errors import InputError
from bot.i18n import language_for, tr
from bot.ledger import InsufficientChips
from bot.tables.errors import NotYourTurn, TableClosed


def test_table_and_ledger_errors_show_their_own_sentence():
    assert user_message(NotYourTurn()) == "It is not your turn."
    assert user_message(InsufficientChips(2_000, 150)) == (
        "You need 2,000 chips but your balance is 150.")
    assert user_message(InputError(tr("Type a number."))) == "Type a number."


def test_errors_wrapped_by_the_command_tree_are_unwrapped():
    command = app_commands.Command(name="fold", description="x", callback=_callback)
    wrapped = app_commands.CommandInvokeError(command, NotYourTurn())
    assert user_message(wrapped) == "It is not your turn."


def test_a_missing_permission_is_named():
    error = app_commands.MissingPermissions(["manage_guild"])
    assert user_message(error) == "You need the Manage Guild permission to do that."


def test_commands_outside_a_server_are_explained():
    assert "server channel" in user_message(app_commands.NoPrivateMessage())


def test_errors_are_told_in_the_members_language():
    simplified, traditional = language_for("zh-CN"), language_for("zh-TW")
    assert user_message(NotYourTurn(), simplified) == "还没轮到你。"
    assert user_message(NotYourTurn(), traditional) == "還沒輪到你。"
    missing = app_commands.MissingPermissions(["manage_guild"])
    assert user_message(missing, simplified) == "你需要“管理服务器”权限才能这样做。"
    assert user_message(missing, traditional) == "你需要「管理伺服器」權限才能這樣做。"
    bot_missing = app_commands.BotMissingPermissions(["send_messages", "embed_links"])
    assert user_message(bot_missing) == (
        "I need the Send Messages and Embed Links permissions in this channel to run a table "
        "here; ask a server admin to grant them.")
    assert "“发送消息和嵌入链接”" in user_message(bot_missing, simplified)
    assert "「傳送訊息和嵌入連結」" in user_message(bot_missing, traditional)
    threads = app_commands.BotMissingPermissions(
        ["create_public_threads", "send_messages_in_threads"])
    assert "Create Public Threads and Send Messages in Threads" in user_message(threads)
    assert "“创建公开子区和在子区中发送消息”" in user_message(threads, simplified)
    assert "「建立公開討論串和在討論串中傳送訊息」" in user_message(threads, traditional)
    assert user_message(app_commands.NoPrivateMessage(), traditional) == (
        "此指令只能在伺服器頻道中使用，不能在私訊中使用。")
    assert simplified.render(APOLOGY_TEXT) == "抱歉，我这边出了点问题。请稍后再试。"
    assert traditional.render(APOLOGY_TEXT) == "抱歉，我這邊出了點問題。請稍後再試。"
    assert str(APOLOGY_TEXT) == APOLOGY


def test_bugs_have_no_user_sentence():
    assert user_message(RuntimeError("boom")) is None
    assert user_message(KeyError("seat")) is None
    assert user_message(discord.DiscordException("gateway")) is None


async def _callback(interaction: discord.Interaction) -> None:
    """A command body for building a ``Command`` in a test."""


async def test_an_error_reply_cut_by_a_dropped_connection_is_one_warning_not_a_traceback(
        caplog):
    """A click that arrives as the bot stops is refused (the table is closing); when the
    connection carrying the refusal drops, that is a warning, not an exception left in
    discord.py's task ("Task exception was never retrieved", logged as an error)."""

    async def dropped(*args, **kwargs):
        raise aiohttp.ServerDisconnectedError()

    interaction = SimpleNamespace(
        response=SimpleNamespace(is_done=lambda: False, send_message=dropped),
        locale=discord.Locale.american_english, user=SimpleNamespace(id=11),
        type=discord.InteractionType.application_command, command=None, channel_id=5)
    with caplog.at_level(logging.WARNING):
        await report_error(interaction, TableClosed())
    assert [record.levelname for record in caplog.records] == ["WARNING"]

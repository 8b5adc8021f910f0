"""An interaction Discord expired before the bot answered it is load, not a bug: it is
counted and warned about once a minute, never logged as an error with a traceback."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import discord
import pytest
from discord import app_commands

from bot.discord_ui import expired_interactions
from bot.discord_ui.expired_interactions import (
    EXPIRED,
    UNKNOWN_INTERACTION,
    WARN_EVERY_SECONDS,
    ExpiredInteractions,
    is_expired,
)
from tests.discord_ui.club import Club, control, deal_first_turn, wait_for_turn_or_end
from tests.fake_discord import NotAnswered


def not_found(code: int) -> discord.NotFound:
    response = SimpleNamespace(status=404, reason="Not Found")
    return discord.NotFound(response, {"code": code, "message": "Unknown"})  # type: ignore[arg-type]


def test_only_unknown_interaction_counts_as_expired_wrapped_or_not() -> None:
    expired = not_found(UNKNOWN_INTERACTION)
    assert is_expired(expired)
    command = app_commands.Command(name="x", description="x", callback=lambda i: None)  # type: ignore[arg-type, return-value]
    assert is_expired(app_commands.CommandInvokeError(command, expired))
    assert not is_expired(not_found(10008))  # unknown message: a real fault
    assert not is_expired(RuntimeError("boom"))


def test_expired_interactions_are_warned_about_once_a_minute_with_their_count(
        caplog: pytest.LogCaptureFixture) -> None:
    now = [100.0]
    counter = ExpiredInteractions(clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger=expired_interactions.__name__):
        counter.note()
        now[0] += WARN_EVERY_SECONDS - 1
        counter.note()
        counter.note()
        assert len(caplog.records) == 1
        now[0] += 1
        counter.note()
    assert counter.total == 4
    assert [record.getMessage().split()[0] for record in caplog.records] == ["1", "3"]


async def test_answers_discord_refuses_as_expired_log_no_error(
        club: Club, caplog: pytest.LogCaptureFixture):
    bot = await club.start_bot()
    user = await deal_first_turn(club, bot)
    message = await club.table_message(bot)
    before = EXPIRED.total
    club.fake.interaction_deadline = 0.0  # every answer now comes too late
    with pytest.raises(NotAnswered):
        await club.fake.slash(club.alice, club.channel, "balance")
    with pytest.raises(NotAnswered):
        await club.fake.click(user, message.id, control(message, "check", "call"))
    await club.fake.wait_until(lambda: EXPIRED.total >= before + 2)
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    club.fake.interaction_deadline = 3.0
    assert await wait_for_turn_or_end(club, bot) is not None

"""Through the real discord.py client: a server whose Discord language is Chinese gets its
table message in Chinese, while each member's own answers and DMs follow their own client."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.discord_ui.views.table_controls import MY_CARDS_ID
from bot.i18n import language_for
from tests.discord_ui.club import Club, seat_two_and_a_bot, start_hand
from tests.fake_discord import payloads

pytestmark = pytest.mark.slow


def speak(monkeypatch: pytest.MonkeyPatch, guild_locale: str, people: dict[int, str]) -> None:
    """The fake Discord sends ``guild_locale`` as every server's language and each person's
    client language (``people``; others en-US) with their interactions."""
    guild_payload, interaction_payload = payloads.guild_payload, payloads.interaction_payload

    def guild(*args: Any, **kwargs: Any) -> dict[str, Any]:
        return {**guild_payload(*args, **kwargs), "preferred_locale": guild_locale}

    def interaction(*args: Any, **kwargs: Any) -> dict[str, Any]:
        payload = interaction_payload(*args, **kwargs)
        payload["locale"] = people.get(int(kwargs["user"]["id"]), "en-US")
        if "guild_id" in payload:
            payload["guild_locale"] = guild_locale
        return payload

    monkeypatch.setattr(payloads, "guild_payload", guild)
    monkeypatch.setattr(payloads, "interaction_payload", interaction)


def labels(message) -> list[str]:
    return [component["label"] for component in message.walk_components()
            if "label" in component]


async def test_the_table_speaks_the_servers_language_and_answers_each_member_in_theirs(
        club: Club, monkeypatch: pytest.MonkeyPatch):
    chen = club.fake.add_user("chen")
    speak(monkeypatch, "zh-CN", {chen: "zh-TW"})
    bot = await club.start_bot()
    await seat_two_and_a_bot(club, bot)
    bot.notifier.remember_language(club.bob, language_for("en-GB"))  # bob's client: English
    await start_hand(club, bot, club.alice)
    table = await club.table_message(bot)

    text = club.channel_text()
    assert "德州扑克 · 盲注 10/20" in text and "座位（3/" in text and "轮到 <@" in text
    assert "Texas Hold'em" not in text and "to act" not in text
    assert "弃牌" in labels(table) and "我的手牌" in labels(table)

    await club.fake.wait_until(lambda: bool(club.fake.dms(club.bob)))
    assert re.fullmatch(r"Hand #\d+ in <#\d+>: your cards are \*\*.+\*\*",
                        club.fake.dms(club.bob)[-1].content)  # his language, not the server's

    answer = await club.fake.click(chen, table.id, MY_CARDS_ID)  # not seated
    assert answer.ephemeral and answer.all_text() == "你現在在這張牌桌上沒有手牌。"

"""The bot in Chinese against the fake Discord: a member whose Discord is in Chinese gets
their answers in Chinese, the synced commands carry Chinese names, and /settings language sets
what the server's tables read."""

from __future__ import annotations

import pytest

from tests.discord_ui.club import Club
from tests.fake_discord import InteractionRefused


async def test_a_chinese_member_gets_chinese_answers(club: Club):
    fake = club.fake
    fake.world.users[club.alice].locale = "zh-CN"
    fake.world.users[club.bob].locale = "zh-TW"
    bot = await club.start_bot()

    balance = await fake.slash(club.alice, club.channel, "balance")
    assert balance.ephemeral and balance.content == "你的余额是 10,000 筹码。"
    balance = await fake.slash(club.bob, club.channel, "balance")
    assert balance.ephemeral and balance.content == "你的餘額是 10,000 籌碼。"

    joined = await fake.slash(club.alice, club.channel, "join")
    assert joined.ephemeral and joined.content.startswith("你带着 2,000 筹码入座。")
    refused = await fake.slash(club.bob, club.channel, "start")  # bob is not seated
    assert refused.ephemeral and "只有在這張牌桌入座的玩家" in refused.content
    left = await fake.slash(club.alice, club.channel, "leave")
    assert left.ephemeral and "筹码退回你的余额" in left.content

    helped = await fake.slash(club.bob, club.channel, "help")
    text = helped.all_text()
    assert "Discord 德州撲克" in text and "`/加入`" in text and "`/棄牌` 放棄這手牌。" in text
    board = await fake.slash(club.alice, club.channel, "leaderboard")
    assert "排行榜：本服务器的筹码" in board.all_text()
    stats = await fake.slash(club.bob, club.channel, "stats", player=club.admin)
    assert stats.ephemeral and stats.content == "admin 還沒有在這裡玩過。"
    # What DMs sent later (hole cards) are written in: the member's latest language.
    assert bot.notifier.person_language(club.alice, club.channel).code == "zh_Hans"
    assert bot.notifier.person_language(club.bob, club.channel).code == "zh_Hant"
    english = await fake.slash(club.admin, club.channel, "balance")
    assert english.content == "Your balance is 10,000 chips."
    assert (await bot.ledger.audit()).ok


async def test_synced_commands_carry_chinese_names_and_descriptions(club: Club):
    await club.start_bot()
    commands = {command["name"]: command for command in club.fake.commands(club.guild_id)}
    for name, simplified, traditional in (("join", "加入", "加入"), ("fold", "弃牌", "棄牌"),
                                          ("settings", "设置", "設定")):
        assert commands[name]["name_localizations"]["zh-CN"] == simplified
        assert commands[name]["name_localizations"]["zh-TW"] == traditional
        assert set(commands[name]["description_localizations"]) >= {"zh-CN", "zh-TW"}
    language = next(option for option in commands["settings"]["options"]
                    if option["name"] == "language")
    assert language["name_localizations"] == {"zh-CN": "语言", "zh-TW": "語言"}
    choices = {choice["value"]: choice["name"] for choice in language["choices"]}
    assert choices.items() >= {"en": "English", "zh_Hans": "中文 (简体)",
                               "zh_Hant": "中文 (繁體)"}.items()


async def test_settings_language_sets_the_servers_language(club: Club):
    fake = club.fake
    bot = await club.start_bot()
    shown = await fake.slash(club.admin, club.channel, "settings")
    assert "The server's Discord language (English)" in shown.all_text()

    changed = await fake.slash(club.admin, club.channel, "settings", language="zh_Hant")
    assert "中文 (繁體)" in changed.all_text()
    assert (await bot.tables.guild_settings(club.guild_id)).language == "zh_Hant"

    with pytest.raises(InteractionRefused, match="not a choice"):
        await fake.slash(club.admin, club.channel, "settings", language="klingon")
    for command in fake.commands(club.guild_id):  # as if Discord let any text through
        for option in command.get("options", []):
            option.pop("choices", None)
    wrong = await fake.slash(club.admin, club.channel, "settings", language="klingon",
                             small_blind=5)
    assert wrong.ephemeral and "Unknown language" in wrong.content
    settings = await bot.tables.guild_settings(club.guild_id)
    assert settings.language == "zh_Hant" and settings.small_blind == 10

    with pytest.raises(InteractionRefused, match="lacks the permissions"):
        await fake.slash(club.bob, club.channel, "settings", language="en")

    back = await fake.slash(club.admin, club.channel, "settings", language="auto")
    assert "The server's Discord language (English)" in back.all_text()
    assert (await bot.tables.guild_settings(club.guild_id)).language == ""

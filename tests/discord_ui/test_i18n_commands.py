"""Slash commands in Chinese: every command, option and choice has a zh-CN and a zh-TW name or
description that Discord accepts (names lowercase letters/digits/-/_, 1-32 characters, unique
among their siblings; descriptions and choice names at most 100 characters)."""

from __future__ import annotations

import unicodedata
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from bot.discord_ui.app import HoldemBot, create_bot
from bot.discord_ui.cogs import EXTENSIONS
from bot.discord_ui.translator import CatalogTranslator
from bot.settings import Settings

LOCALES = ("zh-CN", "zh-TW")


def valid_name(name: str) -> bool:
    """Discord's rule for localized names: ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$,
    and lowercase where the script has case."""
    return (1 <= len(name) <= 32 and name == name.lower()
            and all(char in "-_" or unicodedata.category(char)[0] in "LN" for char in name))


@pytest.fixture
async def bot() -> AsyncIterator[HoldemBot]:
    bot = create_bot(Settings())
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    yield bot


async def payloads(bot: HoldemBot) -> list[dict[str, Any]]:
    translator = CatalogTranslator()
    return [await command.get_translated_payload(bot.tree, translator)
            for command in bot.tree.get_commands()]


def check_named(item: dict[str, Any], locale: str, where: str) -> str:
    localized = (item.get("name_localizations") or {}).get(locale)
    assert localized is not None, f"{where}: no {locale} name for {item['name']!r}"
    assert valid_name(localized), f"{where}: {localized!r} is not a valid {locale} name"
    description = (item.get("description_localizations") or {}).get(locale)
    assert description, f"{where}: no {locale} description for {item['name']!r}"
    assert len(description) <= 100, f"{where}: {description!r} is too long"
    return localized


async def test_every_command_and_option_has_valid_chinese_names(bot: HoldemBot):
    commands = await payloads(bot)
    assert len(commands) >= 20
    for locale in LOCALES:
        names = [check_named(command, locale, "/" + command["name"]) for command in commands]
        assert len(set(names)) == len(names), (locale, sorted(names))
        for command in commands:
            where = "/" + command["name"]
            options = command.get("options", [])
            option_names = [check_named(option, locale, f"{where} {option['name']}")
                            for option in options]
            assert len(set(option_names)) == len(option_names), (where, locale, option_names)
            for option in options:
                for choice in option.get("choices", []):
                    localized = (choice.get("name_localizations") or {}).get(locale)
                    assert localized is None or 1 <= len(localized) <= 100
                    if option["name"] != "language":  # languages are named in themselves
                        assert localized, f"{where} {option['name']}: {choice['name']!r}"


async def test_the_chinese_names_are_the_expected_words(bot: HoldemBot):
    commands = {command["name"]: command for command in await payloads(bot)}
    simplified = {name: command["name_localizations"]["zh-CN"]
                  for name, command in commands.items()}
    traditional = {name: command["name_localizations"]["zh-TW"]
                   for name, command in commands.items()}
    assert simplified["join"] == "加入" and simplified["fold"] == "弃牌"
    assert simplified["leave"] == "离开" and traditional["leave"] == "離開"
    assert traditional["fold"] == "棄牌" and traditional["call"] == "跟注"
    assert "description_localizations" in commands["bet"]
    assert commands["bet"]["description_localizations"]["zh-TW"].startswith("下注")


async def test_english_and_other_locales_keep_the_english_strings():
    translator = CatalogTranslator()
    from discord import app_commands
    from discord.app_commands import TranslationContext, TranslationContextLocation

    context = TranslationContext(TranslationContextLocation.command_name, None)
    assert await translator.translate(app_commands.locale_str("fold"),
                                      discord.Locale.american_english, context) is None
    assert await translator.translate(app_commands.locale_str("fold"),
                                      discord.Locale.french, context) is None
    assert await translator.translate(app_commands.locale_str("fold"),
                                      discord.Locale.chinese, context) == "弃牌"

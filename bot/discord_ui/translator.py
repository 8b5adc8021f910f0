"""Slash commands in the member's language: discord.py's ``Translator`` backed by the catalogs.

discord.py passes every command name, description, option name, option description and
choice name through the tree's translator once per Discord locale when it syncs, and sends the
answers as ``name_localizations``/``description_localizations``; the bot still dispatches on
the English names. Names are looked up in the ``"command"`` context, since a name (``call``)
and a sentence or button (``Call``) are different messages.

``python -m bot.discord_ui.translator`` brings the catalogs (bot/i18n/locales/*.po) up to date
(``bot.i18n.extraction``): the code's new messages and the slash commands' strings are added,
untranslated, those the code no longer has are dropped, translations already there are kept.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Iterator, Sequence

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.ext import commands

from bot.discord_ui.cogs import EXTENSIONS
from bot.i18n import ENGLISH, Text, language_for
from bot.i18n.extraction import Found, update_catalogs

NAME_CONTEXT = "command"
NAMES = frozenset({Where.command_name, Where.group_name, Where.parameter_name})
VERBATIM = "verbatim"
"""``locale_str(..., verbatim=True)``: shown as written in every language (a language's own
name in the language menu), so no catalog needs it."""


def catalog_text(message: str, where: Where) -> Text:
    """The catalog message behind a command string found at ``where``."""
    return Text(message, context=NAME_CONTEXT if where in NAMES else None)


class CatalogTranslator(app_commands.Translator):
    """Command strings from the catalogs; ``None`` (Discord shows English) where the locale
    has no catalog or the catalog has no translation."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        language = language_for(locale.value)
        if language is ENGLISH or _verbatim(string):
            return None
        translated = language.render(catalog_text(string.message, context.location))
        return None if translated == string.message else translated


def _verbatim(string: app_commands.locale_str | None) -> bool:
    return string is not None and bool(string.extras.get(VERBATIM))


def command_strings() -> Iterator[Found]:
    """Every string of the bot's slash commands that Discord can show translated. The cogs are
    loaded on a bare ``commands.Bot``: they only keep the client they are given, and the
    application, which installs this translator, stays out of the tool's imports."""

    async def load() -> list[Found]:
        bot = commands.Bot(command_prefix=commands.when_mentioned, intents=discord.Intents.none())
        found: list[Found] = []
        for extension in EXTENSIONS:
            await bot.load_extension(extension)
        for command in bot.tree.walk_commands():
            where = f"/{command.qualified_name}"
            found.append(Found(command.name, NAME_CONTEXT, where))
            found.append(Found(command.description, None, where))
            if isinstance(command, app_commands.Command):
                for parameter in command.parameters:
                    found.append(Found(parameter.name, NAME_CONTEXT, where))
                    found.append(Found(parameter.description, None, where))
                    found.extend(Found(choice.name, None, where)
                                 for choice in parameter.choices
                                 if not _verbatim(choice._locale_name))
        return found

    yield from asyncio.run(load())


def main(argv: Sequence[str] | None = None) -> int:
    """Merge the code's messages and the command strings into every catalog; ``--help`` and
    unknown arguments are answered before anything is written."""
    argparse.ArgumentParser(
        prog="python -m bot.discord_ui.translator",
        description=(__doc__ or "").rsplit("\n\n", 1)[-1],  # the module's last paragraph
    ).parse_args(argv)
    for path in update_catalogs(list(command_strings())):
        print(f"updated {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

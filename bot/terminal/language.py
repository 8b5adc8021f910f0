"""The terminal's language: chosen with ``--lang`` or taken from the system locale, and text
padded by how wide it shows (a Chinese character takes two columns of a terminal).

>>> choose_language("zh-TW").code, choose_language("zh_Hans").code, choose_language("en").code
('zh_Hant', 'zh_Hans', 'en')
>>> choose_language("klingon") is None
True
>>> system_language({"LANG": "zh_TW.UTF-8"}).code, system_language({"LANG": "C.UTF-8"}).code
('zh_Hant', 'en')
>>> pad("弃牌", 6) + "|"
'弃牌  |'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence

from babel import Locale, UnknownLocaleError

from bot.i18n import ENGLISH, Language, Text, language_for, languages, tr

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The environment variables that name the user's language, strongest first (POSIX)."""

NO_PREFERENCE = frozenset({"C", "POSIX"})
"""Locale names that state no language at all: like gettext, they get the default language.
Said here rather than left to Babel, whose answer changed (2.17 refuses ``C``, 2.19 parses it
as ``en_US_POSIX``)."""


def choose_language(tag: str) -> Language | None:
    """The language ``--lang`` names (``en``, ``zh-Hans``, ``zh-CN``, ``zh_Hant``, ``zh-TW``,
    ``zh_TW.UTF-8``; a bare ``zh`` is simplified Chinese; ``C`` and ``POSIX`` are English, the
    default), or ``None`` when the bot does not speak it."""
    cleaned = tag.strip().split(".")[0].split("@")[0].replace("-", "_")
    if cleaned.upper() in NO_PREFERENCE:
        return ENGLISH
    try:
        locale = Locale.parse(cleaned)
    except (ValueError, TypeError, UnknownLocaleError):
        return None
    if locale.language == "zh" and not locale.script and not locale.territory:
        return languages().get("zh_Hans")
    found = language_for(cleaned)
    if found.code == ENGLISH.code and locale.language != "en":
        return None
    return found


def system_language(environ: Mapping[str, str]) -> Language:
    """The language of the user's locale: the first of ``LC_ALL``, ``LC_MESSAGES`` and
    ``LANG`` that is set (``zh_TW.UTF-8`` is traditional Chinese); English, the default, for
    ``C`` and ``POSIX`` and for anything the bot does not speak (``fr_FR``)."""
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "").strip()
        if value:
            return choose_language(value) or ENGLISH
    return ENGLISH


LANG_OPTIONS = ("--lang", "--language")


def lang_option(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` (or ``--language``) on a command line, the last one given, read
    before the rest so that the other options' help and refusals can be in that language.

    >>> lang_option(["--fast", "--lang", "zh-TW"]), lang_option(["--lang=en"]), lang_option([])
    ('zh-TW', 'en', None)
    """
    found = None
    for index, word in enumerate(argv):
        if word == "--":
            break
        name, equals, value = word.partition("=")
        if name in LANG_OPTIONS:
            if equals:
                found = value
            elif index + 1 < len(argv):
                found = argv[index + 1]
    return found


def command_line_language(
    argv: Sequence[str], environ: Mapping[str, str]
) -> tuple[Language, Text | None]:
    """The language a command speaks: ``--lang``'s, or the system locale's without it; with
    the refusal to show (in the locale's language) when ``--lang`` names a language the bot
    does not speak."""
    tag = lang_option(argv)
    default = system_language(environ)
    if tag is None:
        return default, None
    chosen = choose_language(tag)
    if chosen is None:
        return default, tr("unknown language '{tag}' for --lang; use en, zh-Hans (or zh-CN) or "
                           "zh-Hant (or zh-TW)", tag=tag[:20])
    return chosen, None


def display_width(text: str) -> int:
    """How many terminal columns ``text`` takes: two for wide and full-width characters,
    none for combining marks."""
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def clip(text: str, width: int) -> str:
    """The start of ``text`` that fits in ``width`` columns."""
    taken = 0
    for index, char in enumerate(text):
        taken += display_width(char)
        if taken > width:
            return text[:index]
    return text


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces up to ``width`` columns (as ``f"{text:<{width}}"`` would
    for narrow characters)."""
    return text + " " * max(0, width - display_width(text))


__all__ = ["choose_language", "clip", "command_line_language", "display_width", "lang_option",
           "pad", "system_language"]

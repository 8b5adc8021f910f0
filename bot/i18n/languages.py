"""The languages the bot speaks: one gettext catalog each, and rendering ``Text`` in them.

English is the source language (message ids are English sentences) and needs no catalog.
Every other language is one ``locales/<identifier>.po`` file in this package, named by its
Babel/CLDR identifier (``zh_Hans``, ``zh_Hant``, ``fr``); dropping in a new file adds a
language, with no code to change. Numbers and lists follow the language's CLDR conventions.

>>> language_for("zh-CN").code, language_for("zh-TW").code, language_for("en-GB").code
('zh_Hans', 'zh_Hant', 'en')
>>> language_for("zh-CN").render(tr("It is not your turn."))
'还没轮到你。'
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from importlib.resources.abc import Traversable

from babel import Locale, UnknownLocaleError
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from bot.i18n.text import Message, Text, render, tr, write_integer

SOURCE_CODE = "en"


@dataclass(frozen=True, slots=True, eq=False)
class Language:
    """One language the bot speaks, with its catalog."""

    code: str
    """The Babel identifier of the catalog (``en``, ``zh_Hans``), also what settings store."""
    locale: Locale
    translations: gettext.NullTranslations

    @property
    def name(self) -> str:
        """The language's name in itself (``中文 (简体)``), for menus."""
        return str(self.locale.get_display_name(self.locale))

    def render(self, message: Message) -> str:
        """``message`` as this language writes it (a ``str`` is already written). Remembered
        when it can be: a table's messages, buttons and pictures say the same words and
        amounts again at every action, and composing one costs some 25 µs."""
        if isinstance(message, str):
            return message
        try:
            return _rendered(self, message)
        except TypeError:  # a value that is a list: not hashable, so not remembered
            return render(message, self.translations, self.locale)

    def number(self, value: int) -> str:
        """``value`` with this language's digit grouping (``12,345``)."""
        return write_integer(value, self.locale)


@lru_cache(maxsize=8192)
def _rendered(language: Language, message: Text) -> str:
    return render(message, language.translations, language.locale)


def _load(code: str, po_text: bytes) -> Language:
    catalog = read_po(io.BytesIO(po_text), locale=code)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Language(code, Locale.parse(code), Translations(compiled))


def load_languages(folder: Traversable) -> dict[str, Language]:
    """English, and one language for each ``<code>.po`` catalog in ``folder``, by code."""
    found = {SOURCE_CODE: Language(SOURCE_CODE, Locale.parse(SOURCE_CODE),
                                   gettext.NullTranslations())}
    for entry in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if entry.name.endswith(".po"):
            code = entry.name.removesuffix(".po")
            found[code] = _load(code, entry.read_bytes())
    return found


@cache
def languages() -> dict[str, Language]:
    """Every language the bot speaks (the package's catalogs), English first, by code."""
    return load_languages(resources.files("bot.i18n").joinpath("locales"))


def language_for(tag: str | None, available: Mapping[str, Language] | None = None) -> Language:
    """The best language for a Discord locale (``zh-CN``), a POSIX locale (``zh_TW.UTF-8``)
    or a catalog code (``zh_Hant``): the closest catalog, English when none is close."""
    if not available:
        return _closest_catalog(tag)
    return _closest(tag, available)


@lru_cache(maxsize=256)
def _closest_catalog(tag: str | None) -> Language:
    """``language_for`` among the package's catalogs, remembered: every click and every table
    edit asks it (parsing the tag costs about 12 µs). Discord has about 30 locales; the
    bound keeps odd tags from filling memory."""
    return _closest(tag, languages())


def _closest(tag: str | None, available: Mapping[str, Language]) -> Language:
    if not tag:
        return available[SOURCE_CODE]
    try:
        locale = Locale.parse(tag.split(".")[0].split("@")[0].replace("-", "_"))
    except (ValueError, UnknownLocaleError):
        return available[SOURCE_CODE]
    for parts in ((locale.language, locale.script, locale.territory),
                  (locale.language, locale.script), (locale.language, locale.territory),
                  (locale.language,)):
        code = "_".join(part for part in parts if part)
        if code in available:
            return available[code]
    return available[SOURCE_CODE]


ENGLISH = language_for(SOURCE_CODE)
"""The source language: message ids as written, numbers grouped the English way."""

__all__ = ["ENGLISH", "Language", "language_for", "languages", "load_languages", "tr"]

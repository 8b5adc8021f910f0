"""Sentences as message ids with their values, rendered later in the reader's language.

Layers that must not know languages (the table runtime, the ledger, the shared errors) build a
``Text`` instead of a ``str``: the English sentence is the catalog's message id, and the values
that fill its ``{placeholders}`` travel beside it. A front end renders it for whoever reads it
(``bot.i18n.languages.Language.render``); ``str(text)`` is the English rendering, for logs and
for the English-only places (hand histories).

The three constructors are the markers Babel's extractor looks for (``tr``, ``tr_n``, ``tr_c``;
see ``bot.i18n.extraction``), so every message id is a literal at its call site.

>>> str(tr("You sit down with {chips} chips.", chips=1500))
'You sit down with 1,500 chips.'
>>> str(tr_n("{count} bot", "{count} bots", 1))
'1 bot'
>>> str(tr_c("button", "Call"))
'Call'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Text:
    """A catalog message and the values of its placeholders."""

    msgid: str
    """The English sentence, with ``{name}`` placeholders; the key in every catalog."""
    params: tuple[tuple[str, object], ...] = ()
    """Placeholder values by name (``count`` included for plurals): an ``int`` is shown with
    the reader's digit grouping, a ``str`` as it is (a name), a ``Text`` rendered in turn, a
    list or tuple joined the reader's way."""
    plural: str | None = None
    """The English plural form, for a message that depends on ``count``."""
    count: int | None = None
    """The number that picks the plural form."""
    context: str | None = None
    """Tells apart one English word with two meanings (a command name, a button label)."""

    def __str__(self) -> str:
        from bot.i18n.languages import ENGLISH

        return ENGLISH.render(self)


def tr(msgid: str, /, **params: object) -> Text:
    """The message ``msgid`` with its placeholder values."""
    return Text(msgid, tuple(params.items()))


def tr_n(singular: str, plural: str, count: int, /, **params: object) -> Text:
    """A message whose form depends on ``count`` (also available as ``{count}``)."""
    return Text(singular, (("count", count), *params.items()), plural, count)


def tr_c(context: str, msgid: str, /, **params: object) -> Text:
    """The message ``msgid`` in ``context`` (``"command"`` for command names, ``"button"``...)."""
    return Text(msgid, tuple(params.items()), context=context)


Message = Text | str
"""What front ends accept where a person reads something: a ``Text``, or a string that is
already in the reader's language."""


__all__ = ["Message", "Text", "tr", "tr_c", "tr_n"]

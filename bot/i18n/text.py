"""Sentences as message ids with their values, rendered later in the reader's language.

Layers that must not know languages (the table runtime, the ledger, the shared errors) build a
``Text`` instead of a ``str``: the English sentence is the catalog's message id, and the values
that fill its ``{placeholders}`` travel beside it. A front end renders it for whoever reads it
(``bot.i18n.languages.Language.render``); ``str(text)`` is the English rendering, for logs and
for the English-only places (hand histories). Rendering lives here, beside what it renders,
so that ``bot.i18n.languages`` (the catalogs) depends on this module and never the reverse.

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

import gettext
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal, get_group_symbol

from bot.pickling import reduce_by_fields


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

    __reduce__ = reduce_by_fields  # a table's last action goes to the picture worker

    def __str__(self) -> str:
        return render(self, _SOURCE_CATALOG, _SOURCE_LOCALE)


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

_SOURCE_CATALOG = gettext.NullTranslations()
_SOURCE_LOCALE = Locale.parse("en")


_EDGE = "\x00"
"""Marks, while a sentence is put together, the ends of the values no catalog entry sees
beside the words they meet: a list's items (beside its connectors) and a nested message's own
values (beside the outer sentence)."""
_IDEOGRAPH = "\u3400-\u9fff\uf900-\ufaff"
_NUMBER_BESIDE_WORD = re.compile(
    rf"(?<=\d){_EDGE}+(?=[{_IDEOGRAPH}])|(?<=[{_IDEOGRAPH}]){_EDGE}+(?=\d)")


def render(message: Message, catalog: gettext.NullTranslations, locale: Locale) -> str:
    """``message`` through ``catalog``, numbers and lists written as ``locale`` writes them
    (a ``str`` is already written).

    Chinese typesetting spaces a number from a Chinese word; a catalog entry does so around
    its own placeholders, and this does it where a list's connector or the outer sentence
    meets a number (``1,950 和 1,050``, ``从边池 1 赢得``).
    """
    if isinstance(message, str):
        return message
    composed = _compose(message, catalog, locale, nested=False)
    if _EDGE not in composed:
        return composed
    return _NUMBER_BESIDE_WORD.sub(" ", composed).replace(_EDGE, "")


def write_integer(value: int, locale: Locale) -> str:
    """``value`` with ``locale``'s digit grouping, as Babel's ``format_decimal`` writes it.

    >>> write_integer(1234567, Locale.parse("en")), write_integer(-5, Locale.parse("en"))
    ('1,234,567', '-5')
    """
    return _integer_writer(locale)(value)


_PROBES = tuple(int("9876543210123"[:digits]) for digits in range(1, 14))
"""Numbers of every length a stack or pot can have, on which the fast way must agree with
Babel before it is used."""


@cache
def _integer_writer(locale: Locale) -> Callable[[int], str]:
    """How ``locale`` writes integers. Babel's ``format_decimal`` costs about 8 µs a number,
    and a table message writes a dozen, a few times per action; Python's own grouping by
    threes, with the locale's separator, costs a tenth of that and is used for the locales
    where it writes what Babel writes (every catalog's language; not Hindi's lakh grouping)."""

    def babel(value: int) -> str:
        return str(format_decimal(value, locale=locale))

    group = get_group_symbol(locale)

    def fast(value: int) -> str:
        if value < 0:
            return babel(value)  # the locale's own minus sign
        return f"{value:,}".replace(",", group)

    return fast if all(fast(value) == babel(value) for value in _PROBES) else babel


def _compose(text: Text, catalog: gettext.NullTranslations, locale: Locale,
             nested: bool) -> str:
    """``text`` filled in; ``nested`` when it is itself a value, whose own values the outer
    catalog entry cannot see, so they are marked for the spacing."""
    template = _template(text, catalog)
    if not text.params:
        return template
    return template.format(
        **{name: _value(value, catalog, locale, nested) for name, value in text.params}
    )


def _template(text: Text, catalog: gettext.NullTranslations) -> str:
    if text.plural is not None and text.count is not None:
        if text.context is not None:
            return catalog.npgettext(text.context, text.msgid, text.plural, text.count)
        return catalog.ngettext(text.msgid, text.plural, text.count)
    if text.context is not None:
        return catalog.pgettext(text.context, text.msgid)
    return catalog.gettext(text.msgid)


def _value(value: object, catalog: gettext.NullTranslations, locale: Locale,
           nested: bool) -> str:
    if isinstance(value, Text):
        return _compose(value, catalog, locale, nested=True)
    if isinstance(value, Sequence) and not isinstance(value, str):
        items = [_EDGE + _value(item, catalog, locale, nested) + _EDGE for item in value]
        return str(format_list(items, locale=locale))
    if isinstance(value, int) and not isinstance(value, bool):
        shown = write_integer(value, locale)
    else:
        shown = str(value)
    return _EDGE + shown + _EDGE if nested else shown


__all__ = ["Message", "Text", "render", "tr", "tr_c", "tr_n", "write_integer"]

"""The language a page is written in: a ``?lang=`` switch (kept in a cookie), else the
cookie, else the browser's Accept-Language, else English."""

from __future__ import annotations

from aiohttp import web

from bot.i18n import ENGLISH, Language, language_for, languages

LANGUAGE_COOKIE = "holdem_lang"
MAX_ACCEPTED = 12
"""Accept-Language tags looked at: a browser sends a handful; more is noise to skip."""
_CHOSEN = web.RequestKey("language", Language)


def page_language(request: web.Request) -> Language:
    """The reader's language (worked out once per request)."""
    if _CHOSEN in request:
        return request[_CHOSEN]
    chosen = (switched_language(request)
              or languages().get(request.cookies.get(LANGUAGE_COOKIE, ""))
              or accepted_language(request.headers.get("Accept-Language", "")))
    request[_CHOSEN] = chosen
    return chosen


def switched_language(request: web.Request) -> Language | None:
    """The language a ``?lang=<code>`` link asks for, if it is one the site has."""
    return languages().get(request.query.get("lang", ""))


def accepted_language(header: str) -> Language:
    """The browser's most wanted language among the catalogs.

    >>> accepted_language("fr-FR,fr;q=0.9,zh-TW;q=0.8,en;q=0.5").code
    'zh_Hant'
    >>> accepted_language("en-GB,zh-CN;q=0.9").code, accepted_language("").code
    ('en', 'en')
    """
    wanted = []
    for position, part in enumerate(header.split(",")[:MAX_ACCEPTED]):
        tag, _, weight = part.strip().partition(";q=")
        try:
            quality = float(weight) if weight else 1.0
        except ValueError:
            continue
        wanted.append((-quality, position, tag.strip()))
    for _, _, tag in sorted(wanted):
        language = language_for(tag)
        if language is not ENGLISH or tag.lower().startswith("en"):
            return language
    return ENGLISH

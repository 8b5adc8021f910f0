"""Rendering a page: its template, in the reader's language, with the header every page has
(the language switch, and who is logged in)."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

import aiohttp_jinja2
from aiohttp import web

from bot.i18n import Text, languages
from bot.web import wording
from bot.web.language import page_language
from bot.web.viewer import Viewer, current_viewer


async def render_page(request: web.Request, template: str,
                      context: Mapping[str, object]) -> web.Response:
    """``template`` with ``context`` and the header's values, for whoever is reading."""
    return _render(request, template, context, await current_viewer(request), 200)


def render_error(request: web.Request, status: int, message: Text) -> web.Response:
    """A plain page saying ``message``, with ``status``. Its header does not ask who is
    logged in: a refusal must not wait on Discord, nor fail in turn."""
    return _render(request, "error.html", {"message": message}, None, status)


def _render(request: web.Request, template: str, context: Mapping[str, object],
            viewer: Viewer | None, status: int) -> web.Response:
    language = page_language(request)
    others = [(code, other.name, f"{request.path}?{_with_lang(request, code)}")
              for code, other in languages().items()]
    response = aiohttp_jinja2.render_template(template, request, {
        **context, "t": language.render, "number": language.number, "w": wording,
        "lang": language.code, "html_lang": language.locale.language
        + (f"-{language.locale.script}" if language.locale.script else ""),
        "languages": others, "viewer": viewer,
        "login_url": "/login?" + urlencode({"next": request.path_qs}),
    }, status=status)
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    return response


def _with_lang(request: web.Request, code: str) -> str:
    query = {key: value for key, value in request.query.items() if key != "lang"}
    return urlencode({**query, "lang": code})

"""Who may read a server's web pages: the ``web_page`` server setting.

It is kept in the server's stored settings beside the table settings (``Ledger.guild_settings``)
under its own key, since it rules the web companion, not a table: ``/settings web_page``
writes it, the web pages read it. Neutral, so both front ends share one reading of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

WebPage = Literal["public", "members", "off"]
WEB_PAGES: tuple[WebPage, ...] = ("public", "members", "off")
"""``public``: anyone with the link; ``members``: the server's members, logged in with Discord;
``off``: no pages at all (they answer as if the server had none)."""
DEFAULT_WEB_PAGE: WebPage = "members"
WEB_PAGE_KEY = "web_page"
"""The key in the server's stored settings."""


def web_page(stored: Mapping[str, object]) -> WebPage:
    """The server's ``web_page`` from its stored settings; the default when unset or unknown.

    >>> web_page({}), web_page({"web_page": "public"}), web_page({"web_page": 3})
    ('members', 'public', 'members')
    """
    value = stored.get(WEB_PAGE_KEY)
    return next((page for page in WEB_PAGES if page == value), DEFAULT_WEB_PAGE)

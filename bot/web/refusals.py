"""Refusing a request with a short page in the reader's language.

Route code raises ``PageRefused``; the error middleware of ``bot.web.app`` turns it (and
aiohttp's own 4xx, such as an unknown address) into a plain page. A refusal never says more
than its message: one answer for "does not exist" and "not yours to see", so that none tells
which.
"""

from __future__ import annotations

from bot.i18n import Text, tr

NO_SUCH_PAGE = tr("There is no such page here.")
MEMBERS_ONLY = tr("This server's pages are for its members. Log in with a Discord account "
                  "that is a member of it.")
BAD_REQUEST = tr("This address is not one this site understands.")
WRONG_METHOD = tr("This page cannot be used that way.")
LOGIN_EXPIRED = tr("This login has expired or did not start here. Log in again.")
LOGIN_CANCELLED = tr("Discord did not log you in. You can try again.")
LOGIN_OFF = tr("Logging in with Discord is not set up on this site.")
DISCORD_UNREACHABLE = tr("Discord could not be reached to log you in. Try again in a moment.")
OUR_FAULT = tr("Something went wrong on our side. Try again in a moment.")
BY_STATUS = {400: BAD_REQUEST, 403: MEMBERS_ONLY, 404: NO_SUCH_PAGE, 405: WRONG_METHOD}
"""What a refusal of aiohttp's own (no route, wrong method) says."""


class PageRefused(Exception):
    """Answer the request with ``status`` and ``message`` on a plain page."""

    def __init__(self, status: int, message: Text) -> None:
        super().__init__(message.msgid)
        self.status = status
        self.message = message


def check_id(text: str) -> int:
    """A Discord or ledger id from an address, as an integer; ``PageRefused`` (404) unless it
    is a whole number from 1 to 2**63 - 1 (what both ledgers store).

    >>> check_id("123")
    123
    """
    if not (text.isdecimal() and text.isascii() and len(text) <= 19) or not (
            0 < int(text) < 2**63):
        raise PageRefused(404, NO_SUCH_PAGE)
    return int(text)

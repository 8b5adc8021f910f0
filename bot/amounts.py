"""Chip amounts as people type them, read the same way by every front end."""

from __future__ import annotations

from bot.errors import InputError
from bot.i18n import tr

MAX_AMOUNT = 10**12
"""More chips than any table holds; larger amounts are refused before they reach a table."""


def parse_amount(text: str) -> int:
    """Read a chip amount typed by a person: decimal digits, optionally with ``,`` or ``_``
    separators, or the full-width comma ``，`` that a Chinese input method types (its
    full-width digits are decimal digits already).

    Garbage, zero, negative and absurdly large amounts raise ``InputError`` with the reason.
    Only ``str.isdecimal()`` digits count (``"²"`` passes ``isdigit()`` but not ``int()``), and
    the length is checked before ``int()``, which refuses strings past 4,300 digits.

    >>> parse_amount(" 1,500 ")
    1500
    """
    cleaned = text.strip().replace(",", "").replace("，", "").replace("_", "")
    digits = cleaned.removeprefix("-")
    if not digits.isdecimal():
        raise InputError(tr("“{text}” is not an amount: type a whole number, like 120.",
                              text=text.strip()[:20]))
    if len(digits.lstrip("0")) > len(str(MAX_AMOUNT)):
        raise InputError(tr("{amount}… chips is more than any table holds.",
                              amount=digits[:13]))
    if digits != cleaned:
        raise InputError(tr("An amount must be a positive number of chips."))
    return check_amount(int(digits))


def check_amount(amount: int) -> int:
    """``amount`` if it is a positive number of chips a table could hold; ``InputError``
    otherwise (slash-command options arrive as integers but are not range-checked)."""
    if amount < 1:
        raise InputError(tr("An amount must be a positive number of chips."))
    if amount > MAX_AMOUNT:
        raise InputError(tr("{amount} chips is more than any table holds.", amount=amount))
    return amount

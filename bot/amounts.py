"""Chip amounts as people type them, read the same way by every front end."""

from __future__ import annotations

from bot.errors import InputError

MAX_AMOUNT = 10**12
"""More chips than any table holds; larger amounts are refused before they reach a table."""


def parse_amount(text: str) -> int:
    """Read a chip amount typed by a person: digits, optionally with ``,`` or ``_`` separators.

    Garbage, zero, negative and absurdly large amounts raise ``InputError`` with the reason.
    """
    cleaned = text.strip().replace(",", "").replace("_", "")
    if cleaned.startswith("-") and cleaned[1:].isdigit():
        raise InputError("An amount must be a positive number of chips.")
    if not cleaned.isdigit():
        raise InputError(f"{text.strip()[:20]!r} is not an amount: type a whole number, like 120.")
    return check_amount(int(cleaned))


def check_amount(amount: int) -> int:
    """``amount`` if it is a positive number of chips a table could hold; ``InputError``
    otherwise (slash-command options arrive as integers but are not range-checked)."""
    if amount < 1:
        raise InputError("An amount must be a positive number of chips.")
    if amount > MAX_AMOUNT:
        raise InputError(f"{amount:,} chips is more than any table holds.")
    return amount

"""The one root of every refusal a person can be shown, and the refusals all layers share.

An error that derives from ``HoldemError`` is expected: a person asked for something the
bot will not do, nothing changed, and ``str(error)`` is the short sentence to show them. The
ledger (``LedgerError``), the table runtime (``TableError``) and the front ends (``InputError``)
derive their own refusals from it, so a front end needs one ``except`` to tell a mistake from a
bug. Refusals that more than one layer raises (an amount out of range, a seat that is not
there, a hand still being played, a balance too small) are defined here once.
"""

from __future__ import annotations


class HoldemError(Exception):
    """A request was refused and nothing changed; ``str()`` is a sentence for the person."""


class InputError(HoldemError, ValueError):
    """Something a person typed or chose that the bot cannot use; ``str()`` says what to do."""


class InvalidAmount(InputError):
    """A chip amount that is not a whole number in the allowed range.

    >>> str(InvalidAmount.out_of_range("raise", 5, 40, 1_000))
    'The raise must be between 40 and 1,000 chips (you asked for 5).'
    """

    @classmethod
    def out_of_range(cls, what: str, amount: object, low: int, high: int) -> InvalidAmount:
        """The refusal for ``amount`` outside ``low``..``high``, naming the range."""
        if low > high:
            return cls(f"No {what} is possible right now (you asked for {amount}).")
        return cls(f"The {what} must be between {low:,} and {high:,} chips "
                   f"(you asked for {amount}).")


class NotSeated(HoldemError):
    """The person has no seat (or no chips) at this table."""

    def __init__(self, message: str = "You are not seated at this table.") -> None:
        super().__init__(message)


class HandInProgress(HoldemError):
    """The request must wait until the hand being played is over."""

    def __init__(self, what: str = "do that") -> None:
        super().__init__(f"A hand is being played; you can {what} when it is over.")


class NotEnoughChips(HoldemError):
    """A balance cannot pay for what was asked (a buy-in, a top-up)."""

"""The one root of every refusal a person can be shown, and the refusals all layers share.

An error that derives from ``HoldemError`` is expected: a person asked for something the
bot will not do, nothing changed, and ``error.message`` is the short sentence to show them, a
catalog ``Text`` that each front end renders in the reader's language (``str(error)`` is the
English sentence, for logs). The
ledger (``LedgerError``), the table runtime (``TableError``) and the front ends (``InputError``)
derive their own refusals from it, so a front end needs one ``except`` to tell a mistake from a
bug. Refusals that more than one layer raises (an amount out of range, a seat that is not
there, a hand still being played, a balance too small) are defined here once.
"""

from __future__ import annotations

from bot.i18n import Message, tr


class HoldemError(Exception):
    """A request was refused and nothing changed; ``message`` is a sentence for the person."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


class InputError(HoldemError, ValueError):
    """Something a person typed or chose that the bot cannot use; ``message`` says what to do."""


class InvalidAmount(InputError):
    """A chip amount that is not a whole number in the allowed range.

    >>> str(InvalidAmount.out_of_range(tr("raise"), 5, 40, 1_000))
    'The raise must be between 40 and 1,000 chips (you asked for 5).'
    """

    @classmethod
    def out_of_range(cls, what: Message, amount: object, low: int, high: int) -> InvalidAmount:
        """The refusal for ``amount`` outside ``low``..``high``, naming the range."""
        if low > high:
            return cls(tr("No {what} is possible right now (you asked for {amount}).",
                          what=what, amount=amount))
        return cls(tr("The {what} must be between {low} and {high} chips (you asked for "
                      "{amount}).", what=what, low=low, high=high, amount=amount))


class NotSeated(HoldemError):
    """The person has no seat (or no chips) at this table."""

    def __init__(self, message: Message | None = None) -> None:
        super().__init__(message or tr("You are not seated at this table."))


class HandInProgress(HoldemError):
    """The request must wait until the hand being played is over."""

    def __init__(self, what: Message | None = None) -> None:
        super().__init__(tr("A hand is being played; you can {what} when it is over.",
                            what=what or tr("do that")))


class NotEnoughChips(HoldemError):
    """A balance cannot pay for what was asked (a buy-in, a top-up)."""

"""Mistakes a player can make at a table, each with a short sentence to show them.

Every ``TableError`` is an expected user error: the front end shows ``str(error)`` to that
person only, and nothing at the table has changed.
"""

from __future__ import annotations


class TableError(Exception):
    """A request the table refused; ``str()`` is a short sentence for the player."""


class InvalidSettings(TableError, ValueError):
    """A table or server setting has a value that cannot be used."""


class NoTableHere(TableError):
    """The channel has no table."""

    def __init__(self) -> None:
        super().__init__("There is no table in this channel. Use /join to open one.")


class TableClosed(TableError):
    """The table is shutting down and takes no more requests."""

    def __init__(self) -> None:
        super().__init__("This table is closing; try again in a moment.")


class AlreadySeated(TableError):
    """The person already has a seat at this table."""

    def __init__(self) -> None:
        super().__init__("You are already seated at this table.")


class NotSeated(TableError):
    """The person has no seat at this table."""

    def __init__(self) -> None:
        super().__init__("You are not seated at this table.")


class TableFull(TableError):
    """Every seat is taken."""

    def __init__(self, max_seats: int) -> None:
        super().__init__(f"The table is full ({max_seats} seats).")
        self.max_seats = max_seats


class NotYourTurn(TableError):
    """Someone else is to act, or no action is awaited (also what a second click gets)."""

    def __init__(self) -> None:
        super().__init__("It is not your turn.")


class IllegalAction(TableError):
    """The engine refused the action; the message says what is allowed."""


class InvalidAmount(TableError):
    """An amount outside the allowed range."""

    def __init__(self, what: str, amount: object, low: int, high: int) -> None:
        if low > high:
            text = f"No {what} is possible right now (you asked for {amount})."
        else:
            text = (f"The {what} must be between {low:,} and {high:,} chips "
                    f"(you asked for {amount}).")
        super().__init__(text)
        self.amount = amount
        self.low = low
        self.high = high


class NotEnoughChips(TableError):
    """The person's balance cannot pay for the buy-in or top-up (the ledger's sentence)."""


class LedgerRefused(TableError):
    """The chip ledger refused a request; the message is the ledger's own sentence."""


class HandInProgress(TableError):
    """The request must wait until the current hand is over."""

    def __init__(self, what: str = "do that") -> None:
        super().__init__(f"A hand is being played; you can {what} when it is over.")


class NotEnoughPlayers(TableError):
    """A hand cannot start: fewer than two seated players have chips."""

    def __init__(self) -> None:
        super().__init__("A hand needs at least two seated players with chips.")


class UnknownBot(TableError):
    """No bot of that name (or no bot at all) sits at the table."""

    def __init__(self, name: str | None) -> None:
        super().__init__(f"There is no bot called {name!r} here." if name
                         else "There is no bot at this table.")


class UnknownBotLevel(TableError, ValueError):
    """A bot level that does not exist."""

    def __init__(self, level: str, levels: tuple[str, ...]) -> None:
        super().__init__(f"Unknown bot level {level!r}; choose one of {', '.join(levels)}.")


class NoQuestionPending(TableError):
    """A run-it-twice answer arrived when nobody asked this person."""

    def __init__(self) -> None:
        super().__init__("There is no run-it-twice question for you right now.")

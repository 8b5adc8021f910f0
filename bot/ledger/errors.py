"""The ledger's refusals, each carrying the sentence to show the person who asked.

They all derive from ``LedgerError``, itself a ``bot.errors.HoldemError``, so a front end tells
a refused request from a bug with one ``except``. Refusals that other layers raise as well (an
amount out of range, no seat, a hand being played, too few chips) are ``bot.errors``' own:
the ledger raises ``InvalidAmount``, ``NotSeated`` and ``HandInProgress`` directly, and
``InsufficientChips`` is its ``NotEnoughChips``.

Every refusal is raised before anything is written, or inside the write's own transaction (or
savepoint), so a refused request changes nothing.
"""

from __future__ import annotations

import math

from bot.errors import HoldemError, InputError, NotEnoughChips
from bot.i18n import Text, tr


class LedgerError(HoldemError):
    """An operation was refused; ``message`` is a short sentence to show the user."""


class LedgerUnavailable(LedgerError):
    """The database cannot be reached (a file that cannot be opened, a read-only or full disk):
    nothing was changed, and trying again later may work. ``reason`` says why, when known."""

    def __init__(self, reason: str | None = None) -> None:
        super().__init__(
            tr("The chip ledger is unavailable right now ({reason}), so no chips can move and "
               "nothing changed. Please try again in a minute.", reason=reason) if reason else
            tr("The chip ledger is unavailable right now, so no chips can move and nothing "
               "changed. Please try again in a minute."))
        self.reason = reason or "the database does not answer"


class InvalidRequest(LedgerError, InputError):
    """An argument is malformed (wrong type, unknown option, empty name)."""


class UnknownPlayer(LedgerError):
    """The person has no account in this server yet."""

    def __init__(self, guild_id: int, user_id: int) -> None:
        super().__init__(tr("You have no chips here yet: play or claim your daily bonus first."))
        self.guild_id = guild_id
        self.user_id = user_id


class InsufficientChips(NotEnoughChips, LedgerError):
    """A person asked to move more chips than their balance holds."""

    def __init__(self, needed: int, balance: int) -> None:
        super().__init__(tr("You need {needed} chips but your balance is {balance}.",
                            needed=needed, balance=balance))
        self.needed = needed
        self.balance = balance


class DailyNotReady(LedgerError):
    """The daily bonus was already claimed within the interval."""

    def __init__(self, seconds_left: float) -> None:
        self.seconds_left = seconds_left
        super().__init__(tr("Your next daily bonus is ready in {wait}.",
                            wait=_duration(seconds_left)))


class UnknownHand(LedgerError):
    """No hand with this id is waiting to be settled or refunded."""


class UnbalancedHand(LedgerError):
    """The stacks given for a hand do not match the chips the ledger holds for it."""


class TournamentNotOpen(LedgerError):
    """The tournament cannot take this request in its state: registration is closed (it has
    started, finished or was cancelled), it has not started yet (finishing it), or there is no
    such tournament. ``status`` is its status, ``None`` when unknown."""

    def __init__(self, status: str | None) -> None:
        self.status = status
        if status == "registering":
            message = tr("This tournament has not started yet.")
        elif status == "running":
            message = tr("This tournament has already started.")
        elif status == "finished":
            message = tr("This tournament is already over.")
        elif status == "cancelled":
            message = tr("This tournament was cancelled.")
        else:
            message = tr("There is no such tournament.")
        super().__init__(message)


class AlreadyRegistered(LedgerError):
    """The player is already registered for the tournament."""

    def __init__(self) -> None:
        super().__init__(tr("You are already registered for this tournament."))


class NotRegistered(LedgerError):
    """The player is not registered for the tournament."""

    def __init__(self) -> None:
        super().__init__(tr("You are not registered for this tournament."))


class UnbalancedPrizes(UnbalancedHand):
    """A tournament's prizes do not add up to its prize pool (or name a player who did not
    enter it): paying them would create or lose chips, so nothing is paid."""

    def __init__(self, prizes: int, pool: int) -> None:
        super().__init__(tr("The prizes add up to {prizes} chips but the prize pool holds "
                            "{pool}.", prizes=prizes, pool=pool))
        self.prizes = prizes
        self.pool = pool


def _duration(seconds: float) -> Text:
    """Say how long to wait, rounded up to the minute.

    >>> str(_duration(3 * 3600 + 4 * 60 + 1)), str(_duration(20))
    ('3 h 5 min', '1 min')
    """
    minutes = max(1, math.ceil(seconds / 60))
    hours, minutes = divmod(minutes, 60)
    if hours:
        return tr("{hours} h {minutes} min", hours=hours, minutes=minutes)
    return tr("{minutes} min", minutes=minutes)


class ShardsTaken(LedgerError):
    """Another process holds a live claim on a shard this process wants (or runs with another
    shard count, so its guilds overlap these). ``seconds_left`` is how long until that claim
    lapses unless its holder renews it; ``expires_at`` is when, on the ledger's clock."""

    def __init__(self, shard_id: int, shard_count: int, holder: str, expires_at: float,
                 now: float, *, wanted_count: int) -> None:
        self.shard_id = shard_id
        self.shard_count = shard_count
        self.holder = holder
        self.expires_at = expires_at
        self.seconds_left = max(0.0, expires_at - now)
        other_count = (f"; every process must run with the same SHARD_COUNT, not "
                       f"{shard_count} and {wanted_count}") if shard_count != wanted_count else ""
        super().__init__(
            f"shard {shard_id} of {shard_count} is claimed by another process ({holder}); its "
            f"claim lapses in {self.seconds_left:.1f} s unless that process renews it, and a "
            f"shard runs in one process at a time{other_count}")


class ShardClaimLost(LedgerError):
    """This process's claim on its shards is gone: it lapsed and another process took the
    shards over (and recovered their hands). The process must stop owning their tables."""

    def __init__(self, shards: str) -> None:
        super().__init__(f"the claim on {shards} was taken over by another process after it "
                         "lapsed; this process no longer owns their tables")

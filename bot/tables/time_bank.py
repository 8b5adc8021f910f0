"""A person's time bank: extra seconds that start when their turn timer runs out.

The size of the bank is the server setting ``time_bank`` (``TableSettings.time_bank``, 0 turns
it off); a bank keeps only what it has used, so a new size applies to everyone at once. What
was used comes back by ``REFILL_SECONDS`` every ``REFILL_EVERY_HANDS`` hands the person is
dealt into, never beyond the size, as poker sites refill theirs. The bank is the person's,
not their seat's: leaving and sitting down again does not refill it
(``bot.tables.lobby.BANK_KEPT_SECONDS``).
"""

from __future__ import annotations

from dataclasses import dataclass

REFILL_SECONDS = 5.0
REFILL_EVERY_HANDS = 5
"""5 s back every 5 hands dealt in: on average one second a hand, so an empty 30 s bank is
full again after 30 hands (about half an hour at a hand a minute). Someone who thinks hard
now and then always has it; someone who stalls every hand gets a second a hand, not a
second timer."""


@dataclass(slots=True)
class TimeBank:
    """The seconds of a person's bank used so far, and the hands counted towards the next
    refill.

    >>> bank = TimeBank()
    >>> bank.spend(12.5); bank.left(30.0)
    17.5
    >>> for _ in range(REFILL_EVERY_HANDS): bank.hand_played()
    >>> bank.left(30.0)
    22.5
    >>> bank.left(5.0)  # the server made the bank smaller: never below empty
    0.0
    """

    used: float = 0.0
    """Seconds used and not yet refilled."""
    hands: int = 0
    """Hands dealt in since the last refill (counted only while something is used)."""

    def left(self, size: float) -> float:
        """Seconds left of a bank of ``size`` seconds."""
        return max(size - self.used, 0.0)

    def spend(self, seconds: float) -> None:
        """``seconds`` of the bank ran (at a turn, after the timer)."""
        self.used += max(seconds, 0.0)

    def hand_played(self) -> None:
        """The person was dealt into a hand that ended: refill every
        ``REFILL_EVERY_HANDS``."""
        if self.used <= 0:
            self.hands = 0
            return
        self.hands += 1
        if self.hands >= REFILL_EVERY_HANDS:
            self.hands = 0
            self.used = max(self.used - REFILL_SECONDS, 0.0)

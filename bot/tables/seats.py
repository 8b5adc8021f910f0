"""A seat at a table: who holds it, their chips between hands, and their lobby flags."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.ledger import PlayerKey
from bot.tables.bots import Bot
from bot.tables.time_bank import TimeBank

__all__ = ["PlayerKey", "Seat"]


@dataclass(slots=True, eq=False)
class Seat:
    """One occupied seat. ``stack`` is the chips between hands: during a hand the hand holds
    the live stacks, and ``stack`` changes only when the hand is settled."""

    index: int
    name: str
    user_id: int | None
    bot: Bot | None
    stack: int
    sitting_out: bool = False
    leaving: bool = False
    timeouts_in_a_row: int = 0
    """Turns in a row the person let run out; only acting clears it (``Table.sit_in``)."""
    hands_sat_out: int = 0
    """Hands dealt at a cash table without this seat, while it sat out, since it was last
    dealt in: sitting in does not clear it (``Table._dealt``)."""
    straddles: bool = False
    """The person chose to post the voluntary straddle whenever the straddle's seat is theirs
    (``/straddle``); bots straddle by ``engine.strategies.bot_straddles``."""
    sat_out_since_last_hand: bool = False
    """The seat sat out at some moment since the last hand ended: a hand dealt without it
    counts as sat out even if it sits in before that hand ends."""
    time_bank: TimeBank = field(default_factory=TimeBank)
    """The person's bank: it comes with them to this seat and goes back to the lobby when they
    leave (``Lobby``)."""

    @property
    def key(self) -> PlayerKey:
        """The ledger's name for this seat's holder."""
        return self.user_id if self.user_id is not None else self.name

    @property
    def is_bot(self) -> bool:
        """True for a bot opponent."""
        return self.bot is not None

    def can_be_dealt_in(self) -> bool:
        """True when the seat takes part in the next hand: present, playing, with chips."""
        return not self.sitting_out and not self.leaving and self.stack > 0

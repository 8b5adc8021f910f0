"""Gateway outages: while a shard's connection to the front end is down, no click from its
guilds can reach their tables, so their clocks stop.

The front end tells the ``TableManager`` when a shard's connection (Discord's gateway) drops
and when it is back (``gateway_down`` / ``gateway_up``). Meanwhile the tables of that shard's
guilds freeze the turn timer and time bank of the person to act, their bots wait, and they
deal no new hand; when it is back the person to act gets the time they had left plus
``GRACE_SECONDS``. ``Outages.offline_seconds`` adds up the time each guild was cut off, so
that other clocks (tournament levels) can leave it out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

from bot.shards import shard_of

GRACE_SECONDS = 10.0
"""Added to what a person had left of their turn when the connection is back: their own
client reconnects too, and the table message shows the new countdown only after its next
edit, so someone who had a second left would otherwise be timed out before they could see
that the table is live again."""


class Outages:
    """Which shards' connections are down now, and for how long each was down in all.

    ``clock`` is monotonic (``time.monotonic``, the event loop's clock by default).

    >>> now = [0.0]
    >>> outages = Outages(2, clock=lambda: now[0])
    >>> guild = 1 << 22  # on shard 1 of 2
    >>> outages.down(1), outages.down(1), outages.is_down(guild), outages.is_down(0)
    (True, False, True, False)
    >>> now[0] = 30.0; outages.offline_seconds(guild)
    30.0
    >>> outages.up(1), outages.up(1)
    (True, False)
    >>> now[0] = 50.0; outages.offline_seconds(guild), outages.offline_seconds(0)
    (30.0, 0.0)
    """

    def __init__(self, shard_count: int = 1, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._count = shard_count
        self._clock = clock
        self._down_since: dict[int, float] = {}
        self._offline: dict[int, float] = {}
        self._watchers: dict[int, set[Callable[[], None]]] = {}

    def shard(self, guild_id: int) -> int:
        """The shard whose connection carries the guild's clicks."""
        return shard_of(guild_id, self._count)

    def down(self, shard_id: int) -> bool:
        """The shard's connection dropped; True unless it was down already (discord.py
        reports a drop again at every failed attempt to reconnect)."""
        if shard_id in self._down_since:
            return False
        self._down_since[shard_id] = self._clock()
        self._tell(shard_id)
        return True

    def up(self, shard_id: int) -> bool:
        """The shard's connection is back; True unless it was up already."""
        since = self._down_since.pop(shard_id, None)
        if since is None:
            return False
        self._offline[shard_id] = self._offline.get(shard_id, 0.0) + self._clock() - since
        self._tell(shard_id)
        return True

    def is_down(self, guild_id: int) -> bool:
        """True while no click from the guild can reach the bot."""
        return self.shard_is_down(self.shard(guild_id))

    def shard_is_down(self, shard_id: int) -> bool:
        """True while the shard's connection is down."""
        return shard_id in self._down_since

    def offline_seconds(self, guild_id: int) -> float:
        """Seconds the guild's connection has been down in all since this process started,
        the outage in progress included: a clock that must not count them subtracts the
        growth of this figure over the period it times."""
        shard_id = self.shard(guild_id)
        since = self._down_since.get(shard_id)
        ongoing = 0.0 if since is None else self._clock() - since
        return self._offline.get(shard_id, 0.0) + ongoing

    def link(self, guild_id: int) -> GuildLink:
        """The guild's view of its connection, for one of its tables."""
        return GuildLink(self, self.shard(guild_id))

    @contextmanager
    def watch(self, shard_id: int, wake: Callable[[], None]) -> Iterator[None]:
        """Within the ``with`` block, ``wake()`` is called whenever the shard's connection
        drops or comes back."""
        watchers = self._watchers.setdefault(shard_id, set())
        watchers.add(wake)
        try:
            yield
        finally:
            watchers.discard(wake)
            if not watchers:
                del self._watchers[shard_id]

    def _tell(self, shard_id: int) -> None:
        for wake in list(self._watchers.get(shard_id, ())):
            wake()


class GuildLink:
    """One guild's connection as its table sees it: is it down, and a way to be woken
    when that changes."""

    __slots__ = ("_outages", "_shard")

    def __init__(self, outages: Outages, shard_id: int) -> None:
        self._outages = outages
        self._shard = shard_id

    @property
    def down(self) -> bool:
        """True while no click can reach the table."""
        return self._outages.shard_is_down(self._shard)

    def watch(self, wake: Callable[[], None]) -> AbstractContextManager[None]:
        """Within the ``with`` block, ``wake()`` is called whenever the connection drops or
        comes back (a table's runner passes its doorbell's ``ring``)."""
        return self._outages.watch(self._shard, wake)

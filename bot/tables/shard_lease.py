"""The process's claim on its shards, from start-up to shutdown.

``acquire`` takes the claim before anything is recovered. When another process holds a
shard, it watches that claim: a live process renews its claim every third of its lease, so a
renewal seen while waiting means the shards are in use (``ShardsTaken`` is raised), while a
claim that lapses unrenewed belonged to a process that died, and is taken over. ``keep``
renews the claim every third of the lease until ``release``; if a renewal finds the claim
taken over, ``on_lost`` is called once and the heartbeat stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.ledger import ShardClaimLost, ShardsTaken
from bot.shards import ShardSet

log = logging.getLogger(__name__)

HEARTBEATS_PER_LEASE = 3
"""Renewals per lease: two may fail or come late (a busy database waits up to 5 s for its
lock) before the claim lapses."""


class ClaimLedger(Protocol):
    """The shard-claim operations of ``bot.ledger.Ledger``."""

    async def claim_shards(self, owner: str, shards: ShardSet, lease: float) -> None: ...

    async def renew_shards(self, owner: str, shards: ShardSet, lease: float) -> None: ...

    async def release_shards(self, owner: str) -> None: ...


class ShardLease:
    """``owner``'s claim on ``shards``, ``lease`` seconds long, kept alive by a heartbeat."""

    def __init__(self, ledger: ClaimLedger, owner: str, shards: ShardSet, lease: float) -> None:
        self.owner = owner
        self.shards = shards
        self.lease = lease
        self._ledger = ledger
        self._heartbeat: asyncio.Task[None] | None = None

    async def acquire(self, *, wait: bool = False) -> None:
        """Claim the shards, waiting for a dead holder's claim to lapse. ``ShardsTaken`` when
        a holder renews its claim meanwhile (it is alive), unless ``wait``: then until it
        stops and gives the claim up (a deploy's new process, started before the old one
        stops)."""
        seen: ShardsTaken | None = None
        while True:
            try:
                await self._ledger.claim_shards(self.owner, self.shards, self.lease)
                return
            except ShardsTaken as taken:
                if not wait and seen is not None and (taken.holder != seen.holder
                                                      or taken.expires_at > seen.expires_at):
                    raise
                seen = taken
                log.info("waiting for a claim to lapse: %s", taken)
                await asyncio.sleep(min(taken.seconds_left, self.lease / HEARTBEATS_PER_LEASE))

    def keep(self, on_lost: Callable[[ShardClaimLost], Awaitable[None]]) -> None:
        """Start the heartbeat on the running loop."""
        self._heartbeat = asyncio.get_running_loop().create_task(
            self._beat(on_lost), name="shard-heartbeat")

    async def release(self) -> None:
        """Stop the heartbeat and give the claim up (once the tables are closed)."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
        await self._ledger.release_shards(self.owner)

    async def _beat(self, on_lost: Callable[[ShardClaimLost], Awaitable[None]]) -> None:
        while True:
            await asyncio.sleep(self.lease / HEARTBEATS_PER_LEASE)
            try:
                await self._ledger.renew_shards(self.owner, self.shards, self.lease)
            except ShardClaimLost as lost:
                log.critical("%s", lost)
                await on_lost(lost)
                return
            except Exception:  # the ledger is failing: the next beat tries again
                log.exception("could not renew the claim on %s", self.shards)

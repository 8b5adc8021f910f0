"""Which servers a process serves: the Discord shards it runs, and the guilds on them.

Discord spreads a bot's servers over ``count`` shards, guild ``g`` on shard
``(g >> 22) % count``; a process runs some of them (``SHARD_IDS``) and owns the tables of
exactly those guilds. One process without sharding settings runs shard 0 of 1: every guild.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_SHARDS = 10_000
"""More shards than any bot needs (Discord asks for one per 1,000 to 2,500 servers)."""


def shard_of(guild_id: int, count: int) -> int:
    """The shard a guild's events arrive on, as Discord computes it.

    >>> shard_of(41771983423143937, 2), shard_of(41771983423143937 + (1 << 22), 2)
    (0, 1)
    """
    return (guild_id >> 22) % count


@dataclass(frozen=True, slots=True)
class ShardSet:
    """The shards ``ids`` (ascending, distinct) out of ``count`` that one process runs.

    >>> ShardSet(4, (0, 1)).owns(1 << 22), str(ShardSet(4, (0, 1)))
    (True, 'shards 0, 1 of 4')
    """

    count: int = 1
    ids: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_SHARDS:
            raise ValueError(f"a shard count is 1 to {MAX_SHARDS}, not {self.count}")
        if not self.ids:
            raise ValueError("a process runs at least one shard")
        for shard_id in self.ids:
            if not 0 <= shard_id < self.count:
                raise ValueError(f"shard {shard_id} is outside 0..{self.count - 1}")
        if len(set(self.ids)) != len(self.ids):
            raise ValueError("a shard is listed twice")
        if list(self.ids) != sorted(self.ids):
            raise ValueError("shard ids must be in ascending order")

    @classmethod
    def all_of(cls, count: int) -> ShardSet:
        """Every shard of ``count``."""
        return cls(count, tuple(range(count)))

    @property
    def is_everything(self) -> bool:
        """True when the process runs every shard, so it owns every guild."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int) -> bool:
        """Whether the guild's events arrive on one of these shards."""
        return shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        noun = "shard" if len(self.ids) == 1 else "shards"
        return f"{noun} {', '.join(map(str, self.ids))} of {self.count}"

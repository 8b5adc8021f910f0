"""The fake Discord shards like Discord: each connection names its shard in IDENTIFY, gets
READY and GUILD_CREATE for the guilds on that shard only, and each guild's events; direct
messages go to shard 0; ``GET /gateway/bot`` recommends the fake's shard count."""

from __future__ import annotations

import discord
from discord import app_commands

from tests.fake_discord import FakeDiscord


class ShardBot(discord.AutoShardedClient):
    """Answers /where with the shards it runs."""

    def __init__(self, shard_ids: list[int] | None, shard_count: int | None) -> None:
        intents = discord.Intents(guilds=True)
        if shard_ids is None:
            super().__init__(intents=intents, shard_count=shard_count, guild_ready_timeout=0.01)
        else:
            super().__init__(intents=intents, shard_ids=shard_ids, shard_count=shard_count,
                             guild_ready_timeout=0.01)
        self.tree = app_commands.CommandTree(self)

    async def setup_hook(self) -> None:
        @self.tree.command(description="Which shard answers")
        async def where(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"shards {self.shard_ids}", ephemeral=True)

        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s pause between two shards' IDENTIFY: the fake has no rate limit."""


async def test_two_processes_each_get_the_guilds_and_events_of_their_shard() -> None:
    async with FakeDiscord(shard_count=2) as fake:
        first = fake.add_guild("First", channels=["poker"], shard=0)
        second = fake.add_guild("Second", channels=["poker"], shard=1)
        alice = fake.add_user("alice")
        on_0, on_1 = ShardBot([0], 2), ShardBot([1], 2)
        await fake.run_client(on_0)
        await fake.run_client(on_1)

        assert [guild.id for guild in on_0.guilds] == [first.id]
        assert [guild.id for guild in on_1.guilds] == [second.id]
        answer = await fake.slash(alice, second.channel("poker"), "where")
        assert answer.content == "shards [1]"
        answer = await fake.slash(alice, first.channel("poker"), "where")
        assert answer.content == "shards [0]"


async def test_a_client_without_a_shard_count_runs_the_recommended_shards() -> None:
    async with FakeDiscord(shard_count=3) as fake:
        guilds = [fake.add_guild(f"Guild {shard}", shard=shard) for shard in (2, 0, 1)]
        client = ShardBot(None, None)
        await fake.run_client(client)
        assert client.shard_count == 3
        assert {guild.id: guild.shard_id for guild in client.guilds} == {
            guilds[0].id: 2, guilds[1].id: 0, guilds[2].id: 1}

"""The fake Discord drives the real discord.py client: commands, buttons, modals, DMs, restarts."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fake_discord import CallKind, FakeDiscord, InteractionRefused, NotAnswered
from tests.fake_discord.records import FakeGuild, InteractionRecord
from tests.fake_discord.rest import RateLimits

PNG_BYTES = b"\x89PNG\r\n\x1a\nfake image"
Button = discord.ui.Button[discord.ui.View]


class RaiseModal(discord.ui.Modal, title="Raise"):
    amount: discord.ui.TextInput[RaiseModal] = discord.ui.TextInput(
        label="Raise to", custom_id="amount")

    def __init__(self) -> None:
        super().__init__(custom_id="table:raise-modal")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"raised to {self.amount.value}")


class TableView(discord.ui.View):
    """A persistent view: stable custom_ids, no timeout, so it survives a restart."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="table:join")
    async def join(self, interaction: discord.Interaction, _: Button) -> None:
        await interaction.response.edit_message(content=f"{interaction.user.name} joined")

    @discord.ui.button(label="Raise", custom_id="table:raise")
    async def raise_(self, interaction: discord.Interaction, _: Button) -> None:
        await interaction.response.send_modal(RaiseModal())


class SmokeBot(commands.Bot):
    """A throwaway bot using each kind of interaction the real front end uses."""

    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned,
                         intents=discord.Intents.default(), guild_ready_timeout=0.01)
        self.dm_errors: list[int] = []

    async def setup_hook(self) -> None:
        self.add_view(TableView())

        @self.tree.command(description="Check the bot answers")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

        @self.tree.command(description="Open a table")
        async def table(interaction: discord.Interaction,
                        stake: app_commands.Range[int, 1, 1000]) -> None:
            await interaction.response.send_message(f"opening a {stake} table", ephemeral=True)
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send(
                f"Table {stake}", view=TableView(),
                file=discord.File(io.BytesIO(PNG_BYTES), "table.png"))

        @self.tree.command(description="Send me my cards")
        async def cards(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            try:
                await interaction.user.send("A♠ K♠")
            except discord.Forbidden as error:
                self.dm_errors.append(error.code)
                await interaction.followup.send("Your DMs are closed", ephemeral=True)
            else:
                await interaction.edit_original_response(content="Check your DMs")

        @self.tree.command(description="Give chips")
        @app_commands.default_permissions(manage_guild=True)
        async def grant(interaction: discord.Interaction, member: discord.Member) -> None:
            await interaction.response.send_message(f"granted to {member.name}")

        @self.tree.command(description="Never answers")
        async def silent(interaction: discord.Interaction) -> None:
            return

        await self.tree.sync()


@dataclass
class Scene:
    fake: FakeDiscord
    guild: FakeGuild
    alice: int
    bob: int
    moderator: int

    @property
    def channel(self) -> int:
        return self.guild.channel("poker")


@pytest.fixture
async def scene() -> AsyncIterator[Scene]:
    async with FakeDiscord(answer_timeout=2.0) as fake:
        guild = fake.add_guild("Poker Club", channels=["poker", "lobby"])
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        moderator = fake.add_user("mod", permissions=discord.Permissions(manage_guild=True))
        await fake.run_client(SmokeBot())
        yield Scene(fake, guild, alice, bob, moderator)


async def test_the_bot_logs_in_and_syncs_its_commands(scene: Scene) -> None:
    names = {command["name"] for command in scene.fake.commands()}
    assert names == {"ping", "table", "cards", "grant", "silent"}
    assert scene.fake.count(CallKind.LOGIN) == 1


async def test_slash_command_gets_an_ephemeral_reply(scene: Scene) -> None:
    reply = await scene.fake.slash(scene.alice, scene.channel, "ping")
    assert (reply.response_type, reply.content, reply.ephemeral) == (4, "pong", True)
    assert scene.fake.channel_messages(scene.channel) == []
    assert [m.content for m in scene.fake.channel_messages(scene.channel,
                                                          include_ephemeral=True)] == ["pong"]


async def test_channel_message_keeps_its_buttons_and_attachment(scene: Scene) -> None:
    reply = await scene.fake.slash(scene.alice, scene.channel, "table", stake=50)
    assert reply.content == "opening a 50 table"
    await scene.fake.wait_until(lambda: scene.fake.channel_messages(scene.channel))
    [posted] = scene.fake.channel_messages(scene.channel)
    assert posted.content == "Table 50"
    assert posted.custom_ids() == ["table:join", "table:raise"]
    assert posted.attachment("table.png") == PNG_BYTES
    assert scene.fake.count(CallKind.CHANNEL_MESSAGE_CREATE, channel_id=scene.channel) == 1


async def test_persistent_button_works_after_a_restart(scene: Scene) -> None:
    fake = scene.fake
    await fake.slash(scene.alice, scene.channel, "table", stake=10)
    await fake.wait_until(lambda: fake.channel_messages(scene.channel))
    table_id = fake.channel_messages(scene.channel)[0].id

    click = await fake.click(scene.alice, table_id, "table:join")
    assert click.response_type == 7
    await fake.stop_client()
    await fake.run_client(SmokeBot())
    again = await fake.click(scene.bob, table_id, "table:join")

    assert again.response_type == 7
    assert fake.message(table_id).content == "bob joined"
    assert fake.message(table_id).edit_count == 2


async def test_modal_opened_by_a_button_edits_the_message_on_submit(scene: Scene) -> None:
    fake = scene.fake
    await fake.slash(scene.alice, scene.channel, "table", stake=10)
    await fake.wait_until(lambda: fake.channel_messages(scene.channel))
    table_id = fake.channel_messages(scene.channel)[0].id

    opened = await fake.click(scene.alice, table_id, "table:raise")
    assert opened.response_type == 9
    assert opened.modal is not None and opened.modal["custom_id"] == "table:raise-modal"
    submitted = await fake.submit_modal(scene.alice, "table:raise-modal", {"amount": "120"})

    assert submitted.response_type == 7
    assert fake.message(table_id).content == "raised to 120"


async def test_dm_reaches_a_user_with_open_dms(scene: Scene) -> None:
    reply = await scene.fake.slash(scene.alice, scene.channel, "cards")
    await scene.fake.wait_until(lambda: reply.content == "Check your DMs")
    assert [message.content for message in scene.fake.dms(scene.alice)] == ["A♠ K♠"]
    assert reply.ephemeral


async def test_dm_to_a_user_with_closed_dms_fails_with_50007(scene: Scene) -> None:
    scene.fake.close_dms(scene.bob)
    reply = await scene.fake.slash(scene.bob, scene.channel, "cards")
    await scene.fake.wait_until(lambda: reply.followups)
    assert scene.fake.dms(scene.bob) == []
    assert [followup.content for followup in reply.followups] == ["Your DMs are closed"]
    assert reply.followups[0].is_ephemeral


async def test_discord_refuses_options_outside_the_declared_range(scene: Scene) -> None:
    with pytest.raises(InteractionRefused, match="at most 1000"):
        await scene.fake.slash(scene.alice, scene.channel, "table", stake=5000)
    with pytest.raises(InteractionRefused, match="required"):
        await scene.fake.slash(scene.alice, scene.channel, "table")


async def test_command_with_default_permissions_needs_them(scene: Scene) -> None:
    with pytest.raises(InteractionRefused, match="lacks the permissions"):
        await scene.fake.slash(scene.alice, scene.channel, "grant", member=scene.bob)
    reply = await scene.fake.slash(scene.moderator, scene.channel, "grant", member=scene.bob)
    assert reply.content == "granted to bob"


async def test_an_unanswered_interaction_is_reported(scene: Scene) -> None:
    scene.fake.answer_timeout = 0.2
    with pytest.raises(NotAnswered, match="/silent"):
        await scene.fake.slash(scene.alice, scene.channel, "silent")


async def test_leaving_restores_discord_settings_and_leaves_no_tasks() -> None:
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    async with FakeDiscord() as fake:
        fake.add_guild()
        await fake.run_client(SmokeBot())
        assert discord.http.Route.BASE.startswith("http://127.0.0.1:")
    restored = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    assert restored == (base, gateway)
    await asyncio.sleep(0)
    assert asyncio.all_tasks() == {asyncio.current_task()}


async def test_calls_are_told_global_limited_or_exempt_and_old_tokens_fail(scene: Scene) -> None:
    fake = scene.fake
    since = fake.now()
    await fake.slash(scene.alice, scene.channel, "table", stake=10)
    await fake.wait_until(lambda: fake.channel_messages(scene.channel))
    table_id = fake.channel_messages(scene.channel)[0].id
    click = await fake.click(scene.alice, table_id, "table:join")
    # The command's and the click's answers are exempt; posting in the channel counts.
    assert [call.kind for call in fake.global_limited(since=since)] == [
        CallKind.CHANNEL_MESSAGE_CREATE]

    original = (f"{fake.world.base_url}/api/v10/webhooks/{fake.bot_user_id}/{click.token}"
                "/messages/@original")
    async with aiohttp.ClientSession() as session:
        async with session.patch(original, json={"content": "edited"}) as fresh:
            assert fresh.status == 200
        click.token_expired = True
        async with session.patch(original, json={"content": "too late"}) as late:
            assert (late.status, (await late.json())["code"]) == (401, 50027)
    assert fake.message(table_id).content == "edited"
    assert [call.global_limited for call in fake.calls[-2:]] == [False, False]


async def test_a_deleted_original_message_cannot_be_edited_through_its_token(
        scene: Scene) -> None:
    fake = scene.fake
    await fake.slash(scene.alice, scene.channel, "table", stake=10)
    await fake.wait_until(lambda: fake.channel_messages(scene.channel))
    table_id = fake.channel_messages(scene.channel)[0].id
    click = await fake.click(scene.alice, table_id, "table:join")
    fake.message(table_id).deleted = True

    original = (f"{fake.world.base_url}/api/v10/webhooks/{fake.bot_user_id}/{click.token}"
                "/messages/@original")
    async with aiohttp.ClientSession() as session, \
            session.patch(original, json={"content": "edited"}) as refused:
        assert (refused.status, (await refused.json())["code"]) == (404, 10008)


async def test_an_interaction_answer_comes_back_only_when_asked_for(scene: Scene) -> None:
    fake = scene.fake
    await fake.slash(scene.alice, scene.channel, "table", stake=10)
    await fake.wait_until(lambda: fake.channel_messages(scene.channel))
    table_id = fake.channel_messages(scene.channel)[0].id
    clicks = [InteractionRecord(id=fake.world.new_interaction_id(), token=f"token-{index}",
                                type=3, user_id=scene.alice, channel_id=scene.channel,
                                created=fake.world.elapsed(), source_message_id=table_id)
              for index in range(2)]  # clicks the bot did not see: the test answers them
    for click in clicks:
        fake.world.add_interaction(click)
    async with aiohttp.ClientSession() as session:
        for click, query in zip(clicks, ("", "?with_response=true"), strict=True):
            callback = (f"{fake.world.base_url}/api/v10/interactions/{click.id}/{click.token}"
                        f"/callback{query}")
            async with session.post(callback, json={"type": 6}) as answer:
                assert answer.status == (204 if not query else 200)
                if query:
                    assert (await answer.json())["interaction"]["id"] == str(click.id)


async def test_answers_carry_rate_limit_headers_counted_per_bucket(scene: Scene) -> None:
    """discord.py runs requests of one route concurrently only when Discord's headers say how
    many are left; each channel's messages are a bucket of their own."""
    base = f"{scene.fake.api_base}/channels"
    async with aiohttp.ClientSession() as session:
        seen = []
        for channel in (scene.channel, scene.channel, scene.guild.channel("lobby")):
            async with session.post(f"{base}/{channel}/messages", json={"content": "hi"}) as sent:
                assert sent.status == 200
                seen.append(sent.headers)
    limit = int(seen[0]["X-RateLimit-Limit"])
    assert [int(headers["X-RateLimit-Remaining"]) for headers in seen] == [
        limit - 1, limit - 2, limit - 1]
    assert len({headers["X-RateLimit-Bucket"] for headers in seen}) == 1
    assert 0 <= float(seen[0]["X-RateLimit-Reset-After"]) <= RateLimits.window
    assert float(seen[0]["X-RateLimit-Reset"]) > 1e9
    assert scene.fake.calls[-1].size == len(b'{"content": "hi"}')


class ThreadBot(commands.Bot):
    """Opens threads and answers commands used in them."""

    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned,
                         intents=discord.Intents.default(), guild_ready_timeout=0.01)
        self.created: list[discord.Thread] = []

    async def setup_hook(self) -> None:
        @self.tree.command(description="Say where this is")
        async def where(interaction: discord.Interaction) -> None:
            channel = interaction.channel
            assert isinstance(channel, discord.Thread)
            await interaction.response.send_message(
                f"thread {channel.name} under {channel.parent_id}", ephemeral=True)

        await self.tree.sync()

    async def on_thread_create(self, thread: discord.Thread) -> None:
        self.created.append(thread)


async def test_threads_are_created_announced_used_and_archived() -> None:
    async with FakeDiscord(answer_timeout=2.0) as fake:
        guild = fake.add_guild("Poker Club", channels=["poker"])
        alice = fake.add_user("alice")
        bot = ThreadBot()
        await fake.run_client(bot)
        parent = bot.get_channel(guild.channel("poker"))
        assert isinstance(parent, discord.TextChannel)

        thread = await parent.create_thread(name="Table 2", type=discord.ChannelType.public_thread)
        assert (thread.parent_id, thread.name) == (parent.id, "Table 2")
        await fake.wait_until(lambda: [t.id for t in bot.created] == [thread.id])
        [stored] = fake.threads(parent.id)
        assert (stored.id, stored.parent_id, stored.archived) == (thread.id, parent.id, False)
        assert fake.count(CallKind.THREAD_CREATE, channel_id=parent.id) == 1

        await thread.send("dealing here")
        assert [m.content for m in fake.channel_messages(thread.id)] == ["dealing here"]
        answer = await fake.slash(alice, thread.id, "where")
        assert answer.content == f"thread Table 2 under {parent.id}"

        await thread.edit(archived=True)
        assert stored.archived
        await fake.wait_until(lambda: bot.get_channel(thread.id) is None)  # THREAD_UPDATE
        await thread.send("back")  # a message unarchives a thread that is not locked
        assert not stored.archived
        with pytest.raises(discord.HTTPException):  # no thread in a thread
            await bot.http.start_thread_without_message(
                thread.id, name="nested", auto_archive_duration=60, type=11)

        message = fake.channel_messages(thread.id)[-1]
        await fake.delete_channel(thread.id)
        assert fake.threads(parent.id) == []
        with pytest.raises(discord.NotFound):  # as Discord answers: no server error, no retry
            await bot.get_partial_messageable(thread.id).get_partial_message(
                message.id).edit(content="too late")

"""``FakeDiscord``: a Discord API and gateway on 127.0.0.1 that the real discord.py client uses.

    async with FakeDiscord() as fake:
        guild = fake.add_guild("Poker Club", channels=["poker"])
        alice = fake.add_user("alice")
        await fake.run_client(bot)             # bot made with guild_ready_timeout=0.01
        reply = await fake.slash(alice, guild.channel("poker"), "balance")
        assert reply.ephemeral

Entering patches ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``; leaving
closes the clients it started, the server, and restores both settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
from collections.abc import Callable, Iterable
from typing import Any, Self

import discord
import yarl
from aiohttp import web

from . import interaction_data, payloads
from .gateway import Gateway
from .interaction_data import InteractionRefused
from .oauth import OAUTH_PREFIX, FakeOAuth
from .records import (
    CallKind,
    FakeChannel,
    FakeGuild,
    FakeRole,
    FakeUser,
    InteractionRecord,
    RestCall,
    StoredMessage,
)
from .rest import API_PREFIX, RestApi
from .scheduled_events import ScheduledEvents
from .world import World

EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, read_message_history=True, embed_links=True,
    attach_files=True, use_application_commands=True, add_reactions=True,
).value
COMPONENT_INTERACTION, APPLICATION_COMMAND, MODAL_SUBMIT = 3, 2, 5
MAX_READY_TIMEOUT = 0.5


class NotAnswered(AssertionError):
    """The bot did not acknowledge an interaction in time (Discord allows 3 seconds)."""


class FakeDiscord:
    """A fake Discord for end-to-end tests of a ``discord.Client``; see the module docstring.

    ``interaction_deadline`` is how late a first answer may come before Discord's "Unknown
    interaction" error; ``answer_timeout`` is how long ``slash``/``click``/``submit_modal`` wait.
    ``shard_count`` is the number of shards ``GET /gateway/bot`` recommends and that
    ``add_guild(shard=...)`` places guilds on.
    """

    def __init__(self, *, bot_name: str = "Hold'em", interaction_deadline: float = 3.0,
                 answer_timeout: float = 3.0, shard_count: int = 1) -> None:
        self.world = World(bot_name, shard_count=shard_count)
        self.answer_timeout = answer_timeout
        self._gateway = Gateway(self.world)
        self._rest = RestApi(self.world, interaction_deadline=interaction_deadline,
                             dispatch=self._dispatch_event)
        self.oauth = FakeOAuth(self.world)
        """Web logins (``bot.web``): ``fake.oauth.sign_in(user_id)``, then ``oauth_base``."""
        self.scheduled_events = ScheduledEvents(self.world)
        """The guilds' Scheduled Events (``fake.scheduled_events.events``)."""
        self._runner: web.AppRunner | None = None
        self._saved_settings: tuple[str, yarl.URL] | None = None
        self._clients: list[tuple[discord.Client, asyncio.Task[None]]] = []

    @property
    def interaction_deadline(self) -> float:
        """How late a first answer may come (settable: 0 expires every interaction)."""
        return self._rest.interaction_deadline

    @interaction_deadline.setter
    def interaction_deadline(self, seconds: float) -> None:
        self._rest.interaction_deadline = seconds

    # ----------------------------------------------------------------- lifecycle

    async def __aenter__(self) -> Self:
        app = web.Application()
        self._rest.install(app)
        self._gateway.install(app)
        self.oauth.install(app)
        self.scheduled_events.install(app)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        await web.SockSite(self._runner, listener).start()
        self.world.base_url = f"http://127.0.0.1:{port}"
        gateway_class = discord.gateway.DiscordWebSocket
        self._saved_settings = (discord.http.Route.BASE, gateway_class.DEFAULT_GATEWAY)
        discord.http.Route.BASE = self.world.base_url + API_PREFIX
        gateway_class.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        try:
            while self._clients:
                await self.stop_client()
            await self._gateway.close_all()
            if self._runner is not None:
                await self._runner.cleanup()
        finally:
            if self._saved_settings is not None:
                discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = (
                    self._saved_settings)

    async def run_client(self, client: discord.Client, token: str = "fake-token") -> None:
        """Start ``client`` (login, setup_hook, gateway) and return once it is ready.

        A second client may be started after ``stop_client``: it sees the same guilds and
        messages, which is how a bot restart is tested.
        """
        ready_timeout = client._connection.guild_ready_timeout
        if ready_timeout > MAX_READY_TIMEOUT:
            raise ValueError(f"create the client with guild_ready_timeout=0.01 (not "
                             f"{ready_timeout}): on_ready would wait that long per start")
        task = asyncio.create_task(client.start(token), name="fake-discord-client")
        self._clients.append((client, task))
        ready = asyncio.create_task(client.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=10,
                                     return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            await self.stop_client()
            raise RuntimeError("the client stopped or took over 10 s before getting ready")

    async def stop_client(self) -> None:
        """Close the most recently started client and wait for it to finish."""
        client, task = self._clients.pop()
        await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout=5)

    async def gateway_outage(self, seconds: float) -> None:
        """Close the gateway's connections and refuse new ones for ``seconds`` while REST
        stays up, as in an outage of Discord's gateway; clients reconnect by themselves once
        it is over (``gateway_connected``)."""
        await self._gateway.drop(seconds)

    @property
    def gateway_connected(self) -> bool:
        """True when a client holds an identified gateway connection."""
        return self._gateway.live is not None

    # ----------------------------------------------------------------- setup

    @property
    def api_base(self) -> str:
        """The API's base URL, for a bot in another process (``DISCORD_API_BASE``)."""
        return self.world.base_url + API_PREFIX

    @property
    def oauth_base(self) -> str:
        """Where a web login goes for OAuth2 (``DISCORD_OAUTH_BASE``)."""
        return self.world.base_url + OAUTH_PREFIX

    @property
    def bot_user_id(self) -> int:
        """The bot's user id, which is also its application id."""
        return self.world.bot.id

    def add_guild(self, name: str = "Test Server", channels: Iterable[str] = ("general",),
                  *, owner: str = "owner", shard: int = 0) -> FakeGuild:
        """A guild with text ``channels``, an owner user, and the bot as a member, on
        ``shard`` (of ``shard_count``)."""
        if self._gateway.live is not None:
            raise RuntimeError("add guilds before run_client: they are sent on login")
        world = self.world
        owner_user = world.new_id()
        world.users[owner_user] = FakeUser(owner_user, owner)
        guild = FakeGuild(world.new_id_on_shard(shard), name, owner_user)
        guild.roles.append(FakeRole(guild.id, "@everyone", EVERYONE_PERMISSIONS, 0))
        for channel_name in channels:
            channel = FakeChannel(world.new_id(), guild.id, channel_name)
            world.channels[channel.id] = channel
            guild.channels[channel_name] = channel.id
        world.guilds[guild.id] = guild
        self._join(guild, owner_user, [])
        bot_role = FakeRole(world.new_id(), world.bot.name,
                            discord.Permissions.all().value & ~(1 << 3), 1)
        guild.roles.append(bot_role)
        self._join(guild, world.bot.id, [bot_role.id])
        return guild

    def add_user(self, name: str, *, guild: FakeGuild | None = None,
                 permissions: discord.Permissions | None = None, bot: bool = False) -> int:
        """A user who is a member of ``guild`` (default: every guild); returns the user id.

        ``permissions`` (e.g. ``discord.Permissions(manage_guild=True)``) are granted through
        a role of their own, on top of @everyone's.
        """
        world = self.world
        user_id = world.new_id()
        world.users[user_id] = FakeUser(user_id, name, bot=bot)
        for joined in [guild] if guild is not None else list(world.guilds.values()):
            role_ids = []
            if permissions is not None:
                role = FakeRole(world.new_id(), f"{name}'s role", permissions.value,
                                len(joined.roles))
                joined.roles.append(role)
                role_ids.append(role.id)
            self._join(joined, user_id, role_ids)
        return user_id

    def _join(self, guild: FakeGuild, user_id: int, role_ids: list[int]) -> None:
        guild.members[user_id] = role_ids
        guild.joined_at[user_id] = payloads.timestamp()

    def close_dms(self, user_id: int) -> None:
        """From now on, messages to this user's DMs fail with 50007 (HTTP 403)."""
        self.world.users[user_id].dms_open = False

    async def _dispatch_event(self, name: str, data: dict[str, Any],
                              guild_id: int | None) -> None:
        """A gateway event the REST API causes (THREAD_CREATE …), if a client listens."""
        if self._gateway.live_for(guild_id) is not None:
            await self._gateway.dispatch(name, data, guild_id=guild_id)

    async def delete_channel(self, channel_id: int) -> None:
        """Delete a guild's text channel or thread, as a server admin would: CHANNEL_DELETE
        (THREAD_DELETE for a thread) is sent."""
        channel = self._channel(channel_id)
        guild = self.world.guilds[channel.guild_id or 0]
        self.world.deleted_channels[channel_id] = channel
        if channel.is_thread:
            del self.world.channels[channel_id]
            await self._gateway.dispatch("THREAD_DELETE", {
                "id": str(channel_id), "guild_id": str(guild.id),
                "parent_id": str(channel.parent_id), "type": payloads.PUBLIC_THREAD,
            }, guild_id=guild.id)
            return
        payload = self.world.channel_json(channel)
        del guild.channels[channel.name]
        del self.world.channels[channel_id]
        await self._gateway.dispatch("CHANNEL_DELETE", payload, guild_id=guild.id)

    async def remove_bot(self, guild_id: int) -> None:
        """Kick the bot from a guild: GUILD_DELETE (not unavailable) is sent."""
        guild = self.world.guilds[guild_id]
        guild.members.pop(self.world.bot.id, None)
        await self._gateway.dispatch("GUILD_DELETE", {"id": str(guild_id)}, guild_id=guild_id)

    def hide_channel(self, channel_id: int, user_id: int) -> None:
        """Deny the member View Channel in one channel (an overwrite; set before run_client,
        which sends the channels with the guilds)."""
        self._channel(channel_id).hidden_from.add(user_id)

    def deny_bot(self, channel_id: int, permissions: discord.Permissions) -> None:
        """Take ``permissions`` from the bot in one channel (as a channel overwrite would)."""
        self._channel(channel_id).bot_denied |= permissions.value

    def break_dms(self, user_id: int) -> None:
        """From now on, messages to this user's DMs fail with HTTP 500, which discord.py
        retries for about 25 s before it gives up."""
        self.world.users[user_id].dms_broken = True

    def cut_connections(self, method: str, path: str, times: int = 1) -> None:
        """Cut the connection of the next ``times`` requests ``method`` to a path starting
        with ``path`` (after ``/api/v10``, e.g. ``"/interactions/"``) before they are
        answered; ``connections_cut`` lists them."""
        self._rest.cut_connections(method, path, times)

    def mend_connections(self) -> None:
        """Cut no more connections: the cuts still to come are called off."""
        self._rest.mend_connections()

    @property
    def connections_cut(self) -> list[tuple[str, str]]:
        """The method and path of every request whose connection was cut, in order."""
        return self._rest.connections_cut

    def open_dms(self, user_id: int) -> None:
        self.world.users[user_id].dms_open = True

    # ----------------------------------------------------------------- user actions

    async def slash(self, user_id: int, channel_id: int, name: str, /,
                    **options: Any) -> InteractionRecord:
        """Run ``/name`` (``"table join"`` for a subcommand) as the user; wait for the answer."""
        channel = self._channel(channel_id)
        guild = self.world.guilds.get(channel.guild_id or 0)
        top, *path = name.split()
        command = interaction_data.find_command(self.world, top, channel.guild_id)
        interaction_data.check_can_use(command, guild, user_id)
        data = interaction_data.slash_data(self.world, command, path, options)
        return await self._interact(APPLICATION_COMMAND, user_id, channel, data,
                                    what=f"/{name}")

    async def click(self, user_id: int, message_id: int, custom_id: str) -> InteractionRecord:
        """Press the button ``custom_id`` on a message; wait for the answer."""
        return await self._use_component(user_id, message_id, custom_id, None)

    async def select(self, user_id: int, message_id: int, custom_id: str,
                     values: list[str]) -> InteractionRecord:
        """Choose ``values`` in the select menu ``custom_id`` on a message."""
        return await self._use_component(user_id, message_id, custom_id, values)

    async def _use_component(self, user_id: int, message_id: int, custom_id: str,
                             values: list[str] | None) -> InteractionRecord:
        message = self.message(message_id)
        if message.visible_to not in (None, user_id):
            raise InteractionRefused(f"message {message_id} is ephemeral for someone else")
        component = message.find_component(custom_id)
        if component.get("disabled"):
            raise InteractionRefused(f"component {custom_id!r} is disabled")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if values is not None:
            data["values"] = values
        return await self._interact(COMPONENT_INTERACTION, user_id,
                                    self._channel(message.channel_id), data,
                                    what=f"component {custom_id!r}", source=message)

    async def submit_modal(self, user_id: int, custom_id: str,
                           values: dict[str, str]) -> InteractionRecord:
        """Fill and submit the modal ``custom_id`` last shown to the user; wait for the answer."""
        shown = next((record for record in reversed(self.world.interactions.values())
                      if record.user_id == user_id and record.modal is not None
                      and record.modal.get("custom_id") == custom_id), None)
        if shown is None:
            raise InteractionRefused(f"no modal {custom_id!r} was shown to user {user_id}")
        data = interaction_data.modal_submit_data(shown.modal or {}, values)
        source = self.world.messages.get(shown.source_message_id or 0)
        return await self._interact(MODAL_SUBMIT, user_id, self._channel(shown.channel_id), data,
                                    what=f"modal {custom_id!r}", source=source)

    async def _interact(self, interaction_type: int, user_id: int, channel: FakeChannel,
                        data: dict[str, Any], *, what: str,
                        source: StoredMessage | None = None) -> InteractionRecord:
        world = self.world
        if user_id not in world.users:
            raise KeyError(f"no user {user_id}; create users with add_user")
        guild = world.guilds.get(channel.guild_id or 0)
        if guild is not None and user_id not in guild.members:
            raise InteractionRefused(f"user {user_id} is not a member of {guild.name!r}")
        record = InteractionRecord(
            id=world.new_interaction_id(), token=secrets.token_urlsafe(24), type=interaction_type,
            user_id=user_id, channel_id=channel.id, created=world.elapsed(),
            source_message_id=source.id if source else None,
        )
        world.add_interaction(record)
        payload = payloads.interaction_payload(
            interaction_id=record.id, application_id=world.application_id,
            interaction_type=interaction_type, token=record.token, data=data,
            channel=world.channel_json(channel), guild_id=channel.guild_id,
            member=world.member_json(guild, user_id, with_permissions=True) if guild else None,
            user=world.user_json(user_id),
            message=world.message_json(source) if source else None,
            app_permissions=((1 << 53) - 1) & ~channel.bot_denied,
            locale=world.users[user_id].locale,
            guild_locale=guild.locale if guild else "en-US",
        )
        await self._gateway.dispatch("INTERACTION_CREATE", payload, guild_id=channel.guild_id)
        try:
            await asyncio.wait_for(record.answered.wait(), self.answer_timeout)
        except TimeoutError:
            raise NotAnswered(f"the bot did not answer {what} within "
                              f"{self.answer_timeout} s") from None
        return record

    # ----------------------------------------------------------------- what happened

    @property
    def calls(self) -> list[RestCall]:
        """Every REST call so far, in order."""
        return self.world.calls

    def count(self, kind: CallKind, *, channel_id: int | None = None,
              since: float = 0.0) -> int:
        """How many successful calls of ``kind`` (in ``channel_id``, after ``since``) were made."""
        return sum(1 for call in self.world.calls
                   if call.kind == kind and call.status < 400 and call.time >= since
                   and (channel_id is None or call.channel_id == channel_id))

    def global_limited(self, *, since: float = 0.0) -> list[RestCall]:
        """The calls after ``since`` that count against the bot's global rate limit (refused
        ones too: Discord counts requests, not successes)."""
        return [call for call in self.world.calls if call.global_limited and call.time >= since]

    def now(self) -> float:
        """The clock of ``RestCall.time``, for ``count(since=...)``."""
        return self.world.elapsed()

    def message(self, message_id: int) -> StoredMessage:
        try:
            return self.world.messages[message_id]
        except KeyError:
            raise KeyError(f"no message {message_id}") from None

    def channel_messages(self, channel_id: int, *,
                         include_ephemeral: bool = False) -> list[StoredMessage]:
        """The channel's messages, oldest first, with edits applied and deletions left out."""
        self._channel(channel_id)
        return self.world.visible_messages(channel_id, include_ephemeral=include_ephemeral)

    def threads(self, channel_id: int) -> list[FakeChannel]:
        """The threads opened under a text channel, oldest first (archived ones too)."""
        channel = self._channel(channel_id)
        return self.world.threads(channel.guild_id or 0, channel.id)

    def dms(self, user_id: int) -> list[StoredMessage]:
        """Messages the bot delivered to the user's DMs, oldest first."""
        channel = next((channel for channel in self.world.channels.values()
                        if channel.recipient_id == user_id), None)
        if channel is None:
            return []
        return self.world.visible_messages(channel.id, include_ephemeral=True)

    def commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """The commands last synced globally (or to ``guild_id``)."""
        return self.world.commands.get(guild_id, [])

    async def wait_until(self, condition: Callable[[], object], timeout: float = 15.0) -> None:
        """Wait for work the bot does after answering (follow-ups, edits, DMs). ``timeout``
        only decides when a test gives up: with both cores busy (load average 5), the first
        hole-card DMs of a bot drawing images took over 3 s, in two runs of three."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not condition():
            if loop.time() > deadline:
                raise TimeoutError(f"condition still false after {timeout} s")
            await asyncio.sleep(0.005)

    def _channel(self, channel_id: int) -> FakeChannel:
        try:
            return self.world.channels[channel_id]
        except KeyError:
            raise KeyError(f"no channel {channel_id}") from None


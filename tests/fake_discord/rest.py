"""The fake's REST API: the routes discord.py calls, answered like Discord API v10.

Every request is recorded as a ``RestCall`` by a middleware that also parses JSON and
multipart bodies (``payload_json`` plus ``files[n]`` parts). Every answer carries Discord's
rate-limit headers (``RateLimits``): without them discord.py keeps each route at one request in
flight, and one it thinks exhausted is never reset. A test may have the connections of some
requests cut before they reach the fake's world (``cut_connections``). Errors use Discord's
codes:
50007 for closed DMs, 40060 for a second answer to one interaction, 10062 for a late one,
50027 for a webhook call with an interaction token older than 15 minutes.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .form_data import parse_body
from .payloads import JSON
from .records import CallKind, InteractionRecord, RestCall, StoredMessage
from .world import LOADING_FLAG, UploadedFile, World

log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
TOKEN_LIFETIME_SECONDS = 15 * 60.0
"""How long Discord honours an interaction token for follow-ups and ``@original`` edits."""
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Dispatch = Callable[[str, JSON, int | None], Awaitable[None]]
"""Sends a gateway event (name, data, guild id) to the client of the guild's shard."""
TEXT_CHANNEL_TYPE, PUBLIC_THREAD_TYPE = 0, 11
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


@dataclass(slots=True)
class Exchange:
    """One request's parsed body, and what its handler found it to be (for the record)."""

    body: Any
    files: list[UploadedFile]
    kind: CallKind = CallKind.READ
    channel_id: int | None = None


EXCHANGE = web.RequestKey("exchange", Exchange)
MAJOR_PARAMETERS = ("channel_id", "guild_id", "app", "token", "interaction_id")
"""Path parts that give a route a bucket of its own, as Discord's major parameters do."""


@dataclass
class RateLimits:
    """Discord's per-route rate-limit headers, counted honestly: each bucket (a route, per
    major parameter) allows ``limit`` requests per ``window`` seconds and says how many are
    left and when they come back. The limit is far above what any test or benchmark sends to
    one bucket in a second (50 paced 140 DM-channel opens into the tests' short DM deadline),
    so nothing is paced, and the fake never answers 429: it shapes how discord.py sends, it
    does not refuse."""

    limit: int = 10_000
    window: float = 1.0
    _buckets: dict[tuple[str, ...], tuple[float, int]] = field(default_factory=dict)
    _bucket_ids: dict[str, str] = field(default_factory=dict)
    """Bucket id by route (method and path template), hashed once."""

    def headers(self, request: web.Request) -> dict[str, str]:
        """The headers for one more request to the route ``request`` matched."""
        route = request.match_info.route.resource
        template = route.canonical if route is not None else request.path
        route_key = f"{request.method} {template}"
        bucket = self._bucket_ids.get(route_key)
        if bucket is None:
            bucket = hashlib.sha1(route_key.encode()).hexdigest()[:16]
            self._bucket_ids[route_key] = bucket
        key = (bucket, *(request.match_info.get(name, "") for name in MAJOR_PARAMETERS))
        now = time.monotonic()
        opened, used = self._buckets.get(key, (now, 0))
        if now - opened >= self.window:
            opened, used = now, 0
        used += 1
        self._buckets[key] = (opened, used)
        reset_after = max(0.0, opened + self.window - now)
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(0, self.limit - used)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }


@dataclass(slots=True)
class ConnectionCut:
    """Requests ``method`` whose path (after ``/api/v10``) starts with ``path``: the next
    ``times`` of them lose their connection."""

    method: str
    path: str
    times: int


def json_response(data: Any, status: int = 200) -> web.Response:
    """JSON with ``Content-Type`` exactly ``application/json``: discord.py checks for it."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def error_response(status: int, code: int, message: str) -> web.Response:
    return json_response({"message": message, "code": code}, status)


class RestApi:
    """Routes of the fake Discord REST API, acting on a ``World``."""

    def __init__(self, world: World, *, interaction_deadline: float,
                 dispatch: Dispatch | None = None) -> None:
        self.world = world
        self.interaction_deadline = interaction_deadline
        self._dispatch = dispatch
        self.rate_limits = RateLimits()
        self._cuts: list[ConnectionCut] = []
        self.connections_cut: list[tuple[str, str]] = []
        """The method and path of every request whose connection was cut, in order."""

    def cut_connections(self, method: str, path: str, times: int = 1) -> None:
        """Drop the connection of the next ``times`` requests ``method`` whose path (after
        ``/api/v10``) starts with ``path``, before any answer, as a server that closed a
        kept-alive connection does: nothing of them reaches the world nor is recorded, and
        the client sees ``aiohttp.ServerDisconnectedError``."""
        if times < 1:
            raise ValueError(f"times must be at least 1, not {times!r}")
        self._cuts.append(ConnectionCut(method.upper(), path, times))

    def mend_connections(self) -> None:
        """Cut no more connections (those still to be cut are not)."""
        self._cuts.clear()

    def install(self, app: web.Application) -> None:
        app.middlewares.extend((self._cut, self._record, self._check_token))
        routes = [
            ("GET", "/users/@me", self.get_me),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway),
            ("PUT", "/applications/{app}/commands", self.sync_commands),
            ("GET", "/applications/{app}/commands", self.get_commands),
            ("PUT", "/applications/{app}/guilds/{guild_id}/commands", self.sync_commands),
            ("GET", "/applications/{app}/guilds/{guild_id}/commands", self.get_commands),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.interaction_callback),
            ("POST", "/webhooks/{app}/{token}", self.create_followup),
            ("GET", "/webhooks/{app}/{token}/messages/{message_id}", self.get_webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message_id}", self.edit_webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message_id}",
             self.delete_webhook_message),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("PATCH", "/channels/{channel_id}", self.edit_channel),
            ("POST", "/channels/{channel_id}/threads", self.create_thread),
            ("POST", "/channels/{channel_id}/messages", self.create_message),
            ("GET", "/channels/{channel_id}/messages", self.get_history),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("POST", "/users/@me/channels", self.open_dm),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, API_PREFIX + path, handler)
        app.router.add_route("GET", "/attachments/{attachment_id}/{filename}", self.get_attachment)

    # ----------------------------------------------------------------- recording

    @web.middleware
    async def _cut(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        path = request.path.removeprefix(API_PREFIX)
        cut = next((cut for cut in self._cuts
                    if cut.method == request.method and path.startswith(cut.path)), None)
        if cut is None or request.transport is None:
            return await handler(request)
        cut.times -= 1
        if not cut.times:
            self._cuts.remove(cut)
        self.connections_cut.append((request.method, path))
        request.transport.abort()
        raise asyncio.CancelledError  # nothing can be answered on a connection that is gone

    @web.middleware
    async def _record(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        exchange = Exchange(*parse_body(request.headers.get("Content-Type", ""),
                                        await request.read()))
        request[EXCHANGE] = exchange
        try:
            response = await handler(request)
        except web.HTTPNotFound:
            log.warning("fake Discord has no route for %s %s", request.method, request.path)
            exchange.kind = CallKind.UNHANDLED
            response = error_response(404, 0, "404: Not Found")
        if request.path.startswith(API_PREFIX):
            response.headers.update(self.rate_limits.headers(request))
        self.world.calls.append(RestCall(
            method=request.method,
            path=request.path.removeprefix(API_PREFIX),
            kind=exchange.kind,
            json=exchange.body,
            files=tuple((upload.filename, upload.data) for upload in exchange.files),
            status=response.status,
            time=self.world.elapsed(),
            channel_id=exchange.channel_id,
            size=request.content_length or 0,
        ))
        return response

    # ----------------------------------------------------------------- session

    async def get_me(self, request: web.Request) -> web.Response:
        exchange = request[EXCHANGE]
        exchange.kind = CallKind.LOGIN
        return json_response(self.world.user_json(self.world.bot.id))

    async def get_application(self, request: web.Request) -> web.Response:
        exchange = request[EXCHANGE]
        exchange.kind = CallKind.APPLICATION_INFO
        bot = self.world.bot
        return json_response({
            "id": str(bot.id), "name": bot.name, "description": "", "icon": None,
            "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
            "owner": self.world.user_json(bot.id), "flags": 0, "rpc_origins": [],
            "redirect_uris": [], "approximate_guild_count": len(self.world.guilds),
        })

    async def get_gateway(self, request: web.Request) -> web.Response:
        url = self.world.base_url.replace("http", "ws", 1) + "/gateway"
        return json_response({"url": url, "shards": self.world.shard_count, "session_start_limit": {
            "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})

    # ----------------------------------------------------------------- commands

    async def sync_commands(self, request: web.Request) -> web.Response:
        exchange = request[EXCHANGE]
        exchange.kind = CallKind.COMMANDS_SYNC
        guild_id = _optional_id(request, "guild_id")
        synced = []
        for definition in exchange.body:
            command = {"type": 1, "options": [], "default_member_permissions": None,
                       "nsfw": False, **definition}
            command.update(id=str(self.world.new_id()), version=str(self.world.new_id()),
                           application_id=str(self.world.application_id))
            if guild_id is not None:
                command["guild_id"] = str(guild_id)
            synced.append(command)
        self.world.commands[guild_id] = synced
        return json_response(synced)

    async def get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.world.commands.get(_optional_id(request, "guild_id"), []))

    # ----------------------------------------------------------------- interactions

    async def interaction_callback(self, request: web.Request) -> web.Response:
        exchange = request[EXCHANGE]
        exchange.kind = CallKind.INTERACTION_RESPONSE
        record = self.world.interactions.get(int(request.match_info["interaction_id"]))
        if record is None or record.token != request.match_info["token"]:
            return error_response(404, 10062, "Unknown interaction")
        exchange.channel_id = record.channel_id
        if record.response_type is not None:
            return error_response(400, 40060, "Interaction has already been acknowledged.")
        if self.world.elapsed() - record.created > self.interaction_deadline:
            return error_response(404, 10062, "Unknown interaction")
        body = exchange.body
        callback_type, data = int(body["type"]), body.get("data") or {}
        source = self.world.messages.get(record.source_message_id or 0)
        if callback_type == 4:
            record.message = self.world.create_message(
                record.channel_id, data, exchange.files, visible_to=record.user_id)
        elif callback_type == 5:
            placeholder = {"flags": int(data.get("flags") or 0) | LOADING_FLAG}
            record.message = self.world.create_message(
                record.channel_id, placeholder, [], visible_to=record.user_id)
        elif callback_type in (6, 7) and source is not None:
            record.message = source
            if callback_type == 7:
                self.world.edit_message(source, data, exchange.files)
        elif callback_type == 9:
            record.modal = data
        else:
            return error_response(400, 50035, f"Invalid callback type {callback_type} here")
        record.response_type, record.response_json = callback_type, body
        record.answered.set()
        if request.query.get("with_response") not in ("true", "True", "1"):
            return web.Response(status=204)  # as Discord: the answer only when asked for
        return json_response(self._callback_answer(record, callback_type))

    def _callback_answer(self, record: InteractionRecord, callback_type: int) -> JSON:
        message = record.message
        interaction: JSON = {
            "id": str(record.id),
            "type": record.type,
            "response_message_loading": callback_type == 5,
            "response_message_ephemeral": bool(message and message.is_ephemeral),
        }
        resource: JSON = {"type": callback_type}
        if message is not None and callback_type in (4, 5, 7):
            interaction["response_message_id"] = str(message.id)
            resource["message"] = self.world.message_json(message)
        return {"interaction": interaction, "resource": resource}

    def _webhook_record(self, request: web.Request) -> InteractionRecord | None:
        exchange = request[EXCHANGE]
        record = self.world.interaction_by_token(request.match_info["token"])
        if record is not None:
            exchange.channel_id = record.channel_id
        return record

    @web.middleware
    async def _check_token(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Webhook calls with an interaction token past its lifetime fail, as on Discord."""
        if request.path.startswith(API_PREFIX + "/webhooks/"):
            record = self.world.interaction_by_token(request.match_info.get("token", ""))
            if record is not None and (
                    record.token_expired
                    or self.world.elapsed() - record.created > TOKEN_LIFETIME_SECONDS):
                return error_response(401, 50027, "Invalid Webhook Token")
        return await handler(request)

    async def create_followup(self, request: web.Request) -> web.Response:
        exchange = request[EXCHANGE]
        exchange.kind = CallKind.FOLLOWUP_CREATE
        record = self._webhook_record(request)
        if record is None or record.response_type is None:
            return error_response(404, 10015, "Unknown Webhook")
        message = self.world.create_message(
            record.channel_id, exchange.body, exchange.files, visible_to=record.user_id)
        record.followups.append(message)
        if request.query.get("wait") in ("true", "1", "True"):
            return json_response(self.world.message_json(message))
        return web.Response(status=204)

    def _webhook_message(self, request: web.Request) -> StoredMessage | None:
        """The interaction message the URL names (``@original`` or a follow-up id), unless it
        is unknown or deleted."""
        record = self._webhook_record(request)
        if record is None:
            return None
        message_id = request.match_info["message_id"]
        if message_id == "@original":
            message = record.message
        else:
            wanted = int(message_id)
            message = next((message for message in [record.message, *record.followups]
                            if message is not None and message.id == wanted), None)
        return None if message is None or message.deleted else message

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        message = self._webhook_message(request)
        if message is None:
            return error_response(404, 10008, "Unknown Message")
        return json_response(self.world.message_json(message))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        exchange = request[EXCHANGE]
        exchange.kind = CallKind.RESPONSE_EDIT
        message = self._webhook_message(request)
        if message is None:
            return error_response(404, 10008, "Unknown Message")
        self.world.edit_message(message, exchange.body, exchange.files)
        return json_response(self.world.message_json(message))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        exchange = request[EXCHANGE]
        exchange.kind = CallKind.RESPONSE_DELETE
        message = self._webhook_message(request)
        if message is None:
            return error_response(404, 10008, "Unknown Message")
        message.deleted = True
        return web.Response(status=204)

    # ----------------------------------------------------------------- channels

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self.world.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            return error_response(404, 10003, "Unknown Channel")
        return json_response(self.world.channel_json(channel))

    async def create_thread(self, request: web.Request) -> web.Response:
        """A public thread without a starting message (type 11) under a text channel;
        THREAD_CREATE goes to the guild's shard, as on Discord."""
        exchange = request[EXCHANGE]
        exchange.kind = CallKind.THREAD_CREATE
        parent = self.world.channels.get(int(request.match_info["channel_id"]))
        if parent is None:
            return error_response(404, 10003, "Unknown Channel")
        exchange.channel_id = parent.id
        body = exchange.body or {}
        name = str(body.get("name") or "")
        if parent.is_dm or parent.is_thread:
            return error_response(400, 50024, "Cannot execute action on this channel type")
        if int(body.get("type") or PUBLIC_THREAD_TYPE) != PUBLIC_THREAD_TYPE:
            return error_response(400, 50035, "Invalid Form Body (only public threads here)")
        if not 1 <= len(name) <= 100:
            return error_response(400, 50035, "Invalid Form Body (name: 1 to 100 characters)")
        duration = int(body.get("auto_archive_duration") or 1440)
        if duration not in AUTO_ARCHIVE_DURATIONS:
            return error_response(400, 50035, "Invalid Form Body (auto_archive_duration)")
        thread = self.world.create_thread(parent, name, self.world.bot.id,
                                          auto_archive_duration=duration)
        payload = self.world.channel_json(thread)
        await self._event("THREAD_CREATE", {**payload, "newly_created": True}, thread.guild_id)
        return json_response(payload, 201)

    async def edit_channel(self, request: web.Request) -> web.Response:
        """Rename a channel or thread; archive, unarchive or lock a thread (THREAD_UPDATE)."""
        exchange = request[EXCHANGE]
        exchange.kind = CallKind.CHANNEL_EDIT
        channel = self.world.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            return error_response(404, 10003, "Unknown Channel")
        exchange.channel_id = channel.id
        body = exchange.body or {}
        if "name" in body:
            channel.name = str(body["name"])
        if channel.is_thread:
            channel.archived = bool(body.get("archived", channel.archived))
            channel.locked = bool(body.get("locked", channel.locked))
        payload = self.world.channel_json(channel)
        if channel.is_thread:
            await self._event("THREAD_UPDATE", payload, channel.guild_id)
        return json_response(payload)

    async def _event(self, name: str, data: JSON, guild_id: int | None) -> None:
        if self._dispatch is not None:
            await self._dispatch(name, data, guild_id)

    async def create_message(self, request: web.Request) -> web.Response:
        exchange = request[EXCHANGE]
        channel = self.world.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            return error_response(404, 10003, "Unknown Channel")
        exchange.channel_id = channel.id
        if channel.is_dm:
            exchange.kind = CallKind.DM_MESSAGE_CREATE
            recipient = self.world.users[channel.recipient_id or 0]
            if not recipient.dms_open:
                return error_response(403, 50007, "Cannot send messages to this user")
            if recipient.dms_broken:
                return error_response(500, 0, "Internal Server Error")
        else:
            exchange.kind = CallKind.CHANNEL_MESSAGE_CREATE
            if channel.archived:  # a message unarchives a thread that is not locked
                if channel.locked:
                    return error_response(400, 50083, "Thread is archived")
                channel.archived = False
        message = self.world.create_message(channel.id, exchange.body, exchange.files)
        return json_response(self.world.message_json(message))

    def _channel_message(self, request: web.Request) -> StoredMessage | web.Response:
        """The message the route names, or Discord's 404 (Unknown Channel for one deleted
        since: only interaction tokens outlive their channel)."""
        exchange = request[EXCHANGE]
        channel_id = int(request.match_info["channel_id"])
        exchange.channel_id = channel_id
        if channel_id not in self.world.channels:
            return error_response(404, 10003, "Unknown Channel")
        message = self.world.messages.get(int(request.match_info["message_id"]))
        if message is None or message.deleted or message.channel_id != channel_id:
            return error_response(404, 10008, "Unknown Message")
        return message

    async def get_history(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel_id"])
        limit = int(request.query.get("limit", 50))
        messages = self.world.visible_messages(channel_id, include_ephemeral=False)
        newest_first = list(reversed(messages))[:limit]
        return json_response([self.world.message_json(message) for message in newest_first])

    async def get_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if isinstance(message, web.Response):
            return message
        return json_response(self.world.message_json(message))

    async def edit_message(self, request: web.Request) -> web.Response:
        exchange = request[EXCHANGE]
        message = self._channel_message(request)
        channel = self.world.channels.get(int(request.match_info["channel_id"]))
        exchange.kind = (CallKind.DM_MESSAGE_EDIT if channel and channel.is_dm
                           else CallKind.CHANNEL_MESSAGE_EDIT)
        if isinstance(message, web.Response):
            return message
        self.world.edit_message(message, exchange.body, exchange.files)
        return json_response(self.world.message_json(message))

    async def delete_message(self, request: web.Request) -> web.Response:
        exchange = request[EXCHANGE]
        exchange.kind = CallKind.CHANNEL_MESSAGE_DELETE
        message = self._channel_message(request)
        if isinstance(message, web.Response):
            return message
        message.deleted = True
        return web.Response(status=204)

    async def get_attachment(self, request: web.Request) -> web.Response:
        wanted = int(request.match_info["attachment_id"])
        for message in self.world.messages.values():
            for attachment in message.attachments:
                if attachment.id == wanted:
                    content_type = attachment.content_type or "application/octet-stream"
                    return web.Response(body=attachment.data, content_type=content_type)
        return error_response(404, 0, "404: Not Found")

    # ----------------------------------------------------------------- users

    async def open_dm(self, request: web.Request) -> web.Response:
        exchange = request[EXCHANGE]
        exchange.kind = CallKind.DM_CHANNEL_OPEN
        user_id = int(exchange.body["recipient_id"])
        if user_id not in self.world.users:
            return error_response(400, 50033, "Invalid Recipients")
        channel = self.world.dm_channel_of(user_id)
        exchange.channel_id = channel.id
        return json_response(self.world.channel_json(channel))

    async def get_user(self, request: web.Request) -> web.Response:
        user_id = int(request.match_info["user_id"])
        if user_id not in self.world.users:
            return error_response(404, 10013, "Unknown User")
        return json_response(self.world.user_json(user_id))

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.world.guilds.get(int(request.match_info["guild_id"]))
        user_id = int(request.match_info["user_id"])
        if guild is None or user_id not in guild.members:
            return error_response(404, 10007, "Unknown Member")
        return json_response(self.world.member_json(guild, user_id))


def _optional_id(request: web.Request, name: str) -> int | None:
    value = request.match_info.get(name)
    return None if value is None else int(value)

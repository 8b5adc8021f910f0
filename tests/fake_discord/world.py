"""The fake Discord's state: users, guilds, channels, messages, synced commands, interactions.

It knows how to turn its models into API payloads and how a message body (JSON or multipart)
creates or edits a message; the REST and gateway layers only route to it.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import discord

from . import payloads
from .payloads import JSON
from .records import (
    FakeChannel,
    FakeGuild,
    FakeUser,
    InteractionRecord,
    RestCall,
    StoredAttachment,
    StoredMessage,
)

LOADING_FLAG = 1 << 7
MESSAGE_FIELDS = ("content", "embeds", "components")
UPLOAD_INDEX_LIMIT = 10_000
"""Attachment ids below this are ``files[n]`` upload indexes; real ids are snowflakes."""


@dataclass(frozen=True, slots=True)
class UploadedFile:
    """One ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes
    content_type: str | None


class World:
    """Everything the fake Discord knows, shared by its REST API, gateway and test API."""

    def __init__(self, bot_name: str, *, shard_count: int = 1) -> None:
        self._ids = itertools.count(1_100_000_000_000_000_000)
        self.shard_count = shard_count
        self.started = time.monotonic()
        self.base_url = ""
        self.bot = FakeUser(self.new_id(), bot_name, bot=True)
        self.users: dict[int, FakeUser] = {self.bot.id: self.bot}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.deleted_channels: dict[int, FakeChannel] = {}
        """Channels and threads deleted since: interaction tokens outlive them, so an answer or
        follow-up to an interaction made there still gets its message back, as on Discord."""
        self.messages: dict[int, StoredMessage] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self._interactions_by_token: dict[str, InteractionRecord] = {}
        self.commands: dict[int | None, list[JSON]] = {}
        self.calls: list[RestCall] = []
        self.message_listeners: list[Callable[[StoredMessage], None]] = []
        """Called with every message the bot creates or edits, as it is then: lets a simulated
        client react to a change (a benchmark's people) instead of polling for it."""

    @property
    def application_id(self) -> int:
        return self.bot.id

    def new_id(self) -> int:
        return next(self._ids)

    def new_interaction_id(self, *, age: float = 0.0) -> int:
        """An id that tells when the interaction was created, ``age`` seconds ago, as
        Discord's do (the bot reads an interaction's age from it)."""
        created = datetime.now(UTC) - timedelta(seconds=age)
        return discord.utils.time_snowflake(created) + next(self._ids) % (1 << 22)

    def new_id_on_shard(self, shard: int) -> int:
        """A new id that, as a guild id, is on ``shard``: ``(id >> 22) % shard_count``."""
        if not 0 <= shard < self.shard_count:
            raise ValueError(f"shard {shard} is outside 0..{self.shard_count - 1}")
        block = (self.new_id() >> 22) + 1
        block += (shard - block) % self.shard_count
        self._ids = itertools.count((block << 22) + 1)
        return block << 22

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    # ----------------------------------------------------------------- payloads

    def user_json(self, user_id: int) -> JSON:
        user = self.users[user_id]
        return payloads.user_payload(user.id, user.name, bot=user.bot)

    def member_json(
        self, guild: FakeGuild, user_id: int, *, with_permissions: bool = False
    ) -> JSON:
        return payloads.member_payload(
            self.user_json(user_id),
            guild.members[user_id],
            guild.joined_at[user_id],
            permissions=guild.permissions_of(user_id) if with_permissions else None,
        )

    def channel_json(self, channel: FakeChannel) -> JSON:
        if channel.guild_id is None:
            assert channel.recipient_id is not None
            return payloads.dm_channel_payload(channel.id, self.user_json(channel.recipient_id))
        guild = self.guilds[channel.guild_id]
        if channel.parent_id is not None:
            return payloads.thread_payload(
                channel.id, guild.id, channel.parent_id, channel.owner_id or self.bot.id,
                channel.name, archived=channel.archived, locked=channel.locked,
                auto_archive_duration=channel.auto_archive_duration,
                created_at=channel.created_at,
                message_count=len(self.visible_messages(channel.id, include_ephemeral=False)))
        position = list(guild.channels.values()).index(channel.id)
        return payloads.text_channel_payload(channel.id, guild.id, channel.name, position,
                                             channel.hidden_from)

    def guild_json(self, guild: FakeGuild) -> JSON:
        return payloads.guild_payload(
            guild.id,
            guild.name,
            guild.owner_id,
            roles=[payloads.role_payload(role.id, role.name, role.permissions, role.position)
                   for role in guild.roles],
            channels=[self.channel_json(self.channels[channel_id])
                      for channel_id in guild.channels.values()],
            members=[self.member_json(guild, user_id) for user_id in guild.members],
            preferred_locale=guild.locale,
            threads=[self.channel_json(channel) for channel in self.threads(guild.id)
                     if not channel.archived],
        )

    def message_json(self, message: StoredMessage) -> JSON:
        channel = (self.channels.get(message.channel_id)
                   or self.deleted_channels[message.channel_id])
        return payloads.message_payload(
            message_id=message.id,
            channel_id=message.channel_id,
            guild_id=channel.guild_id,
            author=self.user_json(message.author_id),
            content=message.content,
            embeds=message.embeds,
            components=message.components,
            attachments=[
                payloads.attachment_payload(
                    attachment.id, attachment.filename, len(attachment.data),
                    f"{self.base_url}/attachments/{attachment.id}/{attachment.filename}",
                    attachment.content_type,
                )
                for attachment in message.attachments
            ],
            flags=message.flags,
            created_at=message.created_at,
            edited_at=message.edited_at,
        )

    # ----------------------------------------------------------------- messages

    def create_message(
        self,
        channel_id: int,
        body: JSON,
        files: list[UploadedFile],
        *,
        visible_to: int | None = None,
    ) -> StoredMessage:
        """A new message by the bot, from a create-message body and its uploaded files."""
        message = StoredMessage(
            id=self.new_id(),
            channel_id=channel_id,
            author_id=self.bot.id,
            content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            flags=int(body.get("flags") or 0),
            created_at=payloads.timestamp(),
            visible_to=visible_to if int(body.get("flags") or 0) & payloads.EPHEMERAL_FLAG
            else None,
        )
        message.attachments = self._new_attachments(body.get("attachments"), files)
        self.messages[message.id] = message
        self._changed(message)
        return message

    def edit_message(self, message: StoredMessage, body: JSON, files: list[UploadedFile]) -> None:
        """Apply an edit: fields present replace the old ones; ``attachments`` lists the files
        kept (by id) and the new ones (by upload index)."""
        for name in MESSAGE_FIELDS:
            if name in body:
                setattr(message, name, body[name] if body[name] is not None else
                        ("" if name == "content" else []))
        message.flags &= ~LOADING_FLAG
        if "attachments" in body or files:
            listed = body.get("attachments")
            kept_ids = {int(item["id"]) for item in listed or []
                        if int(item["id"]) >= UPLOAD_INDEX_LIMIT}
            kept = [attachment for attachment in message.attachments
                    if listed is None or attachment.id in kept_ids]
            uploads = [item for item in listed or [] if int(item["id"]) < UPLOAD_INDEX_LIMIT]
            message.attachments = kept + self._new_attachments(uploads or None, files)
        message.edit_count += 1
        message.edited_at = payloads.timestamp()
        self._changed(message)

    def _changed(self, message: StoredMessage) -> None:
        for listener in self.message_listeners:
            listener(message)

    def _new_attachments(
        self, listed: list[JSON] | None, files: list[UploadedFile]
    ) -> list[StoredAttachment]:
        by_index = {upload.index: upload for upload in files}
        chosen = ([by_index[int(item["id"])] for item in listed if int(item["id"]) in by_index]
                  if listed else files)
        return [StoredAttachment(self.new_id(), upload.filename, upload.data, upload.content_type)
                for upload in chosen]

    def visible_messages(self, channel_id: int, *, include_ephemeral: bool) -> list[StoredMessage]:
        return [
            message for message in self.messages.values()
            if message.channel_id == channel_id and not message.deleted
            and (include_ephemeral or not message.is_ephemeral)
        ]

    # ----------------------------------------------------------------- lookups

    def dm_channel_of(self, user_id: int) -> FakeChannel:
        """The DM channel with ``user_id``, opened on first use as Discord does."""
        for channel in self.channels.values():
            if channel.recipient_id == user_id:
                return channel
        channel = FakeChannel(self.new_id(), None, f"dm-{self.users[user_id].name}", user_id)
        self.channels[channel.id] = channel
        return channel

    def threads(self, guild_id: int, parent_id: int | None = None) -> list[FakeChannel]:
        """The guild's threads (under ``parent_id`` only, when given), oldest first."""
        return [channel for channel in self.channels.values()
                if channel.guild_id == guild_id and channel.parent_id is not None
                and (parent_id is None or channel.parent_id == parent_id)]

    def create_thread(self, parent: FakeChannel, name: str, owner_id: int, *,
                      auto_archive_duration: int = 1440) -> FakeChannel:
        """A public thread under the text channel ``parent`` (not started from a message)."""
        thread = FakeChannel(self.new_id(), parent.guild_id, name, parent_id=parent.id,
                             owner_id=owner_id, auto_archive_duration=auto_archive_duration,
                             created_at=payloads.timestamp())
        thread.hidden_from = set(parent.hidden_from)
        thread.bot_denied = parent.bot_denied
        self.channels[thread.id] = thread
        return thread

    def add_interaction(self, record: InteractionRecord) -> None:
        self.interactions[record.id] = record
        self._interactions_by_token[record.token] = record

    def interaction_by_token(self, token: str) -> InteractionRecord | None:
        return self._interactions_by_token.get(token)

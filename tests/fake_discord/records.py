"""What the fake Discord holds and records: users, guilds, messages, REST calls, interactions."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .payloads import EPHEMERAL_FLAG, JSON


class CallKind(StrEnum):
    """What a REST call did, so tests can count e.g. message edits per channel."""

    LOGIN = "login"
    APPLICATION_INFO = "application_info"
    COMMANDS_SYNC = "commands_sync"
    INTERACTION_RESPONSE = "interaction_response"
    FOLLOWUP_CREATE = "followup_create"
    RESPONSE_EDIT = "response_edit"
    RESPONSE_DELETE = "response_delete"
    CHANNEL_MESSAGE_CREATE = "channel_message_create"
    CHANNEL_MESSAGE_EDIT = "channel_message_edit"
    CHANNEL_MESSAGE_DELETE = "channel_message_delete"
    THREAD_CREATE = "thread_create"
    CHANNEL_EDIT = "channel_edit"
    DM_CHANNEL_OPEN = "dm_channel_open"
    DM_MESSAGE_CREATE = "dm_message_create"
    DM_MESSAGE_EDIT = "dm_message_edit"
    READ = "read"
    UNHANDLED = "unhandled"


@dataclass(frozen=True, slots=True)
class RestCall:
    """One REST request the client made, with its parsed body and the fake's answer status."""

    method: str
    path: str
    kind: CallKind
    json: Any
    files: tuple[tuple[str, bytes], ...]
    status: int
    time: float
    channel_id: int | None = None
    size: int = 0
    """Bytes of the request's body as sent (JSON, or multipart with its files)."""

    @property
    def global_limited(self) -> bool:
        """Whether Discord counts this call against the bot token's global limit (50 requests
        per second across all its processes). Interaction callbacks and the interaction
        webhook (``/webhooks/{application}/{token}``: follow-ups, ``@original`` edits) are
        exempt; everything else counts, refused calls included."""
        return not self.path.startswith(("/interactions/", "/webhooks/"))


@dataclass(slots=True)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    dms_broken: bool = False  # Discord answers 500 to every DM: discord.py keeps retrying
    locale: str = "en-US"  # the language of the user's Discord client (interactions' locale)


@dataclass(slots=True)
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int


@dataclass(slots=True)
class FakeGuild:
    """A guild: text channels by name, roles (the first is @everyone), members' role ids."""

    id: int
    name: str
    owner_id: int
    channels: dict[str, int] = field(default_factory=dict)
    roles: list[FakeRole] = field(default_factory=list)
    members: dict[int, list[int]] = field(default_factory=dict)
    joined_at: dict[int, str] = field(default_factory=dict)
    locale: str = "en-US"  # the server's language (interactions' guild_locale)

    def channel(self, name: str) -> int:
        """The id of the text channel called ``name``."""
        try:
            return self.channels[name]
        except KeyError:
            raise KeyError(f"guild {self.name!r} has no channel {name!r}") from None

    def permissions_of(self, user_id: int) -> int:
        """The member's guild permissions: the union of their roles' and @everyone's."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        role_ids = {self.id, *self.members[user_id]}
        value = 0
        for role in self.roles:
            if role.id in role_ids:
                value |= role.permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value


ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 53) - 1


@dataclass(slots=True)
class FakeChannel:
    """A text channel in a guild, a public thread under one (``parent_id`` set), or a DM
    channel with one recipient."""

    id: int
    guild_id: int | None
    name: str
    recipient_id: int | None = None
    hidden_from: set[int] = field(default_factory=set)  # members denied View Channel
    bot_denied: int = 0  # the bot lacks these here (sent as interactions' app_permissions)
    parent_id: int | None = None  # a thread's text channel
    owner_id: int | None = None  # who created the thread
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    created_at: str = ""

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None

    @property
    def is_thread(self) -> bool:
        return self.parent_id is not None


@dataclass(slots=True)
class StoredAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None


@dataclass(slots=True)
class StoredMessage:
    """A message as it is now (edits applied), plus how many times it was edited."""

    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    created_at: str = ""
    edited_at: str | None = None
    edit_count: int = 0
    deleted: bool = False
    visible_to: int | None = None
    """For an ephemeral message, the only user who sees it."""

    @property
    def is_ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL_FLAG)

    @property
    def attachment_names(self) -> list[str]:
        return [attachment.filename for attachment in self.attachments]

    def attachment(self, filename: str) -> bytes:
        """The bytes of the attached file called ``filename``."""
        for attachment in self.attachments:
            if attachment.filename == filename:
                return attachment.data
        raise KeyError(f"message {self.id} has no attachment {filename!r}: {self.attachment_names}")

    def custom_ids(self) -> list[str]:
        """Every component custom_id on the message, in reading order."""
        return [component["custom_id"] for component in self.walk_components()
                if "custom_id" in component]

    def walk_components(self) -> list[JSON]:
        """All components, nested ones (action rows, sections, containers) flattened."""
        found: list[JSON] = []
        pending = list(self.components)
        while pending:
            component = pending.pop(0)
            found.append(component)
            pending[:0] = component.get("components", [])
            if "accessory" in component:
                pending.insert(0, component["accessory"])
        return found

    def find_component(self, custom_id: str) -> JSON:
        for component in self.walk_components():
            if component.get("custom_id") == custom_id:
                return component
        raise LookupError(
            f"message {self.id} has no component {custom_id!r}; it has {self.custom_ids()}"
        )


@dataclass(slots=True)
class InteractionRecord:
    """An interaction the fake sent, and everything the bot answered to it.

    ``response_type`` is the callback type (4 message, 5 deferred, 6 deferred update,
    7 update message, 9 modal). ``message`` is the response message as it is now: the new
    message for types 4/5, the clicked message for types 6/7.
    """

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    created: float
    source_message_id: int | None = None
    response_type: int | None = None
    response_json: JSON | None = None
    message: StoredMessage | None = None
    modal: JSON | None = None
    followups: list[StoredMessage] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    token_expired: bool = False
    """Set by a test: the webhook calls of this token fail as after Discord's 15 minutes
    (401, 50027 Invalid Webhook Token)."""

    @property
    def content(self) -> str | None:
        return None if self.message is None else self.message.content

    @property
    def embeds(self) -> list[JSON]:
        return [] if self.message is None else self.message.embeds

    @property
    def components(self) -> list[JSON]:
        return [] if self.message is None else self.message.components

    @property
    def attachment_names(self) -> list[str]:
        return [] if self.message is None else self.message.attachment_names

    @property
    def ephemeral(self) -> bool:
        """True when the response message (or, for a deferral, its placeholder) is ephemeral."""
        return self.message is not None and self.message.is_ephemeral

    @property
    def deferred(self) -> bool:
        return self.response_type in (5, 6)

    @property
    def updated(self) -> bool:
        """True when a click was answered on its own message (7 UPDATE_MESSAGE, or 6, its
        deferred form) rather than with a message of its own."""
        return self.response_type in (6, 7)

    def all_text(self) -> str:
        """Content, embed titles/descriptions/fields of the response and follow-ups, joined:
        handy for asserting that some words were said to the user somehow."""
        parts: list[str] = []
        for message in ([self.message] if self.message else []) + self.followups:
            parts.append(message.content or "")
            for embed in message.embeds:
                parts += [embed.get("title", ""), embed.get("description", "")]
                for embed_field in embed.get("fields", []):
                    parts += [embed_field.get("name", ""), embed_field.get("value", "")]
                parts.append(embed.get("footer", {}).get("text", ""))
        return "\n".join(part for part in parts if part)

"""JSON payloads shaped like Discord's API v10 objects, built from the fake's plain models.

Only the fields discord.py 2.7 reads are filled in; the shapes follow Discord's documentation
(user, member, role, channel, guild, message, attachment, interaction objects).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

JSON = dict[str, Any]

TEXT_CHANNEL = 0
DM_CHANNEL = 1
PUBLIC_THREAD = 11
EPHEMERAL_FLAG = 1 << 6
VIEW_CHANNEL = 1 << 10


def timestamp(moment: datetime | None = None) -> str:
    """An ISO 8601 timestamp as Discord writes them."""
    return (moment or datetime.now(UTC)).isoformat()


def user_payload(user_id: int, name: str, *, bot: bool = False) -> JSON:
    return {
        "id": str(user_id),
        "username": name,
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
        "flags": 0,
    }


def role_payload(role_id: int, name: str, permissions: int, position: int) -> JSON:
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "hoist": False,
        "position": position,
        "permissions": str(permissions),
        "managed": False,
        "mentionable": False,
        "flags": 0,
        "icon": None,
        "unicode_emoji": None,
    }


def member_payload(
    user: JSON, role_ids: list[int], joined_at: str, *, permissions: int | None = None
) -> JSON:
    """A guild member; ``permissions`` (computed) is only present inside interactions."""
    member: JSON = {
        "user": user,
        "nick": None,
        "avatar": None,
        "roles": [str(role_id) for role_id in role_ids],
        "joined_at": joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
    }
    if permissions is not None:
        member["permissions"] = str(permissions)
    return member


def text_channel_payload(channel_id: int, guild_id: int, name: str, position: int,
                         hidden_from: Iterable[int] = ()) -> JSON:
    """A text channel; members in ``hidden_from`` are denied View Channel by an overwrite."""
    return {
        "id": str(channel_id),
        "type": TEXT_CHANNEL,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [
            {"id": str(user_id), "type": 1, "allow": "0", "deny": str(VIEW_CHANNEL)}
            for user_id in hidden_from
        ],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "rate_limit_per_user": 0,
        "last_message_id": None,
    }


def thread_payload(channel_id: int, guild_id: int, parent_id: int, owner_id: int, name: str,
                   *, archived: bool, locked: bool, auto_archive_duration: int,
                   created_at: str, message_count: int = 0) -> JSON:
    """A public thread under a text channel (type 11), with its ``thread_metadata``."""
    return {
        "id": str(channel_id),
        "type": PUBLIC_THREAD,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": message_count,
        "member_count": 1,
        "total_message_sent": message_count,
        "flags": 0,
        "thread_metadata": {
            "archived": archived,
            "auto_archive_duration": auto_archive_duration,
            "archive_timestamp": created_at,
            "locked": locked,
            "create_timestamp": created_at,
        },
    }


def dm_channel_payload(channel_id: int, recipient: JSON) -> JSON:
    return {"id": str(channel_id), "type": DM_CHANNEL, "recipients": [recipient],
            "last_message_id": None}


def guild_payload(
    guild_id: int,
    name: str,
    owner_id: int,
    *,
    roles: list[JSON],
    channels: list[JSON],
    members: list[JSON],
    preferred_locale: str = "en-US",
    threads: list[JSON] | None = None,
) -> JSON:
    """A full GUILD_CREATE guild: every member is included, so discord.py needs no chunking;
    ``preferred_locale`` is the server's language."""
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": preferred_locale,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "features": [],
        "emojis": [],
        "stickers": [],
        "roles": roles,
        "channels": channels,
        "members": members,
        "member_count": len(members),
        "large": False,
        "unavailable": False,
        "joined_at": timestamp(),
        "threads": threads or [],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def attachment_payload(
    attachment_id: int, filename: str, size: int, url: str, content_type: str | None
) -> JSON:
    payload: JSON = {
        "id": str(attachment_id),
        "filename": filename,
        "size": size,
        "url": url,
        "proxy_url": url,
    }
    if content_type:
        payload["content_type"] = content_type
    return payload


def message_payload(
    *,
    message_id: int,
    channel_id: int,
    guild_id: int | None,
    author: JSON,
    content: str,
    embeds: list[JSON],
    components: list[JSON],
    attachments: list[JSON],
    flags: int,
    created_at: str,
    edited_at: str | None,
) -> JSON:
    payload: JSON = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "type": 0,
        "author": author,
        "content": content,
        "timestamp": created_at,
        "edited_timestamp": edited_at,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments,
        "embeds": embeds,
        "components": components,
        "pinned": False,
        "flags": flags,
    }
    if guild_id is not None:
        payload["guild_id"] = str(guild_id)
    return payload


def interaction_payload(
    *,
    interaction_id: int,
    application_id: int,
    interaction_type: int,
    token: str,
    data: JSON,
    channel: JSON,
    guild_id: int | None,
    member: JSON | None,
    user: JSON,
    message: JSON | None = None,
    app_permissions: int = (1 << 53) - 1,
    locale: str = "en-US",
    guild_locale: str = "en-US",
) -> JSON:
    """An INTERACTION_CREATE: ``member`` inside a guild, ``user`` in a DM, as Discord sends;
    ``app_permissions`` are the bot's permissions in the channel."""
    payload: JSON = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": interaction_type,
        "data": data,
        "channel_id": channel["id"],
        "channel": channel,
        "token": token,
        "version": 1,
        "app_permissions": str(app_permissions),
        "locale": locale,
        "entitlements": [],
        "context": 0 if guild_id is not None else 1,
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    if guild_id is not None:
        payload["guild_id"] = str(guild_id)
        payload["guild_locale"] = guild_locale
        payload["authorizing_integration_owners"] = {"0": str(guild_id)}
        payload["member"] = member
    else:
        payload["user"] = user
        payload["authorizing_integration_owners"] = {"1": user["id"]}
    if message is not None:
        payload["message"] = message
    return payload

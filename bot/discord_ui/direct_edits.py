"""The table message's two hottest requests, sent as Discord's JSON in one body: answering a
click with the table (UPDATE_MESSAGE) and editing it through a click's token.

They are most of the requests of a hand (8 answers and 4 token edits of about 13), and
discord.py makes each one expensive for what it carries: it rebuilds the message parameters,
sends the picture as an aiohttp form (eight socket writes), asks for the callback's message
back (``with_response``) and parses every response into a ``Message`` the table never reads.
Here the multipart body is built once as bytes (0.33 ms of the client's CPU against 0.71 for
the same request as a form, measured on this machine), a callback asks for nothing back, and
a response is read, not parsed. Failures keep discord.py's meaning: the same exceptions
(``NotFound`` for an expired interaction, ``HTTPException`` otherwise), 429s waited out and
5xx retried, an exhausted bucket (``X-RateLimit-Remaining: 0``) waited out before its next
request and a 429 that did not come through Discord's proxy (no ``Via``: a Cloudflare ban)
given up on, as its webhook adapter does. Each request has ``REQUEST_TIMEOUT``, not aiohttp's
five minutes: a call that never answers must not hold a table's edits.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord.http import Route, json_or_text

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]

ATTEMPTS = 5
"""As discord.py's webhook adapter: a request is tried at most five times."""
REQUEST_TIMEOUT = 10.0
"""Seconds one request may take, answer read (a table edit carries a picture of about 9 KB);
then it fails with ``TimeoutError`` and the table's edit takes its next way."""
REQUEST_FAILURES: tuple[type[Exception], ...] = (discord.HTTPException, aiohttp.ClientError,
                                                 OSError)
"""How a request to Discord can fail: refused or not answered (``HTTPException``), its
connection dropped (``aiohttp.ClientError``, or discord.py's ``OSError``) or timed out
(``TimeoutError``, an ``OSError``)."""
_BOUNDARY = b"holdem-table-edit"
_FORM_TYPE = (b"multipart/form-data; boundary=" + _BOUNDARY).decode()
_JSON_PART = (b"--%s\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n"
              b"Content-Type: application/json\r\n\r\n" % _BOUNDARY)
_FILE_PART = (b"\r\n--%s\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"%%s\"\r\n"
              b"Content-Type: image/png\r\n\r\n" % _BOUNDARY)
_END = b"\r\n--%s--\r\n" % _BOUNDARY
"""The multipart framing, as bytes: it is written once per module, not per edit."""


@dataclass(frozen=True, slots=True)
class TableEdit:
    """What one edit of the table message shows: its embed and buttons as Discord's JSON, and
    the picture (``filename``) when it changed; ``None`` keeps the one the message has."""

    embed: Mapping[str, Any]
    components: Sequence[Mapping[str, Any]]
    picture: bytes | None = None
    filename: str = "table.png"

    def message(self) -> dict[str, Any]:
        """The message fields of the edit (a new picture replaces the message's files)."""
        fields: dict[str, Any] = {"embeds": [self.embed], "components": list(self.components),
                                  "allowed_mentions": {"parse": []}}
        if self.picture is not None:
            fields["attachments"] = [{"id": 0, "filename": self.filename}]
        return fields

    def body(self, payload: Mapping[str, Any]) -> tuple[bytes, str]:
        """``payload`` as the request's body and content type: JSON, or with the picture a
        ``multipart/form-data`` of ``payload_json`` and ``files[0]``."""
        data = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
        if self.picture is None:
            return data, "application/json"
        part = _FILE_PART % self.filename.encode()
        return b"".join((_JSON_PART, data, part, self.picture, _END)), _FORM_TYPE


async def answer_with_table(interaction: Interaction, edit: TableEdit) -> None:
    """Answer a click on the table message with ``edit`` (UPDATE_MESSAGE), and mark the
    interaction answered as discord.py would."""
    if interaction.response.is_done():
        raise discord.InteractionResponded(interaction)
    await _send(interaction, "POST", f"/interactions/{interaction.id}/{interaction.token}"
                f"/callback", edit, {"type": 7, "data": edit.message()})
    # discord.py's own record that the interaction is answered (InteractionResponse.is_done)
    interaction.response._response_type = discord.InteractionResponseType.message_update


async def edit_through_token(interaction: Interaction, edit: TableEdit) -> None:
    """Edit the message ``interaction`` came from (its ``@original``) to show ``edit``."""
    await _send(interaction, "PATCH", f"/webhooks/{interaction.application_id}"
                f"/{interaction.token}/messages/@original", edit, edit.message())


_exhausted: dict[str, float] = {}
"""Buckets (a request's path: its interaction or application id and token, the bucket
discord.py keys by) whose last answer said ``X-RateLimit-Remaining: 0``, and the monotonic
time each resets."""


async def _send(interaction: Interaction, method: str, path: str, edit: TableEdit,
                payload: Mapping[str, Any]) -> None:
    body, content_type = edit.body(payload)
    # the session discord.py's interaction methods use; Route.BASE is where the bot's REST
    # calls go (Discord, or DISCORD_API_BASE)
    session: aiohttp.ClientSession = interaction._session
    url = Route.BASE + path
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
    data: Any = None
    for attempt in range(ATTEMPTS):
        await _wait_for_reset(path)
        async with session.request(method, url, data=body, timeout=timeout,
                                   headers={"Content-Type": content_type}) as response:
            data = await json_or_text(response)
            if response.headers.get("X-Ratelimit-Remaining") == "0" and response.status != 429:
                _note_exhausted(path, discord.utils._parse_ratelimit_header(response))
            if 200 <= response.status < 300:
                return
            if response.status == 429:
                if not response.headers.get("Via") or not isinstance(data, dict):
                    raise discord.HTTPException(response, data)  # banned by Cloudflare
                retry_after = float(data.get("retry_after", 1.0))
                log.warning("table edit rate limited; retrying in %.2f s", retry_after)
                await asyncio.sleep(retry_after)
                continue
            if response.status >= 500:
                await asyncio.sleep(1 + attempt * 2)
                continue
            if response.status == 404:
                raise discord.NotFound(response, data)
            if response.status == 403:
                raise discord.Forbidden(response, data)
            raise discord.HTTPException(response, data)
    # every attempt waited out a 429 or a server error
    if response.status >= 500:
        raise discord.DiscordServerError(response, data)
    raise discord.HTTPException(response, data)


def _note_exhausted(bucket: str, reset_after: float) -> None:
    """``bucket`` has no request left for ``reset_after`` seconds; buckets that reset since are
    forgotten (most are one click's and never used again)."""
    now = time.monotonic()
    for key in [key for key, reset in _exhausted.items() if reset <= now]:
        del _exhausted[key]
    _exhausted[bucket] = now + reset_after


async def _wait_for_reset(bucket: str) -> None:
    """Wait until ``bucket`` resets, if its last answer said it was exhausted."""
    wait = _exhausted.pop(bucket, 0.0) - time.monotonic()
    if wait > 0:
        log.debug("table edit bucket exhausted; waiting %.2f s", wait)
        await asyncio.sleep(wait)

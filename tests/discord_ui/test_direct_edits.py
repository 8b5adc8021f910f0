"""The table's direct edits against a scripted Discord on 127.0.0.1: the body Discord reads,
429s waited out (but Cloudflare's given up on), exhausted buckets waited out, server errors
retried, refusals raised as discord.py raises them, and no request waiting for ever."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web

from bot.discord_ui import direct_edits
from bot.discord_ui.direct_edits import TableEdit, answer_with_table, edit_through_token

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
EMBED = {"title": "Texas Hold'em · blinds 10/20", "description": "Hand #7 · Flop 中文"}
BUTTONS = [{"type": 1, "components": [
    {"type": 2, "style": 2, "label": "Fold", "custom_id": "holdem:fold:7:3"}]}]


Answer = tuple[int, dict[str, Any] | None] | tuple[int, dict[str, Any] | None, dict[str, str]]
NEVER: Answer = (0, None)
"""No answer at all: the request is held until the test ends."""
VIA = {"Via": "1.1 google"}
"""What Discord's own answers carry (a 429 without it comes from Cloudflare)."""


@dataclass
class ScriptedDiscord:
    """Answers each request with the next of ``answers`` (status, JSON body, and headers when
    given; ``NEVER``) and keeps what it was sent: method, path, query, content type and the
    parsed parts."""

    answers: list[Answer] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    released: asyncio.Event = field(default_factory=asyncio.Event)

    async def handle(self, request: web.Request) -> web.Response:
        parts: dict[str, bytes] = {}
        if request.content_type == "multipart/form-data":
            async for part in await request.multipart():
                assert isinstance(part, aiohttp.BodyPartReader)
                parts[f"{part.name}:{part.filename}"] = await part.read()
        else:
            parts["json:None"] = await request.read()
        self.requests.append({"method": request.method, "path": request.path,
                              "query": dict(request.query), "parts": parts})
        answer = self.answers.pop(0) if self.answers else (204, None)
        if answer is NEVER:
            await self.released.wait()
        status, body, *extra = answer
        headers = extra[0] if extra else {}
        if body is None:
            return web.Response(status=status or 204, headers=headers)
        return web.Response(status=status, body=json.dumps(body).encode(),  # as Discord
                            headers={"Content-Type": "application/json", **headers})


@pytest.fixture
async def discord_api(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[ScriptedDiscord]:
    scripted = ScriptedDiscord()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", scripted.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    yield scripted
    scripted.released.set()
    await runner.cleanup()


@pytest.fixture
async def click() -> AsyncIterator[Any]:
    """A click's interaction as the direct edits read it: ids, token, session, response."""
    async with aiohttp.ClientSession() as session:
        interaction = SimpleNamespace(id=111, token="tok-en", application_id=222,
                                      _session=session)
        interaction.response = discord.InteractionResponse(interaction)  # type: ignore[arg-type]
        yield interaction


async def test_a_click_is_answered_with_the_table_and_its_new_picture_in_one_body(
        discord_api: ScriptedDiscord, click: Any) -> None:
    await answer_with_table(click, TableEdit(EMBED, BUTTONS, PNG))

    (sent,) = discord_api.requests
    assert (sent["method"], sent["path"]) == ("POST", "/api/v10/interactions/111/tok-en/callback")
    assert sent["query"] == {}  # nothing asked back: Discord answers 204
    payload = json.loads(sent["parts"]["payload_json:None"])
    assert payload == {"type": 7, "data": {
        "embeds": [EMBED], "components": BUTTONS, "allowed_mentions": {"parse": []},
        "attachments": [{"id": 0, "filename": "table.png"}]}}
    assert sent["parts"]["files[0]:table.png"] == PNG
    assert click.response.is_done()


async def test_an_edit_without_a_new_picture_keeps_the_messages_own(
        discord_api: ScriptedDiscord, click: Any) -> None:
    await edit_through_token(click, TableEdit(EMBED, BUTTONS))

    (sent,) = discord_api.requests
    assert (sent["method"], sent["path"]) == ("PATCH",
                                              "/api/v10/webhooks/222/tok-en/messages/@original")
    assert "attachments" not in json.loads(sent["parts"]["json:None"])


async def test_a_rate_limit_is_waited_out_and_a_server_error_retried(
        discord_api: ScriptedDiscord, click: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(direct_edits.asyncio, "sleep", no_wait)
    discord_api.answers = [(429, {"message": "You are being rate limited.", "retry_after": 0.25,
                                  "global": False}, VIA), (502, {"message": "Bad Gateway"}),
                           (200, {"id": "1"})]
    await edit_through_token(click, TableEdit(EMBED, BUTTONS, PNG))

    assert len(discord_api.requests) == 3
    assert all(sent["parts"]["files[0]:table.png"] == PNG for sent in discord_api.requests)
    assert waits == [0.25, 3]  # the 429's retry_after, then 1 + 2 s after the second try


async def test_an_expired_click_raises_not_found_and_stays_unanswered(
        discord_api: ScriptedDiscord, click: Any) -> None:
    discord_api.answers = [(404, {"message": "Unknown interaction", "code": 10062})]
    with pytest.raises(discord.NotFound) as refused:
        await answer_with_table(click, TableEdit(EMBED, BUTTONS, PNG))
    assert refused.value.code == 10062
    assert not click.response.is_done()


async def test_a_refused_token_raises_as_discord_py_does(
        discord_api: ScriptedDiscord, click: Any) -> None:
    discord_api.answers = [(401, {"message": "Invalid Webhook Token", "code": 50027})]
    with pytest.raises(discord.HTTPException) as refused:
        await edit_through_token(click, TableEdit(EMBED, BUTTONS))
    assert (refused.value.status, refused.value.code) == (401, 50027)


async def test_an_answered_click_is_not_answered_twice(
        discord_api: ScriptedDiscord, click: Any) -> None:
    await answer_with_table(click, TableEdit(EMBED, BUTTONS))
    with pytest.raises(discord.InteractionResponded):
        await answer_with_table(click, TableEdit(EMBED, BUTTONS))
    assert len(discord_api.requests) == 1


async def test_a_429_that_did_not_come_from_discord_is_given_up_as_discord_py_does(
        discord_api: ScriptedDiscord, click: Any) -> None:
    """Without ``Via`` the 429 is Cloudflare's (a ban): retrying only prolongs it."""
    discord_api.answers = [(429, {"message": "You are being rate limited.", "retry_after": 0.25,
                                  "global": False})]
    with pytest.raises(discord.HTTPException) as refused:
        await edit_through_token(click, TableEdit(EMBED, BUTTONS))
    assert refused.value.status == 429
    assert len(discord_api.requests) == 1


async def test_an_exhausted_bucket_is_waited_out_before_its_next_request(
        discord_api: ScriptedDiscord, click: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(direct_edits.asyncio, "sleep", no_wait)
    exhausted = {"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                 "X-RateLimit-Reset-After": "30.000"}
    discord_api.answers = [(200, {"id": "1"}, exhausted), (200, {"id": "1"})]
    await edit_through_token(click, TableEdit(EMBED, BUTTONS))
    assert waits == []  # the request that emptied the bucket is not held
    await edit_through_token(click, TableEdit(EMBED, BUTTONS))
    assert len(waits) == 1 and 25 < waits[0] <= 30
    assert len(discord_api.requests) == 2


async def test_a_request_that_never_answers_fails_within_its_timeout(
        discord_api: ScriptedDiscord, click: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not after aiohttp's five minutes: the table's next way of editing takes over."""
    monkeypatch.setattr(direct_edits, "REQUEST_TIMEOUT", 0.2)
    discord_api.answers = [NEVER]
    edit = asyncio.ensure_future(edit_through_token(click, TableEdit(EMBED, BUTTONS)))
    try:
        await asyncio.wait({edit}, timeout=60)  # only when the test gives up
        assert edit.done(), "the request is still waiting for its answer"
    finally:
        edit.cancel()
    with pytest.raises(TimeoutError):
        edit.result()

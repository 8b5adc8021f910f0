"""The table's direct edits against a scripted Discord on 127.0.0.1: the body Discord reads,
429s waited out, server errors retried, refusals raised as discord.py raises them."""

from __future__ import annotations

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


@dataclass
class ScriptedDiscord:
    """Answers each request with the next of ``answers`` (status, JSON body) and keeps what
    it was sent: method, path, query, content type and the parsed parts."""

    answers: list[tuple[int, dict[str, Any] | None]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)

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
        status, body = self.answers.pop(0) if self.answers else (204, None)
        if body is None:
            return web.Response(status=status)
        return web.Response(status=status, body=json.dumps(body).encode(),  # as Discord
                            headers={"Content-Type": "application/json"})


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
                                  "global": False}), (502, {"message": "Bad Gateway"}),
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

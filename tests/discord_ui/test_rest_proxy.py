"""With DISCORD_API_BASE set, every REST call goes to the shared proxy in front of Discord."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web

from tests.discord_ui.club import Club, control, deal_first_turn

pytestmark = pytest.mark.slow

HOP_HEADERS = {"host", "content-length", "transfer-encoding", "connection"}


class ForwardingProxy:
    """A transparent HTTP proxy on 127.0.0.1 that forwards to ``upstream`` and notes each
    request's method and path, as nirn-proxy or twilight-http-proxy would (without their
    rate limit bookkeeping)."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.seen: list[str] = []
        self.url = ""

    async def forward(self, request: web.Request) -> web.Response:
        self.seen.append(f"{request.method} {request.path}")
        headers = {name: value for name, value in request.headers.items()
                   if name.lower() not in HOP_HEADERS}
        async with aiohttp.ClientSession() as session, session.request(
                request.method, self.upstream + request.path_qs, headers=headers,
                data=await request.read()) as answer:
            body = await answer.read()
            kept = {name: value for name, value in answer.headers.items()
                    if name.lower() not in HOP_HEADERS}
            return web.Response(body=body, status=answer.status, headers=kept)


@pytest.fixture
async def proxy(club: Club) -> AsyncIterator[ForwardingProxy]:
    forwarding = ForwardingProxy(club.fake.world.base_url)
    app = web.Application()
    app.router.add_route("*", "/{path:.*}", forwarding.forward)
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    forwarding.url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    await web.SockSite(runner, listener).start()
    yield forwarding
    await runner.cleanup()


async def test_every_rest_call_goes_through_the_configured_proxy(
    club: Club, proxy: ForwardingProxy
):
    bot = club.new_bot(api_base=proxy.url + "/api/v10")
    await club.fake.run_client(bot)
    user = await deal_first_turn(club, bot)
    table = await club.table_message(bot)
    answer = await club.fake.click(user, table.id, control(table, "check", "call"))
    assert answer.response_type == 7
    await club.fake.stop_client()  # while the proxy still runs: closing edits the table
    rest = [f"{call.method} /api/v10{call.path}" for call in club.fake.calls
            if call.path != "/gateway"]  # the gateway websocket is not REST
    assert rest and proxy.seen == rest  # login, commands, messages, DMs, interaction answers
    assert any("/interactions/" in seen for seen in proxy.seen)

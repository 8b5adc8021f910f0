"""Discord's OAuth2 for web logins: the authorize step, ``/oauth2/token``, ``/users/@me`` and
``/users/@me/guilds`` with a Bearer token, under ``/api`` (unversioned, as Discord also
answers), beside the bot's ``/api/v10``.

A test says who the browser is signed in to Discord as (``sign_in``); the authorize page then
approves at once, sending the browser back with a code, as Discord does for an application
the person already authorized. Point the web companion at ``FakeDiscord.oauth_base``
(``DISCORD_OAUTH_BASE``) with ``client_id`` and ``client_secret``.
"""

from __future__ import annotations

import secrets
from urllib.parse import urlencode

from aiohttp import web

from .rest import json_response
from .world import World

OAUTH_PREFIX = "/api"


class FakeOAuth:
    """The OAuth2 side of the fake Discord; see the module docstring."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.client_secret = "fake-client-secret"
        self.signed_in: int | None = None
        """Who the browser is signed in to Discord as; ``None``: the authorize step refuses."""
        self.denied = False
        """The person clicks Cancel: the authorize step answers ``error=access_denied``."""
        self._codes: dict[str, tuple[int, str]] = {}
        self._tokens: dict[str, int] = {}
        self.authorize_requests: list[dict[str, str]] = []

    @property
    def client_id(self) -> str:
        """The application's id: the bot's, as on Discord."""
        return str(self.world.bot.id)

    def sign_in(self, user_id: int | None) -> None:
        self.signed_in = user_id

    def revoke(self, user_id: int) -> None:
        """The person removes the application: their tokens stop working."""
        self._tokens = {token: owner for token, owner in self._tokens.items()
                        if owner != user_id}

    def code_for(self, user_id: int, redirect_uri: str) -> str:
        """A fresh authorization code, as the authorize step hands out."""
        code = secrets.token_urlsafe(16)
        self._codes[code] = (user_id, redirect_uri)
        return code

    def install(self, app: web.Application) -> None:
        app.router.add_get(OAUTH_PREFIX + "/oauth2/authorize", self.authorize)
        app.router.add_post(OAUTH_PREFIX + "/oauth2/token", self.token)
        app.router.add_get(OAUTH_PREFIX + "/users/@me", self.me)
        app.router.add_get(OAUTH_PREFIX + "/users/@me/guilds", self.guilds)

    async def authorize(self, request: web.Request) -> web.Response:
        query = dict(request.query)
        self.authorize_requests.append(query)
        if (query.get("client_id") != self.client_id or query.get("response_type") != "code"
                or set(query.get("scope", "").split()) != {"identify", "guilds"}
                or not query.get("redirect_uri")):
            return web.Response(status=400, text="invalid OAuth2 request")
        back = {"state": query.get("state", "")}
        if self.denied:
            back["error"] = "access_denied"
        elif self.signed_in is None:
            return web.Response(status=401, text="not signed in to Discord")
        else:
            back["code"] = self.code_for(self.signed_in, query["redirect_uri"])
        raise web.HTTPFound(f"{query['redirect_uri']}?{urlencode(back)}")

    async def token(self, request: web.Request) -> web.Response:
        form = await request.post()
        found = self._codes.pop(str(form.get("code", "")), None)
        if (found is None or form.get("grant_type") != "authorization_code"
                or form.get("client_id") != self.client_id
                or form.get("client_secret") != self.client_secret
                or form.get("redirect_uri") != found[1]):
            return json_response({"error": "invalid_grant"}, status=400)
        token = secrets.token_urlsafe(24)
        self._tokens[token] = found[0]
        return json_response({"access_token": token, "token_type": "Bearer",
                              "expires_in": 604800, "refresh_token": secrets.token_urlsafe(8),
                              "scope": "identify guilds"})

    def _user(self, request: web.Request) -> int | None:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        return self._tokens.get(token) if scheme == "Bearer" else None

    async def me(self, request: web.Request) -> web.Response:
        user_id = self._user(request)
        if user_id is None:
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        user = self.world.users[user_id]
        return json_response({"id": str(user.id), "username": user.name, "global_name": None,
                              "avatar": None, "discriminator": "0"})

    async def guilds(self, request: web.Request) -> web.Response:
        user_id = self._user(request)
        if user_id is None:
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return json_response([
            {"id": str(guild.id), "name": guild.name, "icon": None,
             "owner": guild.owner_id == user_id, "permissions": "0"}
            for guild in self.world.guilds.values() if user_id in guild.members])

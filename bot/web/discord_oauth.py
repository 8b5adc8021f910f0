"""Discord's side of "Log in with Discord": the OAuth2 authorization code flow.

Only the scopes ``identify`` (who the person is) and ``guilds`` (which servers they are in)
are asked for. Everything goes to ``WebSettings.oauth_base`` (Discord's API, or the fake one
in tests); answers that are not what Discord sends raise ``OAuthFailed``, never anything else.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

import aiohttp

from bot.settings import WebSettings

SCOPES = "identify guilds"
TIMEOUT = aiohttp.ClientTimeout(total=10)


class OAuthFailed(Exception):
    """Discord refused (``refused``: the code or token is not good, as when a person revoked
    the application) or could not be reached or understood."""

    def __init__(self, reason: str, *, refused: bool) -> None:
        super().__init__(reason)
        self.refused = refused


class DiscordOAuth:
    """Talks to Discord for the login; ``start`` and ``close`` bracket its HTTP client."""

    def __init__(self, web: WebSettings) -> None:
        self.web = web
        self._http: aiohttp.ClientSession | None = None

    @property
    def configured(self) -> bool:
        """True when the application's id and secret are set, so people can log in."""
        return bool(self.web.client_id and self.web.client_secret)

    @property
    def redirect_uri(self) -> str:
        """Where Discord sends people back (register it in the developer portal, OAuth2)."""
        return f"{self.web.url}/login/callback"

    def authorize_url(self, state: str) -> str:
        """Discord's page asking the person to let this site know who they are."""
        query = urlencode({"client_id": self.web.client_id or "", "response_type": "code",
                           "scope": SCOPES, "state": state, "redirect_uri": self.redirect_uri,
                           "prompt": "none"})
        return f"{self.web.oauth_base}/oauth2/authorize?{query}"

    async def start(self) -> None:
        self._http = aiohttp.ClientSession(timeout=TIMEOUT)

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()

    async def exchange(self, code: str) -> str:
        """The access token for an authorization ``code``."""
        answer = await self._call("POST", "/oauth2/token", data={
            "grant_type": "authorization_code", "code": code,
            "redirect_uri": self.redirect_uri, "client_id": self.web.client_id or "",
            "client_secret": self.web.client_secret or ""})
        token = answer.get("access_token") if isinstance(answer, Mapping) else None
        if not isinstance(token, str) or not token:
            raise OAuthFailed("no access token in Discord's answer", refused=False)
        return token

    async def identity(self, token: str) -> tuple[int, str]:
        """The person's user id and the name to show (their display name, else username)."""
        answer = await self._call("GET", "/users/@me", token=token)
        if not isinstance(answer, Mapping):
            raise OAuthFailed("Discord's /users/@me is not an object", refused=False)
        user_id, name = answer.get("id"), answer.get("global_name") or answer.get("username")
        if not (isinstance(user_id, str) and user_id.isdecimal() and isinstance(name, str)):
            raise OAuthFailed("Discord's /users/@me has no id or name", refused=False)
        return int(user_id), name

    async def guilds(self, token: str) -> frozenset[int]:
        """The ids of the servers the person is a member of."""
        answer = await self._call("GET", "/users/@me/guilds", token=token)
        if not isinstance(answer, list):
            raise OAuthFailed("Discord's /users/@me/guilds is not a list", refused=False)
        ids = [guild.get("id") for guild in answer if isinstance(guild, Mapping)]
        return frozenset(int(text) for text in ids
                         if isinstance(text, str) and text.isdecimal() and len(text) <= 19)

    async def _call(self, method: str, path: str, *, token: str | None = None,
                    data: Mapping[str, str] | None = None) -> object:
        if self._http is None:
            raise OAuthFailed("the web companion is not started", refused=False)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            async with self._http.request(method, self.web.oauth_base + path, data=data,
                                          headers=headers) as response:
                if response.status in (400, 401, 403):
                    raise OAuthFailed(f"Discord answered {response.status} to {path}",
                                      refused=True)
                if response.status != 200:
                    raise OAuthFailed(f"Discord answered {response.status} to {path}",
                                      refused=False)
                return await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise OAuthFailed(f"{path}: {error!r}", refused=False) from None

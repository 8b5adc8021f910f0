"""Encrypted cookies: the session of a person logged in, and the login in progress.

Cookies are sealed with Fernet (AES in CBC mode with an HMAC, and a timestamp): a forged or
altered cookie does not open, and an old one is refused by age. The session holds the
person's Discord access token (to read their servers again, ``bot.web.viewer``), so it is
encrypted, not only signed. The key comes from ``WEB_SESSION_SECRET``, else from
``DISCORD_CLIENT_SECRET`` through HKDF (every web process of one application agrees, and a
restart keeps people logged in), else it is random for the process.
"""

from __future__ import annotations

import base64
import json
import struct
from dataclasses import dataclass

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from bot.settings import WebSettings

SESSION_COOKIE = "holdem_session"
LOGIN_COOKIE = "holdem_login"
SESSION_SECONDS = 30 * 86_400
"""How long a login lasts."""
LOGIN_SECONDS = 600
"""How long the way to Discord's authorize page and back may take."""
MAX_GUILDS = 200
"""Discord's limit on a person's servers (with Nitro): at 8 bytes each the cookie stays
under browsers' 4 KB."""


@dataclass(frozen=True, slots=True)
class Session:
    """A person logged in with Discord."""

    user_id: int
    name: str
    guild_ids: frozenset[int]
    """The servers they are a member of, as Discord said at ``checked_at``."""
    access_token: str
    checked_at: float


class SessionBox:
    """Seals and opens the cookies with one key."""

    def __init__(self, web: WebSettings) -> None:
        self._fernet = Fernet(_key(web))

    def seal(self, data: dict[str, object]) -> str:
        """``data`` (plain JSON values), encrypted and stamped with the time."""
        return self._fernet.encrypt(json.dumps(data, separators=(",", ":")).encode()).decode()

    def open(self, sealed: str | None, max_age: int) -> dict[str, object] | None:
        """What ``seal`` sealed, or ``None`` for a cookie that is missing, forged, altered,
        older than ``max_age`` seconds or not a mapping."""
        if not sealed:
            return None
        try:
            data = json.loads(self._fernet.decrypt(sealed.encode(), ttl=max_age))
        except (InvalidToken, ValueError, UnicodeError):
            return None
        return data if isinstance(data, dict) else None

    def seal_session(self, session: Session) -> str:
        packed = struct.pack(f"<{len(session.guild_ids)}Q", *sorted(session.guild_ids))
        return self.seal({"u": session.user_id, "n": session.name, "t": session.access_token,
                          "c": session.checked_at, "g": base64.b64encode(packed).decode()})

    def open_session(self, sealed: str | None) -> Session | None:
        data = self.open(sealed, SESSION_SECONDS)
        if data is None:
            return None
        try:
            packed = base64.b64decode(str(data["g"]), validate=True)
            guilds = struct.unpack(f"<{len(packed) // 8}Q", packed)
            user_id, checked_at = data["u"], data["c"]
        except (KeyError, ValueError, struct.error):
            return None  # sealed by this key, so only an older layout: log in again
        if not (isinstance(user_id, int) and isinstance(checked_at, int | float)):
            return None
        return Session(user_id, str(data["n"]), frozenset(guilds), str(data["t"]),
                       float(checked_at))


def _key(web: WebSettings) -> bytes:
    secret = web.session_secret or web.client_secret
    if secret is None:
        return Fernet.generate_key()
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"holdem-discord web",
                   info=b"session cookies").derive(secret.encode())
    return base64.urlsafe_b64encode(derived)

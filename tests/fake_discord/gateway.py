"""The fake gateway: a websocket speaking Discord's gateway protocol in plain JSON text frames.

HELLO, then heartbeat ACKs; IDENTIFY is answered with READY and one GUILD_CREATE per guild
of the shard it names (with every member, so discord.py needs no chunking); RESUME with
RESUMED. Several connections may be open at once, one per shard, from one process or several.
Tests push events (INTERACTION_CREATE) through ``dispatch``, which sends a guild's events to
the connection of its shard, ``(guild_id >> 22) % shard_count``, and direct-message events to
shard 0, as Discord does; a connection that names no shard is shard 0 of 1.

``drop`` makes an outage: every connection is closed and new ones are refused for a while,
REST staying up, as when Discord's gateway fails.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets

from aiohttp import WSMsgType, web

from .payloads import JSON
from .world import World

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41_250


def _payload(message: JSON) -> JSON:
    """The object in a gateway message's ``d``: a client sending anything else fails loudly."""
    data = message.get("d")
    if not isinstance(data, dict):
        raise ValueError(f"gateway op {message.get('op')} carries no object in 'd': {data!r}")
    return data


class Op:
    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    RESUME = 6
    REQUEST_GUILD_MEMBERS = 8
    HELLO = 10
    HEARTBEAT_ACK = 11


class GatewaySession:
    """One client's websocket and its event sequence number."""

    def __init__(self, socket: web.WebSocketResponse) -> None:
        self.socket = socket
        self.session_id = secrets.token_hex(16)
        self.sequence = 0
        self.identified = False
        self.shard: tuple[int, int] = (0, 1)
        """``(shard_id, shard_count)`` from IDENTIFY."""

    def serves(self, guild_id: int | None) -> bool:
        """Whether a guild's events (``None``: a direct message's) go to this connection."""
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else (guild_id >> 22) % count)

    async def send(self, op: int, data: object) -> None:
        await self.socket.send_str(json.dumps({"op": op, "d": data}))

    async def dispatch(self, event: str, data: JSON) -> None:
        self.sequence += 1
        frame = {"op": Op.DISPATCH, "t": event, "s": self.sequence, "d": data}
        await self.socket.send_str(json.dumps(frame))


class Gateway:
    """Serves ``/gateway`` and remembers which session is live."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.sessions: list[GatewaySession] = []
        self._shards: dict[str, tuple[int, int]] = {}
        """The shard of every session id ever identified, for RESUME on a new socket."""
        self._refuse_until = 0.0
        """The loop time until which new connections are refused (``drop``)."""

    def install(self, app: web.Application) -> None:
        app.router.add_get("/gateway", self.serve)

    @property
    def live(self) -> GatewaySession | None:
        """The most recent identified session whose socket is still open."""
        return self.live_for(None, any_shard=True)

    def live_for(self, guild_id: int | None, *, any_shard: bool = False) -> GatewaySession | None:
        """The most recent open session that serves the guild (``None``: direct messages)."""
        for session in reversed(self.sessions):
            if (session.identified and not session.socket.closed
                    and (any_shard or session.serves(guild_id))):
                return session
        return None

    async def dispatch(self, event: str, data: JSON, *, guild_id: int | None = None) -> None:
        """Send an event to the connection of ``guild_id``'s shard (``None``: shard 0)."""
        session = self.live_for(guild_id)
        if session is None:
            raise RuntimeError(f"cannot send {event}: no client is connected for the shard of "
                               f"guild {guild_id} (use run_client)")
        await session.dispatch(event, data)

    @property
    def refusing(self) -> bool:
        """True while new connections are refused (an outage made by ``drop``)."""
        return asyncio.get_running_loop().time() < self._refuse_until

    async def drop(self, refuse_for: float) -> None:
        """An outage: close every connection (as a failing gateway does, code 1001: clients
        reconnect) and answer new ones 503 for ``refuse_for`` seconds."""
        self._refuse_until = asyncio.get_running_loop().time() + refuse_for
        for session in list(self.sessions):
            await session.socket.close(code=1001, message=b"fake outage")

    async def close_all(self) -> None:
        for session in self.sessions:
            await session.socket.close()
        self.sessions.clear()

    async def serve(self, request: web.Request) -> web.StreamResponse:
        if self.refusing:
            return web.Response(status=503, text="the fake gateway is down")
        socket = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await socket.prepare(request)
        session = GatewaySession(socket)
        self.sessions.append(session)
        await session.send(Op.HELLO, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS})
        try:
            async for frame in socket:
                if frame.type == WSMsgType.TEXT:
                    await self._receive(session, json.loads(frame.data))
                elif frame.type == WSMsgType.ERROR:
                    break
        finally:
            if session in self.sessions:
                self.sessions.remove(session)
        return socket

    async def _receive(self, session: GatewaySession, message: JSON) -> None:
        op = message.get("op")
        if op == Op.HEARTBEAT:
            await session.send(Op.HEARTBEAT_ACK, None)
        elif op == Op.IDENTIFY:
            data = _payload(message)
            shard = data.get("shard") or [0, 1]
            session.shard = (int(shard[0]), int(shard[1]))
            await self._identify(session)
        elif op == Op.RESUME:
            data = _payload(message)
            session.shard = self._shards.get(str(data.get("session_id")), (0, 1))
            session.session_id = str(data.get("session_id"))
            session.identified = True
            await session.dispatch("RESUMED", {})
        elif op == Op.REQUEST_GUILD_MEMBERS:
            data = _payload(message)
            guild = self.world.guilds[int(data["guild_id"])]
            await session.dispatch("GUILD_MEMBERS_CHUNK", {
                "guild_id": str(guild.id),
                "members": [self.world.member_json(guild, user_id) for user_id in guild.members],
                "chunk_index": 0, "chunk_count": 1, "nonce": data.get("nonce"),
            })
        else:
            log.debug("fake gateway ignores op %s", op)

    async def _identify(self, session: GatewaySession) -> None:
        world = self.world
        session.identified = True
        self._shards[session.session_id] = session.shard
        guilds = [guild for guild in world.guilds.values() if session.serves(guild.id)]
        await session.dispatch("READY", {
            "v": 10,
            "user": world.user_json(world.bot.id),
            "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
            "shard": list(session.shard),
            "session_id": session.session_id,
            "resume_gateway_url": world.base_url.replace("http", "ws", 1) + "/gateway",
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "_trace": ["fake-discord"],
        })
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", world.guild_json(guild))

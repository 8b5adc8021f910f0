"""Discord's Scheduled Events in the fake: create, edit (status moves), delete, and the
members interested in one, with the rules the real API checks for the events the bot makes.

An EXTERNAL event (entity type 3) has no channel, a location (1-100 characters) and an end
time after its start; a new event starts in the future; a status moves only from scheduled
(1) to active (2) or cancelled (4), and from active to completed (3). Anything else is a 400
(code 50035) as Discord answers it. Tests mark members interested with ``interested``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from aiohttp import web

from .rest import API_PREFIX, EXCHANGE, error_response, json_response
from .world import World

JSON = dict[str, Any]
EXTERNAL = 3
MOVES = {1: {2, 4}, 2: {3}}
"""The status moves Discord allows: scheduled -> active or cancelled, active -> completed."""


class ScheduledEvents:
    """The events of every guild of ``world``, by id, and who is interested in each."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.events: dict[int, JSON] = {}
        self.deleted: set[int] = set()
        self.interested_users: dict[int, list[int]] = {}

    def interested(self, event_id: int, *user_ids: int) -> None:
        """Members who marked the event as interested (as they would in Discord)."""
        self.interested_users.setdefault(event_id, []).extend(user_ids)

    def install(self, app: web.Application) -> None:
        many = API_PREFIX + "/guilds/{guild_id}/scheduled-events"
        one = many + "/{event_id}"
        app.router.add_post(many, self.create)
        app.router.add_get(one, self.get)
        app.router.add_patch(one, self.edit)
        app.router.add_delete(one, self.delete)
        app.router.add_get(one + "/users", self.users)

    async def create(self, request: web.Request) -> web.Response:
        body: JSON = request[EXCHANGE].body or {}
        guild_id = int(request.match_info["guild_id"])
        if guild_id not in self.world.guilds:
            return error_response(404, 10004, "Unknown Guild")
        problem = _problem(body)
        if problem:
            return error_response(400, 50035, f"Invalid Form Body ({problem})")
        event_id = self.world.new_id()
        event = {**body, "id": str(event_id), "guild_id": str(guild_id), "status": 1,
                 "channel_id": None, "creator_id": str(self.world.bot.id), "entity_id": None,
                 "user_count": 0}
        self.events[event_id] = event
        return json_response(event)

    async def get(self, request: web.Request) -> web.Response:
        event = self.events.get(int(request.match_info["event_id"]))
        if event is None:
            return error_response(404, 10070, "Unknown Guild Scheduled Event")
        return json_response(event)

    async def edit(self, request: web.Request) -> web.Response:
        event = self.events.get(int(request.match_info["event_id"]))
        if event is None:
            return error_response(404, 10070, "Unknown Guild Scheduled Event")
        body: JSON = request[EXCHANGE].body or {}
        status = body.get("status")
        if status is not None and status not in MOVES.get(event["status"], set()):
            return error_response(400, 50035, f"Invalid Form Body (status {event['status']} "
                                  f"cannot become {status})")
        event.update(body)
        return json_response(event)

    async def delete(self, request: web.Request) -> web.Response:
        event_id = int(request.match_info["event_id"])
        if self.events.pop(event_id, None) is None:
            return error_response(404, 10070, "Unknown Guild Scheduled Event")
        self.deleted.add(event_id)
        return web.Response(status=204)

    async def users(self, request: web.Request) -> web.Response:
        event_id = int(request.match_info["event_id"])
        if event_id not in self.events:
            return error_response(404, 10070, "Unknown Guild Scheduled Event")
        limit = int(request.query.get("limit", 100))
        return json_response([
            {"guild_scheduled_event_id": str(event_id), "user": self.world.user_json(user_id)}
            for user_id in self.interested_users.get(event_id, [])[:limit]])


def _problem(body: JSON) -> str | None:
    """What Discord would refuse in a new event, if anything."""
    name = body.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 100:
        return "name: 1 to 100 characters"
    if len(body.get("description") or "") > 1000:
        return "description: at most 1000 characters"
    try:
        start = dt.datetime.fromisoformat(body["scheduled_start_time"])
    except (KeyError, TypeError, ValueError):
        return "scheduled_start_time"
    if start <= dt.datetime.now(dt.UTC):
        return "scheduled_start_time: must be in the future"
    if body.get("entity_type") == EXTERNAL:
        location = (body.get("entity_metadata") or {}).get("location")
        if not isinstance(location, str) or not 1 <= len(location) <= 100:
            return "entity_metadata.location: required for an external event"
        if body.get("channel_id") is not None:
            return "channel_id: must be null for an external event"
        try:
            end = dt.datetime.fromisoformat(body["scheduled_end_time"])
        except (KeyError, TypeError, ValueError):
            return "scheduled_end_time: required for an external event"
        if end <= start:
            return "scheduled_end_time: after the start"
    return None

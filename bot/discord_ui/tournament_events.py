"""Scheduled tournaments on Discord: the start time a member writes, the Scheduled Event that
announces the tournament, and the one reminder before it starts.

Only stage and voice channels can host a Scheduled Event, and tournaments play in text
channels, so the event is EXTERNAL: its location is the channel's link, and it needs an end
time (Discord requires one for external events), put ``EVENT_HOURS`` after the start. The
event follows the tournament (``follow_event``): active when it starts, completed when it
ends, cancelled when it is cancelled before its start.

The reminder is one message in the tournament's channel (one request under the global rate
limit, however many people it names): the server's ``tournament_role`` when it has one, the
registrants and the members who marked the event as interested.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import zoneinfo

import discord

from bot.discord_ui.tournament_embeds import structure_text
from bot.errors import InputError
from bot.i18n import Language, tr
from bot.tables.tournament_status import TournamentPhase, TournamentStatus

log = logging.getLogger(__name__)

EVENT_HOURS = 3
"""How long the announced event lasts (Discord needs an end for an event outside a voice
channel); an evening's tournament."""
LATEST_START_DAYS = 30
"""The furthest ahead a tournament may be scheduled."""
MAX_MENTIONS = 90
"""People named in a reminder (a message holds 2,000 characters); the rest are counted."""
ACTIVE, COMPLETED, CANCELED = 2, 3, 4
"""Discord's Scheduled Event statuses the bot moves an event to."""

_IN = re.compile(r"in\s+(?:(?P<h>\d{1,3})\s*h(?:ours?)?)?\s*"
                 r"(?:(?P<m>\d{1,4})\s*m(?:in(?:utes?)?)?)?")
_CLOCK = re.compile(r"(?:(?P<day>tomorrow|today)\s+)?(?P<h>\d{1,2}):(?P<m>\d{2})")
_DATE = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2})[ T](?P<h>\d{1,2}):(?P<m>\d{2})")


def parse_start(text: str, now: dt.datetime, zone: str) -> dt.datetime:
    """When ``text`` says a tournament starts, read in the server's time zone ``zone``:
    ``in 2h``, ``in 90m``, ``in 1h30m``, ``20:30`` (today, or tomorrow once past),
    ``tomorrow 20:00``, ``2030-06-01 20:00``. ``InputError`` for anything else, or a time
    not in the next ``LATEST_START_DAYS`` days.

    >>> now = dt.datetime(2030, 6, 1, 18, 0, tzinfo=dt.UTC)
    >>> parse_start("in 2h", now, "UTC").isoformat()
    '2030-06-01T20:00:00+00:00'
    >>> parse_start("tomorrow 20:00", now, "Europe/Paris").isoformat()
    '2030-06-02T20:00:00+02:00'
    >>> parse_start("17:00", now, "UTC").isoformat()
    '2030-06-02T17:00:00+00:00'
    """
    tz = zoneinfo.ZoneInfo(zone)
    local = now.astimezone(tz)
    words = " ".join(text.lower().split())
    start: dt.datetime | None = None
    if (found := _IN.fullmatch(words)) and (found["h"] or found["m"]):
        start = now + dt.timedelta(hours=int(found["h"] or 0), minutes=int(found["m"] or 0))
    elif found := _CLOCK.fullmatch(words):
        start = _at(local.date(), found["h"], found["m"], tz)
        past = start is not None and start <= now and found["day"] is None
        if found["day"] == "tomorrow" or past:
            start = _at(local.date() + dt.timedelta(days=1), found["h"], found["m"], tz)
    elif found := _DATE.fullmatch(words):
        try:
            day = dt.date.fromisoformat(found["date"])
        except ValueError:
            day = None
        start = _at(day, found["h"], found["m"], tz) if day is not None else None
    if start is None:
        raise InputError(tr("Write the start like “in 2h”, “20:30”, “tomorrow 20:00” or "
                            "“2030-06-01 20:00” (the server's time, {zone}).", zone=zone))
    if not now < start <= now + dt.timedelta(days=LATEST_START_DAYS):
        raise InputError(tr("A tournament starts after now and within {days} days.",
                            days=LATEST_START_DAYS))
    return start


def _at(day: dt.date, hour: str, minute: str, tz: zoneinfo.ZoneInfo) -> dt.datetime | None:
    """``day`` at ``hour:minute`` in ``tz``, or ``None`` for a time of day that is not one."""
    try:
        return dt.datetime.combine(day, dt.time(int(hour), int(minute)), tzinfo=tz)
    except ValueError:
        return None


async def create_event(guild: discord.Guild, status: TournamentStatus,
                       language: Language) -> discord.ScheduledEvent:
    """Announce a scheduled tournament as a Discord Scheduled Event (its name, a description
    with the buy-in and structure, its start, the channel as its place)."""
    assert status.starts_at is not None
    settings = status.settings
    start = dt.datetime.fromtimestamp(status.starts_at, dt.UTC)
    description = language.render(tr(
        "Buy-in {buy_in} chips, {stack} starting chips, {structure}, {seats} seats per table. "
        "Register with /tournament join in <#{channel}>.", buy_in=settings.buy_in,
        stack=settings.starting_stack, structure=structure_text(status), seats=settings.seats,
        channel=str(status.channel_id)))
    return await guild.create_scheduled_event(
        name=language.render(tr("Poker tournament #{number}",
                                number=str(status.tournament_id)))[:100],
        description=description[:1000], start_time=start,
        end_time=start + dt.timedelta(hours=EVENT_HOURS),
        entity_type=discord.EntityType.external, privacy_level=discord.PrivacyLevel.guild_only,
        location=f"https://discord.com/channels/{status.guild_id}/{status.channel_id}",
        reason=f"tournament {status.tournament_id}")


async def follow_event(client: discord.Client, status: TournamentStatus) -> None:
    """Move the tournament's event along with it: active once running, completed once
    finished, cancelled (before its start) or completed (after) once cancelled."""
    if status.event_id is None:
        return
    if status.phase is TournamentPhase.RUNNING:
        wanted = ACTIVE
    elif status.phase is TournamentPhase.FINISHED \
            or (status.phase is TournamentPhase.CANCELLED and status.started_at is not None):
        wanted = COMPLETED
    elif status.phase is TournamentPhase.CANCELLED:
        wanted = CANCELED
    else:
        return
    try:
        await client.http.edit_scheduled_event(
            status.guild_id, status.event_id, status=wanted,
            reason=f"tournament {status.tournament_id} is {status.phase.value}")
    except discord.HTTPException:
        log.warning("tournament %s: its event %s could not be set to %s",
                    status.tournament_id, status.event_id, wanted, exc_info=True)


async def remind(client: discord.Client, status: TournamentStatus, role_id: int | None,
                 language: Language) -> None:
    """Ping the registrants, the event's interested members and the server's tournament role
    (if any) in one message: the tournament starts soon."""
    people = [entrant.user_id for entrant in status.entrants if entrant.user_id is not None]
    if status.event_id is not None:
        try:
            found = await client.http.get_scheduled_event_users(
                status.guild_id, status.event_id, limit=100, with_member=False)
            people += [int(entry["user"]["id"]) for entry in found if "user" in entry]
        except discord.HTTPException:
            log.warning("tournament %s: its interested members could not be read",
                        status.tournament_id, exc_info=True)
    unique = list(dict.fromkeys(people))
    mentions = [f"<@&{role_id}>"] if role_id is not None else []
    mentions += [f"<@{user_id}>" for user_id in unique[:MAX_MENTIONS]]
    assert status.starts_at is not None
    text = language.render(tr(
        "{mentions} Tournament #{number} starts <t:{at}:R>: /tournament join to enter.",
        mentions=" ".join(mentions), number=str(status.tournament_id),
        at=str(int(status.starts_at))))
    await client.get_partial_messageable(status.channel_id).send(
        text[:2000], allowed_mentions=discord.AllowedMentions(
            users=True, roles=[discord.Object(role_id)] if role_id is not None else False))

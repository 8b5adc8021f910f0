"""Turn pings: a nudge for a person who asked for one (``/notify on``) when their turn has
been open ``PING_AFTER_SECONDS`` without an action.

A mention inside an edited message does not notify, so the table message cannot do it; a ping
is a message of its own. Where it goes is chosen by what it costs and whom it bothers:

- a direct message: one request against the bot token's global limit (the DM channel is open
  already, from the hole cards), and nobody else sees it. It stays, as a note of the turn;
- a mention in the table's channel, only for someone whose DMs are closed (or whose ping DM
  failed): two requests (the message, and its deletion as soon as the turn is over, so the
  channel keeps no stale pings), and the channel sees it meanwhile.

Never for bots (they get no turn prompt), for people who did not ask, or for anyone who acts
within the grace; at most one per turn.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from bot.discord_ui.embeds import channel_link, countdown
from bot.i18n import Language, tr
from bot.tables.notifier import Turn, TurnPrompt

log = logging.getLogger(__name__)

PING_AFTER_SECONDS = 10.0
"""The grace before a ping. Someone watching the table acts within a few seconds (the bots'
own pauses are 1 to 3 s), so a ping at 10 s reaches only people who looked away, and leaves
them 35 s of the default 45 s timer (and their time bank) to come back."""

SendDm = Callable[[int, str], Awaitable[None]]
"""Sends a DM to a person (raises ``discord.HTTPException`` when it fails)."""


class TurnPings:
    """The pings of one bot: who wants them, the ones waiting for their grace to pass, and
    the channel pings to delete when their turn is over.

    ``send_dm`` sends a direct message; ``dms_closed`` says whether a person's DMs are known
    to be closed; ``language`` is the language to write to a person at a channel's table.
    """

    def __init__(self, client: discord.Client, *, send_dm: SendDm,
                 dms_closed: Callable[[int], bool],
                 language: Callable[[int, int], Language],
                 after: float = PING_AFTER_SECONDS) -> None:
        self._client = client
        self._send_dm = send_dm
        self._dms_closed = dms_closed
        self._language = language
        self.after = after
        """Seconds of grace before a ping (tests shorten it)."""
        self.wanted: set[int] = set()
        """The people who asked for pings (``/notify on``)."""
        self._open: dict[int, Turn] = {}
        self._waiting: dict[int, asyncio.Task[None]] = {}
        self._posted: dict[int, discord.Message] = {}
        self._deleting: set[asyncio.Task[None]] = set()

    def turn_opened(self, channel_id: int, user_id: int, prompt: TurnPrompt) -> None:
        """A person's turn opened at the channel's table: ping them after the grace if they
        want pings and it is still this turn then."""
        if self._open.get(channel_id) == prompt.turn:
            return  # the same turn shown again
        self.turn_closed(channel_id)
        self._open[channel_id] = prompt.turn
        if user_id in self.wanted:
            self._waiting[channel_id] = asyncio.get_running_loop().create_task(
                self._ping_later(channel_id, user_id, prompt))

    def turn_closed(self, channel_id: int) -> None:
        """The channel's open turn is over: no ping for it any more, and a channel ping it
        got is deleted."""
        self._open.pop(channel_id, None)
        waiting = self._waiting.pop(channel_id, None)
        if waiting is not None:
            waiting.cancel()
        posted = self._posted.pop(channel_id, None)
        if posted is not None:
            self._delete_soon(posted)

    def close(self) -> None:
        """At shutdown: no ping goes out any more."""
        for waiting in self._waiting.values():
            waiting.cancel()
        self._waiting.clear()

    def waiting(self, channel_id: int) -> bool:
        """True while a ping waits for its grace to pass at the channel's table."""
        return channel_id in self._waiting

    async def _ping_later(self, channel_id: int, user_id: int, prompt: TurnPrompt) -> None:
        await asyncio.sleep(self.after)
        del self._waiting[channel_id]  # from here on the ping goes out, once
        language = self._language(user_id, channel_id)
        text = language.render(tr("{channel}: it is your turn; time runs out {countdown}.",
                                  channel=channel_link(channel_id),
                                  countdown=countdown(prompt.deadline)))
        if not self._dms_closed(user_id):
            try:
                await self._send_dm(user_id, text)
                return
            except (discord.HTTPException, TimeoutError) as error:
                log.info("turn ping by DM to %s failed: %r", user_id, error)
        channel = self._client.get_partial_messageable(channel_id)
        try:
            posted = await channel.send(
                f"<@{user_id}> {text}",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]))
        except discord.HTTPException as error:
            log.info("turn ping in %s failed: %r", channel_id, error)
            return
        if self._open.get(channel_id) == prompt.turn:
            self._posted[channel_id] = posted
        else:  # they acted while it was being sent
            self._delete_soon(posted)

    def _delete_soon(self, message: discord.Message) -> None:
        task = asyncio.get_running_loop().create_task(self._delete(message))
        self._deleting.add(task)
        task.add_done_callback(self._deleting.discard)

    async def _delete(self, message: discord.Message) -> None:
        try:
            await message.delete()
        except discord.HTTPException as error:
            log.info("could not delete a turn ping in %s: %r", message.channel.id, error)

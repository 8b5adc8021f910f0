"""Clicks on a table message, and the interaction tokens they leave behind: how the table is
edited without spending the bot token's global rate limit.

Discord allows a bot token 50 requests per second across all its processes, but interaction
responses and the interaction webhook (``/webhooks/{application}/{token}``) do not count
against it. A click on the table message is therefore answered with the updated table itself
(UPDATE_MESSAGE), and the click's token, which Discord honours for 15 minutes, edits the same
message afterwards: a component interaction's original message is the message it was on. So
the bots' actions, timers, the next street and the showdown cost nothing of the global limit
while someone clicked in the last quarter of an hour.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field

import discord

from bot.discord_ui.expired_interactions import EXPIRED, is_expired
from bot.discord_ui.replies import seconds_to_acknowledge

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]

TOKEN_LIFETIME_SECONDS = 15 * 60.0
"""How long Discord honours an interaction token."""
TOKEN_MARGIN_SECONDS = 60.0
"""A token is used until a minute before its lifetime ends, counted from when the bot received
the click (a little after Discord created it, by the gateway's latency), so an edit started
then ends long before the token does, even when discord.py waits out a 429 first."""


@dataclass(eq=False, slots=True)
class PendingClick:
    """A click on the table message whose action is being applied: the next edit of the table
    answers it (``claimed``), or, if none comes in time, it is acknowledged silently."""

    interaction: Interaction
    received: float
    applied: bool = False
    """Set the moment its action is applied: only then may an edit answer it (an earlier one
    would not show the action, and a refused click is answered with the refusal)."""
    claimed: bool = False
    attempted: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once an edit tried to answer the click (or none will)."""


@dataclass(frozen=True, slots=True)
class _Token:
    message_id: int
    interaction: Interaction
    received: float


class TableClicks:
    """For one table message: the clicks waiting for their answer and the freshest token that
    can edit it."""

    def __init__(self) -> None:
        self._waiting: list[PendingClick] = []
        self._token: _Token | None = None

    def expect(self, interaction: Interaction) -> PendingClick:
        """Note a click whose action is about to be applied; the next edit may answer it."""
        click = PendingClick(interaction, time.monotonic())
        self._waiting.append(click)
        return click

    def claim(self, message_id: int) -> PendingClick | None:
        """The oldest waiting click on message ``message_id`` whose action is applied, now the
        caller's to answer."""
        click = self._answerable(message_id)
        if click is not None:
            self._waiting.remove(click)
            click.claimed = True
        return click

    def answerable(self, message_id: int) -> bool:
        """True when a click on message ``message_id`` has its action applied and waits for
        the edit that shows it."""
        return self._answerable(message_id) is not None

    def _answerable(self, message_id: int) -> PendingClick | None:
        for click in self._waiting:
            message = click.interaction.message
            if click.applied and message is not None and message.id == message_id:
                return click
        return None

    def answered(self, click: PendingClick, message_id: int) -> None:
        """``click`` was acknowledged on message ``message_id`` (updated or deferred): its token
        now edits that message, unless a fresher one already does."""
        if self._token is None or self._token.received <= click.received:
            self._token = _Token(message_id, click.interaction, click.received)

    def token(self, message_id: int) -> Interaction | None:
        """The interaction whose token can still edit message ``message_id``, if any."""
        token = self._token
        if token is None or token.message_id != message_id:
            return None
        if time.monotonic() - token.received > TOKEN_LIFETIME_SECONDS - TOKEN_MARGIN_SECONDS:
            self._token = None
            return None
        return token.interaction

    def failed(self, interaction: Interaction) -> None:
        """Editing through ``interaction``'s token failed: do not use it again."""
        if self._token is not None and self._token.interaction is interaction:
            self._token = None

    def give_up(self) -> None:
        """No edit will answer the waiting clicks (the message changed, or the table closed):
        they are acknowledged silently at once."""
        for click in self._waiting:
            click.attempted.set()

    async def carry(self, click: PendingClick, work: Awaitable[None]) -> None:
        """Apply the click's action (``work``) and see the click acknowledged within Discord's
        3 seconds: by the table edit that follows the action, or, when none has answered it
        by ``seconds_to_acknowledge``, silently (DEFERRED_UPDATE_MESSAGE; its token then carries
        the next edit). A refused action leaves the click to be answered with the refusal,
        which ``work`` raises."""
        loop = asyncio.get_running_loop()
        wait = seconds_to_acknowledge(click.interaction)
        deadline = loop.time() + wait

        async def apply() -> None:
            await work
            click.applied = True  # before the table runner can run, so before its edit

        task = asyncio.ensure_future(apply())
        try:
            await asyncio.wait({task}, timeout=wait)
            if task.done() and not _failed(task):
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(click.attempted.wait(), deadline - loop.time())
        finally:
            await self._settle(click, refused=task.done() and _failed(task))
        await task

    async def _settle(self, click: PendingClick, *, refused: bool) -> None:
        if click.claimed:
            await click.attempted.wait()  # an edit is answering it right now
        else:
            self._waiting.remove(click)
            click.claimed = True
        response = click.interaction.response
        if refused or response.is_done():
            return
        try:
            await response.defer()
        except (discord.HTTPException, discord.InteractionResponded) as error:
            if is_expired(error):
                EXPIRED.note()
            else:
                log.info("could not acknowledge a click on the table: %r", error)
            return
        message = click.interaction.message
        if message is not None:
            self.answered(click, message.id)


def _failed(task: asyncio.Future[None]) -> bool:
    return task.cancelled() or task.exception() is not None

"""The one live message that shows a table in its channel, edited in place.

It is posted on the table's first change and edited after that, through an
``EditCoalescer``: one edit in flight, a minimum interval between edits (but for an edit that
answers a click, which goes at once), newer states replacing waiting ones, and the end of a
hand always shown. Each edit takes the cheapest way Discord
offers (see ``table_clicks``): the answer to a click waiting on the message (UPDATE_MESSAGE),
else the freshest interaction token of the message, else a channel message edit, the only one
of the three that counts against the bot's global rate limit. Whatever way fails (refused, a
dropped connection, no answer in time), the next is tried; when the last fails too, the
coalescer shows the snapshot later.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_ui.direct_edits import (
    REQUEST_FAILURES,
    TableEdit,
    answer_with_table,
    edit_through_token,
)
from bot.discord_ui.edit_coalescer import EditCoalescer
from bot.discord_ui.embeds import TABLE_IMAGE_NAME, table_embed
from bot.discord_ui.table_clicks import Interaction, TableClicks
from bot.discord_ui.views.table_controls import PrebuiltControls, table_components
from bot.i18n import ENGLISH, Language
from bot.render.pictures import Pictures
from bot.tables.notifier import HandOutcome, TableState, TurnPrompt

log = logging.getLogger(__name__)

_ANSWER_FAILURES: tuple[type[Exception], ...] = (*REQUEST_FAILURES, discord.InteractionResponded)
"""How answering a click with the table can fail: as any request, or answered already."""


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """What one edit shows: the public state, the current turn's options, the last result,
    and the channel's language they are written in (words and button labels alike)."""

    state: TableState
    prompt: TurnPrompt | None
    outcome: HandOutcome | None
    language: Language = ENGLISH


class LiveTableMessage:
    """Posts and edits the table message of one channel; ``on_posted(channel_id, message_id)``
    hears of every newly posted message (to find it again after a restart)."""

    def __init__(
        self,
        client: discord.Client,
        channel_id: int,
        *,
        min_interval: float,
        pictures: Pictures | None = None,
        on_posted: Callable[[int, int], Awaitable[None]] | None = None,
    ) -> None:
        self._client = client
        self.channel_id = channel_id
        self._pictures = pictures
        self._shown_image: str | None = None
        """The key of the picture on ``message`` (``None``: none known)."""
        self._on_posted = on_posted
        self._coalescer: EditCoalescer[TableSnapshot] = EditCoalescer(self._publish, min_interval)
        self.message: discord.Message | discord.PartialMessage | None = None
        self._repost_next = False
        self.clicks = TableClicks()
        self.language: Language = ENGLISH
        """The language of the latest snapshot shown (the channel's)."""

    def shows(self, interaction: Interaction) -> bool:
        """True when ``interaction`` came from this table message (not an older one)."""
        return (interaction.message is not None and self.message is not None
                and interaction.message.id == self.message.id)

    async def carry_click(self, interaction: Interaction, work: Awaitable[None]) -> None:
        """Apply a click's action (``work``) and answer the click with the edit that shows it
        (see ``TableClicks.carry``)."""
        await self.clicks.carry(self.clicks.expect(interaction), work)

    def show(self, snapshot: TableSnapshot, *, keep: bool = False) -> None:
        """Show ``snapshot`` soon; with ``keep`` it is shown even if newer ones follow. When a
        click's action waits to be shown, at once: its answer is the edit."""
        self.language = snapshot.language
        self._coalescer.submit(snapshot, keep=keep, now=self.message is not None
                               and self.clicks.answerable(self.message.id))

    def repost(self, snapshot: TableSnapshot) -> None:
        """Post the table as a new message at the bottom of the channel and delete the old one.

        Like any other state it replaces one still waiting, so a burst of reposts costs one
        message, and the table is never more than one edit interval behind."""
        self._repost_next = True
        self.language = snapshot.language
        self._coalescer.submit(snapshot)

    async def flush(self) -> None:
        """Wait until the latest snapshot is on Discord."""
        await self._coalescer.flush()

    def cancel(self) -> None:
        """Stop editing; snapshots still waiting are dropped."""
        self._coalescer.cancel()
        self.clicks.give_up()

    async def _publish(self, snapshot: TableSnapshot) -> None:
        editing = self.message is not None and not self._repost_next
        key, image = await self._picture(snapshot, self._shown_image if editing else None)
        embed = table_embed(snapshot.state, snapshot.outcome, with_image=key is not None,
                            language=snapshot.language)
        components = table_components(snapshot.state, snapshot.prompt, snapshot.language)
        view = PrebuiltControls(components)
        if self.message is not None and editing:
            self._shown_image = None  # unknown until the edit is known to have landed
            edit = TableEdit(embed.to_dict(), components, image, TABLE_IMAGE_NAME)
            if await self._edit(self.message, edit, embed, view):
                self._shown_image = key
                return
            log.info("table message in channel %s was deleted; posting a new one",
                     self.channel_id)
            self.message = None
            if image is None and key is not None:
                key, image = await self._picture(snapshot, None)
        self.clicks.give_up()
        old = self.message
        channel = self._client.get_partial_messageable(self.channel_id)
        try:
            self.message = await channel.send(embed=embed, files=_files(image), view=view)
        except discord.NotFound:  # the channel is gone; its deletion closes the table
            log.info("channel %s is gone: its table message went with it", self.channel_id)
            return
        self._repost_next = False  # only now: a post that failed is tried again as a post
        self._shown_image = key
        if self._on_posted is not None:
            await self._on_posted(self.channel_id, self.message.id)
        if old is not None:
            try:
                await old.delete()
            except REQUEST_FAILURES:
                log.info("could not delete the previous table message in %s", self.channel_id)

    async def _picture(self, snapshot: TableSnapshot,
                       shown: str | None) -> tuple[str | None, bytes | None]:
        """The key of the snapshot's picture (``None`` without pictures) and its PNG, unless
        ``shown`` is that key already: all of it off the event loop (``Pictures``)."""
        if self._pictures is None:
            return None, None
        return await self._pictures.table(snapshot.state, language=snapshot.language,
                                          shown=shown)

    async def _edit(self, message: discord.Message | discord.PartialMessage, edit: TableEdit,
                    embed: discord.Embed, view: PrebuiltControls) -> bool:
        """Edit the table message in place, the cheapest way that works; ``False`` when it is
        gone. Clicks and tokens carry ``edit`` as it is (``direct_edits``); the channel edit,
        the rare last resort, goes through discord.py with ``embed`` and ``view``, and its
        failure (but ``NotFound``) is raised for the coalescer to try again later."""
        message_id = message.id
        click = self.clicks.claim(message_id)
        if click is not None:
            try:
                await answer_with_table(click.interaction, edit)
                self.clicks.answered(click, message_id)
                return True
            except _ANSWER_FAILURES as error:
                log.info("could not answer a click with the table: %r", error)
            finally:
                click.attempted.set()
        token = self.clicks.token(message_id)
        if token is not None:
            try:
                await edit_through_token(token, edit)
                return True
            except REQUEST_FAILURES as error:
                log.info("editing the table through a click's token failed: %r", error)
                if isinstance(error, discord.HTTPException):  # refused, not lost on the way
                    self.clicks.failed(token)
        try:
            await message.edit(embed=embed, attachments=_files(edit.picture), view=view)
            return True
        except discord.NotFound:
            return False


def _files(png: bytes | None) -> Any:
    """The table image as a new attachment list; without one, ``MISSING``: an edit then
    keeps the picture the message has (none without images)."""
    return discord.utils.MISSING if png is None else [
        discord.File(io.BytesIO(png), filename=TABLE_IMAGE_NAME)]

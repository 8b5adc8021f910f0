"""Buttons this version does not draw: answered, never left to fail silently.

A table message posted by an older version of the bot keeps its old buttons (``holdem:fold``,
``holdem:check_call``...); a click on one is told where the live table is, instead of
Discord's "This interaction failed".
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.discord_ui.replies import reply
from bot.discord_ui.views.pre_actions import BACK_BUTTON, PRE_ACTION_BUTTON
from bot.discord_ui.views.pressable import Pressable
from bot.discord_ui.views.run_it_twice import RUN_TWICE_BUTTON
from bot.discord_ui.views.show_cards import SHOW_BUTTON
from bot.discord_ui.views.table_controls import MY_CARDS_ID, TURN_BUTTON
from bot.tables.errors import TableMovedOn

Button = discord.ui.Button[discord.ui.View]


def _unnamed(template: str) -> str:
    return re.sub(r"\?P<\w+>", "", template)


OUTDATED_BUTTON = (r"(?!(?:" + "|".join(_unnamed(known) for known in
                                       (TURN_BUTTON, re.escape(MY_CARDS_ID), RUN_TWICE_BUTTON,
                                        PRE_ACTION_BUTTON, BACK_BUTTON, SHOW_BUTTON))
                   + r")$)holdem:.*")
"""Every ``holdem:`` id that no current button matches (discord.py runs every template that
matches a click, so this one must leave the current ids alone)."""


class OutdatedButton(Pressable, discord.ui.DynamicItem[Button], template=OUTDATED_BUTTON):
    """A ``holdem:`` button of an older message: points to the live table."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(Button(label="…", custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[discord.Client], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> Self:
        return cls(match.string)

    async def press(self, interaction: discord.Interaction[discord.Client]) -> None:
        await reply(interaction, TableMovedOn().message)

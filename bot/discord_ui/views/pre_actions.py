"""Buttons of the private **My cards** answer: pre-actions, and **I'm back** for a person who
sits out.

A pre-action button names the hand (the ledger's id), the street and, for Call N, the amount,
so a press after the hand moved on is refused instead of choosing something else; the runtime
checks it like a click (``TableManager.pre_act``). Pressing the chosen one again clears it.
**I'm back** names its table's channel, so it works from a direct message too.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.discord_ui.replies import reply
from bot.discord_ui.services import table_services
from bot.discord_ui.views.pressable import Pressable
from bot.i18n import ENGLISH, Language, tr, tr_c
from bot.tables.pre_actions import PreAction, PreActionChoices, PreActionKind
from engine.actions import Street

PRE_ACTION_BUTTON = (r"holdem:pre:(?P<kind>checkfold|check|call|callany):(?P<hand>[0-9]{1,19})"
                     r":(?P<street>[0-3]):(?P<amount>[0-9]{1,19})")
BACK_BUTTON = r"holdem:back:(?P<channel>[0-9]{1,20})"

Button = discord.ui.Button[discord.ui.View]


def pre_action_id(choice: PreAction) -> str:
    """The custom id of ``choice``'s button.

    >>> pre_action_id(PreAction(PreActionKind.CALL, 812, Street.FLOP, 40))
    'holdem:pre:call:812:1:40'
    """
    return (f"holdem:pre:{choice.kind.value}:{choice.hand}:{int(choice.street)}:"
            f"{choice.amount}")


class PreActionButton(Pressable, discord.ui.DynamicItem[Button], template=PRE_ACTION_BUTTON):
    """One pre-action; highlighted when it is the person's choice."""

    def __init__(self, choice: PreAction, chosen: bool = False,
                 language: Language = ENGLISH) -> None:
        super().__init__(Button(
            label=language.render(choice.label),
            style=discord.ButtonStyle.success if chosen else discord.ButtonStyle.secondary,
            custom_id=pre_action_id(choice),
        ))
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[discord.Client], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> Self:
        return cls(PreAction(PreActionKind(match["kind"]), int(match["hand"]),
                             Street(int(match["street"])), int(match["amount"])))

    async def press(self, interaction: discord.Interaction[discord.Client]) -> None:
        bot = table_services(interaction)
        chosen = await bot.tables.pre_act(interaction.channel_id or 0, interaction.user.id,
                                          self.choice)
        if chosen is None:
            await reply(interaction, tr("Pre-action cleared: you choose when your turn comes."))
        else:
            await reply(interaction, tr(
                "Pre-action: {choice}. It is played the moment your turn comes, if it still "
                "holds; press it again to clear it.", choice=chosen.label))


class BackButton(Pressable, discord.ui.DynamicItem[Button], template=BACK_BUTTON):
    """**I'm back**: sit in again at the table of ``channel_id``."""

    def __init__(self, channel_id: int, language: Language = ENGLISH) -> None:
        super().__init__(Button(label=language.render(tr_c("button", "I'm back")),
                                style=discord.ButtonStyle.primary,
                                custom_id=f"holdem:back:{channel_id}"))
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[discord.Client], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> Self:
        return cls(int(match["channel"]))

    async def press(self, interaction: discord.Interaction[discord.Client]) -> None:
        await table_services(interaction).tables.sit_in(self.channel_id, interaction.user.id)
        await reply(interaction, SITTING_IN)


SITTING_IN = tr("You are back in from the next hand.")
"""The answer to /sitin and to **I'm back**."""


def back_view(channel_id: int, language: Language) -> discord.ui.View:
    """**I'm back** alone, for the note that tells someone they were sat out."""
    view = discord.ui.View(timeout=None)
    view.add_item(BackButton(channel_id, language))
    return view


def my_cards_view(choices: PreActionChoices | None, sitting_out_at: int | None,
                  language: Language) -> discord.ui.View | None:
    """The buttons of a My cards answer in ``language``: the pre-actions offered now
    (``choices``), and **I'm back** for someone sitting out at the table of channel
    ``sitting_out_at``; ``None`` when there are none."""
    if choices is None and sitting_out_at is None:
        return None
    view = discord.ui.View(timeout=None)
    if choices is not None:
        for choice in choices.offered:
            view.add_item(PreActionButton(choice, choice == choices.chosen, language))
    if sitting_out_at is not None:
        view.add_item(BackButton(sitting_out_at, language))
    return view

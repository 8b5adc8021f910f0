"""Buttons of the private **My cards** answer: pre-actions, and **I'm back** for a person who
sits out.

A pre-action button names the hand (the ledger's id), the street and, for Call N, the amount,
so a press after the hand moved on is refused instead of choosing something else; the runtime
checks it like a click (``TableManager.pre_act``). Pressing the chosen one again clears it.
A press is answered on the My cards message itself: its buttons then highlight the choice
that holds (none once cleared), and under the cards a line says it. **I'm back** names its
table's channel, so it works from a direct message too.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.discord_ui.embeds import hole_cards_text
from bot.discord_ui.hints import hint_lines
from bot.discord_ui.replies import language_of, reply
from bot.discord_ui.services import table_services
from bot.discord_ui.views.pressable import Pressable
from bot.i18n import ENGLISH, Language, tr, tr_c
from bot.tables.manager import TableManager
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
        tables = table_services(interaction).tables
        channel_id, user_id = interaction.channel_id or 0, interaction.user.id
        chosen = await tables.pre_act(channel_id, user_id, self.choice)
        language = language_of(interaction)
        note = tr("Pre-action cleared: you choose when your turn comes.") if chosen is None \
            else tr("Pre-action: {choice}. It is played the moment your turn comes, if it "
                    "still holds; press it again to clear it.", choice=chosen.label)
        lines = await my_cards_lines(tables, channel_id, user_id, language)
        await interaction.response.edit_message(
            content="\n".join([*lines, language.render(note)]),
            view=my_cards_view_now(tables, channel_id, user_id, language))


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


def sitting_out_at(tables: TableManager, channel_id: int, user_id: int) -> int | None:
    """``channel_id`` when the person sits out at its table (their My cards offers **I'm
    back**), else ``None``."""
    state = tables.state(channel_id)
    seat = state.seat_of(user_id) if state is not None else None
    return channel_id if seat is not None and seat.sitting_out else None


def my_cards_view_now(tables: TableManager, channel_id: int, user_id: int,
                      language: Language) -> discord.ui.View | None:
    """``my_cards_view`` of what the person may choose at the channel's table now."""
    return my_cards_view(tables.pre_action_choices(channel_id, user_id),
                         sitting_out_at(tables, channel_id, user_id), language)


async def my_cards_lines(tables: TableManager, channel_id: int, user_id: int,
                         language: Language) -> list[str]:
    """What My cards says of the person's hand at the channel's table: their cards, and the
    coach's hint when the table shows hints; nothing when they hold no cards."""
    state = tables.state(channel_id)
    cards = tables.hole_cards(channel_id, user_id)
    if state is None or not cards:
        return []
    return [hole_cards_text(state, cards, language),
            *await hint_lines(tables, channel_id, user_id, language)]

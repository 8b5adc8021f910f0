"""The offer to show cards, sent by DM to the one person offered it: the winner without a
showdown (show one card, the other or both) or, with auto-muck off, a player whose hand wins
nothing at showdown (show or muck).

Each button names its table's channel and the hand (the ledger's id) it was offered in, so a
press from the DM reaches the right table, and one after the offer closed, or by anyone else,
is refused and changes nothing (``bot.tables.show_cards``).
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.discord_ui.replies import reply
from bot.discord_ui.services import table_services
from bot.discord_ui.views.pressable import Pressable
from bot.i18n import ENGLISH, Language, tr, tr_c
from bot.tables.show_cards import ShowChoice
from engine.cards import Card, pretty_card

SHOW_BUTTON = (r"holdem:show:(?P<choice>first|second|both|none):(?P<channel>[0-9]{1,19}):"
               r"(?P<hand>[0-9]{1,19})")

Button = discord.ui.Button[discord.ui.View]


def show_button_id(choice: ShowChoice, channel_id: int, hand_id: int) -> str:
    """The custom id of a show button of hand ``hand_id`` at the table in ``channel_id``.

    >>> show_button_id(ShowChoice.BOTH, 55, 812)
    'holdem:show:both:55:812'
    """
    return f"holdem:show:{choice}:{channel_id}:{hand_id}"


class ShowButton(Pressable, discord.ui.DynamicItem[Button], template=SHOW_BUTTON):
    """Show one card, both, or nothing (muck); the runtime decides who may answer."""

    def __init__(self, choice: ShowChoice, channel_id: int, hand_id: int,
                 label: str = "") -> None:
        super().__init__(Button(
            label=label or str(choice),
            style=discord.ButtonStyle.secondary if choice is ShowChoice.NONE
            else discord.ButtonStyle.primary,
            custom_id=show_button_id(choice, channel_id, hand_id),
        ))
        self.choice, self.channel_id, self.hand_id = choice, channel_id, hand_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[discord.Client], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> Self:
        return cls(ShowChoice(match["choice"]), int(match["channel"]), int(match["hand"]))

    async def press(self, interaction: discord.Interaction[discord.Client]) -> None:
        bot = table_services(interaction)
        await bot.tables.answer_show(self.channel_id, interaction.user.id, self.hand_id,
                                     self.choice)
        await reply(interaction, tr("You keep your cards to yourself.")
                    if self.choice is ShowChoice.NONE else tr("You show your cards."))


class ShowOfferButtons(discord.ui.View):
    """The buttons of one offer, labelled in ``language``: ``cards`` are the person's own
    (the DM is theirs alone, so the labels may name them)."""

    def __init__(self, channel_id: int, hand_id: int, cards: tuple[Card, ...], *,
                 at_showdown: bool, language: Language = ENGLISH) -> None:
        super().__init__(timeout=None)
        first, second = (pretty_card(card) for card in cards)
        labels = [(ShowChoice.BOTH, tr_c("button", "Show")),
                  (ShowChoice.NONE, tr_c("button", "Muck"))] if at_showdown else [
            (ShowChoice.FIRST, tr_c("button", "Show {card}", card=first)),
            (ShowChoice.SECOND, tr_c("button", "Show {card}", card=second)),
            (ShowChoice.BOTH, tr_c("button", "Show both"))]
        for choice, label in labels:
            self.add_item(ShowButton(choice, channel_id, hand_id, language.render(label)))

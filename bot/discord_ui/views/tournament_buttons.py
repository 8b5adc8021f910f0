"""The buttons of a note that offers tournament purchases: **Rebuy**, **Add-on**, **Enter
again** and **No thanks**, on the note that tells a person they are out of chips (or that the
add-on opened). Each names its tournament, so it works from a direct message; the runtime
checks it like the command (``/tournament rebuy``, ``/tournament addon``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Self

import discord

from bot.discord_ui.replies import reply
from bot.discord_ui.services import table_services
from bot.discord_ui.views.pressable import Pressable
from bot.i18n import ENGLISH, Language, Message, Text, tr, tr_c
from bot.tables.tournament_status import Purchase, offers_in

PURCHASE_BUTTON = r"holdem:tbuy:(?P<what>rebuy|addon|reentry|decline):(?P<tournament>[0-9]{1,16})"

Button = discord.ui.Button[discord.ui.View]

LABELS: dict[Purchase, Text] = {
    Purchase.REBUY: tr_c("button", "Rebuy"), Purchase.ADDON: tr_c("button", "Add-on"),
    Purchase.REENTRY: tr_c("button", "Enter again"), Purchase.DECLINE: tr_c("button", "No thanks"),
}


def bought_text(what: Purchase, tournament_id: int, count: int) -> Text:
    """The answer to a purchase (the button's and the command's)."""
    number = str(tournament_id)
    if what is Purchase.REBUY:
        return tr("Rebuy {count} in tournament #{number}: the buy-in is in the prize pool and "
                  "the chips are yours (after your hand if you are in one).", count=count,
                  number=number)
    if what is Purchase.ADDON:
        return tr("Add-on taken in tournament #{number}: its price is in the prize pool and "
                  "the chips are yours (after your hand if you are in one).", number=number)
    return tr("You are in tournament #{number} again (entry {count}).", number=number,
              count=count + 1)


class PurchaseButton(Pressable, discord.ui.DynamicItem[Button], template=PURCHASE_BUTTON):
    """One purchase offered in a note, for tournament ``tournament_id``."""

    def __init__(self, what: Purchase, tournament_id: int, language: Language = ENGLISH) -> None:
        super().__init__(Button(
            label=language.render(LABELS[what]),
            style=discord.ButtonStyle.secondary if what is Purchase.DECLINE
            else discord.ButtonStyle.primary,
            custom_id=f"holdem:tbuy:{what.value}:{tournament_id}"))
        self.what = what
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[discord.Client], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> Self:
        return cls(Purchase(match["what"]), int(match["tournament"]))

    async def press(self, interaction: discord.Interaction[discord.Client]) -> None:
        tournaments = table_services(interaction).tables.tournaments
        user = interaction.user
        if self.what is Purchase.DECLINE:
            await tournaments.decline(self.tournament_id, user.id)
            await reply(interaction, tr("You take your place in tournament #{number}.",
                                        number=str(self.tournament_id)))
            return
        if self.what is Purchase.REENTRY:
            await tournaments.join(self.tournament_id, user.id, user.display_name)
            count = tournaments.status(self.tournament_id).entrant(user.id)
            bought = count.reentries if count is not None else 1
        elif self.what is Purchase.REBUY:
            bought = await tournaments.rebuy(self.tournament_id, user.id)
        else:
            bought = await tournaments.addon(self.tournament_id, user.id)
        await reply(interaction, bought_text(self.what, self.tournament_id, bought))


def offer_view(message: Message, language: Language) -> discord.ui.View | None:
    """The buttons of a note that offers purchases (``offers_in``), else ``None``."""
    offered = offers_in(message)
    if offered is None:
        return None
    return add_purchases(None, *offered, language)


def add_purchases(view: discord.ui.View | None, tournament_id: int,
                  offers: Sequence[Purchase], language: Language) -> discord.ui.View:
    """``view`` (a new one when ``None``) with a button for each purchase offered."""
    view = view if view is not None else discord.ui.View(timeout=None)
    for what in offers:
        view.add_item(PurchaseButton(what, tournament_id, language))
    return view

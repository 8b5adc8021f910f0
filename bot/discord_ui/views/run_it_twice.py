"""The run-it-twice question: two buttons for the all-in players, answered ephemerally.

The buttons name the hand (the ledger's id) they were asked in, so an answer clicked on an
old question never counts for a later hand's. Their labels are in the channel's language (the
question is asked in the channel); the answer to a click in the clicking member's.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.discord_ui.replies import reply
from bot.discord_ui.services import table_services
from bot.discord_ui.views.pressable import Pressable
from bot.i18n import ENGLISH, Language, tr, tr_c

RUN_TWICE_BUTTON = r"holdem:run_twice:(?P<answer>yes|no):(?P<hand>[0-9]{1,19})"

Button = discord.ui.Button[discord.ui.View]


def run_twice_button_id(agree: bool, hand_id: int) -> str:
    """The custom id of the yes or no button for the question of hand ``hand_id``.

    >>> run_twice_button_id(True, 812)
    'holdem:run_twice:yes:812'
    """
    return f"holdem:run_twice:{'yes' if agree else 'no'}:{hand_id}"


class RunItTwiceButton(Pressable, discord.ui.DynamicItem[Button], template=RUN_TWICE_BUTTON):
    """Yes or no to running the rest of the board twice; the runtime decides who may answer."""

    def __init__(self, agree: bool, hand_id: int, language: Language = ENGLISH) -> None:
        super().__init__(Button(
            label=language.render(tr_c("button", "Run it twice") if agree
                                  else tr_c("button", "Run it once")),
            style=discord.ButtonStyle.success if agree else discord.ButtonStyle.secondary,
            custom_id=run_twice_button_id(agree, hand_id),
        ))
        self.agree = agree
        self.hand_id = hand_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[discord.Client], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> Self:
        return cls(match["answer"] == "yes", int(match["hand"]))

    async def press(self, interaction: discord.Interaction[discord.Client]) -> None:
        bot = table_services(interaction)
        await bot.tables.answer_run_it_twice(interaction.channel_id or 0, interaction.user.id,
                                             self.agree, self.hand_id)
        await reply(interaction, tr("You chose to run it twice.") if self.agree
                    else tr("You chose to run it once."))


class RunItTwiceQuestion(discord.ui.View):
    """The two answers to the question asked in hand ``hand_id``, labelled in ``language``."""

    def __init__(self, hand_id: int, language: Language = ENGLISH) -> None:
        super().__init__(timeout=None)
        self.add_item(RunItTwiceButton(True, hand_id, language))
        self.add_item(RunItTwiceButton(False, hand_id, language))

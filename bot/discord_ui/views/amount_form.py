"""The bet/raise form: how many chips, within the range the turn allows.

The form's ``custom_id`` names its turn (``holdem:amount:812:5``), like the buttons. Its
submissions are answered by ``answer_form`` from the application's ``on_interaction``, not by
the ``Modal`` object (which is not kept): a form opened before a restart, or in an earlier
hand, then gets a clear answer instead of silence, and never raises in a later turn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import discord

from bot.amounts import parse_amount
from bot.discord_ui.error_replies import report_error
from bot.discord_ui.player_actions import act, current_turn
from bot.i18n import ENGLISH, Language, tr
from bot.tables.bet_sizing import bet_or_raise
from bot.tables.errors import TableMovedOn
from bot.tables.notifier import Turn, TurnPrompt

AMOUNT_FORM = re.compile(r"holdem:amount:(?P<hand>[0-9]{1,19}):(?P<turn>[0-9]{1,9})")
AMOUNT_FIELD = "amount"


class AmountForm(discord.ui.Modal):
    """Asks how much to bet or raise to, with the allowed range in the label, in the
    language of the person who opened it."""

    def __init__(self, prompt: TurnPrompt, language: Language = ENGLISH) -> None:
        legal, turn = prompt.legal, prompt.turn
        if legal.can_raise:
            title = tr("Raise · your stack is {stack}", stack=legal.stack)
            label = tr("Raise to ({low} to {high} chips)", low=legal.min_to, high=legal.max_to)
        else:
            title = tr("Bet · your stack is {stack}", stack=legal.stack)
            label = tr("Bet ({low} to {high} chips)", low=legal.min_to, high=legal.max_to)
        super().__init__(title=language.render(title)[:45],
                         custom_id=f"holdem:amount:{turn.hand}:{turn.action}", timeout=None)
        self.add_item(discord.ui.TextInput(
            custom_id=AMOUNT_FIELD, label=language.render(label)[:45],
            placeholder=str(legal.min_to), min_length=1, max_length=16,
        ))
        self.stop()  # not kept by discord.py: answer_form answers every submission


async def answer_form(interaction: discord.Interaction[discord.Client]) -> None:
    """Answer a submitted ``holdem:`` form; other interactions are left alone."""
    data: Mapping[str, object] = interaction.data or {}
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id.startswith("holdem:"):
        return
    try:
        match = AMOUNT_FORM.fullmatch(custom_id)
        if match is None:
            raise TableMovedOn()
        turn = Turn(int(match["hand"]), int(match["turn"]))
        amount = parse_amount(_field_value(data.get("components"), AMOUNT_FIELD) or "")
        _, prompt = current_turn(interaction, turn)
        await act(interaction, bet_or_raise(prompt.legal, amount), confirm=False, turn=turn)
    except Exception as error:
        await report_error(interaction, error)


def _field_value(components: object, custom_id: str) -> str | None:
    """The value typed in the text input ``custom_id`` of a submitted form (in an action row or
    a label, however deep)."""
    if isinstance(components, list):
        for component in components:
            found = _field_value(component, custom_id)
            if found is not None:
                return found
    elif isinstance(components, dict):
        value = components.get("value")
        if components.get("custom_id") == custom_id and isinstance(value, str):
            return value
        return _field_value(components.get("components", components.get("component")),
                            custom_id)
    return None

"""The buttons under the live table message, each naming the turn it was drawn for.

Every action button is a ``DynamicItem`` whose ``custom_id`` holds its action and its turn:
``holdem:call:812:5`` is "call, in hand 812 of the ledger, after 5 actions". The bot therefore
answers clicks on any table message, also one posted before a restart, and a click meant for a
turn that is over (a double click, a stale message) is refused with "the table has moved on"
instead of landing on the next turn. Check and call have ids of their own, so a late Check
click can never call a bet made since. Buttons that are not legal now are drawn disabled; a
click from anyone but the player to act gets "not your turn". My cards is for every player.
The labels are in the channel's language (the table message is shared); the answers to a
click, and the amount form it opens, in the clicking member's.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.discord_ui.player_actions import act, current_turn, show_my_cards
from bot.discord_ui.replies import language_of
from bot.discord_ui.views.amount_form import AmountForm
from bot.discord_ui.views.pressable import Pressable
from bot.i18n import ENGLISH, Language, Text, tr_c
from bot.tables.bet_sizing import bet_or_raise, quick_amount
from bot.tables.notifier import TableState, Turn, TurnPrompt
from engine.actions import Action, ActionKind

TURN_ACTIONS = ("fold", "check", "call", "bet", "allin", "min", "half_pot", "pot")
TURN_BUTTON = (rf"holdem:(?P<action>{'|'.join(TURN_ACTIONS)})"
               r":(?P<hand>[0-9]{1,19}):(?P<turn>[0-9]{1,9})")
MY_CARDS_ID = "holdem:my_cards"

_SIMPLE_ACTIONS = {"fold": ActionKind.FOLD, "check": ActionKind.CHECK, "call": ActionKind.CALL,
                   "allin": ActionKind.ALL_IN}
_QUICK_LABELS = {"min": tr_c("button", "Min"), "half_pot": tr_c("button", "½ pot"),
                 "pot": tr_c("button", "Pot")}

Button = discord.ui.Button[discord.ui.View]


def turn_button_id(action: str, turn: Turn) -> str:
    """The custom id of ``action``'s button for ``turn``.

    >>> turn_button_id("call", Turn(812, 5))
    'holdem:call:812:5'
    """
    return f"holdem:{action}:{turn.hand}:{turn.action}"


class TurnButton(Pressable, discord.ui.DynamicItem[Button], template=TURN_BUTTON):
    """An action button for one turn: fold, check, call, bet/raise (opens the amount form),
    all-in, or a quick bet (min, half pot, pot) whose amount is worked out at the click."""

    def __init__(self, action: str, turn: Turn, *, label: str = "", disabled: bool = False,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int = 0) -> None:
        super().__init__(Button(label=label or action, style=style, disabled=disabled, row=row,
                                custom_id=turn_button_id(action, turn)))
        self.action = action
        self.turn = turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[discord.Client], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> Self:
        return cls(match["action"], Turn(int(match["hand"]), int(match["turn"])))

    async def press(self, interaction: discord.Interaction[discord.Client]) -> None:
        state, prompt = current_turn(interaction, self.turn)
        kind = _SIMPLE_ACTIONS.get(self.action)
        if kind is not None:
            await act(interaction, Action(kind), confirm=False, turn=self.turn)
            return
        if self.action == "bet":
            await interaction.response.send_modal(
                AmountForm(prompt, language_of(interaction)))
            return
        amount = quick_amount(prompt.legal, self.action, prompt.pot_total, _current_bet(state))
        await act(interaction, bet_or_raise(prompt.legal, amount), confirm=False,
                  turn=self.turn)


class MyCardsButton(Pressable, discord.ui.DynamicItem[Button], template=MY_CARDS_ID):
    """Shows the person their own hole cards, ephemerally; any player, any time in a hand."""

    def __init__(self, *, disabled: bool = False, language: Language = ENGLISH) -> None:
        super().__init__(Button(label=language.render(tr_c("button", "My cards")),
                                style=discord.ButtonStyle.success, custom_id=MY_CARDS_ID,
                                disabled=disabled, row=1))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[discord.Client], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> Self:
        return cls()

    async def press(self, interaction: discord.Interaction[discord.Client]) -> None:
        await show_my_cards(interaction)


class TableControls(discord.ui.View):
    """The buttons for the turn ``prompt`` (or all disabled but My cards, between turns),
    labelled in ``language``."""

    def __init__(self, state: TableState, prompt: TurnPrompt | None = None,
                 language: Language = ENGLISH) -> None:
        super().__init__(timeout=None)
        self._language = language
        legal = prompt.legal if prompt is not None else None
        turn = prompt.turn if prompt is not None else Turn(state.hand_id or 0, 0)
        check = legal is None or legal.can_check or not legal.can_call
        self._add("fold", turn, tr_c("button", "Fold"), discord.ButtonStyle.danger,
                  enabled=legal is not None and legal.can_fold)
        self._add("check" if check else "call", turn,
                  tr_c("button", "Check") if check
                  else tr_c("button", "Call {amount}", amount=legal.call_amount if legal else 0),
                  discord.ButtonStyle.secondary,
                  enabled=legal is not None and (legal.can_check or legal.can_call))
        self._add("bet", turn, tr_c("button", "Raise…") if legal is not None and legal.can_raise
                  else tr_c("button", "Bet…"),
                  discord.ButtonStyle.primary,
                  enabled=legal is not None and legal.can_bet_or_raise)
        self._add("allin", turn, tr_c("button", "All-in {amount}", amount=legal.stack) if legal
                  else tr_c("button", "All-in"),
                  discord.ButtonStyle.danger,
                  enabled=legal is not None and legal.allows(Action(ActionKind.ALL_IN)))
        for size, name in _QUICK_LABELS.items():
            label = name
            if prompt is not None and prompt.legal.can_bet_or_raise:
                to = quick_amount(prompt.legal, size, prompt.pot_total, _current_bet(state))
                label = tr_c("button", "{label} ({amount})", label=name, amount=to)
            self._add(size, turn, label, discord.ButtonStyle.secondary, row=1,
                      enabled=prompt is not None and prompt.legal.can_bet_or_raise)
        self.add_item(MyCardsButton(disabled=not state.is_hand_running, language=language))

    def _add(self, action: str, turn: Turn, label: Text, style: discord.ButtonStyle, *,
             enabled: bool, row: int = 0) -> None:
        self.add_item(TurnButton(action, turn, label=self._language.render(label), style=style,
                                 disabled=not enabled, row=row))


def _current_bet(state: TableState) -> int:
    return max((seat.bet for seat in state.seats), default=0)

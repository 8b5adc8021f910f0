"""The buttons under the live table message, each naming the turn it was drawn for.

Every action button's ``custom_id`` holds its action and its turn: ``holdem:call:812:5`` is
"call, in hand 812 of the ledger, after 5 actions". The bot therefore answers clicks on any
table message, also one posted before a restart, and a click meant for a turn that is over (a
double click, a stale message) is refused with "the table has moved on" instead of landing on
the next turn. Check and call have ids of their own, so a late Check click can never call a
bet made since. Buttons that are not legal now are drawn disabled; a click from anyone but
the player to act gets "not your turn". My cards is for every player. The labels are in the
channel's language (the table message is shared); the answers to a click, and the amount form
it opens, in the clicking member's.

The table message is edited at nearly every action, so its buttons are written as Discord's
JSON directly (``table_components``) and its clicks are answered from the application's
``on_interaction`` (``answer_table_click``): as discord.py ``Button`` items in a ``View``,
building the buttons of one edit cost 0.42 ms and reading a click's message back into items
(``DynamicItem`` dispatch) about as much again, a tenth of the event loop's time per hand in
``benchmarks.discord``; as data, 0.03 ms and nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord

from bot.discord_ui.player_actions import act, current_turn, show_my_cards
from bot.discord_ui.replies import language_of
from bot.discord_ui.views.amount_form import AmountForm
from bot.discord_ui.views.pressable import answer_errors
from bot.i18n import ENGLISH, Language, Text, tr_c
from bot.tables.bet_sizing import bet_or_raise, quick_amount
from bot.tables.notifier import TableState, Turn, TurnPrompt
from engine.actions import Action, ActionKind

TURN_ACTIONS = ("fold", "check", "call", "bet", "allin", "min", "half_pot", "pot")
TURN_BUTTON = (rf"holdem:(?P<action>{'|'.join(TURN_ACTIONS)})"
               r":(?P<hand>[0-9]{1,19}):(?P<turn>[0-9]{1,9})")
MY_CARDS_ID = "holdem:my_cards"
_TURN_BUTTON = re.compile(TURN_BUTTON)

_SIMPLE_ACTIONS = {"fold": ActionKind.FOLD, "check": ActionKind.CHECK, "call": ActionKind.CALL,
                   "allin": ActionKind.ALL_IN}
_QUICK_LABELS = {"min": tr_c("button", "Min"), "half_pot": tr_c("button", "½ pot"),
                 "pot": tr_c("button", "Pot")}


def turn_button_id(action: str, turn: Turn) -> str:
    """The custom id of ``action``'s button for ``turn``.

    >>> turn_button_id("call", Turn(812, 5))
    'holdem:call:812:5'
    """
    return f"holdem:{action}:{turn.hand}:{turn.action}"


def table_components(state: TableState, prompt: TurnPrompt | None = None,
                     language: Language = ENGLISH) -> list[dict[str, Any]]:
    """The rows of buttons for the turn ``prompt`` (or all disabled but My cards, between
    turns), labelled in ``language``, as Discord's message components."""
    legal = prompt.legal if prompt is not None else None
    turn = prompt.turn if prompt is not None else Turn(state.hand_id or 0, 0)
    check = legal is None or legal.can_check or not legal.can_call

    def button(action: str, label: Text, style: discord.ButtonStyle,
               enabled: bool) -> dict[str, Any]:
        return _button(turn_button_id(action, turn), language.render(label), style, enabled)

    actions = [
        button("fold", tr_c("button", "Fold"), discord.ButtonStyle.danger,
               legal is not None and legal.can_fold),
        button("check" if check else "call",
               tr_c("button", "Check") if check
               else tr_c("button", "Call {amount}", amount=legal.call_amount if legal else 0),
               discord.ButtonStyle.secondary,
               legal is not None and (legal.can_check or legal.can_call)),
        button("bet", tr_c("button", "Raise…") if legal is not None and legal.can_raise
               else tr_c("button", "Bet…"), discord.ButtonStyle.primary,
               legal is not None and legal.can_bet_or_raise),
        button("allin", tr_c("button", "All-in {amount}", amount=legal.stack) if legal
               else tr_c("button", "All-in"), discord.ButtonStyle.danger,
               legal is not None and legal.allows(Action(ActionKind.ALL_IN))),
    ]
    sizes = []
    for size, name in _QUICK_LABELS.items():
        label = name
        if prompt is not None and prompt.legal.can_bet_or_raise:
            to = quick_amount(prompt.legal, size, prompt.pot_total, _current_bet(state))
            label = tr_c("button", "{label} ({amount})", label=name, amount=to)
        sizes.append(button(size, label, discord.ButtonStyle.secondary,
                            prompt is not None and prompt.legal.can_bet_or_raise))
    sizes.append(_button(MY_CARDS_ID, language.render(tr_c("button", "My cards")),
                         discord.ButtonStyle.success, state.is_hand_running))
    return [_row(actions), _row(sizes)]


class PrebuiltControls(discord.ui.View):
    """Components already written as Discord's JSON, for the discord.py calls that take a
    ``view``: sent as they are, and not kept (their clicks are answered by custom id)."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self._components


async def answer_table_click(interaction: discord.Interaction[discord.Client]) -> bool:
    """Answer a click on a table message's button; ``False`` when ``interaction`` is not one."""
    data: Mapping[str, object] = interaction.data or {}
    custom_id = data.get("custom_id")
    if interaction.type is not discord.InteractionType.component or \
            not isinstance(custom_id, str):
        return False
    if custom_id == MY_CARDS_ID:
        await answer_errors(interaction, show_my_cards(interaction))
        return True
    match = _TURN_BUTTON.fullmatch(custom_id)
    if match is None:
        return False
    turn = Turn(int(match["hand"]), int(match["turn"]))
    await answer_errors(interaction, _press(interaction, match["action"], turn))
    return True


async def _press(interaction: discord.Interaction[discord.Client], action: str,
                 turn: Turn) -> None:
    """Fold, check, call, all-in, bet/raise (opens the amount form), or a quick bet (min,
    half pot, pot) whose amount is worked out now, for ``turn``."""
    state, prompt = current_turn(interaction, turn)
    kind = _SIMPLE_ACTIONS.get(action)
    if kind is not None:
        await act(interaction, Action(kind), confirm=False, turn=turn)
        return
    if action == "bet":
        await interaction.response.send_modal(AmountForm(prompt, language_of(interaction)))
        return
    amount = quick_amount(prompt.legal, action, prompt.pot_total, _current_bet(state))
    await act(interaction, bet_or_raise(prompt.legal, amount), confirm=False, turn=turn)


def _button(custom_id: str, label: str, style: discord.ButtonStyle,
            enabled: bool) -> dict[str, Any]:
    return {"type": discord.ComponentType.button.value, "style": style.value, "label": label,
            "custom_id": custom_id, "disabled": not enabled}


def _row(buttons: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": discord.ComponentType.action_row.value, "components": buttons}


def _current_bet(state: TableState) -> int:
    return max((seat.bet for seat in state.seats), default=0)

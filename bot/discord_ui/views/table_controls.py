"""The buttons under the live table message, and the bet/raise amount modal.

Every button has a stable ``custom_id`` and the table is found from the channel, so one
instance registered at start-up answers clicks on any table message, also on messages posted
before a restart. Buttons that are not legal right now are drawn disabled; a click from anyone
but the player to act gets an ephemeral "not your turn" (only My cards is for every player).
"""

from __future__ import annotations

import discord

from bot.amounts import parse_amount
from bot.discord_ui.embeds import chips
from bot.discord_ui.error_replies import report_error
from bot.discord_ui.player_actions import act, current_turn, show_my_cards
from bot.discord_ui.services import table_services
from bot.tables.bet_sizing import bet_or_raise, quick_amount
from bot.tables.notifier import TableState, TurnPrompt
from engine.actions import Action, ActionKind

FOLD_ID = "holdem:fold"
CHECK_CALL_ID = "holdem:check_call"
BET_RAISE_ID = "holdem:bet_raise"
ALL_IN_ID = "holdem:all_in"
MIN_ID = "holdem:quick:min"
HALF_POT_ID = "holdem:quick:half_pot"
POT_ID = "holdem:quick:pot"
MY_CARDS_ID = "holdem:my_cards"


class AmountModal(discord.ui.Modal):
    """Asks how much to bet or raise to, with the allowed range in the label."""

    def __init__(self, channel_id: int, user_id: int, prompt: TurnPrompt) -> None:
        legal = prompt.legal
        title, verb = ("Raise", "Raise to") if legal.can_raise else ("Bet", "Bet")
        super().__init__(
            title=f"{title} · your stack is {chips(legal.stack)}",
            custom_id=f"holdem:amount:{channel_id}:{user_id}",
        )
        self.amount: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            label=f"{verb} ({chips(legal.min_to)} to {chips(legal.max_to)} chips)"[:45],
            placeholder=str(legal.min_to),
            min_length=1,
            max_length=16,
        )
        self.add_item(self.amount)

    async def on_submit(self, interaction: discord.Interaction[discord.Client]) -> None:
        amount = parse_amount(self.amount.value)
        _, prompt = current_turn(interaction)
        await act(interaction, bet_or_raise(prompt.legal, amount), confirm=False)

    # discord.py's Modal.on_error drops BaseView.on_error's item argument; mypy holds every
    # override of it to BaseView's signature, so the library's own signature needs the ignore.
    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction[discord.Client], error: Exception, /
    ) -> None:
        await report_error(interaction, error)


class TableControls(discord.ui.View):
    """The action buttons, drawn for the current turn (``prompt``) or all disabled."""

    def __init__(
        self, state: TableState | None = None, prompt: TurnPrompt | None = None
    ) -> None:
        super().__init__(timeout=None)
        legal = prompt.legal if prompt is not None else None
        self.fold.disabled = legal is None or not legal.can_fold
        self.check_call.disabled = legal is None or not (legal.can_check or legal.can_call)
        if legal is not None and not legal.can_check and legal.can_call:
            self.check_call.label = f"Call {chips(legal.call_amount)}"
        self.bet_raise.disabled = legal is None or not legal.can_bet_or_raise
        if legal is not None and legal.can_raise:
            self.bet_raise.label = "Raise…"
        self.all_in.disabled = legal is None or legal.stack <= 0
        if legal is not None:
            self.all_in.label = f"All-in {chips(legal.stack)}"
        self.my_cards.disabled = state is not None and not state.is_hand_running
        quick = ((self.min_bet, "min", "Min"), (self.half_pot, "half_pot", "½ pot"),
                 (self.pot, "pot", "Pot"))
        for button, size, name in quick:
            button.disabled = legal is None or not legal.can_bet_or_raise
            if prompt is not None and state is not None and prompt.legal.can_bet_or_raise:
                to = quick_amount(prompt.legal, size, prompt.pot_total, _current_bet(state))
                button.label = f"{name} ({chips(to)})"

    async def interaction_check(self, interaction: discord.Interaction[discord.Client], /) -> bool:
        table_services(interaction).notifier.adopt_table_message(interaction.message)
        return True

    async def on_error(
        self,
        interaction: discord.Interaction[discord.Client],
        error: Exception,
        item: discord.ui.Item[TableControls],
        /,
    ) -> None:
        await report_error(interaction, error)

    @discord.ui.button(label="Fold", style=discord.ButtonStyle.danger, custom_id=FOLD_ID, row=0)
    async def fold(
        self,
        interaction: discord.Interaction[discord.Client],
        _button: discord.ui.Button[TableControls],
    ) -> None:
        await act(interaction, Action(ActionKind.FOLD), confirm=False)

    @discord.ui.button(label="Check", style=discord.ButtonStyle.secondary,
                       custom_id=CHECK_CALL_ID, row=0)
    async def check_call(
        self,
        interaction: discord.Interaction[discord.Client],
        _button: discord.ui.Button[TableControls],
    ) -> None:
        _, prompt = current_turn(interaction)
        kind = ActionKind.CHECK if prompt.legal.can_check else ActionKind.CALL
        await act(interaction, Action(kind), confirm=False)

    @discord.ui.button(label="Bet…", style=discord.ButtonStyle.primary,
                       custom_id=BET_RAISE_ID, row=0)
    async def bet_raise(
        self,
        interaction: discord.Interaction[discord.Client],
        _button: discord.ui.Button[TableControls],
    ) -> None:
        _, prompt = current_turn(interaction)
        channel_id = interaction.channel_id or 0
        await interaction.response.send_modal(
            AmountModal(channel_id, interaction.user.id, prompt)
        )

    @discord.ui.button(label="All-in", style=discord.ButtonStyle.danger,
                       custom_id=ALL_IN_ID, row=0)
    async def all_in(
        self,
        interaction: discord.Interaction[discord.Client],
        _button: discord.ui.Button[TableControls],
    ) -> None:
        await act(interaction, Action(ActionKind.ALL_IN), confirm=False)

    @discord.ui.button(label="Min", style=discord.ButtonStyle.secondary, custom_id=MIN_ID, row=1)
    async def min_bet(
        self,
        interaction: discord.Interaction[discord.Client],
        _button: discord.ui.Button[TableControls],
    ) -> None:
        await self._quick(interaction, "min")

    @discord.ui.button(label="½ pot", style=discord.ButtonStyle.secondary,
                       custom_id=HALF_POT_ID, row=1)
    async def half_pot(
        self,
        interaction: discord.Interaction[discord.Client],
        _button: discord.ui.Button[TableControls],
    ) -> None:
        await self._quick(interaction, "half_pot")

    @discord.ui.button(label="Pot", style=discord.ButtonStyle.secondary, custom_id=POT_ID, row=1)
    async def pot(
        self,
        interaction: discord.Interaction[discord.Client],
        _button: discord.ui.Button[TableControls],
    ) -> None:
        await self._quick(interaction, "pot")

    @discord.ui.button(label="My cards", style=discord.ButtonStyle.success,
                       custom_id=MY_CARDS_ID, row=1)
    async def my_cards(
        self,
        interaction: discord.Interaction[discord.Client],
        _button: discord.ui.Button[TableControls],
    ) -> None:
        await show_my_cards(interaction)

    async def _quick(self, interaction: discord.Interaction[discord.Client], size: str) -> None:
        state, prompt = current_turn(interaction)
        amount = quick_amount(prompt.legal, size, prompt.pot_total, _current_bet(state))
        await act(interaction, bet_or_raise(prompt.legal, amount), confirm=False)


def _current_bet(state: TableState) -> int:
    return max((seat.bet for seat in state.seats), default=0)

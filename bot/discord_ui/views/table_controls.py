"""The buttons under the live table message, and the bet/raise amount modal.

Every button has a stable ``custom_id`` and the table is found from the channel, so one
instance registered at start-up answers clicks on any table message, also on messages posted
before a restart. Buttons that are not legal right now are drawn disabled; a click from anyone
but the player to act gets an ephemeral "not your turn" (only My cards is for every player).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord

from bot.amounts import parse_amount
from bot.discord_ui.embeds import chips, hole_cards_text
from bot.discord_ui.error_replies import report_error
from bot.discord_ui.replies import reply, within_deadline
from bot.tables.bet_sizing import bet_or_raise, quick_amount
from bot.tables.errors import NotYourTurn
from bot.tables.notifier import TableState, TurnPrompt
from engine.actions import Action, ActionKind

if TYPE_CHECKING:
    from bot.discord_ui.app import HoldemBot

FOLD_ID = "holdem:fold"
CHECK_CALL_ID = "holdem:check_call"
BET_RAISE_ID = "holdem:bet_raise"
ALL_IN_ID = "holdem:all_in"
MIN_ID = "holdem:quick:min"
HALF_POT_ID = "holdem:quick:half_pot"
POT_ID = "holdem:quick:pot"
MY_CARDS_ID = "holdem:my_cards"


def holdem_bot(interaction: discord.Interaction) -> HoldemBot:
    """The application behind an interaction, with its tables, ledger and notifier."""
    return cast("HoldemBot", interaction.client)


def current_turn(interaction: discord.Interaction) -> tuple[TableState, TurnPrompt]:
    """The table state and the turn prompt of the person behind ``interaction``; raises
    ``NotYourTurn`` when they are not the player to act in this channel."""
    bot = holdem_bot(interaction)
    channel_id = interaction.channel_id or 0
    turn = bot.notifier.turn(channel_id)
    state = bot.tables.state(channel_id)
    if turn is None or state is None or turn[0] != interaction.user.id:
        raise NotYourTurn()
    return state, turn[1]


async def act(interaction: discord.Interaction, action: Action, *, confirm: bool) -> None:
    """Take ``action`` for the person behind ``interaction`` through the table runtime.

    Buttons and the amount modal are acknowledged silently (the table message shows the
    action); slash commands get a short ephemeral confirmation (``confirm``). Private notes
    waiting for the person ride along in the same answer.
    """
    bot = holdem_bot(interaction)
    channel_id = interaction.channel_id or 0
    await within_deadline(interaction, bot.tables.act(channel_id, interaction.user.id, action))
    lines = [f"You {describe(action)}."] if confirm else []
    lines += bot.notifier.take_notices(interaction.user.id)
    if lines:
        await reply(interaction, "\n".join(lines))
    elif not interaction.response.is_done():
        await interaction.response.defer()


def describe(action: Action) -> str:
    """An action in the second person: ``"raise to 120"``, ``"go all-in"``."""
    if action.kind is ActionKind.ALL_IN:
        return "go all-in"
    if action.kind in (ActionKind.BET, ActionKind.RAISE):
        return f"{action.kind} to {chips(action.amount)}"
    return str(action.kind)


async def show_my_cards(interaction: discord.Interaction) -> None:
    """Answer ephemerally with the person's hole cards in this channel's hand."""
    bot = holdem_bot(interaction)
    channel_id = interaction.channel_id or 0
    state = bot.tables.state(channel_id)
    cards = bot.tables.hole_cards(channel_id, interaction.user.id)
    if state is None or not cards:
        await reply(interaction, "You have no cards in a hand at this table right now.")
        return
    image = await bot.notifier.cards_image(cards)
    extra = {"file": image} if image is not None else {}
    lines = [hole_cards_text(state, cards), *bot.notifier.take_notices(interaction.user.id)]
    await reply(interaction, "\n".join(lines), **extra)


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

    async def on_submit(self, interaction: discord.Interaction) -> None:
        amount = parse_amount(self.amount.value)
        _, prompt = current_turn(interaction)
        await act(interaction, bet_or_raise(prompt.legal, amount), confirm=False)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
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
            if legal is not None and state is not None and legal.can_bet_or_raise:
                to = quick_amount(legal, size, prompt.pot_total, _current_bet(state))
                button.label = f"{name} ({chips(to)})"

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        holdem_bot(interaction).notifier.adopt_table_message(interaction.message)
        if (interaction.data or {}).get("custom_id") != MY_CARDS_ID:
            current_turn(interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item
    ) -> None:
        await report_error(interaction, error)

    @discord.ui.button(label="Fold", style=discord.ButtonStyle.danger, custom_id=FOLD_ID, row=0)
    async def fold(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await act(interaction, Action(ActionKind.FOLD), confirm=False)

    @discord.ui.button(label="Check", style=discord.ButtonStyle.secondary,
                       custom_id=CHECK_CALL_ID, row=0)
    async def check_call(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        _, prompt = current_turn(interaction)
        kind = ActionKind.CHECK if prompt.legal.can_check else ActionKind.CALL
        await act(interaction, Action(kind), confirm=False)

    @discord.ui.button(label="Bet…", style=discord.ButtonStyle.primary,
                       custom_id=BET_RAISE_ID, row=0)
    async def bet_raise(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        _, prompt = current_turn(interaction)
        channel_id = interaction.channel_id or 0
        await interaction.response.send_modal(
            AmountModal(channel_id, interaction.user.id, prompt)
        )

    @discord.ui.button(label="All-in", style=discord.ButtonStyle.danger,
                       custom_id=ALL_IN_ID, row=0)
    async def all_in(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await act(interaction, Action(ActionKind.ALL_IN), confirm=False)

    @discord.ui.button(label="Min", style=discord.ButtonStyle.secondary, custom_id=MIN_ID, row=1)
    async def min_bet(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self._quick(interaction, "min")

    @discord.ui.button(label="½ pot", style=discord.ButtonStyle.secondary,
                       custom_id=HALF_POT_ID, row=1)
    async def half_pot(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self._quick(interaction, "half_pot")

    @discord.ui.button(label="Pot", style=discord.ButtonStyle.secondary, custom_id=POT_ID, row=1)
    async def pot(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self._quick(interaction, "pot")

    @discord.ui.button(label="My cards", style=discord.ButtonStyle.success,
                       custom_id=MY_CARDS_ID, row=1)
    async def my_cards(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await show_my_cards(interaction)

    async def _quick(self, interaction: discord.Interaction, size: str) -> None:
        state, prompt = current_turn(interaction)
        amount = quick_amount(prompt.legal, size, prompt.pot_total, _current_bet(state))
        await act(interaction, bet_or_raise(prompt.legal, amount), confirm=False)


def _current_bet(state: TableState) -> int:
    return max((seat.bet for seat in state.seats), default=0)

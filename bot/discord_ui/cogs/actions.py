"""Acting by slash command: the same table calls as the buttons, with a short confirmation."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.amounts import check_amount
from bot.discord_ui.player_actions import act, current_turn
from bot.tables.bet_sizing import bet_or_raise
from engine.actions import Action, ActionKind

if TYPE_CHECKING:
    from bot.discord_ui.app import HoldemBot

AMOUNT = app_commands.Range[int, 1, 10**12]


class ActionsCog(commands.Cog, name="Actions"):
    """Bet, raise, call, check, fold and all-in when it is your turn."""

    def __init__(self, bot: HoldemBot) -> None:
        self.bot = bot

    @app_commands.command(description="Bet this amount (or raise to it when facing a bet).")
    @app_commands.describe(amount="Your total for this street, in chips")
    @app_commands.guild_only()
    async def bet(self, interaction: discord.Interaction[HoldemBot], amount: AMOUNT) -> None:
        await _bet_to(interaction, amount)

    @app_commands.command(name="raise", description="Raise to this total for the street "
                                                    "(a bet when nobody has bet).")
    @app_commands.describe(to="Your total for this street after the raise, in chips")
    @app_commands.guild_only()
    async def raise_(self, interaction: discord.Interaction[HoldemBot], to: AMOUNT) -> None:
        await _bet_to(interaction, to)

    @app_commands.command(description="Match the current bet.")
    @app_commands.guild_only()
    async def call(self, interaction: discord.Interaction[HoldemBot]) -> None:
        await act(interaction, Action(ActionKind.CALL), confirm=True)

    @app_commands.command(description="Pass without betting when nobody has bet.")
    @app_commands.guild_only()
    async def check(self, interaction: discord.Interaction[HoldemBot]) -> None:
        await act(interaction, Action(ActionKind.CHECK), confirm=True)

    @app_commands.command(description="Give up this hand.")
    @app_commands.guild_only()
    async def fold(self, interaction: discord.Interaction[HoldemBot]) -> None:
        await act(interaction, Action(ActionKind.FOLD), confirm=True)

    @app_commands.command(description="Put your whole stack in.")
    @app_commands.guild_only()
    async def allin(self, interaction: discord.Interaction[HoldemBot]) -> None:
        await act(interaction, Action(ActionKind.ALL_IN), confirm=True)


async def _bet_to(interaction: discord.Interaction[HoldemBot], amount: int) -> None:
    check_amount(amount)
    _, prompt = current_turn(interaction)
    await act(interaction, bet_or_raise(prompt.legal, amount), confirm=True)


async def setup(bot: HoldemBot) -> None:
    await bot.add_cog(ActionsCog(bot))

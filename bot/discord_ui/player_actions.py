"""Acting for the person behind an interaction: shared by the slash commands and the buttons.

A command and a button for the same action must behave the same; both come through here to
the table runtime, so the checks (is it this person's turn?) and the answers (a short
confirmation for a command, a silent acknowledgement for a click) are written once. Answers are
in the language of the person who clicked or typed (``language_of``).
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.discord_ui.replies import language_of, reply, seconds_to_acknowledge, within_deadline
from bot.discord_ui.services import table_services
from bot.discord_ui.views.pre_actions import my_cards_lines, my_cards_view_now, sitting_out_at
from bot.discord_ui.views.tournament_buttons import add_purchases
from bot.i18n import Text, tr
from bot.tables.errors import NotYourTurn, TableMovedOn
from bot.tables.notifier import TableState, Turn, TurnPrompt
from engine.actions import Action, ActionKind

log = logging.getLogger(__name__)

CARDS_PICTURE_WAIT = 1.0
"""Seconds My cards waits for the picture of the cards before answering without it: the
picture worker may be queued behind every table's pictures (up to its deadline), Discord
wants an answer within 3, and the text names the cards anyway."""


def current_turn(
    interaction: discord.Interaction[discord.Client], shown_for: Turn | None = None,
) -> tuple[TableState, TurnPrompt]:
    """The table state and the turn prompt of the person behind ``interaction``.

    Raises ``TableMovedOn`` when ``shown_for`` (the turn a button or form names) is not the
    open turn, and ``NotYourTurn`` when the person is not the player to act in this channel.
    """
    bot = table_services(interaction)
    channel_id = interaction.channel_id or 0
    turn = bot.notifier.turn(channel_id)
    state = bot.tables.state(channel_id)
    if shown_for is not None and (turn is None or turn[1].turn != shown_for):
        raise TableMovedOn()
    if turn is None or state is None or turn[0] != interaction.user.id:
        raise NotYourTurn()
    return state, turn[1]


async def act(interaction: discord.Interaction[discord.Client], action: Action, *,
              confirm: bool, turn: Turn | None = None) -> None:
    """Take ``action`` for the person behind ``interaction`` through the table runtime.

    A click on the table message (a button, or the amount form opened from one) is answered
    with the updated table itself (UPDATE_MESSAGE), which costs nothing of the bot's global
    rate limit; slash commands get a short ephemeral confirmation (``confirm``), and the table
    shows their action through the next edit. Private notes waiting for the person ride along
    in the answer. ``turn`` is the turn a button or form was shown for (slash commands act on
    the open turn). Raises the runtime's refusals (``NotYourTurn``, ``TableMovedOn``,
    ``IllegalAction``) for the error handler to show.
    """
    bot = table_services(interaction)
    channel_id = interaction.channel_id or 0
    work = bot.tables.act(channel_id, interaction.user.id, action, turn)
    table = None if confirm else bot.notifier.clicked_table(interaction)
    if table is None:
        await within_deadline(interaction, work)
    else:
        await table.carry_click(interaction, work)
    language = language_of(interaction)
    lines = [language.render(confirmation(action))] if confirm else []
    lines += bot.notifier.take_notices(interaction.user.id, language)
    if lines:
        await reply(interaction, "\n".join(lines))
    elif not interaction.response.is_done():
        await interaction.response.defer()


def confirmation(action: Action) -> Text:
    """What the person just did, in the second person: ``"You raise to 120."``."""
    kind = action.kind
    if kind is ActionKind.ALL_IN:
        return tr("You go all-in.")
    if kind is ActionKind.BET:
        return tr("You bet {amount}.", amount=action.amount)
    if kind is ActionKind.RAISE:
        return tr("You raise to {amount}.", amount=action.amount)
    if kind is ActionKind.CALL:
        return tr("You call.")
    if kind is ActionKind.CHECK:
        return tr("You check.")
    return tr("You fold.")


async def show_my_cards(interaction: discord.Interaction[discord.Client]) -> None:
    """Answer ephemerally with the person's hole cards in this channel's hand (and the coach's
    hint when the table shows hints), with the pre-actions they may choose now and, while they
    sit out, **I'm back**; within Discord's deadline however busy the picture worker is."""
    bot = table_services(interaction)
    language = language_of(interaction)
    channel_id, user_id = interaction.channel_id or 0, interaction.user.id
    state = bot.tables.state(channel_id)
    cards = bot.tables.hole_cards(channel_id, user_id)
    view = my_cards_view_now(bot.tables, channel_id, user_id, language)
    purchases = bot.tables.tournaments.purchases_open(channel_id, user_id)
    if purchases is not None:  # a rebuy or the add-on, where a player looks for their cards
        view = add_purchases(view, *purchases, language)
    if state is None or not cards:
        text = tr("You are sitting out: press **I'm back** to play from the next hand.") \
            if sitting_out_at(bot.tables, channel_id, user_id) is not None \
            else tr("You have no cards in a hand at this table right now.")
        await reply(interaction, language.render(text), view=view)
        return
    picture = asyncio.ensure_future(bot.notifier.cards_image(cards))
    words = asyncio.ensure_future(my_cards_lines(bot.tables, channel_id, user_id, language))
    ready, _ = await asyncio.wait({picture}, timeout=min(CARDS_PICTURE_WAIT,
                                                         seconds_to_acknowledge(interaction)))
    if not ready:
        picture.cancel()
        log.info("My cards answered without its picture: the picture was not ready in time")
    lines = [*await within_deadline(interaction, words),
             *bot.notifier.take_notices(user_id, language)]
    await reply(interaction, "\n".join(lines),
                file=picture.result() if ready else None, view=view)

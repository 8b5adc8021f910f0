"""Acting for the person behind an interaction: shared by the slash commands and the buttons.

A command and a button for the same action must behave the same; both come through here to
the table runtime, so the checks (is it this person's turn?) and the answers (a short
confirmation for a command, a silent acknowledgement for a click) are written once. Answers are
in the language of the person who clicked or typed (``language_of``).
"""

from __future__ import annotations

import discord

from bot.discord_ui.embeds import hole_cards_text
from bot.discord_ui.hints import hint_lines
from bot.discord_ui.replies import language_of, reply, within_deadline
from bot.discord_ui.services import table_services
from bot.discord_ui.views.pre_actions import my_cards_view
from bot.i18n import Text, tr
from bot.tables.errors import NotYourTurn, TableMovedOn
from bot.tables.notifier import TableState, Turn, TurnPrompt
from engine.actions import Action, ActionKind


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
    sit out, **I'm back**."""
    bot = table_services(interaction)
    language = language_of(interaction)
    channel_id, user_id = interaction.channel_id or 0, interaction.user.id
    state = bot.tables.state(channel_id)
    cards = bot.tables.hole_cards(channel_id, user_id)
    seat = state.seat_of(user_id) if state is not None else None
    away = channel_id if seat is not None and seat.sitting_out else None
    if state is None or not cards:
        text = tr("You are sitting out: press **I'm back** to play from the next hand.") \
            if away is not None else tr("You have no cards in a hand at this table right now.")
        await reply(interaction, language.render(text),
                    view=my_cards_view(None, away, language))
        return
    image = await bot.notifier.cards_image(cards)
    lines = [hole_cards_text(state, cards, language),
             *await hint_lines(bot.tables, channel_id, user_id, language),
             *bot.notifier.take_notices(user_id, language)]
    choices = bot.tables.pre_action_choices(channel_id, user_id)
    await reply(interaction, "\n".join(lines), file=image,
                view=my_cards_view(choices, away, language))

"""The words of a tournament: its status board and its final standings, as embeds.

Built from the runtime's public snapshots (``TournamentStatus``, ``TournamentResults``),
in the reader's ``language``: the channel's for the board and the standings, the member's
own for ``/tournament status``. Names of people are mentions (Discord shows them), bots' names
are shown as written.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.discord_ui.embeds import channel_link, countdown, plain
from bot.errors import HoldemError
from bot.i18n import ENGLISH, Language, Message, Text, tr, tr_c, tr_n
from bot.tables.tournament_status import (
    EntrantStatus,
    TournamentPhase,
    TournamentResults,
    TournamentStatus,
)
from engine.blinds import LevelUnit

TOURNAMENT_COLOUR = discord.Colour.gold()
FIELD_LIMIT = 1024
MAX_LINES = 30
"""Entrants listed on the board (a big field shows the leaders, then a count)."""

STRUCTURE_NAMES: dict[str, Text] = {
    "turbo": tr_c("structure", "Turbo"), "regular": tr_c("structure", "Regular"),
    "deep": tr_c("structure", "Deep"),
}
_BOT_LEVELS = {"easy": tr_c("bot level", "easy"), "medium": tr_c("bot level", "medium"),
               "hard": tr_c("bot level", "hard"), "expert": tr_c("bot level", "expert")}


def entrant_name(entrant: EntrantStatus, language: Language = ENGLISH) -> str:
    """A person as a mention, a bot by its name with its level."""
    if entrant.user_id is not None:
        return f"<@{entrant.user_id}>"
    level = _BOT_LEVELS.get(entrant.bot_level or "", entrant.bot_level or "")
    return language.render(tr("{name} (bot, {level})", name=plain(entrant.name), level=level))


def place_text(place: tuple[int, int]) -> str:
    """``3`` or, for a tie, ``3–4``."""
    best, worst = place
    return str(best) if best == worst else f"{best}–{worst}"


def blinds_text(status: TournamentStatus) -> Text:
    """The level being played and its blinds: ``Level 2: 15/30 ante 5``."""
    if status.ante:
        return tr("Level {level}: {small}/{big} ante {ante}", level=status.level,
                  small=status.small_blind, big=status.big_blind, ante=status.ante)
    return tr("Level {level}: {small}/{big}", level=status.level, small=status.small_blind,
              big=status.big_blind)


def next_level_text(status: TournamentStatus) -> Message:
    """When the blinds rise next: a relative Discord time, or a number of hands."""
    if status.next_level_at is not None:
        return countdown(status.next_level_at)
    if status.next_level_in_hands is not None:
        return tr_n("in {count} hand", "in {count} hands", status.next_level_in_hands)
    if status.phase is TournamentPhase.REGISTERING:
        return structure_text(status)
    return tr("Last level")


def structure_text(status: TournamentStatus) -> Text:
    """``Turbo, levels of 6 hands`` / ``Regular, levels of 6 minutes``."""
    settings = status.settings
    length = settings.schedule().length
    name = STRUCTURE_NAMES.get(settings.structure, tr_c("structure", "Regular"))
    if settings.unit is LevelUnit.HANDS:
        levels = tr_n("levels of {count} hand", "levels of {count} hands", int(length))
    else:
        levels = tr_n("levels of {count} minute", "levels of {count} minutes", int(length))
    return tr("{structure}, {levels}", structure=name, levels=levels)


def payouts_text(status: TournamentStatus, language: Language = ENGLISH) -> str:
    """The prize of each paid place, best first: ``#1: 390 · #2: 210``; before anyone has
    paid in, the percentages of the pool."""
    if not status.settings.buy_in:
        return language.render(tr("No prizes (a freeroll)"))
    if status.pool and any(status.prizes):
        return " · ".join(language.render(tr("#{place}: {amount}", place=place, amount=prize))
                          for place, prize in enumerate(status.prizes, 1))
    try:
        percents = status.settings.check_payouts(max(2, status.entrant_count))
    except HoldemError:
        return "—"
    return " · ".join(language.render(tr("#{place}: {percent}%", place=place, percent=percent))
                      for place, percent in enumerate(percents, 1))


def phase_text(status: TournamentStatus) -> Text:
    """One sentence on where the tournament is."""
    if status.phase is TournamentPhase.REGISTERING:
        return tr("Registration is open: /tournament join to enter ({count} of {limit} "
                  "players).", count=status.entrant_count,
                  limit=status.settings.entrant_limit)
    if status.phase is TournamentPhase.RUNNING:
        return tr("Running: {left} of {entrants} players left.", left=status.players_left,
                  entrants=status.entrant_count)
    if status.phase is TournamentPhase.FINISHED:
        return tr("Finished: the prizes are paid.")
    return tr("Cancelled: every buy-in was refunded.")


def purchases_text(status: TournamentStatus) -> list[Text]:
    """What the tournament sells after the entry and what was bought: rebuys, the add-on,
    re-entries (empty when it sells none)."""
    settings = status.settings
    parts = []
    if settings.rebuys:
        parts.append(tr("Rebuys: {count} bought (up to {most} each, levels 1–{levels})",
                        count=status.rebuys, most=settings.rebuys, levels=settings.rebuy_levels))
    if settings.addon:
        parts.append(tr("Add-ons: {count} bought ({price} chips for {stack}, level {level})",
                        count=status.addons, price=settings.addon_price or 0,
                        stack=settings.addon_chips or 0, level=settings.rebuy_levels + 1))
    if settings.reentry:
        parts.append(tr("Re-entries: {count} (during late registration)",
                        count=status.entries - status.entrant_count))
    return parts


def _entrant_line(entrant: EntrantStatus, status: TournamentStatus, language: Language) -> str:
    name = entrant_name(entrant, language)
    if entrant.deciding:
        return language.render(tr("{name}: out of chips, deciding whether to buy back in",
                                  name=name))
    if entrant.place is not None:
        line = tr("{place}. {name}", place=place_text(entrant.place), name=name)
        if entrant.prize:
            line = tr("{line} — {prize} chips", line=line, prize=entrant.prize)
        return language.render(line)
    if status.phase is TournamentPhase.RUNNING:
        where = f" · {channel_link(entrant.table_channel_id)}" if (
            entrant.table_channel_id is not None and len(status.table_channel_ids) > 1) else ""
        return language.render(tr("{name}: {chips}", name=name, chips=entrant.chips)) + where
    return name


def _lines(lines: Sequence[str], language: Language, limit: int = FIELD_LIMIT) -> str:
    """Lines joined, as many as fit (the rest counted), or a dash when there are none."""
    if not lines:
        return "—"
    shown: list[str] = []
    for index, line in enumerate(lines):
        rest = len(lines) - index
        more = language.render(tr_n("… and {count} more", "… and {count} more", rest))
        if index >= MAX_LINES or len("\n".join([*shown, line, more])) > limit:
            return "\n".join([*shown, more])
        shown.append(line)
    return "\n".join(shown)


def status_embed(status: TournamentStatus, language: Language = ENGLISH) -> discord.Embed:
    """The tournament board: phase, buy-in, pool, blinds, next level, field, payouts."""
    say = language.render
    settings = status.settings
    embed = discord.Embed(title=say(board_title(status.tournament_id)),
                          description=say(phase_text(status)), colour=TOURNAMENT_COLOUR)
    buy_in = tr("{chips} chips", chips=settings.buy_in) if settings.buy_in else tr("Freeroll")
    embed.add_field(name=say(tr("Buy-in")), value=say(buy_in))
    embed.add_field(name=say(tr("Prize pool")), value=language.number(status.pool))
    embed.add_field(name=say(tr("Starting stack")), value=language.number(settings.starting_stack))
    embed.add_field(name=say(tr("Structure")), value=say(structure_text(status)))
    if status.phase is TournamentPhase.RUNNING:
        embed.add_field(name=say(tr("Blinds")), value=say(blinds_text(status)))
        embed.add_field(name=say(tr("Next level")), value=say(next_level_text(status)))
        embed.add_field(name=say(tr("Players left")), value=say(tr(
            "{left} of {entrants}", left=status.players_left, entrants=status.entrant_count)))
        embed.add_field(name=say(tr("Average stack")),
                        value=language.number(status.average_stack))
    else:
        embed.add_field(name=say(tr("Seats per table")), value=say(tr(
            "{seats} (up to {limit} players)", seats=settings.seats,
            limit=settings.entrant_limit)))
    if status.starts_at is not None and status.phase is TournamentPhase.REGISTERING:
        embed.add_field(name=say(tr("Starts")), value=f"<t:{int(status.starts_at)}:F>")
    bought = purchases_text(status)
    if bought:
        embed.add_field(name=say(tr("Rebuys and add-ons")),
                        value="\n".join(say(part) for part in bought), inline=False)
    if settings.bot_fill is not None and status.phase is TournamentPhase.REGISTERING:
        embed.add_field(name=say(tr("Bots")), value=say(tr(
            "{level} bots fill the empty places at the start",
            level=_BOT_LEVELS.get(settings.bot_fill, settings.bot_fill))))
    embed.add_field(name=say(tr("Payouts")), value=payouts_text(status, language)[:FIELD_LIMIT],
                    inline=False)
    if len(status.table_channel_ids) > 1 and status.phase is TournamentPhase.RUNNING:
        embed.add_field(name=say(tr("Tables")), value=_lines(
            [channel_link(channel) for channel in status.table_channel_ids], language),
            inline=False)
    lines = [_entrant_line(entrant, status, language) for entrant in status.entrants]
    embed.add_field(name=say(tr("Entrants ({count})", count=status.entrant_count)),
                    value=_lines(lines, language), inline=False)
    return embed


def board_title(tournament_id: int) -> Text:
    """The title of a tournament's board, by which it is found again after a restart."""
    return tr("Tournament #{number}", number=str(tournament_id))


def cancelled_by_restart_embed(tournament_id: int, language: Language = ENGLISH
                               ) -> discord.Embed:
    """The board of a tournament the bot's restart cut short (its state was lost with the
    process; the ledger's recovery refunded it)."""
    return discord.Embed(
        title=language.render(board_title(tournament_id)),
        description=language.render(tr(
            "Cancelled when the bot restarted: every buy-in was refunded.")),
        colour=TOURNAMENT_COLOUR)


def results_embed(results: TournamentResults, language: Language = ENGLISH) -> discord.Embed:
    """The final standings: every place, best first, with the prizes won."""
    say = language.render
    lines = []
    for entrant in results.places:
        place = place_text(entrant.place) if entrant.place is not None else "?"
        line = tr("{place}. {name}", place=place, name=entrant_name(entrant, language))
        if entrant.prize:
            line = tr("{line} — {prize} chips", line=line, prize=entrant.prize)
        lines.append(say(line))
    winner = entrant_name(results.winner, language) if results.places else "—"
    embed = discord.Embed(
        title=say(tr("Tournament #{number}: final standings",
                     number=str(results.tournament_id))),
        description=say(tr("{winner} wins the tournament!", winner=winner)),
        colour=TOURNAMENT_COLOUR)
    embed.add_field(name=say(tr("Standings")),
                    value=_lines(lines, language),
                    inline=False)
    embed.set_footer(text=say(tr("Prize pool: {pool} chips, paid to the balances.",
                                 pool=results.pool)))
    return embed

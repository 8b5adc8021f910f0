"""Chips and records: balance, daily bonus, stats, leaderboard, hand histories, replays and
reviews."""

from __future__ import annotations

import asyncio
import io
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.cogs.table import member_cooldown
from bot.discord_ui.embeds import TABLE_COLOUR, plain
from bot.discord_ui.replies import language_of, reply, within_deadline
from bot.errors import InputError
from bot.i18n import tr
from bot.i18n.coach import REVIEW_NOTE, decision_text, review, review_heading
from bot.ledger import (
    HABIT_FIGURES,
    LEADERBOARD_MIN_HANDS,
    RANKED_HABITS,
    HabitFigure,
    Habits,
    HandRecord,
    LeaderboardRow,
    PlayerStats,
    TournamentStats,
    server_habits,
)
from bot.ledger.ledger import MAX_HANDS_PER_READ
from bot.render.leaderboard_chart import (
    LEADERBOARD_VALUES,
    leaderboard_value,
    render_leaderboard_chart,
)
from bot.render.replay import render_replay
from bot.render.review_chart import render_review_chart
from bot.render.stats_chart import (
    HABIT_LABELS,
    habit_line,
    record_figures,
    render_stats_chart,
    signed,
    tournament_line,
)
from bot.tables.notifier import SeatState
from engine.export import phh, pokerstars
from engine.hand_record import RecordedHand
from engine.history import visible_to

if TYPE_CHECKING:
    from bot.discord_ui.app import HoldemBot

LEADERBOARD_PAGE_SIZE = 10
EXPORT_COUNT = 100
"""How many hands ``/history export`` sends when no count is given."""
REVIEW_LIMIT = 4096
"""Discord's limit on an embed's description, which holds a review's decisions."""
SCOPE_CHOICES = [app_commands.Choice(name="This server", value="server"),
                 app_commands.Choice(name="All servers", value="global")]
BY_CHOICES = [app_commands.Choice(name="Chips", value="balance"),
              app_commands.Choice(name="Net winnings", value="net"),
              app_commands.Choice(name="Hands won", value="hands_won"),
              app_commands.Choice(name="Tournaments", value="tournaments"),
              app_commands.Choice(name="Won at showdown", value="won_at_showdown"),
              app_commands.Choice(name="Aggression", value="aggression")]


def _by_a_habit(interaction: discord.Interaction[HoldemBot]) -> bool:
    return getattr(interaction.namespace, "by", None) in RANKED_HABITS


def habit_board_cooldown(
    interaction: discord.Interaction[HoldemBot],
) -> app_commands.Cooldown | None:
    """/leaderboard's cooldown (``COMMAND_COOLDOWNS``), for the orders that read habits only:
    the others are a plain ranking of balances or counts."""
    return member_cooldown("leaderboard")(interaction) if _by_a_habit(interaction) else None


def habit_board_key(interaction: discord.Interaction[HoldemBot]) -> tuple[int, bool]:
    """A member's bucket of ``habit_board_cooldown``: discord.py keeps the first cooldown the
    factory gives a key, so the orders without one need a key of their own."""
    return interaction.user.id, _by_a_habit(interaction)


class AccountCog(commands.Cog, name="Account"):
    """Your chips in this server and how you have played."""

    def __init__(self, bot: HoldemBot) -> None:
        self.bot = bot

    @app_commands.command(description="Your chips in this server.")
    @app_commands.guild_only()
    async def balance(self, interaction: discord.Interaction[HoldemBot]) -> None:
        user = interaction.user
        balance = await within_deadline(interaction, self.bot.ledger.ensure_player(
            interaction.guild_id or 0, user.id, user.display_name))
        seat = self._seat_here(interaction)
        if seat is None:
            text = tr("Your balance is {chips} chips.", chips=balance)
        else:
            text = tr("Your balance is {chips} chips. You also have {stack} at this table.",
                      chips=balance, stack=seat.stack)
        await reply(interaction, text)

    @app_commands.command(description="Claim your daily chip bonus.")
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction[HoldemBot]) -> None:
        user, guild_id = interaction.user, interaction.guild_id or 0

        async def claim() -> int:
            await self.bot.ledger.ensure_player(guild_id, user.id, user.display_name)
            return await self.bot.ledger.claim_daily(guild_id, user.id)

        balance = await within_deadline(interaction, claim())
        await reply(interaction, tr("You claim {chips} chips. Your balance is {balance}.",
                                    chips=self.bot.ledger.daily_amount, balance=balance))

    @app_commands.command(description="A player's record in this server.")
    @app_commands.describe(player="Whose record (default: yours)")
    @app_commands.guild_only()
    @app_commands.checks.dynamic_cooldown(member_cooldown("stats"))
    async def stats(
        self, interaction: discord.Interaction[HoldemBot], player: discord.User | None = None
    ) -> None:
        who, guild_id = player or interaction.user, interaction.guild_id or 0
        ledger, draw_images = self.bot.ledger, self.bot.options.draw_images
        language = language_of(interaction)

        async def gather() -> tuple[PlayerStats | None, TournamentStats, Habits,
                                    dict[HabitFigure, float | None], bytes | None]:
            record = await ledger.stats(guild_id, who.id)
            tournament_record = await ledger.tournament_stats(guild_id, who.id)
            everyone = await ledger.habits(guild_id) if record is not None else {}
            habits, server = everyone.get(who.id, Habits()), server_habits(everyone.values())
            if record is None or not draw_images:
                return record, tournament_record, habits, server, None
            points = await ledger.results_over_time(guild_id, who.id)
            averages = await ledger.server_averages(guild_id)
            chart = await asyncio.to_thread(render_stats_chart, points, record, averages,
                                            habits=habits, server_habits=server,
                                            language=language)
            return record, tournament_record, habits, server, chart

        record, tournaments, habits, server, chart = await within_deadline(
            interaction, gather(), ephemeral=False)
        if record is None:
            raise InputError(tr("{name} has not played here yet.",
                                name=plain(who.display_name)))
        embed = discord.Embed(title=language.render(tr("{name}'s record",
                                                       name=plain(record.name))),
                              colour=TABLE_COLOUR)
        for name, value in record_figures(record, language):
            embed.add_field(name=language.render(name), value=value)
        for figure in HABIT_FIGURES:
            embed.add_field(name=language.render(HABIT_LABELS[figure]), value=language.render(
                habit_line(figure, habits.figure(figure), server[figure])))
        played = tournament_line(tournaments, language)
        if played is not None:
            embed.add_field(name=language.render(tr("Tournaments")),
                            value=language.render(played), inline=False)
        if chart is None:
            await reply(interaction, embed=embed, ephemeral=False)
            return
        embed.set_image(url="attachment://stats.png")
        await reply(interaction, embed=embed, ephemeral=False,
                    file=discord.File(io.BytesIO(chart), filename="stats.png"))

    @app_commands.command(description="The best players, in this server or everywhere.")
    @app_commands.describe(scope="This server or all servers", by="What to rank by",
                           page="Page number, from 1",
                           chart="Attach a bar chart of this page")
    @app_commands.choices(scope=SCOPE_CHOICES, by=BY_CHOICES)
    @app_commands.guild_only()
    @app_commands.checks.dynamic_cooldown(habit_board_cooldown, key=habit_board_key)
    async def leaderboard(
        self,
        interaction: discord.Interaction[HoldemBot],
        scope: str = "server",
        by: str = "balance",
        page: app_commands.Range[int, 1, 10_000] = 1,
        chart: bool = False,
    ) -> None:
        if page < 1:
            raise InputError(tr("Pages count from 1."))
        order = next((key for key in LEADERBOARD_VALUES if key == by), None)
        if scope not in ("server", "global") or order is None:
            raise InputError(tr("Choose the leaderboard from the list."))
        guild_id = interaction.guild_id if scope == "server" else None
        if scope == "server":
            title = tr("Leaderboard: {values} in this server", values=LEADERBOARD_VALUES[order])
        else:
            title = tr("Leaderboard: {values} in all servers", values=LEADERBOARD_VALUES[order])
        language = language_of(interaction)
        ledger, draw_chart = self.bot.ledger, chart and self.bot.options.draw_images

        def shown(value: float) -> str:
            return leaderboard_value(language, order, value)

        async def gather() -> tuple[list[LeaderboardRow], bytes | None]:
            rows = list(await ledger.leaderboard(
                guild_id, by=order, page=page, page_size=LEADERBOARD_PAGE_SIZE))
            if not draw_chart:
                return rows, None
            image = await asyncio.to_thread(render_leaderboard_chart, rows, title,
                                            language=language, value_text=shown)
            return rows, image

        rows, image = await within_deadline(interaction, gather(), ephemeral=False)
        embed = discord.Embed(
            title=language.render(title), colour=TABLE_COLOUR,
            description="\n".join(
                f"**{row.rank}.** {plain(row.name)} — {shown(row.value)}" for row in rows
            ) or language.render(tr("Nobody on this page yet.")),
        )
        footer = tr("Page {page}", page=page) if order not in RANKED_HABITS else tr(
            "Page {page} · players with {count} hands or more", page=page,
            count=LEADERBOARD_MIN_HANDS)
        embed.set_footer(text=language.render(footer))
        if image is None:
            await reply(interaction, embed=embed, ephemeral=False)
            return
        embed.set_image(url="attachment://leaderboard.png")
        await reply(interaction, embed=embed, ephemeral=False,
                    file=discord.File(io.BytesIO(image), filename="leaderboard.png"))

    @app_commands.command(description="The history of a hand, as a text file (other players' "
                                      "unshown cards left out).")
    @app_commands.describe(hand="The hand's id (default: your latest hand)",
                           export="Your latest hands here instead, as files for tracking tools",
                           count="How many of your latest hands to export (default 100)")
    @app_commands.guild_only()
    async def history(
        self,
        interaction: discord.Interaction[HoldemBot],
        hand: int | None = None,
        export: bool = False,
        count: app_commands.Range[int, 1, MAX_HANDS_PER_READ] | None = None,
    ) -> None:
        if export or count is not None:
            await self._export(interaction, hand, count or EXPORT_COUNT)
            return
        user_id = interaction.user.id
        record = await within_deadline(interaction, self._finished_hand(interaction, hand))
        text = visible_to(record.history_text, len(record.participants),
                          record.seat_of(user_id))
        history = io.BytesIO(text.encode())
        heading = tr("Hand #{hand}:", hand=str(record.hand_id)) if record.tournament_id is None \
            else tr("Hand #{hand} (tournament #{tournament}, in its play chips):",
                    hand=str(record.hand_id), tournament=str(record.tournament_id))
        await reply(interaction, heading,
                    file=discord.File(history, filename=f"hand-{record.hand_id}.txt"))

    async def _export(self, interaction: discord.Interaction[HoldemBot], hand: int | None,
                      count: int) -> None:
        """``/history export``: the member's latest ``count`` hands in this server, for them
        alone, as the web's ``/me/hands.txt`` and ``/me/hands.phhs`` files (``engine.export``:
        their own cards and the shown ones, nobody else's). Writing them replays every hand,
        so it runs off the event loop."""
        if hand is not None:
            raise InputError(tr("Give either a hand or export: export sends your latest "
                                "hands."))
        hands = await within_deadline(interaction, self.bot.ledger.hands_to_export(
            interaction.user.id, guild_id=interaction.guild_id or 0, limit=count))
        if not hands:
            raise InputError(tr("You have not finished a hand here yet."))
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        text, phhs = await asyncio.to_thread(lambda: (pokerstars(hands), phh(hands)))
        name = f"holdem-hands-{interaction.guild_id}"
        await reply(interaction, tr("Your latest {count} hands here, for tracking tools: "
                                    "PokerStars text and PHH.", count=len(hands)),
                    files=[discord.File(io.BytesIO(text.encode()), filename=f"{name}.txt"),
                           discord.File(io.BytesIO(phhs.encode()), filename=f"{name}.phhs")])

    @app_commands.command(description="A hand replayed as an animated picture (other players' "
                                      "unshown cards face down).")
    @app_commands.describe(hand="The hand's id (default: your latest hand)",
                           share="Post it here, in the hand's own channel (when you played "
                                 "it, only if your cards were shown)")
    @app_commands.guild_only()
    async def replay(
        self,
        interaction: discord.Interaction[HoldemBot],
        hand: int | None = None,
        share: bool = False,
    ) -> None:
        """The replay, for the member alone or, with ``share``, posted in the hand's own channel
        and nowhere else: whoever reads that channel could watch the hand there as it was
        played, so the post shows nobody anything new, while another channel (a public one,
        for a hand from a private channel) may have other readers. Until that rule has passed,
        any deferral is ephemeral, so that a refusal is never shown to everyone."""
        if not self.bot.options.draw_images:
            raise InputError(tr("Replays are pictures, and this bot is set to draw none: "
                                "/history has the hand as text."))

        async def find() -> tuple[HandRecord, RecordedHand, int | None]:
            record = await self._finished_hand(interaction, hand)
            if record.replay is None:
                raise InputError(tr("Hand #{hand} was played before replays were recorded: "
                                    "/history has it as text.", hand=str(record.hand_id)))
            seat = record.seat_of(interaction.user.id)
            played = RecordedHand.from_json(record.replay)
            if share and record.table_id != interaction.channel_id:
                raise InputError(tr("Hand #{hand} can be shared only in the channel it was "
                                    "played in.", hand=str(record.hand_id)))
            if share and seat is not None and seat not in played.shown_seats():
                raise InputError(tr("Your cards in hand #{hand} were never shown, so its "
                                    "replay is only for you: leave out share.",
                                    hand=str(record.hand_id)))
            return record, played, seat

        record, played, seat = await within_deadline(interaction, find())
        if not interaction.response.is_done():  # drawing takes a while: say so at once
            await interaction.response.defer(ephemeral=not share, thinking=True)
        elif share:  # the private "thinking" becomes a note; the replay follows for everyone
            await reply(interaction, tr("Posting hand #{hand} in this channel…",
                                        hand=str(record.hand_id)))
        names = [participant.name for participant in record.participants]
        image = await asyncio.to_thread(render_replay, played, names, seat,
                                        title=record.hand_id, limit=interaction.filesize_limit,
                                        language=language_of(interaction))
        files = [discord.File(io.BytesIO(image.still), filename=f"hand-{record.hand_id}.png")]
        hand_id = str(record.hand_id)
        text = tr("Hand #{hand}:", hand=hand_id)
        if image.animation is not None:
            files.insert(0, discord.File(io.BytesIO(image.animation),
                                         filename=f"hand-{record.hand_id}.gif"))
        if image.streets_only:
            text = (tr("Hand #{hand} (streets only: every action did not fit the upload "
                       "limit):", hand=hand_id)
                    if image.animation is not None else
                    tr("Hand #{hand} (its result only: the replay did not fit the upload "
                       "limit):", hand=hand_id))
        await reply(interaction, text, ephemeral=not share, files=files)

    @app_commands.command(description="Your decisions in a hand you played, priced: pot odds, "
                                      "equity, the expected value of each choice.")
    @app_commands.describe(hand="The hand's id (default: your latest hand)")
    @app_commands.guild_only()
    async def review(
        self,
        interaction: discord.Interaction[HoldemBot],
        hand: int | None = None,
    ) -> None:
        """The review, for the member alone, of a hand they played: it uses their own cards,
        and others' only where the showdown showed them (``engine.coach.review``), with the
        chart of its equities when the bot draws images. Working out the equities takes up to
        a few hundred milliseconds, so the answer is deferred and the work runs off the event
        loop."""
        async def find() -> tuple[HandRecord, RecordedHand, int]:
            record = await self._finished_hand(interaction, hand)
            seat = record.seat_of(interaction.user.id)
            if seat is None:
                raise InputError(tr("You did not play hand #{hand}: /review looks at your own "
                                    "hands.", hand=str(record.hand_id)))
            if record.replay is None:
                raise InputError(tr("Hand #{hand} was played before hands were recorded "
                                    "action by action, so it cannot be reviewed.",
                                    hand=str(record.hand_id)))
            return record, RecordedHand.from_json(record.replay), seat

        record, played, seat = await within_deadline(interaction, find())
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        found = await asyncio.to_thread(review, played, seat)
        language = language_of(interaction)
        render = language.render
        embed = discord.Embed(title=render(review_heading(record.hand_id, found)),
                              colour=TABLE_COLOUR)
        files = []
        if found.decisions:
            embed.description = _within(
                [f"• {render(decision_text(decision))}" for decision in found.decisions],
                REVIEW_LIMIT)
            embed.set_footer(text=render(REVIEW_NOTE))
            if self.bot.options.draw_images:
                chart = await asyncio.to_thread(render_review_chart, found, language)
                embed.set_image(url="attachment://review.png")
                files.append(discord.File(io.BytesIO(chart), filename="review.png"))
        await reply(interaction, embed=embed, files=files)

    async def _finished_hand(self, interaction: discord.Interaction[HoldemBot],
                             hand: int | None) -> HandRecord:
        """The finished hand ``hand`` (default: the member's latest here), if the member may
        see it: settled in this server, and played by them or in a channel they can read.
        Raises ``InputError`` otherwise (with one answer for a hand that does not exist, is
        still running, or is not theirs to see, so that none tells which)."""
        guild_id, user_id = interaction.guild_id or 0, interaction.user.id
        hand_id = hand
        if hand_id is None:
            recent = await self.bot.ledger.recent_hands(guild_id, user_id, limit=1)
            if not recent:
                raise InputError(tr("You have not finished a hand here yet."))
            hand_id = recent[0].hand_id
        record = await self.bot.ledger.hand_history(hand_id) if hand_id > 0 else None
        if (record is None or record.guild_id != guild_id
                or (record.seat_of(user_id) is None
                    and not _can_view(interaction, record.table_id))):
            raise InputError(tr("There is no finished hand #{hand} in this server.",
                                hand=str(hand_id)))
        if not record.history_text:  # pruned (Ledger.prune_hands): its results stay in /stats
            raise InputError(tr("Hand #{hand} is older than this server keeps in detail: its "
                                "result still counts in /stats.", hand=str(hand_id)))
        return record

    @review.autocomplete("hand")
    @replay.autocomplete("hand")
    @history.autocomplete("hand")
    async def recent_hand_choices(
        self, interaction: discord.Interaction[HoldemBot], current: str
    ) -> list[app_commands.Choice[int]]:
        recent = await self.bot.ledger.recent_hands(
            interaction.guild_id or 0, interaction.user.id, limit=25)
        language = language_of(interaction)
        choices = []
        for summary in recent:
            when = datetime.fromtimestamp(summary.finished_at, UTC).strftime("%Y-%m-%d %H:%M")
            label = language.render(
                tr("#{hand} · {when} UTC · {net} chips", hand=str(summary.hand_id), when=when,
                   net=signed(language, summary.net)) if summary.tournament_id is None
                else tr("#{hand} · {when} UTC · {net} tournament chips",
                        hand=str(summary.hand_id), when=when, net=signed(language, summary.net)))
            if current in str(summary.hand_id):
                choices.append(app_commands.Choice(name=label, value=summary.hand_id))
        return choices

    def _seat_here(self, interaction: discord.Interaction[HoldemBot]) -> SeatState | None:
        state = self.bot.tables.state(interaction.channel_id or 0)
        return state.seat_of(interaction.user.id) if state is not None else None


def _within(lines: list[str], limit: int) -> str:
    """``lines`` joined, the last ones left out (for an ellipsis) if they pass ``limit``: a
    hand of many raises can have more decisions than an embed holds."""
    text = "\n".join(lines)
    while len(text) > limit:
        lines = lines[:-1]
        text = "\n".join([*lines, "…"])
    return text


def _can_view(interaction: discord.Interaction[HoldemBot], channel_id: int) -> bool:
    """True when the member may read the channel a hand was played in (a hand from a channel
    they cannot see, or one that is gone, is only for those who played it)."""
    guild, member = interaction.guild, interaction.user
    channel = guild.get_channel_or_thread(channel_id) if guild is not None else None
    return (channel is not None and isinstance(member, discord.Member)
            and channel.permissions_for(member).view_channel)


async def setup(bot: HoldemBot) -> None:
    await bot.add_cog(AccountCog(bot))

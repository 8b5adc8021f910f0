"""Server administration (Manage Server only): table settings (the server's language among
them), and chip grants."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.embeds import TABLE_COLOUR
from bot.discord_ui.replies import language_of, reply, server_language_of, within_deadline
from bot.errors import InputError
from bot.i18n import ENGLISH, Language, Message, languages, tr
from bot.tables.settings import MAX_SEATS, MIN_SEATS, TableSettings
from bot.tables.time_bank import REFILL_EVERY_HANDS, REFILL_SECONDS
from bot.web_access import WEB_PAGE_KEY, WebPage
from bot.web_access import web_page as access_of

if TYPE_CHECKING:
    from bot.discord_ui.app import HoldemBot

BLIND = app_commands.Range[int, 1, 10**9]
BIG_BLINDS = app_commands.Range[int, 1, 10_000]
SECONDS = app_commands.Range[float, 0, 3600]
GRANT = app_commands.Range[int, 1, 100_000_000]
NOTE = app_commands.Range[str, 1, 200]
CREATOR_CHOICES = [app_commands.Choice(name="Server managers", value="managers"),
                   app_commands.Choice(name="Anyone", value="anyone")]
"""Who may create tournaments (``TableSettings.tournament_creators``)."""
HINT_CHOICES = [app_commands.Choice(name="On", value="on"),
                app_commands.Choice(name="Off", value="off")]
"""Whether **My cards** shows the coach's hint (``TableSettings.hints``)."""
WEB_PAGE_CHOICES = [app_commands.Choice(name="Public", value="public"),
                    app_commands.Choice(name="Members", value="members"),
                    app_commands.Choice(name="Off", value="off")]
"""Who may read the server's web pages (``bot.web_access``)."""
STRADDLE_CHOICES = [app_commands.Choice(name="Off", value="off"),
                    app_commands.Choice(name="Under the gun", value="utg"),
                    app_commands.Choice(name="Button (Mississippi)", value="button")]
"""Who may straddle at cash tables (``TableSettings.straddle``)."""

SPECTATOR_CHOICES = [app_commands.Choice(name="None: live", value="none"),
                     app_commands.Choice(name="One street behind", value="street"),
                     app_commands.Choice(name="One hand behind", value="hand")]
"""How far behind the web page's spectators are (``TableSettings.spectator_delay``)."""
FOLLOW_SERVER = "auto"
"""The ``language`` choice that follows the server's own Discord language (stored as "")."""


def language_choices() -> list[app_commands.Choice[str]]:
    """Every language with a catalog, by its own name, then "follow the server"."""
    return [*(app_commands.Choice(name=app_commands.locale_str(language.name, verbatim=True),
                                  value=code)
              for code, language in languages().items()),
            app_commands.Choice(name="Server's Discord language", value=FOLLOW_SERVER)]


class AdminCog(commands.Cog, name="Admin"):
    """Table defaults for the server (a running table changes from its next hand), and chip
    grants, which the ledger records as admin entries."""

    def __init__(self, bot: HoldemBot) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description="Show or change the server's table "
                                                        "settings (Manage Server).")
    @app_commands.describe(
        small_blind="Small blind, in chips",
        big_blind="Big blind, in chips",
        min_buy_in="Smallest buy-in, in big blinds",
        max_buy_in="Largest buy-in, in big blinds",
        default_buy_in="Buy-in when a player names none, in big blinds (follows the range)",
        seats=f"Seats per table ({MIN_SEATS}-{MAX_SEATS})",
        max_bots="Most bots at one table (default: all seats but two)",
        turn_timer="Seconds a player has to act",
        time_bank="Extra seconds once the turn timer runs out, refilled slowly (0: none)",
        sit_out_hands="Hands a player may sit out before their seat is freed (0: never)",
        bot_delay_min="Shortest pause before a bot acts, in seconds",
        bot_delay_max="Longest pause before a bot acts, in seconds",
        language="What everyone at the tables reads (members' own answers follow their app)",
        tournament_creators="Who may create tournaments with /tournament create",
        hints="Hints in My cards: the hand in words, draws, equity (default: on at cash "
              "tables, off in tournaments)",
        web_page="Who may read this server's web pages (default: members, logged in)",
        straddle="A live straddle of two big blinds at cash tables: off, under the gun or "
                 "on the button",
        straddle_mandatory="On: the straddle is posted every hand; off: only bots choose it",
        spectator_delay="How far behind the play the web page's live tables are, against "
                        "collusion",
        auto_muck="On: a hand that wins nothing at showdown is mucked unseen; off: its player "
                  "may show it",
        timezone="The server's time zone for scheduled tournaments, e.g. Europe/Paris",
        tournament_role="The role pinged a few minutes before a scheduled tournament",
    )
    @app_commands.choices(language=language_choices(), tournament_creators=CREATOR_CHOICES,
                          hints=HINT_CHOICES, web_page=WEB_PAGE_CHOICES,
                          straddle=STRADDLE_CHOICES, straddle_mandatory=HINT_CHOICES,
                          spectator_delay=SPECTATOR_CHOICES, auto_muck=HINT_CHOICES)
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction[HoldemBot],
        small_blind: BLIND | None = None,
        big_blind: BLIND | None = None,
        min_buy_in: BIG_BLINDS | None = None,
        max_buy_in: BIG_BLINDS | None = None,
        default_buy_in: BIG_BLINDS | None = None,
        seats: app_commands.Range[int, MIN_SEATS, MAX_SEATS] | None = None,
        max_bots: app_commands.Range[int, 0, MAX_SEATS - 1] | None = None,
        turn_timer: SECONDS | None = None,
        time_bank: SECONDS | None = None,
        sit_out_hands: app_commands.Range[int, 0, 1000] | None = None,
        bot_delay_min: SECONDS | None = None,
        bot_delay_max: SECONDS | None = None,
        language: str | None = None,
        tournament_creators: str | None = None,
        hints: str | None = None,
        web_page: str | None = None,
        straddle: str | None = None,
        straddle_mandatory: str | None = None,
        spectator_delay: str | None = None,
        auto_muck: str | None = None,
        timezone: app_commands.Range[str, 1, 64] | None = None,
        tournament_role: discord.Role | None = None,
    ) -> None:
        guild_id, channel_id = interaction.guild_id or 0, interaction.channel_id or 0
        given = {
            "small_blind": small_blind, "big_blind": big_blind,
            "min_buy_in_bb": min_buy_in, "max_buy_in_bb": max_buy_in,
            "default_buy_in_bb": default_buy_in, "max_seats": seats, "max_bots": max_bots,
            "turn_timeout": turn_timer, "time_bank": time_bank,
            "sit_out_hands": sit_out_hands, "bot_delay_min": bot_delay_min,
            "bot_delay_max": bot_delay_max,
            "language": "" if language == FOLLOW_SERVER else language,
            "tournament_creators": tournament_creators,
            "hints": None if hints is None else hints == "on",
            "straddle": straddle,
            "straddle_mandatory": None if straddle_mandatory is None
            else straddle_mandatory == "on",
            "spectator_delay": spectator_delay,
            "auto_muck": None if auto_muck is None else auto_muck == "on",
            "timezone": None if timezone is None else timezone.strip(),
            "tournament_role": None if tournament_role is None else tournament_role.id,
        }
        changes = {name: value for name, value in given.items() if value is not None}

        async def apply() -> TableSettings:
            """All or nothing: the server's new settings are checked before the channel's table
            takes them (the table checks and applies in one step, refusing a tournament table's
            or blinds it cannot have), and saved only after, so any refusal changes nothing."""
            tables, ledger = self.bot.tables, self.bot.ledger
            server = await tables.guild_settings(guild_id)
            if not changes and web_page is None:
                return server
            server.with_changes(**changes)
            if tables.state(channel_id) is not None:
                await tables.update_table_settings(channel_id, **changes)
            # The table settings' save replaces the stored mapping: keep web_page beside them.
            page = access_of({WEB_PAGE_KEY: web_page} if web_page
                             else await ledger.guild_settings(guild_id))
            updated = await tables.update_guild_settings(guild_id, **changes)
            await ledger.save_guild_settings(guild_id, {**await ledger.guild_settings(guild_id),
                                                        WEB_PAGE_KEY: page})
            return updated

        current = await within_deadline(interaction, apply())
        title = tr("Table settings updated") if changes or web_page else tr("Table settings")
        embed = settings_embed(current, title, language_of(interaction),
                               server_language_of(interaction, current.language))
        page = access_of(await self.bot.ledger.guild_settings(guild_id))
        embed.add_field(name=language_of(interaction).render(tr("Web pages")),
                        value=language_of(interaction).render(WEB_PAGE_TEXTS[page]))
        await reply(interaction, embed=embed)


    @app_commands.command(name="grant", description="Give chips to a player in this server "
                                                     "(Manage Server).")
    @app_commands.describe(player="Who receives the chips", amount="How many chips",
                           note="Why (kept with the ledger entry)")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def grant(
        self,
        interaction: discord.Interaction[HoldemBot],
        player: discord.User,
        amount: GRANT,
        note: NOTE | None = None,
    ) -> None:
        if player.bot:
            raise InputError(tr("Bots have no balance; table bots are funded by the house."))
        guild_id = interaction.guild_id or 0

        async def apply() -> int:
            await self.bot.ledger.ensure_player(guild_id, player.id, player.display_name)
            return await self.bot.ledger.grant(
                guild_id, player.id, amount, reason=note or f"granted by {interaction.user.id}")

        balance = await within_deadline(interaction, apply(), ephemeral=False)
        await reply(interaction, tr("{giver} gave {amount} chips to {player}; their balance is "
                                    "{balance}.", giver=interaction.user.mention, amount=amount,
                                    player=player.mention, balance=balance),
                    ephemeral=False)

def settings_embed(settings: TableSettings, title: Message,
                   language: Language = ENGLISH,
                   table_language: Language | None = None) -> discord.Embed:
    """The settings as an embed in ``language``, money in chips and clocks in seconds;
    ``table_language`` is the language the tables use now (``settings.language``, or the
    server's own when that is empty)."""
    render = language.render
    embed = discord.Embed(title=render(title), colour=TABLE_COLOUR)
    embed.add_field(name=render(tr("Blinds")), value=render(settings.blinds_text))
    embed.add_field(name=render(tr("Buy-in")), value=render(tr(
        "{low} to {high} chips (default {default})", low=settings.min_buy_in,
        high=settings.max_buy_in, default=settings.default_buy_in)))
    embed.add_field(name=render(tr("Seats")), value=render(tr(
        "{seats} (bots: at most {bots})", seats=settings.max_seats, bots=settings.bot_limit)))
    embed.add_field(name=render(tr("Turn timer")), value=render(tr(
        "{seconds} s", seconds=format(settings.turn_timeout, "g"))))
    embed.add_field(name=render(tr("Time bank")), value=render(tr(
        "{seconds} s, {refill} s back every {hands} hands", seconds=format(settings.time_bank, "g"),
        refill=format(REFILL_SECONDS, "g"), hands=REFILL_EVERY_HANDS)
        if settings.time_bank else tr("Off")))
    embed.add_field(name=render(tr("Sitting out")), value=render(tr(
        "Seat freed after {hands} hands", hands=settings.sit_out_hands)
        if settings.sit_out_hands else tr("Seat kept")))
    embed.add_field(name=render(tr("Bot delay")), value=render(tr(
        "{low} to {high} s", low=format(settings.bot_delay_min, "g"),
        high=format(settings.bot_delay_max, "g"))))
    embed.add_field(name=render(tr("Language")), value=render(_language_text(
        settings.language, table_language)))
    embed.add_field(name=render(tr("Tournament creators")), value=render(
        tr("Anyone") if settings.tournament_creators == "anyone"
        else tr("Members with Manage Server")))
    embed.add_field(name=render(tr("Hints in My cards")), value=render(
        tr("On at cash tables, off in tournaments") if settings.hints is None
        else tr("On") if settings.hints else tr("Off")))
    embed.add_field(name=render(tr("Straddle")), value=render(straddle_text(settings)))
    role = tr("nobody") if settings.tournament_role is None else mention_role(
        settings.tournament_role)
    embed.add_field(name=render(tr("Scheduled tournaments")), value=render(tr(
        "Times in {zone}; pinged: {role}", zone=settings.timezone, role=role)))
    embed.add_field(name=render(tr("Spectators on the web")), value=render(
        SPECTATOR_DELAY_TEXTS.get(settings.spectator_delay, tr("Live"))))
    embed.add_field(name=render(tr("Auto-muck")), value=render(
        tr("On: losing hands are mucked unseen") if settings.auto_muck
        else tr("Off: players may show a losing hand")))
    embed.set_footer(text=render(tr(
        "New tables use these; this channel's table from its next hand.")))
    return embed


def mention_role(role_id: int) -> str:
    """How Discord writes a mention of the role ``role_id``."""
    return f"<@&{role_id}>"


def straddle_text(settings: TableSettings) -> Message:
    """Who straddles at the server's cash tables, and whether they must."""
    if settings.straddle == "off":
        return tr("Off")
    seat = tr("under the gun") if settings.straddle == "utg" else tr("on the button")
    if settings.straddle_mandatory:
        return tr("Two big blinds {seat}, every hand", seat=seat)
    return tr("Two big blinds {seat}, when a bot there chooses it", seat=seat)


SPECTATOR_DELAY_TEXTS: dict[str, Message] = {
    "none": tr("Live"), "street": tr("One street behind"), "hand": tr("One hand behind")}


WEB_PAGE_TEXTS: dict[WebPage, Message] = {
    "public": tr("Public: anyone with the link"),
    "members": tr("Members, logged in with Discord"),
    "off": tr("Off")}


def _language_text(code: str, table_language: Language | None) -> Message:
    if code:
        known = languages().get(code)
        return known.name if known is not None else code
    if table_language is None:
        return tr("The server's Discord language")
    return tr("The server's Discord language ({language})", language=table_language.name)


async def setup(bot: HoldemBot) -> None:
    await bot.add_cog(AdminCog(bot))

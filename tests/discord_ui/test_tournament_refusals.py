"""Tournament refusals through the fake Discord: each one an ephemeral sentence in the
member's language, with balances and the tournament as they were; and the channel's
messages in the server's language."""

from __future__ import annotations

from collections.abc import Awaitable

import discord
import pytest

from bot.discord_ui.app import HoldemBot
from bot.tables.tournament_status import TournamentPhase
from tests.discord_ui.club import Club
from tests.discord_ui.test_tournament_play import channel_text, start_tournament_bot
from tests.fake_discord import InteractionRecord, InteractionRefused


async def refused(club: Club, bot: HoldemBot, answer: Awaitable[InteractionRecord],
                  sentence: str) -> None:
    """The answer is ephemeral and says ``sentence``; balances and tournaments unchanged."""
    async def snapshot() -> tuple[object, ...]:
        balances = [await bot.ledger.balance(club.guild_id, user)
                    for user in (club.alice, club.bob, club.admin)]
        return (*balances, bot.tables.tournaments.tournaments(club.guild_id))

    before = await snapshot()
    record = await answer
    text = record.all_text()
    assert record.ephemeral, text
    assert sentence in text, text
    assert await snapshot() == before


async def test_every_tournament_mistake_is_an_ephemeral_answer_that_changes_nothing(club: Club):
    bot = await start_tournament_bot(club)
    for user in (club.alice, club.bob, club.admin):
        await club.fake.slash(user, club.channel, "balance")
    slash = club.fake.slash

    await refused(club, bot, slash(club.alice, club.channel, "tournament create", buy_in=100),
                  "Only members with Manage Server can create tournaments")
    await refused(club, bot, slash(club.admin, club.channel, "tournament create", buy_in=100,
                                   starting_stack=10, structure="turbo"),
                  "too small for the turbo structure")
    await refused(club, bot, slash(club.admin, club.channel, "tournament create", buy_in=100,
                                   payouts="60/30"), "must add up to 100, not 90")
    await refused(club, bot, slash(club.admin, club.channel, "tournament create", buy_in=100,
                                   payouts="lots"), "like 50/30/20")
    await refused(club, bot, slash(club.admin, club.channel, "tournament create", buy_in=100,
                                   seats=2, payouts="50/30/20"),
                  "3 places are paid but only 2 players")
    with pytest.raises(InteractionRefused):  # Discord's own client refuses 1 seat
        await slash(club.admin, club.channel, "tournament create", buy_in=100, seats=1)
    await refused(club, bot, slash(club.bob, club.channel, "tournament join"),
                  "There is no open tournament in this channel")

    await slash(club.admin, club.channel, "tournament create", buy_in=100, seats=2)
    await slash(club.admin, club.lounge, "tournament create", buy_in=50_000, seats=2)
    await refused(club, bot, slash(club.bob, club.lounge, "tournament join"),
                  "You need 50,000 chips but your balance is 10,000.")
    await refused(club, bot, slash(club.bob, club.channel, "tournament leave"),
                  "You are not registered for this tournament.")

    await slash(club.alice, club.channel, "tournament join")
    await refused(club, bot, slash(club.alice, club.channel, "tournament join"),
                  "You are already registered for this tournament.")
    await refused(club, bot, slash(club.admin, club.channel, "tournament start"),
                  "needs at least 2 players to start; 1 registered")
    await refused(club, bot, slash(club.alice, club.channel, "tournament start"),
                  "Only the player who created this tournament can start it.")
    await refused(club, bot, slash(club.alice, club.channel, "tournament cancel"),
                  "Only the player who created this tournament, or members with Manage Server")

    left = await slash(club.alice, club.channel, "tournament leave")
    assert left.ephemeral and "back in your balance" in left.content
    assert await bot.ledger.balance(club.guild_id, club.alice) == 10_000
    await slash(club.alice, club.channel, "tournament join")
    full = await slash(club.bob, club.channel, "tournament join")  # the last place: it starts
    assert "it starts now" in full.content
    tournament_id = bot.tables.tournaments.in_channel(club.channel)
    assert tournament_id is not None
    assert bot.tables.tournaments.status(tournament_id).phase is TournamentPhase.RUNNING
    await refused(club, bot, slash(club.admin, club.channel, "tournament join"),
                  "This tournament has already started.")
    await refused(club, bot, slash(club.alice, club.channel, "tournament leave"),
                  "You cannot leave a tournament once it has started")
    await refused(club, bot, slash(club.alice, club.channel, "leave"),
                  "You cannot leave a tournament once it has started")

    cancelled = await slash(club.admin, club.channel, "tournament cancel")
    assert cancelled.ephemeral and "every buy-in was refunded" in cancelled.content
    for user in (club.alice, club.bob):
        assert await bot.ledger.balance(club.guild_id, user) == 10_000
    await refused(club, bot, slash(club.admin, club.channel, "tournament status",
                                   tournament=tournament_id), "Cancelled")
    await bot.notifier.flush()
    assert "Cancelled: every buy-in was refunded." in channel_text(club, club.channel)
    assert (await bot.ledger.audit()).ok


async def test_tournament_messages_follow_the_server_and_answers_the_member(club: Club):
    club.fake.world.guilds[club.guild_id].locale = "zh-CN"
    club.fake.world.users[club.bob].locale = "zh-TW"
    bot = await start_tournament_bot(club)
    await club.fake.slash(club.admin, club.channel, "tournament create", buy_in=100,
                          seats=3, structure="turbo", levels_by="hands")
    await bot.notifier.flush()
    board = channel_text(club, club.channel)
    assert "锦标赛 #1" in board and "报名" in board
    joined = await club.fake.slash(club.bob, club.channel, "tournament join")
    assert "錦標賽 #1" in joined.content
    again = await club.fake.slash(club.bob, club.channel, "tournament join")
    assert again.ephemeral and "報名" in again.content
    status = await club.fake.slash(club.bob, club.channel, "tournament status")
    assert "獎池" in status.all_text()


async def test_multi_table_tournaments_need_the_bot_to_open_threads(club: Club):
    bot = await start_tournament_bot(club)
    for user in (club.alice, club.bob, club.admin):
        await club.fake.slash(user, club.channel, "balance")
    club.fake.deny_bot(club.channel, discord.Permissions(create_public_threads=True))
    await refused(club, bot, club.fake.slash(
        club.admin, club.channel, "tournament create", buy_in=10, seats=2, max_entrants=4),
        "Create Public Threads")


async def test_anyone_may_create_tournaments_once_a_manager_allows_it(club: Club):
    bot = await start_tournament_bot(club)
    slash = club.fake.slash
    for user in (club.alice, club.bob, club.admin):
        await slash(user, club.channel, "balance")
    await refused(club, bot, slash(club.alice, club.channel, "tournament create", buy_in=100),
                  "Only members with Manage Server can create tournaments")
    with pytest.raises(InteractionRefused):  # /settings is for managers only
        await slash(club.alice, club.channel, "settings", tournament_creators="anyone")
    assert (await bot.tables.guild_settings(club.guild_id)).tournament_creators == "managers"
    shown = await slash(club.admin, club.channel, "settings", tournament_creators="anyone")
    assert "Anyone" in shown.all_text()
    assert (await bot.tables.guild_settings(club.guild_id)).tournament_creators == "anyone"
    created = await slash(club.alice, club.channel, "tournament create", buy_in=100, seats=2)
    assert "is open" in created.content, created.all_text()
    [status] = bot.tables.tournaments.tournaments(club.guild_id)
    assert status.creator_id == club.alice
    await slash(club.admin, club.channel, "settings", tournament_creators="managers")
    await refused(club, bot, slash(club.bob, club.lounge, "tournament create", buy_in=100),
                  "Only members with Manage Server can create tournaments")


async def test_late_registration_through_discord(club: Club):
    bot = await start_tournament_bot(club)
    slash = club.fake.slash
    for user in (club.alice, club.bob, club.admin):
        await slash(user, club.channel, "balance")
    await slash(club.admin, club.channel, "tournament create", buy_in=100, seats=4,
                late_registration=2)
    [status] = bot.tables.tournaments.tournaments(club.guild_id)
    assert status.settings.late_registration == 2
    await slash(club.admin, club.channel, "tournament join")
    await slash(club.alice, club.channel, "tournament join")
    await slash(club.admin, club.channel, "tournament start")
    late = await slash(club.bob, club.channel, "tournament join")
    assert late.ephemeral and "with 1,500 chips" in late.content, late.all_text()
    assert f"<#{club.channel}>" in late.content
    assert await bot.ledger.balance(club.guild_id, club.bob) == 10_000 - 100
    status = bot.tables.tournaments.status(status.tournament_id)
    assert (status.pool, status.players_left) == (300, 3)
    await refused(club, bot, slash(club.bob, club.channel, "tournament join"),
                  "You are already registered for this tournament.")
    await slash(club.admin, club.channel, "tournament cancel")
    assert await bot.ledger.balance(club.guild_id, club.bob) == 10_000
    assert (await bot.ledger.audit()).ok


async def test_no_open_tournament_points_to_whoever_may_create_one(club: Club):
    bot = await start_tournament_bot(club)
    slash = club.fake.slash
    for user in (club.alice, club.bob, club.admin):
        await slash(user, club.channel, "balance")
    await refused(club, bot, slash(club.bob, club.channel, "tournament join"),
                  "A member with Manage Server can start one with /tournament create.")
    await slash(club.admin, club.channel, "settings", tournament_creators="anyone")
    answer = await slash(club.bob, club.channel, "tournament join")
    assert answer.ephemeral and "Manage Server" not in answer.content, answer.content
    assert "Anyone can start one with /tournament create." in answer.content

"""End to end through the fake Discord: a heads-up sit-and-go with a rebuy taken by the first
player out with /tournament rebuy, whose prizes pay the pool with the rebuy; a tournament
scheduled with start_at announced as a Discord Scheduled Event, which /tournament cancel
cancels; a start time the bot cannot read is refused and creates nothing."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from bot.tables.tournament_status import TournamentPhase
from tests.discord_ui.club import Club, control
from tests.discord_ui.test_tournament_play import (
    channel_text,
    shove_until_finished,
    start_tournament_bot,
    table_message,
)
from tests.fake_discord import StoredMessage

pytestmark = pytest.mark.slow


async def test_the_first_player_out_rebuys_and_the_prizes_pay_the_pool_with_it(club: Club):
    bot = await start_tournament_bot(club, seed=4)
    tournaments = bot.tables.tournaments
    created = await club.fake.slash(
        club.admin, club.channel, "tournament create", buy_in=100, starting_stack=40, seats=2,
        structure="turbo", levels_by="hands", rebuys=1, rebuy_levels=5)
    assert created.ephemeral, created.all_text()
    tournament_id = tournaments.in_channel(club.channel)
    assert tournament_id is not None
    for user in (club.alice, club.bob):
        await club.fake.slash(user, club.channel, "tournament join")  # the second starts it
    playing = asyncio.create_task(shove_until_finished(club, bot, tournament_id, timeout=30))

    def deciding() -> list[int]:
        return [entrant.user_id or 0 for entrant in tournaments.status(tournament_id).entrants
                if entrant.deciding]

    await club.fake.wait_until(lambda: bool(deciding()), timeout=15)
    (out,) = deciding()
    await club.fake.wait_until(lambda: any(
        any(custom_id.startswith("holdem:tbuy:rebuy:") for custom_id in message.custom_ids())
        for message in club.fake.dms(out)))  # the note that they are out offers Rebuy
    tournaments.decision_seconds = 0.2  # whoever is out next takes their place at once
    escrow = (await bot.ledger.audit()).totals.tournaments
    rebought = await club.fake.slash(out, club.channel, "tournament rebuy")
    assert rebought.ephemeral and "Rebuy 1" in rebought.content, rebought.all_text()
    assert await bot.ledger.balance(club.guild_id, out) == 10_000 - 200
    assert (await bot.ledger.audit()).totals.tournaments == escrow + 100 == 300
    assert tournaments.status(tournament_id).phase is TournamentPhase.RUNNING
    await bot.notifier.flush()
    assert "Rebuys: 1 bought" in channel_text(club, club.channel)

    await playing
    final = tournaments.status(tournament_id)
    assert final.pool == 300 and sum(entrant.prize for entrant in final.entrants) == 300
    for entrant in final.entrants:
        paid = 100 * (1 + entrant.rebuys)
        assert await bot.ledger.balance(club.guild_id, entrant.user_id or 0) \
            == 10_000 - paid + entrant.prize
    assert (await bot.ledger.audit()).ok


async def test_start_at_creates_a_scheduled_event_that_cancel_ends(club: Club):
    bot = await start_tournament_bot(club)
    created = await club.fake.slash(club.admin, club.channel, "tournament create",
                                    buy_in=100, start_at="in 2h")
    assert created.ephemeral and "starts by itself" in created.content, created.all_text()
    tournament_id = bot.tables.tournaments.in_channel(club.channel)
    assert tournament_id is not None
    (event,) = club.fake.scheduled_events.events.values()
    start = dt.datetime.fromisoformat(event["scheduled_start_time"])
    assert abs(start - (dt.datetime.now(dt.UTC) + dt.timedelta(hours=2))) < dt.timedelta(
        minutes=1)
    assert event["entity_type"] == 3 and str(club.channel) in event["entity_metadata"][
        "location"]
    assert "Buy-in 100 chips" in event["description"] and event["status"] == 1
    status = bot.tables.tournaments.status(tournament_id)
    assert status.event_id == int(event["id"])
    await bot.notifier.flush()
    assert f"<t:{int(start.timestamp())}:F>" in channel_text(club, club.channel)

    await club.fake.slash(club.alice, club.channel, "tournament join")
    cancelled = await club.fake.slash(club.admin, club.channel, "tournament cancel")
    assert "cancelled" in cancelled.content
    await club.fake.wait_until(lambda: event["status"] == 4)  # Discord's "canceled"
    assert await bot.ledger.balance(club.guild_id, club.alice) == 10_000
    assert (await bot.ledger.audit()).ok


async def test_a_start_time_it_cannot_read_is_refused_and_creates_nothing(club: Club):
    bot = await start_tournament_bot(club)
    refused = await club.fake.slash(club.admin, club.channel, "tournament create",
                                    buy_in=100, start_at="whenever")
    assert refused.ephemeral and "Write the start like" in refused.content
    assert bot.tables.tournaments.in_channel(club.channel) is None
    assert not club.fake.scheduled_events.events
    club.fake.world.users[club.admin].locale = "zh-TW"
    refused = await club.fake.slash(club.admin, club.channel, "tournament create",
                                    buy_in=100, start_at="2099-01-01 20:00")
    assert refused.ephemeral and "30 天之內" in refused.content, refused.content
    assert bot.tables.tournaments.in_channel(club.channel) is None


async def test_my_cards_offers_the_rebuy_a_player_may_take_now(club: Club):
    """A player at or below the starting stack during the rebuy period finds **Rebuy** under
    their cards, where they look during play."""
    await start_tournament_bot(club, seed=4)
    await club.fake.slash(
        club.admin, club.channel, "tournament create", buy_in=100, starting_stack=400, seats=2,
        structure="deep", levels_by="hands", rebuys=1, rebuy_levels=5)
    for user in (club.alice, club.bob):
        await club.fake.slash(user, club.channel, "tournament join")  # the second starts it
    def dealt_message() -> StoredMessage | None:
        """The table message once it offers My cards (a hand is dealt)."""
        message = table_message(club, club.channel)
        return message if message is not None and any(
            component.get("custom_id", "").startswith("holdem:my_cards")
            and not component.get("disabled") for component in message.walk_components()) \
            else None

    await club.fake.wait_until(lambda: dealt_message() is not None)
    message = dealt_message()
    assert message is not None
    mine = await club.fake.click(club.alice, message.id, control(message, "my_cards"))
    assert mine.ephemeral and mine.message is not None
    assert any(custom_id.startswith("holdem:tbuy:rebuy:")
               for custom_id in mine.message.custom_ids()), mine.message.custom_ids()

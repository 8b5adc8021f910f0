"""A tournament ends as a cash table does, whatever ends it (cancel, a deleted channel or
thread): its table messages keep no enabled button, its board says how it ended, and every
chip is back where it belongs. A shutdown only pauses it."""

from __future__ import annotations

import pytest

from bot.discord_ui.app import HoldemBot
from bot.ledger import Ledger
from bot.tables.tournament_status import TournamentPhase
from tests.discord_ui.club import Club
from tests.discord_ui.test_tournament_play import (
    channel_text,
    shove_until_finished,
    start_tournament_bot,
    table_message,
)
from tests.fake_discord import StoredMessage

pytestmark = pytest.mark.slow


def enabled_buttons(message: StoredMessage) -> list[str]:
    return [custom_id for custom_id in message.custom_ids()
            if not message.find_component(custom_id).get("disabled")]


async def running_sit_and_go(club: Club, bot: HoldemBot, **options: object) -> int:
    """Alice and Bob (and bots, by ``options``) in a sit-and-go in the club's channel, dealt
    until a person's turn shows enabled buttons; returns the tournament's id."""
    await club.fake.slash(club.admin, club.channel, "tournament create", buy_in=100,
                          starting_stack=1_000, seats=4, **options)
    tournament_id = bot.tables.tournaments.in_channel(club.channel)
    assert tournament_id is not None
    for user in (club.alice, club.bob):
        await club.fake.slash(user, club.channel, "tournament join")
    await club.fake.slash(club.admin, club.channel, "tournament start")

    def a_person_to_act() -> bool:
        message = table_message(club, club.channel)
        return (bot.notifier.turn(club.channel) is not None and message is not None
                and any(":fold:" in button for button in enabled_buttons(message)))

    await club.fake.wait_until(a_person_to_act, timeout=5)
    return tournament_id


async def balances_back(club: Club, bot: HoldemBot) -> None:
    for user in (club.alice, club.bob):
        assert await bot.ledger.balance(club.guild_id, user) == 10_000
    assert (await bot.ledger.audit()).ok


async def test_cancelling_a_tournament_leaves_its_table_message_without_buttons(club: Club):
    bot = await start_tournament_bot(club)
    tournament_id = await running_sit_and_go(club, bot)
    message = table_message(club, club.channel)
    assert message is not None
    cancelled = await club.fake.slash(club.admin, club.channel, "tournament cancel")
    assert "cancelled" in cancelled.content
    await club.fake.wait_until(lambda: not enabled_buttons(club.fake.message(message.id)))
    assert bot.tables.tournaments.status(tournament_id).phase is TournamentPhase.CANCELLED
    await balances_back(club, bot)


async def test_deleting_a_sit_and_go_channel_mid_hand_cancels_it_and_refunds_the_buy_ins(
        club: Club):
    bot = await start_tournament_bot(club)
    tournament_id = await running_sit_and_go(club, bot)
    tournaments = bot.tables.tournaments
    await club.fake.delete_channel(club.channel)
    await club.fake.wait_until(
        lambda: tournaments.status(tournament_id).phase is TournamentPhase.CANCELLED)
    assert bot.tables.state(club.channel) is None
    await balances_back(club, bot)


async def test_the_players_of_a_deleted_thread_sit_down_again_at_a_new_table(club: Club):
    bot = await start_tournament_bot(club, seed=5)
    await club.fake.slash(club.admin, club.channel, "tournament create", buy_in=50,
                          starting_stack=40, seats=3, structure="turbo", levels_by="hands",
                          bot_fill="easy", max_entrants=5)
    tournament_id = bot.tables.tournaments.in_channel(club.channel)
    assert tournament_id is not None
    await club.fake.slash(club.alice, club.channel, "tournament join")
    await club.fake.slash(club.admin, club.channel, "tournament start")
    tournaments = bot.tables.tournaments
    [thread] = club.fake.threads(club.channel)
    await club.fake.wait_until(lambda: (state := bot.tables.state(thread.id)) is not None
                               and state.is_hand_running)
    await club.fake.delete_channel(thread.id)

    def reseated() -> bool:
        status = tournaments.status(tournament_id)
        return len(status.table_channel_ids) == 2 and thread.id not in status.table_channel_ids \
            and all(entrant.table_channel_id in status.table_channel_ids
                    for entrant in status.entrants if entrant.place is None)

    await club.fake.wait_until(reseated)
    [new_thread] = club.fake.threads(club.channel)  # opened for the players of the deleted one
    assert new_thread.id != thread.id
    await shove_until_finished(club, bot, tournament_id)
    final = tournaments.status(tournament_id)
    assert sorted(entrant.place[0] for entrant in final.entrants if entrant.place) \
        == [1, 2, 3, 4, 5]
    assert sum(entrant.prize for entrant in final.entrants) == 250
    assert (await bot.ledger.audit()).ok


async def test_at_shutdown_a_tournament_table_says_it_is_paused_and_nothing_is_refunded(
        club: Club):
    """A stop keeps the tournament for the next start (see test_restart)."""
    bot = await start_tournament_bot(club)
    await running_sit_and_go(club, bot)
    message = table_message(club, club.channel)
    assert message is not None
    await club.fake.stop_client()
    paused = club.fake.message(message.id)
    assert not enabled_buttons(paused)
    assert paused.embeds[0]["title"] == "Table paused while the bot restarts"
    assert "/join" not in channel_text(club, club.channel)
    async with await Ledger.open(club.database) as ledger:
        for user in (club.alice, club.bob):
            assert await ledger.balance(club.guild_id, user) == 9_900
        assert (await ledger.audit()).ok

"""A tournament ends as a cash table does, whatever ends it (cancel, a deleted channel or
thread, shutdown): its table messages keep no enabled button, its board says how it ended,
and every chip is back where it belongs."""

from __future__ import annotations

import pytest

from bot.discord_ui.app import HoldemBot
from bot.tables.tournament_status import TournamentPhase
from tests.discord_ui.club import Club
from tests.discord_ui.test_tournament_play import (
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

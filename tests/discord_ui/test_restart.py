"""After a crash, each table that was open says so in its channel: its message loses its
buttons and tells where the chips went."""

from __future__ import annotations

import pytest

from bot.ledger import Ledger
from bot.tables.tournament_status import TournamentPhase
from tests.discord_ui.club import Club
from tests.discord_ui.test_tournament_endings import enabled_buttons, running_sit_and_go
from tests.discord_ui.test_tournament_play import (
    shove_until_finished,
    start_tournament_bot,
    table_message,
)
from tests.fake_discord import StoredMessage

pytestmark = pytest.mark.slow


async def crashed_mid_hand(club: Club) -> int:
    """The ledger as a killed process leaves it (see tests/ledger/test_crash.py): a hand running
    at the channel's table, and the table message the bot had posted (its id)."""
    table_message = club.fake.world.create_message(club.channel, {
        "embeds": [{"title": "Texas Hold'em · blinds 10/20"}],
        "components": [{"type": 1, "components": [
            {"type": 2, "style": 4, "label": "Fold", "custom_id": "holdem:fold:1:0"}]}],
    }, [])
    async with await Ledger.open(club.database) as ledger:
        for user, name in ((club.alice, "alice"), (club.bob, "bob")):
            await ledger.ensure_player(club.guild_id, user, name)
            await ledger.buy_in(club.guild_id, club.channel, user, 2_000)
        await ledger.begin_hand(club.guild_id, club.channel, 1, {club.alice: 2_000,
                                                                  club.bob: 2_000})
        await ledger.save_table_message(club.channel, table_message.id)
    return table_message.id


async def test_a_table_cut_off_by_a_crash_closes_its_message_and_refunds_the_hand(club: Club):
    message_id = await crashed_mid_hand(club)
    bot = await club.start_bot()
    await club.fake.wait_until(lambda: not club.fake.message(message_id).components)
    notice = club.fake.message(message_id).embeds[0]
    assert notice["title"] == "This table closed when the bot restarted"
    for user in (club.alice, club.bob):
        assert await bot.ledger.balance(club.guild_id, user) == 10_000
    assert (await bot.ledger.audit()).ok


async def test_the_crash_notice_is_in_the_servers_language(club: Club):
    """At start-up the bot does not know its servers yet: the notice waits until it does (it
    was written in English for every server before)."""
    club.fake.world.guilds[club.guild_id].locale = "zh-TW"
    message_id = await crashed_mid_hand(club)
    await club.start_bot()
    await club.fake.wait_until(lambda: not club.fake.message(message_id).components)
    assert club.fake.message(message_id).embeds[0]["title"] == "機器人重新啟動時，這張牌桌已關閉"


def table_message_with_buttons(club: Club, channel_id: int) -> int:
    """A table message as the killed bot left it: a turn's buttons enabled."""
    return club.fake.world.create_message(channel_id, {
        "embeds": [{"title": "Texas Hold'em · blinds 10/20", "description": "Bob to act"}],
        "components": [{"type": 1, "components": [
            {"type": 2, "style": 4, "label": "Fold", "custom_id": "holdem:fold:1:0"}]}],
    }, []).id


async def test_a_tournament_cut_off_by_a_crash_before_its_state_was_saved_is_cancelled(
        club: Club):
    """A running tournament with no state saved (the ledger says it started, no hand boundary
    was kept) cannot be restored: its board, table messages and threads say it was
    cancelled, and every buy-in is refunded."""
    world = club.fake.world
    thread = world.create_thread(world.channels[club.channel], "Tournament 1 · Table 2",
                                 world.bot.id)
    in_channel = table_message_with_buttons(club, club.channel)
    in_thread = table_message_with_buttons(club, thread.id)
    async with await Ledger.open(club.database) as ledger:
        tournament_id = await ledger.create_tournament(
            club.guild_id, club.channel, club.admin, 100, {})
        for user, name in ((club.alice, "alice"), (club.bob, "bob")):
            await ledger.ensure_player(club.guild_id, user, name)
            await ledger.register_tournament(tournament_id, user)
        await ledger.start_tournament(tournament_id)
        await ledger.save_table_message(club.channel, in_channel)
        await ledger.save_table_message(thread.id, in_thread)
    board = world.create_message(club.channel, {"embeds": [{
        "title": f"Tournament #{tournament_id}", "description": "Running: 2 of 2 players left.",
    }]}, [])
    world.create_message(club.channel, {"content": "a later message"}, [])
    bot = await club.start_bot()
    for message_id in (in_channel, in_thread):
        await club.fake.wait_until(
            lambda shown=message_id: not club.fake.message(shown).components)
        notice = club.fake.message(message_id).embeds[0]
        assert notice["title"] == "This table closed when the bot restarted"
        assert notice["description"].startswith("The tournament was cancelled")
    await club.fake.wait_until(lambda: thread.archived)
    await club.fake.wait_until(lambda: "Running" not in str(club.fake.message(board.id).embeds))
    [shown] = club.fake.message(board.id).embeds
    assert (shown["title"], shown["description"]) == (
        f"Tournament #{tournament_id}",
        "Cancelled when the bot restarted: every buy-in was refunded.")
    for user in (club.alice, club.bob):
        assert await bot.ledger.balance(club.guild_id, user) == 10_000
    assert (await bot.ledger.audit()).ok


async def test_a_tournament_kept_at_a_stop_comes_back_in_its_board_and_table_message(
        club: Club):
    bot = await start_tournament_bot(club)
    tournament_id = await running_sit_and_go(club, bot)
    await bot.notifier.flush()
    table = table_message(club, club.channel)
    assert table is not None
    [board] = boards(club, tournament_id)
    await club.fake.stop_client()
    paused = club.fake.message(table.id)
    assert paused.embeds[0]["title"] == "Table paused while the bot restarts"
    assert not enabled_buttons(paused)
    for user in (club.alice, club.bob):  # nobody refunded
        async with await Ledger.open(club.database) as ledger:
            assert await ledger.balance(club.guild_id, user) == 9_900

    bot = await start_tournament_bot(club, seed=5)
    assert bot.tables.tournaments.status(tournament_id).phase is TournamentPhase.RUNNING
    await club.fake.wait_until(lambda: bool(enabled_buttons(club.fake.message(table.id))))
    assert table_message(club, club.channel).id == table.id  # edited in place, not posted anew
    await shove_until_finished(club, bot, tournament_id)
    assert [message.id for message in boards(club, tournament_id)] == [board.id]
    assert "Finished: the prizes are paid." in str(club.fake.message(board.id).embeds)
    assert not enabled_buttons(club.fake.message(table.id))
    balances = [await bot.ledger.balance(club.guild_id, user) for user in (club.alice, club.bob)]
    assert sum(balances) == 20_000
    assert (await bot.ledger.audit()).ok


def boards(club: Club, tournament_id: int) -> list[StoredMessage]:
    """The channel's messages showing the tournament's board."""
    return [message for message in club.fake.channel_messages(club.channel)
            if any(embed.get("title") == f"Tournament #{tournament_id}"
                   for embed in message.embeds)]

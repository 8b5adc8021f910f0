"""Tournament hands are recorded like cash hands, marked as the tournament's (issue 26, item
6): /history shows them with the same privacy rules, /stats counts them among the hands
played, and their play chips move no balance nor count as net winnings."""

from __future__ import annotations

import re

import pytest

from tests.discord_ui.club import Club
from tests.discord_ui.test_tournament_play import shove_until_finished, start_tournament_bot

pytestmark = pytest.mark.slow


async def test_a_sit_and_gos_hands_are_in_history_and_in_the_hand_counts(club: Club):
    bot = await start_tournament_bot(club)
    await club.fake.slash(
        club.admin, club.channel, "tournament create", buy_in=100, starting_stack=40, seats=4,
        structure="turbo", levels_by="hands", payouts="70/30", bot_fill="easy")
    tournament_id = bot.tables.tournaments.in_channel(club.channel)
    assert tournament_id is not None
    for user in (club.alice, club.bob):
        await club.fake.slash(user, club.channel, "tournament join")
    await club.fake.slash(club.admin, club.channel, "tournament start")
    await shove_until_finished(club, bot, tournament_id)

    played = {summary.hand_id
              for summary in await bot.ledger.recent_hands(club.guild_id, club.alice, 1_000)}

    def dealt() -> list[int]:  # the hands alice's cards were sent for, by the number they name
        return [int(number) for dm in club.fake.dms(club.alice)
                for number in re.findall(r"^Hand #(\d+) in ", dm.content)]

    await club.fake.wait_until(lambda: set(dealt()) == played and len(dealt()) == len(played))
    assert played, "alice played no hand"
    for number in played:
        record = await bot.ledger.hand_history(number)
        assert record is not None and record.tournament_id == tournament_id
        assert record.replay is not None and record.seat_of(club.alice) is not None
    hand = dealt()[-1]
    mine = await club.fake.slash(club.alice, club.channel, "history", hand=hand)
    assert f"Hand #{hand} (tournament #{tournament_id}, in its play chips):" in mine.content
    text = mine.message.attachment(mine.attachment_names[0]).decode()
    assert "Dealt to alice [" in text and "Dealt to bob" not in text
    watched = await club.fake.slash(club.admin, club.channel, "history", hand=hand)
    assert "Dealt to" not in watched.message.attachment(watched.attachment_names[0]).decode()

    stats = await bot.ledger.stats(club.guild_id, club.alice)
    assert stats is not None and stats.hands_played == len(played)
    assert (stats.net_chips, stats.biggest_pot) == (0, 0)  # play chips are not the server's
    shown = await club.fake.slash(club.bob, club.channel, "stats", player=club.alice)
    assert f"Hands played\n{len(played)}" in shown.all_text(), shown.all_text()
    final = bot.tables.tournaments.status(tournament_id)
    prize = next(entrant.prize for entrant in final.entrants if entrant.player == club.alice)
    assert await bot.ledger.balance(club.guild_id, club.alice) == 9_900 + prize
    assert (await bot.ledger.audit()).ok

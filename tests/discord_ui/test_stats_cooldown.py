"""/stats and the /leaderboard orders that read habits have a per-member cooldown (the bot's
default ``COMMAND_COOLDOWNS``), so one member cannot queue them on the ledger's connection
faster than anyone reads them; the other leaderboard orders have none."""

from __future__ import annotations

from bot.discord_ui.app import COMMAND_COOLDOWNS, BotOptions
from tests.discord_ui.club import Club

SLOW_DOWN = "Slow down: try again in "


async def test_stats_and_the_habit_leaderboards_have_a_per_member_cooldown(club: Club):
    bot = club.new_bot(cooldowns=BotOptions().cooldowns)
    await club.fake.run_client(bot)
    await club.fake.slash(club.alice, club.channel, "balance")
    uses, _ = COMMAND_COOLDOWNS["stats"]
    answers = [await club.fake.slash(club.alice, club.channel, "stats")
               for _ in range(uses + 1)]
    assert [answer.content.startswith(SLOW_DOWN) for answer in answers] == [
        *[False] * uses, True]
    assert answers[-1].ephemeral
    assert "alice's record" in (await club.fake.slash(club.bob, club.channel, "stats",
                                                       player=club.alice)).all_text()

    uses, _ = COMMAND_COOLDOWNS["leaderboard"]
    for by in ("won_at_showdown", "aggression"):
        assert not (await club.fake.slash(club.alice, club.channel, "leaderboard",
                                          by=by)).content.startswith(SLOW_DOWN)
    boards = [await club.fake.slash(club.alice, club.channel, "leaderboard", by="aggression")
              for _ in range(uses - 1)]
    assert boards[-1].content.startswith(SLOW_DOWN)
    for by in ("balance", "net", "hands_won", "tournaments", "balance"):  # no cooldown
        board = await club.fake.slash(club.alice, club.channel, "leaderboard", by=by)
        assert not board.content.startswith(SLOW_DOWN)

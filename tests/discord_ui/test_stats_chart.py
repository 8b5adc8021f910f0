"""/stats attaches the player's results chart, drawn off the event loop, when the bot draws
images; without images it answers with the record alone. Its playing style (3-bet, c-bet,
showdowns…) beside the server's, in English and Chinese, and /leaderboard by a habit figure."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.discord_ui.app import HoldemBot
from bot.render.stats_chart import HEIGHT, WIDTH
from tests.discord_ui.club import Club, play_to_showdown, seat_two_and_a_bot, start_hand
from tests.fake_discord import InteractionRecord, InteractionRefused


async def test_stats_after_a_hand_attaches_the_chart(club: Club):
    bot = await club.start_bot(draw_images=True)
    await seat_two_and_a_bot(club, bot)
    await start_hand(club, bot, club.alice)
    await play_to_showdown(club, bot, use_slash=False)
    assert len(await bot.ledger.results_over_time(club.guild_id, club.alice)) == 1

    answer = await club.fake.slash(club.bob, club.channel, "stats", player=club.alice)
    assert not answer.ephemeral
    assert "alice's record" in answer.all_text()
    assert answer.attachment_names == ["stats.png"]
    image = Image.open(io.BytesIO(answer.message.attachment("stats.png")))
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    (embed,) = answer.embeds
    assert embed["image"]["url"] == "attachment://stats.png"


async def test_stats_without_images_has_no_attachment(club: Club):
    bot = await club.start_bot()
    assert not bot.options.draw_images
    await club.fake.slash(club.alice, club.channel, "balance")
    answer = await club.fake.slash(club.bob, club.channel, "stats", player=club.alice)
    assert "alice's record" in answer.all_text()
    assert answer.attachment_names == []
    assert all("image" not in embed for embed in answer.embeds)


async def played_one_hand(club: Club, *, draw_images: bool) -> HoldemBot:
    """alice, bob and an easy bot play a hand; the people check or call to the showdown."""
    bot = await club.start_bot(draw_images=draw_images)
    await seat_two_and_a_bot(club, bot)
    await start_hand(club, bot, club.alice)
    await play_to_showdown(club, bot, use_slash=False)
    return bot


def fields_of(answer: InteractionRecord) -> dict[str, str]:
    (embed,) = answer.embeds
    return {field["name"]: field["value"] for field in embed["fields"]}


async def test_stats_shows_the_playing_style_beside_the_servers(club: Club):
    await played_one_hand(club, draw_images=True)
    answer = await club.fake.slash(club.bob, club.channel, "stats", player=club.alice)
    fields = fields_of(answer)
    # Both people called down to the showdown: the server's average is theirs.
    assert fields["Went to showdown (WTSD)"] == "100% · server 100%"
    for name in ("3-bet", "Fold to 3-bet", "C-bet", "Aggression (AF)",
                 "Won at showdown (W$SD)"):
        assert " · server " in fields[name], name
    assert fields["Fold to 3-bet"] == "— · server —"  # nobody opened and faced a 3-bet
    assert answer.attachment_names == ["stats.png"]


async def test_stats_shows_the_playing_style_in_chinese(club: Club):
    await played_one_hand(club, draw_images=False)
    club.fake.world.users[club.bob].locale = "zh-CN"
    fields = fields_of(await club.fake.slash(club.bob, club.channel, "stats"))
    assert fields["摊牌率（WTSD）"] == "100% · 服务器 100%"
    assert fields["面对 3-bet 弃牌"] == "— · 服务器 —"


async def test_leaderboard_by_won_at_showdown_needs_enough_hands(
        club: Club, monkeypatch: pytest.MonkeyPatch):
    await played_one_hand(club, draw_images=True)
    board = await club.fake.slash(club.bob, club.channel, "leaderboard", by="won_at_showdown",
                                  chart=True)
    (embed,) = board.embeds
    assert "Nobody on this page yet" in board.all_text()  # one hand each, 50 needed
    assert embed["footer"]["text"] == "Page 1 · players with 50 hands or more"

    monkeypatch.setattr("bot.ledger.ledger.LEADERBOARD_MIN_HANDS", 1)
    board = await club.fake.slash(club.bob, club.channel, "leaderboard", by="won_at_showdown",
                                  chart=True)
    lines = board.embeds[0]["description"].splitlines()
    assert len(lines) == 2 and all(line.endswith("%") for line in lines)
    assert {"alice", "bob"} <= set(board.all_text().replace("*", " ").split())
    assert board.attachment_names == ["leaderboard.png"]


async def test_leaderboard_offers_the_habit_orders_in_each_language(club: Club):
    """Discord itself refuses a ``by:`` outside the choices (the cog refuses one too)."""
    await club.start_bot()
    (leaderboard,) = [command for command in club.fake.commands(club.guild_id)
                      if command["name"] == "leaderboard"]
    (by,) = [option for option in leaderboard["options"] if option["name"] == "by"]
    choices = {choice["value"]: choice for choice in by["choices"]}
    assert choices.keys() == {"balance", "net", "hands_won", "tournaments", "won_at_showdown",
                              "aggression"}
    assert choices["won_at_showdown"]["name_localizations"] == {"zh-CN": "摊牌胜率",
                                                                "zh-TW": "攤牌勝率"}
    with pytest.raises(InteractionRefused):
        await club.fake.slash(club.bob, club.channel, "leaderboard", by="three_bet")

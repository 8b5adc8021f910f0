"""/stats attaches the player's results chart, drawn off the event loop, when the bot draws
images; without images it answers with the record alone."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.stats_chart import HEIGHT, WIDTH
from tests.discord_ui.club import Club, play_to_showdown, seat_two_and_a_bot, start_hand


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

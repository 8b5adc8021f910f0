"""/leaderboard chart:True attaches a bar chart of the page, drawn off the event loop, when the
bot draws images; without the option, or without images, the answer is the embed alone."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.leaderboard_chart import HEIGHT, POSITIVE_COLOUR, WIDTH
from tests.discord_ui.club import Club


async def test_leaderboard_chart_attaches_a_png(club: Club):
    bot = await club.start_bot(draw_images=True)
    await club.fake.slash(club.alice, club.channel, "balance")
    await club.fake.slash(club.bob, club.channel, "balance")

    answer = await club.fake.slash(club.bob, club.channel, "leaderboard", chart=True)
    assert not answer.ephemeral
    text = answer.all_text()
    assert "alice" in text and "bob" in text
    assert answer.attachment_names == ["leaderboard.png"]
    image = Image.open(io.BytesIO(answer.message.attachment("leaderboard.png")))
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    assert POSITIVE_COLOUR in {colour for _, colour in image.convert("RGB").getcolors(10**6)}
    (embed,) = answer.embeds
    assert embed["image"]["url"] == "attachment://leaderboard.png"

    plain_board = await club.fake.slash(club.bob, club.channel, "leaderboard")
    assert plain_board.attachment_names == []
    assert bot.options.draw_images


async def test_leaderboard_chart_of_an_empty_page(club: Club):
    await club.start_bot(draw_images=True)
    answer = await club.fake.slash(club.alice, club.channel, "leaderboard", page=50,
                                   chart=True)
    assert "Nobody on this page yet" in answer.all_text()
    assert answer.attachment_names == ["leaderboard.png"]


async def test_leaderboard_chart_without_images_has_no_attachment(club: Club):
    bot = await club.start_bot()
    assert not bot.options.draw_images
    await club.fake.slash(club.alice, club.channel, "balance")
    answer = await club.fake.slash(club.bob, club.channel, "leaderboard", chart=True)
    assert "alice" in answer.all_text()
    assert answer.attachment_names == []
    assert all("image" not in embed for embed in answer.embeds)

"""/history shows a member only the cards they may see, found by seat and never by name, and
only hands from channels they can read (or hands they played)."""

from __future__ import annotations

import pytest

from engine.cards import card_str
from tests.discord_ui.club import Club, play_to_showdown, seat_two_and_a_bot, start_hand

pytestmark = pytest.mark.slow


async def test_a_line_separator_in_a_name_leaks_no_cards(club: Club):
    eve = club.fake.add_user("eve\u2028ce")
    bot = await club.start_bot()
    await seat_two_and_a_bot(club, bot)
    await club.fake.slash(eve, club.channel, "join")
    await start_hand(club, bot, club.alice)
    eves_cards = bot.tables.hole_cards(club.channel, eve)
    assert eves_cards
    await play_to_showdown(club, bot, use_slash=False, players=(club.alice, club.bob, eve))
    answer = await club.fake.slash(club.bob, club.channel, "history")
    history = answer.message.attachment(answer.attachment_names[0]).decode()
    dealt = [line for line in history.split("\n") if line.startswith("Dealt to ")]
    assert len(dealt) == 1 and dealt[0].startswith("Dealt to bob [")
    hidden = " ".join(card_str(card) for card in eves_cards)
    lines_with_eves_cards = [line for line in history.split("\n") if hidden in line]
    assert all("shows" in line or "showed" in line for line in lines_with_eves_cards)


async def test_a_hand_from_a_channel_a_member_cannot_see_is_not_served(club: Club):
    outsider = club.fake.add_user("outsider")
    club.fake.hide_channel(club.channel, outsider)
    bot = await club.start_bot()
    await seat_two_and_a_bot(club, bot)
    await start_hand(club, bot, club.alice)
    await play_to_showdown(club, bot, use_slash=False)
    mine = await club.fake.slash(club.alice, club.channel, "history")
    hand_id = int(mine.attachment_names[0].removeprefix("hand-").removesuffix(".txt"))

    spectator = await club.fake.slash(club.admin, club.channel, "history", hand=hand_id)
    text = spectator.message.attachment(spectator.attachment_names[0]).decode()
    assert "Dealt to" not in text and " mucked [" not in text

    refused = await club.fake.slash(outsider, club.lounge, "history", hand=hand_id)
    assert refused.ephemeral and f"no finished hand #{hand_id}" in refused.content

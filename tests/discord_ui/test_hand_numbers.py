"""One hand number everywhere a person sees it: the table's "Hand #N", the hole-card DM and
the number /history and /replay take are the ledger's hand id, which no restart starts again
(the table counted its own hands from 1, so after a restart /history hand:1 was another
hand)."""

from __future__ import annotations

import re

import pytest

from engine.cards import card_str
from tests.discord_ui.club import Club, play_to_showdown, seat_two_and_a_bot, start_hand

pytestmark = pytest.mark.slow


async def test_after_a_restart_the_tables_hand_number_is_the_one_history_and_replay_take(
        club: Club):
    fake = club.fake
    bot = await club.start_bot()
    await seat_two_and_a_bot(club, bot)
    await start_hand(club, bot, club.alice)
    await play_to_showdown(club, bot, use_slash=False)
    await fake.stop_client()

    bot = await club.start_bot(seed=11, draw_images=True)  # the table is back, seated
    await start_hand(club, bot, club.bob)
    cards = bot.tables.hole_cards(club.channel, club.alice)
    assert cards
    await play_to_showdown(club, bot, use_slash=False)
    message = await club.table_message(bot)
    shown = set(re.findall(r"Hand #(\d+)", str(message.embeds)))
    assert len(shown) == 1, message.embeds
    number = int(shown.pop())
    await fake.wait_until(lambda: any(dm.content.startswith(f"Hand #{number} in ")
                                      for dm in fake.dms(club.alice)))

    history = await fake.slash(club.alice, club.channel, "history", hand=number)
    assert history.attachment_names == [f"hand-{number}.txt"], history.all_text()
    text = history.message.attachment(history.attachment_names[0]).decode()
    assert f"Dealt to alice [{' '.join(card_str(card) for card in cards)}]" in text
    replay = await fake.slash(club.alice, club.channel, "replay", hand=number)
    await fake.wait_until(lambda: bool(replay.all_text()), timeout=30)  # drawn after a defer
    assert f"Hand #{number}:" in replay.all_text()
    assert replay.message is not None and f"hand-{number}.png" in replay.message.attachment_names
    (latest,) = await bot.ledger.recent_hands(club.guild_id, club.alice, limit=1)
    assert latest.hand_id == number
    assert (await bot.ledger.audit()).ok

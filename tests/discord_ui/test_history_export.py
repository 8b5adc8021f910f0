"""/history export sends a member their latest hands in this server as files for tracking
tools, privately, with only the cards they may see; /history alone is as it was."""

from __future__ import annotations

import warnings

import pytest
from pokerkit import HandHistory

from engine.cards import Card, card_str
from engine.hand_record import RecordedHand
from tests.discord_ui.club import Club, play_to_showdown, seat_two_and_a_bot, start_hand
from tests.fake_discord import InteractionRecord

pytestmark = pytest.mark.slow


async def export(club: Club, user: int, **options: object) -> InteractionRecord:
    """``/history export`` as ``user``: the answer once the deferred "thinking" message is
    replaced by the files."""
    answer = await club.fake.slash(user, club.channel, "history", export=True, **options)
    if answer.deferred:
        await club.fake.wait_until(lambda: bool(answer.message and answer.message.content))
    return answer


async def test_a_member_exports_their_hands_with_their_own_cards_only(club: Club):
    bot = await club.start_bot()
    await seat_two_and_a_bot(club, bot)
    dealt: list[dict[int, tuple[Card, ...]]] = []
    for _ in range(2):
        await start_hand(club, bot, club.alice)
        dealt.append({user: bot.tables.hole_cards(club.channel, user) or ()
                      for user in (club.alice, club.bob)})
        await play_to_showdown(club, bot, use_slash=False)

    answer = await export(club, club.bob)
    assert answer.ephemeral
    name = f"holdem-hands-{club.guild_id}"
    assert answer.attachment_names == [f"{name}.txt", f"{name}.phhs"]
    assert "2 hands" in answer.all_text()
    text = answer.message.attachment(f"{name}.txt").decode()
    phhs = answer.message.attachment(f"{name}.phhs").decode()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = list(HandHistory.from_pokerstars(text, error_status=True))
    loaded = list(HandHistory.loads_all(phhs))
    assert [history.hand for history in parsed] == [history.hand for history in loaded]
    assert len(loaded) == 2 and loaded[0].hand > loaded[1].hand  # newest first
    for history, cards in zip(loaded, reversed(dealt), strict=True):
        record = await bot.ledger.hand_history(int(history.hand))
        assert record is not None and record.replay is not None
        shown = RecordedHand.from_json(record.replay).shown_seats()
        bobs = " ".join(card_str(card) for card in cards[club.bob])
        alices = " ".join(card_str(card) for card in cards[club.alice])
        assert f"Dealt to bob [{bobs}]" in text
        assert (alices in text) == (record.seat_of(club.alice) in shown)
        assert [action for action in history.actions if action.startswith("d dh")].count(
            f"d dh p{history.seats.index(record.seat_of(club.bob) + 1) + 1} "
            f"{bobs.replace(' ', '')}") == 1

    one = await club.fake.slash(club.bob, club.channel, "history")  # as before: one hand
    assert one.attachment_names == [f"hand-{loaded[0].hand}.txt"]
    latest = await export(club, club.bob, count=1)
    assert latest.attachment_names == [f"{name}.txt", f"{name}.phhs"]
    assert [history.hand for history in HandHistory.loads_all(
        latest.message.attachment(f"{name}.phhs").decode())] == [loaded[0].hand]


async def test_export_refuses_a_hand_beside_it_and_says_when_there_is_nothing(club: Club):
    bot = await club.start_bot()
    both = await club.fake.slash(club.alice, club.channel, "history", hand=1, export=True)
    assert both.ephemeral and "either a hand or export" in both.content
    nothing = await club.fake.slash(club.alice, club.channel, "history", count=5)
    assert nothing.ephemeral and "not finished a hand here yet" in nothing.content
    assert bot.tables.state(club.channel) is None

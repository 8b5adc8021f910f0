"""Showing cards end to end through the fake Discord: a hand won by folds, its winner's DM
offers to show; the winner presses Show both and the table message and /history show the
cards; another player's press and a press after the offer closed are refused."""

from __future__ import annotations

from bot.discord_ui.app import HoldemBot
from engine.cards import cards_str, pretty_card
from tests.discord_ui.club import (
    TEST_TABLE,
    Club,
    control,
    expect_refusal,
    start_hand,
    wait_for_turn_or_end,
)
from tests.fake_discord import StoredMessage


async def fold_to_the_other(club: Club, bot: HoldemBot) -> tuple[int, int]:
    """Seat alice and bob, deal, and the first to act folds: (folder, winner)."""
    for user in (club.alice, club.bob):
        answer = await club.fake.slash(user, club.channel, "join")
        assert "You sit down" in answer.content
    await start_hand(club, bot, club.alice)
    folder = await wait_for_turn_or_end(club, bot)
    assert folder is not None
    table = await club.table_message(bot)
    await club.fake.click(folder, table.id, control(table, "fold"))
    return folder, club.bob if folder == club.alice else club.alice


async def offer_to(club: Club, user: int) -> StoredMessage:
    """The DM offering ``user`` to show, once it has come."""
    def offers() -> list[StoredMessage]:
        return [message for message in club.fake.dms(user)
                if any(custom_id.startswith("holdem:show:")
                       for custom_id in message.custom_ids())]
    await club.fake.wait_until(offers)
    return offers()[-1]


def button(offer: StoredMessage, choice: str) -> str:
    (found,) = [custom_id for custom_id in offer.custom_ids()
                if custom_id.startswith(f"holdem:show:{choice}:")]
    return found


async def test_the_winner_without_a_showdown_shows_and_the_table_and_history_say_so(
        club: Club):
    bot = await club.start_bot(table_settings=TEST_TABLE.with_changes(show_timeout=60.0))
    folder, winner = await fold_to_the_other(club, bot)
    cards = bot.tables.hole_cards(club.channel, winner)
    assert cards is not None
    offer = await offer_to(club, winner)
    assert not club.fake.dms(folder) or all(
        "holdem:show:" not in " ".join(message.custom_ids()) for message in club.fake.dms(folder))
    labels = " ".join(str(component.get("label", "")) for component in offer.walk_components())
    assert all(pretty_card(card) in labels for card in cards)  # the DM is the winner's alone

    await expect_refusal(club, bot, club.fake.click(folder, offer.id, button(offer, "both")),
                         "Only the player offered it may show cards")
    answer = await club.fake.click(winner, offer.id, button(offer, "both"))
    assert "You show your cards." in answer.all_text()

    def settled() -> bool:
        state = bot.tables.state(club.channel)
        return state is not None and not state.is_hand_running
    await club.fake.wait_until(settled)
    await club.table_message(bot)
    shown = " ".join(pretty_card(card) for card in cards)
    assert shown in club.channel_text()
    for reader in (folder, winner):
        history = await club.fake.slash(reader, club.channel, "history")
        (name,) = history.attachment_names
        text = history.message.attachment(name).decode()
        assert f": shows [{cards_str(cards)}]\n" in text
    await club.fake.wait_until(lambda: not club.fake.message(offer.id).custom_ids())
    assert (await bot.ledger.audit()).ok


async def test_a_press_after_the_offer_closed_is_refused_and_the_cards_stay_private(club: Club):
    bot = await club.start_bot(table_settings=TEST_TABLE.with_changes(show_timeout=1.0))
    folder, winner = await fold_to_the_other(club, bot)
    cards = bot.tables.hole_cards(club.channel, winner)
    assert cards is not None
    offer = await offer_to(club, winner)
    # the offer's buttons would go once the hand is settled: keep them, as a slow client does
    club.fake.cut_connections("PATCH", f"/channels/{offer.channel_id}/messages/{offer.id}",
                              times=10)

    def settled() -> bool:
        state = bot.tables.state(club.channel)
        return state is not None and not state.is_hand_running
    await club.fake.wait_until(settled)
    await expect_refusal(club, bot, club.fake.click(winner, offer.id, button(offer, "first")),
                         "Your time to show your cards in hand #")
    await club.table_message(bot)
    assert not any(pretty_card(card) in club.channel_text() for card in cards)
    history = await club.fake.slash(folder, club.channel, "history")
    (name,) = history.attachment_names
    assert ": shows [" not in history.message.attachment(name).decode()

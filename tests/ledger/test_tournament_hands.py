"""Tournament hands in the hand log, on both backends: one id sequence with cash hands, the
history and replay kept, hand counts in the stats, and no real chip moved or counted."""

from __future__ import annotations

import pytest

from bot.errors import HandInProgress
from bot.ledger import (
    HandParticipant,
    Ledger,
    TournamentNotOpen,
    UnbalancedHand,
    UnknownHand,
)
from tests.ledger.test_tournaments import ALICE, BOB, GUILD, START, tournament

TABLE, CASH_TABLE = 600, 700


def results(alice_net: int) -> list[HandParticipant]:
    return [
        HandParticipant(ALICE, "alice", alice_net, won=alice_net > 0, vpip=True, pfr=True,
                        pot_won=max(alice_net, 0) * 2),
        HandParticipant(BOB, "bob", -alice_net, won=alice_net < 0,
                        pot_won=max(-alice_net, 0) * 2),
    ]


async def running_tournament(ledger: Ledger) -> int:
    tournament_id = await tournament(ledger, 100, ALICE, BOB)
    await ledger.start_tournament(tournament_id)
    return tournament_id


async def test_a_tournament_hand_is_logged_with_its_history_and_counts_only_hands(
        ledger: Ledger) -> None:
    tournament_id = await running_tournament(ledger)
    await ledger.buy_in(GUILD, CASH_TABLE, ALICE, 1_000)
    await ledger.buy_in(GUILD, CASH_TABLE, BOB, 1_000)
    cash = await ledger.begin_hand(GUILD, CASH_TABLE, 1, {ALICE: 1_000, BOB: 1_000})
    hand = await ledger.begin_tournament_hand(tournament_id, TABLE, 1)
    assert hand == cash + 1  # one sequence: every hand has one number
    await ledger.settle_tournament_hand(hand, results(500), "the history", '{"replay": 1}')
    await ledger.refund_hand(cash)

    record = await ledger.hand_history(hand)
    assert record is not None and record.tournament_id == tournament_id
    assert (record.guild_id, record.table_id, record.history_text, record.replay) == (
        GUILD, TABLE, "the history", '{"replay": 1}')
    assert [(p.player, p.net) for p in record.participants] == [(ALICE, 500), (BOB, -500)]
    (summary,) = await ledger.recent_hands(GUILD, ALICE)
    assert (summary.hand_id, summary.net, summary.tournament_id) == (hand, 500, tournament_id)

    stats = await ledger.stats(GUILD, ALICE)
    assert stats is not None
    assert (stats.hands_played, stats.hands_won, stats.vpip_hands, stats.pfr_hands) == (1, 1, 1, 1)
    assert (stats.net_chips, stats.biggest_pot, stats.balance) == (0, 0, START - 100 - 1_000)
    assert await ledger.results_over_time(GUILD, ALICE) == []  # a chart of real chips
    assert (await ledger.audit()).ok


async def test_refusals_change_nothing(ledger: Ledger) -> None:
    registering = await tournament(ledger, 100, ALICE, BOB)
    with pytest.raises(TournamentNotOpen):
        await ledger.begin_tournament_hand(registering, TABLE, 1)
    await ledger.start_tournament(registering)
    hand = await ledger.begin_tournament_hand(registering, TABLE, 1)
    with pytest.raises(UnbalancedHand):
        await ledger.settle_tournament_hand(hand, results(500)[:1], "")
    with pytest.raises(UnknownHand):  # a cash settlement finds no chips of its own to move
        await ledger.settle_hand(hand, {ALICE: 1, BOB: 1}, results(0), "")
    await ledger.buy_in(GUILD, CASH_TABLE, ALICE, 1_000)
    await ledger.buy_in(GUILD, CASH_TABLE, BOB, 1_000)
    cash = await ledger.begin_hand(GUILD, CASH_TABLE, 1, {ALICE: 1_000, BOB: 1_000})
    with pytest.raises(UnknownHand):  # a tournament settlement must not skip a cash hand's chips
        await ledger.settle_tournament_hand(cash, results(0), "")
    with pytest.raises(HandInProgress):
        await ledger.begin_tournament_hand(registering, CASH_TABLE, 2)
    await ledger.refund_hand(cash)
    await ledger.settle_tournament_hand(hand, results(-20), "")
    with pytest.raises(UnknownHand):
        await ledger.settle_tournament_hand(hand, results(-20), "")
    stats = await ledger.stats(GUILD, BOB)
    assert stats is not None and (stats.hands_played, stats.hands_won) == (1, 1)


async def test_a_hand_left_running_by_a_failed_refund_closes_when_the_next_begins(
        ledger: Ledger) -> None:
    tournament_id = await running_tournament(ledger)
    left = await ledger.begin_tournament_hand(tournament_id, TABLE, 1)
    following = await ledger.begin_tournament_hand(tournament_id, TABLE, 2)
    with pytest.raises(UnknownHand):
        await ledger.settle_tournament_hand(left, results(0), "")
    await ledger.settle_tournament_hand(following, results(0), "")
    assert await ledger.hand_history(left) is None
    assert [h.hand_id for h in await ledger.recent_hands(GUILD, ALICE)] == [following]


async def test_recovery_closes_a_running_tournament_hand(ledger: Ledger) -> None:
    tournament_id = await running_tournament(ledger)
    hand = await ledger.begin_tournament_hand(tournament_id, TABLE, 1)
    report = await ledger.recover()
    assert report.hands_refunded == (hand,) and report.tournaments_refunded == (tournament_id,)
    assert await ledger.balance(GUILD, ALICE) == START

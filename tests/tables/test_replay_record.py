"""Every settled hand leaves its replay in the ledger: played again, it deals the same cards
and ends with the results the table settled, a board run twice included."""

from __future__ import annotations

from engine.hand_record import RecordedHand
from tests.tables.helpers import ALICE, BOB, CHANNEL, GUILD, eventually, passive, running_manager
from tests.tables.test_play import play_heads_up_all_in


async def replayed(ledger, hand_id: int):
    record = await ledger.hand_history(hand_id)
    assert record is not None and record.replay is not None
    return record, RecordedHand.from_json(record.replay).play()


async def test_each_settled_hand_replays_to_the_settled_results(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, ledger):
        notifier.auto_actions.update({ALICE: passive, BOB: passive})
        await manager.join(GUILD, CHANNEL, ALICE, "Alice")
        await manager.join(GUILD, CHANNEL, BOB, "Bob")
        await manager.add_bots(GUILD, CHANNEL, "calling")
        await eventually(lambda: len(notifier.outcomes) >= 3)
        await manager.sit_out(CHANNEL, ALICE)
        await manager.sit_out(CHANNEL, BOB)
        first_cards = {user: cards for _, user, cards in notifier.hole_cards_sent[:2]}
        for number, outcome in enumerate(notifier.outcomes[:3]):
            record, hand = await replayed(ledger, outcome.hand_id)
            assert hand.result is not None
            assert list(hand.result.net) == [p.net for p in record.participants]
            if number == 0:
                for user, cards in first_cards.items():
                    assert hand.hole_cards(record.seat_of(user)) == tuple(cards)


async def test_a_board_run_twice_replays_with_both_boards(tmp_path):
    async with running_manager(tmp_path) as (manager, notifier, ledger):
        outcome = await play_heads_up_all_in(manager, notifier, {ALICE: True, BOB: True})
        record, hand = await replayed(ledger, outcome.hand_id)
        assert len(hand.boards) == 2 and hand.result is not None
        assert list(hand.result.net) == [p.net for p in record.participants]

"""A hand's chips while it is played: the start-of-hand snapshot and the checks on settling.

A hand's chips stay in escrow while it is played: ``begin_hand`` records each player's
start-of-hand stack (the snapshot), ``settle_hand`` moves the escrow to the final stacks in one
transaction. A hand that never settles (a crash, an error in the table) therefore still holds
exactly its snapshot, and refunding it only has to close it. No chips may move into or out of a
stack while its hand runs.

The functions that read the database are scripts (``statements``) run inside the transaction
of their caller.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.errors import HandInProgress
from bot.ledger.errors import UnbalancedHand
from bot.ledger.records import HandParticipant
from bot.ledger.statements import Script, command, first_row, placeholders, rows
from bot.ledger.validation import Holder, player_key

Holdings = dict[Holder, tuple[int, int]]
"""Chips by holder (user_id, bot_name): (account id, chips)."""


def refuse_if_in_hand(table_id: int, escrow_id: int) -> Script[None]:
    """Raise ``HandInProgress`` if the stack ``escrow_id`` is in a hand running at the table."""
    row = yield from first_row(
        "SELECT 1 FROM hands h JOIN hand_stacks s ON s.hand_id = h.id AND s.account_id = ?"
        " WHERE h.table_id = ? AND h.status = 'running'",
        escrow_id, table_id,
    )  # fmt: skip
    if row is not None:
        raise HandInProgress("move these chips")


def stack_mismatch(
    guild_id: int, table_id: int, wanted: Mapping[Holder, int]
) -> Script[UnbalancedHand]:
    """Name the first stack of a hand being begun that its escrow does not hold."""
    found = yield from rows(
        "SELECT user_id, bot_name, chips FROM accounts"
        " WHERE kind = 'escrow' AND table_id = ? AND guild_id = ?",
        table_id, guild_id,
    )  # fmt: skip
    held = {(user_id, bot_name): chips for user_id, bot_name, chips in found}
    holder, chips = next((h, c) for h, c in wanted.items() if held.get(h) != c)
    return UnbalancedHand(
        f"{player_key(*holder)!r} holds {held.get(holder, 0):,} chips at this table,"
        f" not {chips:,}."
    )


def snapshot(hand_id: int) -> Script[Holdings]:
    """Each holder's start-of-hand chips in a hand, in the order of their accounts."""
    found = yield from rows(
        "SELECT a.user_id, a.bot_name, a.id, s.chips FROM hand_stacks s"
        " JOIN accounts a ON a.id = s.account_id WHERE s.hand_id = ? ORDER BY a.id",
        hand_id,
    )
    return {
        (user_id, bot_name): (account_id, chips) for user_id, bot_name, account_id, chips in found
    }


def close_refunded(hand_ids: Sequence[int], now: float) -> Script[None]:
    """Close running hands as refunded: their escrow already holds their snapshots."""
    if hand_ids:
        yield from command(
            "UPDATE hands SET status = 'refunded', finished_at = ?"
            f" WHERE id IN ({placeholders(len(hand_ids))})",
            now, *hand_ids,
        )  # fmt: skip


def check_settlement(
    start: Holdings,
    final: Mapping[Holder, int],
    participants: Mapping[Holder, HandParticipant],
) -> None:
    """Refuse a settlement that would create or lose chips or misreport a player's result."""
    if set(final) != set(start) or set(participants) != set(start):
        raise UnbalancedHand("The final stacks and participants must be the hand's players.")
    if sum(final.values()) != sum(chips for _, chips in start.values()):
        raise UnbalancedHand("The final stacks do not add up to the chips in the hand.")
    for holder, participant in participants.items():
        if participant.net != final[holder] - start[holder][1]:
            raise UnbalancedHand(f"{participant.name}'s net result does not match their stacks.")

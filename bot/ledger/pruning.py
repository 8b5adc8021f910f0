"""Pruning old hands' details: what a long history costs on disk, given back by the operator.

A settled hand keeps its history text and its replay (about two thirds of what it takes on
disk, measured by ``benchmarks.history``) and the start-of-hand stacks it was begun with,
which nothing reads once it is settled. ``prune`` clears the first two and deletes the third
for hands finished before a cutoff, and only for hands whose habits are counted (the replay is
what ``backfill_habits`` counts from). Balances, entries, every player's result of the hand and
the stats totals stay as they were: leaderboards and /stats do not change, and the audit holds.
The hand's row stays too (entries name it); /history, /replay and /review then say its
details were pruned.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.ledger.statements import Script, command, placeholders, rows

BATCH_HANDS = 1_000
"""Hands looked at per transaction: each round is a short write beside a running bot."""


def candidates(after_id: int, before: float) -> Script[tuple[list[int], int | None]]:
    """The next ``BATCH_HANDS`` hands by id after ``after_id``: those to prune (finished
    before ``before``, details kept, habits counted), and the last id looked at (``None``
    when there are no more hands, or the batch reached hands begun after the cutoff: ids
    follow the start, so no later one can be older)."""
    found = yield from rows(
        "SELECT h.id, h.status, h.finished_at, h.started_at,"
        " h.replay IS NOT NULL OR h.history <> '',"
        " EXISTS (SELECT 1 FROM hand_players p WHERE p.hand_id = h.id AND p.saw_flop IS NULL)"
        " FROM hands h WHERE h.id > ? ORDER BY h.id LIMIT ?",
        after_id, BATCH_HANDS,
    )  # fmt: skip
    chosen = [int(hand_id) for hand_id, status, finished_at, _, kept, uncounted in found
              if status != "running" and finished_at is not None and finished_at < before
              and kept and not uncounted]
    newer = any(started_at >= before for _, _, _, started_at, _, _ in found)
    last = int(found[-1][0]) if found and len(found) == BATCH_HANDS and not newer else None
    return chosen, last


def prune(hand_ids: Sequence[int]) -> Script[int]:
    """Clear the history and replay of ``hand_ids`` and delete their start-of-hand stacks;
    how many hands."""
    if not hand_ids:
        return 0
    marks = placeholders(len(hand_ids))
    yield from command(f"DELETE FROM hand_stacks WHERE hand_id IN ({marks})", *hand_ids)
    return (yield from command(
        f"UPDATE hands SET history = '', replay = NULL WHERE id IN ({marks})", *hand_ids))

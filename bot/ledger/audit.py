"""The proof that no chip was created or lost, computed from the database alone.

Four checks: every account's chips equal the sum of its entries; every running hand's escrow
still equals its start-of-hand snapshot; every tournament's escrow holds what its entrants paid
while it is open (buy-ins, rebuys, re-entries, add-ons: ``escrow_problems``) and nothing once
it is over; and balances, house, escrow at tables and tournament
escrow together equal what was ever granted. Tests call it after every scenario; it runs in
one read transaction.
"""

from __future__ import annotations

from bot.ledger.accounts import GRANT_REASONS
from bot.ledger.records import AuditReport, LedgerTotals
from bot.ledger.statements import Script, placeholders, rows
from bot.ledger.tournaments import escrow_problems


def audit_report() -> Script[AuditReport]:
    """Check the ledger's invariants and report every problem found."""
    mismatched = yield from rows(
        "SELECT a.id, a.kind, a.chips, COALESCE(e.total, 0) FROM accounts a"
        " LEFT JOIN (SELECT account_id, CAST(SUM(delta) AS BIGINT) AS total FROM entries"
        " GROUP BY account_id) e ON e.account_id = a.id"
        " WHERE a.chips <> COALESCE(e.total, 0) ORDER BY a.id"
    )
    problems = [
        f"{kind} account {account_id} holds {chips} but its entries sum to {total}"
        for account_id, kind, chips, total in mismatched
    ]
    moved = yield from rows(
        "SELECT s.hand_id, s.account_id, s.chips, a.chips FROM hand_stacks s"
        " JOIN hands h ON h.id = s.hand_id JOIN accounts a ON a.id = s.account_id"
        " WHERE h.status = 'running' AND a.chips <> s.chips ORDER BY s.hand_id, s.account_id"
    )
    problems += [
        f"running hand {hand_id}: account {account_id} holds {chips}, its snapshot {snapshot}"
        for hand_id, account_id, snapshot, chips in moved
    ]
    ((granted,),) = yield from rows(
        "SELECT CAST(COALESCE(SUM(delta), 0) AS BIGINT) FROM entries"
        f" WHERE reason IN ({placeholders(len(GRANT_REASONS))})",
        *GRANT_REASONS,
    )
    by_kind = yield from rows("SELECT kind, CAST(SUM(chips) AS BIGINT) FROM accounts GROUP BY kind")
    held = {kind: int(chips) for kind, chips in by_kind}
    tournament_problems, in_tournaments = yield from escrow_problems()
    problems += tournament_problems
    totals = LedgerTotals(
        granted=int(granted),
        balances=held.get("balance", 0),
        house=held.get("house", 0),
        escrow=held.get("escrow", 0) - in_tournaments,
        tournaments=in_tournaments,
    )
    held_total = totals.balances + totals.house + totals.escrow + totals.tournaments
    if held_total != totals.granted:
        problems.append(f"accounts hold {held_total} chips but {totals.granted} were granted")
    return AuditReport(ok=not problems, problems=tuple(problems), totals=totals)

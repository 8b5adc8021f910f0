"""The proof that no chip was created or lost, computed from the database alone.

Three checks: every account's chips equal the sum of its entries; every running hand's escrow
still equals its start-of-hand snapshot; and balances, house and escrow together equal what
was ever granted. Tests call it after every scenario; it runs in one read transaction.
"""

from __future__ import annotations

import sqlite3

from bot.ledger.accounts import GRANT_REASONS
from bot.ledger.records import AuditReport, LedgerTotals


def audit_report(db: sqlite3.Connection) -> AuditReport:
    """Check the ledger's invariants and report every problem found."""
    problems = [
        f"{kind} account {account_id} holds {chips} but its entries sum to {total}"
        for account_id, kind, chips, total in db.execute(
            "SELECT a.id, a.kind, a.chips, COALESCE(e.total, 0) FROM accounts a"
            " LEFT JOIN (SELECT account_id, SUM(delta) AS total FROM entries"
            " GROUP BY account_id) e ON e.account_id = a.id"
            " WHERE a.chips <> COALESCE(e.total, 0)"
        )
    ]
    problems += [
        f"running hand {hand_id}: account {account_id} holds {chips}, its snapshot {snapshot}"
        for hand_id, account_id, snapshot, chips in db.execute(
            "SELECT s.hand_id, s.account_id, s.chips, a.chips FROM hand_stacks s"
            " JOIN hands h ON h.id = s.hand_id JOIN accounts a ON a.id = s.account_id"
            " WHERE h.status = 'running' AND a.chips <> s.chips"
        )
    ]
    (granted,) = db.execute(
        "SELECT COALESCE(SUM(delta), 0) FROM entries"
        f" WHERE reason IN ({', '.join('?' * len(GRANT_REASONS))})",
        GRANT_REASONS,
    ).fetchone()
    held = dict(db.execute("SELECT kind, SUM(chips) FROM accounts GROUP BY kind"))
    totals = LedgerTotals(
        granted=granted,
        balances=held.get("balance", 0),
        house=held.get("house", 0),
        escrow=held.get("escrow", 0),
    )
    held_total = totals.balances + totals.house + totals.escrow
    if held_total != granted:
        problems.append(f"accounts hold {held_total} chips but {granted} were granted")
    return AuditReport(ok=not problems, problems=tuple(problems), totals=totals)

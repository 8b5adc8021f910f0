"""While the chip ledger fails, people are told so in one sentence, never the apology."""

from __future__ import annotations

import sqlite3

import pytest

from bot.discord_ui.error_replies import APOLOGY
from tests.discord_ui.club import Club, seat_two_and_a_bot

pytestmark = pytest.mark.slow


async def test_leave_during_a_ledger_fault_says_the_ledger_is_unavailable(
    club: Club, monkeypatch: pytest.MonkeyPatch
):
    bot = await club.start_bot()
    await seat_two_and_a_bot(club, bot)

    async def disk_error(*args: object) -> int:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(bot.ledger, "cash_out", disk_error)
    answer = await club.fake.slash(club.alice, club.channel, "leave")
    assert answer.ephemeral and APOLOGY not in answer.content
    assert "The chip ledger is unavailable right now" in answer.content
    state = bot.tables.state(club.channel)
    assert state is not None and state.seat_of(club.alice) is not None  # nothing changed
    monkeypatch.undo()
    left = await club.fake.slash(club.alice, club.channel, "leave")
    assert "chips go back to your balance" in left.content

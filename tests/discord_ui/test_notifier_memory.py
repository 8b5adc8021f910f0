"""The notifier's memory stays bounded: private notes waiting for people whose DMs fail are
capped per person and in people."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord_ui import notifier as notifier_module
from bot.discord_ui.notifier import MAX_NOTICES_PER_PERSON, DiscordNotifier


class UnreachableDMs:
    """A client whose DMs never answer (each one runs into the notifier's deadline)."""

    async def create_dm(self, user: object) -> None:
        await asyncio.sleep(3600)


async def settled() -> None:
    """Wait for every background DM of the test to end."""
    others = asyncio.all_tasks() - {asyncio.current_task()}
    await asyncio.gather(*others, return_exceptions=True)


async def test_notes_are_capped_per_person_and_in_people(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(notifier_module, "MAX_PEOPLE_REMEMBERED", 3)
    notifier = DiscordNotifier(UnreachableDMs(), dm_deadline=0.01)  # type: ignore[arg-type]
    for number in range(MAX_NOTICES_PER_PERSON + 4):
        await notifier.tell(1, 100, f"note {number}")
    await settled()
    kept = notifier.take_notices(100)
    assert len(kept) == MAX_NOTICES_PER_PERSON and kept[-1].endswith(
        f"note {MAX_NOTICES_PER_PERSON + 3}")  # the newest are kept
    for user in range(200, 206):
        await notifier.tell(1, user, "hello")
    await settled()
    assert [user for user in range(200, 206) if notifier.has_notices(user)] == [203, 204, 205]

"""The Discord floor benchmark, run small: both clients answer every click with the mix of a
hand and are measured."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from benchmarks.discord_floor import CLIENTS, REQUIRED_KEYS, Figures, Mix, main, run
from tests.fake_discord import FakeDiscord


def test_a_hands_token_edits_and_dms_are_spread_over_its_clicks_to_the_whole_share() -> None:
    mix = Mix(token_edits=3.4 / 8.3, dms=1.7 / 8.3)
    taken = [mix.next_click() for _ in range(83)]  # ten hands' clicks
    # the fractions are floats: the last one may still be owed by a hair
    assert sum(edits for edits, _ in taken) in (33, 34)
    assert sum(dms for _, dms in taken) in (16, 17)
    assert all(edits <= 1 and dms <= 1 for edits, dms in taken)


@pytest.mark.slow
def test_both_clients_answer_a_few_tables_clicks_and_are_measured(capsys) -> None:
    # some 50 clicks a window: the requests of the clicks in flight at its edges (one a
    # table at most) stay within the tolerances below
    figures = main(["--tables", "3", "--seconds", "2", "--hands-per-second", "3", "--json"])
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [one["client"] for one in printed] == list(CLIENTS)
    assert [json.loads(json.dumps(vars(one))) for one in figures] == printed
    for one in printed:
        assert set(REQUIRED_KEYS) <= set(one)
        assert one["hands"] > 0 and one["clicks_per_s"] > 0
        assert one["client_cpu_ms_per_hand"] > 0
        requests = one["requests_per_hand"]
        # every click answered with the table; the mix's edits and DMs, a click's worth apart
        assert requests["interaction_response"] == pytest.approx(8.3, abs=0.5)
        assert requests["response_edit"] == pytest.approx(3.4, abs=1.0)
        assert requests["dm_message_create"] == pytest.approx(1.7, abs=1.0)
        assert one["upload_kb_per_hand"] > 0


@pytest.mark.slow
def test_a_run_ends_even_when_a_click_swallows_its_cancellation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Python 3.11's ``asyncio.wait_for`` returns its result instead of raising when the
    cancellation meets the answer: the click loops must still end with the window."""
    clicked = FakeDiscord.click

    async def swallowing(self: FakeDiscord, *args: Any) -> Any:
        try:
            return await clicked(self, *args)
        except asyncio.CancelledError:
            return None

    monkeypatch.setattr(FakeDiscord, "click", swallowing)

    async def measured() -> Figures:
        async with asyncio.timeout(60):
            return await run("raw", tables=2, seconds=1, hands_per_second=3, answers=8.3,
                             token_edits=3.4, dms=1.7, seed=1)

    assert asyncio.run(measured()).hands > 0

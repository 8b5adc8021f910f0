"""``python -m docs.images``: --help changes nothing, and the README's /stats chart shows the
playing style its hands had (counted when they settle, from their replays)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import docs.images
from bot.ledger.records import Habits

DOCS = Path(docs.images.__file__).parent


def test_docs_images_help_explains_and_draws_nothing() -> None:
    before = {path: path.stat().st_mtime_ns for path in DOCS.glob("*.png")}
    result = subprocess.run([sys.executable, "-m", "docs.images", "--help"],
                            capture_output=True, text=True, timeout=120,
                            cwd=DOCS.parent)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: python -m docs.images")
    assert "wrote" not in result.stdout
    assert {path: path.stat().st_mtime_ns for path in DOCS.glob("*.png")} == before


async def test_the_stats_chart_shows_the_habits_its_hands_had(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn: dict[str, Any] = {}

    def record(*args: object, **options: object) -> bytes:
        drawn.update(options)
        return b""

    monkeypatch.setattr(docs.images, "render_stats_chart", record)
    await docs.images.stats_chart(hands=30)
    habits, server = drawn.get("habits"), drawn.get("server_habits")
    assert isinstance(habits, Habits) and habits.hands == 30
    assert habits.figure("went_to_showdown") is not None
    assert server is not None and any(value is not None for value in server.values())

"""``python -m benchmarks.render`` runs and reports sane figures (a smoke test: one table)."""

from __future__ import annotations

from benchmarks.render import measure
from bot.i18n import language_for


def test_the_render_benchmark_measures_table_and_card_images() -> None:
    figures = measure(tables=1, hands=1, language=language_for("zh-CN"))
    assert figures["table_images"] == figures["table_images_per_hand"] and \
        int(figures["table_images"]) > 5
    for key in ("table_image_ms", "table_image_bytes", "card_image_ms", "card_image_bytes"):
        assert 0 < float(figures[key]) < 100_000, key
    assert 0 <= float(figures["unchanged_share"]) <= 1

"""``python -m benchmarks.render`` runs and reports sane figures (a smoke test: one table)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.render import main, measure
from bot.i18n import language_for


def test_the_render_benchmark_measures_table_and_card_images() -> None:
    figures = measure(tables=1, hands=1, language=language_for("zh-CN"))
    assert figures["table_images"] == figures["table_images_per_hand"] and \
        int(figures["table_images"]) > 5
    for key in ("table_image_ms", "table_image_bytes", "card_image_ms", "card_image_bytes"):
        assert 0 < float(figures[key]) < 100_000, key
    assert 0 <= float(figures["unchanged_share"]) <= 1


def test_against_a_folder_that_is_not_a_checkout_is_refused_with_the_usage_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    for folder in (tmp_path / "nonexistent", tmp_path):
        with pytest.raises(SystemExit) as exited:
            main(["--against", str(folder)])
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("usage: ")
        assert f"argument --against: {folder} is not a checkout of this project" in err

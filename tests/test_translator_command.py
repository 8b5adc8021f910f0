"""``python -m bot.discord_ui.translator``: a command with a --help that changes nothing."""

from __future__ import annotations

import subprocess
import sys

from bot.i18n.extraction import LOCALES


def test_translator_help_explains_and_leaves_the_catalogs_alone() -> None:
    before = {path: path.read_bytes() for path in LOCALES.glob("*.po")}
    result = subprocess.run([sys.executable, "-m", "bot.discord_ui.translator", "--help"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: python -m bot.discord_ui.translator")
    assert "catalogs" in result.stdout and "updated" not in result.stdout
    assert {path: path.read_bytes() for path in LOCALES.glob("*.po")} == before


def test_translator_refuses_an_unknown_argument_without_writing() -> None:
    before = {path: path.read_bytes() for path in LOCALES.glob("*.po")}
    result = subprocess.run([sys.executable, "-m", "bot.discord_ui.translator", "--frobnicate"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "unrecognized arguments: --frobnicate" in result.stderr
    assert {path: path.read_bytes() for path in LOCALES.glob("*.po")} == before

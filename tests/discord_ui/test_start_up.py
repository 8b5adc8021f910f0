"""Starting the bot says only what matters: no warnings about voice, which it does not use, and
``holdem run --help`` describes what ``run`` does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.discord_ui.app import create_bot
from bot.settings import Settings, missing_token_help

ROOT = Path(__file__).parents[2]


def test_building_the_bot_logs_no_warning_about_voice() -> None:
    """In a fresh process: discord.py warns once per process, so an earlier test's client
    would hide it here."""
    script = ("import logging; logging.basicConfig(level=logging.INFO)\n"
              "from bot.discord_ui.app import create_bot\n"
              "from bot.settings import Settings\n"
              "create_bot(Settings())\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=ROOT, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert "voice" not in result.stderr.lower(), result.stderr


def test_run_help_says_what_run_does(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_status:
        main(["run", "--help"])
    assert exit_status.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "Run the Discord bot" in shown and "DISCORD_TOKEN" in shown, shown


def test_readme_and_the_no_token_message_tell_what_discord_s_portal_asks() -> None:
    """No privileged intent to switch on (the bot asks for none), and where a server id for
    DEV_GUILD_ID is found."""
    intents = create_bot(Settings()).intents
    assert not (intents.members or intents.presences or intents.message_content)
    for text in ((ROOT / "README.md").read_text(), missing_token_help(0)):
        words = " ".join(text.split())
        assert "needs no privileged gateway intents" in words
        assert "Copy Server ID" in words

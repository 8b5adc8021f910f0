"""The entry point: without a token it explains what to set instead of crashing."""

import logging
import os
import socket
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot.__main__ import main


def run_bot(*args: str, **env_overrides: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True, text=True, env=env, timeout=60, stdin=subprocess.DEVNULL,
    )


def test_missing_token_exits_nonzero_with_setup_help():
    result = run_bot()
    assert result.returncode == 2
    for needle in ("DISCORD_TOKEN", "bot applications.commands", "python -m bot play",
                   "DATABASE_PATH", "DEV_GUILD_ID"):
        assert needle in result.stderr


def test_blank_token_counts_as_missing():
    result = run_bot(DISCORD_TOKEN="   ")
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" in result.stderr


def test_bad_dev_guild_id_is_explained():
    result = run_bot(DEV_GUILD_ID="my-server")
    assert result.returncode == 2
    assert "DEV_GUILD_ID must be a numeric server id" in result.stderr


def test_a_token_with_no_network_is_one_line_and_exit_status_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a port on this machine that nothing listens on
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{closed_port}/api/v10")
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "holdem.sqlite3"))
    monkeypatch.setenv("LOG_LEVEL", "ERROR")
    # The bot configures the process: keep its logging and collector settings out of the suite.
    monkeypatch.setattr("bot.process.tune_garbage_collector", lambda: None)
    monkeypatch.setattr(logging.root, "handlers", [])
    monkeypatch.setattr(logging.root, "level", logging.root.level)
    assert main([]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.startswith("error: cannot reach Discord (") and err.count("\n") == 1


def test_a_database_path_that_is_a_folder_is_one_line_before_connecting(tmp_path: Path) -> None:
    result = run_bot(DISCORD_TOKEN="a-token", DATABASE_PATH=str(tmp_path))
    assert result.returncode == 1
    assert result.stderr == (f"error: {tmp_path} is a folder, not a database file; "
                             "set DATABASE_PATH to a database file.\n")


def test_an_unknown_log_level_is_one_line_and_exit_status_2() -> None:
    result = run_bot(DISCORD_TOKEN="a-token", LOG_LEVEL="bogus")
    assert result.returncode == 2
    assert result.stderr == ("error: LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, "
                             "CRITICAL, not 'BOGUS'\n")


def test_play_with_an_unknown_lang_is_refused_like_a_bad_option_with_status_2(
    tmp_path: Path,
) -> None:
    result = run_bot("play", "--lang", "xx-YY", "--database", str(tmp_path / "x.sqlite3"))
    assert result.returncode == 2
    assert result.stderr.startswith("usage: holdem play")
    assert result.stderr.endswith("holdem play: error: unknown language 'xx-YY' for --lang; "
                                  "use en, zh-Hans (or zh-CN) or zh-Hant (or zh-TW)\n")
    assert result.stdout == "" and not (tmp_path / "x.sqlite3").exists()


@pytest.mark.parametrize(("args", "lang", "expected"), [
    (("--lang", "zh-CN"), "C.UTF-8", "你带着"),
    (("--lang", "zh_Hant"), "C.UTF-8", "你帶著"),
    ((), "zh_TW.UTF-8", "你帶著"),
    ((), "zh_CN.UTF-8", "你带着"),
    (("--lang", "en"), "zh_CN.UTF-8", "You sit down with"),
])
def test_play_speaks_the_language_of_lang_or_of_the_locale(
    tmp_path: Path, args: tuple[str, ...], lang: str, expected: str
) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--fast", "--bots", "easy", "--database",
         str(tmp_path / "x.sqlite3"), *args],
        input="q\n", capture_output=True, text=True, encoding="utf-8", timeout=60,
        env={**os.environ, "LANG": lang, "LC_ALL": "", "LC_MESSAGES": "",
             "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"},
    )
    assert result.returncode == 0, result.stderr
    assert expected in result.stdout

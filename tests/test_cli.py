"""The entry point: without a token it explains what to set instead of crashing."""

import os
import subprocess
import sys


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

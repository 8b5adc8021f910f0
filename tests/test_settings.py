"""Settings come from environment variables with documented defaults."""

from pathlib import Path

import pytest

from bot.process import configure_logging
from bot.settings import Settings, SettingsError


def test_defaults_when_environment_is_empty():
    settings = Settings.from_env({})
    assert settings.token is None
    assert settings.database_path == Path("data/holdem.sqlite3")
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.discord_api_base is None


def test_values_are_read_and_normalised():
    settings = Settings.from_env({
        "DISCORD_TOKEN": " abc ", "DATABASE_PATH": "/tmp/x.db",
        "DEV_GUILD_ID": "123", "LOG_LEVEL": "debug",
    })
    assert settings == Settings("abc", Path("/tmp/x.db"), 123, "DEBUG")


def test_non_numeric_guild_id_is_rejected():
    with pytest.raises(SettingsError, match="DEV_GUILD_ID"):
        Settings.from_env({"DEV_GUILD_ID": "12ab"})


@pytest.mark.parametrize("guild_id", ["12ab", "²", "9" * 5_000])
def test_a_guild_id_that_is_not_a_discord_id_is_rejected(guild_id: str):
    with pytest.raises(SettingsError, match="DEV_GUILD_ID must be a numeric server id"):
        Settings.from_env({"DEV_GUILD_ID": guild_id})


def test_an_unknown_log_level_in_the_environment_is_a_settings_error():
    with pytest.raises(SettingsError, match="LOG_LEVEL must be one of DEBUG, INFO"):
        Settings.from_env({"LOG_LEVEL": "bogus"})


def test_unknown_log_level_is_rejected():
    with pytest.raises(ValueError, match="LOG_LEVEL"):
        configure_logging("LOUD")


def test_a_rest_proxy_address_is_read_without_its_trailing_slash():
    settings = Settings.from_env({"DISCORD_API_BASE": " http://rest-proxy:8080/api/v10/ "})
    assert settings.discord_api_base == "http://rest-proxy:8080/api/v10"


@pytest.mark.parametrize("address", [
    "rest-proxy:8080/api/v10", "ftp://rest-proxy/api/v10", "http://rest-proxy:8080",
    "http:///api/v10", "http://rest-proxy:99999/api/v10", "http://rest-proxy/api/v10?x=1",
    "http://rest-proxy/api/v9",
])
def test_a_rest_proxy_address_that_is_not_one_is_rejected(address: str):
    with pytest.raises(SettingsError, match="DISCORD_API_BASE must be an http"):
        Settings.from_env({"DISCORD_API_BASE": address})


def test_a_database_url_puts_the_ledger_on_postgresql():
    url = "postgresql://holdem:secret@db.example:5432/holdem"
    settings = Settings.from_env({"DATABASE_URL": f" {url} ", "DATABASE_PATH": "ignored.db"})
    assert settings.database_url == url and settings.database == url
    assert Settings.from_env({}).database == Settings().database_path


@pytest.mark.parametrize("url", [
    "mysql://holdem@db/holdem",         # not PostgreSQL
    "postgresql://holdem@db",           # no database
    "postgresql://holdem@db:99999/x",   # no such port
    "postgresql://holdem@db:port/x",    # not a port
    "postgresql:///holdem",             # no host
    "db.example/holdem",                # not a URL
    "postgresql://holdem@[::1/holdem",  # a host that cannot be parsed
])  # fmt: skip
def test_a_database_url_that_is_not_one_is_rejected_without_showing_a_password(url: str):
    with pytest.raises(SettingsError, match="DATABASE_URL must look like postgresql://") as error:
        Settings.from_env({"DATABASE_URL": url.replace("holdem@", "holdem:secret@")})
    assert "secret" not in str(error.value)


@pytest.mark.parametrize(("text", "expected"), [
    ("", True), ("on", True), (" OFF ", False), ("false", False), ("0", False), ("yes", True),
])  # fmt: skip
@pytest.mark.parametrize("variable", ["BOT_WORKER", "PICTURE_WORKER", "IMAGES"])
def test_a_switch_is_on_unless_switched_off(variable: str, text: str, expected: bool):
    field = variable.lower()
    assert getattr(Settings.from_env({variable: text}), field) is expected
    assert getattr(Settings.from_env({}), field) is True


@pytest.mark.parametrize("variable", ["BOT_WORKER", "PICTURE_WORKER", "IMAGES", "WAIT_FOR_SHARDS"])
@pytest.mark.parametrize("text", ["maybe", "2", "offf"])
def test_a_switch_that_is_neither_on_nor_off_is_rejected(variable: str, text: str):
    with pytest.raises(SettingsError, match=f"{variable} must be on or off, not '{text}'"):
        Settings.from_env({variable: text})


@pytest.mark.parametrize(("text", "draws"), [("", True), ("off", False)])
def test_images_off_builds_a_bot_that_draws_none(text: str, draws: bool):
    from bot.discord_ui.app import create_bot

    bot = create_bot(Settings.from_env({"DISCORD_TOKEN": "x", "IMAGES": text}))
    assert bot.options.draw_images is draws


def test_a_stop_drains_for_twenty_seconds_and_waits_for_no_shard_unless_told():
    settings = Settings.from_env({})
    assert (settings.drain_seconds, settings.wait_for_shards) == (20.0, False)
    told = Settings.from_env({"DRAIN_SECONDS": " 0 ", "WAIT_FOR_SHARDS": "on"})
    assert (told.drain_seconds, told.wait_for_shards) == (0.0, True)


@pytest.mark.parametrize("text", ["-1", "601", "soon", "nan", "inf"])
def test_a_drain_that_is_not_a_number_of_seconds_is_rejected(text: str):
    with pytest.raises(SettingsError, match=(
            f"DRAIN_SECONDS must be a number of seconds from 0 to 600, not '{text}'")):
        Settings.from_env({"DRAIN_SECONDS": text})

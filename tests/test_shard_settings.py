"""SHARD_COUNT, SHARD_IDS and SHARD_LEASE_SECONDS: read, checked, and each
mistake named in one line."""

from __future__ import annotations

import pytest

from bot.settings import DEFAULT_SHARD_LEASE, Settings, SettingsError
from bot.shards import ShardSet


def test_without_sharding_settings_the_process_runs_shard_0_of_1():
    settings = Settings.from_env({})
    assert settings.shards == ShardSet(1, (0,))
    assert settings.shards.owns(123 << 22)
    assert (settings.shard_lease, settings.discord_api_base) == (DEFAULT_SHARD_LEASE, None)


def test_shard_ids_pick_some_of_the_shards():
    settings = Settings.from_env({"SHARD_COUNT": "4", "SHARD_IDS": " 1, 0 "})
    assert settings.shards == ShardSet(4, (0, 1))
    assert [settings.shards.owns(block << 22) for block in range(4)] == [
        True, True, False, False]


def test_shard_count_alone_runs_every_shard():
    assert Settings.from_env({"SHARD_COUNT": "3"}).shards == ShardSet(3, (0, 1, 2))


@pytest.mark.parametrize(("environ", "message"), [
    ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT (the bot's total number of shards)"),
    ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number from 1 to 10000, not '0'"),
    ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number from 1 to 10000, not 'two'"),
    ({"SHARD_COUNT": "9" * 5_000}, "SHARD_COUNT must be a whole number from 1 to 10000, not "
                                   "'99999999999999999999'"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "2"},
     "SHARD_IDS lists shard 2, but SHARD_COUNT=2 numbers shards 0 to 1"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "SHARD_IDS lists shard 1 twice"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0,,1"},
     "SHARD_IDS must be shard numbers separated by commas, not '0,,1'"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "-1"},
     "SHARD_IDS must be shard numbers separated by commas, not '-1'"),
    ({"SHARD_LEASE_SECONDS": "0"},
     "SHARD_LEASE_SECONDS must be a number of seconds from 0.1 to 3600, not '0'"),
    ({"SHARD_LEASE_SECONDS": "nan"},
     "SHARD_LEASE_SECONDS must be a number of seconds from 0.1 to 3600, not 'nan'"),
])
def test_a_bad_sharding_setting_is_one_clear_line(environ: dict[str, str], message: str):
    with pytest.raises(SettingsError) as error:
        Settings.from_env(environ)
    assert str(error.value) == message


def test_the_lease_and_the_api_base_are_read():
    settings = Settings.from_env({"SHARD_LEASE_SECONDS": "2.5",
                                  "DISCORD_API_BASE": "http://127.0.0.1:8080/api/v10/"})
    assert (settings.shard_lease, settings.discord_api_base) == (2.5, "http://127.0.0.1:8080/api/v10")


@pytest.mark.parametrize("ids", [(), (2,), (1, 1), (1, 0)])
def test_a_shard_set_refuses_what_settings_would_refuse(ids: tuple[int, ...]):
    with pytest.raises(ValueError):
        ShardSet(2, ids)

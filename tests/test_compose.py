"""compose.yaml names exactly the settings the bot reads, with values it accepts: each bot
service starts as the shard it says, on the PostgreSQL service's database."""

from __future__ import annotations

import re
from pathlib import Path

from bot import settings as settings_module
from bot.settings import Settings
from bot.shards import ShardSet

ROOT = Path(__file__).parents[1]
COMPOSE = (ROOT / "compose.yaml").read_text()


def service_environment(service: str) -> dict[str, str]:
    """A bot service's variables: the shared block, then its own, with ``${VAR:-default}``
    and ``${VAR:?message}`` filled in as compose would with only DISCORD_TOKEN set."""
    shared = COMPOSE.split("environment: &bot-environment\n", 1)[1].split("\n\n", 1)[0]
    own = COMPOSE.split(f"  {service}:\n", 1)[1].split("\n\n", 1)[0]
    environment: dict[str, str] = {}
    for block in (shared, own):
        for key, value in re.findall(r"^ +([A-Z][A-Z_]+): (.+)$", block, re.MULTILINE):
            value = re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value.strip().strip('"'))
            environment[key] = re.sub(r"\$\{DISCORD_TOKEN:\?[^}]*\}", "a-token", value)
    return environment


def test_each_bot_service_runs_its_own_shard_on_the_shared_database() -> None:
    seen = set()
    for service, shard in (("bot-shard-0", 0), ("bot-shard-1", 1)):
        environment = service_environment(service)
        source = Path(settings_module.__file__).read_text()
        assert all(f'"{key}"' in source for key in environment), environment
        settings = Settings.from_env(environment)
        assert settings.shards == ShardSet(2, (shard,))
        assert settings.database == "postgresql://holdem:holdem@postgres:5432/holdem"
        assert settings.token == "a-token"
        assert settings.bot_worker is True
        seen.add(settings.shards.ids)
    assert seen == {(0,), (1,)}
    assert "POSTGRES_USER: holdem" in COMPOSE and "POSTGRES_DB: holdem" in COMPOSE


def test_the_header_names_every_variable_compose_takes_from_the_host() -> None:
    header = COMPOSE.split("\n\n", 1)[0]
    taken = set(re.findall(r"\$\{([A-Z_]+)", COMPOSE))
    assert {"DISCORD_TOKEN", "POSTGRES_PASSWORD", "DEV_GUILD_ID"} <= taken
    assert not {name for name in taken if name not in header}, header


def test_dev_guild_id_reaches_every_bot_service() -> None:
    for service in ("bot-shard-0", "bot-shard-1"):
        assert service_environment(service)["DEV_GUILD_ID"] == ""  # unset: global sync

"""Suite-wide test settings."""

from hypothesis import HealthCheck, settings

# A real PostgreSQL server for the tests that ask for one (fixtures postgres_server, postgres_url),
# and real bot processes on a shared database (fixtures backend, fake).
pytest_plugins = ["tests.postgres_server", "tests.bot_processes"]

# Property tests run on shared 2-core CI machines: no per-example deadline, a fixed budget.
settings.register_profile(
    "project", deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("project")

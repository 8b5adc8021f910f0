"""Suite-wide test settings."""

from hypothesis import HealthCheck, settings

# A real PostgreSQL server for the tests that ask for one (fixtures postgres_server, postgres_url).
pytest_plugins = ["tests.postgres_server"]

# Property tests run on shared 2-core CI machines: no per-example deadline, a fixed budget.
settings.register_profile(
    "project", deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("project")

"""Suite-wide test settings."""

from hypothesis import HealthCheck, settings

# Property tests run on shared 2-core CI machines: no per-example deadline, a fixed budget.
settings.register_profile(
    "project", deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("project")

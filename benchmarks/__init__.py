"""Benchmark scripts: ``python -m benchmarks.<name>`` prints figures (never part of the tests)."""

"""The figures ``/metrics`` serves in Prometheus' text format, per process.

One ``Metrics`` holds a registry of its own (not prometheus_client's global one), so a bot
process and a web process, or two apps in one test, never mix their figures. Neutral like
``bot.settings``: the Discord front end feeds the bot's figures, the web companion its own,
and whichever process serves ``/metrics`` exposes ``registry``. Rates are Prometheus' to
compute: hands per minute is ``rate(holdem_hands_total[5m]) * 60``; interactions answered is
``holdem_interaction_seconds_count``.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram


class Metrics:
    """The process's figures; each attribute is a prometheus_client metric to feed."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self.tables_open = Gauge(
            "holdem_tables_open", "Tables open in this process", registry=registry)
        self.hands = Counter(
            "holdem_hands", "Hands settled by this process", registry=registry)
        self.interactions = Histogram(
            "holdem_interaction_seconds", "Seconds from an interaction's arrival to its answer",
            registry=registry, buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0))
        self.ledger_commits = Counter(
            "holdem_ledger_commits", "Ledger transactions committed", registry=registry)
        self.gateway_up = Gauge(
            "holdem_gateway_up", "1 while the shard's gateway connection is up", ["shard"],
            registry=registry)
        self.ledger_up = Gauge(
            "holdem_ledger_up", "1 when the ledger answered the last health check",
            registry=registry)
        self.web_requests = Counter(
            "holdem_web_requests", "Web requests answered, by route and status",
            ["route", "status"], registry=registry)
        self.web_seconds = Histogram(
            "holdem_web_request_seconds", "Seconds the web companion took to answer",
            registry=registry)

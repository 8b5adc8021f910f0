"""A real PostgreSQL server for the tests: started once per session, one database per test.

``initdb`` makes a cluster in a temporary folder and ``pg_ctl`` starts it on 127.0.0.1 at a
free port, with trust authentication for the test user and one password user (to test a
wrong password). PostgreSQL refuses to run as root, so as root the server runs as the
``postgres`` system user. The server binaries are found on PATH or under
``/usr/lib/postgresql/*/bin``; without them the PostgreSQL tests are skipped, unless
``HOLDEM_REQUIRE_POSTGRES=1`` (CI sets it) makes that a failure.

Durability settings are off (``fsync``, ``synchronous_commit``): a test server's data dies with
it, and the tests check transactions and crashes of the client, not of the server.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REQUIRE_VARIABLE = "HOLDEM_REQUIRE_POSTGRES"
SUPERUSER = "holdem_tests"
PASSWORD_USER, PASSWORD = "holdem_password", "right-password"


def server_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``, or ``None`` when there is none."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").exists():
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class PostgresServer:
    """A running server; ``new_database()`` gives each test an empty database."""

    binaries: Path
    directory: Path
    port: int
    run_as: list[str]
    _names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def url(self, database: str, user: str = SUPERUSER, password: str | None = None) -> str:
        secret = f":{password}" if password is not None else ""
        return f"postgresql://{user}{secret}@127.0.0.1:{self.port}/{database}"

    def psql(self, sql: str, database: str = "postgres") -> None:
        subprocess.run(
            [str(self.binaries / "psql"), "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
             "-p", str(self.port), "-U", SUPERUSER, "-d", database, "-c", sql],
            check=True, capture_output=True, text=True,
        )  # fmt: skip

    def new_database(self) -> str:
        """Create an empty database and return its URL."""
        name = f"ledger_{os.getpid()}_{next(self._names)}"
        self.psql(f"CREATE DATABASE {name} STRATEGY FILE_COPY")
        return self.url(name)

    @classmethod
    def start(cls, binaries: Path) -> PostgresServer:
        directory = Path(tempfile.mkdtemp(prefix="holdem-postgres-"))
        run_as: list[str] = []
        if os.geteuid() == 0:
            run_as = ["runuser", "-u", "postgres", "--"]
            shutil.chown(directory, "postgres", "postgres")
        data = directory / "data"
        port = free_port()
        subprocess.run(
            [*run_as, str(binaries / "initdb"), "-D", str(data), "-A", "trust",
             "-U", SUPERUSER, "--no-sync", "-E", "UTF8", "--locale", "C"],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        options = (f"-h 127.0.0.1 -p {port} -k {directory} -c fsync=off"
                   " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        subprocess.run(
            [*run_as, str(binaries / "pg_ctl"), "-D", str(data), "-l",
             str(directory / "server.log"), "-o", options, "-w", "start"],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        server = cls(binaries, directory, port, run_as)
        # Trust for the test user, a password for the password user (scram over TCP).
        server.psql(f"CREATE ROLE {PASSWORD_USER} LOGIN PASSWORD '{PASSWORD}'")
        hba = data / "pg_hba.conf"
        rules = hba.read_text()
        hba.write_text(f"host all {PASSWORD_USER} 127.0.0.1/32 scram-sha-256\n{rules}")
        server.psql("SELECT pg_reload_conf()")
        return server

    def stop(self) -> None:
        subprocess.run(
            [*self.run_as, str(self.binaries / "pg_ctl"), "-D", str(self.directory / "data"),
             "-m", "immediate", "stop"],
            check=False, capture_output=True,
        )  # fmt: skip
        shutil.rmtree(self.directory, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server (skipped, or failed under CI, without binaries)."""
    binaries = server_binaries()
    if binaries is None:
        message = "PostgreSQL server binaries (initdb, pg_ctl) not found"
        if os.environ.get(REQUIRE_VARIABLE) == "1":
            pytest.fail(f"{message}, and {REQUIRE_VARIABLE}=1 requires them")
        pytest.skip(message)
    server = PostgresServer.start(binaries)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of an empty database of its own for this test."""
    return postgres_server.new_database()

"""The entry point on PostgreSQL: a server out of reach or a login it refuses is one line and
exit status 1 before the bot connects to Discord (a real server, started by the tests)."""

from __future__ import annotations

from tests.postgres_server import PASSWORD, PASSWORD_USER, PostgresServer, free_port
from tests.test_cli import run_bot


def test_a_malformed_database_url_is_one_line_and_exit_status_2() -> None:
    result = run_bot(DISCORD_TOKEN="a-token", DATABASE_URL="postgresql://nowhere")
    assert result.returncode == 2
    assert result.stderr.startswith("error: DATABASE_URL must look like postgresql://")
    assert result.stderr.count("\n") == 1


def test_an_unreachable_database_server_is_one_line_and_exit_status_1() -> None:
    url = f"postgresql://holdem@127.0.0.1:{free_port()}/holdem"
    result = run_bot(DISCORD_TOKEN="a-token", DATABASE_URL=url)
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: cannot reach PostgreSQL at {url}: ")
    assert result.stderr.endswith("; check DATABASE_URL.\n") and result.stderr.count("\n") == 1


def test_a_wrong_password_is_one_line_that_does_not_repeat_it(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.url("postgres", PASSWORD_USER, "wrong-password")
    result = run_bot(DISCORD_TOKEN="a-token", DATABASE_URL=url)
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"error: PostgreSQL at {postgres_server.url('postgres', PASSWORD_USER)} refused: "
    )
    assert "password authentication failed" in result.stderr
    assert "wrong-password" not in result.stderr and result.stderr.count("\n") == 1


def test_a_database_that_does_not_exist_is_one_line(postgres_server: PostgresServer) -> None:
    url = postgres_server.url("no_such_database", PASSWORD_USER, PASSWORD)
    result = run_bot(DISCORD_TOKEN="a-token", DATABASE_URL=url)
    assert result.returncode == 1
    assert 'database "no_such_database" does not exist' in result.stderr
    assert result.stderr.count("\n") == 1

"""The many-tables benchmark's main routine, run small: it plays, measures and audits."""

from __future__ import annotations

import json

import pytest

from benchmarks.tables import REQUIRED_KEYS, main, percentile
from tests.postgres_server import PostgresServer


def test_percentile_takes_the_nearest_rank() -> None:
    values = list(range(1, 101))
    assert percentile(values, 0.5) == 51
    assert percentile(values, 0.99) == 100
    assert percentile([], 0.99) == 0.0


@pytest.mark.slow
def test_a_few_tables_play_settle_every_hand_and_lose_no_chip(capsys) -> None:
    figures = main(["--tables", "4", "--seconds", "1.5", "--json", "--seed", "3"])
    printed = json.loads(capsys.readouterr().out)
    assert set(REQUIRED_KEYS) <= set(printed)
    assert printed["audit_ok"] is True
    assert printed["chips_lost"] == 0
    assert printed["hands"] > 0 and printed["hands_per_s"] > 0
    assert printed["actions_measured"] > 0
    assert printed["unsettled_hands"] == 0
    assert printed["errors"] == {}
    assert printed == json.loads(figures.to_json())


@pytest.mark.slow
def test_two_processes_share_one_postgresql_ledger_and_lose_no_chip(
    capsys, postgres_server: PostgresServer
) -> None:
    server = postgres_server.url("postgres")
    main(["--tables", "6", "--seconds", "1.5", "--json", "--seed", "5",
          "--database-url", server, "--processes", "2"])
    printed = json.loads(capsys.readouterr().out)
    assert printed["processes"] == 2 and printed["database"] == "PostgreSQL"
    assert printed["tables"] == 6 and printed["hands"] > 0
    assert printed["audit_ok"] is True and printed["chips_lost"] == 0
    assert printed["unsettled_hands"] == 0 and printed["errors"] == {}
    assert printed["machine_cpu_ms_per_hand"] >= printed["cpu_ms_per_hand"] > 0


def test_bad_arguments_are_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--tables", "0"])
    assert "must be more than 0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--processes", "2"])
    assert "--processes above 1 needs --database-url" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--levels", "easy,grandmaster"])
    assert "not a level: grandmaster" in capsys.readouterr().err


@pytest.mark.slow
def test_the_bots_levels_can_be_an_older_commits(capsys) -> None:
    main(["--tables", "2", "--seconds", "1", "--json", "--seed", "4", "--levels", "easy"])
    printed = json.loads(capsys.readouterr().out)
    assert printed["hands"] > 0 and printed["audit_ok"] is True

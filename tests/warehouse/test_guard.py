"""User SQL cannot change the warehouse or reach files outside the lake (sql, shell, export)."""

from __future__ import annotations

import shutil

import duckdb
import pytest

from flows.config import load_config
from tests.conftest import SEEDS_MBOX, mbox_source, plain_ingest, run_cli, write_config
from warehouse import guard
from warehouse.db import export_parquet, query

COUNT = "SELECT count(*) FROM benchmark_results"


@pytest.fixture(scope="module")
def wh(tmp_path_factory):
    """A warehouse of its own (the attacks must not touch the shared sample)."""
    tmp = tmp_path_factory.mktemp("guard")
    shutil.copy(SEEDS_MBOX, tmp / "seeds.mbox")
    (tmp / "outside.txt").write_text("not for sql\n")
    cfg_path = write_config(tmp, mbox_source("sample", "seeds.mbox"))
    plain_ingest(cfg_path)
    cfg = load_config(cfg_path)
    rows = query(cfg.db_path, COUNT)[1][0][0]
    assert rows > 500
    return tmp, cfg_path, cfg, rows


def _part(cfg) -> str:
    return str(sorted((cfg.data_dir / "lake" / "results").glob("part-*.parquet"))[-1])


def _attacks(tmp, cfg) -> list[str]:
    part = _part(cfg)
    lake = cfg.data_dir / "lake"
    return [
        f"COPY (SELECT * FROM all_results WHERE false) TO '{part}' (FORMAT parquet)",
        f"COPY (SELECT 1) TO '{tmp}/out.csv'",
        f"EXPORT DATABASE '{lake}/exported'",
        f"EXPORT DATABASE '{tmp}/exported'",
        f"ATTACH '{tmp}/other.duckdb' AS other",
        "INSTALL httpfs",
        "LOAD httpfs",
        "SET enable_external_access = true",
        "RESET enable_external_access",
        "SET lock_configuration = false",
        "PRAGMA enable_profiling",
        "CREATE TABLE t AS SELECT 1 AS a",
        "CREATE OR REPLACE VIEW benchmark_results AS SELECT 1 AS a",
        "INSERT INTO t VALUES (1)",
        "UPDATE t SET a = 2",
        "DELETE FROM t",
        "DROP VIEW benchmark_results",
        f"SELECT 1; COPY (SELECT * FROM all_results WHERE false) TO '{part}' (FORMAT parquet)",
        "WITH x AS (SELECT 1 AS a) INSERT INTO t SELECT a FROM x",
        f"EXPLAIN ANALYZE COPY (SELECT 1) TO '{tmp}/explained.csv'",
        f"SELECT * FROM query('COPY (SELECT 1) TO ''{tmp}/q.csv''')",
        f"SELECT * FROM read_text('{tmp}/outside.txt')",
        f"SELECT * FROM read_csv('{tmp}/outside.txt')",
        f"SELECT * FROM read_text('{lake}/../../outside.txt')",
        "SELECT * FROM read_text('/etc/passwd')",
        "SELECT * FROM glob('/etc/*')",
        "CHECKPOINT",
        "BEGIN TRANSACTION",
        "UPDATE EXTENSIONS",
        f"COPY (PIVOT (SELECT * FROM all_results WHERE false) ON unit) TO '{part}' (FORMAT parquet)",
    ]


def test_every_attack_is_refused_and_changes_nothing(wh):
    tmp, _, cfg, rows = wh
    before = sorted(p.name for p in tmp.rglob("*"))
    for sql in _attacks(tmp, cfg):
        with pytest.raises((guard.Refused, duckdb.Error)):
            query(cfg.db_path, sql)
    assert query(cfg.db_path, COUNT)[1][0][0] == rows
    assert sorted(p.name for p in tmp.rglob("*")) == before


def test_write_statements_are_refused_by_the_parser_before_running(wh):
    tmp, _, cfg, _ = wh
    for sql in (f"COPY (SELECT 1) TO '{_part(cfg)}'", "SELECT 1; DROP VIEW runs", "WITH x AS (SELECT 1) DELETE FROM t",
                f"EXPORT DATABASE '{tmp}/x'", "ATTACH ':memory:' AS m", "SET threads = 1", "LOAD json",
                "EXPLAIN ANALYZE CREATE TABLE t (a INT)", f"COPY (PIVOT (SELECT 1 AS a) ON a) TO '{tmp}/p.csv'",
                "CREATE TABLE t AS PIVOT (SELECT 1 AS a) ON a",
                "WITH x AS (SELECT 1 AS a) INSERT INTO t PIVOT x ON a"):
        with pytest.raises(guard.Refused, match="only read statements"):
            guard.read_statements(sql)


def test_reads_still_work_including_the_lake_files_and_several_statements(wh):
    _, _, cfg, rows = wh
    lake = cfg.data_dir / "lake"
    assert query(cfg.db_path, f"SELECT count(*) FROM read_parquet('{lake}/messages/*.parquet')")[1] == [(5,)]
    assert query(cfg.db_path, "SELECT 1; SELECT count(*) FROM messages")[1] == [(5,)]
    assert query(cfg.db_path, "SELECT count(*) FROM results WHERE value > ?", [0])[1][0][0] > 0
    assert query(cfg.db_path, "EXPLAIN SELECT count(*) FROM messages")[1]
    assert query(cfg.db_path, "DESCRIBE messages")[1]
    assert query(cfg.db_path, "FROM messages SELECT count(*)")[1] == [(5,)]
    pivot = "PIVOT (SELECT list_name, 1 AS one FROM messages) ON list_name USING count(one)"
    assert query(cfg.db_path, pivot) == (["sample"], [(5,)])
    assert query(cfg.db_path, COUNT)[1][0][0] == rows


def test_parquet_export_goes_through_the_same_guard(wh):
    tmp, _, cfg, _ = wh
    with pytest.raises(guard.Refused):
        export_parquet(cfg.db_path, f"COPY (SELECT 1) TO '{tmp}/c.csv'", tmp / "e.parquet")
    assert not (tmp / "c.csv").exists() and not (tmp / "e.parquet").exists()
    assert export_parquet(cfg.db_path, "SELECT * FROM messages", tmp / "m.parquet") == 5
    (tmp / "m.parquet").unlink()


def test_cli_sql_refuses_with_one_line_and_exit_1(wh):
    tmp, cfg_path, cfg, rows = wh
    part = _part(cfg)
    r = run_cli("sql", f"COPY (SELECT * FROM all_results WHERE false) TO '{part}' (FORMAT parquet)",
                "--config", str(cfg_path))
    err = r.stderr.decode()
    assert r.returncode == 1, err
    assert err.strip().splitlines() == ["listbench: refused: only read statements (SELECT) may run here; got COPY"]
    r = run_cli("sql", f"SELECT * FROM read_text('{tmp}/outside.txt')", "--config", str(cfg_path))
    assert r.returncode == 1 and "Permission Error" in r.stderr.decode()
    assert len(r.stderr.decode().strip().splitlines()) == 1
    assert query(cfg.db_path, COUNT)[1][0][0] == rows


def test_shell_runs_statements_through_the_guard(wh):
    tmp, cfg_path, cfg, rows = wh
    script = (f"COPY (SELECT * FROM all_results WHERE false) TO '{_part(cfg)}' (FORMAT parquet);\n"
              f"SELECT * FROM read_text('{tmp}/outside.txt');\n"
              "SELECT count(*) AS n FROM messages;\n")
    r = run_cli("shell", "--config", str(cfg_path), input=script.encode())
    out = r.stdout.decode()
    assert r.returncode == 0, r.stderr.decode()
    assert "error: refused: only read statements (SELECT) may run here; got COPY" in out
    assert "Permission Error" in out
    assert "not for sql" not in out and "│ 5 │" in out
    assert query(cfg.db_path, COUNT)[1][0][0] == rows

"""`listbench validate`: every suite over the whole warehouse (e.g. after a parser change).

Reports; moves nothing. The rows come from the DuckDB views (current extraction only).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from expectations import derive
from expectations.gate import run_suite
from expectations.suites import messages_expectations, results_expectations, runs_expectations
from warehouse.db import connect_readonly

TABLES = ("messages", "runs", "results")


def _rows(db_path: Path, sql: str) -> list[dict[str, Any]]:
    con = connect_readonly(db_path)
    try:
        cur = con.execute(sql)
        cols = [d[0] for d in cur.description]
        return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]
    finally:
        con.close()


def validate_warehouse(db_path: Path, list_names: list[str]) -> list[dict[str, Any]]:
    """One line per expectation that failed: table, expectation, severity, count."""
    out: list[dict[str, Any]] = []
    msgs = _rows(db_path, "SELECT message_id, list_name, posted_at FROM lake_messages")
    runs = _rows(db_path, "SELECT run_id, message_id, benchmark, parser_version, status, n_results FROM lake_runs")
    res = _rows(db_path, "SELECT r.* EXCLUDE (batch_id), u.tool_version FROM results r JOIN lake_runs u USING (run_id)")
    for r in res:
        r["params"] = dict(r["params"] or {})
    checks = (
        ("messages", messages_expectations(list_names), derive.messages_frame, msgs, ("message_id", "list_name")),
        ("runs", runs_expectations, derive.runs_frame, runs, ("run_id", "benchmark")),
        ("results", results_expectations, derive.results_frame, res, ("run_id", "metric", "value", "unit")),
    )
    for table, build, frame, rows, cols in checks:
        if not rows:
            continue
        _, findings = run_suite(f"validate:{table}", build, frame(rows), cols)
        out += [f.as_dict() for f in findings]
    return out

"""What `listbench ingest` prints after a run (this run's units, then the warehouse totals), and
the run's artifacts in Prefect."""

from __future__ import annotations

from typing import Any

from flows.config import Config

UNIT_COLUMNS = ("source", "unit", "status", "messages", "messages_added", "runs", "results",
                "quarantined", "error")


def unit_rows(summary: Any) -> list[dict[str, Any]]:
    """The units of a run (a pipeline.IngestSummary) as its `ingest-units` artifact lists them."""
    return [{c: u.get(c) for c in UNIT_COLUMNS} for u in summary.units]


def summary_markdown(summary: Any) -> str:
    """The run's `ingest-summary` artifact: units, failures, totals and quality findings."""
    total = {c: sum(int(u.get(c) or 0) for u in summary.units) for c in UNIT_COLUMNS[3:8]}
    return (f"**{len(summary.units)} units**, {len(summary.failed)} failed; "
            + ", ".join(f"{k}: {v}" for k, v in total.items())
            + "".join(f"\n- {f['severity']}: {f['expectation']} ({f['count']})" for f in summary.findings))


def print_summary(cfg: Config, result: dict[str, Any]) -> None:
    from rich.table import Table

    from flows.console import console, plain
    from warehouse.db import query

    con = console()
    t = Table(title="This run", header_style="bold")
    for c in ("source", "unit", "status", "messages", "added", "runs", "rows", "quarantined", "error"):
        t.add_column(c)
    for u in result["units"]:
        t.add_row(*[plain(v) for v in (u["source"], u["unit"], u["status"], u["messages"], u["messages_added"],
                                       u["runs"], u["results"], u["quarantined"], (u.get("error") or "")[:80])])
    con.print(t)
    _, [(msgs, rows, quarantined)] = query(
        cfg.db_path,
        "SELECT (SELECT count(*) FROM messages), (SELECT count(*) FROM benchmark_results),"
        " (SELECT count(*) FROM quarantine)",
    )
    _, per_bench = query(
        cfg.db_path,
        "SELECT benchmark, count(DISTINCT run_id) AS blocks, count(*) AS rows FROM benchmark_results"
        " GROUP BY benchmark ORDER BY benchmark",
    )
    w = Table(title=plain(f"Warehouse {cfg.db_path}"), header_style="bold")
    for c in ("benchmark", "blocks", "result rows"):
        w.add_column(c)
    for b, blocks, n in per_bench:
        w.add_row(plain(b), plain(blocks), plain(n))
    con.print(w)
    con.print(plain(f"messages: {msgs}   result rows: {rows}   quarantined rows: {quarantined}"))

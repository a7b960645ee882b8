"""What an ingest run reports: its events as it goes (for progress bars), its summary at the end,
what `listbench ingest` prints of it (this run's units, then the warehouse totals) and the run's
artifacts in Prefect."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from flows.config import Config

_OBSERVERS: list[Callable[[str, dict[str, Any]], None]] = []


def observe(callback: Callable[[str, dict[str, Any]], None]) -> Callable[[], None]:
    """Follow a run in this process (events `source` and `unit`), e.g. for progress bars."""
    _OBSERVERS.append(callback)
    return lambda: _OBSERVERS.remove(callback)


def emit(event: str, **data: Any) -> None:
    for cb in list(_OBSERVERS):
        cb(event, data)


@dataclass
class IngestSummary:
    run: str
    units: list[dict[str, Any]] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)
    alerted: list[str] = field(default_factory=list)
    alert_failures: dict[str, str] = field(default_factory=dict)  # channel -> reason (never fatal)
    docs: str | None = None
    seconds: dict[str, float] = field(default_factory=dict)  # wall time per stage

    @contextmanager
    def timed(self, stage: str) -> Iterator[None]:
        t = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[stage] = self.seconds.get(stage, 0.0) + time.perf_counter() - t

    @property
    def failed(self) -> list[dict[str, Any]]:
        return [u for u in self.units if u["status"] == "failed"]

    def as_dict(self) -> dict[str, Any]:
        return {"run": self.run, "units": self.units, "failed": len(self.failed), "findings": self.findings,
                "alerted": self.alerted, "alert_failures": self.alert_failures, "docs": self.docs,
                "seconds": {k: round(v, 3) for k, v in self.seconds.items()}}


UNIT_COLUMNS = ("source", "unit", "status", "messages", "messages_added", "runs", "results",
                "quarantined", "error")


def unit_rows(summary: IngestSummary) -> list[dict[str, Any]]:
    """The units of a run as its `ingest-units` artifact lists them."""
    return [{c: u.get(c) for c in UNIT_COLUMNS} for u in summary.units]


def summary_markdown(summary: IngestSummary) -> str:
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

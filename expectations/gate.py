"""Run the suites on a batch with Great Expectations (pandas) and route failing rows.

Row-level routing reads each failed expectation's `unexpected_index_list`
(keyed by `row_id`): the rows GX names go to quarantine with that expectation's
name; nothing is re-checked by hand. GX is imported lazily (~3 s), once per process.
"""

from __future__ import annotations

import json
import logging
import math
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from expectations.suites import RESULTS_SUITE, results_expectations

log = logging.getLogger(__name__)
_LOCK = threading.Lock()
_STATE: dict[str, Any] = {}


@dataclass(slots=True)
class Finding:
    expectation: str
    severity: str
    table: str
    count: int
    examples: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"expectation": self.expectation, "severity": self.severity, "table": self.table,
                "count": self.count, "examples": self.examples}


@dataclass(slots=True)
class GateResult:
    passed: list[dict[str, Any]]
    quarantined: list[dict[str, Any]]
    findings: list[Finding]


def _context() -> Any:
    """One ephemeral GX context per process, with progress bars and analytics off."""
    if "ctx" in _STATE:
        return _STATE["ctx"]
    os.environ.setdefault("GX_ANALYTICS_ENABLED", "False")
    for name in ("great_expectations", "great_expectations.core", "great_expectations._docs_decorators"):
        logging.getLogger(name).setLevel(logging.ERROR)
    import great_expectations as gx
    from great_expectations.data_context.types.base import ProgressBarsConfig

    ctx = gx.get_context(mode="ephemeral")
    ctx.variables.progress_bars = ProgressBarsConfig(globally=False)
    _STATE["gx"] = gx
    _STATE["ctx"] = ctx
    _STATE["asset"] = ctx.data_sources.add_pandas("listbench").add_dataframe_asset("batch")
    return ctx


def _definition(table: str, build: Callable[[], list[Any]]) -> Any:
    key = f"vd:{table}"
    if key in _STATE:
        return _STATE[key]
    ctx = _context()
    gx = _STATE["gx"]
    suite = ctx.suites.add(gx.ExpectationSuite(name=table))
    for e in build():
        suite.add_expectation(e)
    bd = _STATE["asset"].add_batch_definition_whole_dataframe(table)
    vd = ctx.validation_definitions.add(gx.ValidationDefinition(name=f"{table}_vd", data=bd, suite=suite))
    _STATE[key] = vd
    return vd


def run_suite(table: str, build: Callable[[], list[Any]], rows: list[dict[str, Any]]) -> tuple[dict[int, list[tuple[str, str, Any]]], list[Finding]]:
    """Validate `rows`; return {row index: [(expectation, severity, observed)]} and findings."""
    if not rows:
        return {}, []
    import pandas as pd

    with _LOCK:
        vd = _definition(table, build)
        df = pd.DataFrame(rows)
        df["row_id"] = range(len(df))
        res = vd.run(
            batch_parameters={"dataframe": df},
            result_format={"result_format": "COMPLETE", "unexpected_index_column_names": ["row_id"]},
        )
    bad: dict[int, list[tuple[str, str, Any]]] = {}
    merged: dict[str, Finding] = {}
    for r in res.results:
        if r.success:
            continue
        meta = r.expectation_config.meta or {}
        name = meta.get("name") or r.expectation_config.type
        severity = meta.get("severity", "error")
        col = r.expectation_config.kwargs.get("column")
        idx = [d["row_id"] for d in (r.result.get("unexpected_index_list") or [])]
        if r.exception_info and r.exception_info.get("raised_exception"):
            log.error("expectation %s raised: %s", name, r.exception_info.get("exception_message"))
        f = merged.setdefault(name, Finding(name, severity, table, 0))
        for i in idx:
            observed = rows[i].get(col) if col else None
            entries = bad.setdefault(i, [])
            if all(e[0] != name for e in entries):
                entries.append((name, severity, observed))
                f.count += 1
                if len(f.examples) < 5:
                    f.examples.append(_example(rows[i]))
    return bad, [f for f in merged.values() if f.count]


def _example(row: dict[str, Any]) -> dict[str, Any]:
    keep = ("message_id", "run_id", "benchmark", "system", "metric", "value", "unit")
    out = {k: row.get(k) for k in keep}
    v = out.get("value")
    if isinstance(v, float) and not math.isfinite(v):
        out["value"] = str(v)
    return out


def gate_results(rows: list[dict[str, Any]], *, list_name: str, batch_id: str,
                 snippets: dict[str, str] | None = None) -> GateResult:
    """Split result rows into those that load and those quarantined (severity error)."""
    bad, findings = run_suite(RESULTS_SUITE, results_expectations, rows)
    now = datetime.now(UTC)
    passed: list[dict[str, Any]] = []
    quarantined: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        errors = [e for e in bad.get(i, []) if e[1] == "error"]
        if not errors:
            passed.append(row)
            continue
        for name, severity, observed in errors:
            quarantined.append(
                {
                    "table_name": "results",
                    "expectation": name,
                    "severity": severity,
                    "run_id": row.get("run_id"),
                    "message_id": row.get("message_id"),
                    "list_name": list_name,
                    "benchmark": row.get("benchmark"),
                    "metric": row.get("metric"),
                    "value": row.get("value") if _finite(row.get("value")) else None,
                    "observed": None if observed is None else str(observed),
                    "row_json": json.dumps(row, default=str, sort_keys=True),
                    "snippet": (snippets or {}).get(row.get("run_id") or "", "")[:4000],
                    "batch_id": batch_id,
                    "detected_at": now,
                }
            )
    return GateResult(passed, quarantined, findings)


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and math.isfinite(v)

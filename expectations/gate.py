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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from expectations import derive
from expectations.suites import messages_expectations, results_expectations, runs_expectations
from transforms.records import Records
from transforms.rows import quarantine_row

log = logging.getLogger(__name__)
_LOCK = threading.RLock()
_STATE: dict[str, Any] = {}
DOCS_SITE = "listbench"


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


def merge_findings(findings: Iterable[Finding | dict[str, Any]]) -> list[dict[str, Any]]:
    """Sum findings of several batches per (table, expectation)."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for f in findings:
        d = f.as_dict() if isinstance(f, Finding) else f
        key = (d["table"], d["expectation"])
        if key not in out:
            out[key] = {**d, "examples": list(d["examples"])}
        else:
            out[key]["count"] += d["count"]
            out[key]["examples"] = (out[key]["examples"] + d["examples"])[:5]
    return sorted(out.values(), key=lambda d: (d["severity"] != "error", -d["count"]))


def _context() -> Any:
    """One ephemeral GX context per process, with progress bars and analytics off."""
    if "ctx" in _STATE:
        return _STATE["ctx"]
    os.environ.setdefault("GX_ANALYTICS_ENABLED", "False")
    for name in ("great_expectations", "great_expectations.core", "great_expectations._docs_decorators"):
        logging.getLogger(name).setLevel(logging.ERROR)
    import great_expectations as gx
    from great_expectations.data_context.types.base import ProgressBarsConfig

    logging.getLogger("great_expectations").setLevel(logging.ERROR)
    ctx = gx.get_context(mode="ephemeral")
    ctx.variables.progress_bars = ProgressBarsConfig(globally=False)
    _STATE.update(gx=gx, ctx=ctx, asset=ctx.data_sources.add_pandas("listbench").add_dataframe_asset("batch"))
    return ctx


def prewarm() -> None:
    """Import GX and build the context ahead of need (~3 s), e.g. while workers decode mail."""
    with _LOCK:
        _context()


def _checkpoint(table: str, build: Callable[[], list[Any]]) -> Any:
    key = f"cp:{table}"
    if key in _STATE:
        return _STATE[key]
    ctx = _context()
    gx = _STATE["gx"]
    suite = ctx.suites.add(gx.ExpectationSuite(name=table))
    for e in build():
        suite.add_expectation(e)
    bd = _STATE["asset"].add_batch_definition_whole_dataframe(table)
    vd = ctx.validation_definitions.add(gx.ValidationDefinition(name=f"{table}_vd", data=bd, suite=suite))
    cp = ctx.checkpoints.add(gx.Checkpoint(
        name=f"{table}_cp", validation_definitions=[vd],
        result_format={"result_format": "COMPLETE", "unexpected_index_column_names": ["row_id"]},
    ))
    _STATE[key] = cp
    return cp


def run_suite(table: str, build: Callable[[], list[Any]], df: Any,
              example_cols: tuple[str, ...]) -> tuple[dict[int, list[tuple[str, str, Any]]], list[Finding]]:
    """Validate a frame (with `row_id`); return {row_id: [(expectation, severity, observed)]} and findings."""
    if len(df) == 0:
        return {}, []
    with _LOCK:
        res = _checkpoint(table, build).run(batch_parameters={"dataframe": df})
    bad: dict[int, list[tuple[str, str, Any]]] = {}
    merged: dict[str, Finding] = {}
    records: dict[int, dict[str, Any]] = {}  # rows looked up only when an expectation failed
    for vr in res.run_results.values():
        for r in vr.results:
            if r.success:
                continue
            meta = r.expectation_config.meta or {}
            name = meta.get("name") or r.expectation_config.type
            severity = meta.get("severity", "error")
            col = r.expectation_config.kwargs.get("column")
            if r.exception_info and r.exception_info.get("raised_exception"):
                log.error("expectation %s raised: %s", name, r.exception_info.get("exception_message"))
            f = merged.setdefault(name, Finding(name, severity, table, 0))
            for d in r.result.get("unexpected_index_list") or []:
                i = int(d["row_id"])
                row = records.get(i) or records.setdefault(i, df.iloc[i].to_dict())
                entries = bad.setdefault(i, [])
                if all(e[0] != name for e in entries):
                    entries.append((name, severity, row.get(col) if col else None))
                    f.count += 1
                    if len(f.examples) < 5:
                        f.examples.append(_example(row, example_cols))
    return bad, [f for f in merged.values() if f.count]


def _example(row: dict[str, Any], cols: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k in cols:
        v = row.get(k)
        if isinstance(v, float) and not math.isfinite(v):
            v = None if math.isnan(v) else str(v)
        elif hasattr(v, "isoformat"):
            v = v.isoformat()
        elif hasattr(v, "item"):
            v = v.item()
        out[k] = v
    return out


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and math.isfinite(v)


def _quarantine_row(table: str, name: str, severity: str, observed: Any, row: dict[str, Any],
                    list_name: str | None, snippet: str, now: datetime) -> dict[str, Any]:
    """A row that failed an `error` expectation: the row itself as JSON, beside why."""
    return quarantine_row(
        table, name, severity=severity, observed=observed, run_id=row.get("run_id"),
        message_id=row.get("message_id"), list_name=list_name or row.get("list_name"),
        benchmark=row.get("benchmark"), metric=row.get("metric"),
        value=row.get("value") if _finite(row.get("value")) else None,
        row_json=json.dumps({k: v for k, v in row.items() if k not in ("snippet", "body")}, default=str, sort_keys=True),
        snippet=snippet, batch_id=row.get("batch_id"), detected_at=now)


def gate(rec: Records, *, list_names: Iterable[str]) -> list[Finding]:
    """Validate a batch's messages, runs and results; move `error` rows to quarantine in place."""
    now = datetime.now(UTC)
    names = tuple(sorted(set(list_names)))
    findings: list[Finding] = []
    list_of = {m["message_id"]: m["list_name"] for m in rec.messages}
    snippet_of = {r["run_id"]: r.get("snippet") or "" for r in rec.runs}

    def route(table: str, rows: list[dict[str, Any]], bad: dict[int, list[tuple[str, str, Any]]]) -> set[int]:
        dropped: set[int] = set()
        for i, entries in bad.items():
            errors = [e for e in entries if e[1] == "error"]
            if not errors:
                continue
            dropped.add(i)
            row = rows[i]
            for name, severity, observed in errors:
                rec.quarantine.append(_quarantine_row(
                    table, name, severity, observed, row, list_of.get(row.get("message_id")),
                    snippet_of.get(row.get("run_id") or "", ""), now))
        return dropped

    if rec.messages:
        bad, f = run_suite(f"messages:{','.join(names)}", messages_expectations(names),
                           derive.messages_frame(rec.messages), ("message_id", "list_name", "posted_at"))
        findings += f
        gone = {rec.messages[i]["message_id"] for i in route("messages", rec.messages, bad)}
        if gone:
            rec.messages = [m for m in rec.messages if m["message_id"] not in gone]
            rec.memberships = [m for m in rec.memberships if m["message_id"] not in gone]
            rec.message_bodies = [m for m in rec.message_bodies if m["message_id"] not in gone]
            rec.runs = [r for r in rec.runs if r["message_id"] not in gone]
            rec.results = [r for r in rec.results if r["message_id"] not in gone]
    if rec.runs:
        bad, f = run_suite("runs", runs_expectations, derive.runs_frame(rec.runs),
                           ("message_id", "run_id", "benchmark", "parser_version", "n_results"))
        findings += f
        gone_runs = {rec.runs[i]["run_id"] for i in route("runs", rec.runs, bad)}
        if gone_runs:
            rec.runs = [r for r in rec.runs if r["run_id"] not in gone_runs]
            rec.results = [r for r in rec.results if r["run_id"] not in gone_runs]
    if rec.results:
        version = {r["run_id"]: r.get("tool_version") for r in rec.runs}
        bad, f = run_suite("results", results_expectations, derive.results_frame(rec.results, version),
                           ("message_id", "run_id", "benchmark", "system", "metric", "value", "unit"))
        findings += f
        dropped = route("results", rec.results, bad)
        if dropped:
            rec.results = [r for i, r in enumerate(rec.results) if i not in dropped]
    return findings


def build_docs(docs_dir: Path) -> Path | None:
    """Render GX Data Docs for the validations of this process into `docs_dir`."""
    if "ctx" not in _STATE:
        return None
    ctx = _STATE["ctx"]
    with _LOCK:
        if "docs" not in _STATE:
            for site in list(ctx.get_config().data_docs_sites or {}):
                ctx.delete_data_docs_site(site)
            ctx.add_data_docs_site(DOCS_SITE, {
                "class_name": "SiteBuilder",
                "store_backend": {"class_name": "TupleFilesystemStoreBackend", "base_directory": str(docs_dir)},
                "site_index_builder": {"class_name": "DefaultSiteIndexBuilder"},
            })
            _STATE["docs"] = str(docs_dir)
        try:
            ctx.build_data_docs(site_names=[DOCS_SITE])
        except Exception as exc:  # docs are a report, not part of the load
            log.warning("data docs not built: %s", exc)
            return None
    index = Path(docs_dir) / "index.html"
    return index if index.exists() else None

"""Re-running the current parsers over stored message bodies (no network).

Each affected message gets a new extraction (runs, results, quarantine, and an
`extractions` row) committed as one atomic batch; the views switch to it at once.
Reports rows added / changed / removed against the extraction it replaces.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from flows.config import Config
from flows.workers import MessageTimeout, message_budget
from transforms.extract import extract_runs
from transforms.records import PARSER_VERSIONS, Records, add_extraction, add_runs, flag_collapsed
from warehouse.db import open_writer, refresh_views_if_needed
from warehouse.lake import Lake, new_batch_id
from warehouse.schema import to_table


@dataclass
class ReextractReport:
    messages: int = 0
    added: int = 0
    changed: int = 0
    removed: int = 0
    unchanged: int = 0
    quarantined: int = 0
    lost_rows: list[dict[str, Any]] = field(default_factory=list)  # messages whose row count fell
    timed_out: list[str] = field(default_factory=list)  # messages over the time budget, left as they were
    findings: list[dict[str, Any]] = field(default_factory=list)
    alert_failures: dict[str, str] = field(default_factory=dict)  # channel -> reason

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _key(r: dict[str, Any]) -> tuple:
    """Identity of a value across extractions: run ids are stable (message + block index)."""
    p = r.get("params") or {}
    items = sorted(p.items()) if isinstance(p, dict) else sorted(p)
    return (r["run_id"], r["benchmark"], r["system"], r["metric"], tuple(items), r.get("statistic"))


def _current(lake: Lake) -> tuple[dict[str, str], dict[str, str]]:
    """Current extraction batch per message, and the parser versions it used."""
    ex = lake.read("extractions").to_pylist()
    best: dict[str, dict[str, Any]] = {}
    for e in ex:
        cur = best.get(e["message_id"])
        if cur is None or (e["extracted_at"], e["batch_id"]) > (cur["extracted_at"], cur["batch_id"]):
            best[e["message_id"]] = e
    return ({m: e["batch_id"] for m, e in best.items()},
            {m: str(sorted(dict(e["parsers"] or []).items())) for m, e in best.items()})


def reextract(cfg: Config, benchmark: str | None = None, since: str | None = None,
              until: str | None = None) -> ReextractReport:
    from expectations.gate import gate

    report = ReextractReport()
    lake = open_writer(cfg.lake_dir, cfg.storage, cfg.db_path, "reextract:" + benchmark if benchmark else "reextract")
    current, versions = _current(lake)
    msgs = {r["message_id"]: r for r in lake.read("messages", ["message_id", "list_name", "posted_at", "subject", "notes"]).to_pylist()}
    bodies = lake.read("message_bodies", ["message_id", "body"])
    old_results = lake.read("results")
    old_by_msg: dict[str, list[dict[str, Any]]] = defaultdict(list)
    wanted_batches = set(current.values())
    mask = pc.is_in(old_results.column("batch_id"), value_set=pa.array(list(wanted_batches), pa.string()))
    for r in old_results.filter(mask).to_pylist():
        if current.get(r["message_id"]) == r["batch_id"]:
            r["params"] = dict(r["params"] or [])
            old_by_msg[r["message_id"]].append(r)
    batch_id = new_batch_id()
    now = datetime.now(UTC)
    rec = Records()
    seen: set[str] = set()
    for mid, body in zip(bodies.column("message_id").to_pylist(), bodies.column("body").to_pylist(), strict=True):
        m = msgs.get(mid)
        if mid in seen or m is None or not _in_window(m["posted_at"], since, until):
            continue
        seen.add(mid)
        try:
            with message_budget(cfg.limits.message_timeout_s):
                runs = extract_runs(body, mid, subject=m["subject"])  # as ingest read it
        except MessageTimeout:
            report.timed_out.append(mid)
            continue
        flag_collapsed(runs, m["notes"])
        if benchmark:
            runs = [r for r in runs if r.run.benchmark == benchmark]
            kept = [r for r in old_by_msg.get(mid, []) if r["benchmark"] != benchmark]
        else:
            kept = []
        sub = Records()
        add_runs(sub, runs, mid, list_name=m["list_name"], batch_id=batch_id, detected_at=now)
        new_rows = sub.results + [{**r, "batch_id": batch_id} for r in kept]
        old_rows = old_by_msg.get(mid, [])
        if _same(old_rows, new_rows) and not sub.quarantine:
            continue
        report.messages += 1
        _diff(report, old_rows, new_rows)
        if len(new_rows) < len(old_rows) and versions.get(mid) == str(sorted(PARSER_VERSIONS.items())):
            report.lost_rows.append({"message_id": mid, "before": len(old_rows), "after": len(new_rows)})
        rec.runs += sub.runs + _kept_runs(lake, current.get(mid), kept, batch_id)
        rec.results += new_rows
        rec.quarantine += sub.quarantine
        add_extraction(rec, mid, batch_id=batch_id, at=now, reason=f"reextract{':' + benchmark if benchmark else ''}")
    if rec.extractions:
        report.findings = [f.as_dict() for f in gate(rec, list_names=[s.name for s in cfg.sources])]
        report.quarantined = len(rec.quarantine)
        lake.commit(batch_id, {name: to_table(name, rows) for name, rows in rec.tables().items()})
    lake.views.wait()
    refresh_views_if_needed(cfg.db_path, lake)
    _alert(cfg, report)
    return report


def _alert(cfg: Config, report: ReextractReport) -> None:
    """A parser change that loses rows (same parser version) or trips a suite alerts like an ingest."""
    from expectations import alerts

    findings = list(report.findings)
    if report.lost_rows:
        findings.append({"expectation": "rows per message not fewer than before (same parser version)",
                         "severity": "warning", "table": "results", "count": len(report.lost_rows),
                         "examples": report.lost_rows[:5]})
    if findings:
        got = alerts.deliver(cfg, alerts.build_alert("reextract", [s.name for s in cfg.sources], findings, None))
        report.alert_failures = got.failed


def _kept_runs(lake: Lake, old_batch: str | None, kept: list[dict[str, Any]], batch_id: str) -> list[dict[str, Any]]:
    if not kept or old_batch is None:
        return []
    run_ids = {r["run_id"] for r in kept}
    tbl = lake.read("runs")
    runs = tbl.filter(pc.equal(tbl.column("batch_id"), old_batch)).to_pylist()
    out = []
    for r in runs:
        if r["run_id"] in run_ids:
            r["attributes"] = dict(r["attributes"] or [])
            out.append({**r, "batch_id": batch_id})
    return out


def _same(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> bool:
    return sorted((_key(r), r["value"], r["unit"]) for r in old) == sorted((_key(r), r["value"], r["unit"]) for r in new)


def _diff(report: ReextractReport, old: list[dict[str, Any]], new: list[dict[str, Any]]) -> None:
    o = {_key(r): r["value"] for r in old}
    n = {_key(r): r["value"] for r in new}
    report.added += len(n.keys() - o.keys())
    report.removed += len(o.keys() - n.keys())
    both = n.keys() & o.keys()
    report.changed += sum(1 for k in both if n[k] != o[k])
    report.unchanged += sum(1 for k in both if n[k] == o[k])


def _in_window(posted: datetime | None, since: str | None, until: str | None) -> bool:
    if posted is None:
        return since is None and until is None
    month = posted.strftime("%Y-%m")
    return (since is None or month >= since) and (until is None or month <= until)

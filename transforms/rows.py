"""The one builder of every lake row: each function returns exactly its table's columns.

`warehouse.schema.to_table` refuses a row with a missing or an extra key, so a column
added to a schema fails here, in one place, instead of loading as NULL. `extract`
(listbench extract, the golden tests) and the lake build result rows with the same
`result_row`, so what the tests check is what the lake stores.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from transforms.mail import Mail
from transforms.model import Result

if TYPE_CHECKING:  # the parsers behind it are imported only where messages are extracted
    from transforms.extract import ExtractedRun

SNIPPET_CHARS = 4000


def message_row(mail: Mail, *, list_name: str, unit: str, archive_url: str | None, url: str | None,
                batch_id: str, notes: list[str] | None = None) -> dict[str, Any]:
    return {
        "message_id": mail.message_id,
        "list_name": list_name,
        "posted_at": mail.posted_at,
        "from_name": mail.from_name,
        "subject": mail.subject,
        "in_reply_to": mail.in_reply_to,
        "thread_id": mail.thread_root,
        "archive_url": archive_url,
        "url": url,
        "unit": unit,
        "notes": (mail.notes if notes is None else notes) or None,
        "batch_id": batch_id,
    }


def membership_row(message_id: str, *, list_name: str, unit: str, archive_url: str | None,
                   batch_id: str) -> dict[str, Any]:
    return {"message_id": message_id, "list_name": list_name, "unit": unit, "archive_url": archive_url,
            "batch_id": batch_id}


def body_row(message_id: str, body: str, batch_id: str) -> dict[str, Any]:
    return {"message_id": message_id, "body": body, "batch_id": batch_id}


def extraction_row(message_id: str, *, batch_id: str, at: Any, parsers: dict[str, str],
                   reason: str) -> dict[str, Any]:
    return {"message_id": message_id, "batch_id": batch_id, "extracted_at": at, "parsers": parsers,
            "reason": reason}


def result_row(er: ExtractedRun, r: Result, index: int, message_id: str, batch_id: str | None) -> dict[str, Any]:
    """One value of a run; the system of the row wins over the run's."""
    run = er.run
    return {
        "run_id": er.run_id,
        "message_id": message_id,
        "result_index": index,
        "benchmark": run.benchmark,
        "system": r.system if r.system is not None else run.system,
        "metric": r.metric,
        "metric_label": r.metric_label,
        "params": {str(k): str(v) for k, v in r.params.items()},
        "value": float(r.value),
        "unit": r.unit,
        "higher_is_better": r.higher_is_better,
        "statistic": r.statistic,
        "alignment": r.alignment,
        "layout": r.layout,
        "quoted": er.quoted,
        "batch_id": batch_id,
    }


def result_rows_of(er: ExtractedRun, message_id: str, batch_id: str | None) -> Iterator[dict[str, Any]]:
    """The result rows of a run that parsed; a failed run has none (it is quarantined)."""
    if er.run.status == "ok":
        for i, r in enumerate(er.run.results):
            yield result_row(er, r, i, message_id, batch_id)


EXTRACT_KEYS = ("run_id", "benchmark", "tool_version", "system", "metric", "metric_label", "params", "value",
                "unit", "higher_is_better", "statistic", "quoted", "alignment", "layout")


def result_rows(runs: Iterable[ExtractedRun], meta: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """What `listbench extract` prints: the lake's result rows (same builder) that would load.

    A non-finite value never reaches `benchmark_results` (the results suite quarantines it),
    so it is not printed either; the run's tool version rides along, as the view joins it.
    """
    rows: list[dict[str, Any]] = []
    for er in runs:
        for row in result_rows_of(er, "", None):
            if math.isfinite(row["value"]):
                row["tool_version"] = er.run.tool_version
                rows.append({**(meta or {}), **{k: row[k] for k in EXTRACT_KEYS}})
    return rows


def run_row(er: ExtractedRun, message_id: str, *, n_results: int, batch_id: str) -> dict[str, Any]:
    run = er.run
    return {
        "run_id": er.run_id,
        "message_id": message_id,
        "block_index": er.block_index,
        "benchmark": run.benchmark,
        "parser": er.parser.name,
        "parser_version": er.parser.version,
        "tool_version": run.tool_version,
        "system": run.system,
        "caption": run.caption,
        "quoted": er.quoted,
        "line_start": er.line_start,
        "line_end": er.line_end,
        "status": run.status,
        "notes": (run.notes + ([run.reason] if run.reason else [])) or None,
        "attributes": {str(k): str(v) for k, v in run.attributes.items()},
        "content_hash": er.content_hash,
        "n_results": n_results,
        "snippet": er.snippet,
        "batch_id": batch_id,
    }


def quarantine_row(table_name: str, expectation: str, *, observed: Any, row_json: str, batch_id: str | None,
                   detected_at: Any, severity: str = "error", run_id: str | None = None,
                   message_id: str | None = None, list_name: str | None = None, benchmark: str | None = None,
                   metric: str | None = None, value: float | None = None, snippet: str = "") -> dict[str, Any]:
    """Why a row (or a block, or a message) did not load, with enough to find and replay it."""
    return {
        "table_name": table_name,
        "expectation": expectation,
        "severity": severity,
        "run_id": run_id,
        "message_id": message_id,
        "list_name": list_name,
        "benchmark": benchmark,
        "metric": metric,
        "value": value,
        "observed": None if observed is None else str(observed),
        "row_json": row_json,
        "snippet": (snippet or "")[:SNIPPET_CHARS],
        "batch_id": batch_id,
        "detected_at": detected_at,
    }


def unparsed_block_row(er: ExtractedRun, message_id: str, *, list_name: str, batch_id: str,
                       detected_at: Any) -> dict[str, Any]:
    """The quarantine row of a block its parser recognised but could not read."""
    return quarantine_row("runs", "unparsed block", observed=er.run.reason, run_id=er.run_id, message_id=message_id,
                          list_name=list_name, benchmark=er.run.benchmark,
                          row_json=json.dumps({"line_start": er.line_start, "line_end": er.line_end}),
                          snippet=er.snippet, batch_id=batch_id, detected_at=detected_at)

"""Data-quality and pipeline-health alerts: one message per run that has findings.

Channels: a generic JSON webhook and a Slack incoming webhook (httpx), e-mail
over SMTP (smtplib). Secrets come from the environment (or the config for
local, non-secret endpoints) and are never logged: failures name the channel only.
"""

from __future__ import annotations

import json
import logging
import os
import smtplib
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any, Protocol

import httpx

from warehouse.lake import Lake


class Config(Protocol):
    """What alerts read of the caller's settings (flows.config.Config has it; expectations/ does
    not import flows/)."""

    alerts: dict[str, Any]
    quality: dict[str, Any]
    sources: Sequence[Any]

log = logging.getLogger("listbench.alerts")
DEFAULT_MAX_QUARANTINE_SHARE = 0.05
DEFAULT_FAILED_RUNS = 3


def quarantine_share_finding(rows: int, quarantined: int, threshold: float) -> dict[str, Any] | None:
    total = rows + quarantined
    if total == 0 or quarantined / total <= threshold:
        return None
    return {"expectation": f"quarantined share <= {threshold:.0%}", "severity": "error", "table": "results",
            "count": quarantined, "examples": [{"rows": rows, "quarantined": quarantined,
                                                "share": round(quarantined / total, 4)}]}


def health_findings(cfg: Config, lake: Lake, now: datetime | None = None) -> list[dict[str, Any]]:
    """A source failing N runs in a row; a list with traffic but no new message for `quiet_days`."""
    now = now or datetime.now(UTC)
    out: list[dict[str, Any]] = []
    n_runs = int(cfg.quality.get("failed_runs_alert", DEFAULT_FAILED_RUNS))
    ledger = lake.read("archives", ["source", "ingest_run", "status", "fetched_at"]).to_pylist()
    runs: dict[str, dict[str, tuple[datetime, bool]]] = defaultdict(dict)
    for r in ledger:
        if not r["ingest_run"]:
            continue
        at, failed = runs[r["source"]].get(r["ingest_run"], (r["fetched_at"], False))
        runs[r["source"]][r["ingest_run"]] = (max(at, r["fetched_at"]), failed or r["status"] == "failed")
    for source, by_run in runs.items():
        last = sorted(by_run.values())[-n_runs:]
        if len(last) == n_runs and all(f for _, f in last):
            out.append({"expectation": f"source fails {n_runs} runs in a row", "severity": "error",
                        "table": "archives", "count": n_runs, "examples": [{"source": source}]})
    quiet = {s.name: int(s.option("quiet_days", cfg.quality.get("quiet_days", 0)) or 0) for s in cfg.sources}
    if any(quiet.values()):
        msgs = lake.read("messages", ["list_name", "posted_at"]).to_pylist()
        latest: dict[str, datetime] = {}
        for m in msgs:
            if m["posted_at"] is not None and m["posted_at"] > latest.get(m["list_name"], datetime.min.replace(tzinfo=UTC)):
                latest[m["list_name"]] = m["posted_at"]
        for name, days in quiet.items():
            if days and name in latest and now - latest[name] > timedelta(days=days):
                out.append({"expectation": f"new messages within {days} days", "severity": "warning",
                            "table": "messages", "count": 1,
                            "examples": [{"source": name, "last_message": latest[name].isoformat()}]})
    return out


def build_alert(run: str, sources: list[str], findings: list[dict[str, Any]], docs: str | None) -> dict[str, Any]:
    errors = sum(f["count"] for f in findings if f["severity"] == "error")
    warnings = sum(f["count"] for f in findings if f["severity"] != "error")
    names = ", ".join(sorted({f["expectation"] for f in findings}))
    return {
        "run": run,
        "source": ", ".join(sources),
        "summary": f"{errors} error and {warnings} warning finding(s): {names}",
        "failures": findings,
        "query": "listbench sql \"SELECT expectation, count(*) FROM quarantine GROUP BY 1 ORDER BY 2 DESC\"",
        "docs": docs,
    }


def _channels(cfg: Config) -> dict[str, Any]:
    a = cfg.alerts
    return {
        "webhook": os.environ.get("LISTBENCH_WEBHOOK_URL") or a.get("webhook_url"),
        "slack": os.environ.get("LISTBENCH_SLACK_WEBHOOK_URL") or a.get("slack_webhook_url"),
        "smtp": a.get("smtp") if isinstance(a.get("smtp"), dict) else None,
    }


@dataclass
class Delivery:
    """What an alert reached: channels that accepted it, and the reason (an exception name) per failure."""

    sent: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)


def send_alert(cfg: Config, alert: dict[str, Any], timeout: float = 10.0) -> list[str]:
    """Deliver to every configured channel; returns the channels that accepted it."""
    return deliver(cfg, alert, timeout).sent


def deliver(cfg: Config, alert: dict[str, Any], timeout: float = 10.0) -> Delivery:
    """Try every configured channel on its own: one broken channel (a bad URL, a refused
    connection, a malformed address) is recorded and logged, and costs no other."""
    out = Delivery()
    ch = _channels(cfg)
    tries: list[tuple[str, Callable[[], None]]] = []
    if ch["webhook"]:
        tries.append(("webhook", lambda: _post(ch["webhook"], alert, timeout)))
    if ch["slack"]:
        tries.append(("slack", lambda: _post(ch["slack"], _slack_payload(alert), timeout)))
    if ch["smtp"]:
        tries.append(("smtp", lambda: _mail(ch["smtp"], alert, timeout)))
    for name, send in tries:
        try:
            send()
        except Exception as exc:  # never fatal; the name only (URLs and addresses may hold secrets)
            log.error("alert channel %s failed: %s", name, type(exc).__name__)
            out.failed[name] = type(exc).__name__
        else:
            out.sent.append(name)
    return out


def _slack_payload(alert: dict[str, Any]) -> dict[str, Any]:
    text = f"*listbench data quality* ({alert['source']}): {alert['summary']}\n" + "\n".join(
        f"- {f['severity']}: {f['expectation']} ({f['table']}): {f['count']}" for f in alert["failures"][:10])
    return {"text": text + f"\nQuery: `{alert['query']}`"}


def _post(url: str, payload: dict[str, Any], timeout: float) -> None:
    r = httpx.post(url, json=payload, timeout=timeout)
    r.raise_for_status()


def _mail(smtp: dict[str, Any], alert: dict[str, Any], timeout: float) -> None:
    msg = EmailMessage()
    msg["Subject"] = f"[listbench] data quality: {alert['summary'][:120]}"
    msg["From"] = smtp.get("from", "listbench@localhost")
    to = smtp.get("to", [])
    msg["To"] = ", ".join(to if isinstance(to, list) else [to])
    msg.set_content(json.dumps(alert, indent=2, default=str))
    with smtplib.SMTP(smtp.get("host", "127.0.0.1"), int(smtp.get("port", 25)), timeout=timeout) as s:
        if smtp.get("starttls"):
            s.starttls()
        user = smtp.get("username")
        password = os.environ.get(smtp.get("password_env", "LISTBENCH_SMTP_PASSWORD"))
        if user and password:
            s.login(user, password)
        s.send_message(msg)

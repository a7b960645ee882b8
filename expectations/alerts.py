"""Data-quality and pipeline-health alerts: one message per run that has findings.

Targets are URLs, one each: apprise reaches Slack, e-mail, Teams, Discord, Matrix and the
rest; a JSON webhook receives the alert body of the design (httpx). Secrets come from the
environment (or the config for local, non-secret endpoints) and are never logged: failures
name the target's scheme only.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol
from urllib.parse import quote, urlencode

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
# one address, no blanks or control characters (a CR/LF would add headers or recipients)
_ADDRESS = re.compile(r"^[^\s@<>,;:\"()\[\]\\]{1,64}@[A-Za-z0-9.-]{1,253}$")
_HOST = re.compile(r"^[A-Za-z0-9.-]{1,253}$")


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


@dataclass(frozen=True)
class Target:
    """One place an alert goes: `name` is what logs and run summaries show (never the URL, which
    may hold a token or a password); `how` is "json" (the alert body of DESIGN.md, POSTed as is),
    "slack-webhook" (a Slack incoming-webhook body), "smtp" (the `[alerts.smtp]` table) or
    "apprise" (any other service)."""

    name: str
    url: Any = field(repr=False)
    how: str


def targets(cfg: Config) -> list[Target]:
    """Every configured target, one URL each.

    `[alerts] urls = [...]` and `LISTBENCH_ALERT_URLS` (blank-separated, for URLs that hold
    secrets) take apprise URLs: `slack://`, `mailto://`, `msteams://`, `discord://`,
    `matrix://`, ...; `json://host/path` and `jsons://` receive the JSON alert body itself.
    The older keys still work: `webhook_url` / `LISTBENCH_WEBHOOK_URL` (JSON body),
    `slack_webhook_url` / `LISTBENCH_SLACK_WEBHOOK_URL`, and an `[alerts.smtp]` table (password
    from the environment variable its `password_env` names, default LISTBENCH_SMTP_PASSWORD).
    """
    a = cfg.alerts
    out: list[Target] = []
    if webhook := os.environ.get("LISTBENCH_WEBHOOK_URL") or a.get("webhook_url"):
        out.append(Target("webhook", webhook, "json"))
    if slack := os.environ.get("LISTBENCH_SLACK_WEBHOOK_URL") or a.get("slack_webhook_url"):
        out.append(Target("slack", slack, "slack-webhook"))
    if isinstance(a.get("smtp"), dict):
        out.append(Target("smtp", a["smtp"], "smtp"))
    listed = a.get("urls") or []
    urls = [listed] if isinstance(listed, str) else [str(u) for u in listed]
    for url in urls + os.environ.get("LISTBENCH_ALERT_URLS", "").split():
        scheme = url.split("://", 1)[0].lower() if "://" in url else "url"
        name, n = scheme, 1
        while any(t.name == name for t in out):
            n += 1
            name = f"{scheme}-{n}"
        out.append(Target(name, url, "json" if scheme in ("json", "jsons") else "apprise"))
    return out


@dataclass
class Delivery:
    """What an alert reached: targets that accepted it, and the reason (an exception name) per failure."""

    sent: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)


def send_alert(cfg: Config, alert: dict[str, Any], timeout: float = 10.0) -> list[str]:
    """Deliver to every configured target; returns the targets that accepted it."""
    return deliver(cfg, alert, timeout).sent


def deliver(cfg: Config, alert: dict[str, Any], timeout: float = 10.0) -> Delivery:
    """Try every configured target on its own: one broken target (a bad URL, a refused
    connection, a malformed address) is recorded and logged, and costs no other."""
    out = Delivery()
    for t in targets(cfg):
        try:
            _send(t, alert, timeout)
        except Exception as exc:  # never fatal; the name only (URLs and addresses may hold secrets)
            log.error("alert channel %s failed: %s", t.name, type(exc).__name__)
            out.failed[t.name] = type(exc).__name__
        else:
            out.sent.append(t.name)
    return out


class NotDelivered(Exception):
    """The service did not accept the alert (apprise says why in its own log, without secrets)."""


def _send(t: Target, alert: dict[str, Any], timeout: float) -> None:
    if t.how == "json":
        url = t.url
        if url.startswith(("json://", "jsons://")):
            url = ("https://" if url.startswith("jsons://") else "http://") + url.split("://", 1)[1]
        _post(url, alert, timeout)
    elif t.how == "slack-webhook":
        _post(t.url, _slack_payload(alert), timeout)
    elif t.how == "smtp":
        _notify(_mailto(t.url), alert, timeout)
    else:
        _notify(t.url, alert, timeout)


def _notify(url: str, alert: dict[str, Any], timeout: float) -> None:
    """One apprise URL: the alert as a title and a text body (e-mail gets the JSON alert)."""
    import apprise  # loads its plugins (about a second): only when an alert goes out

    if "cto=" not in url:
        url += f"{'&' if '?' in url else '?'}cto={timeout:g}&rto={timeout:g}"
    target = apprise.Apprise()
    if not target.add(url):
        raise NotDelivered("not a URL apprise knows")
    mail = url.startswith(("mailto://", "mailtos://"))
    body = json.dumps(alert, indent=2, default=str) if mail else _text(alert)
    if not target.notify(title=f"[listbench] data quality: {alert['summary'][:120]}", body=body):
        raise NotDelivered("the service did not accept the alert")


def _mailto(smtp: dict[str, Any]) -> str:
    """The `[alerts.smtp]` table as an apprise `mailto://` URL (its password from the environment).

    Addresses are checked first: a CR or LF would let a value add headers or recipients.
    """
    to = smtp.get("to", [])
    to = [str(t) for t in (to if isinstance(to, list) else [to])]
    sender = str(smtp.get("from", "listbench@localhost"))
    if not to or not all(_ADDRESS.match(addr) for addr in [sender, *to]):
        raise ValueError("not a plain e-mail address")
    host = str(smtp.get("host", "127.0.0.1"))
    if not _HOST.match(host):
        raise ValueError("not a host name")
    user = smtp.get("username")
    password = os.environ.get(smtp.get("password_env", "LISTBENCH_SMTP_PASSWORD"))
    login = f"{quote(str(user), safe='')}:{quote(password, safe='')}@" if user and password else ""
    scheme = "mailtos" if smtp.get("starttls") else "mailto"
    query = {"from": sender, "to": ",".join(to), "smtp": host}
    if scheme == "mailto":
        query["mode"] = "insecure"
    return f"{scheme}://{login}{host}:{int(smtp.get('port', 25))}?{urlencode(query)}"


def _text(alert: dict[str, Any]) -> str:
    text = f"*listbench data quality* ({alert['source']}): {alert['summary']}\n" + "\n".join(
        f"- {f['severity']}: {f['expectation']} ({f['table']}): {f['count']}" for f in alert["failures"][:10])
    return text + f"\nQuery: `{alert['query']}`"


def _slack_payload(alert: dict[str, Any]) -> dict[str, Any]:
    return {"text": _text(alert)}


def _post(url: str, payload: dict[str, Any], timeout: float) -> None:
    r = httpx.post(url, json=payload, timeout=timeout)
    r.raise_for_status()

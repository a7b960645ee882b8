"""A finished `ingest` flow run recorded through Prefect's REST API, without importing Prefect.

Importing Prefect costs about two CPU seconds, more than a run that finds nothing new needs in
all (flows.checkfirst). Recording such a run takes five small requests: the flow's id (created
if new), a flow run set Running then Completed (Prefect stamps its start and end), and the
`ingest-units` and `ingest-summary` artifacts the flow itself publishes. The API and its
credentials come from the environment, as Prefect reads them: PREFECT_API_URL,
PREFECT_API_AUTH_STRING (Basic) or PREFECT_API_KEY (Bearer), PREFECT_API_SSL_CERT_FILE and
PREFECT_API_TLS_INSECURE_SKIP_VERIFY.
"""

from __future__ import annotations

import base64
import json
import os
import ssl
import urllib.error
import urllib.request
from typing import Any

from flows.summary import IngestSummary, summary_markdown, unit_rows

TIMEOUT_S = 15.0
MAX_ERROR_CHARS = 200
NO_CHANGE_TAG = "no-change"


class RecordError(Exception):
    """The API did not take the record (one line: status or reason; never a credential)."""


def _headers() -> dict[str, str]:
    h = {"Content-Type": "application/json", "Accept": "application/json"}
    auth, key = os.environ.get("PREFECT_API_AUTH_STRING"), os.environ.get("PREFECT_API_KEY")
    if auth:
        h["Authorization"] = "Basic " + base64.b64encode(auth.encode()).decode()
    elif key:
        h["Authorization"] = f"Bearer {key}"
    return h


def _tls() -> ssl.SSLContext | None:
    if os.environ.get("PREFECT_API_TLS_INSECURE_SKIP_VERIFY", "").lower() in ("1", "true", "yes"):
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        return ctx
    cafile = os.environ.get("PREFECT_API_SSL_CERT_FILE")
    return ssl.create_default_context(cafile=cafile) if cafile else None


def _call(api: str, method: str, path: str, body: Any = None) -> Any:
    if not api.startswith(("http://", "https://")):
        raise RecordError("PREFECT_API_URL is not an http(s) URL")
    data = None if body is None else json.dumps(body, default=str).encode()
    req = urllib.request.Request(api.rstrip("/") + path, data=data, method=method, headers=_headers())
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT_S, context=_tls()) as resp:
            text = resp.read()
    except urllib.error.HTTPError as exc:
        raise RecordError(f"{method} {path}: HTTP {exc.code}") from None
    except (OSError, ValueError) as exc:  # refused, timed out, TLS, a malformed URL
        raise RecordError(f"{method} {path}: {type(exc).__name__}: {str(exc)[:MAX_ERROR_CHARS]}") from None
    try:
        return json.loads(text) if text else None
    except ValueError:
        raise RecordError(f"{method} {path}: not JSON") from None


def flow_id(api: str, name: str) -> str:
    """The id of the flow called `name` (Prefect creates it on first use, as a flow run does)."""
    got = _call(api, "POST", "/flows/", {"name": name})
    if not isinstance(got, dict) or not isinstance(got.get("id"), str):
        raise RecordError("POST /flows/: no flow id in the answer")
    return got["id"]


def record_flow_run(api: str, flow: str, parameters: dict[str, Any], summary: IngestSummary,
                    seconds: float) -> str:
    """Record a finished run of `flow` (its id) for `summary`; returns
    the flow run's id. Completed with a message counting the units, like a flow that returned."""
    units = summary.units
    failed = len(summary.failed)
    run = _call(api, "POST", "/flow_runs/", {
        "flow_id": flow, "parameters": parameters, "tags": [NO_CHANGE_TAG],
        "state": {"type": "RUNNING", "name": "Running"},
    })
    if not isinstance(run, dict) or not isinstance(run.get("id"), str):
        raise RecordError("POST /flow_runs/: no flow run id in the answer")
    run_id = run["id"]
    message = (f"run {summary.run}: {len(units)} units checked, none changed"
               + (f", {failed} failed" if failed else "") + f"; {seconds:.2f} s, no flow tasks")
    _call(api, "POST", f"/flow_runs/{run_id}/set_state",
          {"state": {"type": "COMPLETED", "name": "Completed", "message": message}})
    _call(api, "POST", "/artifacts/", {
        "key": "ingest-units", "type": "table", "data": json.dumps(unit_rows(summary), default=str),
        "description": "Units processed by this run", "flow_run_id": run_id})
    _call(api, "POST", "/artifacts/", {"key": "ingest-summary", "type": "markdown",
                                       "data": summary_markdown(summary), "flow_run_id": run_id})
    return run_id

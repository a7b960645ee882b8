"""Columns the suites check that GX cannot compute by itself (registry lookups,
cross-row relations such as a UnixBench index against its raw result).

These only prepare values; whether a row passes is decided by an expectation
in `expectations.suites`, and row routing reads GX's unexpected rows.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

import numpy as np
import pandas as pd

from transforms.parsers import metric_spec

DEFAULT_MAX_CPUS = 64


RESULT_COLUMNS = ("message_id", "run_id", "benchmark", "metric", "unit", "system", "statistic", "value",
                  "params", "tool_version")


def results_frame(rows: list[dict[str, Any]], versions: dict[str, str | None] | None = None) -> pd.DataFrame:
    """The results batch as a frame with the derived check columns added.

    Built column by column from plain lists (iterating pandas' Arrow-backed string
    columns costs ~1 us a cell; this is the hot path of validating 1M rows).
    """
    n = len(rows)
    col = {c: [r.get(c) for r in rows] for c in RESULT_COLUMNS}
    if versions is not None:  # tool versions live on runs; the gate passes them by run id
        col["tool_version"] = [versions.get(rid) for rid in col["run_id"]]
    values = [v if isinstance(v, (int, float)) else np.nan for v in col["value"]]
    stat = [s or "value" for s in col["statistic"]]
    units = col["unit"]
    specs: dict[tuple, Any] = {}
    spec_col = []
    for b, m in zip(col["benchmark"], col["metric"], strict=True):
        key = (b, m)
        if key not in specs:
            specs[key] = metric_spec(b, m) if isinstance(b, str) and isinstance(m, str) else None
        spec_col.append(specs[key])
    rng = np.full(n, np.nan)
    nonneg = np.full(n, np.nan)
    allowed: list[bool | None] = [None] * n
    for i, sp in enumerate(spec_col):
        if sp is None:
            continue
        u, st, v = units[i], stat[i], values[i]
        if isinstance(u, str):
            allowed[i] = sp.allows(u, st)
        if not math.isfinite(v) or st in ("derived", "index", "score"):
            continue
        if u == sp.unit and sp.low is not None and sp.high is not None and sp.high > sp.low:
            rng[i] = (v - sp.low) / (sp.high - sp.low)
        if sp.nonnegative:
            nonneg[i] = v
    params = col["params"]
    frame = {c: col[c] for c in ("message_id", "run_id", "benchmark", "metric", "unit", "system")}
    frame["statistic"] = stat
    frame["layout"] = [r.get("layout") or "tool_output" for r in rows]
    frame["value"] = np.asarray(values, dtype="float64")
    frame["row_id"] = np.arange(n)
    frame["metric_known"] = [sp is not None for sp in spec_col]
    frame["unit_allowed"] = pd.array(allowed, dtype="boolean")
    frame["range_pos"] = rng
    frame["nonneg_value"] = nonneg
    frame["index_ratio"] = _unixbench_index_ratio(col)
    frame["score_ratio"] = _unixbench_score_ratio(col)
    frame["netperf_size"] = [
        p.get("size") if b == "netperf" and isinstance(p, dict) else None
        for b, p in zip(col["benchmark"], params, strict=True)
    ]
    frame["cpu_share"] = np.where(np.asarray([u == "%CPU" for u in units], dtype=bool),
                                  frame["value"] / (100.0 * DEFAULT_MAX_CPUS), np.nan)
    return pd.DataFrame(frame)


def _params_key(p: Any, drop: tuple[str, ...] = ()) -> tuple:
    if not isinstance(p, dict):
        return ()
    return tuple(sorted((k, v) for k, v in p.items() if k not in drop))


def _unixbench_rows(col: dict[str, list]) -> list[int]:
    return [i for i, b in enumerate(col["benchmark"]) if b == "unixbench"]


def _unixbench_index_ratio(col: dict[str, list]) -> np.ndarray:
    """index / (result / baseline x 10) for UnixBench index rows that name their baseline
    (UnixBench 3.x printed plain ratios: no factor 10)."""
    out = np.full(len(col["benchmark"]), np.nan)
    idx = _unixbench_rows(col)
    raw: dict[tuple, float] = {}
    for i in idx:
        if col["statistic"][i] in (None, "value"):
            raw[(col["run_id"][i], col["system"][i], col["metric"][i], _params_key(col["params"][i], ("baseline",)))] = col["value"][i]
    for i in idx:
        p, met = col["params"][i], col["metric"][i]
        if col["statistic"][i] != "index" or not isinstance(p, dict) or "baseline" not in p:
            continue
        try:
            base = float(p["baseline"])
        except (TypeError, ValueError):
            continue
        raw_metric = met[: -len("_index")] if isinstance(met, str) and met.endswith("_index") else met
        r = raw.get((col["run_id"][i], col["system"][i], raw_metric, _params_key(p, ("baseline",))))
        if r and base > 0 and r > 0:
            scale = 1.0 if str(col["tool_version"][i] or "").startswith(("3.", "2.")) else 10.0
            out[i] = col["value"][i] / (r / base * scale)
    return out


def _unixbench_score_ratio(col: dict[str, list]) -> np.ndarray:
    """Index Score / geometric mean of the run's indexes (same system and copies)."""
    out = np.full(len(col["benchmark"]), np.nan)
    idx = _unixbench_rows(col)
    logs: dict[tuple, list[float]] = defaultdict(list)
    for i in idx:
        v = col["value"][i]
        if col["statistic"][i] == "index" and isinstance(v, (int, float)) and v > 0:
            logs[(col["run_id"][i], col["system"][i], _params_key(col["params"][i], ("baseline",)))].append(math.log(v))
    for i in idx:
        if col["statistic"][i] == "score" and col["metric"][i] == "index_score":
            xs = logs.get((col["run_id"][i], col["system"][i], _params_key(col["params"][i], ("baseline",))))
            if xs and len(xs) >= 3:
                out[i] = col["value"][i] / math.exp(sum(xs) / len(xs))
    return out


# what the runs and messages suites read, and what their findings show: a frame of whole rows
# (snippets, subjects, headers) made GX copy every column at each of its row filters
RUN_COLUMNS = ("message_id", "run_id", "benchmark", "parser_version", "status", "n_results")
MESSAGE_COLUMNS = ("message_id", "list_name", "posted_at")


def _frame(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> pd.DataFrame:
    df = pd.DataFrame({c: [r.get(c) for r in rows] for c in columns})
    df["row_id"] = np.arange(len(df))
    return df


def runs_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    df = _frame(rows, RUN_COLUMNS)
    df["results_if_ok"] = np.where(df["status"].eq("ok"), df["n_results"].astype("float64"), np.nan)
    return df


def messages_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    df = _frame(rows, MESSAGE_COLUMNS)
    df["posted_at"] = pd.to_datetime(df["posted_at"], utc=True)
    return df

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


def _spec_table(df: pd.DataFrame) -> dict[tuple[str, str], Any]:
    pairs = set(zip(df["benchmark"].astype(object), df["metric"].astype(object), strict=True))
    return {p: metric_spec(*p) if isinstance(p[0], str) and isinstance(p[1], str) else None for p in pairs}


def results_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The results batch as a frame with the derived check columns added."""
    df = pd.DataFrame(rows)
    for col in ("message_id", "run_id", "benchmark", "metric", "unit", "system", "statistic"):
        if col not in df:
            df[col] = None
    if "value" not in df:
        df["value"] = np.nan
    df["value"] = pd.to_numeric(df["value"], errors="coerce").astype("float64")
    df["row_id"] = np.arange(len(df))
    specs = _spec_table(df)
    keys = list(zip(df["benchmark"].astype(object), df["metric"].astype(object), strict=True))
    spec_col = [specs.get(k) for k in keys]
    stat = df["statistic"].fillna("value").astype(object).tolist()
    units = df["unit"].astype(object).tolist()
    values = df["value"].to_numpy()
    df["metric_known"] = [s is not None for s in spec_col]
    df["unit_allowed"] = pd.array(
        [None if s is None or not isinstance(u, str) else s.allows(u, st) for s, u, st in zip(spec_col, units, stat, strict=True)],
        dtype="boolean",
    )
    rng = np.full(len(df), np.nan)
    nonneg = np.full(len(df), np.nan)
    for i, (s, st, v) in enumerate(zip(spec_col, stat, values, strict=True)):
        if s is None or not math.isfinite(v) or st in ("derived", "index", "score"):
            continue
        if units[i] == s.unit and s.low is not None and s.high is not None and s.high > s.low:
            rng[i] = (v - s.low) / (s.high - s.low)
        if s.nonnegative:
            nonneg[i] = v
    df["range_pos"] = rng
    df["nonneg_value"] = nonneg
    df["index_ratio"] = _unixbench_index_ratio(df)
    df["score_ratio"] = _unixbench_score_ratio(df)
    df["netperf_size"] = [
        (p or {}).get("size") if b == "netperf" and isinstance(p, dict) else None
        for b, p in zip(df["benchmark"], df.get("params", pd.Series([None] * len(df))), strict=True)
    ]
    df["cpu_share"] = np.where(df["unit"].eq("%CPU"), df["value"] / (100.0 * DEFAULT_MAX_CPUS), np.nan)
    return df


def _params_key(p: Any, drop: tuple[str, ...] = ()) -> tuple:
    if not isinstance(p, dict):
        return ()
    return tuple(sorted((k, v) for k, v in p.items() if k not in drop))


def _unixbench_index_ratio(df: pd.DataFrame) -> np.ndarray:
    """index / (result / baseline x 10) for UnixBench index rows that name their baseline
    (UnixBench 3.x printed plain ratios: no factor 10)."""
    out = np.full(len(df), np.nan)
    if "params" not in df:
        return out
    ub = df[df["benchmark"].eq("unixbench")]
    if ub.empty:
        return out
    versions = dict(zip(ub["run_id"], ub["tool_version"], strict=True)) if "tool_version" in ub else {}
    raw: dict[tuple, float] = {}
    for rid, sysn, met, st, p, v in zip(ub["run_id"], ub["system"], ub["metric"], ub["statistic"], ub["params"], ub["value"], strict=True):
        if st == "value":
            raw[(rid, sysn, met, _params_key(p, ("baseline",)))] = v
    for idx, rid, sysn, met, st, p, v in zip(ub.index, ub["run_id"], ub["system"], ub["metric"], ub["statistic"], ub["params"], ub["value"], strict=True):
        if st != "index" or not isinstance(p, dict) or "baseline" not in p:
            continue
        try:
            base = float(p["baseline"])
        except (TypeError, ValueError):
            continue
        raw_metric = met[: -len("_index")] if isinstance(met, str) and met.endswith("_index") else met
        r = raw.get((rid, sysn, raw_metric, _params_key(p, ("baseline",))))
        if r and base > 0 and r > 0:
            scale = 1.0 if str(versions.get(rid) or "").startswith(("3.", "2.")) else 10.0
            out[df.index.get_loc(idx)] = v / (r / base * scale)
    return out


def _unixbench_score_ratio(df: pd.DataFrame) -> np.ndarray:
    """Index Score / geometric mean of the run's indexes (same system and copies)."""
    out = np.full(len(df), np.nan)
    if "params" not in df:
        return out
    ub = df[df["benchmark"].eq("unixbench")]
    logs: dict[tuple, list[float]] = defaultdict(list)
    for rid, sysn, st, p, v in zip(ub["run_id"], ub["system"], ub["statistic"], ub["params"], ub["value"], strict=True):
        if st == "index" and v > 0:
            logs[(rid, sysn, _params_key(p, ("baseline",)))].append(math.log(v))
    for idx, rid, sysn, met, st, p, v in zip(ub.index, ub["run_id"], ub["system"], ub["metric"], ub["statistic"], ub["params"], ub["value"], strict=True):
        if st == "score" and met == "index_score":
            xs = logs.get((rid, sysn, _params_key(p, ("baseline",))))
            if xs and len(xs) >= 3:
                out[df.index.get_loc(idx)] = v / math.exp(sum(xs) / len(xs))
    return out


def runs_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    df = pd.DataFrame(rows)
    df["row_id"] = np.arange(len(df))
    df["results_if_ok"] = np.where(df["status"].eq("ok"), df["n_results"].astype("float64"), np.nan)
    return df


def messages_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    df = pd.DataFrame(rows)
    df["row_id"] = np.arange(len(df))
    df["posted_at"] = pd.to_datetime(df["posted_at"], utc=True)
    return df

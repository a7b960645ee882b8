"""lmbench test helpers shared by the lmbench parser tests."""

from __future__ import annotations

from pathlib import Path

from tests.transforms.parsers.fixtures_io import fixture_body, rows_of
from transforms.extract import extract_runs
from transforms.parsers.lmbench import METRICS

FIX = Path(__file__).parents[2] / "fixtures" / "parsers" / "lmbench"


def _column(metric: str, params: dict) -> tuple[str, dict]:
    """The summary column of a context switch: the parser emits one metric, `ctxsw`, with
    `procs` and `size_kb`; these tests key it by the column it came from (`ctxsw_2p_16k`)."""
    column = f"ctxsw_{params.get('procs')}p_{params.get('size_kb')}k"
    if metric != "ctxsw" or column not in METRICS:  # a size no summary column prints keeps its params
        return metric, params
    return column, {k: v for k, v in params.items() if k not in ("procs", "size_kb")}


def _lm(text: str) -> list[dict]:
    """Rows of the lmbench parser only (other parsers' rows are their own tests' business)."""
    rows = [r for r in rows_of(text) if r["benchmark"] == "lmbench"]
    for r in rows:
        r["metric"], r["params"] = _column(r["metric"], r["params"])
    return rows


def _rows(name: str) -> list[dict]:
    return _lm(fixture_body(FIX / name))


def _runs(name: str):
    runs = [er.run for er in extract_runs(fixture_body(FIX / name), "t") if er.parser.name == "lmbench"]
    for run in runs:
        for r in run.results:
            r.metric, r.params = _column(r.metric, r.params)
    return runs

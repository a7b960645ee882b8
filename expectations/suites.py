"""Expectation suites as code, one per table: stable names, reviewable diffs, no GX config dir.

Each expectation carries `meta.name` (the stable name quarantine rows and alerts
use) and `meta.severity`: `error` rows are quarantined, `warning` rows load and
are reported. Derived columns (see `expectations.derive`) are computed first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from transforms.model import LAYOUTS
from transforms.parsers import known_benchmarks
from transforms.units import KNOWN_UNITS

# a plain number (one decimal point at most): kernel versions such as 2.6.16.19 stay labels
NUMBER_LIKE = r"^\s*[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?\s*[KkMmGg]?\s*$"


def _meta(name: str, severity: str = "error") -> dict[str, Any]:
    return {"name": name, "severity": severity}


def results_expectations() -> list[Any]:
    import great_expectations.expectations as gxe

    exps: list[Any] = [
        gxe.ExpectColumnValuesToNotBeNull(column=col, meta=_meta(f"{col} present"))
        for col in ("message_id", "run_id", "benchmark", "metric", "unit")
    ]
    exps += [
        gxe.ExpectColumnValuesToNotBeNull(column="value", meta=_meta("value finite")),
        gxe.ExpectColumnValuesToBeBetween(column="value", min_value=-1e300, max_value=1e300, meta=_meta("value finite")),
        gxe.ExpectColumnValuesToBeInSet(column="unit", value_set=sorted(KNOWN_UNITS), meta=_meta("unit known")),
        gxe.ExpectColumnValuesToBeInSet(column="benchmark", value_set=sorted(known_benchmarks()), meta=_meta("benchmark known")),
        gxe.ExpectColumnValuesToBeInSet(column="metric_known", value_set=[True], meta=_meta("metric known", "warning")),
        gxe.ExpectColumnValuesToBeInSet(column="layout", value_set=list(LAYOUTS), meta=_meta("layout known")),
        gxe.ExpectColumnValuesToBeInSet(column="unit_allowed", value_set=[True], meta=_meta("unit allowed for metric")),
        gxe.ExpectColumnValuesToBeBetween(column="range_pos", min_value=0.0, max_value=1.0, meta=_meta("value plausible for metric")),
        gxe.ExpectColumnValuesToBeBetween(column="nonneg_value", min_value=0.0, meta=_meta("value non-negative")),
        gxe.ExpectColumnValuesToBeBetween(column="index_ratio", min_value=0.99, max_value=1.01,
                                          meta=_meta("unixbench index = result / baseline x 10")),
        gxe.ExpectColumnValuesToBeBetween(column="score_ratio", min_value=0.99, max_value=1.01,
                                          meta=_meta("unixbench score = geometric mean of indexes")),
        gxe.ExpectColumnValuesToMatchRegex(column="netperf_size", regex=r"^[1-9][0-9]*$",
                                           meta=_meta("netperf size is a positive integer")),
        gxe.ExpectColumnValuesToNotMatchRegex(column="system", regex=NUMBER_LIKE,
                                              meta=_meta("system is a label, not a number")),
        gxe.ExpectColumnValuesToBeBetween(column="cpu_share", min_value=0.0, max_value=1.0,
                                          meta=_meta("%CPU within 0..100 x CPUs")),
    ]
    return exps


def runs_expectations() -> list[Any]:
    import great_expectations.expectations as gxe

    return [
        gxe.ExpectColumnValuesToNotBeNull(column="run_id", meta=_meta("run_id present")),
        gxe.ExpectColumnValuesToBeUnique(column="run_id", meta=_meta("run_id unique")),
        gxe.ExpectColumnValuesToBeInSet(column="benchmark", value_set=sorted(known_benchmarks()), meta=_meta("run benchmark known")),
        gxe.ExpectColumnValuesToNotBeNull(column="parser_version", meta=_meta("parser version present")),
        gxe.ExpectColumnValuesToBeBetween(column="results_if_ok", min_value=1, meta=_meta("run has results")),
    ]


def messages_expectations(list_names: Iterable[str]) -> Callable[[], list[Any]]:
    names = sorted(set(list_names))

    def build() -> list[Any]:
        import great_expectations.expectations as gxe

        now = datetime.now(UTC) + timedelta(days=1)
        return [
            gxe.ExpectColumnValuesToNotBeNull(column="message_id", meta=_meta("message_id present")),
            gxe.ExpectColumnValuesToBeUnique(column="message_id", meta=_meta("message_id unique")),
            gxe.ExpectColumnValuesToBeInSet(column="list_name", value_set=names, meta=_meta("list name configured")),
            gxe.ExpectColumnValuesToBeBetween(column="posted_at", min_value=datetime(1990, 1, 1, tzinfo=UTC),
                                              max_value=now, meta=_meta("date plausible", "warning")),
        ]

    return build

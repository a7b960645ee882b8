"""Expectation suites as code: stable names, reviewable diffs, no GX config dir.

Each expectation carries `meta.name` (the stable name quarantine rows and
alerts use) and `meta.severity`: `error` rows are quarantined, `warning` rows
load and are reported.
"""

from __future__ import annotations

from typing import Any

from transforms.parsers import known_benchmarks
from transforms.units import KNOWN_UNITS

RESULTS_SUITE = "results"


def _meta(name: str, severity: str = "error") -> dict[str, Any]:
    return {"name": name, "severity": severity}


def results_expectations() -> list[Any]:
    """The first results suite: keys, finiteness, known units and benchmarks."""
    import great_expectations.expectations as gxe

    exps: list[Any] = []
    for col in ("message_id", "run_id", "benchmark", "metric", "unit"):
        exps.append(gxe.ExpectColumnValuesToNotBeNull(column=col, meta=_meta(f"{col} present")))
    exps += [
        gxe.ExpectColumnValuesToNotBeNull(column="value", meta=_meta("value finite")),
        gxe.ExpectColumnValuesToBeBetween(
            column="value", min_value=-1e300, max_value=1e300, meta=_meta("value finite")
        ),
        gxe.ExpectColumnValuesToBeInSet(
            column="unit", value_set=sorted(KNOWN_UNITS), meta=_meta("unit known")
        ),
        gxe.ExpectColumnValuesToBeInSet(
            column="benchmark", value_set=sorted(known_benchmarks()), meta=_meta("benchmark known")
        ),
    ]
    return exps

"""`--status-interval` series: which fio reports are the running dumps before the last one.

fio prints a whole report every N seconds, each cumulative since the start, then the final
report; the JSON and the normal text output do it alike. Each report of a series is one `Run`;
its `Clock` says which jobs it covers, the wall-clock time it was printed (`timestamp` in JSON,
the date on the text job headers) and how long the jobs had run (JSON `elapsed`, the text
runtimes). Consecutive reports of the same jobs whose run time grows by what their wall clock
grows (within `CLOCK_SLACK` seconds) are one series: every report but the last gives rows with
statistic `interval` and params `interval_start` = `0` (the dumps are cumulative) and
`interval_end` = its clock's run time in seconds; the last is the summary. Repeated runs of one
job file are not a series: each starts its run time again.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import NamedTuple

from transforms.model import Run

CLOCK_SLACK = 2  # seconds between the wall clock and the run-time clock in one series


class Clock(NamedTuple):
    """When a report was printed, of which jobs, after how long."""

    jobs: frozenset[str]  # job identities: a series reports the same ones every time
    stamp: Decimal  # wall clock, seconds
    elapsed: Decimal  # how long the jobs had run, seconds


def follows(prev: Clock, cur: Clock) -> bool:
    """`cur` is the next report of the same fio process as `prev`."""
    grew = cur.elapsed - prev.elapsed
    together = abs((cur.stamp - prev.stamp) - grew) <= CLOCK_SLACK
    return cur.jobs == prev.jobs and grew > 0 and together


def mark_series(runs: list[Run], clocks: Mapping[int, Clock]) -> None:
    """The reports before the last of each series become interval rows (`clocks`: by `id(run)`)."""
    ok = [r for r in runs if r.status == "ok" and id(r) in clocks]
    for prev, cur in zip(ok, ok[1:], strict=False):
        if not follows(clocks[id(prev)], clocks[id(cur)]):
            continue
        end = format(clocks[id(prev)].elapsed.normalize(), "f")
        prev.results = [r for r in prev.results if r.statistic == "value"]  # samples: the summary's
        for r in prev.results:
            r.statistic = "interval"
            r.params["interval_start"], r.params["interval_end"] = "0", end
        prev.attributes["status_interval"] = "1"
        prev.notes.append(
            "a --status-interval report: rows are the series, the last report the summary"
        )

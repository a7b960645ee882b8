"""`--status-interval` series: which fio reports are the running dumps before the last one.

fio prints a whole report every N seconds, each cumulative since the start, then the final
report; the JSON and the normal text output do it alike. Each report of a series is one `Run`;
its `Clock` says which jobs it covers, the wall-clock time it was printed (`timestamp` in JSON,
the date on the text job headers) and how long the jobs had run (JSON `elapsed`, the text
runtimes). Consecutive reports whose run time grows by what their wall clock grows (within
`CLOCK_SLACK` seconds) are one series: every report but the last gives rows with statistic
`interval` and params `interval_start` = `0` (the dumps are cumulative) and `interval_end` = its
clock's run time in seconds; the last is the summary. Repeated runs of one job file are not a
series: each starts its run time again.

The text output also says, per job, which process printed it (the header's pid) and how long that
job had run (its own runtime), so a text clock carries `runtimes` per job. fio's normal output
leaves out a job that has done no I/O yet (stat.c `show_thread_status_normal`), so with stonewalled
groups each dump names more jobs than the one before, and a job that has finished stands still
(since fio's 2022 fix "Handle finished jobs when using status-interval"; before it, its runtime
kept growing with the wall clock). Two text reports are then one series when every job of the first
is still there, none ran on longer than the wall clock, every job new to the second started since,
and the process ran on: a job's runtime grew with the wall clock, or a job ran on and a new one
started (the next group). Each row's `interval_end` is its own job's runtime (its group's longest,
`run=`, for the group rows), and a job that stood still since the previous dump of the series gives
no rows again: they would repeat the ones it gave then.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import NamedTuple

from transforms.model import Result, Run

CLOCK_SLACK = 2  # seconds between the wall clock and the run-time clock in one series


class Clock(NamedTuple):
    """When a report was printed, of which jobs, after how long."""

    jobs: frozenset[str]  # job identities: a series reports the same ones every time
    stamp: Decimal  # wall clock, seconds
    elapsed: Decimal  # how long the jobs had run, seconds (the longest)
    runtimes: Mapping[str, Decimal] | None = None  # per job identity, seconds (text output)
    owners: tuple[str | None, ...] = ()  # the job identity of each result, by index (text output)


def _jobs_follow(prev: Mapping[str, Decimal], cur: Mapping[str, Decimal], wall: Decimal) -> bool:
    """Per-job clocks of one fio process: jobs only join, none outruns the wall clock."""
    if wall <= 0 or not prev.keys() <= cur.keys():
        return False
    grew = [cur[j] - prev[j] for j in prev]
    started = [cur[j] for j in cur.keys() - prev.keys()]
    if any(d < 0 or d > wall + CLOCK_SLACK for d in grew):
        return False
    if any(r > wall + CLOCK_SLACK for r in started):
        return False
    running = any(abs(d - wall) <= CLOCK_SLACK for d in grew)
    # the next group started: the one before ran on into this interval (a container reusing a
    # pid for a second invocation would show the first run standing still)
    return running or (bool(started) and any(d > 0 for d in grew))


def follows(prev: Clock, cur: Clock) -> bool:
    """`cur` is the next report of the same fio process as `prev`."""
    wall = cur.stamp - prev.stamp
    if prev.runtimes is not None and cur.runtimes is not None:
        return _jobs_follow(prev.runtimes, cur.runtimes, wall)
    grew = cur.elapsed - prev.elapsed
    together = abs(wall - grew) <= CLOCK_SLACK
    return cur.jobs == prev.jobs and grew > 0 and together


def _seconds(value: Decimal) -> str:
    return format(value.normalize(), "f")


def _as_interval(run: Run, clock: Clock, before: Clock | None) -> None:
    """`run`'s summary rows as one step of the series; `before`: the step before it, if any."""
    owners = clock.owners if len(clock.owners) == len(run.results) else (None,) * len(run.results)
    kept: list[Result] = []
    still: set[str] = set()
    for r, owner in zip(run.results, owners, strict=True):
        if r.statistic != "value":
            continue  # sample statistics: the summary's
        runtime = clock.runtimes.get(owner) if clock.runtimes and owner else None
        if runtime is None:
            runtime = clock.elapsed
        elif before is not None and before.runtimes and before.runtimes.get(owner) == runtime:
            still.add(owner.split("\x00")[0])
            continue  # the job stood still: these are the rows it gave last time
        r.statistic = "interval"
        r.params["interval_start"], r.params["interval_end"] = "0", _seconds(runtime)
        kept.append(r)
    run.results = kept
    run.attributes["status_interval"] = "1"
    run.notes.append("a --status-interval report: rows are the series, the last report the summary")
    if still:
        run.notes.append(f"finished since the previous report, not repeated: {', '.join(sorted(still))}")


def mark_series(runs: list[Run], clocks: Mapping[int, Clock]) -> None:
    """The reports before the last of each series become interval rows (`clocks`: by `id(run)`)."""
    ok = [r for r in runs if r.status == "ok" and id(r) in clocks]
    before: dict[int, Clock] = {}  # the clock of the step before, by id(run), within a series
    for prev, cur in zip(ok, ok[1:], strict=False):
        if not follows(clocks[id(prev)], clocks[id(cur)]):
            continue
        _as_interval(prev, clocks[id(prev)], before.get(id(prev)))
        before[id(cur)] = clocks[id(prev)]

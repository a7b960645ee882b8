"""fio `--status-interval` series (transforms.parsers.fio.series), in the normal text output.

The JSON output's series are tested in test_fio_json.py. No public post or page holding a real
text series was found, so the series here are printed from real reports, as fio's stat.c prints a
dump (`__show_running_run_stats` calls `__show_run_stats`: the whole report, cumulative): the fio
3.1 `time_based`, `runtime=300` read report of fixture fio31_vps_comparison_write_read, as
`--status-interval=100` prints it after 100 and 200 seconds and at the end (in code here, and as
the golden fixture fio31_status_interval_read_series); and that fixture's write and read reports as
one stonewalled job file prints them, the read job joining the dumps once it has started. The
same headers (job, pid), layout and numbers, with the header dates, the runtimes and the IOPS
moved as the dumps move them.

Properties: report blocks in any order, repeated, cut short anywhere and mixed with other output,
and the golden series cut short or missing lines, never make the parser raise nor give a step that
ends at a runtime the text does not print; stonewalled dumps in any order or cut short never give
the same step twice; one block alone never gives interval rows.
"""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from tests.transforms.parsers.damage import assert_sane
from tests.transforms.parsers.fixtures_io import (
    FIXTURES,
    canonical,
    expected_rows,
    fixture_body,
    rows_of,
)
from tests.transforms.parsers.helpers import property_settings
from transforms.extract import extract_runs
from transforms.model import Result, Run
from transforms.parsers.fio import PARSER
from transforms.parsers.fio.series import CLOCK_SLACK, Clock, follows, mark_series

BODY = fixture_body(FIXTURES / "fio" / "fio31_vps_comparison_write_read.txt")
READ = BODY[BODY.index("myjob: (groupid=0, jobs=1): err= 0: pid=21485") : BODY.rindex("util=100.00%") + 13]
WRITE = BODY[BODY.index("myjob: (groupid=0, jobs=1): err= 0: pid=21461") : BODY.index("util=100.00%") + 13]
SETTINGS = property_settings(40)


def report(stamp: str, msec: int, iops: int, pid: str = "21485") -> str:
    """The real read report as the dump at `stamp` (its header date) after `msec` of running."""
    out = READ.replace("05:28:47", stamp).replace("pid=21485", f"pid={pid}")
    out = out.replace("(3598MiB/300002msec)", f"(3598MiB/{msec}msec)")
    out = out.replace("run=300002-300002msec", f"run={msec}-{msec}msec")
    return out.replace("IOPS=3070", f"IOPS={iops}")


SERIES = [report("05:25:27", 100001, 3001), report("05:27:07", 200001, 3002), READ]


def as_interval(rows: list[dict], end: str) -> list[dict]:
    """What a report's rows become inside a series: statistic `interval`, cumulative from 0."""
    return [{**r, "statistic": "interval", "params": {**r["params"], "interval_start": "0", "interval_end": end}}
            for r in rows]  # fmt: skip


def fio_runs(text: str) -> list[Run]:
    return [er.run for er in extract_runs(text, "t") if er.parser.name == "fio"]


# --- the text output ------------------------------------------------------------------------------


def test_reports_before_the_last_are_the_series_and_the_last_the_summary():
    found = rows_of("\n".join(SERIES))
    alone = [rows_of(r) for r in SERIES]
    assert [len(a) for a in alone] == [32, 32, 32]  # bw, iops, 3x4 latency, 17 percentiles, group bw
    # every value: the dumps' rows as intervals, the last report's rows exactly as a paste of it alone
    expected = as_interval(alone[0], "100.001") + as_interval(alone[1], "200.001") + alone[2]
    assert canonical(found) == canonical(expected)
    iops = [(r["statistic"], r["params"].get("interval_end"), r["value"]) for r in found if r["metric"] == "iops"]
    assert iops == [("interval", "100.001", 3001.0), ("interval", "200.001", 3002.0), ("value", None, 3070.0)]
    assert not any("repeat" in r["params"] for r in found)
    runs = fio_runs("\n".join(SERIES))
    assert [r.attributes.get("status_interval") for r in runs] == ["1", "1", None]
    assert all(any("--status-interval" in n for n in r.notes) for r in runs[:2])


def test_one_report_gives_todays_rows():
    assert {r["statistic"] for r in rows_of(READ)} == {"value"}
    # the fixture's two runs (pid 21461 then 21485, minutes apart) give its golden rows, no series
    path = FIXTURES / "fio" / "fio31_vps_comparison_write_read.txt"
    assert canonical(rows_of(BODY)) == canonical(expected_rows(path))
    assert not [r for r in rows_of(BODY) if r["statistic"] == "interval"]


def test_reports_of_other_processes_or_clocks_are_not_a_series():
    other_pid = [report("05:25:27", 100001, 3001, pid="21486"), READ]
    wall_apart = [report("04:25:27", 100001, 3001), READ]  # an hour earlier, yet 100 s less run
    twice = [READ, READ]  # the same report pasted twice: no time passed
    dateless = [r.replace(": Fri Oct  6 05:25:27 2017", "").replace(": Fri Oct  6 05:28:47 2017", "")
                for r in (SERIES[0], READ)]  # fio 1.x headers: `err= 0: pid=21485` only  # fmt: skip
    for post in (other_pid, wall_apart, twice, dateless):
        found = rows_of("\n".join(post))
        assert {r["statistic"] for r in found} == {"value"}
        iops = [r for r in found if r["metric"] == "iops"]
        assert sorted(r["params"]["repeat"] for r in iops) == ["1", "2"]


def test_series_survive_progress_lines_and_disk_stats_between_reports():
    progress = "Jobs: 1 (f=1): [R(1)][33.7%][r=11.7MiB/s,w=0KiB/s][r=3001,w=0 IOPS][eta 03m:19s]"
    found = rows_of(f"\n{progress}\n".join(SERIES))
    assert [r["params"].get("interval_end") for r in found if r["metric"] == "iops"] == ["100.001", "200.001", None]


# --- the golden series ----------------------------------------------------------------------------
# fio31_status_interval_read_series: the real read report as --status-interval=100 prints it, the dumps
# after 100.001 s and 200.001 s, then the final report (its Source line says how it was made).
GOLDEN = FIXTURES / "fio" / "fio31_status_interval_read_series.txt"
GOLDEN_BODY = fixture_body(GOLDEN)
GOLDEN_LINES = GOLDEN_BODY.splitlines()


def test_golden_series_reads_each_dump_at_its_printed_runtime():
    found = rows_of(GOLDEN_BODY)
    assert canonical(found) == canonical(expected_rows(GOLDEN))
    read_lines = [ln for ln in GOLDEN_LINES if ln.startswith("   read: IOPS=")]
    assert read_lines == [
        "   read: IOPS=3062, BW=11.0MiB/s (12.5MB/s)(1196MiB/100001msec)",
        "   read: IOPS=3068, BW=11.0MiB/s (12.6MB/s)(2397MiB/200001msec)",
        "   read: IOPS=3070, BW=11.0MiB/s (12.6MB/s)(3598MiB/300002msec)",
    ]
    assert rows_by(found, "iops") == [
        ("read", "interval", "100.001", 3062.0),
        ("read", "interval", "200.001", 3068.0),
        ("read", "value", None, 3070.0),
    ]
    assert [ln.split("run=")[1] for ln in GOLDEN_LINES if "run=" in ln] == [
        "100001-100001msec", "200001-200001msec", "300002-300002msec"]  # fmt: skip
    assert rows_by(found, "aggregate_bandwidth") == [
        ("read", "interval", "100.001", 11264.0),
        ("read", "interval", "200.001", 11264.0),
        ("read", "value", None, 11264.0),
    ]
    assert all(r["params"]["interval_start"] == "0" for r in found if r["statistic"] == "interval")


def test_golden_final_report_alone_gives_the_hand_checked_summary():
    desc = next(ln for ln in GOLDEN_LINES if ln.startswith("myjob: (g=0)"))  # the job's parameters
    final = desc + "\n" + GOLDEN_BODY[GOLDEN_BODY.rindex("myjob: (groupid=0") :]
    summary = [r for r in expected_rows(FIXTURES / "fio" / "fio31_vps_comparison_write_read.txt")
               if r["params"]["direction"] == "read"]  # fmt: skip
    assert canonical(rows_of(final)) == canonical(summary)
    assert canonical([r for r in rows_of(GOLDEN_BODY) if r["statistic"] == "value"]) == canonical(summary)


RUNTIMES = {"100.001", "200.001", "300.002"}


@SETTINGS
@given(st.integers(1, len(GOLDEN_LINES)), st.sets(st.integers(0, len(GOLDEN_LINES) - 1), max_size=6))
def test_golden_cut_short_or_missing_lines_never_raises_nor_invents_a_step(cut, dropped):
    lines = [ln for k, ln in enumerate(GOLDEN_LINES[:cut]) if k not in dropped]
    text = "\n".join(lines)
    assert_sane(PARSER, text)
    runs = fio_runs(text)
    if runs:  # the last report read is never a step of a series: nothing follows it
        assert all(r.statistic != "interval" for r in runs[-1].results)
    for r in rows_of(text):
        if r["statistic"] == "interval":  # a step ends at a runtime the text prints
            assert r["params"]["interval_end"] in RUNTIMES


# --- stonewalled groups ---------------------------------------------------------------------------
# The job file `[write]` then `[read]` with `stonewall`, run with --status-interval=200: the write job
# (the real pid 21461 report) runs from 05:15:45 and ends at 05:21:27 after 341.704 s; the read job
# (pid 21485) starts then, as group 1, and ends 300.002 s later. fio's normal output leaves out a job
# that has done no I/O yet, and a finished job stands still in the dumps after it ended.
W_JOB, W_GROUP = WRITE.split("\n\nRun status group 0 (all jobs):\n")
R_JOB, R_GROUP = READ.split("\n\nRun status group 0 (all jobs):\n")
W_GROUP, R_GROUP = W_GROUP.split("\n\n")[0], R_GROUP.split("\n\n")[0]
DISK = WRITE[WRITE.index("Disk stats") :]


def write_job(stamp: str, msec: int, iops: int) -> tuple[str, str]:
    job = W_JOB.replace("05:21:27", stamp).replace("(4096MiB/341704msec)", f"(4096MiB/{msec}msec)")
    return job.replace("IOPS=3068", f"IOPS={iops}"), W_GROUP.replace("run=341704-341704", f"run={msec}-{msec}")


def read_job(stamp: str, msec: int, iops: int) -> tuple[str, str]:
    job = R_JOB.replace("05:28:47", stamp).replace("(3598MiB/300002msec)", f"(3598MiB/{msec}msec)")
    job = job.replace("IOPS=3070", f"IOPS={iops}").replace("(groupid=0,", "(groupid=1,")
    return job, R_GROUP.replace("run=300002-300002", f"run={msec}-{msec}")


def dump(*jobs: tuple[str, str]) -> str:
    """One report: the jobs that have done I/O, then every group's status (an idle group: no line)."""
    groups = [g for _, g in jobs] + [""] * (2 - len(jobs))
    status = [f"Run status group {k} (all jobs):" + (f"\n{g}" if g else "") for k, g in enumerate(groups)]
    return "\n\n".join([*(j for j, _ in jobs), *status, DISK])


STONEWALL = [
    dump(write_job("05:19:05", 200001, 3050)),
    dump(write_job("05:22:25", 341704, 3068), read_job("05:22:25", 58001, 3058)),
    dump(write_job("05:25:45", 341704, 3068), read_job("05:25:45", 258001, 3069)),
    dump(write_job("05:26:27", 341704, 3068), read_job("05:26:27", 300002, 3070)),
]


def rows_by(rows: list[dict], metric: str) -> list[tuple]:
    return [(r["params"]["direction"], r["statistic"], r["params"].get("interval_end"), r["value"])
            for r in rows if r["metric"] == metric]  # fmt: skip


def test_stonewalled_groups_joining_dump_by_dump_are_one_series():
    found = rows_of("\n".join(STONEWALL))
    # each job's rows end at its own runtime; the write job, finished at 341.704 s, is not repeated
    assert rows_by(found, "iops") == [
        ("write", "interval", "200.001", 3050.0),
        ("write", "interval", "341.704", 3068.0),
        ("read", "interval", "58.001", 3058.0),
        ("read", "interval", "258.001", 3069.0),
        ("write", "value", None, 3068.0),
        ("read", "value", None, 3070.0),
    ]
    assert rows_by(found, "aggregate_bandwidth") == [  # each group at its own `run=`
        ("write", "interval", "200.001", 11264.0),
        ("write", "interval", "341.704", 11264.0),
        ("read", "interval", "58.001", 11264.0),
        ("read", "interval", "258.001", 11264.0),
        ("write", "value", None, 11264.0),
        ("read", "value", None, 11264.0),
    ]
    # every other row of a step is its job's report, as a paste of that dump alone reads it
    alone = [rows_of(d) for d in STONEWALL]
    assert [len(a) for a in alone] == [32, 64, 64, 64]
    writes = [r for r in alone[2] if r["params"]["direction"] == "write"]
    steps = (as_interval(alone[0], "200.001") + as_interval(alone[1][:31], "341.704")
             + as_interval(alone[1][31:62], "58.001") + as_interval(alone[1][62:63], "341.704")
             + as_interval(alone[1][63:], "58.001")
             + as_interval([r for r in alone[2] if r not in writes], "258.001"))  # fmt: skip
    assert canonical(found) == canonical(steps + alone[3])
    assert not any("repeat" in r["params"] for r in found)
    notes = [n for run in fio_runs("\n".join(STONEWALL)) for n in run.notes]
    assert "finished since the previous report, not repeated: group 0, myjob" in notes


def test_a_job_joining_from_another_process_or_too_early_is_no_step():
    # the read job's pid is another process's: two invocations, no series
    other = [STONEWALL[0], STONEWALL[1].replace("pid=21461", "pid=30000")]
    assert {r["statistic"] for r in rows_of("\n".join(other))} == {"value"}
    # a job new to the next report that ran longer than the wall clock between them
    early = [STONEWALL[0], dump(write_job("05:22:25", 341704, 3068), read_job("05:22:25", 203001, 3058))]
    assert {r["statistic"] for r in rows_of("\n".join(early))} == {"value"}
    # the same pid again (a container) for a second invocation, minutes later, with one more job:
    # the first run's job stands still, so nothing ran on into the next report
    again = [dump(write_job("05:21:27", 341704, 3068)),
             dump(write_job("05:26:27", 341704, 3068), read_job("05:26:27", 58001, 3058))]  # fmt: skip
    assert {r["statistic"] for r in rows_of("\n".join(again))} == {"value"}
    # a job that ran on longer than the wall clock
    fast = [STONEWALL[0], dump(write_job("05:20:05", 341704, 3068))]
    assert {r["statistic"] for r in rows_of("\n".join(fast))} == {"value"}


# --- fio 2.x ----------------------------------------------------------------------------------------
# The randrw report of fixture fio2_randrw_two_runs_blog (fio 2.x, pid 11744, 30.019 s), as
# --status-interval=10 prints it: `runt=` per direction, `mint=`/`maxt=` per group.
BODY2 = fixture_body(FIXTURES / "fio" / "fio2_randrw_two_runs_blog.txt")
RANDRW = BODY2[BODY2.index("randrwtest: (groupid=0") : BODY2.index("util=96.96%") + 11]


def report2(stamp: str, msec: int, read_iops: int, write_iops: int) -> str:
    out = RANDRW.replace("14:27:28", stamp).replace("runt= 30019msec", f"runt= {msec}msec")
    out = out.replace("mint=30019msec, maxt=30019msec", f"mint={msec}msec, maxt={msec}msec")
    return out.replace("iops=566,", f"iops={read_iops},").replace("iops=2260,", f"iops={write_iops},")


def test_fio2_series_reads_runt_and_maxt():
    found = rows_of("\n".join([report2("14:27:08", 10001, 571, 2282), report2("14:27:18", 20002, 568, 2271), RANDRW]))
    assert rows_by(found, "iops") == [
        ("read", "interval", "10.001", 571.0), ("write", "interval", "10.001", 2282.0),
        ("read", "interval", "20.002", 568.0), ("write", "interval", "20.002", 2271.0),
        ("read", "value", None, 566.0), ("write", "value", None, 2260.0),
    ]  # fmt: skip
    assert [(d, s, e) for d, s, e, _ in rows_by(found, "aggregate_bandwidth")] == [
        ("read", "interval", "10.001"), ("write", "interval", "10.001"),
        ("read", "interval", "20.002"), ("write", "interval", "20.002"),
        ("read", "value", None), ("write", "value", None),
    ]  # fmt: skip
    # the group rows end at the group's `maxt=` (set apart from `runt=` here to show which one counts)
    dumps = [report2("14:27:08", 10001, 571, 2282).replace("maxt=10001msec", "maxt=10003msec"), RANDRW]
    assert {r["params"].get("interval_end") for r in rows_of("\n".join(dumps))
            if r["metric"] == "aggregate_bandwidth"} == {"10.003", None}  # fmt: skip


# --- the shared rule ------------------------------------------------------------------------------


def test_follows_needs_the_same_jobs_and_both_clocks_moving_together():
    jobs = frozenset({"myjob\x0021485"})
    start = Clock(jobs, Decimal(1000), Decimal(100))
    assert follows(start, Clock(jobs, Decimal(1100), Decimal(200)))
    assert follows(start, Clock(jobs, Decimal(1100 + CLOCK_SLACK), Decimal(200)))
    assert not follows(start, Clock(jobs, Decimal(1101 + CLOCK_SLACK), Decimal(200)))
    assert not follows(start, Clock(jobs, Decimal(1000), Decimal(100)))  # no time passed
    assert not follows(start, Clock(frozenset({"myjob\x0021486"}), Decimal(1100), Decimal(200)))


def test_mark_series_skips_unparsed_and_clockless_runs():
    def run(value: float, status: str = "ok") -> Run:
        return Run("fio", [Result("iops", "IOPS", value, "IOPS", {"job": "j"})], status=status)

    jobs = frozenset({"j"})
    first, broken, bare, last = run(1.0), run(2.0, "unparsed"), run(3.0), run(4.0)
    clocks = {id(first): Clock(jobs, Decimal(10), Decimal(5)), id(broken): Clock(jobs, Decimal(12), Decimal(7)),
              id(last): Clock(jobs, Decimal(20), Decimal(15))}  # fmt: skip
    mark_series([first, broken, bare, last], clocks)
    assert [(r.statistic, r.params.get("interval_end")) for r in first.results] == [("interval", "5")]
    assert [r.results[0].statistic for r in (broken, bare, last)] == ["value", "value", "value"]


# --- properties -----------------------------------------------------------------------------------

BLOCKS = [*SERIES, WRITE]
NOISE = ["", "Jobs: 1 (f=1): [R(1)][66.7%][r=11.7MiB/s][r=3002 IOPS][eta 01m:40s]",
         "Disk stats (read/write):", "and after the patch:", "> " + READ.splitlines()[1]]  # fmt: skip


@st.composite
def pieces(draw, min_size: int = 1, max_size: int = 6) -> list[str]:
    """Report blocks in any order, repeated, each maybe cut short at a line, with noise between."""
    out = []
    for _ in range(draw(st.integers(min_size, max_size))):
        lines = draw(st.sampled_from(BLOCKS)).splitlines()
        cut = draw(st.integers(1, len(lines)))
        out += [draw(st.sampled_from(NOISE)), "\n".join(lines[:cut])]
    return out


@SETTINGS
@given(pieces())
def test_interleaved_and_truncated_reports_never_raise(parts):
    text = "\n".join(parts)
    assert_sane(PARSER, text)
    for r in rows_of(text):
        if r["statistic"] == "interval":  # only the real reports' clocks can end a series step
            assert r["params"]["interval_start"] == "0"
            # the read dumps' run times, or the write job's own: a job that finished before the next
            # report stands still there, and its step ends at its runtime (see the stonewall test)
            assert r["params"]["interval_end"] in {"100.001", "200.001", "341.704"}


@SETTINGS
@given(pieces(max_size=1))
def test_one_block_gives_no_interval_rows(parts):
    text = "\n".join(parts)
    assert_sane(PARSER, text)
    assert not [r for r in rows_of(text) if r["statistic"] == "interval"]
    assert not [r for run in fio_runs(text) for r in run.results if r.statistic == "interval"]


STONEWALL_RUNTIMES = {"200.001", "341.704", "58.001", "258.001", "300.002"}


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, len(STONEWALL) - 1), st.integers(1, 80)), min_size=1, max_size=5))
def test_stonewalled_dumps_in_any_order_or_cut_short_never_repeat_a_step(picks):
    text = "\n".join("\n".join(STONEWALL[k].splitlines()[:cut]) for k, cut in sorted(picks))
    assert_sane(PARSER, text)
    steps = [r for r in rows_of(text) if r["statistic"] == "interval"]
    assert {r["params"]["interval_end"] for r in steps} <= STONEWALL_RUNTIMES
    assert len(canonical(steps)) == len(set(canonical(steps)))  # no step read twice

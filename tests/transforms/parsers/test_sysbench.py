"""sysbench parser: the tricky cells of real posts, mail damage, and property tests."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.sample_posts import SB10_SERIES
from tests.transforms.parsers.damage import (
    DAMAGES,
    canon,
    damaged,
    one,
    pad_bare_quotes,
)
from tests.transforms.parsers.helpers import Golden, robust_tests
from transforms.parsers import sysbench
from transforms.units import KNOWN_UNITS

GOLDEN = Golden("sysbench", ("sysbench",))
_rows, _runs, _fixture = GOLDEN.rows, GOLDEN.runs, GOLDEN.body


def _one(rows, **where) -> dict:
    """sysbench rows carry more params than a test names: match the named ones."""
    return one(rows, params_subset=True, **where)


# --- real posts -------------------------------------------------------------------------------


def test_v10_cpu_events_per_second_threads_and_captions():
    text = _fixture("berepi_cpu_fileio_captions")
    rows = _rows(text)
    eps = _one(rows, system="RaspberryPi4 4G RAM with SSD", metric="events_per_second")
    assert (eps["value"], eps["unit"], eps["higher_is_better"]) == (1488.30, "events/s", True)
    assert eps["params"] == {"test": "cpu", "threads": "1", "max_prime": "10000"}
    lat = _one(rows, system="RaspberryPi4 4G RAM with SSD", metric="latency", statistic="max")
    assert (lat["value"], lat["unit"], lat["higher_is_better"]) == (1.66, "ms", False)
    pct = _one(rows, system="RaspberryPi4 4G RAM with SSD", metric="latency_percentile")
    assert (pct["value"], pct["params"]["percentile"]) == (0.69, "95")
    versions = [run.tool_version for run in _runs(text)]
    assert versions == ["1.0.20", "0.4.12", "1.0.18", "1.0.18"]


def test_v04_cpu_total_time_and_latencies_with_unit_suffix():
    rows = _rows(_fixture("berepi_cpu_fileio_captions"))
    tt = _one(rows, system="RaspberryPi Zero", metric="total_time")
    assert (tt["value"], tt["unit"], tt["higher_is_better"]) == (374.2803, "s", False)
    ex = _one(rows, system="RaspberryPi Zero", metric="event_execution_time")
    assert ex["value"] == 374.2455
    assert (
        _one(rows, system="RaspberryPi Zero", metric="latency", statistic="mean")["value"] == 37.42
    )
    fair = _one(rows, system="RaspberryPi Zero", metric="thread_execution_time", statistic="mean")
    assert (fair["value"], fair["unit"]) == (374.2455, "s")


def test_indentation_lost_still_reads():
    rows = _rows(_fixture("berepi_cpu_fileio_captions"))
    assert _one(rows, system="ACERPC MINI", metric="events_per_second")["value"] == 698.18
    assert _one(rows, system="ACERPC MINI", metric="latency_sum")["value"] == 9989.01
    assert (
        _one(rows, system="ACERPC MINI", metric="thread_events", statistic="mean")["value"]
        == 6984.0
    )


def test_v10_fileio_rates_and_throughput():
    rows = _rows(_fixture("berepi_cpu_fileio_captions"))
    p = {"test": "fileio", "mode": "rndrw", "block_size": "16KiB"}
    assert _one(rows, metric="fsyncs_per_second", params=p)["value"] == 7414.17
    w = _one(rows, metric="write_throughput", params=p)
    assert (w["value"], w["unit"]) == (36.20, "MiB/s")


def test_v04_fileio_mb_is_mebibytes_and_requests_per_second():
    rows = _rows(_fixture("v04_fileio_blog"))
    t = _one(rows, metric="throughput", params={"mode": "seqrd"})
    assert (t["value"], t["unit"]) == (167.07, "MiB/s")
    rnd = _one(rows, metric="throughput", params={"mode": "rndrw"})
    assert rnd["value"] == 3.552  # the rate, not "Total transferred 1.0406Gb"
    assert _one(rows, metric="requests_per_second", params={"mode": "rndrw"})["value"] == 227.33
    assert not [
        r for r in rows if r["value"] in (8.0, 1.0406, 524288.0) and r["metric"] == "throughput"
    ]


def test_v05_oltp_per_second_rates_and_99th_percentile():
    rows = [r for r in _rows(_fixture("v05_oltp_pkb")) if r["statistic"] != "interval"]
    tps = _one(rows, metric="transactions_per_second")
    assert (tps["value"], tps["unit"], tps["params"]) == (
        586.29,
        "trans/s",
        {"test": "oltp", "threads": "16"},
    )
    assert _one(rows, metric="rw_requests_per_second")["value"] == 10553.27
    errs = _one(rows, metric="errors_per_second")
    assert (errs["value"], errs["higher_is_better"]) == (0.0, False)
    pct = _one(rows, metric="latency_percentile")
    assert (pct["value"], pct["params"]["percentile"]) == (57.15, "99")
    # interval reports are a time series, not the summary
    assert not [r for r in rows if r["value"] in (526.38, 620.50, 210.67)]


def test_v10_memory_ops_and_mib_per_second():
    rows = _rows(_fixture("v10_memory_pkb"))
    ops = _one(rows, metric="ops_per_second", params={"cpu": "0"})
    assert (ops["value"], ops["unit"]) == (3894455.31, "ops/s")
    mib = _one(rows, metric="throughput", params={"cpu": "1"})
    assert (mib["value"], mib["unit"]) == (5343.59, "MiB/s")
    assert mib["params"] == {"test": "memory", "threads": "1", "block_size": "1KiB", "operation": "write",
                             "cpu": "1"}  # fmt: skip


def test_v11_throughput_section_and_posters_notes():
    rows = _rows(_fixture("v11_cpu_eps_annotated"))
    # the bullets above the two printouts (`- graviton2`, `- X64`) name the machines compared
    eps = _one(rows, metric="events_per_second", system="graviton2")
    assert eps["value"] == 114.02  # "(초당 ...)" after the value is the poster's note
    assert _one(rows, metric="total_time", system="graviton2")["value"] == 87.7069
    assert _one(rows, metric="total_time", system="X64")["value"] == 220.4715
    assert len(_runs(_fixture("v11_cpu_eps_annotated"))) == 2


def test_quoted_captions_name_the_containers():
    rows = _rows(_fixture("quoted_host_kata_runc_fileio"))
    assert {r["system"] for r in rows} == {"host", "kata", "runc"}
    assert all(r["quoted"] for r in rows)
    runc = _one(rows, system="runc", metric="throughput")
    assert (runc["value"], runc["unit"]) == (276.22, "MiB/s")
    host = _one(rows, system="host", metric="reads_per_second")
    assert (host["value"], host["params"]["threads"]) == (11704.55, "16")


def test_negatives_give_nothing():
    for name in ("neg_ping_output", "neg_script_grepping_sysbench_output"):
        assert _rows(_fixture(name)) == [] and _runs(_fixture(name)) == []


def test_label_and_value_on_separate_lines():
    text = (
        "sysbench 0.4.12:  multi-threaded system evaluation benchmark\n\nTest execution summary:\n"
        "total time:\n\n30.4125s\ntotal number of events:\n10000\n"
    )
    rows = _rows(text)
    assert _one(rows, metric="total_time")["value"] == 30.4125
    assert _one(rows, metric="total_events")["value"] == 10000.0


def test_kb_per_sec_stays_kibibytes():
    text = ("sysbench 0.4.12:  multi-threaded system evaluation benchmark\n"
            "Read 1.5625Mb  Written 0b  Total transferred 1.5625Mb  (160.0Kb/sec)\n"
            "   10.00 Requests/sec executed\n")  # fmt: skip
    t = _one(_rows(text), metric="throughput")
    assert (t["value"], t["unit"]) == (160.0, "KiB/s")


def test_lone_total_time_is_not_sysbench():
    assert _rows("The build took\n    total time:    12.5s\naccording to make.\n") == []


def test_metric_registry_units_are_known():
    assert all(spec.unit in KNOWN_UNITS for spec in sysbench.METRICS.values())


# --- properties -------------------------------------------------------------------------------

FIXTURE_TEXTS = GOLDEN.bodies()
test_random_text_never_raises, test_mutated_fixtures_never_raise = robust_tests(
    _runs, FIXTURE_TEXTS, ["", " ", ":", "x", "(", "/", "ms", "\n", "sysbench 1.0.1", "min:"]
)  # fmt: skip


_F = st.floats(min_value=0, max_value=1e7, allow_nan=False, allow_infinity=False)


def _report_10(threads: int, eps: float, total: float, events: int, lat: list[float], pct: int,
               fair: tuple[float, float, float, float]) -> str:  # fmt: skip
    """sysbench 1.0 cpu output, with its printf formats."""
    mn, avg, mx, p, sm = lat
    ea, es, ta, ts = fair
    return (
        "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n\n"
        "Running the test with following options:\n"
        f"Number of threads: {threads}\n\n"
        "Prime numbers limit: 10000\n\nThreads started!\n\n"
        "CPU speed:\n"
        f"    events per second: {eps:8.2f}\n\n"
        "General statistics:\n"
        f"    total time:                          {total:.4f}s\n"
        f"    total number of events:              {events}\n\n"
        "Latency (ms):\n"
        f"         min:                              {mn:10.2f}\n"
        f"         avg:                              {avg:10.2f}\n"
        f"         max:                              {mx:10.2f}\n"
        f"         {pct}th percentile:                  {p:10.2f}\n"
        f"         sum:                              {sm:10.2f}\n\n"
        "Threads fairness:\n"
        f"    events (avg/stddev):           {ea:.4f}/{es:3.2f}\n"
        f"    execution time (avg/stddev):   {ta:.4f}/{ts:3.2f}\n"
    )


_REPORT = st.builds(
    _report_10,
    st.integers(1, 512),
    _F,
    _F,
    st.integers(0, 10**9),
    st.lists(_F, min_size=5, max_size=5),
    st.sampled_from([95, 99, 100]),
    st.tuples(_F, _F, _F, _F),
)


@settings(max_examples=120, deadline=None)
@given(_REPORT)
def test_printed_report_round_trips(text):
    rows = _rows(text)
    printed = dict(re.findall(r"^\s*([a-z ()/0-9]+?):\s+(\S+)$", text, re.M))
    assert len(rows) == 12
    assert _one(rows, metric="events_per_second")["value"] == float(printed["events per second"])
    assert _one(rows, metric="total_time")["value"] == float(printed["total time"].rstrip("s"))
    assert _one(rows, metric="total_events")["value"] == float(printed["total number of events"])
    for stat, key in (("min", "min"), ("mean", "avg"), ("max", "max")):
        assert _one(rows, metric="latency", statistic=stat)["value"] == float(printed[key])
    assert _one(rows, metric="latency_sum")["value"] == float(printed["sum"])
    ea, es = printed["events (avg/stddev)"].split("/")
    assert _one(rows, metric="thread_events", statistic="mean")["value"] == float(ea)
    assert _one(rows, metric="thread_events", statistic="stddev")["value"] == float(es)
    ta, ts = printed["execution time (avg/stddev)"].split("/")
    assert _one(rows, metric="thread_execution_time", statistic="mean")["value"] == float(ta)
    assert _one(rows, metric="thread_execution_time", statistic="stddev")["value"] == float(ts)
    threads = re.search(r"Number of threads: (\d+)", text).group(1)
    assert all(r["params"]["threads"] == threads and r["params"]["test"] == "cpu" for r in rows)


@settings(max_examples=120, deadline=None)
@given(_REPORT, st.sampled_from(DAMAGES))
def test_mail_damage_keeps_the_rows(text, how):
    assert canon(_rows(damaged(text, how, keep_ends=True))) == canon(_rows(text))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FIXTURE_TEXTS), st.sampled_from(DAMAGES))
def test_mail_damage_on_real_posts_keeps_the_rows(text, how):
    if how == "crlf":  # the mail decoder normalises line endings before extraction anyway
        text = pad_bare_quotes(text)
    assert canon(_rows(damaged(text, how, keep_ends=True))) == canon(_rows(text))


# --- interval reports, query counts, per-CPU runs ----------------------------------------------


def test_v10_interval_reports_are_a_series_beside_the_summary():
    rows = _rows(SB10_SERIES)
    series = [r for r in rows if r["statistic"] == "interval"]
    assert len(series) == 2 * 8  # tps, qps, r/w/o (3), lat, err/s, reconn/s per report
    tps = _one(series, metric="transactions_per_second", params={"interval_end": "2"})
    assert (tps["value"], tps["unit"]) == (2580.37, "trans/s")
    assert tps["params"] == {"test": "oltp", "threads": "8", "interval_start": "1", "interval_end": "2"}
    first = _one(series, metric="queries_per_second", params={"interval_end": "1", "query_type": "write"})
    assert (first["value"], first["params"]["interval_start"]) == (9524.13, "0")
    lat = _one(series, metric="latency_percentile", params={"interval_end": "1"})
    assert (lat["value"], lat["unit"], lat["params"]["percentile"]) == (4.74, "ms", "95")
    err = _one(series, metric="errors_per_second", params={"interval_end": "2"})
    assert err["value"] == 1.2  # `err/s 1.20` without its colon
    summary = _one(rows, metric="transactions_per_second", statistic="value")
    assert summary["value"] == 2741.88 and "interval_end" not in summary["params"]


def test_queries_performed_counts_are_rows():
    rows = _rows(SB10_SERIES)
    got = {r["params"]["query_type"]: r["value"] for r in rows if r["metric"] == "query_count"}
    assert got == {"read": 575974, "write": 164564, "other": 82282, "total": 822820}
    assert all(r["unit"] == "count" for r in rows if r["metric"] == "query_count")


def test_series_without_a_summary_gives_no_rows():
    cut = SB10_SERIES.split("SQL statistics:")[0]
    assert [r for r in _rows(cut) if r["statistic"] == "interval"] == []


def test_v05_interval_reads_and_writes_are_query_rates():
    rows = _rows(_fixture("v05_oltp_pkb"))
    series = [r for r in rows if r["statistic"] == "interval"]
    assert len(series) == 8 * 6
    reads = _one(series, metric="queries_per_second", params={"interval_end": "4", "query_type": "read"})
    assert (reads["value"], reads["params"]["interval_start"]) == (8678.45, "2")
    rt = _one(series, metric="latency_percentile", params={"interval_end": "2"})
    assert (rt["value"], rt["params"]["percentile"]) == (210.67, "99")


def test_pkb_per_cpu_memory_runs_carry_their_cpu():
    rows = _rows(_fixture("v10_memory_pkb"))
    ops = {r["params"]["cpu"]: r["value"] for r in rows if r["metric"] == "ops_per_second"}
    assert ops == {"0": 3894455.31, "1": 5471831.9}
    assert not any("repeat" in r["params"] for r in rows)


@st.composite
def _series(draw) -> tuple[str, list[tuple[int, float, float, float]]]:
    """A sysbench 1.0 OLTP report with `--report-interval`: (text, [(t, tps, qps, p95)])."""
    step = draw(st.integers(1, 30))
    n = draw(st.integers(1, 8))
    money = st.decimals(min_value=0, max_value=99999, places=2).map(float)
    points = [((k + 1) * step, draw(money), draw(money), draw(money)) for k in range(n)]
    lines = ["sysbench 1.0.20 (using bundled LuaJIT 2.1.0-beta2)", "", "Number of threads: 8",
             f"Report intermediate results every {step} second(s)", "", "Threads started!", ""]
    for t, tps, qps, p95 in points:
        lines.append(f"[ {t}s ] thds: 8 tps: {tps:.2f} qps: {qps:.2f} (r/w/o: 1.00/2.00/3.00) "
                     f"lat (ms,95%): {p95:.2f} err/s: 0.00 reconn/s: 0.00")
    lines += ["SQL statistics:", "    transactions:                        41141  (2741.88 per sec.)",
              "", "General statistics:", "    total time:                          15.0036s"]
    return "\n".join(lines) + "\n", points


@settings(max_examples=60, deadline=None)
@given(_series())
def test_interval_series_round_trips(case):
    text, points = case
    series = [r for r in _rows(text) if r["statistic"] == "interval"]
    got = {(r["params"]["interval_start"], r["params"]["interval_end"], r["metric"], r["params"].get("query_type")): r["value"]
           for r in series}
    want = {}
    prev = 0
    for t, tps, qps, p95 in points:
        span = (str(prev), str(t))
        want[(*span, "transactions_per_second", None)] = tps
        want[(*span, "queries_per_second", None)] = qps
        want[(*span, "latency_percentile", None)] = p95
        for kind, v in (("read", 1.0), ("write", 2.0), ("other", 3.0)):
            want[(*span, "queries_per_second", kind)] = v
        want[(*span, "errors_per_second", None)] = 0.0
        want[(*span, "reconnects_per_second", None)] = 0.0
        prev = t
    assert got == want and len(series) == len(want)


# https://lore.kernel.org/linux-mm/0ec3e9ce4b564bee3883b6141b1f9f2498188002.1639306956.git.baolin.wang@linux.alibaba.com/
CAPTIONED_QUERY_COUNTS = """\
Testing with mysql can show about 6% performance improved as below.

sysbench /usr/share/sysbench/tests/include/oltp_legacy/oltp.lua
--mysql-user=root --mysql-password=root --oltp-test-mode=complex
--report-interval=10 prepare/run

No speculative numa fault:
    queries performed:
        read:                            33039860
        write:                           9439960
        other:                           4719980
        total:                           47199800
    transactions:                        2359990 (3933.28 per sec.)
    queries:                             47199800 (78665.50 per sec.)

Speculative numa fault:
    queries performed:
        read:                            34896862
        write:                           9970532
        other:                           4985266
        total:                           49852660
    transactions:                        2492633 (4154.35 per sec.)
    queries:                             49852660 (83086.94 per sec.)
"""


def test_summaries_quoted_from_their_query_counts_on_are_one_run_each_under_their_caption():
    from transforms.extract import extract_runs
    from transforms.rows import result_rows

    got = {(r["system"], r["metric"], r["params"].get("query_type"), r["value"])
           for r in result_rows(extract_runs(CAPTIONED_QUERY_COUNTS, "m"))}
    assert ("No speculative numa fault", "query_count", "read", 33039860.0) in got
    assert ("No speculative numa fault", "transactions_per_second", None, 3933.28) in got
    assert ("Speculative numa fault", "query_count", "total", 49852660.0) in got
    assert ("Speculative numa fault", "queries_per_second", None, 83086.94) in got
    assert len(got) == 12

"""STREAM parser: the tricky cells of real posts, mail damage, and property tests."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.transforms.parsers.damage import (
    DAMAGES,
    canon,
    damaged,
    one,
)
from tests.transforms.parsers.helpers import Golden, robust_tests
from transforms.parsers import stream
from transforms.units import KNOWN_UNITS

GOLDEN = Golden("stream", ("stream",))
_rows, _runs, _fixture = GOLDEN.rows, GOLDEN.runs, GOLDEN.body


# --- real posts -------------------------------------------------------------------------------


def test_v510_best_rate_and_times_with_preamble_params():
    text = _fixture("v510_openmp_two_runs")
    rows = _rows(text)
    p1 = {"array_size": "430080000", "threads": "96", "repeat": "1"}
    triad = one(rows, metric="triad", params=p1)
    assert (triad["value"], triad["unit"], triad["statistic"], triad["higher_is_better"]) == (718799.1, "MB/s",
                                                                                              "value", True)  # fmt: skip
    assert triad["metric_label"] == "Triad:"
    t = {
        r["statistic"]: r["value"]
        for r in rows
        if r["metric"] == "triad_time" and r["params"] == p1
    }
    assert t == {"mean": 0.014390, "min": 0.014360, "max": 0.014484}
    p2 = {**p1, "repeat": "2"}
    assert one(rows, metric="copy", params=p2)["value"] == 720545.7
    runs = _runs(text)
    assert [r.tool_version for r in runs] == ["5.10", "5.10"]
    assert runs[0].attributes["element_bytes"] == "8"


def test_rms_column_is_not_an_average():
    rows = _rows(_fixture("rms_header_then_hdparm"))
    assert {r["statistic"] for r in rows if r["metric"].endswith("_time")} == {"min", "max"}
    assert one(rows, metric="add")["value"] == 266.8000
    assert one(rows, metric="add_time", statistic="max")["value"] == 0.1813
    assert not [r for r in rows if r["value"] == 0.1805]  # the RMS time


def test_kernel_names_in_the_left_margin():
    rows = _rows(_fixture("rms_header_kernels_in_margin"))
    assert {r["system"] for r in rows} == {"2.2.14", "2.4.0ac10", "2.4.1ac11"}
    # the same kernel in two memory configurations is told apart by repeat
    a = one(rows, system="2.2.14", metric="scale", params={"repeat": "1"})
    b = one(rows, system="2.2.14", metric="scale", params={"repeat": "2"})
    assert (a["value"], b["value"]) == (54.2420, 84.3468)
    assert one(rows, system="2.4.1ac11", metric="copy")["value"] == 88.4453


def test_thread_series_one_table_per_thread_count():
    rows = _rows(_fixture("v59_thread_scaling_series"))
    for threads, value in (
        ("1", 10108.3413),
        ("2", 13095.9151),
        ("3", 13958.5017),
        ("4", 14293.3696),
    ):
        r = one(rows, metric="triad", params={"array_size": "31576436", "threads": threads})
        assert r["value"] == value
    assert all(
        r["system"] is None for r in rows
    )  # neither "=== Testing ... ===" nor "Solution Validates"


def test_usr_bin_time_after_the_table_is_not_read():
    rows = _rows(_fixture("v5x_rate_header_usr_bin_time"))
    assert len(rows) == 16
    assert one(rows, metric="scale_time", statistic="mean")["value"] == 0.2530
    assert not [r for r in rows if r["value"] in (12.10, 1.36, 98.0)]


def test_source_code_is_not_output():
    assert _rows(_fixture("neg_stream_source_code")) == []
    assert _runs(_fixture("neg_stream_source_code")) == []


def test_failed_validation_is_unparsed():
    text = ("Function    Best Rate MB/s  Avg time     Min time     Max time\n"
            "Copy:           31496.2     0.005665     0.005080     0.006309\n"
            "Scale:          21727.9     0.009275     0.007364     0.009625\n"
            "-------------------------------------------------------------\n"
            "Failed Validation on array a[], AvgRelAbsErr > epsilon (1.000000e-13)\n")  # fmt: skip
    runs = _runs(text)
    assert [r.status for r in runs] == ["unparsed"] and "Validation" in runs[0].reason
    assert _rows(text) == []


def test_prose_words_are_not_kernels():
    text = "Copy: the file took 3 seconds\nAdd: another 4 cores and retry\n"
    assert _rows(text) == [] and _runs(text) == []


def test_no_header_keeps_rate_min_max_only():
    text = (
        "Copy:          54.6566       0.2928       0.2927       0.2928\n"
        "Triad:         59.0813       0.4063       0.4062       0.4070\n"
    )
    rows = _rows(text)
    assert {(r["metric"], r["statistic"]) for r in rows} == {
        ("copy", "value"), ("copy_time", "min"), ("copy_time", "max"),
        ("triad", "value"), ("triad_time", "min"), ("triad_time", "max"),
    }  # fmt: skip


def test_metric_registry_units_are_known():
    assert all(spec.unit in KNOWN_UNITS for spec in stream.METRICS.values())


# --- properties -------------------------------------------------------------------------------

FIXTURE_TEXTS = GOLDEN.bodies()
test_random_text_never_raises, test_mutated_fixtures_never_raise = robust_tests(
    _runs, FIXTURE_TEXTS, ["", " ", ":", "x", "Triad:", "\n", "1.5", "Failed Validation", "Rate (GB/s)"]
)  # fmt: skip


_TIME = st.floats(min_value=0, max_value=1000, allow_nan=False, allow_infinity=False)
_RATE = st.floats(min_value=0, max_value=9e7, allow_nan=False, allow_infinity=False)
_LABELS = ("Copy:      ", "Scale:     ", "Add:       ", "Triad:     ")


def _report(
    new: bool, size: int, threads: int, cells: list[tuple[float, float, float, float]]
) -> str:
    """The table as stream.c prints it (5.10 or the older 5.x format), with its preamble."""
    lines = ["-" * 61, "STREAM version $Revision: 5.10 $", "-" * 61,
             f"Array size = {size} (elements), Offset = 0 (elements)",
             f"Number of Threads requested = {threads}", "-" * 61]  # fmt: skip
    if new:
        lines.append("Function    Best Rate MB/s  Avg time     Min time     Max time")
        fmt = "{}{:12.1f}  {:11.6f}  {:11.6f}  {:11.6f}"
    else:
        lines.append("Function      Rate (MB/s)   Avg time     Min time     Max time")
        fmt = "{}{:11.4f}  {:11.4f}  {:11.4f}  {:11.4f}"
    lines += [fmt.format(label, *c) for label, c in zip(_LABELS, cells, strict=True)]
    lines += [
        "-" * 61,
        "Solution Validates: avg error less than 1.000000e-13 on all three arrays",
        "-" * 61,
    ]
    return "\n".join(lines) + "\n"


_REPORT = st.builds(_report, st.booleans(), st.integers(10**5, 10**10), st.integers(1, 512),
                    st.lists(st.tuples(_RATE, _TIME, _TIME, _TIME), min_size=4, max_size=4))  # fmt: skip


@settings(max_examples=120, deadline=None)
@given(_REPORT)
def test_printed_report_round_trips(text):
    rows = _rows(text)
    assert len(rows) == 16
    size = re.search(r"Array size = (\d+)", text).group(1)
    threads = re.search(r"requested = (\d+)", text).group(1)
    for line in text.splitlines():
        m = re.match(r"(Copy|Scale|Add|Triad):\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$", line)
        if not m:
            continue
        metric = m.group(1).lower()
        p = {"array_size": size, "threads": threads}
        assert one(rows, metric=metric, params=p)["value"] == float(m.group(2))
        for stat, token in zip(("mean", "min", "max"), m.groups()[2:], strict=True):
            assert one(rows, metric=f"{metric}_time", statistic=stat, params=p)["value"] == float(
                token
            )


@settings(max_examples=120, deadline=None)
@given(_REPORT, st.sampled_from(DAMAGES))
def test_mail_damage_keeps_the_rows(text, how):
    assert canon(_rows(damaged(text, how, keep_ends=True))) == canon(_rows(text))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FIXTURE_TEXTS), st.sampled_from(DAMAGES))
def test_mail_damage_on_real_posts_keeps_the_rows(text, how):
    assert canon(_rows(damaged(text, how, keep_ends=True))) == canon(_rows(text))


# --- HPC Challenge: StarSTREAM and SingleSTREAM ------------------------------------------------


def test_hpcc_star_and_single_stream_summaries():
    from tests.transforms.parsers.fixtures_io import FIXTURES, fixture_body, rows_of

    rows = rows_of(fixture_body(FIXTURES / "stream" / "hpcc_142_pkb_star_single.txt"))
    star = {(r["metric"], r["statistic"]): r["value"] for r in rows
            if r["params"] == {"hpcc": "StarSTREAM"}}
    assert star[("copy", "mean")] == 5.225863 and star[("triad", "max")] == 5.94335
    assert star[("scale", "min")] == 5.143492 and len(star) == 12
    single = {r["metric"]: r["value"] for r in rows if r["params"] == {"hpcc": "SingleSTREAM"}}
    assert single == {"copy": 11.503244, "scale": 11.633804, "add": 12.726493, "triad": 12.243333}
    assert {r["unit"] for r in rows if r["metric"] in ("copy", "scale", "add", "triad")} == {"GB/s"}
    table = [r for r in rows if r["params"].get("array_size") == "130363392" and r["metric"] == "copy"]
    assert [(r["value"], r["params"]["hpcc"]) for r in table] == [(5.1716, "StarSTREAM")]


def test_single_stream_lines_alone_are_read():
    text = "Single STREAM Copy GB/s 11.503244\nSingle STREAM Triad GB/s 12.243333\n"
    from tests.transforms.parsers.fixtures_io import rows_of

    assert [(r["metric"], r["value"], r["statistic"]) for r in rows_of(text)] == [
        ("copy", 11.503244, "value"), ("triad", 12.243333, "value")]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.decimals(min_value=0, max_value=9999, places=6).map(float), min_size=16, max_size=16))
def test_hpcc_summary_lines_round_trip(values):
    from tests.transforms.parsers.fixtures_io import rows_of

    kernels = ("Copy", "Scale", "Add", "Triad")
    it = iter(values)
    lines, want = ["Begin of StarSTREAM section."], {}
    for k in kernels:
        for word, stat in (("Minimum", "min"), ("Average", "mean"), ("Maximum", "max")):
            v = next(it)
            lines.append(f"{word} {k} GB/s {v:f}")
            want[("StarSTREAM", k.lower(), stat)] = v
    lines += ["End of StarSTREAM section.", "Begin of SingleSTREAM section.", "Node selected 2"]
    for k in kernels:
        v = next(it)
        lines.append(f"Single STREAM {k} GB/s {v:f}")
        want[("SingleSTREAM", k.lower(), "value")] = v
    lines.append("End of SingleSTREAM section.")
    rows = rows_of("\n".join(lines) + "\n")
    got = {(r["params"]["hpcc"], r["metric"], r["statistic"]): r["value"] for r in rows}
    assert got == want and len(rows) == len(want)


def test_a_pipe_table_of_best_average_and_worst_rates_and_times():
    # VirtualClient's STREAM 5.10 Windows example (fixture stream/v510_virtualclient_windows_markdown_table.txt)
    rows = _rows(_fixture("v510_virtualclient_windows_markdown_table"))
    triad = {(r["metric"], r["statistic"]): r["value"] for r in rows if r["metric"].startswith("triad")}
    assert triad == {("triad", "mean"): 43789.5, ("triad", "value"): 44512.3, ("triad", "min"): 42987.6,
                     ("triad_time", "mean"): 0.164567, ("triad_time", "min"): 0.161234,
                     ("triad_time", "max"): 0.16789}
    assert len(rows) == 24


def test_hpcc_summary_lines_only_when_the_sections_were_not_read():
    # PerfKitBenchmarker's HPCC 1.4.2 summary (fixture stream/hpcc_142_pkb_summary_section.txt)
    rows = _rows(_fixture("hpcc_142_pkb_summary_section"))
    assert {(r["params"]["hpcc"], r["metric"], r["statistic"], r["value"]) for r in rows if r["metric"] == "copy"} == {
        ("StarSTREAM", "copy", "mean", 5.22586), ("SingleSTREAM", "copy", "value", 11.5032)}
    both = ("Begin of SingleSTREAM section.\nSingle STREAM Copy GB/s 11.503200\nEnd of SingleSTREAM section.\n"
            "SingleSTREAM_Copy=11.5032\n")
    assert [(r["metric"], r["value"]) for r in _rows(both)] == [("copy", 11.5032)]

"""Normalized comparison reports (transforms.handmade.normalized), on a post's own lines."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_explained
from transforms.handmade.normalized import read_normalized
from transforms.rows import result_rows

# https://lore.kernel.org/lkml/2bb35bb3-cbe4-460f-a209-1fe4095e1dce@amd.com/
REPORT = """\
o Benchmark results

     ==================================================================
     Test          : hackbench
     Units         : Normalized time in seconds
     Interpretation: Lower is better
     Statistic     : AMean
     ==================================================================
     Case:           tip[pct imp](CV)       ttwu_opt[pct imp](CV)
      1-groups     1.00 [ -0.00](13.74)     0.92 [  7.68]( 6.04)
     16-groups     1.00 [ -0.00]( 1.10)     0.97 [  3.01]( 1.62)


     ==================================================================
     Test          : tbench
     Units         : Normalized throughput
     Interpretation: Higher is better
     Statistic     : AMean
     ==================================================================
     Clients:    tip[pct imp](CV)       ttwu_opt[pct imp](CV)
         1     1.00 [  0.00]( 0.82)     1.04 [  4.33]( 1.84)
      1024     1.00 [  0.00]( 0.26)     1.02 [  1.82]( 0.41)


     ==================================================================
     Test          : stream-10
     Units         : Normalized Bandwidth, MB/s
     Interpretation: Higher is better
     Statistic     : HMean
     ==================================================================
     Test:       tip[pct imp](CV)       ttwu_opt[pct imp](CV)
      Copy     1.00 [  0.00]( 8.37)     0.97 [ -2.79]( 9.17)
     Triad     1.00 [  0.00]( 6.39)     1.01 [  1.45]( 8.42)


     ==================================================================
     Test          : schbench
     Units         : Normalized 99th percentile latency in us
     Interpretation: Lower is better
     Statistic     : Median
     ==================================================================
     #workers: tip[pct imp](CV)       ttwu_opt[pct imp](CV)
       1     1.00 [ -0.00]( 8.54)     0.89 [ 10.87](35.39)
"""


def test_each_block_gives_its_benchmark_the_values_under_the_column_systems():
    values, used = read_normalized(REPORT.splitlines())
    got = {(v.benchmark, v.system, v.label, tuple(sorted(v.params.items())), v.value) for v in values}
    assert ("hackbench", "ttwu_opt", "Normalized time in seconds",
            (("groups", "16"), ("statistic", "AMean")), 0.97) in got
    assert ("tbench", "tip", "Normalized throughput", (("clients", "1024"), ("statistic", "AMean")), 1.0) in got
    assert ("stream", "ttwu_opt", "Triad (Normalized Bandwidth, MB/s)",
            (("statistic", "HMean"), ("test", "stream-10")), 1.01) in got
    assert len(values) == 12  # schbench is no benchmark the project reads; no improvement or spread
    assert 3 in used and 10 in used and 48 not in used


def test_the_report_becomes_unitless_rows_and_not_throughput_in_mb_per_second():
    rows = result_rows(extract_explained(REPORT, "m")[0])
    assert len(rows) == 12 and {r["layout"] for r in rows} == {"hand_table"}
    copy = next(r for r in rows if r["benchmark"] == "stream" and r["system"] == "ttwu_opt"
                and r["metric_label"].startswith("Copy"))
    assert copy["value"] == 0.97 and copy["unit"] != "MB/s"
    assert {r["system"] for r in rows} == {"tip", "ttwu_opt"}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["Test : tbench", "Units : x", "Statistic : AMean", "Clients: a[pct imp](CV)",
                                 "  1   1.00 [ 0.00]( 0.1)", "Test: a[pct imp](CV) b[pct imp](CV)",
                                 "  2   1.00 [ 0.00]( 0.1)   0.9 [-1.0](2.0)", "", "x"]), max_size=12))
def test_any_lines_read_without_raising(lines):
    values, used = read_normalized(lines)
    assert all(0 <= v.line < len(lines) for v in values) and all(0 <= k < len(lines) for k in used)


# https://lore.kernel.org/lkml/xkjbg4f2uddir25s6hv2b37v6iymj7aunuryulyuqdu3ksv2rx@3abkcrnjjbtr/ (its
# quoted lines): no key block, the test named by a title over `========`, heads `[pct imp]( std%)`
# with a blank inside a system's name, rows labelled by a case and a count
TITLED = """> schbench(new) 99.0th latency (lower is better)
> ========
> load        \tbaseline[pct imp](std%)       With patch[pct imp]( std%)
> 20mt, 10wt      1.00 [ 0.00]( 0.24)           0.97 [ +3.00]( 0.18)
>
> hackbench (lower is better)
> ========
> case              load        baseline[pct imp](std%)      With patch[pct imp]( std%)
> process-sockets   1-groups    1.00 [ 0.00]( 5.21)            0.91 [ +9.00]( 5.50)
> process-sockets   4-groups    1.00 [ 0.00]( 7.30)            1.01 [ -1.00]( 4.27)
"""


def test_a_titled_report_without_a_key_block():
    values, _ = read_normalized(TITLED.split("\n"))
    got = {(v.benchmark, v.system, v.params.get("case"), v.params.get("groups"), v.value) for v in values}
    assert got == {("hackbench", "baseline", "process-sockets", "1", 1.0), ("hackbench", "With patch", "process-sockets", "1", 0.91),
                   ("hackbench", "baseline", "process-sockets", "4", 1.0), ("hackbench", "With patch", "process-sockets", "4", 1.01)}
    assert {v.label for v in values} == {"hackbench (lower is better)"}  # schbench is not read here

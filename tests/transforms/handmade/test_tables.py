"""Hand-made tables read from real posts, and their invariants under re-spacing and quoting."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.sample_posts import CHANGE_ONLY, KERNBENCH
from transforms.extract import extract_explained, extract_runs
from transforms.handmade.tables import comma_columns, read_tables
from transforms.rows import result_rows

# https://lore.kernel.org/lkml/ (2023, "Re: [PATCH v3 7/7] sched: Shard per-LLC shared runqueues")
NORMALISED = """\
there is overall slight stable improvement on tbench:

tbench throughput
======
case            \tload    \tbaseline(std%)\tcompare%( std%)
loopback        \t56-threads\t 1.00 (  0.85)\t +4.35 (  0.23)
loopback        \t112-threads\t 1.00 (  0.38)\t +0.91 (  0.05)
loopback        \t168-threads\t 1.00 (  0.03)\t +2.96 (  0.06)
"""


def rows(text: str, subject: str | None = None) -> list[dict]:
    return result_rows(extract_runs(text, "m", subject=subject))


def facts(text: str, subject: str | None = None) -> list[tuple]:
    return sorted((r["benchmark"], r["system"], r["metric"], r["value"], r["unit"], r["layout"],
                   tuple(sorted(r["params"].items()))) for r in rows(text, subject))


def test_change_only_table_keeps_changes_against_the_baseline():
    got = rows(CHANGE_ONLY)
    assert len(got) == 8
    assert {r["layout"] for r in got} == {"change_table"}
    assert {r["unit"] for r in got} == {"%"}
    assert {r["system"] for r in got} == {"with these patches"}
    assert {r["params"]["baseline"] for r in got} == {"without these patches"}
    execl = next(r for r in got if r["metric_label"] == "Execl Throughput")
    assert (execl["benchmark"], execl["metric"], execl["value"]) == ("unixbench", "execl_throughput_change_pct", 1.9356)


def test_rows_of_systems_columns_of_metrics():
    got = {(r["system"], r["metric"]): r["value"] for r in rows(KERNBENCH)}
    assert got[("2.5.59-mjb3-gcc32-O2", "elapsed_time")] == 45.86
    assert got[("2.5.59-mjb3-gcc32-Os", "system_time")] == 111.06
    assert got[("2.5.59-mjb3-gcc32-Os", "percent_cpu")] == 1475.17
    assert len(got) == 8
    assert {r["layout"] for r in rows(KERNBENCH)} == {"hand_table"}


def test_normalised_baseline_column_makes_a_change_table():
    got = rows(NORMALISED)
    assert sorted(r["value"] for r in got) == [0.91, 2.96, 4.35]  # never the 1.00s nor the std%
    assert {r["benchmark"] for r in got} == {"tbench"}
    assert {r["layout"] for r in got} == {"change_table"}
    assert {r["params"]["baseline"] for r in got} == {"baseline"}


def test_table_without_benchmark_evidence_gives_nothing():
    table = KERNBENCH.replace("Kernbench-2", "Build-2")
    assert rows(table) == []


def test_same_rows_when_quoted():
    quoted = "\n".join("> " + line for line in KERNBENCH.splitlines())
    strip = [f[:-1] for f in facts(quoted)]
    assert strip == [f[:-1] for f in facts(KERNBENCH)]


@settings(max_examples=40, deadline=None)
@given(gap=st.integers(min_value=2, max_value=9), tabs=st.booleans(), quote=st.booleans())
def test_same_rows_under_other_spacing(gap, tabs, quote):
    lines = []
    for line in KERNBENCH.splitlines():
        cells = line.split()
        sep = "\t" if tabs else " " * gap
        lines.append(("  " if line.startswith(" ") else "") + sep.join(cells) if len(cells) > 1 else line)
    text = "\n".join(("> " + ln) if quote else ln for ln in lines)
    assert [f[:-1] for f in facts(text)] == [f[:-1] for f in facts(KERNBENCH)]


# https://lore.kernel.org/linux-mm/ (2009, "Re: [PATCH 2.6.28 1/2] memory: improve find_vma")
# the legend and first figure of one linux-mm post, shared by the two excerpts of it below
_LEGEND = """\
I ran an lmbench test on the 2.6.28 kernel and on the same kernel
after applying the patch.  Here's a portion of the results with the
format of
test : standard kernel / kernel after patch

Simple syscall: 0.7419 / 0.4244 microseconds
"""
SLASHED = _LEGEND + """\
Simple read: 1.2071 / 0.7270 microseconds
Pipe latency: 6.0052 / 5.6193 microseconds
"""

# https://lore.kernel.org/lkml/ (2025, "Re: [PATCH v13 00/13] nommu UML")
CSV_TABLE = """\
.. csv-table:: lmbench (usec)
  :header: ,native,um,um-mmu(s),um-nommu(s)

  select-10    ,0.5319,36.1214,24.2795,2.9174
  syscall      ,0.1644,35.0321,53.2119,2.5981
"""


def test_slash_columns_take_their_systems_from_the_legend():
    got = {(r["system"], r["metric_label"]): (r["value"], r["unit"], r["layout"]) for r in rows(SLASHED)}
    assert got[("standard kernel", "Simple syscall")] == (0.7419, "us", "key_value")
    assert got[("kernel after patch", "Pipe latency")] == (5.6193, "us", "key_value")
    assert len(got) == 6


def test_rest_csv_table():
    got = {(r["system"], r["metric_label"]): (r["value"], r["unit"]) for r in rows(CSV_TABLE)}
    assert got[("native", "select-10")] == (0.5319, "us")
    assert got[("um-nommu(s)", "syscall")] == (2.5981, "us")
    assert len(got) == 8 and {r["benchmark"] for r in rows(CSV_TABLE)} == {"lmbench"}


# the shape of real cpuidle posts: kernels (or governors) as rows, one column per tool
SYSTEMS_AS_ROWS = """\
Results on a 2-socket box:

              tbench (MB/s)   turbostat PkgWatt
menu             1234.5           45.2
teo              1300.1           41.0
"""

TWO_TOOLS_AS_COLUMNS = """\
                dbench 8     tbench 8    turbostat Watt
6.8.0           812.3        2301.4       95.1
6.8.0+coreidle  820.9        2410.2       88.0
"""

# https://lore.kernel.org/lkml/0e153dd25900af70f91e4a73f960320e6daf3c6a.camel@gmx.de/ (quoted part,
# with the no-break spaces the archive left quoted-printable)
KERNELS_AS_ROWS_QP = """\
> > tbench 8 on old i7-4790 box
> > 4.4.302=C2=A0=C2=A0=C2=A0=C2=A0=C2=A0 4024
> > 6.4.11=C2=A0=C2=A0=C2=A0=C2=A0=C2=A0=C2=A0 3668
> > 6.4.11-eevdf 3522
"""


def test_systems_as_rows_are_systems_not_metrics():
    got = [(r["benchmark"], r["system"], r["metric"], r["value"], r["unit"]) for r in rows(SYSTEMS_AS_ROWS)]
    assert sorted(got) == [("tbench", "menu", "throughput", 1234.5, "MB/s"),
                           ("tbench", "teo", "throughput", 1300.1, "MB/s")]  # no turbostat watts


def test_each_column_keeps_the_tool_its_head_names():
    got = sorted((r["benchmark"], r["system"], r["metric_label"], r["value"]) for r in rows(TWO_TOOLS_AS_COLUMNS))
    assert got == [("dbench", "6.8.0", "dbench 8", 812.3), ("dbench", "6.8.0+coreidle", "dbench 8", 820.9),
                   ("tbench", "6.8.0", "tbench 8", 2301.4), ("tbench", "6.8.0+coreidle", "tbench 8", 2410.2)]


def test_kernel_releases_as_rows_under_a_caption():
    got = sorted((r["system"], r["value"]) for r in rows(KERNELS_AS_ROWS_QP))
    assert got == [("4.4.302", 4024.0), ("6.4.11", 3668.0), ("6.4.11-eevdf", 3522.0)]
    assert {r["benchmark"] for r in rows(KERNELS_AS_ROWS_QP)} == {"tbench"}


PIPE_WITH_NOTES = """\
netperf results:

| test       | base (trans/s) | patched (trans/s) | note         |
|------------|----------------|-------------------|--------------|
| TCP_RR     | 12345          | 13000             | better       |
| UDP_RR     | 14000          | 14100             | same (noise) |
"""


def test_pipe_rows_ending_in_a_remark_are_read_cell_by_cell():
    got = sorted((r["system"], r["metric_label"], r["value"], r["unit"]) for r in rows(PIPE_WITH_NOTES))
    assert got == [("base", "TCP_RR", 12345.0, "trans/s"), ("base", "UDP_RR", 14000.0, "trans/s"),
                   ("patched", "TCP_RR", 13000.0, "trans/s"), ("patched", "UDP_RR", 14100.0, "trans/s")]
    assert {r["benchmark"] for r in rows(PIPE_WITH_NOTES)} == {"netperf"}


def test_drop_text_columns_keeps_label_and_number_columns():
    from transforms.handmade.tables import drop_text_columns

    lines = PIPE_WITH_NOTES.splitlines()[2:]
    out = drop_text_columns(lines)
    assert out[2] == "| TCP_RR     | 12345          | 13000             |"
    assert out[0] == "| test       | base (trans/s) | patched (trans/s) |"


_cell_text = st.one_of(st.integers(0, 10**6).map(str), st.sampled_from(["ok", "better", "", "n/a", "same (noise)"]))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(_cell_text, min_size=3, max_size=3), min_size=1, max_size=6))
def test_drop_text_columns_properties(grid):
    from transforms.handmade.tables import drop_text_columns

    lines = ["| " + " | ".join(["row", *r]) + " |" for r in grid]
    out = drop_text_columns(lines)
    assert len(out) == len(lines)
    assert drop_text_columns(out) == out  # idempotent
    nums = lambda ls: [c.strip() for ln in ls for c in ln.split("|") if c.strip().isdigit()]  # noqa: E731
    assert nums(out) == nums(lines)  # every number stays, in order
    assert all(ln.split("|")[1].strip() == "row" for ln in out)  # the label column stays


# https://lore.kernel.org/lkml/ (2025, a review of the spawn regression revert), excerpt
ONE_ROW_UNDER_NAMES = """\
Unixbench Tests './Run -c 4 spawn' on:

(a) VM AWS instance (m7gd.16xlarge) with v6.13

    w/o patch   w/ patch
    21005       27120
"""


def test_one_row_under_a_header_of_names_is_one_value_per_name():
    got = sorted((r["system"], r["metric"], r["value"], r["unit"]) for r in rows(ONE_ROW_UNDER_NAMES))
    assert got == [("w/ patch", "process_creation", 27120.0, "lps"),
                   ("w/o patch", "process_creation", 21005.0, "lps")]


# https://lore.kernel.org/virtualization/ (2021, "[PATCH V4 00/12] vhost: multiple worker support")
FIO_THOUSANDS = """\
fio jobs        1       2       4       8       12      16
----------------------------------------------------------
1 worker        84k    492k    510k    -       -       -
worker per vq   184k   380k    744k    1422k   2256k   2434k
"""


def test_fio_numbers_with_a_thousands_suffix_and_no_unit_are_iops():
    got = rows(FIO_THOUSANDS, subject="[PATCH V4 00/12] vhost: multiple worker support (fio)")
    assert len(got) == 9
    assert {(r["metric"], r["params"]["scale"]) for r in got} == {("iops", "k")}
    assert sorted((r["system"], r["params"]["fio jobs"], r["value"]) for r in got)[:3] == [
        ("1 worker", "1", 84.0), ("1 worker", "2", 492.0), ("1 worker", "4", 510.0)]


# https://lore.kernel.org/lkml/ (2021, "[PATCH] sched/fair: Adjust the allowed NUMA imbalance when
# SD_NUMA spans multiple LLCs"), excerpt: the second table is specjbb's, as the text below it says
TABLE_EXPLAINED_BELOW = """\
On a Zen3 machine running STREAM parallelised with OMP to have on instance
per LLC the results and without binding, the results are

                               vanilla     sched-numaimb-v2r4
MB/sec copy-16    164279.50 (   0.00%)   702962.88 ( 327.91%)
MB/sec triad-16   154562.04 (   0.00%)   641408.02 ( 314.98%)

STREAM can use directives to force the spread if the OpenMP is new
enough but that doesn't help if an application uses threads.

                                  vanilla     sched-numaimb-v1r2
Min       Score-16   366090.84 (   0.00%)   401505.65 (   9.67%)
Max       Score-16   416666.67 (   0.00%)   483529.77 (  16.05%)

It can also make a big difference for semi-realistic workloads
like specjbb which can execute arbitrary numbers of threads.
"""


def test_a_table_the_text_below_gives_to_another_benchmark_is_not_ours():
    got = sorted((r["system"], r["metric"], r["value"]) for r in rows(TABLE_EXPLAINED_BELOW))
    assert got == [("sched-numaimb-v2r4", "copy", 702962.88), ("sched-numaimb-v2r4", "triad", 641408.02),
                   ("vanilla", "copy", 164279.5), ("vanilla", "triad", 154562.04)]


# https://lore.kernel.org/lkml/ (2002, "Re: [PATCH] Radix-tree pagecache for 2.5"), excerpt: bonnie++
# results re-typed under group heads drawn with dashes, quoted with a name (`rwhron>`)
GROUP_HEADS = """\
rwhron> bonnie++
rwhron> Version 1.02a     -----------Sequential Input-----------   ------Random-----
rwhron>                   -----Per Char-----  ------Block-------   ------Seeks------
rwhron> Kernel      Size  MB/sec  %CPU   Eff  MB/sec  %CPU   Eff    /sec  %CPU   Eff
rwhron> 2.4.17      1024    3.98  97.2  4.10   16.39  60.6 27.05     132   2.0  6609
rwhron> 2.4.17rat   1024    3.92  96.0  4.08   15.46  57.0 27.12     126   2.0  6302
"""


def test_group_heads_drawn_with_dashes_prefix_the_column_heads():
    got = {(r["system"], r["metric_label"]): (r["metric"], r["value"], r["unit"]) for r in rows(GROUP_HEADS)}
    assert got[("2.4.17", "Sequential Input Per Char %CPU")] == ("seq_input_char_cpu", 97.2, "%CPU")
    assert got[("2.4.17rat", "Sequential Input Block MB/sec")][1:] == (15.46, "MB/s")
    assert got[("2.4.17", "Random Seeks /sec")] == ("random_seeks", 132.0, "/sec")
    assert got[("2.4.17rat", "Random Seeks %CPU")] == ("random_seeks_cpu", 2.0, "%CPU")
    assert {r["params"]["size"] for r in rows(GROUP_HEADS)} == {"1024"}
    assert len(got) == 18


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["--A--", "---Long Name---", "x", "  ", "-", "--", "Per Char"]), max_size=8),
       st.lists(st.sampled_from(["K/sec", "%CP", "/sec"]), min_size=2, max_size=6))
def test_with_groups_keeps_every_column_and_its_own_head(groups, heads):
    from transforms.handmade.cells import split_wide
    from transforms.handmade.tables import with_groups

    head_line = "          " + "  ".join(heads)
    lines = ["  ".join(groups), head_line]
    header = split_wide(head_line)
    out = with_groups(lines, 1, header)
    assert len(out) == len(header)
    assert all(o.text.endswith(h.text) and (o.start, o.end) == (h.start, h.end) for o, h in zip(out, header, strict=True))


# https://lore.kernel.org/linux-mm/8c5a844a0901221500m7af8ff45v169b6523ad9d7ad3@mail.gmail.com/, excerpt:
# lmbench's `"mappings` series re-typed with both kernels' values on each line, under a legend
SERIES_UNDER_LEGEND = _LEGEND + """
"mappings
0.524288 9.989 / 7.411
1.048576 14 / 12
2.097152 24 / 22
4.194304 43 / 66
"""


def test_lmbench_series_takes_sizes_from_its_first_column_and_systems_from_the_legend():
    got = sorted((r["system"], r["params"].get("size"), r["value"]) for r in rows(SERIES_UNDER_LEGEND)
                 if r["metric_label"] == "mappings")
    assert got[:4] == [("kernel after patch", "0.524288", 7.411), ("kernel after patch", "1.048576", 12.0),
                       ("kernel after patch", "2.097152", 22.0), ("kernel after patch", "4.194304", 66.0)]
    assert len(got) == 8


# https://lore.kernel.org/lkml/ (2025, pcp free_high batch; the mmtests netperf-tcp table of the post)
_PCP = Path(__file__).parents[2] / "fixtures/real/dev/f_lkml_2025_netperf_pcp_free_high_batch.txt"


def test_mmtests_statistic_then_size_then_one_value_per_system():
    lines = _PCP.read_text().split("\n")
    start = next(k for k, ln in enumerate(lines) if ln.startswith("On a 2-node AMD server"))
    text = "netperf-tcp\n" + "\n".join(lines[start:start + 12]) + "\n"
    rows = result_rows(extract_explained(text, "m")[0])
    got = {(r["system"], r["params"].get("size")): r["value"] for r in rows}
    assert got[("vanilla", "64")] == 732.14 and got[("freehigh-heuristicsopt", "8192")] == 20447.12
    assert {r["metric_label"] for r in rows} == {"Hmean"} and len(rows) == 16


# https://lore.kernel.org/lkml/20030915022508.GA26687@rushmore/ (tbench on 2.6.0-test kernels, then a profile)
_TBENCH = Path(__file__).parents[2] / "fixtures/real/dev/k_lkml_2003_tbench_test1_to_test5_rwhron.txt"


def test_tbench_caption_spread_column_and_profile_table():
    text = _TBENCH.read_text().split("\n", 1)[1].split("\n\n", 1)[1]
    rows = result_rows(extract_explained(text, "t", subject="Re: [BENCHMARK] tbench 8x  2.6.0-test5 v test5-mm1")[0])
    assert {r["benchmark"] for r in rows} == {"tbench"}  # `tbench 192` over dbench-style lines
    got = {(r["system"], r["value"]) for r in rows}
    assert ("2.6.0-test5-mm1", 329.827) in got and ("2.6.0-test3-mm2", 151.1) in got
    assert ("2.6.0-test3-mm2", 0.7) not in got  # the `+/-` column is a spread
    assert len(rows) == 14  # the readprofile table under `tbench profile` gives none


def test_a_label_set_off_before_the_metric_names_the_system():
    # https://lore.kernel.org/lkml/ (2019, kernel stack randomization: lmbench lines under labels)
    text = ("lmbench numbers:\n\nNo randomization: \t\t\tSimple syscall: 0.0534 microseconds\n"
            "Wih get_random_bytes(4096 buffer): \tSimple syscall: 0.0597 microseconds\n")
    rows = result_rows(extract_explained(text, "l")[0])
    assert {(r["system"], r["metric_label"], r["value"], r["unit"]) for r in rows} == {
        ("No randomization", "Simple syscall", 0.0534, "us"),
        ("Wih get_random_bytes(4096 buffer)", "Simple syscall", 0.0597, "us")}


# https://lore.kernel.org/lkml/20230912065808.2530-2-aaron.lu@intel.com/ (tg->load_avg ratelimit)
_TG = Path(__file__).parents[2] / "fixtures/real/dev/k_lkml_2023_sysbench_hackbench_netperf_tg_load_avg_ratelimit.txt"


def test_base_and_patch_rows_are_systems_and_a_row_above_is_no_caption():
    lines = _TG.read_text().split("\n")
    start = next(k for k, ln in enumerate(lines) if ln.startswith("postgres_sysbench on SPR"))
    rows = result_rows(extract_explained("\n".join(lines[start:start + 8]) + "\n", "t")[0])
    got = {(r["system"], r["value"]) for r in rows}
    assert got == {("base", 42382.0), ("patch", 50174.0), ("base", 67626.0), ("patch", 67365.0)}
    assert not any(r["metric_label"].startswith("patch") for r in rows)  # not the row of the group above


# https://lore.kernel.org/lkml/1571405198-27570-1-git-send-email-vincent.guittot@linaro.org/
_CFS = Path(__file__).parents[2] / "fixtures/real/dev/k_lkml_2019_hackbench_dbench_cfs_lb_rework_v4.txt"


def test_one_header_row_names_the_systems_of_the_captioned_groups_below_it():
    lines = _CFS.read_text().split("\n")
    start = next(k for k, ln in enumerate(lines) if ln.startswith("- small arm64"))
    got = rows("\n".join(lines[start:start + 16]) + "\n")
    hack = {(r["system"], r["params"].get("groups"), r["value"]) for r in got if r["benchmark"] == "hackbench"}
    assert hack == {("tip/sched/core", "1", 1.579), ("w/ this patchset", "1", 1.41),
                    ("tip/sched/core", "4", 1.269), ("w/ this patchset", "4", 1.205),
                    ("tip/sched/core", "8", 1.117), ("w/ this patchset", "8", 1.123),
                    ("tip/sched/core", "16", 1.176), ("w/ this patchset", "16", 1.164)}
    shell = {(r["system"], r["value"]) for r in got if r["benchmark"] == "unixbench"}
    assert shell == {("tip/sched/core", 1963.48), ("w/ this patchset", 1902.88),
                     ("tip/sched/core", 2427.6), ("w/ this patchset", 2469.8)}
    # the caption over the groups is what was measured, never a system
    assert not any(r["system"].startswith(("hackbench", "Unixbench")) for r in got)


def test_past_a_sentence_a_header_row_names_a_later_headless_table_unless_its_heads_are_metrics():
    text = ("            base       patched\nschedpipe  53125      53443\n\n"
            "Then I ran something else entirely, which is described here in words.\n\n"
            "hackbench -l 2560 -g 4\n 1 groups   1.579   1.410\n 4 groups   1.269   1.205\n")
    got = {(r["system"], r["value"]) for r in rows(text) if r["benchmark"] == "hackbench"}
    assert got == {("base", 1.579), ("patched", 1.41), ("base", 1.269), ("patched", 1.205)}
    text = text.replace("base       patched", "Throughput  Latency")
    assert {r["system"] for r in rows(text) if r["benchmark"] == "hackbench"} == {None}


# https://lore.kernel.org/linuxppc-dev/52811199-742a-40fc-8bf2-9cb4397afda4@linux.ibm.com/
_PPC = Path(__file__).parents[2] / "fixtures/real/dev/at_linuxppcdev_2025_hackbench_paravirt_cpus_powervm_kvm.txt"


def test_the_posts_column_scheme_over_earlier_tables_names_a_headless_table_below():
    got = rows(_PPC.read_text())
    hack = {(r["system"], r["params"].get("case"), r["value"]) for r in got
            if r["benchmark"] == "hackbench" and r["params"].get("case", "").startswith("Process 10")}
    assert hack == {("upstream", "Process 10 groups", 2.84), ("+series", "Process 10 groups", 2.62)}


def test_groups_under_one_heading_take_their_parameter_line_and_the_heading():
    lines = _TG.read_text().split("\n")
    start = next(k for k, ln in enumerate(lines) if ln.startswith("hackbench on ICL"))
    got = rows("\n".join(lines[start:start + 16]) + "\n")
    assert {(r["system"], r["params"].get("group"), r["value"]) for r in got} == {
        ("base", "1", 114912.0), ("patch", "1", 117857.0), ("base", "4", 359902.0), ("patch", "4", 361685.0),
        ("base", "8", 461070.0), ("patch", "8", 491713.0), ("base", "16", 309032.0), ("patch", "16", 378337.0)}
    assert {r["metric_label"] for r in got} == {"hackbench"}  # the heading, for every group alike
    start = next(k for k, ln in enumerate(lines) if ln.startswith("postgres_sysbench on SPR"))
    got = rows("\n".join(lines[start:start + 16]) + "\n")
    # `75%` alone over the rows is what they ran at; `+12.2%` after a row is a change, not a column
    assert {(r["system"], r["params"].get("case"), r["value"]) for r in got} == {
        ("base", "25%", 42382.0), ("patch", "25%", 50174.0), ("base", "50%", 67626.0), ("patch", "50%", 67365.0),
        ("base", "75%", 100216.0), ("patch", "75%", 112470.0), ("base", "100%", 93671.0), ("patch", "100%", 113563.0)}
    assert not any(r["unit"] == "%" for r in got)


def test_a_caption_ending_in_a_colon_is_no_column_head():
    # https://lore.kernel.org/lkml/ (2001, "SW-RAID0 Performance problem"), the lines as posted
    text = ("The hdparm results:\nhdparm -t /dev/md0 : 20.25 MB/sec\nhdparm -t /dev/hda : 20.51 MB/sec\n"
            "hdaprm -t /dev/hdc : 20.71 MB/sec\n")
    got = rows(text)
    assert {r["value"] for r in got} == {20.25, 20.51, 20.71}
    assert not any((r["system"] or "").startswith("The hdparm") for r in got)


def test_commands_whose_last_number_is_their_own_argument_are_no_rows():
    # https://lore.kernel.org/stable/ (2020, LKFT: hackbench fails on one board), the lines as posted
    text = ("hackbench test cases started failing on this build.\n\ncd /opt/ltp/testcases/bin\n"
            "./hackbench 50 process 1000\n./hackbench 20 thread 1000\n")
    assert rows(text) == []


def test_a_pipe_table_without_outer_pipes_keeps_its_header_of_systems():
    # https://lore.kernel.org/lkml/ (2025, memcg: decouple memcg and objcg stocks), the lines as posted
    text = (" $ netperf -6 -H ::1 -l 60 -t TCP_SENDFILE -- -m 10K\n\nPREEMPT_RT config:\n------------------\n"
            "number of clients | Without series | With series\n  6               | 38559.1 Mbps   | 38652.6 Mbps\n"
            "  12              | 37388.8 Mbps   | 37560.1 Mbps\n")
    got = {(r["system"], r["value"]) for r in rows(text)}
    assert got == {("Without series", 38559.1), ("With series", 38652.6),
                   ("Without series", 37388.8), ("With series", 37560.1)}


def test_thousands_of_iops_and_t_io_uring_as_fio_evidence():
    # https://lore.kernel.org/linux-block/ (2025, blk-mq: retry batch tag allocation), the lines as posted
    text = ("workload:randread\nblocksize:4k\nthread:1\n"
            "------------------------------------------------------------------------\n"
            "                   PCIe Gen3 SSD   PCIe Gen4 SSD    PCIe Gen5 SSD\n"
            "native kernel     553k iops       633k iops        793k iops\n"
            "modified          553k iops       635k iops        801k iops\n\n"
            "cmd :sudo taskset -c 0 ./t/io_uring -b512 -d128 -c32 -s32 -p1 -F1 -B1\n")
    got = rows(text)
    assert {r["benchmark"] for r in got} == {"fio"}
    assert sorted(r["value"] for r in got) == [553000.0, 553000.0, 633000.0, 635000.0, 793000.0, 801000.0]
    assert {r["unit"] for r in got} == {"IOPS"}  # `blocksize:4k` and `thread:1` are settings, no rows


# https://lore.kernel.org/lkml/20070105215223.GA5361@elte.hu/ (2007, "[announce] [patch] KVM paravirtualization")
KVM_ROWS = """\
"hackbench 1" (utilizes 40 tasks, numbers in seconds, lower is better):

 native:                       0.25
 ----------------------------------
 Qemu:                         7.8
 KVM upstream:                 2.8
 KVM trunk:                    0.55
 KVM paravirt/cr3:             0.36
"""


def test_rows_named_for_a_hypervisor_and_its_variant_are_systems():
    rows = result_rows(extract_explained(KVM_ROWS, "k", subject="[announce] [patch] KVM paravirtualization")[0])
    assert {(r["benchmark"], r["system"], r["value"]) for r in rows} == {
        ("hackbench", "native", 0.25), ("hackbench", "Qemu", 7.8), ("hackbench", "KVM upstream", 2.8),
        ("hackbench", "KVM trunk", 0.55), ("hackbench", "KVM paravirt/cr3", 0.36)}


# https://lore.kernel.org/lkml/20030309181833.GA3168@rushmore/ (tbench 192 on 2.5 kernels), lines as posted
TBENCH_BADRUN = """\
The kernel's labeled "badrun" had this behaviour.
There has been no problem running tbench 64 on this machine.

2.5.54-mm3                      112.54 MB/second
2.5.55                          120.79
2.5.59-mm2                      841.02 badrun
2.5.59-mm5                      117.93
"""


def test_a_word_of_comment_after_a_value_and_a_unit_spelled_out_per_second():
    rows = result_rows(extract_explained(TBENCH_BADRUN, "t")[0])
    got = {(r["system"], r["value"], r["unit"]) for r in rows}
    assert got == {("2.5.54-mm3", 112.54, "MB/s"), ("2.5.55", 120.79, "MB/s"), ("2.5.59-mm2", 841.02, "MB/s"),
                   ("2.5.59-mm5", 117.93, "MB/s")}
    assert {r["benchmark"] for r in rows} == {"tbench"}


def test_a_caption_with_numbers_and_words_after_them_is_no_row():
    # https://lore.kernel.org/lkml/Pine.LNX.4.21.0101040016580.839-100000@freak.distro.conectiva/, as posted
    text = ("And here are some dbench numbers:\n\n12 clients / 64M ram\nwithout the patch: 10.04 Mb/s  \n"
            "with the patch: 14.47 Mb/s\n")
    assert sorted(r["value"] for r in result_rows(extract_explained(text, "d")[0])) == [10.04, 14.47]


# https://lore.kernel.org/linux-nvme/cover.1561381826.git.zhangweiping@didiglobal.com/, lines as posted
WRR = """\
fio --bs=4k --ioengine=libaio --iodepth=32 --filename=/dev/nvme0n1 --direct=1 --

Randread 4K\tRR\t\tWRR
-------------------------------------------------------
fio-1:\t\t220 k\t\t395 k
fio-2:\t\t220 k\t\t197 k
"""


def test_the_corner_head_names_the_test_and_rows_of_jobs_are_its_params():
    rows = result_rows(extract_explained(WRR, "w")[0])
    got = {(r["system"], r["metric_label"], r["params"].get("job"), r["value"]) for r in rows}
    assert got == {("RR", "Randread 4K", "fio-1", 220.0), ("WRR", "Randread 4K", "fio-1", 395.0),
                   ("RR", "Randread 4K", "fio-2", 220.0), ("WRR", "Randread 4K", "fio-2", 197.0)}


def test_a_bulleted_list_of_items_each_with_one_value_names_the_systems():
    # https://lore.kernel.org/linux-arm-kernel/1b254bb7fc6044c5e6e2fdd9e00088d1d13a808b.1562149883.git.joabreu@synopsys.com/
    text = ("This commit introduces support for Page Pool API and uses it in all RX\n"
            "queues. With this change, we get more stable troughput and some increase\nof banwidth with iperf:\n"
            "\t- MAC1000 - 950 Mbps\n\t- XGMAC: 9.22 Gbps\n")
    got = {(r["system"], r["value"], r["unit"]) for r in result_rows(extract_explained(text, "s")[0])}
    assert got == {("MAC1000", 950.0, "Mbit/s"), ("XGMAC", 9.22, "Gbit/s")}


def test_a_corner_head_and_a_headless_approximate_change_column():
    # https://lore.kernel.org/linux-mm/20091113211823.15074.1305.sendpatchset@localhost.localdomain/ (2009),
    # the lines as posted (tabs kept): the kernel stands over the labels, `~1.2%`/`~10x speedup` are changes
    text = ('Performance impact on "hackbench 400 process 200"\n\n'
            "2.6.32-rc5+mmotm-091101\t\tno-patch\tthis-patch\n"
            "no memoryless nodes [avg of 10]:  12.700\t  12.856  ~1.2%\n"
            "cpus all on memless nodes  [20]: 261.530\t  27.700 ~10x speedup\n")
    got = {(r["system"], r["value"]) for r in rows(text)}
    assert got == {("no-patch", 12.7), ("this-patch", 12.856), ("no-patch", 261.53), ("this-patch", 27.7)}
    assert {r["benchmark"] for r in rows(text)} == {"hackbench"}


def test_a_table_at_the_points_of_one_already_read_is_the_same_benchmark():
    # https://lore.kernel.org/lkml/44428f1e-ca2c-466f-952f-d5ad33f12073@amd.com/ (2023): the quoted table
    # far below the hackbench paragraph has the rows (`1-groups:` ...) of the table read under it
    post = (Path(__file__).parents[2] / "fixtures/real/dev/w_lkml_2023_hackbench_mm_cid_threads_zen3.txt")
    body = post.read_text(encoding="utf-8").split("\n\n", 1)[1]
    got = {(r["system"], r["value"]) for r in rows(body) if r["system"] and "mmcid" in r["system"]}
    assert ("With-mmcid-patch", 11.48) in got and ("Without-mmcid-patch", 8.07) in got and len(got) == 10
    assert {r["benchmark"] for r in rows(body)} == {"hackbench"}


# https://lore.kernel.org/lkml/20030915022508.GA26687@rushmore/ (2003, tbench over 2.6.0-test releases)
AVERAGE_HEAD = """\
tbench-1.3 192 processes                  Average      +/- MB/sec
2.6.0-test1-bk2                             114.8             6.9
2.6.0-test2-bk5                             115.3             4.7
2.6.0-test3-mm2                             151.1             0.7
"""


def test_a_statistic_column_head_labels_the_headline_figure():
    got = {(r["system"], r["metric"], r["metric_label"]): r["value"] for r in rows(AVERAGE_HEAD)}
    assert got[("2.6.0-test1-bk2", "throughput", "Average")] == 114.8
    assert got[("2.6.0-test3-mm2", "throughput", "Average")] == 151.1
    assert 6.9 not in got.values()  # the `+/-` column is a spread


# https://lore.kernel.org/lkml/200301171535.21226.efocht@ess.nec.de/
KERNBENCH_CAMEL_HEADS = """\
kernbench (average of 5 kernel compiles) (standard error in brackets)
---------
           Elapsed       UserTime      SysTime
orig       134.43(1.79)  944.79(0.43)  21.41(0.28)
ingo       136.74(1.58)  951.55(0.73)  21.16(0.32)
"""


def test_heads_whose_words_run_together_are_metrics_and_the_row_labels_systems():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(KERNBENCH_CAMEL_HEADS, "m")[0])
    got = {(r["system"], r["metric"], r["value"]) for r in rows}
    assert {("orig", "user_time", 944.79), ("orig", "system_time", 21.41),
            ("ingo", "user_time", 951.55), ("ingo", "elapsed_time", 136.74)} <= got


# https://lore.kernel.org/linux-mm/CAA_GA1dTJAJ2K101PwryrCnrE3t0y_EMRz_ttJ3LjBGFiyGp-g@mail.gmail.com/
# (the quoted cover letter)
KERNBENCH_COUNT_GROUPS = """\
started kernbench with -o N(numbers of threads)

          Without zcache    With zcache

8 threads
Elapsed Time        1821              1814(+0.3%)
User Time           5332              5304
Sleeps           1501004           1492835

24 threads
Elapsed Time        2556              2256(+11.7%)
User Time           5184              5225
"""


def test_a_count_alone_over_rows_is_their_parameter_not_their_head():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(KERNBENCH_COUNT_GROUPS, "m")[0])
    got = {(r["system"], r["metric"], r["params"].get("threads"), r["value"]) for r in rows}
    assert {("Without zcache", "elapsed_time", "8", 1821.0), ("With zcache", "elapsed_time", "8", 1814.0),
            ("With zcache", "sleeps", "8", 1492835.0), ("Without zcache", "user_time", "24", 5184.0)} <= got


# https://lore.kernel.org/lkml/f6dc1652-bc39-0b12-4b6b-29a2f9cd8484@amd.com/
REPORT_KEYS_OVER_TABLE = """\
  ==================================================================
  Test          : netperf
  Units         : Througput
  Interpretation: Higher is better
  Statistic     : AMean
  ==================================================================
                  6.5.0-rc1 (base)    base + mathieu-queued-wakeup
   1-clients:      59642.88 (0.00 pct)        61647.37 (3.36 pct)
   2-clients:      59349.65 (0.00 pct)        60896.01 (2.60 pct)
"""


def test_a_report_key_block_over_a_table_names_its_metric_by_the_units_line():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(REPORT_KEYS_OVER_TABLE, "m")[0])
    got = {(r["system"], r["metric_label"], r["value"]) for r in rows}
    assert ("6.5.0-rc1 (base)", "Througput", 59642.88) in got
    assert ("base + mathieu-queued-wakeup", "Througput", 60896.01) in got


# https://lore.kernel.org/netdev/20190903040141-mutt-send-email-mst@kernel.org/ (quoted cover letter)
SIZES_UNDER_A_UNIT_HEADING = """\
Below are the benchmarks step by step. I used iperf3 [1] modified with VSOCK
support.

A brief description of patches:
- Patches 1:   limit the memory usage with an extra copy for small packets

                    host -> guest [Gbps]
pkt_size before opt   p 1     p 2+3    p 4+5

32         0.032     0.030    0.048    0.051
512        0.459     0.466    0.847    0.865
1K         0.927     0.919    1.657    1.641
32K       13.327    13.204   19.013   20.515
"""


def test_a_column_of_sizes_with_binary_suffixes_is_a_parameter_and_the_heading_gives_the_unit():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(SIZES_UNDER_A_UNIT_HEADING, "m")[0])
    assert len(rows) == 16 and {r["benchmark"] for r in rows} == {"iperf"}
    got = {(r["system"], r["params"].get("size"), r["value"], r["unit"]) for r in rows}
    assert ("p 4+5", "32K", 20.515, "Gbit/s") in got and ("p 1", "1K", 0.919, "Gbit/s") in got
    assert any(s.endswith("before opt") for s, _, _, _ in got)


EFFICIENCY_HEADING = SIZES_UNDER_A_UNIT_HEADING.split("                    host")[0] + """\
        host -> guest efficiency [Mbps / (%CPU_Host + %CPU_Guest)]
pkt_size before opt   p 1     p 2+3    p 4+5

32         0.35      0.45     0.79     1.02
64         0.56      0.49     0.60     0.67
"""


def test_a_heading_names_what_the_values_are_and_a_ratio_gives_no_unit_of_its_own():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(EFFICIENCY_HEADING, "m")[0])
    assert len(rows) == 8 and {(r["metric_label"], r["unit"]) for r in rows} == {("efficiency", "")}
    assert ("p 4+5", "32", 1.02) in {(r["system"], r["params"].get("size"), r["value"]) for r in rows}


# https://lore.kernel.org/linux-mm/20111003135902.GA16518@localhost/ (the post's own lines)
LABELS_LAST = """\
USB stick:

      3.1.0-rc4-vanilla+        3.1.0-rc8-ioless6+
------------------------  ------------------------
                   54.39        +0.6%        54.73  3G-UKEY-HDD/xfs-10dd-4k-8p-4096M-20:10-X
                   63.72        -1.8%        62.58  3G-UKEY-HDD/xfs-1dd-4k-8p-4096M-20:10-X
                    6.31        +1.6%         6.41  UKEY-thresh=50M/xfs-1dd-4k-8p-4096M-50M:10-X
"""


def test_labels_printed_after_the_values_name_cases_under_the_heads():
    got = facts(LABELS_LAST)
    assert len(got) == 6 and {g[0] for g in got} == {"dd"}
    assert ("dd", "3.1.0-rc8-ioless6+", "throughput", 54.73, "MB/s", "hand_table",
            (("case", "3G-UKEY-HDD/xfs-10dd-4k-8p-4096M-20:10-X"),)) in got
    assert ("3.1.0-rc4-vanilla+", 6.31) in {(g[1], g[3]) for g in got}
    assert not any(g[3] in (0.6, 1.8, 1.6) for g in got)  # the change column is no value


def test_a_listing_with_a_head_over_its_last_column_is_no_table_of_cases():
    # `size` prints its file names last under a head of their own: no comparison of cases
    text = ("fio numbers below.\n\n   text    data     bss     dec  filename\n"
            "27450107 4633332  814148 32897587  vmlinux-old.o\n27483371 4633332  814148 32930851  vmlinux-new.o\n")
    assert rows(text) == []


# https://lore.kernel.org/all/CAJfpegvPTxkaNhXWhiQSprSJqyW1cLXeZEz6x_f0PxCd-yzHQg@mail.gmail.com/ (its lines)
NAMES_AND_OPERATIONS = """\
- Three fio ioengines psync, libaio and mmap have been used.

NAME                    I/O Operation           BW(Read/Write)

9p-cache-none           seqread-psync           27(MiB/s)
virtiofs-cache-none     seqread-psync           35(MiB/s)
virtiofs-dax-cache-none seqread-psync           245(MiB/s)

9p-cache-none           seqread-psync-multi     117(MiB/s)
virtiofs-cache-none     seqread-psync-multi     162(MiB/s)
virtiofs-dax-cache-none seqread-psync-multi     894(MiB/s)
"""


def test_groups_of_rows_under_heads_a_blank_line_away_with_two_label_columns():
    got = {(r["system"], r["params"].get("i/o operation"), r["value"], r["unit"], r["metric_label"])
           for r in rows(NAMES_AND_OPERATIONS)}
    assert len(got) == 6 and {r["benchmark"] for r in rows(NAMES_AND_OPERATIONS)} == {"fio"}
    assert ("virtiofs-dax-cache-none", "seqread-psync", 245.0, "MiB/s", "BW(Read/Write)") in got
    assert ("9p-cache-none", "seqread-psync-multi", 117.0, "MiB/s", "BW(Read/Write)") in got


def test_pairs_of_a_summary_a_blank_line_apart_stay_a_summary():
    text = "hackbench -g 8:\norig: 2.063s   with PREDICT_NO_PREEMPT: 1.833s\n\norig: 3.658s   with PREDICT_NO_PREEMPT: 3.479s\n"
    got = {(r["system"], r["value"]) for r in rows(text)}
    assert ("orig", 2.063) in got and ("with PREDICT_NO_PREEMPT", 3.479) in got


# https://lore.kernel.org/netdev/08c7e0aa-d90d-e0ff-a68c-0e182d077ab2@redhat.com/ (its lines, shortened)
SUB_HEADS = """\
Below are the benchmarks step by step. I used iperf3 [1] modified with VSOCK
support.

                     host -> guest [Gbps]
pkt_size before opt  p 1+2    p 3+4    p 5+6    p 7+8       virtio-net + vhost
                                                                      TCP_NODELAY
64         0.068     0.063    0.130    0.131    0.128         0.188     0.187
256        0.274     0.236    0.392    0.338    0.282         0.749     0.654
512        0.531     0.457    0.862    0.725    0.602         1.419     1.414

         host -> guest efficiency [Mbps / (%CPU_Host + %CPU_Guest)]
pkt_size before opt  p 1+2    p 3+4    p 5+6    p 7+8       virtio-net + vhost
                                                                      TCP_NODELAY
64          0.94      0.59     3.96     4.06     4.09          2.82      2.11
256         2.62      2.50     6.45     6.09     5.81          9.64      8.73
"""


def test_a_head_over_two_columns_told_apart_by_a_word_below_it():
    got = {(r["system"], r["params"].get("size"), r["value"], r["unit"], r["metric_label"]) for r in rows(SUB_HEADS)}
    gbps = "host -> guest [Gbps]"
    assert ("virtio-net + vhost", "64", 0.188, "Gbit/s", gbps) in got
    assert ("virtio-net + vhost TCP_NODELAY", "64", 0.187, "Gbit/s", gbps) in got
    assert ("p 7+8", "512", 0.602, "Gbit/s", gbps) in got
    # the ratio heading names the values (no unit of their own), whatever the heads below it
    assert ("virtio-net + vhost TCP_NODELAY", "256", 8.73, "", "efficiency") in got
    assert len(got) == 35


def test_a_count_written_with_its_scale_keeps_it_as_a_parameter():
    # https://lore.kernel.org/linux-fsdevel/CACzX3Au7PW2zFFLmtNgW10wq+Kp-bp66GXUVCUCfS4VvK3tDYw@mail.gmail.com/
    text = ("I modified t/io_uring in fio to exercise this path.\n\n"
            "- STRICT: before = 570 KIOPS, after = 5.01 MIOPS\n")
    got = {(r["system"], r["value"], r["unit"], r["params"].get("scale"), r["metric"]) for r in rows(text)}
    assert got == {("before", 570.0, "IOPS", "k", "iops"), ("after", 5.01, "IOPS", "M", "iops")}


def test_keys_that_name_configurations_are_the_systems():
    # https://lore.kernel.org/linux-mm/20170415150351.ulzzaqo45ub2vrkc@techsingularity.net/ (its lines)
    text = ("With disabled-mlx5-recycler, 8 parallel netperf TCP_STREAMs:\n\n"
            "Baseline v4.10.0  : 60316 Mbit/s\nCurrent 4.11.0-rc6: 47491 Mbit/s\nThis patch        : 60662 Mbit/s\n")
    got = {(r["system"], r["value"], r["unit"]) for r in rows(text)}
    assert got == {("Baseline v4.10.0", 60316.0, "Mbit/s"), ("Current 4.11.0-rc6", 47491.0, "Mbit/s"),
                   ("This patch", 60662.0, "Mbit/s")}


def test_a_caption_of_the_tools_results_names_no_metric_and_its_aside_is_a_parameter():
    # https://lore.kernel.org/lkml/c6f93f10-fea5-a734-9a78-64aa9ff44adb@huawei.com/ (its lines)
    text = ("tbench results (node 0):\n             baseline                    patched\n"
            "  1:        325.9673        378.9117 (   16.24%)\n  4:       1311.9667       1501.5033 (   14.45%)\n")
    got = {(r["system"], r["metric"], r["value"], r["unit"], r["params"].get("node")) for r in rows(text)}
    assert ("patched", "throughput", 1501.5033, "MB/s", "node 0") in got and len(got) == 4


def test_mmtests_starred_changes_are_asides_and_tbench4_names_tbench():
    # https://lore.kernel.org/netdev/73b1381e-6a59-26fe-c0b6-51ea3ebf60f8@bytedance.com/ (its lines)
    text = ("tbench4 Throughput (misleading but traditional)\n"
            "                             baseline               patchset\n"
            "Hmean     1        377.62 (   0.00%)      375.06 *  -0.68%*\n"
            "Hmean     2        753.99 (   0.00%)      753.21 *  -0.10%*\n"
            "Hmean     4       1503.50 (   0.00%)     1493.07 *  -0.69%*\n")
    got = {(r["benchmark"], r["system"], r["value"]) for r in rows(text)}
    assert got == {("tbench", "baseline", 377.62), ("tbench", "patchset", 375.06), ("tbench", "baseline", 753.99),
                   ("tbench", "patchset", 753.21), ("tbench", "baseline", 1503.5), ("tbench", "patchset", 1493.07)}


def test_mmtests_stddev_rows_below_the_means_are_no_values():
    # https://lore.kernel.org/lkml/ (2021, tip commit "sched/fair: Age the average idle time"), its lines
    text = ("hackbench-process-pipes\n                          5.13.0-rc2             5.13.0-rc2\n"
            "                             vanilla     sched-avgidle-v1r5\n"
            "Amean     1        0.3950 (   0.00%)      0.3887 (   1.60%)\n"
            "Amean     4        0.9450 (   0.00%)      0.9677 (  -2.40%)\n"
            "Amean     7        1.4737 (   0.00%)      1.4890 (  -1.04%)\n"
            "Stddev    1        0.0052 (   0.00%)      0.0025 (  51.57%)\n"
            "Stddev    4        0.0357 (   0.00%)      0.0370 (  -3.75%)\n")
    got = {(r["system"], r["params"].get("groups"), r["value"]) for r in rows(text)}
    assert {(r["metric"], r["statistic"], r["unit"]) for r in rows(text)} == {("time", "mean", "s")}
    assert got == {("5.13.0-rc2 vanilla", "1", 0.395), ("5.13.0-rc2 sched-avgidle-v1r5", "1", 0.3887),
                   ("5.13.0-rc2 vanilla", "4", 0.945), ("5.13.0-rc2 sched-avgidle-v1r5", "4", 0.9677),
                   ("5.13.0-rc2 vanilla", "7", 1.4737), ("5.13.0-rc2 sched-avgidle-v1r5", "7", 1.489)}


# https://lore.kernel.org/lkml/94F20261551DC141B6B559DC4910867204491F@blr-m3-msg.wipro.com/ (its lines):
# one line of heads over sections, each under a caption of its own
SECTIONS_UNDER_HEADS = """Here is a comparison of results of 2.5.54 with mm2 and 2.5.54 (lmbench).

\t\t\t\t\t\t2.5.54mm2\t2.5.54
==============================================================================
Processor, Processes - times in microseconds - smaller is better

1. sig handle\t\t\t\t3.59\t\t5.38
2. proc fs\t\t\t\t\t1212\t\t1534
------------------------------------------------------------------------------
*Local* Communication latencies in microseconds - smaller is better
1.AF UNIX\t\t\t\t\t13\t\t19
2.UDP\t\t\t\t\t\t24\t\t30
------------------------------------------------------------------------------
"""


def test_sections_of_a_table_take_the_heads_of_its_first_section():
    got = {(r["system"], r["metric_label"], r["value"]) for r in rows(SECTIONS_UNDER_HEADS)}
    assert ("2.5.54mm2", "1.AF UNIX", 13.0) in got and ("2.5.54", "1.AF UNIX", 19.0) in got
    assert ("2.5.54mm2", "2.UDP", 24.0) in got and ("2.5.54", "2.UDP", 30.0) in got
    assert ("2.5.54mm2", "1. sig handle", 3.59) in got and ("2.5.54", "2. proc fs", 1534.0) in got


# https://lore.kernel.org/lkml/20230208073533.715-1-bharata@amd.com/ (its lines): an mmtests report,
# the kernels named once over its first section
MMTESTS_SECTIONS = """(1st column is default kernel, 2nd column is with this patchset)

kernbench
=========
                                6.2.0-rc5              6.2.0-rc5-ibs
Amean     elsp-512       95.91 (   0.00%)       88.60 *   7.62%*

Duration Elapsed       96.52       89.20

Ops NUMA alloc hit                 552153976.00   499596610.00
Ops AutoNUMA cost                       1087.63        8989.67

tbench4 Throughput
==================
Hmean     1         504.57 (   0.00%)      496.80 *  -1.54%*
Hmean     2        1006.46 (   0.00%)      990.04 *  -1.63%*
Hmean     4        1855.11 (   0.00%)     1933.76 *   4.24%*
Hmean     8        3711.49 (   0.00%)     3582.32 *  -3.48%*
Hmean     16       6707.58 (   0.00%)     6674.46 *  -0.49%*
"""


def test_sections_of_an_mmtests_report_take_the_kernels_of_its_first():
    got = {(r["benchmark"], r["system"], r["value"]) for r in rows(MMTESTS_SECTIONS)}
    assert ("tbench", "6.2.0-rc5", 504.57) in got and ("tbench", "6.2.0-rc5-ibs", 496.8) in got
    assert ("tbench", "6.2.0-rc5", 1006.46) in got and ("tbench", "6.2.0-rc5-ibs", 6674.46) in got
    assert not any(s is None for _, s, _ in got)


# https://lore.kernel.org/lkml/21f3d376-17d6-8fb6-5f35-507ea931c0d3@amd.com/ (its lines)
MARKED_AND_OTHER_TEST = """==================================================================
Test          : Unixbench
Units         : Various, Throughput
Interpretation: Higher is better
Statistic     : AMean, Hmean (Specified)
==================================================================

\t\t                        tip\t\t        eevdf                   eevdf-curb
Hmean     unixbench-spawn-1            4263.51 (   0.00%)        4506.26 *   5.69%*        4520.53 *   6.03%*   ^
Hmean     unixbench-spawn-512         67782.44 (   0.00%)       69380.09 *   2.36%*       69709.04 *   2.84%*
Hmean     unixbench-execl-512         11929.77 (   0.00%)       12288.64 (   3.01%)       13096.25 *   9.78%*   ^


==================================================================
Test          : DeathStarBench
Units         : %diff of Throughput
Interpretation: Higher is better
Statistic     : AMean
==================================================================

\t       base\t eevdf\t       eevdf_curb
1CCD\t\t0%      -15.15% \t-16.55%
2CCD\t\t0%      -13.80% \t-16.23%
"""


def test_a_mark_beside_a_row_is_no_cell_and_a_report_of_another_test_gives_nothing():
    got = {(r["benchmark"], r["system"], r["value"]) for r in rows(MARKED_AND_OTHER_TEST)}
    assert ("unixbench", "tip", 4263.51) in got and ("unixbench", "eevdf-curb", 13096.25) in got
    assert not any(v in (-15.15, -16.55, -13.8) for _, _, v in got)  # DeathStarBench is not read here


# https://lore.kernel.org/lkml/20030407220206.GA23630@rushmore/ (its lines): `kernel` over the row
# labels, which are the machines; the two-line heads name the tests
KERNEL_COLUMN = """5 machines ran lmbench 25 times.  Below is the average of the 25 runs.

File select - times in microseconds - smaller is better
-------------------------------------------------------
               select   select   select   select   select   select   select   select
kernel          10 fd   100 fd   250 fd   500 fd   10 tcp  100 tcp  250 tcp  500 tcp
------------  -------  -------  -------  -------  -------  -------  -------  -------
linux-4x700     4.591   30.482   74.020  142.894    5.617   40.672   97.180   195.23
480r-2x900      8.584   65.730  161.389  338.983   12.371  100.656  249.271   519.16
s390-linux     18.797   56.076  118.010  221.433   21.296  80.4670  194.125  343.976
"""


def test_a_label_column_headed_kernel_holds_the_systems():
    got = {(r["system"], r["metric_label"], r["value"]) for r in rows(KERNEL_COLUMN)}
    assert ("linux-4x700", "select 10 fd", 4.591) in got and ("480r-2x900", "select 500 tcp", 519.16) in got
    assert ("s390-linux", "select 100 fd", 56.076) in got and len(got) == 24


def test_mmtests_several_statistics_per_size_each_labels_its_row():
    # https://lore.kernel.org/lkml/20220128052851.17162-1-bharata@amd.com/ (its lines)
    text = ("hackbench-process-pipes\n"
            "                           hackbench              hackbench\n"
            "                             default                    pan\n"
            "Min       256     23.5510 (   0.00%)     23.1900 (   1.53%)\n"
            "Amean     256     24.4604 (   0.00%)     24.0353 *   1.74%*\n"
            "Stddev    256      0.4420 (   0.00%)      0.7611 ( -72.18%)\n"
            "CoeffVar  256      1.8072 (   0.00%)      3.1666 ( -75.22%)\n"
            "Max       256     25.4930 (   0.00%)     30.5450 ( -19.82%)\n"
            "BAmean-50 256     24.1074 (   0.00%)     23.6616 (   1.85%)\n")
    got = {(r["system"], r["metric_label"], r["statistic"], r["params"].get("size"), r["value"]) for r in rows(text)}
    assert got == {("hackbench default", "Min", "min", "256", 23.551), ("hackbench pan", "Min", "min", "256", 23.19),
                   ("hackbench default", "Amean", "mean", "256", 24.4604),
                   ("hackbench pan", "Amean", "mean", "256", 24.0353),
                   ("hackbench default", "Max", "max", "256", 25.493), ("hackbench pan", "Max", "max", "256", 30.545),
                   ("hackbench default", "BAmean-50", "mean", "256", 24.1074),
                   ("hackbench pan", "BAmean-50", "mean", "256", 23.6616)}  # the size is no value


def test_heads_after_a_rule_name_a_later_block_of_the_same_report():
    # https://lore.kernel.org/lkml/6ef38c6e-e47d-66c2-216a-76ab4a59feb1@amd.com/ (its lines)
    text = ("kernbench\n==========\t\tbase                  patched\n"
            "Amean     user-128    13799.58 (   0.00%)    13789.86 *   0.07%*\n"
            "Amean     elsp-128      165.09 (   0.00%)      164.78 *   0.19%*\n\n"
            "Duration User       41404.28    41375.08\n"
            "Duration Elapsed      519.87      518.72\n")
    got = {(r["system"], r["metric_label"], r["value"]) for r in rows(text)}
    assert ("base", "Duration User", 41404.28) in got and ("patched", "Duration Elapsed", 518.72) in got


def test_a_report_giving_the_same_metric_rows_again_under_new_heads_is_the_same_benchmark():
    # https://lore.kernel.org/lkml/277737d6034b3da072d3b0b808d2fa6e110038b0.camel@suse.com/ (its lines,
    # quoted-printable decoded): mmtests' STREAM, the rows of the first block again under the VM heads
    text = (
    "STREAM\n"
    "======\n"
    "\n"
    "http://xenbits.xen.org/people/dariof/benchmarks/results/linux/core-sched/mmtests/boxes/wayrath/coresched-email-1_stream.txt\n"
    "\n"
    "                                  v                      v                     BM                     BM                     BM                     BM                     BM                     BM\n"
    "                              BM-HT                BM-noHT                     HT                   noHT                 csc-HT        csc_stallfix-HT             csc_tim-HT        csc_vruntime-HT\n"
    "MB/sec copy     33827.50 (   0.00%)    33654.32 (  -0.51%)    33683.34 (  -0.43%)    33819.30 (  -0.02%)    33830.88 (   0.01%)    33731.02 (  -0.29%)    33573.76 (  -0.75%)    33292.76 (  -1.58%)\n"
    "MB/sec scale    22762.02 (   0.00%)    22524.00 (  -1.05%)    22416.54 (  -1.52%)    22444.16 (  -1.40%)    22652.56 (  -0.48%)    22462.80 (  -1.31%)    22461.90 (  -1.32%)    22670.84 (  -0.40%)\n"
    "MB/sec add      26141.76 (   0.00%)    26241.42 (   0.38%)    26559.40 (   1.60%)    26365.36 (   0.86%)    26607.10 (   1.78%)    26384.50 (   0.93%)    26117.78 (  -0.09%)    26192.12 (   0.19%)\n"
    "MB/sec triad    26522.46 (   0.00%)    26555.26 (   0.12%)    26499.62 (  -0.09%)    26373.26 (  -0.56%)    26667.32 (   0.55%)    26642.70 (   0.45%)    26505.38 (  -0.06%)    26409.60 (  -0.43%)\n"
    "                                  v                      v                     VM                     VM                     VM                     VM                     VM                     VM\n"
    "                              VM-HT                VM-noHT                     HT                   noHT                 csc-HT        csc_stallfix-HT             csc_tim-HT        csc_vruntime-HT\n"
    "MB/sec copy     34559.32 (   0.00%)    34153.30 (  -1.17%)    34236.64 (  -0.93%)    33724.38 (  -2.42%)    33535.60 (  -2.96%)    33534.10 (  -2.97%)    33469.70 (  -3.15%)    33873.18 (  -1.99%)\n"
    "MB/sec scale    22556.18 (   0.00%)    22834.88 (   1.24%)    22733.12 (   0.78%)    23010.46 (   2.01%)    22480.60 (  -0.34%)    22552.94 (  -0.01%)    22756.50 (   0.89%)    22434.96 (  -0.54%)\n"
    "MB/sec add      26209.70 (   0.00%)    26640.08 (   1.64%)    26692.54 (   1.84%)    26747.40 (   2.05%)    26358.20 (   0.57%)    26353.50 (   0.55%)    26686.62 (   1.82%)    26256.50 (   0.18%)\n"
    "MB/sec triad    26521.80 (   0.00%)    26490.26 (  -0.12%)    26598.66 (   0.29%)    26466.30 (  -0.21%)    26560.48 (   0.15%)    26496.30 (  -0.10%)    26609.10 (   0.33%)    26450.68 (  -0.27%)\n"
    "\n"
    )
    got = {(r["benchmark"], r["system"], r["metric"], r["value"]) for r in rows(text)}
    assert ("stream", "BM-HT", "copy", 33827.5) in got  # `MB/sec copy`: the unit, then STREAM's metric
    assert ("stream", "VM-HT", "copy", 34559.32) in got and ("stream", "VM-noHT", "triad", 26490.26) in got
    assert len(got) == 64  # 2 blocks x 8 configurations x 4 metrics


# https://lore.kernel.org/lkml/20030425230939.GA2281@rushmore/ (2.5.68 vs 2.5.68-mm2): tiobench's four tables,
# one per test, only the first near `tiobench-0.3.3`; the later ones fit sysbench's labels, yet are tiobench's
_TIOBENCH = Path(__file__).parents[2] / "fixtures/real/dev/ar_lkml_2003_tbench_lmbench_bonnie_2568_vs_2568mm2.txt"


def test_tables_with_the_heads_of_one_left_unread_for_another_tool_are_left_unread_too():
    from transforms.mail import decode_message

    mail = decode_message(_TIOBENCH.read_bytes().split(b"\n", 1)[1])
    runs, _, explained = extract_explained(mail.body, "t", subject=mail.subject)
    rows = result_rows(runs)
    assert not [r for r in rows if r["benchmark"] == "sysbench"]
    assert {r["benchmark"] for r in rows} >= {"bonnie", "lmbench", "tbench"}
    twins = [e for e in explained if "its heads are those of the table at line" in e.outcome]
    assert len(twins) == 2


# https://lore.kernel.org/lkml/20030425230939.GA2281@rushmore/
_LM = Path(__file__).parents[2] / "fixtures/real/dev/ar_lkml_2003_tbench_lmbench_bonnie_2568_vs_2568mm2.txt"


def test_a_heading_saying_the_times_are_in_microseconds_gives_the_tables_unit():
    lines = _LM.read_text().split("\n")
    start = next(k for k, ln in enumerate(lines) if ln.startswith("Context switching with 4K"))
    text = "lmbench 2.0 results\n\n" + "\n".join(lines[start:start + 7]) + "\n"
    got = {(r["system"], r["metric_label"], r["value"], r["unit"]) for r in rows(text)}
    assert ("2.5.68", "2proc/4k ctx swtch", 1.81, "us") in got
    assert ("2.5.68-mm2", "96proc/4k ctx swtch", 7.91, "us") in got
    assert len(got) == 14
    # far below the tool's name, the unit the heading names is what makes the table a result
    far = "lmbench 2.0 results\n\n" + "Some words.\n\n" * 12 + "\n".join(lines[start:start + 7]) + "\n"
    assert len(rows(far)) == 14
    assert rows(far.replace("times in microseconds", "smaller is better")) == []


def test_a_lead_in_line_over_a_table_is_no_metric_but_a_tools_name_still_is():
    # https://lore.kernel.org/virtualization/CACycT3steXFeg7NRbWpo2J59dpYcumzcvM2zcPJAVe40-EvvEg@mail.gmail.com/
    table = ("                            numjobs=1   numjobs=2    numjobs=4   numjobs=8\n"
             "iova_alloc_fast    145k iops      265k iops      514k iops      758k iops\n\n"
             "iova_alloc            137k iops     170k iops      128k iops      113k iops\n")
    got = rows("I ran fio with a vduse block device.\n\nFollowing are some performance data:\n\n" + table)
    assert {(r["metric_label"], r["value"], r["unit"]) for r in got} >= {("iops", 145000.0, "IOPS"), ("iops", 758000.0, "IOPS")}
    named = rows("I ran fio with a vduse block device.\n\nfio:\n\n" + table)  # the caption says what was measured
    assert {r["metric_label"] for r in named} == {"fio"}


# https://lore.kernel.org/lkml/20211004080547.GK3959@techsingularity.net/ (2021, mmtests' compare
# report): the configurations' names under their releases, the first two run together, as posted
MMTESTS_GLUED = """\
For the same Cascadelake machine both resulst are from, dbench reports

                          5.15.0-rc1             5.15.0-rc1             5.15.0-rc1
                             vanillasched-scalewakegran-v2r5 sched-moveforward-v1r1
Amean     1         15.99 (   0.00%)       16.20 *  -1.27%*       16.18 *  -1.16%*
Amean     2         18.43 (   0.00%)       18.34 *   0.50%*       22.72 * -23.28%*
Amean     4         22.32 (   0.00%)       22.06 *   1.14%*       45.86 *-105.52%*
Amean     8         30.58 (   0.00%)       30.22 *   1.18%*       99.04 *-223.88%*
"""


def test_mmtests_names_under_their_releases_are_the_systems_even_run_together():
    rows = result_rows(extract_explained(MMTESTS_GLUED, "m", subject="Re: [PATCH 2/2] sched/fair: Scale wakeup")[0])
    got = {(r["system"].split()[-1], r["params"].get("clients"), r["value"]) for r in rows}
    assert {("vanilla", "1", 15.99), ("sched-scalewakegran-v2r5", "4", 22.06),
            ("sched-moveforward-v1r1", "4", 45.86), ("sched-moveforward-v1r1", "8", 99.04)} <= got
    assert len(rows) == 12 and {r["benchmark"] for r in rows} == {"dbench"}


def test_two_label_columns_under_their_heads_are_two_parameters():
    # https://lore.kernel.org/lkml/4f2131940d43060eda55847a2affc8042179b4ee.1695704179.git.yu.c.chen@intel.com/
    # (2023, SIS_CACHE v1): `case` and `load` over the rows, a spread in parentheses beside each head
    text = ("netperf throughput\n=======\n"
            "case            \tload    \tbaseline(std%)\tcompare%( std%)\n"
            "TCP_RR          \t56-threads\t 1.00 (  1.57)\t +0.08 (  1.23)\n"
            "TCP_RR          \t112-threads\t 1.00 (  1.01)\t -0.41 (  0.28)\n"
            "UDP_RR          \t56-threads\t 1.00 (  1.47)\t -0.09 (  1.57)\n")
    got = rows(text)
    assert {(r["params"]["case"], r["params"]["load"], r["metric_label"], r["system"], r["value"]) for r in got} == {
        ("TCP_RR", "56-threads", "TCP_RR", "compare%", 0.08), ("TCP_RR", "112-threads", "TCP_RR", "compare%", -0.41),
        ("UDP_RR", "56-threads", "UDP_RR", "compare%", -0.09)}
    assert {r["metric"] for r in got} == {"transaction_rate_change_pct"}  # one metric, whatever the load


def test_sentences_ending_in_a_name_with_a_number_are_no_table():
    # https://lore.kernel.org/linux-xfs/CAAiJnjor+=Zn62n09f-aJw2amX2wxQOb-2TB3rea9wDCU7ONoA@mail.gmail.com/
    # (2025, "Sequential read from NVMe/XFS twice slower on Fedora 42 than on Rocky 9.5"), as posted
    text = ("There are 12 Kioxia CM-7 NVMe SSDs configured in mdadm/raid0 and\nmounted to /mnt.\n\n"
            "Exactly the same fio command running under Fedora 42\n"
            "(6.14.5-300.fc42.x86_64) and then under Rocky 9.5\n"
            "(5.14.0-503.40.1.el9_5.x86_64) shows twice the performance difference.\n")
    assert rows(text) == []


# https://lore.kernel.org/lkml/YbnW/vLgE8MmQopN@BLR-5CG11610CF.amd.com/ (2021, NUMA imbalance v4.1/v4.2),
# the lines as posted: each row's changes on a line of their own under it, the label column named
# in the first head, one table per NPS setting, discussion between them
GAUTHAM = """\
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
tbench
Zen3, 64C128T per socket, 2 sockets,
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
NPS=1
======
Clients: tip-core   mel-v3    mel-v4    mel-v4.1
    1\t 633.19     619.16    632.94    619.27
    \t (0.00%)    (-2.21%)  (-0.03%)\t(-2.19%)
\t\x20
    2\t 1152.48    1189.88   1184.82   1189.19
    \t (0.00%)    (3.24%)   (2.80%)\t(3.18%)
\t\x20


We see that the v4.1 performs better than v4 in most cases except when
the number of clients=256 where the spread strategy seems to be
hurting as we see degradation in both v3 and v4.1. This is true even
for NPS=2 and NPS=4 cases (see below).

NPS=2
=====
Clients: tip-core   mel-v3    mel-v4    mel-v4.1
    1\t 629.76\t    620.91    629.11\t631.95
    \t (0.00%)    (-1.40%)  (-0.10%)\t(0.34%)
\t\x20
    2\t 1176.96    1203.12   1169.09\t1186.74
    \t (0.00%)    (2.22%)   (-0.66%)\t(0.83%)
"""


def test_changes_under_each_row_a_label_head_and_the_next_tables_of_a_series():
    got = {(r["system"], r["params"].get("clients"), r["params"].get("NPS"), r["value"]) for r in rows(GAUTHAM)}
    assert got == {
        ("tip-core", "1", "1", 633.19), ("mel-v3", "1", "1", 619.16), ("mel-v4", "1", "1", 632.94),
        ("mel-v4.1", "1", "1", 619.27), ("tip-core", "2", "1", 1152.48), ("mel-v3", "2", "1", 1189.88),
        ("mel-v4", "2", "1", 1184.82), ("mel-v4.1", "2", "1", 1189.19),
        ("tip-core", "1", "2", 629.76), ("mel-v3", "1", "2", 620.91), ("mel-v4", "1", "2", 629.11),
        ("mel-v4.1", "1", "2", 631.95), ("tip-core", "2", "2", 1176.96), ("mel-v3", "2", "2", 1203.12),
        ("mel-v4", "2", "2", 1169.09), ("mel-v4.1", "2", "2", 1186.74)}  # never a change in parentheses
    assert {(r["benchmark"], r["metric"]) for r in rows(GAUTHAM)} == {("tbench", "throughput")}
    # another tool named between the two tables ends the series
    other = GAUTHAM.replace("for NPS=2 and NPS=4 cases", "for the schbench NPS=2 and NPS=4 cases")
    assert {r["params"].get("NPS") for r in rows(other)} == {"1"}


def test_a_one_column_table_under_a_corner_head_takes_its_column_head_as_the_system():
    # the same post: one kernel's stream figures, `Test:` over the labels
    text = ("Stream with 16 threads.\nbuilt with -DSTREAM_ARRAY_SIZE=128000000, -DNTIMES=10\nNPS=4\nTest:\t mel-v4.2\n Copy:\t 225860.12 (498.11%)\n"
            "Scale:\t 227869.07 (572.58%)\n  Add:\t 278365.58 (624.93%)\nTriad:\t 264315.44 (596.62%)\n")
    assert {(r["system"], r["metric"], r["value"]) for r in rows(text)} == {
        ("mel-v4.2", "copy", 225860.12), ("mel-v4.2", "scale", 227869.07), ("mel-v4.2", "add", 278365.58),
        ("mel-v4.2", "triad", 264315.44)}


def test_groups_of_label_last_rows_under_heads_written_once():
    # https://lore.kernel.org/linux-mm/20111020033930.GA22746@localhost/ (2011, IO-less dirty throttling
    # v12): the heads over the first group only, each case after its values, a `TOTAL write_bw` row
    text = """\
FYI, a simple sequential write comparison between the common filesystems (dd).

                   btrfs                      ext3                      ext4                       xfs
------------------------  ------------------------  ------------------------  ------------------------
                   56.55       -45.8%        30.66       -10.8%        50.42       -26.1%        41.76  thresh=1G/X-100dd-4k-8p-4096M-1024M:10-3.1.0-rc8-ioless6a+
                   56.11       -37.2%        35.24        +0.2%        56.23       -13.9%        48.34  thresh=1G/X-10dd-4k-8p-4096M-1024M:10-3.1.0-rc8-ioless6a+

                   58.23       -35.9%        37.34       -20.2%        46.45       -23.5%        44.53  thresh=100M/X-10dd-4k-8p-4096M-100M:10-3.1.0-rc8-ioless6a+
                   58.43       -23.9%        44.44        -3.1%        56.60        -4.4%        55.89  thresh=100M/X-1dd-4k-8p-4096M-100M:10-3.1.0-rc8-ioless6a+

                  510.77       -30.6%       354.27        -8.9%       465.19       -16.2%       428.07  TOTAL write_bw
"""
    got = rows(text)
    assert {(r["system"], r["value"]) for r in got if r["params"].get("case", "").startswith("thresh=100M/X-1dd")} == {
        ("btrfs", 58.43), ("ext3", 44.44), ("ext4", 56.6), ("xfs", 55.89)}
    assert len(got) == 20  # no change column read
    assert {r["metric"] for r in got if "TOTAL" not in r["metric_label"]} == {"throughput"}
    assert sorted(r["value"] for r in got if "TOTAL" in r["metric_label"]) == [354.27, 428.07, 465.19, 510.77]


def test_unixbench_copy_counts_as_row_labels_are_the_copies_parameter():
    # https://lore.kernel.org/lkml/20210624115813.3613290-1-thara.gopinath@linaro.org/ (2021, LMh), as posted
    text = ("UnixBench whets and dhry\nSystem Benchmarks Index Score\n\n"
            "                Without LMh Support             With LMh Support\n"
            "1 copy test     1353.7                          1773.2\n\n"
            "8 copy tests    4473.6                          7402.3\n")
    assert {(r["system"], r["metric"], r["params"].get("copies"), r["value"]) for r in rows(text)} == {
        ("Without LMh Support", "index_score", "1", 1353.7), ("With LMh Support", "index_score", "1", 1773.2),
        ("Without LMh Support", "index_score", "8", 4473.6), ("With LMh Support", "index_score", "8", 7402.3)}


def test_devices_over_the_columns_and_kernels_down_the_rows():
    # https://lore.kernel.org/linux-block/345e9d6e-8bb2-3d43-4c3c-cc16fa7dd8c1@huaweicloud.com/ (2025)
    text = ("> Additionally, performance variations were observed on different devices (fio).\n"
            "> workload:randread\n> blocksize:4k\n> thread:1\n"
            "> ------------------------------------------------------------------------\n"
            ">                    PCIe Gen3 SSD   PCIe Gen4 SSD    PCIe Gen5 SSD\n"
            "> native kernel     553k iops       633k iops        793k iops\n"
            "> modified          553k iops       635k iops        801k iops\n")
    got = {(r["system"], r["params"].get("device"), r["metric"], r["value"]) for r in rows(text)}
    assert ("native kernel", "PCIe Gen4 SSD", "iops", 633000.0) in got
    assert ("modified", "PCIe Gen5 SSD", "iops", 801000.0) in got
    assert len(got) == 6


def test_a_release_as_a_row_label_names_the_system_not_a_case():
    # https://lore.kernel.org/linux-mm/1187764638.6869.17.camel@hannibal/ (2007, per-BDI dirty limits), its lines
    text = "files, and dd if=/dev/zero of=bigfile bs=1048576.\n\ndd writeout speed\n\n2.6.20: 36.3MB/s, 35.3MB/s, 33.9MB/s\n2.6.23: 20.9MB/s, 22.2MB/s\n"
    got = [(r["system"], r["value"], r["params"].get("case")) for r in rows(text)]
    assert sorted(got) == [("2.6.20", 33.9, None), ("2.6.20", 35.3, None), ("2.6.20", 36.3, None),
                           ("2.6.23", 20.9, None), ("2.6.23", 22.2, None)]


def test_unlabelled_runs_under_heads_that_carry_units():
    # https://lore.kernel.org/linux-mm/1186575947.3106.23.camel@castor.rsk.org/ (2007, per-device dirty
    # throttling), the lines as posted: five runs, no row labels, each head a measure with its unit
    text = ("dd bs=64k if=[sda]/data3g of=[sda]/temp_data3g &\n\nRunning this test 5 times gives\n"
            "2.6.23-rc1-mm2\n1GB copy MB/s\t3GB copy MB/s\n16.2\t\t16.1\n15.2\t\t14.6\n17.3\t\t14.6\n"
            "18.0\t\t14.5\n19.0\t\t14.6\n")
    got = rows(text)
    assert sorted(r["value"] for r in got if r["metric_label"].startswith("1GB")) == [15.2, 16.2, 17.3, 18.0, 19.0]
    assert {(r["system"], r["unit"]) for r in got} == {("2.6.23-rc1-mm2", "MB/s")} and len(got) == 10
    assert {r["metric"] for r in got} == {"1gb_copy", "3gb_copy"}  # the unit in the head is no part of the name
    # without units in the heads, unlabelled rows are samples (vmstat-like): no rows
    assert rows(text.replace(" MB/s", "")) == []


def test_a_shell_variable_over_the_rows_is_the_option_the_command_sets_with_it():
    # https://lore.kernel.org/lkml/20210309024012.1391035-1-yuxiangyang4@huawei.com/ (2021, futex PI), as posted
    text = ("Test case: https://github.com/akopytov/sysbench\n"
            "Test cmd: ./sysbench --test=threads --num-threads=$thr\n"
            "              --thread-yields=100 --thread-locks=2 run\n\n"
            "$thr    stock   non-inline   inline\n256    0.8511     0.9254     0.8588\n"
            "512    0.8489     0.9232     0.8503\n")
    got = rows(text)
    assert {(r["system"], r["metric"], r["params"]["threads"], r["value"]) for r in got} == {
        ("stock", "threads", "256", 0.8511), ("non-inline", "threads", "256", 0.9254), ("inline", "threads", "256", 0.8588),
        ("stock", "threads", "512", 0.8489), ("non-inline", "threads", "512", 0.9232), ("inline", "threads", "512", 0.8503)}
    assert {(r["params"]["thread-yields"], r["params"]["thread-locks"]) for r in got} == {("100", "2")}


def test_unixbench_parallel_test_counts_as_row_labels():
    # https://lore.kernel.org/lkml/1571405198-27570-1-git-send-email-vincent.guittot@linaro.org/ (2019), as posted
    text = ("           tip/sched/core        w/ this patchset    improvement\n"
            "Unixbench shell8\n  1 test     1963.48 +/-0.36%       1902.88 +/-0.73%    (-3.09%)\n"
            "224 tests    2427.60 +/-0.20%       2469.80 +/-0.42%  (1.74%)\n")
    assert {(r["system"], r["metric"], r["params"].get("tests"), r["value"]) for r in rows(text)} == {
        ("tip/sched/core", "shell_scripts_8", "1", 1963.48), ("w/ this patchset", "shell_scripts_8", "1", 1902.88),
        ("tip/sched/core", "shell_scripts_8", "224", 2427.6), ("w/ this patchset", "shell_scripts_8", "224", 2469.8)}


def _hand_rows(text: str) -> list[dict]:
    return [r for r in result_rows(extract_explained(text, "m")[0]) if r["layout"] == "hand_table"]


# https://lore.kernel.org/lkml/20230501134827.GB1597538@hirez.programming.kicks-ass.net/ (its lines, cut
# to three rows): heads too wide for their columns set on two lines in turn; each row a test, how many
# ran at once and the statistic (`TCP_SENDFILE-1  : Avg:`)
STAGGERED = """\
On my ancient IVB-EP (2*10*2) with the code as in queue/sched/core I get:

netperf           NO_WA_WEIGHT               NO_SIS_CURRENT
                                 NO_WA_BIAS             SIS_CURRENT
-------------------------------------------------------------------
TCP_SENDFILE-1  : Avg: 40495.7    41899.7    42001      40783.4
TCP_SENDFILE-10 : Avg: 37218.6    37200.1    37065.1    36604.4
TCP_RR-1        : Avg: 84347.1    81056.2    81167.8    83541.3
"""


def test_staggered_heads_name_the_columns_in_turn():
    got = {(r["system"], r["metric_label"], r["params"].get("instances"), r["value"]) for r in _hand_rows(STAGGERED)}
    assert ("NO_WA_WEIGHT", "TCP_SENDFILE", "1", 40495.7) in got
    assert ("NO_WA_BIAS", "TCP_SENDFILE", "10", 37200.1) in got
    assert ("NO_SIS_CURRENT", "TCP_RR", "1", 81167.8) in got
    assert ("SIS_CURRENT", "TCP_RR", "1", 83541.3) in got
    assert len(got) == 12
    rr = next(r for r in _hand_rows(STAGGERED) if r["metric_label"] == "TCP_RR")
    assert (rr["metric"], rr["statistic"]) == ("transaction_rate", "mean")


# https://lore.kernel.org/lkml/bfbfbf041854e2cd1a8ed14e64081062e5d632d3.camel@gmx.de/ (its lines, cut):
# the tool's name over the labels, then heads one blank apart over three columns
CORNER = """\
netperf                   cfs +eevdf  vs cfs
TCP_SENDFILE-1    Avg:  89258  92080   1.031
TCP_SENDFILE-2    Avg:  83271  83371   1.001
TCP_STREAM-1      Avg:  72583  71276    .981
"""


def test_heads_one_blank_apart_join_the_column_under_them():
    got = {(r["system"], r["metric_label"], r["params"].get("instances"), r["value"]) for r in _hand_rows(CORNER)}
    assert ("cfs", "TCP_SENDFILE", "1", 89258.0) in got
    assert ("+eevdf", "TCP_SENDFILE", "2", 83371.0) in got
    assert ("+eevdf", "TCP_STREAM", "1", 71276.0) in got
    assert not any(s == "netperf" for s, *_ in got)


# https://lore.kernel.org/netdev/20230724195813.11319-1-kuniyu@amazon.com/ (its lines, cut, tabs kept, the
# trailing blanks of the heads dropped): the
# loop's variable and the unit over the heads are no group of heads
SIPHASH = """\
  for i in 64 128 256 512 1024 2048 4096;
  do
	printf "%4d: " $i;
	./super_netperf 32 -H ::1 -l 60 -- -m $i -M $i;
  done

Average of 5 run:

  $i    10^6 bps
  size\tbase\t\tjhash2                  hsiphash                siphash
  64\t20735.80\t20419.96 (98.48)\t20335.60 (98.07)\t20404.08 (98.40)\t
  128\t40450.40\t40167.66 (99.30)\t39957.32 (98.78)\t40222.06 (99.44)\t
"""


def test_a_unit_over_the_heads_is_the_unit_not_a_group():
    got = {(r["system"], r["metric"], r["params"].get("size"), r["value"], r["unit"]) for r in _hand_rows(SIPHASH)}
    assert ("base", "throughput", "64", 20735.8, "Mbit/s") in got
    assert ("siphash", "throughput", "128", 40222.06, "Mbit/s") in got
    assert len(got) == 8


# https://lore.kernel.org/linux-mm/20111020033930.GA22746@localhost/ (its lines, cut, trailing blanks
# dropped): rows labelled last, a note of one sentence under the first group, a blank, the next group
NOTED = """\
and the number of dd tasks is no longer relevant with big enough memory.

                   btrfs                      ext3                      ext4                       xfs
------------------------  ------------------------  ------------------------  ------------------------
                   92.89       -28.6%        66.36        +7.8%       100.10        -2.7%        90.41  thresh=8G/X-100dd-1M-32p-32768M-8192M:10-3.1.0-rc8-ioless6+
                   89.69       -19.7%        72.00       +18.7%       106.42        +2.2%        91.67  thresh=8G/X-10dd-1M-32p-32768M-8192M:10-3.1.0-rc8-ioless6+
                   92.26       -18.7%        75.01       +16.3%       107.26        +1.4%        93.51  thresh=8G/X-1dd-1M-32p-32768M-8192M:10-3.1.0-rc8-ioless6+
                   89.96       -16.8%        74.87       +20.7%       108.62        +3.1%        92.76  thresh=8G/X-2dd-1M-32p-32768M-8192M:10-3.1.0-rc8-ioless6+
note: the above 8G cases run on another test box!

                   60.29       -47.0%        31.96       -14.6%        51.47       -27.9%        43.44  thresh=1G/X-100dd-4k-8p-4096M-1024M:10-3.1.0-rc8-ioless6+
                   58.80       -38.5%        36.19        -4.4%        56.19       -15.3%        49.83  thresh=1G/X-10dd-4k-8p-4096M-1024M:10-3.1.0-rc8-ioless6+
"""


def test_a_note_between_two_groups_of_rows_does_not_end_the_table():
    got = {(r["system"], r["params"].get("case", "")[:16], r["value"]) for r in _hand_rows("dd\n" + NOTED)}
    assert ("ext3", "thresh=8G/X-100d", 66.36) in got
    assert ("ext3", "thresh=1G/X-100d", 31.96) in got
    assert ("xfs", "thresh=1G/X-10dd", 49.83) in got
    assert len(got) == 24


# a row's label holding its system beside the metric
_SYSTEM_IN_LABEL = [
    # https://lore.kernel.org/lkml/20210330205750.428816-4-keescook@chromium.org/ (its lines, tabs kept):
    # a setting set off before the metric
    ("My measure of syscall performance overhead (on x86_64):\n\n"
     "lmbench: /usr/lib/lmbench/bin/x86_64-linux-gnu/lat_syscall -N 10000 null\n"
     "    randomize_kstack_offset=y\tSimple syscall: 0.7082 microseconds\n"
     "    randomize_kstack_offset=n\tSimple syscall: 0.7016 microseconds\n",
     {("randomize_kstack_offset=y", "Simple syscall", 0.7082), ("randomize_kstack_offset=n", "Simple syscall", 0.7016)}),
    # https://lore.kernel.org/lkml/006001c2e39c$40c0dda0$6009720a@wipro.com/ (its lines, trailing blanks
    # dropped): a release in brackets after the metric
    ("Here is the unixbench result for kernel 2.5.64. when compared with\n"
     "kernel 2.5.63 showed difference of performance in following tests:-\n"
     "========================================================================\n"
     "File Copy 1024 bufsize 2000 maxblocks[2.5.64]     77329.0KBps\n"
     "File Copy 1024 bufsize 2000 maxblocks[2.5.63]     65577.0KBps\n",
     {("2.5.64", "File Copy 1024 bufsize 2000 maxblocks", 77329.0),
      ("2.5.63", "File Copy 1024 bufsize 2000 maxblocks", 65577.0)}),
    # https://lore.kernel.org/lkml/002b01c2b2e5$17885220$6009720a@wipro.com/ (its lines): the sentence's
    # tail (`following tests:-`) over the rows heads no column, and the rule under it wraps
    ("Here are the unixbench result for kernel 2.5.54mm1. Kernel 2.5.54mm1\n"
     "when compared with kernel 2.5.54 showed difference of performance in\n"
     "following tests:- \n"
     "========================================================================\n"
     "====\n"
     "File Copy 1024 bufsize 2000 maxblocks[2.5.54mm1]    67146.0KBps  \n"
     "File Copy 1024 bufsize 2000 maxblocks[2.5.54]       69507.0KBps\n",
     {("2.5.54mm1", "File Copy 1024 bufsize 2000 maxblocks", 67146.0),
      ("2.5.54", "File Copy 1024 bufsize 2000 maxblocks", 69507.0)}),
]


@pytest.mark.parametrize(("text", "expected"), _SYSTEM_IN_LABEL)
def test_a_system_beside_the_metric_in_a_label_is_the_rows_system(text, expected):
    got = {(r["system"], r["metric_label"], r["value"]) for r in result_rows(extract_explained(text, "k")[0])}
    assert got == expected


def _table_rows(text: str) -> list[tuple]:
    rows = result_rows(extract_explained(text, "m")[0])
    return [(r["system"], dict(r["params"]), r["value"], r["unit"]) for r in rows]


def test_two_part_releases_heading_columns_are_systems_not_a_row():
    # kernels since 3.0 are named `6.6`, `5.10`: over a table they read like numbers
    text = "kernbench elapsed time (s):\n\n  jobs      5.10     5.11\n  4         100.1    99.2\n  16        50.2     50.9\n"
    assert _table_rows(text) == [("5.10", {"jobs": "4"}, 100.1, "s"), ("5.11", {"jobs": "4"}, 99.2, "s"),
                                 ("5.10", {"jobs": "16"}, 50.2, "s"), ("5.11", {"jobs": "16"}, 50.9, "s")]
    # a first row of values under a label that names no column stays a row
    rows = _table_rows("kernbench elapsed time (s):\n\n  load    2.5    3.1\n  idle    10.5   12.3\n")
    assert [r[2] for r in rows] == [2.5, 3.1, 10.5, 12.3]


def test_a_column_of_zero_changes_is_the_baseline_of_the_others():
    text = ("kernbench elapsed time, change against 6.6 (lower is better):\n\n"
            "            6.6      6.7-rc1\n  -j 4      0.00%    -1.2%\n  -j 16     0.00%    +0.8%\n")
    assert _table_rows(text) == [("6.7-rc1", {"case": "-j 4", "baseline": "6.6"}, -1.2, "%"),
                                 ("6.7-rc1", {"case": "-j 16", "baseline": "6.6"}, 0.8, "%")]


def test_an_mmtests_mean_is_a_statistic_of_the_tools_headline_figure():
    # https://lore.kernel.org/lkml/20210527121409.GK3672@suse.de/ (tbench4 on Zen2, its lines)
    text = ("tbench4\n                          5.13.0-rc2             5.13.0-rc2\n"
            "                             vanilla sched-nowakewidellc-v1r1\n"
            "Hmean     1        349.34 (   0.00%)      334.18 *  -4.34%*\n"
            "Hmean     2        668.49 (   0.00%)      659.12 *  -1.40%*\n"
            "Hmean     4       1307.90 (   0.00%)     1274.35 *  -2.57%*\n")
    got = [(r["system"], r["metric"], r["metric_label"], r["statistic"], r["params"], r["value"], r["unit"])
           for r in rows(text)][:2]
    assert got == [("5.13.0-rc2 vanilla", "throughput", "Hmean", "hmean", {"clients": "1"}, 349.34, "MB/s"),
                   ("5.13.0-rc2 sched-nowakewidellc-v1r1", "throughput", "Hmean", "hmean", {"clients": "1"}, 334.18,
                    "MB/s")]


def test_tabs_set_out_as_the_poster_saw_them_and_a_change_column_without_a_head():
    # https://lore.kernel.org/linux-fsdevel/b9a58067-194b-221d-111c-ed1f7661976b@linux.alibaba.com/ (its
    # lines): heads and rows typed with tabs, a head of three words, a change column with no head
    text = ("sysbench-mysql-oltp_read_write, average eps show:\n\n"
            "\t\t\t\torigin\t\tng + cling\n"
            "4 instances each 24 threads\t7545.28\t\t7790.49\t\t+3.25%\n"
            "4 instances each 48 threads\t9359.36\t\t9832.30\t\t+5.05%\n")
    got = [(r["system"], r["params"], r["value"]) for r in rows(text)]
    assert got == [("origin", {"case": "4 instances each 24 threads"}, 7545.28),
                   ("ng + cling", {"case": "4 instances each 24 threads"}, 7790.49),
                   ("origin", {"case": "4 instances each 48 threads"}, 9359.36),
                   ("ng + cling", {"case": "4 instances each 48 threads"}, 9832.3)]


def test_a_row_naming_a_count_reads_its_thousands():
    text = ("fio results:\n\n                   Before     After     Delta\n"
            "Read IOPS          25.1k      30.7k     +22.3%\n")
    assert [(r["system"], r["value"], r["unit"]) for r in rows(text)] == [("Before", 25100.0, "IOPS"),
                                                                          ("After", 30700.0, "IOPS")]


def test_the_rows_parameter_named_alone_under_the_heads():
    # https://lore.kernel.org/linux-mm/462C2EDE.4090805@yahoo.com.au/ (its lines): the heads, then
    # `threads` on a line of its own and a blank line, then the rows; MySQL sysbench is named below
    text = ("> I've added a 5th column, with just your mmap_sem patch.\n\n"
            ">   vanilla   new glibc   madv_free    mmap_sem        both\n> threads\n>\n"
            "> 1     610         609         596         534         545\n"
            "> 2    1032        1136        1196        1180        1200\n\n"
            "> Not doing the mprotect calls is the big one I guess.\n\n"
            "> With both our patches, single and two thread performance with\n"
            "> MySQL sysbench is somewhat better than with just your patch.\n")
    got = [(r["benchmark"], r["system"], r["metric"], r["params"], r["value"]) for r in rows(text)]
    assert got[:3] == [("sysbench", "vanilla", "transactions_per_second", {"threads": "1"}, 610.0),
                       ("sysbench", "new glibc", "transactions_per_second", {"threads": "1"}, 609.0),
                       ("sysbench", "madv_free", "transactions_per_second", {"threads": "1"}, 596.0)]
    assert len(got) == 10 and got[-1][1:] == ("both", "transactions_per_second", {"threads": "2"}, 1200.0)
    # a parameter word alone, with no heads over it, names no columns
    alone = rows("sysbench results\n\nthreads\n\n1     610    609\n2    1032   1136\n")
    assert [r["value"] for r in alone] == [610.0, 609.0, 1032.0, 1136.0] and {r["system"] for r in alone} == {None}


def test_the_rows_parameter_one_blank_before_the_first_head_and_the_direction_over_the_table():
    # https://lore.kernel.org/netdev/20190729095743-mutt-send-email-mst@kernel.org/ (its lines, fewer rows)
    text = ("> Throughput measured with iperf3 over vsock.\n>\n"
            ">                     host -> guest [Gbps]\n> pkt_size before opt   p 1     p 2+3    p 4+5\n> \n"
            "> 32         0.032     0.030    0.048    0.051\n> 64         0.061     0.059    0.108    0.117\n>\n"
            ">                     guest -> host [Gbps]\n> pkt_size before opt   p 1     p 2+3    p 4+5\n> \n"
            "> 32         0.035     0.031    0.050    0.052\n> 64         0.070     0.062    0.110    0.118\n")
    got = [(r["system"], r["params"], r["value"], r["unit"]) for r in rows(text)]
    assert got[:2] == [("before opt", {"size": "32", "direction": "host -> guest"}, 0.032, "Gbit/s"),
                       ("p 1", {"size": "32", "direction": "host -> guest"}, 0.03, "Gbit/s")]
    assert got[8] == ("before opt", {"size": "32", "direction": "guest -> host"}, 0.035, "Gbit/s")
    assert len(got) == 16


def test_a_settings_value_glued_to_the_label_by_its_colon_is_part_of_the_label():
    # https://lore.kernel.org/lkml/5DBB0EB0.9050106@linaro.org/ (its lines, quoted)
    text = (">> Hackbench: 1 group , 30000 loops, 10 runs\n"
            ">>                                                Result         SD\n"
            ">>                                                (Secs)     (% of mean)\n"
            ">>  No Thermal Pressure                            14.03       2.69%\n"
            ">>  Thermal Pressure PELT Algo. Decay : 32 ms      13.29       0.56%\n"
            ">>  Thermal Pressure PELT Algo. Decay : 64 ms      12.57       1.56%\n")
    got = [(r["system"], r["value"], r["unit"]) for r in rows(text)]
    assert got == [("No Thermal Pressure", 14.03, "s"), ("Thermal Pressure PELT Algo. Decay : 32 ms", 13.29, "s"),
                   ("Thermal Pressure PELT Algo. Decay : 64 ms", 12.57, "s")]
    # a key's value under no other row's column stays a value: `latency: 2.0 ms   2.1 ms`
    two = rows("hackbench results:\n\n           base      patched\nlatency: 2.0 ms   2.1 ms\n"
               "time: 10.5 s      10.2 s\n")
    assert [r["value"] for r in two] == [2.0, 2.1, 10.5, 10.2]


def test_a_pipe_column_of_names_with_a_number_among_them_holds_names():
    # https://lore.kernel.org/lkml/20230523044731.obkyesjyhwercj2q@desk/
    lines = ["| Test      | Configuration | Relative |", "| --------- | ------------- | -------- |",
             "| nginx     | 200           | 0.977    |", "| hackbench | 8 - Process   | 0.975    |",
             "| sysbench  | CPU           | 1.002    |"]
    (t,) = read_tables(lines)
    assert [(v.value, v.params["configuration"]) for v in t.values] == [(0.977, "200"), (0.975, "8 - Process"),
                                                                        (1.002, "CPU")]
    # a column of numbers stays values
    (t,) = read_tables(["| bs | read | write |", "|----|------|-------|", "| 4 | 120 | 80 |", "| 8 | 200 | 150 |",
                        "| 16 | 310 | 220 |"])
    assert sorted(v.value for v in t.values) == [80, 120, 150, 200, 220, 310]


def test_group_heads_drawn_with_spaced_dashes_and_a_unit_of_one_column():
    # https://lore.kernel.org/lkml/20030531172629.GA9458@rushmore/
    lines = ["                          --------------- Sequential ---------",
             "                          ----- Create -----  ---- Delete ----",
             "                   files   /sec  %CPU    Eff  /sec  %CPU   Eff",
             "2.4.19-rmap13c    131072   3565  40.7   8766  2212  33.3  6635",
             "2.5.68            131072   2935  37.3   7861  1787  25.7  6963"]
    (t,) = read_tables(lines)
    got = [(v.system, v.label, v.value, v.unit) for v in t.values if v.system == "2.4.19-rmap13c"]
    assert got == [("2.4.19-rmap13c", "Sequential Create /sec", 3565, None),
                   ("2.4.19-rmap13c", "Sequential Create %CPU", 40.7, "%CPU"),
                   ("2.4.19-rmap13c", "Sequential Create Eff", 8766, None),
                   ("2.4.19-rmap13c", "Sequential Delete /sec", 2212, None),
                   ("2.4.19-rmap13c", "Sequential Delete %CPU", 33.3, "%CPU"),
                   ("2.4.19-rmap13c", "Sequential Delete Eff", 6635, None)]
    assert all(v.params == {"files": "131072"} for v in t.values)


def test_a_unit_in_the_corner_is_the_tables():
    # https://lore.kernel.org/linux-fsdevel/20210118192748.584213-1-balsini@android.com/
    lines = ["|   MiB/s   |    fuse    | passthrough |   native    |",
             "|-----------|------------|-------------|-------------|",
             "| read      | 471(±1.3%) | 1791(±1.0%) | 1839(±1.8%) |",
             "| write     |  95(±.6%)  | 1068(±.9%)  | 1322(±.8%)  |"]
    (t,) = read_tables(lines)
    assert [(v.value, v.unit) for v in t.values][:3] == [(471, "MiB/s"), (1791, "MiB/s"), (1839, "MiB/s")]


def test_a_count_joined_to_its_parameter_by_a_dash():
    # https://lore.kernel.org/lkml/bd083d8d-023a-698e-701b-725f1b15766e@amd.com/
    lines = ["Test:                   tip                     SIS_NODE",
             " 1-groups:         3.82 (0.00 pct)         3.84 (-0.52 pct)",
             "16-groups:         6.68 (0.00 pct)         9.07 (-35.77 pct)"]
    (t,) = read_tables(lines)
    assert [(v.system, v.params, v.value) for v in t.values] == [
        ("tip", {"groups": "1"}, 3.82), ("SIS_NODE", {"groups": "1"}, 3.84),
        ("tip", {"groups": "16"}, 6.68), ("SIS_NODE", {"groups": "16"}, 9.07)]


def test_a_generic_word_among_heads_that_all_name_systems_names_one():
    # https://lore.kernel.org/lkml/d686347e-f76c-7f9c-3f1a-f4326f5167ca@amd.com/ (workqueue affinity scopes, each column one)
    lines = ["Clients:     base                     cpu                    cache                   numa                    system",
             "    1    450.40 (0.00 pct)       459.44 (2.00 pct)       457.12 (1.49 pct)       456.36 (1.32 pct)       456.75 (1.40 pct)",
             "    2    872.50 (0.00 pct)       869.68 (-0.32 pct)      890.59 (2.07 pct)       878.87 (0.73 pct)       890.14 (2.02 pct)"]
    (t,) = read_tables(lines)
    assert [(v.system, v.value) for v in t.values if v.params.get("clients") == "1"][-1] == ("system", 456.75)


def test_a_bare_cpu_among_heads_naming_systems_is_one_more_system_not_a_cpu_share():
    # https://lore.kernel.org/lkml/d686347e-f76c-7f9c-3f1a-f4326f5167ca@amd.com/ (workqueue affinity scopes)
    lines = ["                        base                    cpu                     cache                   numa                    system",
             " 1-clients:      100910.82 (0.00 pct)    103440.72 (2.50 pct)    102592.36 (1.66 pct)    103199.49 (2.26 pct)    103561.90 (2.62 pct)",
             " 2-clients:      99777.76 (0.00 pct)     100414.00 (0.63 pct)    100305.89 (0.52 pct)    99890.90 (0.11 pct)     101512.46 (1.73 pct)"]
    (t,) = read_tables(lines)
    assert [(v.system, v.label, v.value) for v in t.values][:5] == [
        ("base", None, 100910.82), ("cpu", None, 103440.72), ("cache", None, 102592.36), ("numa", None, 103199.49),
        ("system", None, 103561.9)]


def test_a_cpu_share_beside_a_systems_figure_stays_its_cpu_share():
    lines = ["kernel      throughput   cpu",
             "vanilla     9410         45%",
             "patched     9622         47%"]
    (t,) = read_tables(lines)
    assert {v.system for v in t.values} == {"vanilla", "patched"}


# https://lore.kernel.org/lkml/1cd19d3f-18c4-92f9-257a-378cc18cfbc7@huawei.com/ : one row per run, then their mean
RUN_ROWS = """\
testcase: hackbench -g 44 -f 20 --process --pipe -l 60000 -s 100
version1: v6.2
version2: v6.2 + commit 829c1651e9c4
version3: v6.2 + commit 829c1651e9c4 + this patch

-------------------------------------------------
\tversion1\tversion2\tversion3
test1\t81.0 \t\t118.1 \t\t82.1
test2\t82.1 \t\t116.9 \t\t80.3
test3\t83.2 \t\t103.9 \t\t83.3
avg(s)\t82.1 \t\t113.0 \t\t81.9
"""


def test_rows_that_are_runs_are_the_tools_figure_of_each_run():
    rows = result_rows(extract_explained(RUN_ROWS, "r")[0])
    runs = {(r["system"], r["params"].get("run"), r["value"]) for r in rows if r["metric"] == "time"}
    assert ("version2", "1", 118.1) in runs and ("version3", "3", 83.3) in runs and len(runs) == 9
    means = {(r["system"], r["value"]) for r in rows if r["metric_label"] == "avg(s)"}
    assert means == {("version1", 82.1), ("version2", 113.0), ("version3", 81.9)}


# https://lore.kernel.org/lkml/bd083d8d-023a-698e-701b-725f1b15766e@amd.com/ : a report table, its spacing lost
# as a web page or a proportional-font mailer loses it (every run of spaces one space)
ONE_BLANK = re.sub(r" {2,}", " ", """\
~~~~~~~~~~
~ tbench ~
~~~~~~~~~~

Clients:      tip                     SIS_NODE             SIS_NODE_LIMIT         SIS_NODE_TOPOEXT
    1    452.49 (0.00 pct)       457.94 (1.20 pct)       458.13 (1.24 pct)       447.69 (-1.06 pct)
    2    862.44 (0.00 pct)       879.99 (2.03 pct)       881.19 (2.17 pct)       855.91 (-0.75 pct)
""")


def test_a_long_head_line_one_blank_between_its_heads_is_no_banner():
    got = {(r["system"], r["params"].get("clients"), r["value"]) for r in rows(ONE_BLANK)}
    assert got == {("tip", "1", 452.49), ("SIS_NODE", "1", 457.94), ("SIS_NODE_LIMIT", "1", 458.13),
                   ("SIS_NODE_TOPOEXT", "1", 447.69), ("tip", "2", 862.44), ("SIS_NODE", "2", 879.99),
                   ("SIS_NODE_LIMIT", "2", 881.19), ("SIS_NODE_TOPOEXT", "2", 855.91)}


# https://lore.kernel.org/linux-mm/20111003135902.GA16518@localhost/ , its spacing lost: each
# case's label after its two figures and the change between them, a head over each figure
ONE_BLANK_LABEL_LAST = re.sub(r" {2,}", " ", """\
USB stick:

      3.1.0-rc4-vanilla+        3.1.0-rc8-ioless6+
------------------------  ------------------------
                   54.39        +0.6%        54.73  3G-UKEY-HDD/xfs-10dd-4k-8p-4096M-20:10-X
                   63.72        -1.8%        62.58  3G-UKEY-HDD/xfs-1dd-4k-8p-4096M-20:10-X
""")


def test_heads_one_blank_apart_stand_over_the_absolute_figures_of_label_last_rows():
    got = {(r["system"], r["params"].get("case"), r["value"]) for r in rows(ONE_BLANK_LABEL_LAST, "dd tests")}
    assert got == {("3.1.0-rc4-vanilla+", "3G-UKEY-HDD/xfs-10dd-4k-8p-4096M-20:10-X", 54.39),
                   ("3.1.0-rc8-ioless6+", "3G-UKEY-HDD/xfs-10dd-4k-8p-4096M-20:10-X", 54.73),
                   ("3.1.0-rc4-vanilla+", "3G-UKEY-HDD/xfs-1dd-4k-8p-4096M-20:10-X", 63.72),
                   ("3.1.0-rc8-ioless6+", "3G-UKEY-HDD/xfs-1dd-4k-8p-4096M-20:10-X", 62.58)}


# https://lore.kernel.org/lkml/20230902081204.232218-1-sshegde@linux.vnet.ibm.com/ (its lines): heads on
# two lines (`tip` over `sched/core`), a note on the rows under the label column, each patched figure
# with its change glued to it in parentheses, then a table of a tool the project does not read
TWO_LINE_HEADS = """\
------------------------------------------------------------------------------
hackbench				tip	   +patch(%gain)
20 iterations, 50000 loops	     sched/core
------------------------------------------------------------------------------
Process 10 groups                :      11.74      11.70(0.34)
Process 20 groups                :      22.73      22.69(0.18)
Process 30 groups                :      33.39      33.40(-0.03)
Process 40 groups                :      43.73      43.61(0.27)
Process 50 groups                :      53.82      54.35(-0.98)
Process 60 groups                :      64.16      65.29(-1.76)
thread 10 Time                   :      12.81      12.79(0.16)
thread 20 Time                   :      24.63      24.47(0.65)
Process(Pipe) 10 Time            :       6.40       6.34(0.94)
Process(Pipe) 20 Time            :      10.62      10.63(-0.09)
Process(Pipe) 30 Time            :      15.09      14.84(1.66)
Process(Pipe) 40 Time            :      19.42      19.01(2.11)
Process(Pipe) 50 Time            :      24.04      23.34(2.91)
Process(Pipe) 60 Time            :      28.94      27.51(4.94)
thread(Pipe) 10 Time             :       6.96       6.87(1.29)
thread(Pipe) 20 Time             :      11.74      11.73(0.09)

"""
STRESS_NG = """\
------------------------------------------------------------------------------
stress_ng				tip        +patch(%gain)
10 iterations 100000 cpu_ops	     sched/core
------------------------------------------------------------------------------

--cpu=96 -util=100 Time taken  	 :       5.30,       5.01(5.47)
"""


def test_heads_continued_on_the_line_below_and_changes_glued_to_their_figures():
    got = rows(TWO_LINE_HEADS)
    assert {r["system"] for r in got} == {"tip sched/core", "+patch"}
    by = {(r["system"], r["params"].get("case")): r["value"] for r in got}
    assert by[("tip sched/core", "Process 30 groups")] == 33.39  # `33.39      33.40(-0.03)`
    assert by[("+patch", "Process 30 groups")] == 33.40
    assert by[("+patch", "Process(Pipe) 60 Time")] == 27.51
    assert len(got) == 32 and {r["metric"] for r in got} == {"time"}
    assert not any(r["layout"] == "change_table" for r in got)  # the glued `(-0.03)` is an aside


def test_a_table_of_stress_ng_under_a_hackbench_paragraph_gives_nothing():
    text = TWO_LINE_HEADS + "\nhackbench shows slight improvement with pipe. Slight degradation in process.\n\n" + STRESS_NG
    assert {r["value"] for r in rows(text)} & {5.30, 5.01} == set()
    assert len(rows(text)) == 32


# https://lore.kernel.org/netdev/1682252271-2544-1-git-send-email-guwen@linux.alibaba.com/ (its lines)
SMC_LOOPBACK = """\
3. iperf3

 - serv: <smc_run> taskset -c <cpu> iperf3 -s
 - clnt: <smc_run> taskset -c <cpu> iperf3 -c 127.0.0.1 -t 15

                    TCP-lo                  SMC-lo             SMC-lo-nocpy
Bitrate(Gb/s)         40.7            40.5(-0.49%)            72.4(+77.89%)

4. nginx/wrk

 - serv: <smc_run> nginx
 - clnt: <smc_run> wrk -t 8 -c 500 -d 30 http://127.0.0.1:80

                    TCP-lo                  SMC-lo             SMC-lo-nocpy
Requests/s       155994.57      214544.79(+37.53%)       215538.55(+38.17%)
"""


def test_a_bitrate_row_with_changes_glued_to_it_and_no_row_of_wrk_below():
    got = rows(SMC_LOOPBACK)
    assert sorted((r["benchmark"], r["system"], r["metric"], r["value"], r["unit"]) for r in got) == [
        ("iperf", "SMC-lo", "throughput", 40.5, "Gbit/s"), ("iperf", "SMC-lo-nocpy", "throughput", 72.4, "Gbit/s"),
        ("iperf", "TCP-lo", "throughput", 40.7, "Gbit/s")]


# https://lore.kernel.org/virtualization/20210520141305.355961-1-stefanha@redhat.com/ (its lines): two
# label columns under parameter heads (`rw`, `bs`), a change column under no head at the right
IO_POLL = """\
polled. IOPS for 4k and 16k block sizes increases by 5-18% on a virtio-blk
device with 4 virtqueues backed by an NVMe drive.

- Benchmark: fio ioengine=pvsync2 numjobs=4 direct=1

rw          bs hipri=0 hipri=1
------------------------------
randread    4k 149,426 170,763 +14%
randread   16k 118,939 134,269 +12%
randwrite   4k 138,578 163,600 +18%
write     128k  16,259  16,265   0%
"""


def test_parameter_heads_over_two_label_columns_and_a_change_under_no_head():
    got = {(r["system"], r["params"]["rw"], r["params"]["bs"]): (r["value"], r["unit"]) for r in rows(IO_POLL)}
    assert got[("hipri=0", "randread", "4k")] == (149426.0, "IOPS")  # the IOPS the text above speaks of
    assert got[("hipri=1", "randread", "4k")] == (170763.0, "IOPS")
    assert got[("hipri=1", "write", "128k")] == (16265.0, "IOPS")
    assert len(got) == 8 and not any("scale" in r["params"] for r in rows(IO_POLL))  # `4k` is a size, no scale


# https://lore.kernel.org/linux-ext4/d264b7b0-334a-eb36-4fdb-5af5526ea4aa@linux.alibaba.com/ (its lines):
# each cell a run's bandwidth, IOPS and latency, the I/O direction over each column
FIGURE_LISTS = """\
>>> this patch, that path is now avoided for fio test case

ilocknew+ = ext4-ilock-RFC latest + dioread_nolock


bs=4k:
------------------------------------------------------------------
          |            READ           |           WRITE          |
------------------------------------------------------------------
w/        | 30898KB/s,7724,555.00us   | 30875KB/s,7718,479.70us  |
------------------------------------------------------------------
w/o       | 117915KB/s,29478,248.18us | 117854KB/s,29463,21.91us |
------------------------------------------------------------------
"""


def test_a_cell_of_figures_with_their_units_under_the_direction_it_measured():
    got = {(r["system"], r["params"].get("rw"), r["unit"]): r["value"] for r in rows(FIGURE_LISTS)}
    assert got[("w/", "read", "KB/s")] == 30898.0 and got[("w/", "read", "us")] == 555.0
    assert got[("w/o", "write", "KB/s")] == 117854.0 and got[("w/o", "write", "us")] == 21.91
    assert {r["metric"] for r in rows(FIGURE_LISTS) if r["unit"] == "us"} == {"lat_avg"}
    # the direction is a parameter and stays the printed label of what was measured
    assert {(r["metric"], r["metric_label"]) for r in rows(FIGURE_LISTS) if r["unit"] == "KB/s"} == {
        ("bandwidth", "READ"), ("bandwidth", "WRITE")}


# https://lore.kernel.org/lkml/20250812173109.295750-1-jackmanb@google.com/ (its lines): thousands
# separators are no list of figures
THOUSANDS = """\
Native FIO randread IOPS on tmpfs (this is where the 70% perf degradation was):
+---------+---------+-----------+---------+-----------+---------------+
| variant | samples |      mean |     min |       max | delta mean    |
+---------+---------+-----------+---------+-----------+---------------+
| asi-off |      10 | 1,003,102 | 981,813 | 1,036,142 |               |
| asi-on  |      10 |   871,928 | 848,362 |   885,622 | -13.1%        |
+---------+---------+-----------+---------+-----------+---------------+
"""


def test_thousands_separators_in_a_pipe_table_are_no_list_of_figures():
    assert {r["value"] for r in rows(THOUSANDS) if r["system"] == "asi-on"} >= {871928.0, 848362.0, 885622.0}


# https://lore.kernel.org/netdev/20211115190249.3936899-1-eric.dumazet@gmail.com/ (its lines): a
# setting with a remark over each pair of `Before:` / `After:` lines, rates in bare `Gbit`
MTU_GROUPS = """\
 Tests on a 100Gbit NIC
 Max throughput for one TCP_STREAM flow, over 10 runs.

 MTU : 1500  (1428 bytes of TCP payload per MSS)
 Before: 55 Gbit
 After:  66 Gbit

 MTU : 4096+ (4096 bytes of TCP payload, plus TCP/IPv6 headers)
 Before: 82 Gbit
 After:  95 Gbit
"""


def test_a_setting_over_each_pair_of_lines_and_rates_in_bare_gbit():
    got = [(r["benchmark"], r["system"], r["params"], r["value"], r["unit"]) for r in rows(MTU_GROUPS)]
    assert got == [("netperf", "Before", {"mtu": "1500"}, 55.0, "Gbit/s"), ("netperf", "After", {"mtu": "1500"}, 66.0, "Gbit/s"),
                   ("netperf", "Before", {"mtu": "4096+"}, 82.0, "Gbit/s"), ("netperf", "After", {"mtu": "4096+"}, 95.0, "Gbit/s")]


# https://lore.kernel.org/netdev/20230803212525.59438-1-kuniyu@amazon.com/ (its lines): the loop's
# `done` right above the figures names nothing they measured
AFTER_A_LOOP = """\
I have tested with slightly modified netperf that uses MD5 for each
flow and found that the patch does not improve MD5 perf at all.

  $ for i in {1..10}; do
  ./super_netperf $(nproc) -H localhost -l 10 -- -m 256 -M 256 2>/dev/null;
  done

  - 36e68eadd303  : 10.376 Gbps
  - all fast path : 10.374 Gbps
  - all slow path : 10.394 Gbps
"""


def test_the_end_of_a_shell_loop_above_the_figures_is_no_metric():
    got = [(r["system"], r["metric"], r["value"], r["unit"]) for r in rows(AFTER_A_LOOP)]
    assert got == [("36e68eadd303", "throughput", 10.376, "Gbit/s"), ("all fast path", "throughput", 10.374, "Gbit/s"),
                   ("all slow path", "throughput", 10.394, "Gbit/s")]


# https://lore.kernel.org/linux-pm/20210222110023.GB4499@arm.com/ (its lines): each value's spread and
# change set under it, after words of their own
SPREAD_ROWS = """\
   ./hackbench -l 1000
   (10 iterations, lower is better, seconds, comparison with
   cpufreq-based FIE)

   cpufreq-based FIE    AMU-based FIE    CPPC-based FIE
   ----------------------------------------------------
   6.4207\t\t6.3386\t\t 6.7841
   std: 7.298%\t\tstd: 2.252%\t std: 2.460%
   \t\t\tdiff: -1.295%\t diff: 5.356%
"""


def test_rows_of_spreads_and_changes_under_the_values_are_their_asides():
    got = [(r["system"], r["value"]) for r in rows(SPREAD_ROWS)]
    assert got == [("cpufreq-based FIE", 6.4207), ("AMU-based FIE", 6.3386), ("CPPC-based FIE", 6.7841)]


# https://lore.kernel.org/lkml/20250701210230.2985885-1-zecheng@google.com/ (excerpt): each cell a mean and its
# interval, a last column naming each row's metric
MEAN_AND_INTERVAL = """\
sysbench, hackbench - lower is better; ebizzy - higher is better.

workload  | base                  | opt                   | metric
----------+-----------------------+-----------------------+------------
sysbench  | 63.55, [63.04, 64.05] | 64.36, [62.97, 65.75] | avg latency
hackbench | 36.95, [35.45, 38.45] | 37.12, [35.81, 38.44] | time
ebizzy    | 610.7, [569.8, 651.6] | 613.5, [592.1, 635.0] | record/s
"""


def test_a_mean_and_its_interval_under_a_metric_column():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(MEAN_AND_INTERVAL, "m")[0])
    got = {(r["benchmark"], r["system"], r["metric_label"], r["value"]) for r in rows}
    assert got == {("sysbench", "base", "sysbench avg latency", 63.55), ("sysbench", "opt", "sysbench avg latency", 64.36),
                   ("hackbench", "base", "hackbench time", 36.95), ("hackbench", "opt", "hackbench time", 37.12)}
    # the interval is an aside, never a value; ebizzy is no tool the project reads


# https://lore.kernel.org/linux-fsdevel/20251020080043.6638-1-xiaobing.li@samsung.com/ (excerpt): fio's options as
# the columns of the rows' parameters, each system's head over its unit, a ratio under `gain` on the caption line
ZERO_COPY = """\
4K IO size                                                           gain
-------------------------------------------------------------------------
                               |   no zero copy   |    zero copy  |
rw         iodepth     numjobs |      IOPS        |      IOPS     |
read          1           1    |      93K         |      97K      |  1.04
read          16          16   |      169K        |      172K     |  1.02
randread      64          32   |      168K        |      170K     |  1.01
"""


def test_option_columns_then_systems_over_their_unit():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(ZERO_COPY, "z")[0])
    got = {(r["benchmark"], r["system"], r["metric"], r["params"]["rw"], r["params"]["iodepth"], r["params"]["numjobs"],
            r["value"]) for r in rows if r["system"]}
    assert ("fio", "no zero copy", "iops", "read", "1", "1", 93.0) in got
    assert ("fio", "zero copy", "iops", "read", "16", "16", 172.0) in got
    assert ("fio", "zero copy", "iops", "randread", "64", "32", 170.0) in got
    from transforms.handmade.tables import _system_or_metric

    assert _system_or_metric("no zero copy IOPS") == ("no zero copy", "IOPS")
    assert _system_or_metric("zero copy") == ("zero copy", None)


# https://lore.kernel.org/qemu-devel/20210721094211.69853-1-sgarzare@redhat.com/
SPANNED_PIPE_HEADS = """\
I run some benchmarks to choose 32 as default batch value for Linux AIO.
Below the kIOPS measured with fio running in the guest (average over 3 runs):

                   |   master  |           with this series applied            |
                   |143c2e04328| maxbatch=8|maxbatch=16|maxbatch=32|maxbatch=64|
          # queues | 1q  | 4qs | 1q  | 4qs | 1q  | 4qs | 1q  | 4qs | 1q  | 4qs |
-- randread tests -|-----------------------------------------------------------|
bs=4k iodepth=1    | 200 | 195 | 181 | 208 | 200 | 203 | 206 | 212 | 200 | 204 |
bs=4k iodepth=8    | 269 | 231 | 256 | 244 | 255 | 260 | 266 | 268 | 270 | 250 |
bs=16k iodepth=128 | 131 | 100 | 130 | 128 | 131 | 129 | 137 | 141 | 130 | 129 |

1q  = virtio-blk device with a single queue
"""


def test_pipe_heads_over_several_lines_name_each_column_and_a_sentence_names_the_unit():
    got = {(r["system"], r["metric"], r["unit"], r["params"].get("scale"), r["value"]) for r in rows(SPANNED_PIPE_HEADS)}
    assert ("master 143c2e04328 1q", "iops", "IOPS", "k", 200.0) in got
    assert ("master 143c2e04328 4qs", "iops", "IOPS", "k", 195.0) in got
    assert ("with this series applied maxbatch=8 1q", "iops", "IOPS", "k", 181.0) in got
    assert ("with this series applied maxbatch=64 4qs", "iops", "IOPS", "k", 129.0) in got
    assert len(got) == 30
    from transforms.handmade.noise import noise_line

    assert not noise_line("          # queues | 1q  | 4qs | 1q  | 4qs | 1q  | 4qs |")  # a corner, no root prompt
    assert noise_line("# cat /proc/meminfo | grep Huge")


# https://lore.kernel.org/linux-fsdevel/20250512063319.3539411-1-yi.zhang@huaweicloud.com/
REPEATED_GROUP_HEADS = """\
run fio tests on the same machine with Intel Xeon Gold 6240 CPU with 400GB system ram,
200GB ramdisk and 4TB nvme ssd disk.

 == buffer read ==

                base          iomap+large folio base+large folio
 type     bs    IOPS  BW(M/s) IOPS  BW(M/s)     IOPS   BW(M/s)
 ----------------------------------------------------------------
 hole     4K  | 576k  2253  | 762k  2975(+32%) | 747k  2918(+29%)
 hole     64K | 48.7k 3043  | 77.8k 4860(+60%) | 76.3k 4767(+57%)
 nvme     1M  | 2012  2012  | 2153  2153(+7%)  | 2122  2122(+5%)
"""


def test_heads_repeating_in_groups_take_the_name_over_their_group():
    got = {(r["system"], r["metric"], r["unit"], r["params"].get("type"), r["params"].get("bs"), r["value"])
           for r in rows(REPEATED_GROUP_HEADS)}
    assert ("base", "iops", "IOPS", "hole", "4K", 576.0) in got
    assert ("base", "bandwidth", "MB/s", "hole", "4K", 2253.0) in got
    assert ("iomap+large folio", "bandwidth", "MB/s", "hole", "64K", 4860.0) in got
    assert ("base+large folio", "iops", "IOPS", "nvme", "1M", 2122.0) in got
    assert len(got) == 18
    from transforms.handmade.tables import _system_or_metric

    assert _system_or_metric("base BW(M/s)") == ("base", "BW(M/s)")


# https://lore.kernel.org/linux-fsdevel/20250512063319.3539411-1-yi.zhang@huaweicloud.com/
SWITCH_COLUMNS = """\
run fio tests on the same machine with Intel Xeon Gold 6240 CPU with 400GB system ram,
200GB ramdisk and 4TB nvme ssd disk.

 == buffer write ==

 O: Overwrite; S: Sync; W: Writeback

                     base         iomap+large folio    base+large folio
 type    O S W bs    IOPS  BW     IOPS  BW(M/s)        IOPS  BW(M/s)
 ----------------------------------------------------------------------
 cache   N N N 4K  | 417k  1631 | 440k  1719 (+5%)   | 423k  1655 (+2%)
 cache   Y N N 64K | 36.6k 2290 | 82.3k 5142 (+125%) | 67.2k 4200 (+83%)
 ramdisk N Y N 4K  | 9984  39   | 12.9k 51   (+29%)  | 9871  39   (-1%)
 nvme    Y Y N 1M  | 714   714  | 1504  1504 (+111%) | 1319  1320 (+85%)
"""


def test_switches_one_blank_apart_are_columns_of_their_own():
    got = {(r["system"], r["metric"], r["unit"], tuple(r["params"].get(k) for k in ("type", "o", "s", "w", "bs")),
            r["value"]) for r in rows(SWITCH_COLUMNS)}
    assert ("base", "iops", "IOPS", ("cache", "N", "N", "N", "4K"), 417.0) in got
    assert ("base", "bandwidth", "MB/s", ("cache", "N", "N", "N", "4K"), 1631.0) in got  # `BW` is `BW(M/s)`
    assert ("iomap+large folio", "bandwidth", "MB/s", ("ramdisk", "N", "Y", "N", "4K"), 51.0) in got
    assert ("base+large folio", "iops", "IOPS", ("nvme", "Y", "Y", "N", "1M"), 1319.0) in got
    assert len(got) == 24
    from transforms.handmade.tables import split_flag_columns

    # a trace's columns are no switches: `W` beside a device name, numbers left of the values
    trace = [" Time        Process        PID     Device      LBA        Size      Lat",
             " 0.843734    md0_raid10     5267    nvme0n1   W 24         3584      1.17",
             " 0.843933    md0_raid10     5267    nvme1n1   W 24         3584      1.36"]
    assert split_flag_columns(trace) == trace


# https://lore.kernel.org/linux-fsdevel/f59ef632-0d11-4ae7-bdad-d552fe1f1d78@amd.com/
DASHED_RELEASE_ROWS = """\
The following are the stats after bisection:-

(the KPI used here is lmbench3.MMAP.read.latency.us)

v6.15 - \t\t\t\t\t\t97.3K

v6.16-rc1 - \t\t\t\t\t\t107.5K

v6.16-rc3 - \t\t\t\t\t\t107.4K
"""


def test_a_dash_between_a_release_and_its_figure_and_the_robots_name_for_the_metric_above():
    got = {(r["benchmark"], r["system"], r["metric_label"], r["value"]) for r in rows(DASHED_RELEASE_ROWS)}
    assert got == {("lmbench", "v6.15", "lmbench3.MMAP.read.latency.us", 97.3),
                   ("lmbench", "v6.16-rc1", "lmbench3.MMAP.read.latency.us", 107.5),
                   ("lmbench", "v6.16-rc3", "lmbench3.MMAP.read.latency.us", 107.4)}


# https://lore.kernel.org/linux-arm-kernel/20230703135330.1865927-1-ryan.roberts@arm.com/
KERNEL_COMPILATION = """\
Below results show 3 benchmarks; kernel compilation with 8 jobs, kernel
compilation with 80 jobs, and speedometer 2.0 (a javascript benchmark running in
Chromium).

Kernel compilation with 8 jobs:

| kernel                         |   real-time |   kern-time |   user-time |
|:-------------------------------|------------:|------------:|------------:|
| baseline-4k                    |        0.0% |        0.0% |        0.0% |
| anonfolio-lkml-v1              |       -5.3% |      -42.9% |       -0.6% |
| anonfolio-lkml-v2              |       -4.8% |      -38.6% |       -0.6% |
"""

# https://lore.kernel.org/lkml/ (2023, "Re: [PATCH v3 0/7] sched: Implement shared runqueue in CFS", quoted results)
O_CORNERED_BOX = """\
Here are the results of running make -j$(nproc) built-in.a: kernel compile.

Single-socket | 32-core | 2-CCX | AMD 7950X Zen4

CPU max MHz:                     5879.8818
CPU min MHz:                     3000.0000
\t\t\t\to____________o_______o
\t\t\t\t|    mean    | CPU   |
\t\t\t\to------------o-------o
NO_SWQUEUE + NO_SIS_NODE:\t| 590.52s    | 3103% |
NO_SWQUEUE + SIS_NODE:\t\t| 590.80s    | 3102% |
\t\t\t\to------------o-------o
"""


def test_kernel_compilation_named_so_is_kernbench_and_a_box_may_have_o_corners():
    got = {(r["benchmark"], r["system"], r["metric_label"], r["value"], r["unit"]) for r in rows(KERNEL_COMPILATION)}
    assert ("kernbench", "anonfolio-lkml-v1", "real-time", -5.3, "%") in got
    assert ("kernbench", "anonfolio-lkml-v2", "kern-time", -38.6, "%") in got
    boxed = {(r["benchmark"], r["system"], r["metric_label"], r["value"], r["unit"]) for r in rows(O_CORNERED_BOX)}
    assert boxed == {("kernbench", "NO_SWQUEUE + NO_SIS_NODE", "mean", 590.52, "s"),
                     ("kernbench", "NO_SWQUEUE + NO_SIS_NODE", "CPU", 3103.0, "%CPU"),
                     ("kernbench", "NO_SWQUEUE + SIS_NODE", "mean", 590.8, "s"),
                     ("kernbench", "NO_SWQUEUE + SIS_NODE", "CPU", 3102.0, "%CPU")}  # no lscpu line among them


# https://lore.kernel.org/lkml/cover.1673610485.git.raghavendra.kt@amd.com/
ONE_NAME_UNDER_EACH_COLUMN = """\
kernbench
=============
                          6_1_base_config       6_1_final_config
                   workload-kernbench-max workload-kernbench-max
Min       user-256    22120.65 (   0.00%)    22477.15 (  -1.61%)
Min       syst-256     9975.63 (   0.00%)     8880.00 (  10.98%)
Amean     elsp-256      161.52 (   0.00%)      157.69 *   2.37%*
Max       elsp-256      161.92 (   0.00%)      157.98 (   2.43%)
"""


def test_one_name_under_every_column_leaves_the_line_above_to_name_them():
    got = {(r["system"], r["metric_label"], r["value"]) for r in rows(ONE_NAME_UNDER_EACH_COLUMN)}
    assert ("6_1_base_config", "Min       user-256", 22120.65) in got
    assert ("6_1_final_config", "Min       syst-256", 8880.0) in got
    assert ("6_1_final_config", "Amean     elsp-256", 157.69) in got
    assert len(got) == 8


# https://lore.kernel.org/lkml/cover.1673610485.git.raghavendra.kt@amd.com/
GLUED_NAMES = """\
dbench
                6_1_base_config6_1_final_config
                io-dbench4-asyncio-dbench4-async
Duration User        1979.58     2097.00
Duration System     19522.29    19246.17
Duration Elapsed     1643.53     1642.83
"""

WIDE_CHANGE = """\
dbench
                             6_1_base_config       6_1_final_config
                            io-dbench4-async       io-dbench4-async
Min       latency-32         1.96 (   0.00%)        1.98 (  -0.66%)
Min       latency-64         5.73 (   0.00%)       32.03 (-458.86%)
Min       latency-128       17.60 (   0.00%)       17.79 (  -1.09%)
"""


def test_names_run_together_are_cut_where_each_starts_as_the_first_does():
    got = {(r["system"], r["metric_label"], r["value"]) for r in rows(GLUED_NAMES)}
    assert got == {("6_1_base_config", "Duration User", 1979.58), ("6_1_final_config", "Duration User", 2097.0),
                   ("6_1_base_config", "Duration System", 19522.29), ("6_1_final_config", "Duration System", 19246.17),
                   ("6_1_base_config", "Duration Elapsed", 1643.53), ("6_1_final_config", "Duration Elapsed", 1642.83)}


def test_a_change_too_wide_for_its_blanks_is_an_aside_like_the_others():
    got = {(r["system"], r["metric_label"].split()[-1], r["value"]) for r in rows(WIDE_CHANGE)}
    assert ("6_1_base_config", "latency-64", 5.73) in got
    assert ("6_1_final_config", "latency-64", 32.03) in got
    assert len(got) == 6


# https://lore.kernel.org/lkml/cover.1673610485.git.raghavendra.kt@amd.com/
STAT_ROWS_UNDER_A_MEASURE = """\
dbench4 Throughput (misleading but traditional)
                     6_1_base_config       6_1_final_config
                    io-dbench4-async       io-dbench4-async
Min       1        813.26 (   0.00%)      808.06 (  -0.64%)
Min       2       1348.40 (   0.00%)     1373.40 (   1.85%)
Hmean     1        833.61 (   0.00%)      826.63 *  -0.84%*
Hmean     2       1421.67 (   0.00%)     1422.97 (   0.09%)
"""


def test_statistic_rows_measure_what_the_caption_over_their_names_says():
    got = {(r["system"], r["metric_label"], r["statistic"], r["params"].get("clients"), r["value"])
           for r in rows(STAT_ROWS_UNDER_A_MEASURE)}
    assert ("6_1_base_config", "dbench4 Throughput", "min", "1", 813.26) in got
    assert ("6_1_final_config", "dbench4 Throughput", "hmean", "2", 1422.97) in got
    assert len(got) == 8


# https://lore.kernel.org/netdev/20230614230947.3954084-1-dima@arista.com/
FULLER_ROWS_FIRST = """\
iperf[3] benchmarks for version 6:
                           v6.4-rc1                 TCP-AO-v6
  TCP                      43.9 Gbits/sec           43.5 Gbits/sec
  TCP-MD5                  2.20 Gbits/sec           2.25 Gbits/sec
  TCP-AO(hmac(sha1))                                2.53 Gbits/sec
  TCP-AO(hmac(sha512))                              1.67 Gbits/sec
  TCP-AO(hmac(sha384))                              1.77 Gbits/sec
"""


def test_rows_fuller_than_most_keep_the_value_under_each_head():
    got = {(r["system"], r["metric_label"], r["value"], r["unit"]) for r in rows(FULLER_ROWS_FIRST)}
    assert ("v6.4-rc1", "TCP", 43.9, "Gbit/s") in got  # (the first head is over a column, not the labels)
    assert ("TCP-AO-v6", "TCP", 43.5, "Gbit/s") in got
    assert ("v6.4-rc1", "TCP-MD5", 2.2, "Gbit/s") in got
    assert ("TCP-AO-v6", "TCP-AO(hmac(sha384))", 1.77, "Gbit/s") in got
    assert len(got) == 7


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=" NYxo4K-|=abc1.", max_size=30), min_size=1, max_size=8))
def test_switch_columns_only_widen_gaps(lines):
    from transforms.handmade.tables import split_flag_columns

    out = split_flag_columns(lines)
    assert len(out) == len(lines)  # line numbers stay those of the block
    for a, b in zip(lines, out, strict=True):
        assert len(b) >= len(a) and b.replace(" ", "").replace("-", "").replace("=", "") \
            == a.replace(" ", "").replace("-", "").replace("=", "")  # only blanks or a rule's characters added


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab_-1", min_size=1, max_size=60), st.integers(min_value=2, max_value=4))
def test_names_run_together_are_only_cut(text, n):
    from transforms.handmade.cells import Cell
    from transforms.handmade.tables import _glued_names

    parts = _glued_names(Cell(text, 3, 3 + len(text), "label"), n)
    if parts is not None:
        assert len(parts) == n and "".join(p.text for p in parts) == text
        assert all(p.text.startswith(parts[0].text[:4]) for p in parts)


# https://lore.kernel.org/linux-pm/20211119103102.88124-1-ray.huang@amd.com/
TITLE_BOX_OVER_HEADS = """\
1) TBench CPU benchmark:

+---------------------------------------------------------------------+
|                                                                     |
|               TBench (Performance Per Watt)                         |
|                                                    Higher is better |
+-------------------+------------------------+------------------------+
|                   |  Performance Per Watt  |  Performance Per Watt  |
|   Kernel Module   |       (Schedutil)      |       (Ondemand)       |
|                   |  Unit: MB / (s * J)    |  Unit: MB / (s * J)    |
+-------------------+------------------------+------------------------+
|                   |                        |                        |
|    acpi-cpufreq   |         3.022          |        2.969           |
|                   |                        |                        |
+-------------------+------------------------+------------------------+
|                   |                        |                        |
|     amd-pstate    |         3.131          |        3.284           |
|                   |                        |                        |
+-------------------+------------------------+------------------------+
"""


def test_a_title_box_over_the_heads_leaves_them_joined_and_heads_saying_their_unit_measure():
    got = {(r["system"], r["metric_label"], r["value"]) for r in rows(TITLE_BOX_OVER_HEADS)}
    assert got == {("acpi-cpufreq", "Performance Per Watt (Schedutil) Unit: MB / (s * J)", 3.022),
                   ("acpi-cpufreq", "Performance Per Watt (Ondemand) Unit: MB / (s * J)", 2.969),
                   ("amd-pstate", "Performance Per Watt (Schedutil) Unit: MB / (s * J)", 3.131),
                   ("amd-pstate", "Performance Per Watt (Ondemand) Unit: MB / (s * J)", 3.284)}


# https://lore.kernel.org/lkml/CDB3D138-7AB5-4166-9167-134784AF90D5@smartx.com/
PATTERN_COLUMN = """\
I tested with fio.

# Before patch:
   2293 root       0 -20       0      0      0 R  68.6   0.0   0:23.85 kworker/0:1H+nvme_tcp_wq
  12504 root      20   0  476960  26280  20140 S  41.3   0.0   0:03.38 fio

pattern                        | bandwidth(MiB/s)     | iops       | latency(us)
:-                                 | -:                               | -:           | -:
4k-randread-q128-j1            | 308                  | 79086      | 1617.33
256k-randread-q128-j1          | 1072                 | 4288       | 29822.7

# After patch:

   1862 root       0 -20       0      0      0 R  56.6   0.0   0:59.37 kworker/66:1H+nvme_tcp_wq
  12348 root      20   0  476960  25892  19804 S  45.4   0.0   0:02.00 fio

pattern                        | bandwidth(MiB/s)     | iops       | latency(us)
:-                                 | -:                               | -:         | -:
4k-randread-q128-j1            | 451                  | 115530     | 1107.1
256k-randread-q128-j1          | 1410                 | 5641       | 22671.7
"""


def test_a_pattern_column_holds_a_parameter_and_the_captions_name_the_systems():
    got = {(r["system"], r["metric_label"], r["params"].get("pattern"), r["value"]) for r in rows(PATTERN_COLUMN)}
    assert ("Before patch", "iops", "4k-randread-q128-j1", 79086.0) in got
    assert ("After patch", "latency(us)", "256k-randread-q128-j1", 22671.7) in got
    assert len(got) == 12


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["+----+----+", "+---------+", "| a  | b  |", "|  c | 1  |", "| title   |", "|    |    |",
                                 "| d e| f  |", "x"]), max_size=12))
def test_box_heads_are_only_joined_words_and_their_lines_rules(lines):
    from transforms.handmade.tables import join_grid_heads

    out = join_grid_heads(lines)
    assert len(out) == len(lines)  # line numbers stay those of the block
    changed = [k for k, (a, b) in enumerate(zip(lines, out, strict=True)) if a != b]
    words_before = sorted(w for k in changed for w in lines[k].replace("|", " ").split())
    words_after = sorted(w for k in changed for w in out[k].replace("|", " ").split() if not set(w) <= set("+-"))
    assert words_after == words_before  # the heads' words, joined, none lost or added


# https://lore.kernel.org/lkml/20250815085512.2182322-1-kevin.brodsky@arm.com/
GROUP_COLUMN = """\
Benchmarks: mmtests/kernbench on a modern arm64 system.

+-------------------+----------------------------------+------------------+---------------+
| Benchmark         | Result Class                     | Without batching | With batching |
+===================+==================================+==================+===============+
| mmtests/kernbench | real time                        |            0.30% |         0.11% |
|                   | system time                      |        (R) 3.97% |     (R) 2.17% |
|                   | user time                        |            0.12% |         0.02% |
+-------------------+----------------------------------+------------------+---------------+
| micromm/fork      | fork: h:0                        |      (R) 217.31% |        -0.97% |
|                   | fork: h:1                        |      (R) 275.25% |     (R) 2.25% |
+-------------------+----------------------------------+------------------+---------------+
| micromm/munmap    | munmap: h:0                      |       (R) 15.57% |        -1.95% |
|                   | munmap: h:1                      |      (R) 169.53% |     (R) 6.53% |
+-------------------+----------------------------------+------------------+---------------+
"""


def test_a_group_named_once_in_a_box_names_every_row_under_it_and_a_test_not_ours_gives_none():
    got = {(r["benchmark"], r["system"], r["metric_label"], r["params"].get("benchmark"), r["value"], r["unit"])
           for r in rows(GROUP_COLUMN)}
    assert got == {("kernbench", "Without batching", "real time", "mmtests/kernbench", 0.30, "%"),
                   ("kernbench", "With batching", "real time", "mmtests/kernbench", 0.11, "%"),
                   ("kernbench", "Without batching", "system time", "mmtests/kernbench", 3.97, "%"),
                   ("kernbench", "With batching", "system time", "mmtests/kernbench", 2.17, "%"),
                   ("kernbench", "Without batching", "user time", "mmtests/kernbench", 0.12, "%"),
                   ("kernbench", "With batching", "user time", "mmtests/kernbench", 0.02, "%")}


# https://lore.kernel.org/kvm/20251113005529.2494066-1-jon@nutanix.com/
COMMAND_OVER_ROWS = """\
Basic iperf3 test on a Intel 5416S CPU with Ubuntu 25.10 guest:
TX: taskset -c 2 iperf3 -c <rx_ip> -t 60 -p 5200 -b 0 -u -i 5
RX: taskset -c 2 iperf3 -s -p 5200 -D
Before: 6.08 Gbits/sec
After:  6.32 Gbits/sec
"""


def test_a_command_line_over_rows_is_no_column_head():
    got = {(r["system"], r["metric"], r["value"], r["unit"]) for r in rows(COMMAND_OVER_ROWS)}
    assert got == {("Before", "throughput", 6.08, "Gbit/s"), ("After", "throughput", 6.32, "Gbit/s")}


# https://lore.kernel.org/linux-mm/20251220-swap-table-p2-v5-0-8862a265a033@tencent.com/ (the
# tool's name put in place of the post's `Build kernel test` and `Test using ZRAM as SWAP, ...`)
ONE_ROW_AND_ITS_CHANGE = """\
kernbench using ZRAM as SWAP, make -j48, defconfig, on a x86_64 VM
with 4G RAM, under global pressure, avg of 32 test run:

                Before            After:
System time:    1379.91s          1364.22s (-0.11%)

Which is almost identical.
"""


def test_one_row_under_heads_with_its_change_after_the_values():
    got = {(r["system"], r["metric_label"], r["value"], r["unit"]) for r in rows(ONE_ROW_AND_ITS_CHANGE)}
    assert got == {("Before", "System time", 1379.91, "s"), ("After", "System time", 1364.22, "s")}


# https://lore.kernel.org/linux-mm/20251220-swap-table-p2-v5-0-8862a265a033@tencent.com/
USEMEM = """\
Testing kernbench and usemem.

vm-scabiity
===========
usemem --init-time -O -y -x -n 32 1536M (16G memory, global pressure,
simulated PMEM as swap), average result of 6 test run:

                           Before:         After:
System time:               282.22s         283.47s
Sum Throughput:            5677.35 MB/s    5688.78 MB/s
"""


def test_a_table_under_usemem_is_another_tools():
    assert rows(USEMEM, subject="mm, swap: swap table phase II") == []


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["+----+----+----+", "| g1 | a  | 1  |", "|    | b  | 2  |", "| g2 | c  | 3% |",
                                 "|    | 4  | 5  |", "|    |    | 6  |", "", "| x  | y  |"]), max_size=12))
def test_a_group_named_once_fills_only_the_blank_first_cells_of_its_own_rows(lines):
    from transforms.handmade.tables import _groups_filled, _pipe_cells

    grid = [_pipe_cells(x) if x.strip() else None for x in lines]
    out = _groups_filled(grid)
    assert len(out) == len(grid)
    for k, (a, b) in enumerate(zip(grid, out, strict=True)):
        if a is None or b is None:
            assert a is b
            continue
        assert [(c.text, c.kind) for c in a[1:]] == [(c.text, c.kind) for c in b[1:]]  # only the first cell
        if a[0].text != b[0].text:
            assert not a[0].text and a[1].kind == "label"  # a blank cell beside a label
            j = k - 1  # named by the nearest group row above, no rule or blank line between
            while grid[j] is not None and not grid[j][0].text:
                j -= 1
            assert grid[j] is not None and b[0].text == grid[j][0].text and grid[j][1].kind == "label"


def test_a_tool_and_its_argument_over_the_rows_is_their_caption():
    # a tool, its bare argument and what was measured (`dbench 32 throughput`) over `Unpatched:` /
    # `Patched:` rows (the real-posts issue's summaries per configuration, #10): no row of its own
    text = "dbench 32 throughput\n  Unpatched: 512.3 MB/sec\n  Patched:   540.1 MB/sec  (+5.4%)\n"
    got = {(r["system"], r["value"], r["unit"]) for r in rows(text, subject="ext4: dbench")}
    assert got == {("Unpatched", 512.3, "MB/s"), ("Patched", 540.1, "MB/s")}


# https://lore.kernel.org/lkml/CAJUgMyLDwyK-WgNFOr7bGmXPG9eAEnG7mNtjfPSTeJnJT8bAVg@mail.gmail.com/
COMMA_TABLE = """\
Heavy load on 1024 instances of sysbench:
Latency (ms), after-patch, origial
avg avg: 2133.51, 2150.97
avg min: 21.9629, 20.9413
avg max: 5955.8, 5966.78
"""


def test_a_small_table_typed_with_commas():
    got = {(r["benchmark"], r["system"], r["metric_label"], r["value"], r["unit"])
           for r in result_rows(extract_explained(COMMA_TABLE, "m", subject="Re: [PATCH] sched: reorder")[0])}
    assert got == {("sysbench", "after-patch", "avg avg", 2133.51, "ms"), ("sysbench", "origial", "avg avg", 2150.97, "ms"),
                   ("sysbench", "after-patch", "avg min", 21.9629, "ms"), ("sysbench", "origial", "avg min", 20.9413, "ms"),
                   ("sysbench", "after-patch", "avg max", 5955.8, "ms"), ("sysbench", "origial", "avg max", 5966.78, "ms")}
    # a reST csv-table's rows are no heads of their own (`syscall ,0.1644,35.0321`)
    rows = ["  select-10    ,0.5319,36.1214", "  syscall      ,0.1644,35.0321", "  read         ,0.3055,31.5509"]
    assert comma_columns(rows) == rows


@given(st.lists(st.text(alphabet="ab (ms),:0123.5 ", max_size=40), max_size=8))
@settings(max_examples=300, deadline=None)
def test_comma_columns_keep_every_line_and_figure(lines):
    out = comma_columns(lines)
    assert len(out) == len(lines)
    for before, after in zip(lines, out, strict=True):
        if after != before:
            assert after.split() == before.replace(",", " ").replace(":", " ").split()


# https://lore.kernel.org/netdev/c6e2474e-2c8a-5881-86bf-59c66bdfc34f@solarflare.com/
AFTER_EACH_PATCH = """\
TCP 4 streams, GRO off:
net-next: 8.017 Gbps
after #1: 7.785 Gbps (- 2.9%, p=0.385 vs net-next)
after #3: 7.604 Gbps (- 5.1%, p=0.282 vs net-next.  But note *)
"""


def test_the_tree_and_each_patch_applied_on_it_are_systems():
    got = {(r["system"], r["value"], r["unit"])
           for r in result_rows(extract_explained(AFTER_EACH_PATCH, "m", subject="[PATCH v3 net-next 0/3] netperf")[0])}
    assert got == {("net-next", 8.017, "Gbit/s"), ("after #1", 7.785, "Gbit/s"), ("after #3", 7.604, "Gbit/s")}


def test_a_change_table_whose_rows_name_the_tools_under_a_caption_naming_its_baseline():
    # the real-posts issue's change-only tables (#10): the baseline is recorded, the rows name what
    # was measured (no system), the caption set apart by a blank line
    text = ("Changes relative to 6.8-rc1 (positive is better):\n\n"
            "                   2 threads    8 threads\n"
            "tbench             +1.2%        +3.4%\n"
            "netperf TCP_RR     +0.4%        -0.8%\n")
    got = {(r["benchmark"], r["system"], r["params"].get("baseline"), r["params"].get("threads"), r["value"], r["unit"])
           for r in result_rows(extract_explained(text, "m", subject="[PATCH] x86/mm: lazy tlb")[0])}
    assert got == {("tbench", None, "6.8-rc1", "2", 1.2, "%"), ("tbench", None, "6.8-rc1", "8", 3.4, "%"),
                   ("netperf", None, "6.8-rc1", "2", 0.4, "%"), ("netperf", None, "6.8-rc1", "8", -0.8, "%")}


def test_a_request_response_test_timed_in_microseconds_is_its_latency():
    # https://lore.kernel.org/netdev/c6e2474e-2c8a-5881-86bf-59c66bdfc34f@solarflare.com/: `TCP_RR` names
    # netperf's transaction rate, but in `us` the figure is a round trip's time
    text = ("TCP_RR 100 streams, GRO off, 8000 byte payload\n"
            "net-next: 995.083 us\n"
            "after #1: 969.167 us (- 2.6%, p=0.204 vs net-next)\n")
    got = {(r["system"], r["metric"], r["metric_label"], r["value"], r["unit"])
           for r in result_rows(extract_explained(text, "m", subject="[PATCH v3 net-next 0/3] net: GRO")[0])}
    assert got == {("net-next", "rt_latency", "TCP_RR", 995.083, "us"), ("after #1", "rt_latency", "TCP_RR", 969.167, "us")}


def test_the_issue_s_tables_under_a_caption_naming_their_columns_or_baseline():
    # the real-posts issue's hand tables (#10): a caption setting names against each other (`6.5 vs
    # 6.5+patch`) names a headless table's value columns in order
    text = ("UnixBench index scores, 6.5 vs 6.5+patch:\n\n"
            "Dhrystone 2 using register variables     4123.5     4130.2\n"
            "Execl Throughput                          812.3      845.9\n")
    got = {(r["system"], r["metric"], r["value"])
           for r in result_rows(extract_explained(text, "m", subject="[PATCH] x86: unixbench")[0])}
    assert got == {("6.5", "dhrystone_2", 4123.5), ("6.5+patch", "dhrystone_2", 4130.2),
                   ("6.5", "execl_throughput", 812.3), ("6.5+patch", "execl_throughput", 845.9)}
    # a change table relative to `baseline 6.6`, under heads of fio's I/O patterns: how fio ran, no system
    text = ("fio results (IOPS, relative to baseline 6.6):\n\n"
            "              randread   randwrite\n"
            "4k            +2.1%      -0.4%\n"
            "64k           +0.8%      +1.7%\n")
    got = {(r["system"], r["params"].get("rw"), r["params"].get("baseline"), r["value"], r["unit"])
           for r in result_rows(extract_explained(text, "m", subject="[PATCH] block: plugging")[0])}
    assert got == {(None, "randread", "6.6", 2.1, "%"), (None, "randwrite", "6.6", -0.4, "%"),
                   (None, "randread", "6.6", 0.8, "%"), (None, "randwrite", "6.6", 1.7, "%")}


def test_keys_naming_no_measure_under_a_caption_naming_one_are_the_systems():
    # the real-posts issue's re-typed summaries (#10): one figure per key, the keys no metric of any
    # tool, the caption the measure (`block output` as people retell bonnie's `Sequential Output Block`)
    text = "Bonnie++ sequential block output, K/sec:\n  ext4:  512340\n  xfs:   548210\n  btrfs: 498770\n"
    got = {(r["benchmark"], r["system"], r["metric"], r["value"])
           for r in result_rows(extract_explained(text, "m", subject="[PATCH] bonnie numbers")[0])}
    assert got == {("bonnie", "ext4", "seq_output_block", 512340.0), ("bonnie", "xfs", "seq_output_block", 548210.0),
                   ("bonnie", "btrfs", "seq_output_block", 498770.0)}


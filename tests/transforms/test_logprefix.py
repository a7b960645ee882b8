"""Log prefixes are removed per block before any parser reads the lines."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_explained, extract_runs
from transforms.logprefix import grep_file, has_log_prefix, strip_log_prefixes
from transforms.quotes import segments
from transforms.rows import result_rows

TBENCH = """\
tbench_srv &
tbench 48 127.0.0.1
dbench version 4.00 - Copyright Andrew Tridgell 1999-2004

Running for 600 seconds with load 'client.txt' and minimum warmup 120 secs
48 of 48 processes prepared for launch   0 sec
releasing clients
  48     19183  1606.99 MB/sec  warmup   1 sec  latency 6.212 ms
Throughput 1663.55 MB/sec  48 clients  48 procs  max_latency=14.402 ms"""


def _prefixed(kind: str) -> str:
    lines = TBENCH.split("\n")
    if kind == "iso":
        return "\n".join(f"2016-02-24 04:15:{10 + i:02d} {x}" for i, x in enumerate(lines))
    if kind == "ci":
        return "\n".join(f"2023-01-05T10:11:{i:02d}.1234567Z {x}" for i, x in enumerate(lines))
    if kind == "level":
        return "\n".join(f"2016-02-24 04:15:10,{i:03d} INFO {x}" for i, x in enumerate(lines))
    if kind == "uptime":
        return "\n".join(f"[{12.345 + i * 1.5:12.6f}] {x}" for i, x in enumerate(lines))
    if kind == "host":
        return "\n".join(f"host1  | {x}" for x in lines)
    if kind == "tag":
        return "\n".join(f"[INFO] {x}" for x in lines)
    if kind == "syslog":
        return "\n".join(f"Feb 24 04:15:{10 + i:02d} node7 lkp[812]: {x}" for i, x in enumerate(lines))
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["plain", "iso", "ci", "level", "uptime", "host", "tag", "syslog"])
def test_tbench_behind_any_log_prefix_is_tbench(kind):
    body = TBENCH if kind == "plain" else _prefixed(kind)
    runs = extract_runs(body, "m")
    assert [er.run.benchmark for er in runs] == ["tbench"]
    got = {r.metric: (r.value, r.params) for r in runs[0].run.results}
    assert got["throughput"] == (1663.55, {"clients": "48", "procs": "48", "tool": "tbench"})
    assert got["max_latency"][0] == 14.402


def test_lines_keep_their_numbers_and_columns():
    body = "\n".join(f"2016-02-24 04:15:1{i} {x}" for i, x in enumerate(["a  b", "", "c\td"]))
    seg = segments(body)[0]
    assert seg.lines == ["a  b", "", "c       d"]  # tabs expanded after the prefix is gone
    assert seg.offset == 0


def test_one_dated_line_is_left_alone():
    lines = ["2016-02-24 04:15:10 we ran tbench on the new box", "Throughput 1 MB/sec 1 procs"]
    assert strip_log_prefixes(lines) == lines


def test_hand_table_first_column_is_not_a_host_tag():
    lines = ["2.6.24 | 1663.55 | 14.4", "2.6.24 | 1702.10 | 13.9"]
    assert strip_log_prefixes(lines) == lines
    differing = ["base   | 1663.55", "patch  | 1702.10"]
    assert strip_log_prefixes(differing) == differing


def test_blocks_of_other_shapes_are_stripped_apart():
    lines = ["[   1.000000] x", "[   2.000000] y", "web_1  | z", "web_1  | w", "plain"]
    assert strip_log_prefixes(lines) == ["x", "y", "z", "w", "plain"]


def test_iperf_and_sysbench_brackets_are_not_prefixes():
    lines = ["[  3]  0.0-10.0 sec  1.09 GBytes   938 Mbits/sec", "[  3]  0.0-10.0 sec  1.09 GBytes   938 Mbits/sec",
             "[ 2s ] thds: 4 tps: 10.00", "[ 4s ] thds: 4 tps: 11.00"]
    assert strip_log_prefixes(lines) == lines
    assert not has_log_prefix("\n".join(lines))


_LINE = st.text(alphabet=st.sampled_from(list("0123456789-: .[]|TZabcINFO\t")), max_size=40)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINE, max_size=12))
def test_stripping_keeps_line_count_and_only_cuts_heads(lines):
    out = strip_log_prefixes(lines)
    assert len(out) == len(lines)
    for before, after in zip(lines, out, strict=True):
        assert before.endswith(after)
    if not has_log_prefix("\n".join(lines)):
        assert out == lines


# https://lore.kernel.org/linux-mm/ (2005, X86_GENERIC and X86_L1_CACHE_SHIFT on a Geode): `diff` of
# two lmbench result files, the old side's lines behind `< `, the new side's behind ` > `
DIFF = """\
< [lmbench3.0 results for Linux soekris 2.6.13-ski2-cache-v1 #3 Fri Sep
23 13:14:30 MDT 2005 i586 GNU/Linux]
86,107c86,107
< Simple syscall: 1.6462 microseconds
< Simple read: 5.3041 microseconds
---
 > Simple syscall: 1.8362 microseconds
 > Simple read: 8.4718 microseconds
"""


def test_the_old_side_of_a_diff_reads_like_the_new_side():
    rows = result_rows(extract_explained(DIFF, "d")[0])
    got = {(r["metric_label"], r["value"], r["quoted"]) for r in rows if r["benchmark"] == "lmbench"}
    assert ("Simple syscall", 1.6462, False) in {(a.rstrip(":"), b, c) for a, b, c in got}
    assert ("Simple syscall", 1.8362, True) in {(a.rstrip(":"), b, c) for a, b, c in got}


# https://lore.kernel.org/linux-block/20190828035453.18129-1-fam@euphon.net/ (BFQ per-device weights):
# `grep READ *.out` over one fio output file per device and cgroup, each line behind its file's name
GREP_FILES = """\
Tests
=====

Using two cgroups and three block devices, having weights setup as:

cgroup v1 runs
--------------

    sda.test1.out:   READ: bw=913MiB/s
    sda.test2.out:   READ: bw=183MiB/s

    sdb.test1.out:   READ: bw=213MiB/s
    sdb.test2.out:   READ: bw=1054MiB/s
"""


def test_file_names_grep_put_before_each_line_are_a_prefix():
    assert has_log_prefix(GREP_FILES)
    assert strip_log_prefixes(GREP_FILES.splitlines())[8] == "READ: bw=913MiB/s"
    rows = result_rows(extract_explained(GREP_FILES, "g")[0])
    got = sorted((r["system"], r["metric"], r["value"], r["unit"]) for r in rows)
    assert got == sorted(("cgroup v1 runs", "aggregate_bandwidth", v * 1024, "KiB/s") for v in (913, 183, 213, 1054))
    # one named file in prose is no block
    one = ["The results are in fio.log: see below.", "Nothing else here."]
    assert strip_log_prefixes(one) == one


# https://lore.kernel.org/linux-block/20230328195626.12075-1-kch@nvidia.com/ (the lines as posted)
GREP_RUNS = """\
linux-block (brd-memcpy) # grep IOPS *brd*fio
default-brd.1.fio:     read: IOPS=7504k, BW=28.6GiB/s (30.7GB/s)(1717GiB/60001msec)
default-brd.2.fio:     read: IOPS=7525k, BW=28.7GiB/s (30.8GB/s)(1722GiB/60002msec)

with-memcpy-brd.1.fio: read: IOPS=7558k, BW=28.8GiB/s (31.0GB/s)(1730GiB/60002msec)
with-memcpy-brd.2.fio: read: IOPS=7494k, BW=28.6GiB/s (30.7GB/s)(1715GiB/60001msec)
"""


def test_the_result_file_grep_found_a_line_in_names_its_system_and_run():
    got = {(r["system"], r["params"].get("run"), r["metric_label"], r["value"], r["unit"])
           for r in result_rows(extract_explained(GREP_RUNS, "m", subject="[PATCH 0/4] brd: memcpy")[0])}
    assert ("default-brd", "1", "read IOPS", 7504000.0, "IOPS") in got
    assert ("with-memcpy-brd", "2", "read BW", 28.6, "GiB/s") in got
    assert {s for s, *_ in got} == {"default-brd", "with-memcpy-brd"}
    assert grep_file("logs/run-2.log:12:  Throughput") == ("logs/run", "2", "Throughput")
    assert grep_file("sda.out:") == ("sda", None, "")
    assert grep_file("2.6.3: Elapsed") is None  # a release, no file
    assert grep_file("default-brd.1.fio") is None  # no colon: no file `grep` named


@given(st.text(alphabet="abc-_.:0123 fiolg", max_size=60))
@settings(max_examples=300, deadline=None)
def test_a_grep_file_is_read_from_the_lead_as_printed(lead):
    found = grep_file(lead)
    if found is not None:
        stem, run, rest = found
        assert stem and stem in lead and rest in lead and (run is None or run in lead)


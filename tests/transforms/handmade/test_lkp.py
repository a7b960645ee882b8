"""The kernel test robot's comparison table: the rows of a benchmark the project reads, both
columns, each under its column head; the profile and accounting rows around them are not results."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_explained
from transforms.handmade.lkp import _row, read_lkp
from transforms.rows import result_rows

# https://lore.kernel.org/oe-lkp/202502251026.bb927780-lkp@intel.com (lines as posted, some rows left out)
REPORT = """\
kernel test robot noticed a 6.2% regression of hackbench.throughput on:

testcase: hackbench
config: x86_64-rhel-9.4
compiler: gcc-12
parameters:

\tnr_threads: 100%
\titerations: 4
\tmode: process
\tipc: socket
\tcpufreq_governor: performance

=========================================================================================
compiler/cpufreq_governor/ipc/iterations/kconfig/mode/nr_threads/rootfs/tbox_group/testcase:
  gcc-12/performance/socket/4/x86_64-rhel-9.4/process/100%/debian-12-x86_64-20240206.cgz/lkp-icl-2sp2/hackbench

commit:
  f553741ac8 ("sched: Cancel the slice protection of the idle entity")
  2ae891b826 ("sched: Reduce the default slice to avoid tasks getting an extra tick")

f553741ac8c0e467 2ae891b826958b60919ea21c727
---------------- ---------------------------
         %stddev     %change         %stddev
             \\          |                \\
      5457 \u00b1  6%     +30.9%       7146 \u00b1 11%  perf-c2c.DRAM.remote
   1706905           +20.0%    2047861        vmstat.system.cs
    433157            -6.2%     406447        hackbench.throughput
    423258            -6.9%     394005        hackbench.throughput_avg
    143.13            +7.3%     153.65        hackbench.time.elapsed_time
  39754543 \u00b1  3%     +56.8%   62349308        hackbench.time.involuntary_context_switches
 4.411e+10            -5.0%  4.192e+10        perf-stat.i.branch-instructions
     25.15            -0.6       24.50        perf-stat.i.cache-miss-rate%
"""


def test_rows_of_the_testcase_become_results_under_each_column_head():
    rows = result_rows(extract_explained(REPORT, "r", "[sched] 2ae891b826: hackbench.throughput 6.2% regression")[0])
    got = sorted((r["system"], r["metric_label"], r["value"]) for r in rows)
    assert got == [
        ("2ae891b826958b60919ea21c727", "throughput", 406447.0),
        ("2ae891b826958b60919ea21c727", "throughput_avg", 394005.0),
        ("f553741ac8c0e467", "throughput", 433157.0),
        ("f553741ac8c0e467", "throughput_avg", 423258.0),
    ]
    assert {r["benchmark"] for r in rows} == {"hackbench"}
    assert {r["layout"] for r in rows} == {"tool_output"}
    assert rows[0]["params"] == {"ipc": "socket", "iterations": "4", "mode": "process", "nr_threads": "100%",
                                 "tbox_group": "lkp-icl-2sp2"}


def test_the_job_parameters_are_no_results():
    body = REPORT.replace("hackbench.throughput", "will-it-scale.per_thread_ops")
    assert result_rows(extract_explained(body, "r")[0]) == []  # no row of ours, and `iterations: 4` is a setting


def test_a_quoted_table_and_a_mangled_spread_sign_still_read():
    mangled = REPORT.replace("\u00b1", "\u0105")
    quoted = "\n".join("> " + x for x in mangled.splitlines())
    rows = result_rows(extract_explained(quoted, "q")[0])
    assert sorted(r["value"] for r in rows) == [394005.0, 406447.0, 423258.0, 433157.0]
    assert all(r["quoted"] for r in rows)


def test_units_come_from_the_metric_suffix():
    lines = ["v5.11-rc1 8e3c8c9a54b0d4c9d0c2b0b2b8c", "---------------- ---------------------------",
             "         %stddev     %change         %stddev",
             "      1234 \u00b1  2%     -12.3%       1082 \u00b1  3%  netperf.Throughput_Mbps",
             "     45678           -12.3%      40058        fio.write_bw_MBps"]
    values, used, _ = read_lkp(lines)
    assert [(v.benchmark, v.system, v.value, v.unit) for v in values] == [
        ("netperf", "v5.11-rc1", 1234.0, "Mbit/s"), ("netperf", "8e3c8c9a54b0d4c9d0c2b0b2b8c", 1082.0, "Mbit/s"),
        ("fio", "v5.11-rc1", 45678.0, "MB/s"), ("fio", "8e3c8c9a54b0d4c9d0c2b0b2b8c", 40058.0, "MB/s")]
    assert used == {0, 1, 2, 3, 4}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="0123456789.+-%e \u00b1|\\abhckn_", max_size=60), max_size=12))
def test_never_raises_and_reads_values_only_from_rows_under_a_head(lines):
    head = ["a b", "-------- --------", "  %stddev  %change  %stddev"]
    values, used, _ = read_lkp(head + lines)
    assert all(v.line >= 3 and v.line in used for v in values)
    assert all(v.system in ("a", "b") for v in values)


# https://lore.kernel.org/lkml/Y9dETROtv9Bld9TI@casper.infradead.org/ : a reply quoting the table
# in two pieces with a comment between; the report's parameter list is quoted further up
SPLIT_QUOTE = """\
> with following parameters:
>
> \truntime: 300s
> \tnr_task: 1
>
> 9cd6ffa60256e931 f1a7941243c102a44e8847e3b94
> ---------------- ---------------------------
>          %stddev     %change         %stddev
>              \\          |                \\
>      11110           -19.2%       8974        unixbench.score
>       5502           -20.7%       4363        unixbench.time.user_time

So we're spending a lot more time in the kernel and correspondingly less
time in userspace.

>   67991885           -16.9%   56507507        unixbench.time.voluntary_context_switches
>   46198768           -19.1%   37355723        unixbench.workload
"""


def test_a_table_quoted_in_two_pieces_keeps_its_heads_and_the_parameters_are_no_rows():
    rows = result_rows(extract_explained(SPLIT_QUOTE, "s")[0])
    assert sorted((r["system"], r["metric_label"], r["value"]) for r in rows) == [
        ("9cd6ffa60256e931", "score", 11110.0), ("9cd6ffa60256e931", "workload", 46198768.0),
        ("f1a7941243c102a44e8847e3b94", "score", 8974.0), ("f1a7941243c102a44e8847e3b94", "workload", 37355723.0)]


# https://lore.kernel.org/stable/202511071439.d081322d-lkp@intel.com/ : `lmbench3.` names lmbench
def test_lmbench3_rows_are_lmbench():
    body = """\
       v6.18-rc3 db86f55bf81a3a297be05ee8775
---------------- ---------------------------
         %stddev     %change         %stddev
             \\          |                \\
   3870548 \u00b1  3%      +8.9%    4215418 \u00b1  3%  vmstat.system.cs
      5.11           -11.5%       4.52        lmbench3.PIPE.latency.us
"""
    rows = result_rows(extract_explained(body, "l")[0])
    assert [(r["benchmark"], r["system"], r["value"], r["unit"]) for r in rows] == [
        ("lmbench", "v6.18-rc3", 5.11, "us"), ("lmbench", "db86f55bf81a3a297be05ee8775", 4.52, "us")]


# https://lore.kernel.org/linux-mm/20131218072814.GA798@localhost/ : the 0-day tables of 2013, a row
# per test box summed by a TOTAL row; boxes under a counter's TOTAL measured that counter
OLD_STYLE = """\
      v3.13-rc3       eabb1f89905a0c809d13
---------------  -------------------------
     88901 ~ 2%      -3.1%      86131 ~ 0%  brickland2/micro/hackbench/600%-process-pipe
    153250 ~ 2%      +3.1%     157931 ~ 1%  brickland2/micro/hackbench/600%-process-socket
    407038           +1.2%     412032       TOTAL hackbench.throughput

      v3.13-rc3       eabb1f89905a0c809d13
---------------  -------------------------
   1777511 ~ 0%  +1.9e+13%  3.363e+17 ~33%  brickland2/micro/hackbench/600%-process-pipe
    103797 ~ 0%    -100.0%          1 ~141%  lkp-a04/micro/netperf/120s-200%-TCP_RR
  99986527         +3e+14%  2.988e+20       TOTAL proc-vmstat.nr_tlb_local_flush_one
"""


def test_old_style_tables_give_each_box_under_the_total_rows_metric():
    values, _, _ = read_lkp(OLD_STYLE.splitlines())
    got = [(v.system, v.label, v.value, v.params) for v in values]
    box = {"testbox": "brickland2", "case": "600%-process-pipe"}
    assert got[:2] == [("v3.13-rc3", "throughput", 88901.0, box), ("eabb1f89905a0c809d13", "throughput", 86131.0, box)]
    assert [(v.system, v.value) for v in values if not v.params] == [("v3.13-rc3", 407038.0),
                                                                    ("eabb1f89905a0c809d13", 412032.0)]
    assert len(values) == 6 and {v.benchmark for v in values} == {"hackbench"}


# https://lore.kernel.org/lkml/20211213083154.GA20853@linux.intel.com/ : three commits side by side
def test_a_table_of_three_commits_reads_a_value_per_column():
    lines = ["5f58da2befa58edf 054aa8d439b9185d4f5eb9a9028 242d36be3ad02063a1cf6df7802 ",
             "---------------- --------------------------- --------------------------- ",
             "         %stddev     %change         %stddev     %change         %stddev",
             "             \\\\          |                \\\\          |                \\\\  ",
             "   6666720            -5.7%    6288280            -0.4%    6639231        will-it-scale.24.threads",
             "      0.09 \u00b1 59%     -24.7%       0.07 \u00b1 16%      +5.0%       0.10 \u00b1 38%  perf-stat.overall.MPKI"]
    lines = [x.replace("\\\\", "\\") for x in lines]
    assert _row(lines, 4, 3) == (["6666720", "6288280", "6639231"], False, "will-it-scale.24.threads", 1)
    assert _row(lines, 5, 3) == (["0.09", "0.07", "0.10"], False, "perf-stat.overall.MPKI", 1)
    hackbench = [*lines[:4], lines[4].replace("will-it-scale.24.threads", "hackbench.throughput")]
    values, used, _ = read_lkp(hackbench)
    assert [(v.system, v.value) for v in values] == [("5f58da2befa58edf", 6666720.0),
                                                     ("054aa8d439b9185d4f5eb9a9028", 6288280.0),
                                                     ("242d36be3ad02063a1cf6df7802", 6639231.0)]


# https://lore.kernel.org/lkml/f5d91003-800c-5439-3159-67b5f7b6b744@linux.intel.com/ : the mailer put
# each row's name on a line of its own; the robot's table of failed runs stands before the figures
WRAPPED = """\
9f68395333ad7f5b 070f5e860ee2bf588c99ef7b4c2                        v5.7
---------------- --------------------------- ---------------------------
          %stddev     %change         %stddev     %change         %stddev
              \\          |                \\          |                \\
       0.69           -10.3%       0.62            -9.1%       0.62
   reaim.child_systime
       1.58 \u00b1  2%     +71.0%       2.70 \u00b1  2%     +26.9%       2.01 \u00b1
2%  reaim.std_dev_percent
      50800            -2.4%      49600            -1.6%      50000
   reaim.workload

9f68395333ad7f5b 070f5e860ee2bf588c99ef7b4c2
---------------- ---------------------------
        fail:runs  %reproduction    fail:runs
            |             |             |
           4:4          -18%           3:4     perf-profile.children.cycles-pp.error_entry
          %stddev     %change         %stddev
              \\          |                \\
       0.68           -10.4%       0.61        reaim.child_systime
"""


def test_row_names_wrapped_onto_their_own_line_and_the_failed_runs_block_are_read_past():
    lines = WRAPPED.splitlines()
    assert _row(lines, 4, 3) == (["0.69", "0.62", "0.62"], False, "reaim.child_systime", 2)
    assert _row(lines, 6, 3) == (["1.58", "2.70", "2.01"], False, "reaim.std_dev_percent", 2)
    assert _row(lines, 8, 3) == (["50800", "49600", "50000"], False, "reaim.workload", 2)
    _, used, head = read_lkp(lines)
    assert {4, 5, 6, 7, 8, 9, 18} <= used  # the rows of both tables are the robot's (none is ours)
    assert head is not None and head.systems == ("9f68395333ad7f5b", "070f5e860ee2bf588c99ef7b4c2")


# https://lore.kernel.org/linux-fsdevel/95966337-b36e-f45e-6b16-f433bcb90c4d@digikod.net/ (quoted report)
def test_transactions_per_second_and_the_job_line_as_params():
    body = """\
>> cluster/compiler/cpufreq_governor/ip/kconfig/nr_threads/rootfs/runtime/tbox_group/test/testcase/ucode:
>>   cs-localhost/gcc-9/performance/ipv4/x86_64-rhel-8.3/16/debian-10.4-x86_64-20200603.cgz/300s/lkp-cpl-4sp1/TCP_CRR/netperf/0x700001e
>>
>> commit:
>>   v5.15-rc4
>>   a0918006f9284b77397ae4f163f055c3e0f987b2
>>
>>        v5.15-rc4 a0918006f9284b77397ae4f163f
>> ---------------- ---------------------------
>>          %stddev     %change         %stddev
>>              \\          |                \\
>>     333492            -5.7%     314346 \u00b1  2%  netperf.Throughput_total_tps
"""
    rows = result_rows(extract_explained(body, "n")[0])
    assert [(r["system"], r["value"], r["unit"]) for r in rows] == [
        ("v5.15-rc4", 333492.0, "trans/s"), ("a0918006f9284b77397ae4f163f", 314346.0, "trans/s")]
    assert rows[0]["params"] == {"cluster": "cs-localhost", "ip": "ipv4", "nr_threads": "16", "runtime": "300s",
                                 "tbox_group": "lkp-cpl-4sp1", "test": "TCP_CRR"}


def test_heads_and_their_rule_as_the_last_lines_read_no_row():
    # the end of a message cut right under a comparison's heads (`base  patched` over its dashes)
    assert read_lkp(["3cd04c8f4afed71a 6471658dc66c670580a7616e75f", "---------------- ---------------------------"]) \
        == ([], set(), None)


# https://lore.kernel.org/lkml/ZDgi6g4hRYCfbxcu@chenyu5-mobl1/ (its lines, some rows left out): the
# robot's rows typed by hand under a parameter named alone on a line, a caption of settings above
BY_HAND = """\
hackbench: ipc=pipe mode=process default fd:20

                   baseline                     eevdf+NO_PLACE_BONUS
worker_threads
1                  103103            -0.3%     102794        hackbench.throughput_avg
25%                115562          +825.7%    1069725        hackbench.throughput_avg
50%                183.70          +2.2%       187.80           schbench.latency_90%_us
                   (0.35%)                     (0.46%)          stddev
100%               804560           +74.8%    1406413        hackbench.throughput_avg

Summary: eevdf+NO_PLACE_BONUS gives the best performance.
"""


def test_rows_typed_by_hand_under_a_parameter_named_alone():
    rows = result_rows(extract_explained(BY_HAND, "c")[0])
    got = [(r["benchmark"], r["system"], r["metric_label"], r["params"], r["value"]) for r in rows]
    assert got == [
        ("hackbench", "baseline", "throughput_avg", {"ipc": "pipe", "mode": "process", "worker_threads": "1"}, 103103.0),
        ("hackbench", "eevdf+NO_PLACE_BONUS", "throughput_avg",
         {"ipc": "pipe", "mode": "process", "worker_threads": "1"}, 102794.0),
        ("hackbench", "baseline", "throughput_avg", {"ipc": "pipe", "mode": "process", "worker_threads": "25%"}, 115562.0),
        ("hackbench", "eevdf+NO_PLACE_BONUS", "throughput_avg",
         {"ipc": "pipe", "mode": "process", "worker_threads": "25%"}, 1069725.0),
        ("hackbench", "baseline", "throughput_avg", {"ipc": "pipe", "mode": "process", "worker_threads": "100%"}, 804560.0),
        ("hackbench", "eevdf+NO_PLACE_BONUS", "throughput_avg",
         {"ipc": "pipe", "mode": "process", "worker_threads": "100%"}, 1406413.0)]
    # without the parameter's line the rows are no such table
    assert result_rows(extract_explained(BY_HAND.replace("worker_threads\n", ""), "c")[0]) == []


# https://lore.kernel.org/lkml/20191210141502.GQ32275@shao2-debian/ (its lines): three commits, a
# `change` head, an unsigned gain, a row per box and a GEO-MEAN row
THREE_WAY = """\
cefa80ced57a2917  3c0edea9b29f9be6c093f236f7  6794862a16ef41f753abd75c03  testcase/testparams/testbox
----------------  --------------------------  --------------------------  ---------------------------
         %stddev      change         %stddev      change         %stddev
             \\          |                \\          |                \\
     21204             -17%      17604              23%      26123 ±  3%  lmbench3/performance-development-100%-PIPE-50%-ucode=0x7000019/lkp-bdw-de1
     21204             -17%      17604              23%      26123        GEO-MEAN lmbench3.PIPE.bandwidth.MB/sec
"""


def test_a_three_way_table_with_a_change_head_reads_each_box_and_the_geo_mean():
    values, _, _ = read_lkp(THREE_WAY.split("\n"))
    got = {(v.system, v.label, v.value, v.params.get("testbox")) for v in values}
    assert got == {("cefa80ced57a2917", "PIPE.bandwidth.MB/sec", 21204.0, "lkp-bdw-de1"),
                   ("3c0edea9b29f9be6c093f236f7", "PIPE.bandwidth.MB/sec", 17604.0, "lkp-bdw-de1"),
                   ("6794862a16ef41f753abd75c03", "PIPE.bandwidth.MB/sec", 26123.0, "lkp-bdw-de1"),
                   ("cefa80ced57a2917", "PIPE.bandwidth.MB/sec", 21204.0, None),
                   ("3c0edea9b29f9be6c093f236f7", "PIPE.bandwidth.MB/sec", 17604.0, None),
                   ("6794862a16ef41f753abd75c03", "PIPE.bandwidth.MB/sec", 26123.0, None)}
    rows = result_rows(extract_explained("lmbench3 comparison:\n\n" + THREE_WAY, "t")[0])
    assert len(rows) == 6 and {r["benchmark"] for r in rows} == {"lmbench"}


# https://lore.kernel.org/lkml/202504211337.3c954295-lkp@intel.com/ (its lines): a profile row whose
# name holds `[unknown]` above the benchmark's rows
BRACKETED_NAME = """\
18bae0dfec15b24e 27ce8299bc1ec6df8306073785f
---------------- ---------------------------
         %stddev     %change         %stddev
             \\          |                \\
    152.80 ± 15%     -35.0%      99.33 ± 19%  perf-sched.wait_and_delay.count.irqentry_exit_to_user_mode.asm_sysvec_reschedule_ipi.[unknown].[unknown]
   5018731           +23.1%    6177264        netperf.ThroughputBoth_total_tps
     52278           +23.1%      64346        netperf.ThroughputBoth_tps
"""


def test_a_row_name_holding_brackets_does_not_end_the_table():
    values, _, _ = read_lkp(BRACKETED_NAME.split("\n"))
    assert {(v.label, v.value) for v in values} == {("ThroughputBoth_total_tps", 5018731.0),
                                                    ("ThroughputBoth_total_tps", 6177264.0),
                                                    ("ThroughputBoth_tps", 52278.0), ("ThroughputBoth_tps", 64346.0)}


# https://lore.kernel.org/lkml/1611040814-33449-1-git-send-email-feng.tang@intel.com/
CASED = """\
fio (4k/1M is block size)
-------------------------
\t   v5.11-rc1\t\t\tv5.11-rc1+patch

A-P50-r-4k     16881 ±  2%    +1.2%      17081 ±  2%  fio.read_bw_MBps
A-P50-w-4k      3931          +4.5%       4111 ±  2%  fio.write_bw_MBps
A-P50-r-1M     15178          -0.2%      15154        fio.read_bw_MBps
"""


def test_rows_behind_a_case_name_under_the_heads_and_a_blank_line_are_read():
    got = {(v.system, v.label, v.params.get("case"), v.value, v.unit) for v in read_lkp(CASED.splitlines())[0]}
    assert got == {("v5.11-rc1", "read_bw_MBps", "A-P50-r-4k", 16881.0, "MB/s"),
                   ("v5.11-rc1+patch", "read_bw_MBps", "A-P50-r-4k", 17081.0, "MB/s"),
                   ("v5.11-rc1", "write_bw_MBps", "A-P50-w-4k", 3931.0, "MB/s"),
                   ("v5.11-rc1+patch", "write_bw_MBps", "A-P50-w-4k", 4111.0, "MB/s"),
                   ("v5.11-rc1", "read_bw_MBps", "A-P50-r-1M", 15178.0, "MB/s"),
                   ("v5.11-rc1+patch", "read_bw_MBps", "A-P50-r-1M", 15154.0, "MB/s")}
    # a row of another tool behind a name is none
    assert read_lkp(["  base  patched", "", "case1  12  +1.0%  13  will-it-scale.per_process_ops"])[0] == []

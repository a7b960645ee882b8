"""The reader as a whole: random text never raises; non-benchmark content gives no rows."""

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_explained
from transforms.rows import result_rows

NEGATIVE = """\
I ran netperf over the weekend, but here is what worries me first:

 drivers/net/ethernet/intel/ice/ice_txrx.c |  12 ++++++------
 drivers/net/ethernet/intel/ice/ice_main.c |  40 +++++++++++++++++++++++++++
 2 files changed, 46 insertions(+), 6 deletions(-)

procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----
 r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st
 1  0      0 812344  10240 402124    0    0     3     5   60  120  1  0 99  0  0
 2  0      0 812100  10240 402130    0    0     0     0  950 2100 12  3 85  0  0

[   12.345678] ice 0000:3b:00.0: PTP init successful
[   12.456789] ice 0000:3b:00.0: DDP package version 1.3.26.0

MemTotal:       16318412 kB
MemFree:          812344 kB

@@ -120,7 +120,7 @@ static int ice_clean_tx_irq(struct ice_tx_ring *tx_ring, int budget)
-	int budget = 64;
+	int budget = 128;
"""


def test_negative_content_gives_no_rows():
    runs, _, explained = extract_explained(NEGATIVE, "n", subject="Re: [PATCH] ice: tx budget")
    assert result_rows(runs) == []
    assert any(e.outcome.startswith("nothing") for e in explained)


def test_a_unit_in_brackets_ends_a_row():
    # https://lore.kernel.org/lkml/7D48A756-C253-48DE-B536-826314778404@fb.com/ (perf bench sched
    # messaging, each condition's median `Total time`, rows typed `104.873 [sec]`)
    text = ("The benchmark command: ./perf bench sched messaging -g 40 -l 50000 -t\n\n"
            "Baseline (no perf-stat)\t\t\t104.873 [sec]\n# global\nperf stat -a\t\t\t\t107.887 [sec]\n"
            "perf stat -a --bpf-counters\t\t106.071 [sec]\n")
    rows = result_rows(extract_explained(text, "m")[0])
    assert [(r["benchmark"], r["value"], r["unit"]) for r in rows] == [
        ("hackbench", 104.873, "s"), ("hackbench", 107.887, "s"), ("hackbench", 106.071, "s")]


def test_explain_says_why_a_table_became_rows():
    text = "hackbench -g 4 results\n\ngroups  base   patched\n1       1.23   1.20\n4       3.40   3.10\n"
    runs, _, explained = extract_explained(text, "m")
    rows = result_rows(runs)
    assert sorted((r["system"], r["params"]["groups"], r["value"]) for r in rows) == [
        ("base", "1", 1.23), ("base", "4", 3.4), ("patched", "1", 1.2), ("patched", "4", 3.1)]
    assert {r["metric"] for r in rows} == {"time"} and {r["unit"] for r in rows} == {"s"}
    table = next(e for e in explained if e.taken_for.startswith("hand_table"))
    assert table.benchmark == "hackbench" and table.rows == 4 and "hackbench" in table.evidence


_ALPHABET = st.sampled_from(list("ab 0123456789.,:|+-%()=\t\n>xXMB/sus") + ["netperf", "TCP_RR", "hackbench"])


@settings(max_examples=150, deadline=None)
@given(st.lists(_ALPHABET, max_size=400).map("".join))
def test_random_text_never_raises(text):
    runs, _, _ = extract_explained(text, "r", subject="netperf")
    for r in result_rows(runs):
        assert r["layout"] in ("tool_output", "hand_table", "key_value", "prose", "change_table")


# https://lore.kernel.org/lkml/20230228080257.28807-1-hejinyang@loongson.cn/ (quoted in a reply)
BULLETS = """\
> The UnixBench test results are as follows:
>
> - nopernode-nopie: 3938.7
>
> - pernode-nopie: 4062.2
>
> - nopernode-pie: 4009.7
"""

# https://lore.kernel.org/lkml/ (2021, "[PATCH] sched/fair: Trigger the update of blocked load ...")
TRANSPOSED = """\
The below is the result of hackbench w/ and w/o this patch:
g=    2      4     6       8      10     12      14
w/o: 1.8151 3.8499 5.5142 7.2491 9.0340 10.7345 12.0929
w/ : 1.8428 3.7436 5.4501 6.9522 8.2882  9.9535 11.3367
                          +4.1%  +8.3%  +7.3%   +6.3%
"""

PROSE = "With fio on ext4+nvme, base IOPS is 562K, patch IOPS is 574K. The CPU usage dropped.\n"


def test_bulleted_systems_list():
    rows = result_rows(extract_explained(BULLETS, "b")[0])
    assert sorted((r["system"], r["value"]) for r in rows) == [
        ("nopernode-nopie", 3938.7), ("nopernode-pie", 4009.7), ("pernode-nopie", 4062.2)]
    assert {(r["benchmark"], r["metric"], r["layout"]) for r in rows} == {("unixbench", "index_score", "key_value")}


def test_parameter_row_on_top_names_the_columns():
    rows = result_rows(extract_explained(TRANSPOSED, "t")[0])
    assert len(rows) == 14  # the row of changes under them is no result
    got = {(r["system"], r["params"]["g"]): r["value"] for r in rows}
    assert got[("w/o", "2")] == 1.8151 and got[("w/", "14")] == 11.3367
    assert {r["benchmark"] for r in rows} == {"hackbench"}


def test_prose_pairs_keep_the_printed_numbers():
    rows = result_rows(extract_explained(PROSE, "p")[0])
    assert sorted((r["system"], r["metric"], r["value"], r["params"].get("scale")) for r in rows) == [
        ("base", "iops", 562.0, "k"), ("patch", "iops", 574.0, "k")]
    assert {r["layout"] for r in rows} == {"prose"}


def test_pathological_lines_stay_fast():
    import time

    bad = ["before" + " " * 50_000 + "1", "1" + " " * 50_000 + "x", "a@" * 30_000, "1 " * 30_000 + "MB/s",
           "| " * 30_000, "bytes" + " " * 50_000 + ":", "(" + " " * 50_000, "is 1 " * 20_000]
    body = "netperf results\n\n" + "\n".join(bad) + "\n"
    t = time.perf_counter()
    extract_explained(body, "x", subject="netperf")
    assert time.perf_counter() - t < 10.0


# https://lore.kernel.org/lkml/20030425162548.3c32c207.akpm@digeo.com/ (a reply quoting the table)
LMBENCH_HEADING = """\
> One recent change is -mm2 is 17-19% faster at tbench.

>
> Processor, Processes - times in microseconds - smaller is better
> ----------------------------------------------------------------
>                    fork    execve  /bin/sh
> kernel           process  process  process
> -------------    -------  -------  -------
> 2.5.68               243      979     4401
> 2.5.68-mm2           502     1715     5200

How odd.  I'll check that.

> tiobench-0.3.3
"""


def test_a_tool_heading_names_the_table_over_other_tools_nearby():
    # lmbench's own section title sits over the table: tbench above and tiobench below do not count
    rows = result_rows(extract_explained(LMBENCH_HEADING, "l", subject="Re: [BENCHMARK] 2.5.68 and 2.5.68-mm2")[0])
    got = {(r["benchmark"], r["system"], r["metric_label"]): r["value"] for r in rows}
    assert got[("lmbench", "2.5.68", "fork process")] == 243
    assert got[("lmbench", "2.5.68-mm2", "/bin/sh process")] == 5200
    assert len(rows) == 6


# https://lore.kernel.org/lkml/Pine.OSF.4.05.10506102306360.5042-100000@da410.phys.au.dk/ (its quoted
# table, read from the real-posts corpus: the post's trailing blanks and tabs are part of the case)
_POST = Path(__file__).parents[2] / "fixtures/real/dev/f_lkml_2005_hackbench_rt_v0748_quoted.txt"
HEADS_ONCE = "\n".join(_POST.read_text().split("\n")[11:28]) + "\n"


def test_column_heads_written_once_over_captioned_groups_name_every_group():
    rows = result_rows(extract_explained(HEADS_ONCE, "h", subject="Re: hackbench: 2.6.12-rc6 vs.  2.6.12-rc6-RT-V0.7.48-06")[0])
    got = {(r["system"], r["params"].get("groups"), r["params"].get("run")): r["value"] for r in rows}
    assert got[("2.6.12-rc6-RT-V0.7.48-0", "30", "1st")] == 6.139
    assert got[("2.6.12-rc6", "100", "3rd")] == 16.387
    # the command says how it ran: the value is hackbench's headline, the label keeps the command
    assert {(r["metric"], r["metric_label"]) for r in rows} == {("time", "./hackbench 30"), ("time", "./hackbench 100")}
    assert len(rows) == 12


# https://lore.kernel.org/lkml/20030305093632.2454.qmail@linuxmail.org/ ("[BENCHMARK] dbench based"):
# its opening and the first three of its fourteen captioned series, as posted
DBENCH_SERIES = """\
Hi all,
here are the results of a test based on dbench.
It runs dbench N three times and evaluate the average.

Something happened between 2.5.59 and 2.5.61.

Kernel version: report%2.4.19
2 \t 46.6689
8 \t 25.5343
16 \t 20.7133
24 \t 16.2473
32 \t 14.2351

Kernel version: report%2.5.34
2 \t 28.675
8 \t 26.7106
16 \t 21.0888
24 \t 13.9644
32 \t 12.6921

Kernel version: report%2.5.41
2 \t 31.0127
8 \t 32.0934
16 \t 29.3058
24 \t 20.291
32 \t 19.157
"""


def test_captioned_series_of_bare_numbers_are_read_each_under_its_kernel():
    """`Kernel version: X` is a caption naming the system, not a header; the series after the
    first are read like it although the tool was named lines above."""
    rows = result_rows(extract_explained(DBENCH_SERIES, "d", subject="[BENCHMARK] dbench based")[0])
    got = {(r["system"], r["params"].get("size"), r["value"]) for r in rows}
    assert len(rows) == 15 and {r["benchmark"] for r in rows} == {"dbench"}
    assert {("report%2.4.19", "2", 46.6689), ("report%2.5.34", "32", 12.6921), ("report%2.5.41", "8", 32.0934)} <= got
    assert {r["metric"] for r in rows} == {"throughput"}  # never the caption


# https://lore.kernel.org/lkml/20230912065808.2530-2-aaron.lu@intel.com/ (2023, tg->load_avg ratelimit)
NOISE_VERDICT = """\
==============================================
netperf/tcp_stream on ICL (all in noise range)
25%
base:    43092±0.1%
patch:   42891±0.5%

50%
base:    19278±14.9%
patch:   22369±7.2%
"""


def test_a_headings_noise_verdict_is_no_part_of_what_it_names():
    rows = result_rows(extract_explained(NOISE_VERDICT, "k", subject="[PATCH] sched/fair: ratelimit")[0])
    got = {(r["system"], r["metric_label"], r["params"].get("case")): r["value"] for r in rows}
    assert got[("base", "netperf/tcp_stream on ICL", "25%")] == 43092
    assert got[("patch", "netperf/tcp_stream on ICL", "50%")] == 22369


# https://lore.kernel.org/linux-wireless/20211210180213.3661994-1-davidm@egauge.net/ (2021, wilc1000 PSM)
TOOL_THEN_CONDITION = """\
iperf3 without this patch (no significant different with PSM on/off):
  TX   0.00-120.01 sec   140 MBytes  9.82 Mbits/sec
  RX   0.00-120.69 sec   283 MBytes  19.6 Mbits/sec
"""


def test_a_caption_naming_the_tool_then_a_condition_names_the_condition():
    rows = result_rows(extract_explained(TOOL_THEN_CONDITION, "o", subject="[PATCH] wilc1000: fix PSM wakeup")[0])
    assert {(r["system"], r["value"]) for r in rows} == {("without this patch", 9.82), ("without this patch", 19.6)}


def test_a_table_printed_by_another_program_run_right_above_gives_no_rows():
    # https://lore.kernel.org/linux-btrfs/20250604013611.GA485082@zen.localdomain/ (its lines): `compsize`
    # tables in a post about dd read speed
    text = ("> $ sudo compsize highly-compressible\n"
            "> Processed 1 file, 81920 regular extents (81920 refs), 0 inline.\n"
            "> Type       Perc     Disk Usage   Uncompressed Referenced\n"
            "> TOTAL        3%      320M          10G          10G\n"
            "> $ sudo compsize compressible\n"
            "> Processed 1 file, 81965 regular extents (81965 refs), 0 inline.\n"
            "> Type       Perc     Disk Usage   Uncompressed Referenced\n"
            "> TOTAL       43%      4.3G          10G          10G\n"
            "> zstd        43%      4.3G          10G          10G\n"
            ">\n> $ dd if=highly-compressible   of=/dev/null bs=8k\n"
            "> 1310720+0 records in\n> 1310720+0 records out\n"
            "> 10737418240 bytes (11 GB, 10 GiB) copied, 12.9102 s, 832 MB/s\n")
    runs, _, explained = extract_explained(text, "c", subject="Sequential read(8K) from compressed files are very slow")
    assert {(r["benchmark"], r["value"]) for r in result_rows(runs)} == {("dd", 832.0), ("dd", 12.9102)}
    assert any(e.outcome == "nothing: the output of `compsize`, run right above it" for e in explained)


# https://lore.kernel.org/lkml/YbcEE/mgIAhWuS+A@BLR-5CG11610CF.amd.com/ (2021, NUMA imbalance v4), its lines
TBENCH_SERIES = """\
While Stream benefits from spreading, it is fair to understand the
gains that we make with benchmarks that would prefer the tasks
co-located instead of spread out. Chose tbench and YCSB+Mongodb as
representatives of these. The numbers are as follows:


~~~~~~~~~~~~~~~~~~~~~~~~
tbench
Zen3, 64C128T per socket, 2 sockets,
~~~~~~~~~~~~~~~~~~~~~~~~

NPS=1
Clients:     tip/sched/core                 mel-v3                  mel-v4
    1        633.25 (0.00 pct)        619.18 (-2.22 pct)      632.96 (-0.04 pct)
    2        1152.54 (0.00 pct)       1189.91 (3.24 pct)      1184.84 (2.80 pct)
    4        1946.53 (0.00 pct)       2177.45 (11.86 pct)     1979.62 (1.69 pct)
    8        3554.65 (0.00 pct)       3565.16 (0.29 pct)      3678.13 (3.47 pct)
   16        6222.00 (0.00 pct)       6484.89 (4.22 pct)      6256.02 (0.54 pct)
   32        11707.57 (0.00 pct)      12185.93 (4.08 pct)     12006.63 (2.55 pct)
   64        18433.50 (0.00 pct)      19537.03 (5.98 pct)     19088.57 (3.55 pct)
  128        27400.07 (0.00 pct)      31771.53 (15.95 pct)    27265.00 (-0.49 pct)
  256        33195.27 (0.00 pct)      24478.67 (-26.25 pct)   34065.60 (2.62 pct)
  512        41633.10 (0.00 pct)      54833.20 (31.70 pct)    46724.00 (12.22 pct)
 1024        53877.23 (0.00 pct)      56363.37 (4.61 pct)     44813.10 (-16.82 pct)


NPS=2
Clients:     tip/sched/core                 mel-v3                  mel-v4
    1        629.76 (0.00 pct)        620.94 (-1.40 pct)      629.22 (-0.08 pct)
    2        1177.01 (0.00 pct)       1203.27 (2.23 pct)      1169.12 (-0.66 pct)
    4        1990.97 (0.00 pct)       2228.18 (11.91 pct)     1888.39 (-5.15 pct)
    8        3535.45 (0.00 pct)       3620.76 (2.41 pct)      3662.72 (3.59 pct)
   16        6309.02 (0.00 pct)       6548.66 (3.79 pct)      6508.67 (3.16 pct)
   32        12038.73 (0.00 pct)      12145.97 (0.89 pct)     11411.50 (-5.21 pct)
   64        18599.67 (0.00 pct)      19448.87 (4.56 pct)     17146.07 (-7.81 pct)
  128        27861.57 (0.00 pct)      30630.53 (9.93 pct)     28217.30 (1.27 pct)
  256        28215.80 (0.00 pct)      26864.67 (-4.78 pct)    29330.47 (3.95 pct)
  512        44239.67 (0.00 pct)      52822.47 (19.40 pct)    42652.63 (-3.58 pct)
 1024        54403.53 (0.00 pct)      53905.57 (-0.91 pct)    48490.30 (-10.86 pct)



NPS=4
Clients:     tip/sched/core                 mel-v3                  mel-v4
    1        622.68 (0.00 pct)        617.87 (-0.77 pct)      667.38 (7.17 pct)
    2        1160.74 (0.00 pct)       1182.40 (1.86 pct)      1294.12 (11.49 pct)
    4        1961.29 (0.00 pct)       2172.41 (10.76 pct)     2477.76 (26.33 pct)
    8        3664.25 (0.00 pct)       3450.80 (-5.82 pct)     4067.42 (11.00 pct)
   16        6495.53 (0.00 pct)       5873.41 (-9.57 pct)     6931.66 (6.71 pct)
   32        11833.27 (0.00 pct)      12010.43 (1.49 pct)     12710.60 (7.41 pct)
   64        17723.50 (0.00 pct)      18416.23 (3.90 pct)     18793.47 (6.03 pct)
  128        27724.83 (0.00 pct)      27894.50 (0.61 pct)     27948.60 (0.80 pct)
  256        31351.70 (0.00 pct)      23944.43 (-23.62 pct)   35430.17 (13.00 pct)
  512        43383.43 (0.00 pct)      49830.63 (14.86 pct)    43877.83 (1.13 pct)
 1024        46974.27 (0.00 pct)      53583.83 (14.07 pct)    50563.23 (7.64 pct)


With NPS=4, with v4, we see no regressions with tbench compared to
tip/sched/core and there is a considerable improvement in most
cases. So, the higher imb_numa_nr helps pack the tasks which
beneficial to tbench.



~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
YCSB + Mongodb.

4 client instances, 256 threads per client instance.  These threads
have a very low utilization. The overall system utilization was in the
range of 16-20%.

YCSB workload type : A
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

NPS=1
               tip/sched/core   mel-v3        mel-v4
Throughput     351611.0        314981.33     329026.33
                               (-10.42 pct)  (-6.42 pct)
"""


def test_the_next_table_of_a_series_under_the_same_heads_is_read_like_the_first():
    found, _, explained = extract_explained(TBENCH_SERIES, "g", subject="Re: [PATCH 2/2] sched/fair: NUMA imbalance")
    rows = result_rows(found)
    got = {(r["system"], r["params"].get("clients", r["params"].get("case")), r["value"]) for r in rows}
    assert {r["benchmark"] for r in rows} == {"tbench"} and len(rows) == 99
    assert {("tip/sched/core", "1", 633.25), ("mel-v4", "1024", 48490.3), ("mel-v3", "2", 1203.27), ("mel-v4", "1024", 50563.23)} <= got
    # the YCSB table below is another benchmark's, though its heads are the same systems
    assert 351611.0 not in {r["value"] for r in rows}


# https://lore.kernel.org/lkml/c6f93f10-fea5-a734-9a78-64aa9ff44adb@huawei.com/ (2023, cluster scan on
# Jacobsville): its tbench change table, as posted
TBENCH_CHANGE = """\
tbench
======
case            \tload    \tbaseline(std%)\tcompare%( std%)
loopback        \t6-threads\t 1.00 (  0.41)\t +1.63 (  0.17)
loopback        \t12-threads\t 1.00 (  0.18)\t +4.39 (  0.12)
loopback        \t18-threads\t 1.00 (  0.43)\t+10.42 (  0.18)
"""


def test_a_change_under_the_tools_name_is_a_change_of_its_headline_figure():
    rows = result_rows(extract_explained(TBENCH_CHANGE, "c", subject="Re: [PATCH v9 2/2] sched/fair: Scan cluster")[0])
    changes = {r["value"]: r for r in rows if r["unit"] == "%"}
    assert set(changes) == {1.63, 4.39, 10.42}
    assert {(r["metric"], r["metric_label"]) for r in changes.values()} == {("throughput_change_pct", "tbench")}


# https://lore.kernel.org/lkml/718acf0e-2c98-cff3-98f4-da43d49f776b@huawei.com/ (2023, SIS_SHORT v6), as posted
COMPARE_HEADING = """\
tbench results (node 0):
Compare
      6.3-rc1-vanilla                sis-short-v6
  1:        322.2940        324.6750 (    0.74%)
  4:       1293.4000       1294.2900 (    0.07%)
  8:       2568.7700       2606.9200 (    1.49%)
"""


def test_a_reports_compare_heading_is_no_metric():
    rows = result_rows(extract_explained(COMPARE_HEADING, "c", subject="Re: [PATCH v6 2/2] sched/fair: SIS_SHORT")[0])
    assert {(r["system"], r["value"]) for r in rows} >= {("6.3-rc1-vanilla", 322.294), ("sis-short-v6", 2606.92)}
    assert {r["metric"] for r in rows} == {"throughput"}


# https://lore.kernel.org/lkml/YbnW/vLgE8MmQopN@BLR-5CG11610CF.amd.com/ (read from the real-posts corpus):
# tbench named once, then its tables under NPS=1, NPS=2 and NPS=4, the last one far below the name
_NPS = Path(__file__).parents[2] / "fixtures/real/dev/bj_lkml_2021_stream_tbench_numaimb_v4_1_v4_2_nps_gautham.txt"


def test_the_next_table_under_a_setting_of_the_same_key_continues_the_series():
    body = _NPS.read_text().split("\n\n", 1)[1]  # the headers stay out
    rows = [r for r in result_rows(extract_explained(body, "n")[0]) if r["benchmark"] == "tbench"]
    got = {(r["system"], r["params"].get("NPS"), r["params"].get("clients"), r["value"]) for r in rows}
    assert ("tip-core", "4", "1", 622.65) in got  # the third table, ninety lines below the tool's name
    assert ("mel-v4.2", "4", "32", 11767.46) in got
    assert {n for _, n, _, _ in got} == {"1", "2", "4"}


# https://lore.kernel.org/linux-mm/20111101105553.GG5819@redhat.com/ (its quoted lines): heads wider than their
# columns, one release over each absolute value, over rows that print each case after its values; the
# cases name fio by its job (`btrfs-fio_fat_mmap_randwrite`), not dd (named in a count of trace lines above)
WRITEBACK_FIO = (
    "On Mon, Oct 31, 2011 at 07:33:21PM +0800, Wu Fengguang wrote:\n"
    "> > //regression\n"
    "> > 3) much increased cpu %user and %system for btrfs\n"
    "> \n"
    "> Sorry I find out that the CPU time regressions for btrfs are caused by\n"
    "> some additional trace events enabled on btrfs (for debugging an\n"
    "> unrelated btrfs hang bug) which results in 7 times more trace event\n"
    "> lines:\n"
    "> \n"
    ">  2701238 /export/writeback/thresh=1000M/btrfs-1dd-4k-8p-2941M-1000M:10-3.1.0-rc9-ioless-full-nfs-wq5-next-20111014+\n"
    "> 19054054 /export/writeback/thresh=1000M/btrfs-1dd-4k-8p-2941M-1000M:10-3.1.0-rc9-ioless-full-per-zone-dirty-next-20111014+\n"
    "> \n"
    "> So no real regressions.\n"
    "\n"
    "Phew :-)\n"
    "\n"
    "> Besides, the patchset also performs good on random writes:\n"
    "> \n"
    "> 3.1.0-rc9-ioless-full-nfs-wq5-next-20111014+  3.1.0-rc9-ioless-full-per-zone-dirty-next-20111014+  \n"
    "> ------------------------  ------------------------  \n"
    ">                     1.65        -5.1%         1.57  MMAP-RANDWRITE-4K/btrfs-fio_fat_mmap_randwrite_4k-4k-8p-4096M-20:10-X\n"
    ">                    18.65        -6.4%        17.46  MMAP-RANDWRITE-4K/ext3-fio_fat_mmap_randwrite_4k-4k-8p-4096M-20:10-X\n"
    ">                     2.09        +1.2%         2.12  MMAP-RANDWRITE-4K/ext4-fio_fat_mmap_randwrite_4k-4k-8p-4096M-20:10-X\n"
    ">                     2.49        -0.3%         2.48  MMAP-RANDWRITE-4K/xfs-fio_fat_mmap_randwrite_4k-4k-8p-4096M-20:10-X\n"
    ">                    51.35        +0.0%        51.36  MMAP-RANDWRITE-64K/btrfs-fio_fat_mmap_randwrite_64k-64k-8p-4096M-20:10-X\n"
    ">                    45.20        +0.5%        45.43  MMAP-RANDWRITE-64K/ext3-fio_fat_mmap_randwrite_64k-64k-8p-4096M-20:10-X\n"
    ">                    44.77        +0.7%        45.10  MMAP-RANDWRITE-64K/ext4-fio_fat_mmap_randwrite_64k-64k-8p-4096M-20:10-X\n"
    ">                    45.11        +2.5%        46.23  MMAP-RANDWRITE-64K/xfs-fio_fat_mmap_randwrite_64k-64k-8p-4096M-20:10-X\n"
    ">                   211.31        +0.2%       211.74  TOTAL write_bw\n"
)


def test_wide_heads_over_cases_named_after_their_values_and_the_job_naming_fio():
    rows = result_rows(extract_explained(WRITEBACK_FIO, "m")[0])
    got = {(r["benchmark"], r["system"], r["params"].get("case", "")[:22], r["value"]) for r in rows}
    assert ("fio", "3.1.0-rc9-ioless-full-nfs-wq5-next-20111014+", "MMAP-RANDWRITE-4K/btrf", 1.65) in got
    assert ("fio", "3.1.0-rc9-ioless-full-per-zone-dirty-next-20111014+", "MMAP-RANDWRITE-64K/xfs", 46.23) in got
    assert len(got) == 18


# https://lore.kernel.org/lkml/2236FBA76BA1254E88B949DDB74E612BA4D4BFCA@IRSMSX102.ger.corp.intel.com/ (its
# lines): `key: value` lines whose first key is the baseline are the systems compared; the command
# above says what was measured (lmbench's `lat_syscall ... null`); the second setting of the same key
# over the same keys is the next table of the series
SYSCALL = (
    "lmbench: ./lat_syscall -N 1000000 null:\n"
    "\n"
    "CONFIG_PAGE_TABLE_ISOLATION=y:\n"
    "\n"
    "base:                                0.1737\n"
    "rdtsc:                               0.1803 (+3.89%)\n"
    "get_random_bytes (4096 byte buffer): 0.1811 (+4.26%)\n"
    "RDRAND (every 10th syscall):         0.1910 (+9.96%)\n"
    "STACKLEAK:                           0.2150 (+23.78%)\n"
    "\n"
    "CONFIG_PAGE_TABLE_ISOLATION=n:\n"
    "\n"
    "base:                                0.0522\n"
    "rdtsc:                               0.0556 (+6.51%)\n"
    "get_random_bytes (4096 byte buffer): 0.0599 (+14.75%)\n"
    "RDRAND (every 10th syscall):         0.0706 (+35.25%)\n"
    "STACKLEAK:                           0.0935 (+79.12%)\n"
)


def test_keys_after_a_baseline_key_are_systems_measured_by_the_command_above():
    rows = result_rows(extract_explained(SYSCALL, "m")[0])
    got = {(r["system"], r["metric"], r["params"].get("CONFIG_PAGE_TABLE_ISOLATION"), r["value"]) for r in rows}
    assert ("base", "null_call", "y", 0.1737) in got
    assert ("STACKLEAK", "null_call", "y", 0.215) in got
    assert ("rdtsc", "null_call", "n", 0.0556) in got
    assert ("get_random_bytes (4096 byte buffer)", "null_call", "n", 0.0599) in got
    assert len(got) == 10 and all(r["unit"] == "us" for r in rows)


# https://lore.kernel.org/lkml/20230523044731.obkyesjyhwercj2q@desk/
RELATIVE = (
    "Baseline : v6.4-rc3\n"
    "Target   : v6.4-rc3 + No read/write to MSR_MCU_OPT_CTRL at VMentry/VMexit\n"
    "\n"
    "| Test      | Configuration | Relative |\n"
    "| --------- | ------------- | -------- |\n"
    "| nginx     | 200           | 0.977    |\n"
    "| hackbench | 8 - Process   | 0.975    |\n"
    "| sysbench  | RAM / Memory  | 0.946    |\n"
    "| sysbench  | CPU           | 1.002    |\n"
    "| pybench   | T.F.A.T.T     | 1.007    |\n"
)


def test_a_column_of_tests_keeps_our_tools_rows_and_their_ratios():
    rows = result_rows(extract_explained(RELATIVE, "r")[0])
    got = sorted((r["benchmark"], r["params"]["configuration"], r["value"], r["unit"], r["layout"]) for r in rows)
    assert got == [("hackbench", "8 - Process", 0.975, "x", "change_table"),
                   ("sysbench", "CPU", 1.002, "x", "change_table"),
                   ("sysbench", "RAM / Memory", 0.946, "x", "change_table")]  # nginx's 200 is a name, not a value


# https://lore.kernel.org/netdev/20230901062141.51972-1-wuyun.abel@bytedance.com/
LEGEND = (
    "  baseline:\tnet-next c639a708a0b8\n"
    "  compare:\tbaseline + patchset\n"
    "\n"
    "case            \tload    \tbaseline(std%)\tcompare%( std%)\n"
    "tbench-loopback        \tthread-24\t 1.00 (  0.50)\t -0.98 (  0.87)\n"
    "tbench-loopback        \tthread-48\t 1.00 (  0.76)\t -0.29 (  0.92)\n"
    "TCP_RR          \tthread-24\t 1.00 (  1.87)\t -0.87 (  2.40)\n"
    "TCP_RR          \tthread-48\t 1.00 (  0.92)\t -0.22 (  1.61)\n"
)


def test_rows_led_by_the_tools_name_name_the_test_measured():
    rows = result_rows(extract_explained(LEGEND, "l")[0])
    got = sorted((r["benchmark"], r["system"], r["metric_label"], r["params"]["load"], r["value"]) for r in rows)
    assert got == [("netperf", "compare%", "TCP_RR", "thread-24", -0.87), ("netperf", "compare%", "TCP_RR", "thread-48", -0.22),
                   ("tbench", "compare%", "tbench-loopback", "thread-24", -0.98),
                   ("tbench", "compare%", "tbench-loopback", "thread-48", -0.29)]
    assert all(r["unit"] == "%" and r["params"]["baseline"] == "baseline" for r in rows)


# https://lore.kernel.org/lkml/bd083d8d-023a-698e-701b-725f1b15766e@amd.com/ (tabs as posted)
AMD_REPORT = (
    "~~~~~~~~~~~~~\n~ hackbench ~\n~~~~~~~~~~~~~\n\n"
    "o NPS4\n\n"
    "Test:                   tip                     SIS_NODE\n"
    " 1-groups:         3.82 (0.00 pct)         3.84 (-0.52 pct)\n"
    " 2-groups:         4.44 (0.00 pct)         4.15 (6.53 pct)\n"
    "16-groups:         6.68 (0.00 pct)         9.07 (-35.77 pct)\n"
    "\n\n"
    "~~~~~~~~~~~~~~~~~~\n~ schbench (Old) ~\n~~~~~~~~~~~~~~~~~~\n\n"
    "~~~~~~~~~~~~~\n~ unixbench ~\n~~~~~~~~~~~~~\n\n"
    "o NPS1\n\n"
    "kernel                        \t\t\ttip                  SIS_NODE\n"
    "Hmean     unixbench-dhry2reg-1   \t  41322625.19 (   0.00%)    41224388.33 (  -0.24%)\n"
    "Amean     unixbench-syscall-1    \t   2501398.27 (   0.00%)    2577323.43 *  -3.04%*\n"
    "Hmean     unixbench-spawn-1       \t      4261.52 (   0.00%)       4164.90 (  -2.27%)\n"
)


def test_an_amd_report_mode_bullets_section_banners_and_mmtests_rows_under_kernel():
    rows = result_rows(extract_explained(AMD_REPORT, "a")[0])
    hack = sorted((r["system"], r["params"].get("groups"), r["params"].get("NPS"), r["metric"], r["value"])
                  for r in rows if r["benchmark"] == "hackbench")
    # `o NPS4` is how the table ran, not its metric; the next section's banner (`~ schbench ~`) says
    # nothing about this table
    assert hack == [("SIS_NODE", "1", "4", "time", 3.84), ("SIS_NODE", "16", "4", "time", 9.07),
                    ("SIS_NODE", "2", "4", "time", 4.15), ("tip", "1", "4", "time", 3.82),
                    ("tip", "16", "4", "time", 6.68), ("tip", "2", "4", "time", 4.44)]
    # `kernel` over mmtests' rows (`Hmean  unixbench-dhry2reg-1`): the columns are the systems
    unix = {(r["system"], " ".join(r["metric_label"].split()), r["statistic"], r["value"])
            for r in rows if r["benchmark"] == "unixbench"}
    assert ("tip", "Hmean unixbench-dhry2reg-1", "hmean", 41322625.19) in unix
    assert ("SIS_NODE", "Amean unixbench-syscall-1", "mean", 2577323.43) in unix
    assert ("SIS_NODE", "Hmean unixbench-spawn-1", "hmean", 4164.9) in unix and len(unix) == 6


# https://lore.kernel.org/lkml/18199afa-16e2-8e76-c96b-9507f92befdc@amd.com/
SCHEDSTAT_PIVOT = (
    "o tbench (256 clients - overloaded) (NPS1)\n\n"
    "- tbench client\n"
    "\t\t\t\ttip\t\teevdf\t\t% diff\n"
    "comm\t\t\t\ttbench\t\ttbench\t\tN/A\n"
    "Sum of avg_atom\t\t\t3.594587941\t5.112101854\t42.21663064\n"
    "Average of avg_atom\t\t0.013986724\t0.019891447\t42.21663064\n"
    "Sum of sum_block_runtime\t68.60879\t446.080476\t550.1797743\n"
    "Sum of wait_count\t\t692845479\t511780543\t-26.13352349\n"
)


def test_a_pivot_of_scheduler_counters_is_no_result():
    assert result_rows(extract_explained(SCHEDSTAT_PIVOT, "s")[0]) == []


# https://lore.kernel.org/lkml/46e8d4fc-993b-e1d6-5e4c-cb33513d7888@huawei.com/ (quoted twice there)
SERIES_UNDER_CAPTIONS = (
    "With this patch, We noticed enhancement on tbench within one numa or cross\ntwo numa.\n\n"
    "On numa 0:\n"
    "                             6.0-rc1                patched\n"
    "Hmean     1        351.20 (   0.00%)      396.45 *  12.88%*\n"
    "Hmean     2        700.43 (   0.00%)      793.76 *  13.32%*\n"
    "Hmean     4       1404.42 (   0.00%)     1583.62 *  12.76%*\n"
    "\n"
    "On numa 0-1:\n"
    "                             6.0-rc1                patched\n"
    "Hmean     1        363.06 (   0.00%)      397.13 *   9.38%*\n"
    "Hmean     2        721.68 (   0.00%)      789.84 *   9.44%*\n"
    "Hmean     4       1435.15 (   0.00%)     1566.01 *   9.12%*\n"
)


def test_captions_with_the_same_key_but_another_figure_head_one_series():
    rows = result_rows(extract_explained(SERIES_UNDER_CAPTIONS, "c")[0])
    got = {(r["system"], r["params"].get("clients"), r["value"]) for r in rows if r["benchmark"] == "tbench"}
    assert ("6.0-rc1", "1", 351.2) in got and ("patched", "4", 1583.62) in got
    assert ("6.0-rc1", "1", 363.06) in got and ("patched", "4", 1566.01) in got and len(got) == 12


# https://lore.kernel.org/linux-fsdevel/20210118192748.584213-1-balsini@android.com/
FIO_PATTERNS = (
    "fio was run on the three file systems, sequential and random reads and writes:\n\n"
    "|   MiB/s   |    fuse    | passthrough |   native    |\n"
    "|-----------|------------|-------------|-------------|\n"
    "| read      | 471(±1.3%) | 1791(±1.0%) | 1839(±1.8%) |\n"
    "| write     |  95(±.6%)  | 1068(±.9%)  | 1322(±.8%)  |\n"
    "| randread  |  25(±1.7%) |  860(±.8%)  | 1135(±.5%)  |\n"
)


def test_fio_patterns_as_row_labels_are_its_rw_and_the_unit_says_what_was_measured():
    rows = result_rows(extract_explained(FIO_PATTERNS, "f")[0])
    got = {(r["system"], r["metric"], r["params"].get("rw"), r["value"], r["unit"]) for r in rows}
    assert ("fuse", "bandwidth", "read", 471, "MiB/s") in got
    assert ("native", "bandwidth", "randread", 1135, "MiB/s") in got and len(got) == 9
    # with no unit anywhere the printed label stays the metric: what was measured would be a guess
    bare = FIO_PATTERNS.replace("MiB/s", "     ")
    assert {r["metric_label"] for r in result_rows(extract_explained(bare, "f")[0])} == {"read", "write", "randread"}


LSM_CONFIGS = (
    "Tests run were dbench, kernbench, reaim, and tbench.  These were run\n"
    "in the following configurations:\n"
    "\t16-way ppc with old patchset (\"16-plain\")\n"
    "\t16-way ppc with this patchset (\"16-new\")\n"
    "\t4-way P-III with old patchset (\"4-plain\")\n"
    "\n"
    "Results:\n"
    "\n"
    "dbench (throughput, larger is better):\n"
    "\t16-plain: 1560.825000 +/- 9.844956\n"
    "\t16-new:   1555.401800 +/- 4.083806\n"
    "\t4-plain:  351.299100 +/- 5.941376\n"
)


def test_keys_the_post_named_as_configurations_are_systems():
    # https://lore.kernel.org/lkml/20050727181732.GA22483@serge.austin.ibm.com/
    rows = result_rows(extract_explained(LSM_CONFIGS, "k")[0])
    got = {(r["benchmark"], r["system"], r["metric"], r["value"]) for r in rows}
    assert got == {("dbench", "16-plain", "throughput", 1560.825), ("dbench", "16-new", "throughput", 1555.4018),
                   ("dbench", "4-plain", "throughput", 351.2991)}


# https://lore.kernel.org/lkml/CAKfTPtBJkpSMFFGwgdFLyO5aSnGuzQSPrtpwOFckMQa4xaex=Q@mail.gmail.com/ (the table; the
# subject here names the tool, as a reader's reply would)
CHANGES_BESIDE_EACH_SYSTEM = (
    "Subject: Re: hackbench with the age of the average idle time\n\n"
    "Results stay similar:\n"
    "group  tip/sched/core      + this patch             + latest addon\n"
    "1      13.358(+/- 1.82%)   12.850(+/- 2.21%) +4%    13.411(+/- 2.47%) -0%\n"
    "4      4.286(+/- 2.77%)    4.114(+/- 2.25%)  +4%    4.163(+/- 1.88%)  +3%\n"
    "16     3.175(+/- 0.55%)    3.559(+/- 0.43%)  -12%   3.535(+/- 0.52%)  -11%\n"
)


def test_rows_of_the_tools_count_under_a_subject_naming_it_and_changes_beside_each_system():
    rows = result_rows(extract_explained(CHANGES_BESIDE_EACH_SYSTEM, "s")[0])
    assert [(r["system"], r["params"], r["value"]) for r in rows if r["benchmark"] == "hackbench"][:3] == [
        ("tip/sched/core", {"group": "1"}, 13.358), ("+ this patch", {"group": "1"}, 12.85),
        ("+ latest addon", {"group": "1"}, 13.411)]
    assert len(rows) == 9 and all(r["unit"] == "s" for r in rows)


# https://lore.kernel.org/lkml/c7fe33f9-51bd-80e8-cb0e-1cefb20a61b9@efficios.com/
LABELS_OVER_ONE_KEY = (
    "Here are my results with the hackbench test-case:\n\n"
    "Group cpus by 16 hw threads:\n\n"
    "Time: 49s\n\n"
    "- group cpus by 8 hw threads: (llc_id + cpu modulo 2)\n\n"
    "Time: 39s\n\n"
    "- group cpus by 2 hw threads: (llc_id + cpu modulo 8)\n"
    "(expect same as L2 grouping on this machine)\n\n"
    "Time: 34s\n"
)


def test_a_label_of_its_own_over_a_blank_line_names_the_key_below():
    rows = result_rows(extract_explained(LABELS_OVER_ONE_KEY, "s")[0])
    assert [(r["system"], r["metric_label"], r["value"]) for r in rows] == [
        ("Group cpus by 16 hw threads", "Time", 49), ("group cpus by 8 hw threads", "Time", 39),
        ("group cpus by 2 hw threads", "Time", 34)]


# https://lore.kernel.org/lkml/6ef38c6e-e47d-66c2-216a-76ab4a59feb1@amd.com/
MMTESTS_COUNTERS = (
    "kernbench\n"
    "==========\t\tbase                  patched\n"
    "Amean     user-128    13799.58 (   0.00%)    13789.86 *   0.07%*\n"
    "Amean     elsp-128      165.09 (   0.00%)      164.78 *   0.19%*\n"
    "\n"
    "Duration User       41404.28    41375.08\n"
    "Duration Elapsed      519.87      518.72\n"
    "\n"
    "Ops NUMA PTE updates                 1041416.00      831536.00\n"
    "Ops NUMA hint faults                  263296.00      220966.00\n"
)


def test_mmtests_vmstat_counters_are_no_results_but_its_durations_are():
    rows = result_rows(extract_explained(MMTESTS_COUNTERS, "s")[0])
    labels = {r["metric_label"] for r in rows}
    assert {"Duration User", "Duration Elapsed"} <= labels
    assert not any(x.startswith("Ops") for x in labels)
    assert [(r["system"], r["value"]) for r in rows if r["metric_label"] == "Duration Elapsed"] == [
        ("base", 519.87), ("patched", 518.72)]


# https://lore.kernel.org/linux-block/db1d7cd7-6c89-7d6b-3fe5-3778bb3cb5e9@kernel.dk/ (quoted there)
ENGINES = (
    "I ran some quick testing here with fio, using the current tree:\n"
    "\n"
    "\t\twithout patch\t\twith patch\n"
    "io_uring\t~430K IOPS\t\t~3.4M IOPS\n"
    "libaio\t\t~895K IOPS\t\t~895K IOPS\n"
)


def test_fios_engines_as_row_labels_are_its_ioengine_not_counters():
    rows = result_rows(extract_explained(ENGINES, "s")[0])
    assert [(r["system"], r["params"], r["value"], r["unit"]) for r in rows][:2] == [
        ("without patch", {"ioengine": "io_uring"}, 430000, "IOPS"), ("with patch", {"ioengine": "io_uring"}, 3400000, "IOPS")]
    assert len(rows) == 4 and {r["metric"] for r in rows} == {"iops"}


# https://lore.kernel.org/lkml/20230206172157.49887-1-wyes.karny@amd.com/ prints each tool's table under such a caption
SAID_OUTRIGHT = (
    "================ kernbench comparisons ================\n"
    "kernbench result comparison:\n"
    "Here results are throughput (compilations per 1000 sec)\n"
    "Load:\t   acpi-cpufreq\t\t   amd_pst+passive\t   amd_pst+guided\n"
    "32\t   1.00 (0.00 pct)\t   1.01 (1.00 pct)\t   1.02 (2.00 pct)\n"
    "48\t   1.26 (0.00 pct)\t   1.28 (1.58 pct)\t   1.25 (-0.79 pct)\n"
)


def test_a_caption_saying_what_the_results_are_names_the_metric_and_a_rate_per_seconds_is_no_seconds():
    rows = result_rows(extract_explained(SAID_OUTRIGHT, "s")[0])
    assert [(r["system"], r["metric_label"], r["params"], r["value"], r["unit"]) for r in rows][:2] == [
        ("acpi-cpufreq", "throughput", {"load": "32"}, 1.0, ""), ("amd_pst+passive", "throughput", {"load": "32"}, 1.01, "")]
    assert len(rows) == 6


# https://lore.kernel.org/netdev/OS3P286MB229582C80EDCAE3AE1C33D14F5AB9@OS3P286MB2295.JPNP286.PROD.OUTLOOK.COM/
CONDITION_OVER_HEADS = (
    "Subject: net: openvswitch: reduce cpu_used_mask memory, netperf\n\n"
    "Before the fix\n"
    "      Mode Iterations   Variance    Average\n"
    "    UDP_RR         10      %1.31      46724\n"
    "    TCP_RR         10      %6.26      77188\n"
    "\n"
    "After the fix\n"
    "      Mode Iterations   Variance    Average\n"
    "    UDP_RR         10      %1.51      49097\n"
    "    TCP_RR         10      %5.58      78540\n"
)


def test_a_condition_alone_over_a_tables_heads_names_its_system():
    rows = result_rows(extract_explained(CONDITION_OVER_HEADS, "s")[0])
    assert [(r["system"], r["value"]) for r in rows] == [
        ("Before the fix", 46724), ("Before the fix", 77188), ("After the fix", 49097), ("After the fix", 78540)]


# https://lore.kernel.org/linux-wireless/20230322171905.492855-1-martin.kaistra@linutronix.de/ : each driver's
# label over the same two indented cases and their lines
NESTED_LABELS = """\
Also while doing some measurements with iperf3 to compare with the
vendor driver, I saw, that TCP traffic from AP to STA is slower than in
the vendor driver.

* vendor driver:

  without 802.11n:
    UDP (AP -> STA): 27 Mbits/sec
    TCP (AP -> STA): 24 Mbits/sec

  with 802.11n:
    UDP (AP -> STA): 51 Mbits/sec
    TCP (AP -> STA): 40 Mbits/sec

* rtl8xxxu:

  without 802.11n:
    UDP (AP -> STA): 25 Mbits/sec
    TCP (AP -> STA):  3 Mbits/sec !
"""


def test_an_indented_label_is_the_case_run_on_the_label_it_sits_under():
    rows = result_rows(extract_explained(NESTED_LABELS, "w")[0])
    got = {(r["system"], r["params"].get("case"), r["metric_label"], r["value"]) for r in rows}
    assert got == {
        ("vendor driver", "without 802.11n", "UDP (AP -> STA)", 27.0),
        ("vendor driver", "without 802.11n", "TCP (AP -> STA)", 24.0),
        ("vendor driver", "with 802.11n", "UDP (AP -> STA)", 51.0),
        ("vendor driver", "with 802.11n", "TCP (AP -> STA)", 40.0),
        ("rtl8xxxu", "without 802.11n", "UDP (AP -> STA)", 25.0),
        ("rtl8xxxu", "without 802.11n", "TCP (AP -> STA)", 3.0),
    }


def test_an_outer_label_is_only_a_label_line_naming_a_system():
    from transforms.parsers._common import outer_label

    lines = NESTED_LABELS.split("\n")
    assert outer_label(lines, lines.index("  with 802.11n:")) == "vendor driver"
    assert outer_label(["Results:", "  patched:", "    read: 5 MB/s"], 1) is None  # a heading, no system
    assert outer_label(["I ran it twice.", "  patched:", "    read: 5 MB/s"], 1) is None  # prose above
    assert outer_label(["* rtl8xxxu:", "without 802.11n:"], 1) is None  # not indented under it


# https://lore.kernel.org/linux-block/d080f674-d3df-3142-ba69-d117523341d2@linux.alibaba.com/, as posted
ARROWS_AMONG_ROWS = """\
Some fio runs, `randread`:

- The number before '->' indicates the IOPS in IRQ mode, i.e.,
'hipri=0', while the number after '->' indicates the IOPS in polling
mode, i.e., 'hipri=1'.

```
3-threads  dm-linear-3 targets (4k randread IOPS, unit K)
5.12-rc1: 667
leiming: 674 -> 849
ours 8353c1a: 623 -> 811
```
"""


def test_rows_with_an_arrow_among_a_tables_rows_are_read_as_the_tables_metric():
    rows = result_rows(extract_explained(ARROWS_AMONG_ROWS, "a")[0])
    caption = "dm-linear-3 targets (4k randread IOPS, unit K)"
    assert {(r["metric_label"], r["unit"], r["layout"]) for r in rows} == {(caption, "IOPS", "hand_table")}
    got = [(r["system"], r["params"].get("when"), r["value"]) for r in rows]
    assert got == [("5.12-rc1", None, 667.0), ("leiming", "before", 674.0), ("leiming", "after", 849.0),
                   ("ours 8353c1a", "before", 623.0), ("ours 8353c1a", "after", 811.0)]


# https://lore.kernel.org/lkml/200302210620.21799.song.zhao@nuix.com.au/, as posted
UNIT_IN_THE_LABEL = """\
Supermicro
=========
Netperf Result (MB/s) - 112.21
Netperf3 Result (MB/s) - 112.22
Tbench Result (MB/s) - 114.48
Nttcp Result (Mb/s) - 946.55
"""


def test_a_unit_in_brackets_in_a_row_label_naming_its_tool_is_the_rows_unit():
    rows = result_rows(extract_explained(UNIT_IN_THE_LABEL, "u")[0])
    got = {(r["benchmark"], r["value"], r["unit"]) for r in rows}
    assert ("netperf", 112.21, "MB/s") in got and ("tbench", 114.48, "MB/s") in got  # bytes, not netperf's bits
    assert ("netperf", 112.22, "MB/s") in got  # netperf3: netperf's third branch
    assert {r["system"] for r in rows} == {"Supermicro"}


# https://lore.kernel.org/lkml/3FC9B9FD.3000404@cyberone.com.au/ (excerpt): the tool's name in the corner, the counts it
# ran with as the heads, and each table's last rows (`total/idle ticks`) right over the next table
COUNTS_UNDER_TOOL = """\
dbench                  8       16      32      64      128
bk19                    470.84  433.47  360.04  351.96  359.86
w22                     477.35  439.82  387.77  378.65  367.07
w25                     473.10  587.74  503.35  532.83  524.61
total/idle ticks
bk19                    3598603/124601
w22                     3425876/227225
w25                     2408853/232176
{blank}
tbench                  8       16      24      32
bk19                    46.17   58.74   60.78   59.79
w22                     47.39   58.72   57.73   57.86
w25                     53.59   58.60   65.80   63.35
total/idle ticks
bk19                    7603448/1115754
w22                     7808203/1897589
w25                     7150680/2038258
{pad}

{pad}

hackbench (3 runs)      1       100
bk19                    0.591   37.578
w22                     0.386   31.954
w25                     0.365   33.289
""".format(pad=" " * 80, blank=" ")  # the post's lines of blanks kept


def test_counts_under_the_tools_name_are_the_heads():
    rows = result_rows(extract_explained(COUNTS_UNDER_TOOL, "c")[0])
    got = {(r["benchmark"], r["system"], r["metric"], tuple(r["params"].items()), r["value"]) for r in rows}
    assert ("dbench", "bk19", "throughput", (("clients", "8"),), 470.84) in got
    assert ("dbench", "w25", "throughput", (("clients", "128"),), 524.61) in got
    assert ("tbench", "w22", "throughput", (("clients", "24"),), 57.73) in got  # not the ticks row above it
    assert ("hackbench", "w25", "time", (("groups", "100"),), 33.289) in got
    assert not {r["value"] for r in rows} & {8.0, 16.0, 32.0, 128.0}  # the counts are no values


# https://lore.kernel.org/lkml/20030303021546.GA4322@rushmore/ (excerpt): heads whose names hold numbers
# (`Copy 1024 bufsize`, `Shell Scripts (16)`), unixbench's tests as people shorten them
WORDED_HEADS = """\
Almost all of the unixbench metrics are a little better with mjb2:

kernel          C Compiler Throughput   Execl Throughput   Copy 1024 bufsize
2.5.63-mjb2                     190.0              368.1              6348.0
2.5.63                          180.7              366.4              6108.0

kernel          Piped Context Switching   Shell Scripts (1)   Shell Scripts (16)   Shell Scripts (64)
2.5.63-mjb2                     73785.0               506.3                 34.0                  8.0
2.5.63                          77893.2               483.4                 32.7                  7.7
"""


def test_heads_whose_names_hold_numbers_are_heads():
    rows = result_rows(extract_explained(WORDED_HEADS, "w")[0])
    got = {(r["system"], r["metric"], r["value"]) for r in rows}
    assert ("2.5.63-mjb2", "c_compiler_throughput", 190.0) in got
    assert ("2.5.63", "execl_throughput", 366.4) in got
    assert ("2.5.63-mjb2", "pipe_context_switching", 73785.0) in got
    assert ("2.5.63", "shell_scripts_16", 32.7) in got
    assert {r["system"] for r in rows} == {"2.5.63-mjb2", "2.5.63"}  # no head line read as a row
    assert 1024.0 not in {r["value"] for r in rows}


# https://lore.kernel.org/lkml/200309261825.h8QIPq123031@mail.osdl.org/ (excerpt): rows ending in a link
# to each run's page, heads one blank apart drawn by the rule under them, the unit said in prose
LINKED_ROWS = """\
Hackbench (http://www.osdl.org/stp/test_details/hackbench-interp.html)
is a chat benchmark from Rusty Russel that's intended to test the
scalability of the scheduler.

The 'Metric' is the average time in seconds to do something with 100
processes.  Smaller numbers are better as well as a (-) change.  'Change' refers to a percentage change in the metric from the last
completed test with results.

I've shortened the list to the 2.6.0-test kernels this time.  The
2.6.0-test5-mm kernels look pretty consistent, and appear to offer a 1
second (~ 10%) improvement over the 2.6.0-test5 kernel for the 4- and
8-way systems.


1-way:
Kernel               Metric Change (%)  URL
-------------------- ------ ----------  ----------------------------------------
2.6.0-test4-mm2        15.4        N/A  http://khack.osdl.org/stp/280103/
2.6.0-test4-mm4        15.8        3.0  http://khack.osdl.org/stp/280099/
2.6.0-test4-mm5        16.3        2.7  http://khack.osdl.org/stp/280095/
"""


def test_rows_ending_in_a_link_are_read_under_heads_the_rule_draws():
    rows = result_rows(extract_explained(LINKED_ROWS, "l")[0])
    got = {(r["benchmark"], r["system"], r["metric_label"], r["value"], r["unit"]) for r in rows}
    assert got == {("hackbench", "2.6.0-test4-mm2", "Metric", 15.4, "s"),
                   ("hackbench", "2.6.0-test4-mm4", "Metric", 15.8, "s"),
                   ("hackbench", "2.6.0-test4-mm5", "Metric", 16.3, "s")}  # the change beside them is derived


def test_a_link_column_is_cut_from_aligned_rows_only():
    from transforms.handmade.tables import drop_link_column

    lines = [ln + "  " for ln in LINKED_ROWS.splitlines()[-5:]]  # the post's lines end in blanks
    cut = drop_link_column(lines)
    assert cut[0].rstrip() == "Kernel               Metric Change (%)"
    assert cut[2].rstrip() == "2.6.0-test4-mm2        15.4        N/A"
    assert "---" in cut[1] and len(cut[1]) < len(lines[1])
    refs = ["[1] https://lore.kernel.org/r/1", "[2] https://lore.kernel.org/r/2"]
    assert drop_link_column(refs) == refs  # a list of links is no table


# https://lore.kernel.org/linux-mm/20111020035918.GA26746@localhost/ (excerpt): each group of cases
# ends in the `TOTAL <metric>` row that sums them, labels printed after the values
TOTAL_ROWS = """\
The "wakeup NFS_INO_FLUSHING after congestion wait" logic looks
strange, so I tried moving the nfs_wait_congested() _after_
wake_up_bit()...and got write_bw regressions.

3.1.0-rc9-ioless-full-nfs-ino-flushing-next-20111014+  3.1.0-rc9-ioless-full-nfs-wakeup-wait-next-20111014+
------------------------  ------------------------
                  417.26        -5.5%       394.24  TOTAL write_bw
                 5179.00       -12.6%      4529.00  TOTAL nfs_nr_commits
               340466.00       -37.2%    213939.00  TOTAL nfs_nr_writes
                  722.54       +17.6%       849.42  TOTAL nfs_commit_size
                    3.75        +6.3%         3.99  TOTAL nfs_write_size
                13519.94        +6.4%     14387.44  TOTAL nfs_commit_execute_time

3.1.0-rc9-ioless-full-nfs-ino-flushing-next-20111014+  3.1.0-rc9-ioless-full-nfs-wakeup-wait-next-20111014+
------------------------  ------------------------
                   44.42        -0.8%        44.05  NFS-thresh=100M/nfs-10dd-4k-32p-32768M-100M:10-X
                   78.49        -8.0%        72.22  NFS-thresh=100M/nfs-1dd-4k-32p-32768M-100M:10-X
                  417.26        -5.5%       394.24  TOTAL write_bw

3.1.0-rc9-ioless-full-nfs-ino-flushing-next-20111014+  3.1.0-rc9-ioless-full-nfs-wakeup-wait-next-20111014+
------------------------  ------------------------
                 2683.00        -1.8%      2634.00  NFS-thresh=100M/nfs-10dd-4k-32p-32768M-100M:10-X
                  811.00       -43.8%       456.00  NFS-thresh=100M/nfs-1dd-4k-32p-32768M-100M:10-X
                 5179.00       -12.6%      4529.00  TOTAL nfs_nr_commits
"""


def test_the_total_row_under_a_group_of_cases_names_their_metric():
    rows = result_rows(extract_explained(TOTAL_ROWS, "t", "Re: [PATCH] nfs: writeback wait queue (dd)")[0])
    wait = "3.1.0-rc9-ioless-full-nfs-wakeup-wait-next-20111014+"
    flushing = "3.1.0-rc9-ioless-full-nfs-ino-flushing-next-20111014+"
    got = {(r["system"], r["metric_label"], r["params"].get("case"), r["value"]) for r in rows}
    assert (wait, "write_bw", "NFS-thresh=100M/nfs-10dd-4k-32p-32768M-100M:10-X", 44.05) in got
    assert (flushing, "write_bw", "NFS-thresh=100M/nfs-1dd-4k-32p-32768M-100M:10-X", 78.49) in got
    named = {r["metric_label"] for r in rows if (r["params"].get("case") or "").startswith("NFS-thresh")}
    assert named <= {"write_bw", "nfs_nr_commits"}  # never a row of the table above
    assert not [r for r in rows if r["value"] in (2683.0, 456.0) and r["metric_label"] == "write_bw"]


# https://lore.kernel.org/lkml/42CF05BE.3070908@opersys.com/ (excerpt): a grid table, its heads over two
# lines, each kernel's changes on a `%` row under it; then tables whose cells hold a value and its change
GRID_AND_BRACKETS = """\
LMbench running times:
+--------------------+-------+-------+-------+-------+-------+
| Kernel             | plain | IRQ   | ping  | IRQ & | IRQ & |
|                    |       | test  | flood | ping  |  hd   |
+====================+=======+=======+=======+=======+=======+
| Vanilla-2.6.12     | 152 s | 150 s | 188 s | 185 s | 239 s |
+====================+=======+=======+=======+=======+=======+
| with RT-V0.7.51-02 | 152 s | 153 s | 203 s | 201 s | 239 s |
+--------------------+-------+-------+-------+-------+-------+
| %                  |   ~   |  2.0  |  8.0  |  8.6  |   ~   |
+--------------------+-------+-------+-------+-------+-------+

"ping flood" run:
Measurements   |   Vanilla   |  preempt_rt    |   ipipe
---------------+-------------+----------------+-------------
fork           |     152us   |  171us (+13%)  |  165us (+9%)
open/close     |     4.5us   |  4.8us (+7%)   |  4.8us (+7%)
execve         |     550us   |  663us (+21%)  |  601us (+9%)
"""


def test_grid_heads_over_two_lines_and_values_with_their_changes():
    rows = result_rows(extract_explained(GRID_AND_BRACKETS, "g")[0])
    got = {(r["system"], r["metric_label"], r["params"].get("case"), r["value"]) for r in rows}
    assert ("with RT-V0.7.51-02", "LMbench running times", "IRQ test", 153.0) in got
    assert ("Vanilla-2.6.12", "LMbench running times", "IRQ & hd", 239.0) in got
    assert ("preempt_rt", "fork", None, 171.0) in got
    assert ("ipipe", "execve", None, 601.0) in got
    assert not {r["value"] for r in rows} & {2.0, 8.0, 8.6, 13.0, 21.0}  # the changes are asides
    assert "%" not in {r["system"] for r in rows}


# https://lore.kernel.org/lkml/20250709092046.10428-1-nikhil.dhama@amd.com/ (its lines)
TOOL_AND_TEST_HEAD = """\
I am getting following score (normalised wrt v6.15 vanilla):

                      netperf UDP_STREAM
                      ------------------
v6.15 vanilla                           100
v6.15 with (c544a952ba)             100.085
"""


def test_a_head_naming_the_tool_then_its_test_leaves_the_rows_their_systems():
    rows = result_rows(extract_explained(TOOL_AND_TEST_HEAD, "t")[0])
    got = {(r["benchmark"], r["system"], r["value"]) for r in rows}
    assert got == {("netperf", "v6.15 vanilla", 100.0), ("netperf", "v6.15 with (c544a952ba)", 100.085)}
    assert {r["metric_label"] for r in rows} == {"netperf UDP_STREAM"}


# https://lore.kernel.org/qemu-devel/ZPsJ+TxDYO24T5Yp@redhat.com/ (its quoted lines)
TOOL_RESULT_LABEL = """\
Inside a VM - iperf3 for basic TCP performance testing.

iperf3 result:
 TCP stream      : 19.1 Gbps
"""


def test_a_label_naming_only_the_tool_and_its_results_is_no_system():
    rows = result_rows(extract_explained(TOOL_RESULT_LABEL, "t")[0])
    assert [(r["benchmark"], r["value"]) for r in rows] == [("iperf", 19.1)]
    assert rows[0]["system"] != "iperf3 result"


# https://lore.kernel.org/lkml/20210519093644.GD3735@techsingularity.net/ (its lines): a series of
# tables, each under a remark on the one above and the next machine's name
SERIES_WITH_REMARKS = """\
Tbench4: Mostly leaned towards being a loss

Single-socket Skylake
                         5.13.0-rc1             5.13.0-rc1
                            vanilla   sched-wakeidler-v3r1
Hmean     1       591.86 (   0.00%)      585.56 *  -1.07%*
Hmean     2      1050.84 (   0.00%)     1069.35 *   1.76%*
Hmean     4      1546.96 (   0.00%)     1501.62 *  -2.93%*
Hmean     8      2740.19 (   0.00%)     2675.56 *  -2.36%*

	Small losses, higher system CPU usage (not shown)

2-socket Cascadelake
                          5.13.0-rc1             5.13.0-rc1
                             vanilla   sched-wakeidler-v3r1
Hmean     1        544.22 (   0.00%)      548.16 *   0.72%*
Hmean     2       1058.67 (   0.00%)     1044.67 *  -1.32%*
Hmean     4       2049.38 (   0.00%)     2017.99 *  -1.53%*
Hmean     8       4071.51 (   0.00%)     3893.55 *  -4.37%*
"""


def test_the_next_table_of_a_series_under_a_remark_and_a_machine_is_read_like_the_first():
    rows = result_rows(extract_explained(SERIES_WITH_REMARKS, "s")[0])
    got = {(r["benchmark"], r["system"], r["value"]) for r in rows}
    assert ("tbench", "5.13.0-rc1 vanilla", 544.22) in got
    assert ("tbench", "5.13.0-rc1 sched-wakeidler-v3r1", 1044.67) in got
    assert ("tbench", "5.13.0-rc1 vanilla", 591.86) in got


# https://lore.kernel.org/linux-mm/20090203101205.GF9840@csn.ul.ie/ (its lines): each allocator's
# figures as ratios to slab's, whose column is all 1.0000
RATIOS_TO_A_COLUMN = """\
Sysbench - Postgres
-------------------
Client            slab       slub       slqb
     1          1.0000     0.9484     0.9804
     2          1.0000     1.0069     0.9994
     3          1.0000     1.0064     0.9994
     4          1.0000     0.9900     0.9904
"""


def test_ratios_to_a_column_of_ones_carry_no_unit_and_name_their_baseline():
    rows = result_rows(extract_explained(RATIOS_TO_A_COLUMN, "r")[0])
    got = {(r["system"], r["params"].get("client"), r["value"]) for r in rows}
    assert ("slub", "1", 0.9484) in got and ("slqb", "4", 0.9904) in got
    assert {r["unit"] for r in rows} == {""}
    assert {r["params"].get("baseline") for r in rows} == {"slab"}
    assert all(r["metric"].endswith("_ratio") for r in rows)


def test_lines_of_figures_that_changed_from_one_to_another_are_sentences_not_table_rows():
    # https://lore.kernel.org/linux-usb/20230518204947.3770236-1-Frank.Li@nxp.com/ (its lines)
    text = ("iperf3 results.\n\n"
            "Transmit speed (TX): Improved from 299Mbps to 440Mbps\n"
            "Receive speed (RX): Improved from 290Mbps to 500Mbps\n")
    rows = result_rows(extract_explained(text, "f")[0])
    got = {(r["metric_label"], r["params"].get("when"), r["value"]) for r in rows}
    assert got == {("Transmit speed (TX)", "before", 299.0), ("Transmit speed (TX)", "after", 440.0),
                   ("Receive speed (RX)", "before", 290.0), ("Receive speed (RX)", "after", 500.0)}


# https://lore.kernel.org/lkml/45b9c3e5-7ab7-0256-790e-cee92c37762d@amd.com/ (its lines): rows ending
# in a remark in brackets after their figures
ROWS_WITH_REMARKS = """\
hackbench results:

Test:			tip			sis_short
 1-groups:	   4.36 (0.00 pct)	   4.33 (0.68 pct)
 8-groups:	   4.64 (0.00 pct)	   4.71 (-1.50 pct)
16-groups:	   5.43 (0.00 pct)	   6.60 (-21.54 pct)    * [Machine is overloaded with avg 2.5 tasks per run queue]
16-groups:	   5.90 (0.00 pct)	   5.87 (0.50 pct)    [Verification Run]
"""


def test_a_remark_in_brackets_after_a_rows_figures_does_not_end_the_table():
    rows = result_rows(extract_explained(ROWS_WITH_REMARKS, "r")[0])
    got = {(r["system"], r["value"]) for r in rows}
    assert {("tip", 5.43), ("sis_short", 6.6), ("tip", 5.9), ("sis_short", 5.87), ("tip", 4.36)} <= got
    assert len(rows) == 8


# https://lore.kernel.org/linux-mmc/cover.1572326519.git.baolin.wang@linaro.org/
TESTS_UNDER_SYSTEMS = """\
I tested 5 times for each case and output a average speed.

1. Without MMC software queue
I tested 5 times for each case and output a average speed.

1) Sequential read:
Speed: 59.4MiB/s, 63.4MiB/s, 57.5MiB/s, 57.2MiB/s, 60.8MiB/s
Average speed: 59.66MiB/s

2) Random read:
Speed: 26.9MiB/s, 26.9MiB/s, 27.1MiB/s, 27.1MiB/s, 27.2MiB/s
Average speed: 27.04MiB/s

2. With MMC software queue
I tested 5 times for each case and output a average speed.

1) Sequential read:
Speed: 59.2MiB/s, 60.4MiB/s, 63.6MiB/s, 60.3MiB/s, 59.9MiB/s
Average speed: 60.68MiB/s
"""

# https://lore.kernel.org/linux-mmc/20230823061734.27479-1-wenchao.chen@unisoc.com/
LISTED_UNDER_A_COLON = """\
Ran 'fio' to evaluate the performance:
1.Fixed hsq_depth
1) Sequential write:
Speed: 168 164 165
Average speed: 165.67MB/S

2) Sequential read:
Speed: 326 326 326
Average speed: 326MB/S

2.Dynamic hsq_depth
1) Sequential write:
Speed: 167 166 166
Average speed: 166.33MB/S
"""


def test_a_test_named_over_figures_is_what_was_measured_and_the_system_is_named_above_it():
    def got(text: str) -> set[tuple]:
        return {(r["system"], r["metric_label"], r["value"]) for r in result_rows(extract_explained(text, "m", subject="fio")[0])}

    mmc = got(TESTS_UNDER_SYSTEMS)
    assert ("Without MMC software queue", "Sequential read Speed", 59.4) in mmc
    assert ("Without MMC software queue", "Random read Average speed", 27.04) in mmc
    assert ("With MMC software queue", "Sequential read Average speed", 60.68) in mmc
    assert not any(s and "read" in s for s, _, _ in mmc)
    hsq = got(LISTED_UNDER_A_COLON)
    assert ("Fixed hsq_depth", "Sequential write Speed", 168.0) in hsq
    assert ("Fixed hsq_depth", "Sequential read Average speed", 326.0) in hsq
    assert ("Dynamic hsq_depth", "Sequential write Average speed", 166.33) in hsq
    from transforms.parsers._common import io_test_label, system_label

    assert io_test_label("2) Random read:") == "Random read" and system_label("2) Random read:") is None
    assert io_test_label("randwrite:") == "randwrite" and io_test_label("1. Without MMC software queue") is None


def test_a_unit_said_once_above_a_table_and_a_row_named_by_its_unit():
    # the real-posts issue's hand tables (#10): a unit in a caption (`tbench throughput (GB/sec):`)
    # is the unit of the figures under it, not the tool's usual one; a row named by a unit
    # (`queries/s`) is the tool's measure in that unit
    text = "tbench throughput (GB/sec):\n\nclients   vanilla   patched\n1         3.2       3.3\n8         24.1      24.9\n"
    got = {(r["system"], r["params"].get("clients"), r["value"], r["unit"])
           for r in result_rows(extract_explained(text, "m", subject="[PATCH] tbench")[0])}
    assert got == {("vanilla", "1", 3.2, "GB/s"), ("patched", "1", 3.3, "GB/s"),
                   ("vanilla", "8", 24.1, "GB/s"), ("patched", "8", 24.9, "GB/s")}
    text = ("sysbench oltp_read_write, 16 threads:\n\n                 5.10        5.15\n"
            "transactions/s   1523.4      1610.2\nqueries/s        30468.0     32204.0\n")
    got = {(r["system"], r["metric"], r["value"], r["unit"]) for r in result_rows(extract_explained(text, "m")[0])}
    assert got == {("5.10", "transactions_per_second", 1523.4, "trans/s"), ("5.15", "transactions_per_second", 1610.2, "trans/s"),
                   ("5.10", "queries_per_second", 30468, "ops/s"), ("5.15", "queries_per_second", 32204, "ops/s")}


def test_heads_counting_what_ran_at_once_are_a_parameter_of_the_measure():
    # the real-posts issue's hand tables (#10): heads of parameters (`1 stream  4 streams`) over
    # configurations' rows; the unit said after the caption's comma (`iperf3 TCP, Gbits/sec`)
    text = ("iperf3 TCP, Gbits/sec\n\n            1 stream   4 streams   8 streams\n"
            "old           9.41        9.38        9.35\nnew           9.42        9.40        9.39\n")
    got = {(r["system"], r["metric"], r["params"].get("streams"), r["value"], r["unit"])
           for r in result_rows(extract_explained(text, "m", subject="Re: iperf numbers with the new driver")[0])}
    assert got == {("old", "throughput", "1", 9.41, "Gbit/s"), ("old", "throughput", "4", 9.38, "Gbit/s"),
                   ("old", "throughput", "8", 9.35, "Gbit/s"), ("new", "throughput", "1", 9.42, "Gbit/s"),
                   ("new", "throughput", "4", 9.40, "Gbit/s"), ("new", "throughput", "8", 9.39, "Gbit/s")}

"""Re-typed summaries (transforms/handmade/summaries.py): lines of several `Key: value` pairs."""

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_explained
from transforms.handmade.metrics import resolve_unit
from transforms.handmade.summaries import key_pairs, read_summaries
from transforms.rows import result_rows

# https://lore.kernel.org/lkml/17740000.1046989368@flay/ (2003, "Re: HT and idle = poll", kernbench quoted)
HT = """\
>> Kernbench on 2.5.64-HTschedB3, make -j2:
>>
>> idle != poll: Elapsed: 136.692s User: 249.846s System: 30.596s CPU: 204.8%
>> idle  = poll: Elapsed: 161.868s User: 295.738s System: 32.966s CPU: 202.6%
"""


def test_a_line_of_pairs_names_its_system_first():
    lead, pairs = key_pairs("idle != poll: Elapsed: 136.692s User: 249.846s System: 30.596s CPU: 204.8%")
    assert lead == "idle != poll"
    assert pairs == [("Elapsed", 136.692, "s"), ("User", 249.846, "s"), ("System", 30.596, "s"),
                     ("CPU", 204.8, "%")]


def test_kernbench_summary_lines_give_one_row_per_pair():
    rows = result_rows(extract_explained(HT, "k", subject="Re: HT and idle = poll")[0])
    got = {(r["system"], r["metric"]): r["value"] for r in rows}
    assert got[("idle != poll", "elapsed_time")] == 136.692
    assert got[("idle  = poll", "system_time")] == 32.966
    assert got[("idle != poll", "percent_cpu")] == 204.8
    assert {r["benchmark"] for r in rows} == {"kernbench"} and len(rows) == 8


def test_sentences_tool_lines_and_headers_are_not_pairs():
    assert key_pairs("The run took Elapsed: 136s and then User: 249s later") is None
    assert key_pairs("[ 11s ] thds: 256 tps: 1234.5 qps: 24690.2") is None
    assert key_pairs("Date: 12 Cc: 3") is None
    assert key_pairs("Size: 4GB Rev: 3a") is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aEl: 0123.4s%,/-[]>\t")), max_size=300))
def test_pairs_never_raise_and_keep_printed_numbers(line):
    found = key_pairs(line)
    if found is not None:
        assert len(found[1]) >= 2


# https://lore.kernel.org/lkml/ (2001, "2.4.13 results": dbench and bonnie++ as re-typed lines)
MB_LOWER = """\
dbench 8:          37Mb/sec
bonnie++ write:    18.7Mb/sec
"""


def test_lower_case_mb_is_the_byte_tools_megabytes():
    rows = result_rows(extract_explained(MB_LOWER, "m")[0])
    assert {(r["benchmark"], r["value"], r["unit"]) for r in rows} == {("dbench", 37.0, "MB/s"),
                                                                        ("bonnie", 18.7, "MB/s")}

    assert resolve_unit("iperf", "Mb/s") == "Mbit/s" and resolve_unit("netperf", "Gb/s") == "Gbit/s"


# https://lore.kernel.org/lkml/20250221085725.33943-1-15645113830zzh@gmail.com/ (PREDICT_NO_PREEMPT)
SYSTEM_KEYS = """\
./hackbench -g 8 -l 10000
orig: 2.063s   with PREDICT_NO_PREEMPT: 1.833s
./hackbench -g 16 -l 10000
orig: 3.658s   with PREDICT_NO_PREEMPT: 3.479s
"""


def test_pairs_keyed_by_system_under_a_command_line():
    rows = result_rows(extract_explained(SYSTEM_KEYS, "p")[0])
    got = {(r["system"], r["params"].get("groups"), r["params"].get("loops")): r["value"] for r in rows}
    assert got == {("orig", "8", "10000"): 2.063, ("with PREDICT_NO_PREEMPT", "8", "10000"): 1.833,
                   ("orig", "16", "10000"): 3.658, ("with PREDICT_NO_PREEMPT", "16", "10000"): 3.479}
    assert {(r["benchmark"], r["metric"]) for r in rows} == {("hackbench", "time")}


def test_equals_pairs_and_one_pair_after_a_label():
    # https://lore.kernel.org/lkml/b6dfcc79-f542-474a-bcc6-4e24a1189a07@squashfs.org.uk/ (fio, quoted)
    assert key_pairs("   IOPS=815, BW=102MiB/s (107MB/s)(6113MiB/60001msec)") == (
        None, [("IOPS", 815.0, "IOPS"), ("BW", 102.0, "MiB/s")])
    # https://lore.kernel.org/lkml/ (2019, kernel stack randomization: lmbench lines under labels)
    assert key_pairs("With rdrand (every 10th syscall):\t\tSimple syscall: 0.0719 microseconds") == (
        "With rdrand (every 10th syscall)", [("Simple syscall", 0.0719, "us")])
    assert key_pairs("fio --bs=4k --iodepth=32 --numjobs=4") is None
    assert key_pairs("Note: size: 4") is None


# https://lore.kernel.org/linux-raid/20231606122233@laper.mirepesht/ (fio on raid10, re-typed)
FIO_RETYPED = """\
> > Without the patch:
> > READ:  IOPS=2033k BW=8329MB/s
> > WRITE: IOPS= 871k BW=3569MB/s

With the second patch:
READ:  IOPS=3642K BW=13900MiB/s
WRITE: IOPS=1561K BW= 6097MiB/s
"""


def test_fio_shorthand_retyped_per_direction_under_a_label():
    got = {(r["system"], r["params"].get("rw"), r["metric"], r["value"], r["unit"])
           for r in result_rows(extract_explained(FIO_RETYPED, "f")[0]) if r["metric"] == "iops"}
    assert got == {("Without the patch", "read", "iops", 2033000.0, "IOPS"),
                   ("Without the patch", "write", "iops", 871000.0, "IOPS"),
                   ("With the second patch", "read", "iops", 3642000.0, "IOPS"),
                   ("With the second patch", "write", "iops", 1561000.0, "IOPS")}


def test_a_label_without_a_colon_alone_over_pair_lines_names_their_system():
    # https://lore.kernel.org/linux-raid/ (2023, "Unacceptably Poor RAID1 Performance with Many CPU Cores")
    text = ("Then use fio to test disk performance.\n\nWithout RAID (writing to /dev/ram0)\n"
            "READ:  IOPS=14391K BW=56218MiB/s\nWRITE: IOPS= 6167K BW=24092MiB/s\n\n"
            "RAID1 (writing to /dev/md/test)\nREAD:  IOPS=  542K BW= 2120MiB/s\nWRITE: IOPS=  232K BW=  935MiB/s\n")
    got = {(r["system"], r["params"]["rw"], r["value"]) for r in result_rows(extract_explained(text, "r")[0])
           if r["metric"] == "iops"}
    assert got == {("Without RAID (writing to /dev/ram0)", "read", 14391000.0),
                   ("Without RAID (writing to /dev/ram0)", "write", 6167000.0),
                   ("RAID1 (writing to /dev/md/test)", "read", 542000.0),
                   ("RAID1 (writing to /dev/md/test)", "write", 232000.0)}


# https://lore.kernel.org/io-uring/cbf529c4-6fb7-40da-8b01-514a8e3e6f5c@kernel.dk/ (2023, t/io_uring peak runs)
PEAK_RUNS = """\
Wanted to run this through both the peak IOPS and networking testing,
started with the former. Here's a peak run with -git + pending 6.5
changes + pending 6.6 changes:

IOPS=125.88M, BW=61.46GiB/s, IOS/call=32/31
IOPS=125.39M, BW=61.23GiB/s, IOS/call=31/31

and here's one with the patch:

IOPS=121.69M, BW=59.42GiB/s, IOS/call=31/32
IOPS=121.26M, BW=59.21GiB/s, IOS/call=32/32

This is what I'm using:

sudo t/io_uring -p1 -d128 -b512 -s32 -c32 -F1 -B1 -R0 -X1 -n24 -P1 /dev/nvme0n1
"""


def test_lines_without_a_label_are_named_by_the_caption_above_them():
    rows = result_rows(extract_explained(PEAK_RUNS, "p", subject="Re: [PATCHv3] io_uring: set plug tags")[0])
    got = {(r["system"], r["metric"], r["value"]) for r in rows}
    # t/io_uring's lines, read by the fio parser: bandwidth in KiB/s (`BW=61.46GiB/s`)
    git, patch = "with -git + pending 6.5 changes + pending 6.6 changes", "with the patch"
    assert got == {(git, "iops", 125880000.0), (git, "bandwidth", 61.46 * 1024 * 1024),
                   (git, "iops", 125390000.0), (git, "bandwidth", 61.23 * 1024 * 1024),
                   (patch, "iops", 121690000.0), (patch, "bandwidth", 59.42 * 1024 * 1024),
                   (patch, "iops", 121260000.0), (patch, "bandwidth", 59.21 * 1024 * 1024)}


def test_a_pair_of_counts_is_no_number():
    # `IOS/call=32/31`: submitted/completed per call, not the number 32
    _, found = key_pairs("IOPS=125.88M, BW=61.46GiB/s, IOS/call=32/31")
    assert [k for k, _, _ in found] == ["IOPS", "BW"]


def test_a_bullet_of_pairs_names_its_system_and_is_no_table_row():
    # https://lore.kernel.org/netdev/20251017025404.1962110-4-yicongsrfy@163.com/ (2025, cdc_ncm vs ax88179_178a)
    text = ("Average of three netperf runs: `netperf -t {TCP/UDP_RR} -H serverIP -l 120`\n"
            "- cdc_ncm.ko: TCP_RR: 740, UDP_RR: 750\n- ax88179_178a.ko: TCP_RR: 8900, UDP_RR: 9200\n")
    rows = result_rows(extract_explained(text, "n", subject="[PATCH] net: usb: cdc_ncm")[0])
    assert {(r["benchmark"], r["system"], r["metric_label"], r["value"]) for r in rows} == {
        ("netperf", "cdc_ncm.ko", "TCP_RR", 740.0), ("netperf", "cdc_ncm.ko", "UDP_RR", 750.0),
        ("netperf", "ax88179_178a.ko", "TCP_RR", 8900.0), ("netperf", "ax88179_178a.ko", "UDP_RR", 9200.0)}


# https://lore.kernel.org/lkml/4b26d8cd-c3fa-8536-a295-850ecf052ecd@kernel.dk/ (2021, t/io_uring 1-second lines)
INFLIGHT = """\
Did a few runs, and the differences are very stable. With this enabled,
we spend about 0.15% more time in io_read(). That's only worth about
5K IOPS at 3.5M, not enough to notice as the variation for the 1 second
reporting window usually swings more than that:

Old behavior:
IOPS=3536512, IOS/call=32/31, inflight=(75)
IOPS=3541888, IOS/call=32/32, inflight=(64)

Turning it on:
IOPS=3533824, IOS/call=32/31, inflight=(64)
IOPS=3541408, IOS/call=32/32, inflight=32
"""


def test_one_measurement_among_settings_is_a_summary_line():
    rows = result_rows(extract_explained(INFLIGHT, "i", subject="Re: [git pull] iov_iter fixes")[0])
    assert {(r["benchmark"], r["system"], r["metric"], r["value"], r["unit"]) for r in rows} == {
        ("fio", "Old behavior", "iops", 3536512.0, "IOPS"), ("fio", "Old behavior", "iops", 3541888.0, "IOPS"),
        ("fio", "Turning it on", "iops", 3533824.0, "IOPS"), ("fio", "Turning it on", "iops", 3541408.0, "IOPS")}


# https://lore.kernel.org/linux-nvme/20190502114801.23116-1-mlevitsk@redhat.com/, lines as posted
NVME_MDEV = """\
The fio (with the spdk plugin)was running at queue depth 1.

** The results for non interrupt test **

host:
\tBW   :574.93 MiB/s  (stdev:0.73 Mib/s)
\tIOPS :147,182  (stdev:186 IOPS/s)
\tSLAT :0.113 us  (stdev:0.055 us)

mdev/direct:
\tBW   :535.99 MiB/s  (stdev:2.62 Mib/s)
\tIOPS :137,214  (stdev:670 IOPS/s)
\tLAT  :7.038 us  (stdev:6.892 us)
"""


def test_labelled_summaries_with_stdev_asides():
    rows = result_rows(extract_explained(NVME_MDEV, "n", subject="[PATCH v2 00/10] RFC: NVME MDEV")[0])
    got = {(r["system"], r["metric_label"], r["value"], r["unit"]) for r in rows}
    assert got == {("host", "BW", 574.93, "MiB/s"), ("host", "IOPS", 147182.0, "IOPS"), ("host", "SLAT", 0.113, "us"),
                   ("mdev/direct", "BW", 535.99, "MiB/s"), ("mdev/direct", "IOPS", 137214.0, "IOPS"),
                   ("mdev/direct", "LAT", 7.038, "us")}  # never a stdev


# https://lore.kernel.org/linux-block/CAA70yB73hVgt-KppSYaXuh_yOpmJ0zQi3hWP-236a0oUTnOxpg@mail.gmail.com/
def test_the_end_of_a_calculation_is_no_summary_line():
    lines = ["Becase update_io_ticks will add a extra 1 jiffy(1ms) for every IO, the",
             "io.latency io.latency will be 1 + 0.4 = 1.4ms,",
             "1.4 * 512 = 716.8ms, so the %util show it about 72%."]
    assert read_summaries(lines, set())[0] == []


def test_before_and_after_keys_are_the_systems_and_the_caption_what_was_measured():
    # https://lore.kernel.org/netdev/20230607015641.1724057-1-yoshihiro.shimoda.uh@renesas.com/ (2023,
    # rswitch), the lines as posted: an `about` before each figure, the caption naming the tool
    text = ("< UDP TX by iperf3 >\n before: about 450Mbps on both tsn0 and tsn1\n"
            " after:  about 950Mbps on both tsn0 and tsn1\n\n"
            "< TCP RX by iperf >\n before: about 670Mbps on tsn0\n after:  about 840Mbps on tsn0\n")
    rows = result_rows(extract_explained(text, "r")[0])
    assert {(r["system"], r["metric_label"], r["value"], r["unit"]) for r in rows} == {
        ("before", "UDP TX", 450.0, "Mbit/s"), ("after", "UDP TX", 950.0, "Mbit/s"),
        ("before", "TCP RX", 670.0, "Mbit/s"), ("after", "TCP RX", 840.0, "Mbit/s")}


def test_a_difference_and_a_line_of_pairs_are_no_summaries():
    # https://lore.kernel.org/lkml/20011121010744Z281242-17408+16783@vger.kernel.org/ (its lines): how much
    # faster, not a result
    lines = ["Dbench 32 is 10 seconds and nearly 3 MB/sec faster then all kernels I've", "tried before."]
    assert read_summaries(lines, set())[0] == []
    # https://lore.kernel.org/netdev/20230724195813.11319-1-kuniyu@amazon.com/ (its lines): pairs in a row
    lines = ["  On Skylake: jhash2: +10%, hsiphash +8%, siphash: +23%",
             "  On Nehalem: jahsh2: +5%,  hsiphash +9%, siphash: +26%"]
    assert read_summaries(lines, set())[0] == []


def test_a_packet_rate_under_conditions_as_keys():
    # https://lore.kernel.org/netdev/CANn89iLQ3G6ffTN+=98+DDRhOzw8TNDqFd_YmYn168Qxyi4ucA@mail.gmail.com/
    # (its lines)
    text = ("tc qd replace dev eth1 root cake\n./super_netperf 16 -H tjbp27 -t UDP_STREAM -l 1000 -- -m 64 -Nn &\n\n"
            "Before my series : ~360 Kpps\nAfter my series : ~550 Kpps\n")
    got = {(r["benchmark"], r["system"], r["metric_label"], r["value"], r["unit"])
           for r in result_rows(extract_explained(text, "k")[0])}
    assert got == {("netperf", "Before my series", "UDP_STREAM", 360.0, "Kpps"),
                   ("netperf", "After my series", "UDP_STREAM", 550.0, "Kpps")}


def test_a_knobs_settings_name_no_systems():
    # https://lore.kernel.org/linuxppc-dev/52811199-742a-40fc-8bf2-9cb4397afda4@linux.ibm.com/ (its lines)
    lines = ["steal_check_frequency:1", "steal_ratio_high:400", "steal_ratio_low:150"]
    assert read_summaries(lines, set())[0] == []


def test_keys_naming_no_metric_one_measure_each_are_the_systems():
    # https://lore.kernel.org/linux-block/fdd60ef5-285c-964b-818a-6e0ee0481751@acm.org/ (an overview
    # of IOPS per setup, each hedged `about` and ending its sentence)
    lines = ["fio randread results:", "* No I/O scheduler:               about 5630 K IOPS.",
             "* Kernel v5.11 + mq-deadline:     about 1100 K IOPS."]
    got = [(k.system, k.key, k.value, k.unit) for k in read_summaries(lines, set())[0]]
    assert got == [("No I/O scheduler", "", 5630000.0, "IOPS"), ("Kernel v5.11 + mq-deadline", "", 1100000.0, "IOPS")]
    # a metric's key stays the metric, under the label above it
    got = [(k.system, k.key) for k in read_summaries(["patched:", "read bw: 120 MB/s", "write bw: 80 MB/s"], set())[0]]
    assert got == [("patched", "read bw"), ("patched", "write bw")]


def test_loosely_spelled_bit_rates_keep_the_tools_metric():
    # `Mib/s` typed for netperf's megabits, `Gbits/sec` in a poster's own iperf list: the tool's
    # throughput in the unit as printed, not a metric of its own per unit
    text = ("2.6.24-rc3 netperf:\n  Throughput  : 137,214 Mib/s (stdev: 1,200 Mib/s)\n\n"
            "iperf3 results:\n  host  -> guest : 9.41 Gbits/sec\n  guest -> host  : 8.87 Gbits/sec\n")
    got = [(r["benchmark"], r["metric"], r["value"], r["unit"]) for r in result_rows(extract_explained(text, "m")[0])]
    assert got == [("netperf", "throughput", 137214.0, "Mbit/s"), ("iperf", "throughput", 9.41, "Gbit/s"),
                   ("iperf", "throughput", 8.87, "Gbit/s")]


# https://lore.kernel.org/linux-xfs/CAPFOzZuH=Mb2D_sNTZrnbcx0SYKcQOqMydk373_eTLc19-H+cQ@mail.gmail.com/ : a bandwidth
# given in a size, the second line ending its sentence
BANDWIDTH_IN_A_SIZE = ["Without this patch:", "BW is 1950MB", "with this patch", "BW is 2001MB."]


def test_a_bandwidth_given_in_a_size_is_that_size_a_second():
    kvs, _ = read_summaries(BANDWIDTH_IN_A_SIZE, set())
    assert [(k.system, k.key, k.value, k.unit) for k in kvs] == [
        ("Without this patch", "BW", 1950.0, "MB/s"), ("with this patch", "BW", 2001.0, "MB/s")]
    assert read_summaries(["Memory: 1950MB", "Disk: 200GB"], set())[0] == []  # sizes of no bandwidth


# https://lore.kernel.org/lkml/200303052318.04647.habanero@us.ibm.com/, as posted
PAIRS_PER_LINE = """\
The test:  kernbench (average of  kernel compiles5) with -j2 on a 2 physical/4
logical P4 system.  This is on 2.5.64-HTschedB3:

idle != poll: Elapsed: 136.692s User: 249.846s System: 30.596s CPU: 204.8%
idle  = poll: Elapsed: 161.868s User: 295.738s System: 32.966s CPU: 202.6%
"""


def test_lines_of_pairs_are_summaries_named_by_their_lead_a_release_too():
    rows = result_rows(extract_explained(PAIRS_PER_LINE, "p")[0])
    got = [(r["system"], r["metric"], r["value"], r["layout"]) for r in rows if r["metric"] == "elapsed_time"]
    assert got == [("idle != poll", "elapsed_time", 136.692, "key_value"), ("idle  = poll", "elapsed_time", 161.868, "key_value")]
    # the same lines led by the kernel they ran on (made here from the post's): the release is the system,
    # and the lines, the same summary twice under one caption, are no table of changes
    by_release = PAIRS_PER_LINE.replace("idle != poll:", "2.5.64:").replace("idle  = poll:", "2.5.64-HTschedB3:")
    rows = result_rows(extract_explained(by_release, "r")[0])
    assert [(r["system"], r["value"]) for r in rows if r["metric"] == "elapsed_time"] == [
        ("2.5.64", 136.692), ("2.5.64-HTschedB3", 161.868)]
    runs = PAIRS_PER_LINE.replace("idle != poll: ", "").replace("idle  = poll: ", "")
    rows = result_rows(extract_explained(runs, "u")[0])
    assert [(r["params"].get("repeat"), r["value"], r["layout"]) for r in rows if r["metric"] == "elapsed_time"] == [
        ("1", 136.692, "key_value"), ("2", 161.868, "key_value")]


# https://lore.kernel.org/kvm/20251219035334.39790-6-kernellwp@gmail.com/ (excerpt): how many VMs ran, then
# the change in the measure
COUNTED_CHANGES = """\
Performance testing (16 pCPUs host, 16 vCPUs/VM):

Dbench 16 clients per VM:
  2 VMs: +14.4% throughput
  3 VMs:  +9.8% throughput
  4 VMs:  +6.7% throughput
"""


def test_a_count_then_the_change_it_made_is_a_change():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(COUNTED_CHANGES, "c")[0])
    got = {(r["benchmark"], r["metric"], r["params"].get("vms"), r["value"], r["unit"]) for r in rows}
    assert got == {("dbench", "throughput_change_pct", "2", 14.4, "%"), ("dbench", "throughput_change_pct", "3", 9.8, "%"),
                   ("dbench", "throughput_change_pct", "4", 6.7, "%")}


# https://lore.kernel.org/xen-devel/20250710161029.3773630-1-anthoine.bourgeois@vates.tech/
DIRECTIONS_UNDER_LABELS = """\
that addresses security issue XSA-391 (see Fixes below). On an iperf
benchmark, this patch helps.

Some vif throughput performance figures from a 8 vCPUs, 4GB of RAM HVM
guest(s):

Without this patch on the :
vm -> dom0: 4.5Gb/s
vm -> vm:   7.0Gb/s

Without XSA-391 patch (revert of b27d47950e48):
vm -> dom0: 8.3Gb/s
vm -> vm:   8.7Gb/s

With XSA-391 and this patch:
vm -> dom0: 11.5Gb/s
vm -> vm:   12.6Gb/s
"""


def test_a_direction_as_the_key_is_a_parameter_of_the_labelled_system():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    got = {(r["system"], r["metric"], r["params"].get("direction"), r["value"], r["unit"])
           for r in result_rows(extract_explained(DIRECTIONS_UNDER_LABELS, "m")[0])}
    assert ("Without XSA-391 patch (revert of b27d47950e48)", "throughput", "vm -> dom0", 8.3, "Gbit/s") in got
    assert ("With XSA-391 and this patch", "throughput", "vm -> vm", 12.6, "Gbit/s") in got
    assert ("Without this patch on the", "throughput", "vm -> dom0", 4.5, "Gbit/s") in got
    assert len(got) == 6


# https://lore.kernel.org/devicetree/20190821195217.4166-3-sunil@medhas.org/
WHERE_THEN_WHAT = """\
This patch has been tested on A64-OLinuXino-1Ge16GW with Linux 5.0 from Debain.
Basic benchmarks using Flexible IO Tester show reasonable performance from the
eMMC.

eMMC - Random Write: 21.3MiB/s
eMMC - Sequential Write: 68.2MiB/s
SD Card - Random Write: 1690KiB/s
SD Card - Sequential Write: 11.0MiB/s
"""


def test_a_key_naming_where_then_what_gives_the_system_and_the_metric():
    rows = result_rows(extract_explained(WHERE_THEN_WHAT, "w")[0])
    got = {(r["benchmark"], r["system"], r["metric_label"], r["value"], r["unit"]) for r in rows}
    assert got == {("fio", "eMMC", "Random Write", 21.3, "MiB/s"), ("fio", "eMMC", "Sequential Write", 68.2, "MiB/s"),
                   ("fio", "SD Card", "Random Write", 1690.0, "KiB/s"),
                   ("fio", "SD Card", "Sequential Write", 11.0, "MiB/s")}
    from transforms.handmade.summaries import where_then_what

    assert where_then_what("eMMC - Random Write") == ("eMMC", "Random Write")
    assert where_then_what("Random Write - eMMC") is None  # what, then where: no metric on the right
    assert where_then_what("v6.15 - v6.16") is None


# https://lore.kernel.org/linux-pm/20210917072022.3234272-1-dedekind1@gmail.com/
CONDITION_ONE_BLANK = """\
Cyclictest
----------

I ran cyclictest for a single CPU for 4 hours.

Before: average latency: 2417 ns
After:  average latency: 2293 ns

Dbench
------

I ran dbench for 4 hours for all CPUs. I was using a simple consumer
grade SSD + ext4. I was looking to compare the average throughput.

Before: average throughput: 4527.12 MB/sec
After:  average throughput: 4562.52 MB/sec
"""


def test_a_condition_one_blank_before_its_pair_names_the_line_and_another_tool_is_not_ours():
    rows = result_rows(extract_explained(CONDITION_ONE_BLANK, "c", subject="intel_idle: dbench and cyclictest")[0])
    got = {(r["benchmark"], r["system"], r["metric_label"], r["value"], r["unit"]) for r in rows}
    assert got == {("dbench", "Before", "average throughput", 4527.12, "MB/s"),
                   ("dbench", "After", "average throughput", 4562.52, "MB/s")}  # (cyclictest's figures are its own)
    assert key_pairs("Before: average throughput: 4527.12 MB/sec") is not None
    assert key_pairs("Later: average throughput: 4527.12 MB/sec") is None  # one blank after a name of no condition


# https://lore.kernel.org/kernel-hardening/20190508153736.256401-5-glider@google.com/
CHANGE_THEN_MEASURE = """\
Slowdown for the initialization features compared to init_on_free=0,
init_on_alloc=0:

hackbench, init_on_free=1:  +7.71% sys time (st.err 0.45%)
hackbench, init_on_alloc=1: +3.45% sys time (st.err 0.86%)

Linux build with -j12, init_on_free=1:  +8.34% wall time (st.err 0.39%)
Linux build with -j12, init_on_free=1:  +24.13% sys time (st.err 0.47%)
"""


def test_a_setting_then_a_signed_change_of_a_measure_is_a_change_of_that_setting():
    rows = result_rows(extract_explained(CHANGE_THEN_MEASURE, "c", subject="net: apply __GFP_NOINIT")[0])
    got = {(r["benchmark"], r["system"], r["metric_label"], r["value"], r["unit"]) for r in rows}
    assert got == {("hackbench", "init_on_free=1", "sys time", 7.71, "%"),
                   ("hackbench", "init_on_alloc=1", "sys time", 3.45, "%")}  # (the kernel builds are not hackbench's)
    assert all(r["metric"].endswith("_change_pct") for r in rows)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["hackbench, init_on_free=1", "init_on_alloc=1", "hackbench", "Linux build with -j12", "x"]),
       st.sampled_from(["+", "-", ""]), st.floats(min_value=0, max_value=999, allow_nan=False).map(lambda v: round(v, 2)),
       st.sampled_from(["sys time", "wall time", "throughput", "things", ""]),
       st.sampled_from(["", " (st.err 0.45%)", " (noise"]), st.sampled_from([":  ", ": ", " "]))
def test_a_change_of_a_setting_is_read_only_from_the_line(key, sign, value, measure, aside, sep):
    from transforms.handmade.summaries import _change_then_measure

    line = f"{key}{sep}{sign}{value}% {measure}{aside}"
    kv = _change_then_measure(line, 0)
    if kv is not None:
        assert sign and ":" in sep and measure and aside != " (noise"  # a signed change after a key, of a measure
        assert kv.change and kv.unit == "%" and kv.value == (-value if sign == "-" else value) and kv.key == measure
        assert kv.system in key and kv.system != "hackbench" and "build" not in kv.system


# https://lore.kernel.org/lkml/030b279a19a2c5929972b9b56cce40f4f919ed20.camel@gmx.de/
STAT_PAIRS = """\
Not super carefully run script output:

homer:/root # netperf.sh
TCP_SENDFILE-1  unbound    Avg:  87889  Sum:    87889
TCP_SENDFILE-1  stacked    Avg:  62885  Sum:    62885

TCP_RR-1        unbound    Avg: 200833  Sum:   200833
TCP_RR-1        cross-smt  Avg: 138507  Sum:   138507
"""


def test_a_case_and_where_it_ran_then_statistics_of_its_runs():
    got = {(r["benchmark"], r["system"], r["metric_label"], r["params"].get("stat"), r["value"])
           for r in result_rows(extract_explained(STAT_PAIRS, "m")[0])}
    assert got == {("netperf", "unbound", "TCP_SENDFILE-1", "Avg", 87889), ("netperf", "unbound", "TCP_SENDFILE-1", "Sum", 87889),
                   ("netperf", "stacked", "TCP_SENDFILE-1", "Avg", 62885), ("netperf", "stacked", "TCP_SENDFILE-1", "Sum", 62885),
                   ("netperf", "unbound", "TCP_RR-1", "Avg", 200833), ("netperf", "unbound", "TCP_RR-1", "Sum", 200833),
                   ("netperf", "cross-smt", "TCP_RR-1", "Avg", 138507), ("netperf", "cross-smt", "TCP_RR-1", "Sum", 138507)}
    from transforms.handmade.summaries import stat_pairs

    # one word before the statistics: the case, unless it is a configuration's or a release's name
    assert stat_pairs("TCP_RR-1        Avg: 200833  Sum:   200833") == ("TCP_RR-1", None, [("Avg", 200833), ("Sum", 200833)])
    assert stat_pairs("vanilla   Avg: 100  Max: 120") == ("", "vanilla", [("Avg", 100), ("Max", 120)])
    assert stat_pairs("6.1-rc2   Avg: 3  Max: 4") == ("", "6.1-rc2", [("Avg", 3), ("Max", 4)])
    assert stat_pairs("TCP_RR-1  unbound  Avg: 1  Rate: 2") is None  # a key that is no statistic


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["TCP_RR-1", "TCP_RR-1  patched", "vanilla", "a b c", "x:", "", "1.5"]),
       st.lists(st.tuples(st.sampled_from(["Avg", "Sum", "Min", "Max", "Rate", "avg"]),
                          st.integers(min_value=0, max_value=10**9)), max_size=4),
       st.sampled_from(["", " ms", " and so on"]))
def test_statistics_pairs_are_read_only_as_the_line_writes_them(lead, pairs, tail):
    from transforms.handmade.summaries import stat_pairs

    line = f"{lead}  " + "  ".join(f"{k}: {v}" for k, v in pairs) + tail
    got = stat_pairs(line)
    if got is not None:
        assert len(pairs) >= 2 and not tail and all(k.lower() in ("avg", "sum", "min", "max") for k, _ in pairs)
        assert got[2] == [(k, float(v)) for k, v in pairs]
        words = lead.split()
        assert 1 <= len(words) <= 2 and {got[0], got[1]} - {"", None} == set(words)  # every word kept, in one place


# https://lore.kernel.org/linux-mm/20251220-swap-table-p2-v5-0-8862a265a033@tencent.com/
QPS = """\
MySQL:
======
sysbench /usr/share/sysbench/oltp_read_only.lua --tables=16
--table-size=1000000 --threads=96 --time=600 (using ZRAM as SWAP, in a
512M memory cgroup, buffer pool set to 3G, 3 test run and 180s warm up).

Before: 318162.18 qps
After:  318512.01 qps (+0.01%)
"""


def test_queries_a_second_are_a_unit():
    got = {(r["benchmark"], r["system"], r["metric"], r["value"], r["unit"])
           for r in result_rows(extract_explained(QPS, "m")[0])}
    assert got == {("sysbench", "Before", "queries_per_second", 318162.18, "ops/s"),
                   ("sysbench", "After", "queries_per_second", 318512.01, "ops/s")}


def test_pairs_whose_values_carry_their_unit_after_a_blank():
    # the shape the real-posts issue (#10) gives for results in running text: `vanilla: 1234 MB/s,
    # patched: 1250 MB/s`; the unit after each value is no word between the pairs
    text = "dd if=/dev/zero of=/mnt/file bs=1M count=1024 results:\nvanilla: 1234 MB/s, patched: 1250 MB/s\n"
    got = {(r["benchmark"], r["system"], r["value"], r["unit"]) for r in result_rows(extract_explained(text, "m")[0])}
    assert got == {("dd", "vanilla", 1234, "MB/s"), ("dd", "patched", 1250, "MB/s")}
    assert key_pairs("vanilla: 1234 MB/s and then patched: 1250 MB/s") is None  # words between: a sentence


def test_a_label_line_saying_the_unit_gives_it_to_the_lines_under_it():
    # `iperf3 results (Gbits/sec):` over `without patch = 9.41`: the figures' unit said once above them
    lines = ["iperf3 results (Gbits/sec):", "  without patch = 9.41", "  with patch    = 9.87"]
    kvs, _ = read_summaries(lines, set())
    assert [(k.system, k.value, k.unit) for k in kvs] == [("without patch", 9.41, "Gbit/s"), ("with patch", 9.87, "Gbit/s")]
    kvs, _ = read_summaries(["iperf3 results:", *lines[1:]], set())
    assert kvs == []  # no unit said, `key = number`: a setting as much as a result


def test_a_caption_naming_the_tool_and_how_it_ran_names_no_system_and_gives_the_benchmark():
    # the real-posts issue's re-typed summaries (#10) under a caption saying what ran: `bw` is dd's word
    # too, but the caption right above the lines names fio; and `4k randread on nvme` is how, not on what
    text = "fio 4k randread on nvme:\nread bw: 1.2GB/s; write bw: 800MB/s\n"
    got = {(r["benchmark"], r["system"], r["metric_label"], r["value"], r["unit"])
           for r in result_rows(extract_explained(text, "m", subject="[PATCH] block: faster reads")[0])}
    assert got == {("fio", None, "read bw", 1.2, "GB/s"), ("fio", None, "write bw", 800, "MB/s")}
    text = "fio with the patch:\nread bw: 1.2GB/s; write bw: 800MB/s\n"  # a caption naming a configuration too
    assert {r["system"] for r in result_rows(extract_explained(text, "m")[0])} == {"fio with the patch"}


def test_a_scale_in_brackets_after_the_key_is_kept_as_printed():
    # the real-posts issue's re-typed summaries (#10): `84k` is kept as 84 at scale k; a key saying the
    # scale of its figures (`IOPS (k)`) likewise, the key's unit the figure's
    text = "fio 4k randread on nvme:\navg latency (us): 12.3\nIOPS (k): 120\n"
    got = {(r["metric"], r["value"], r["unit"], r["params"].get("scale"))
           for r in result_rows(extract_explained(text, "m", subject="[PATCH] block: faster reads")[0])}
    assert got == {("avg_latency", 12.3, "us", None), ("iops", 120.0, "IOPS", "k")}


def test_retyped_summaries_keep_the_test_the_pattern_and_the_seeks_unit():
    # the real-posts issue's re-typed summaries (#10): a label line, then `KEY : value unit (stdev: x unit)`
    # lines with thousands separators and units spelled loosely (`K/sec`); the value before the
    # parenthesis. netperf's test names stay as its rows' `test`, fio's `read iops` is IOPS of reads,
    # and bonnie's seeks are printed `/sec`
    text = ("host:\n  TCP_STREAM : 9,412.55 Mb/s (stdev: 12.1 Mb/s)\n  TCP_RR     : 21,304 trans/s (stdev: 210 trans/s)\n"
            "\nguest:\n  TCP_STREAM : 8,011.02 Mb/s (stdev: 40.5 Mb/s)\n  TCP_RR     : 17,890 trans/s (stdev: 190 trans/s)\n")
    got = {(r["system"], r["metric"], r["params"].get("test"), r["value"], r["unit"])
           for r in result_rows(extract_explained(text, "m", subject="[PATCH] virtio-net: netperf numbers")[0])}
    assert got == {("host", "throughput", "TCP_STREAM", 9412.55, "Mbit/s"), ("host", "transaction_rate", "TCP_RR", 21304, "trans/s"),
                   ("guest", "throughput", "TCP_STREAM", 8011.02, "Mbit/s"), ("guest", "transaction_rate", "TCP_RR", 17890, "trans/s")}
    text = ("fio 4k randread, iodepth=32\n\n2.6.24-rc3:\n    read bw   : 412.5 MiB/s  (stdev 3.1 MiB/s)\n"
            "    read iops : 105,600      (stdev 800)\n\n2.6.24-rc3 + patch:\n    read bw   : 455.0 MiB/s  (stdev 2.9 MiB/s)\n"
            "    read iops : 116,480      (stdev 740)\n")
    got = {(r["system"], r["metric"], r["params"].get("rw"), r["value"], r["unit"])
           for r in result_rows(extract_explained(text, "m")[0])}
    assert got == {("2.6.24-rc3", "bandwidth", "read", 412.5, "MiB/s"), ("2.6.24-rc3", "iops", "read", 105600, "IOPS"),
                   ("2.6.24-rc3 + patch", "bandwidth", "read", 455, "MiB/s"),
                   ("2.6.24-rc3 + patch", "iops", "read", 116480, "IOPS")}
    text = ("Bonnie++ 1.03, 4G file:\n\next4\n  Sequential Output Block : 85,312 K/sec\n  Random Seeks            : 312.4 /sec\n"
            "\nxfs\n  Sequential Output Block : 91,004 K/sec\n  Random Seeks            : 298.1 seeks/sec\n")
    got = {(r["system"], r["metric"], r["value"], r["unit"]) for r in result_rows(extract_explained(text, "m")[0])}
    assert got == {("ext4", "seq_output_block", 85312, "K/sec"), ("ext4", "random_seeks", 312.4, "/sec"),
                   ("xfs", "seq_output_block", 91004, "K/sec"), ("xfs", "random_seeks", 298.1, "/sec")}

"""The caption rule every parser shares (transforms/parsers/_common.py)."""

from __future__ import annotations

import pytest

from transforms.parsers._common import (
    generic_label,
    lone_caption,
    names_system,
    naming_caption,
    printout_system,
    setting_of,
    system_label,
    tool_condition,
)


@pytest.mark.parametrize(
    ("line", "system"),
    [
        ("Under 2.4.21:", "2.4.21"),
        ("2.6.24-rc3:", "2.6.24-rc3"),
        ("Unpatched", "Unpatched"),
        ("guest:", "guest"),
        ("with the patch:", "with the patch"),
        ("tip/sched/core:", "tip/sched/core"),
        ("v5.15-rc1", "v5.15-rc1"),
        ("linux-2.4.10-pre6 with the preempt patch (pre5 patches", "linux-2.4.10-pre6 with the preempt patch"),
        # https://lore.kernel.org/lkml/ (2001, dbench 48 on 2.4.0-prerelease): a label line over its runs
        ("2.4.0-prerelease-ac4: average 11.4729 MB/sec", "2.4.0-prerelease-ac4"),
        ("Kernel: 2.6.30", "2.6.30"),
        # https://lore.kernel.org/qemu-devel/ (2021, virtiofsd g_list_reverse): a condition as caption
        ('Without "g_list_reverse()":', 'Without "g_list_reverse()"'),
        ("With LMh Support:", "With LMh Support"),
        # https://lore.kernel.org/lkml/ (2001, VIA and ACPI on 2.4.1): a heading set off by stars
        ("*********************** stock 2.4.1 with ACPI turned on.", "stock 2.4.1 with ACPI turned on"),
        # https://lore.kernel.org/io-uring/ (2023, 2025, t/io_uring peak runs): a lead-in ending in a colon
        ("and here's one with the patch:", "with the patch"),
        ("and with the fix:", "with the fix"),
        ("Tested on a box here, previously:", "previously"),
        # https://lore.kernel.org/linux-mm/ (2021, memcg refill_stock and hackbench): a sentence leading
        # into the printouts names the condition they ran under
        ("> Please find the hackbench numbers with your change as given below:", "with your change"),
        # https://lore.kernel.org/lkml/20250502081947.44034-1-chanho.min@lge.com/ (2025, squashfs cache):
        # an option turned on or off over each printout
        ("Disable CONFIG_SQUASHFS_COMP_CACHE_FULL:", "Disable CONFIG_SQUASHFS_COMP_CACHE_FULL"),
        ("Enable CONFIG_SQUASHFS_COMP_CACHE_FULL:", "Enable CONFIG_SQUASHFS_COMP_CACHE_FULL"),
        # https://lore.kernel.org/io-uring/ (2023, t/io_uring on an attached NVMe): the condition, not
        # what the poster says of its numbers
        ("With -s32 and -c32, the numbers decline:", "With -s32 and -c32"),
        # https://lore.kernel.org/xen-devel/dc5d60d7-1ada-5eb1-ff91-495d663ca89e@vates.fr/ (2021, XSA-332):
        # a heading's generic lead, then the condition
        ("*** Test results, without reverting patch 12 ***", "without reverting patch 12"),
        # https://lore.kernel.org/lkml/20230501134827.GB1597538@hirez.programming.kicks-ass.net/ (2023,
        # tbench under scheduler features): a short name with a remark in parentheses after it
        ("WA_WEIGHT, WA_BIAS, SIS_CURRENT (aka, with patches on)",
         "WA_WEIGHT, WA_BIAS, SIS_CURRENT (aka, with patches on)"),
    ],
)
def test_a_caption_naming_what_was_measured(line, system):
    assert names_system(line) == system


@pytest.mark.parametrize(
    "line",
    [
        "And some performance numbers, maybe these are helpful:",
        "/dev/hdc:",
        " Timing buffered disk reads:  64 MB in  2.22 seconds = 28.83 MB/sec",
        "# hdparm -tT /dev/hda",
        "That's a bit disappointing.  Running 2.6.9-rc2-mm2(!) with a",
        "I tried this on 2.6.9 and it is slower than 2.6.8 on every run I made today, sadly.",
        "hda: ST320413A, ATA DISK drive",
        "Processor: Intel Xeon 2.4 GHz",
        "Throughput: 2.4 MB/sec",
        "With the patch applied the numbers look fine.",
        # hdparm -I's head of its feature listing
        "Enabled Supported:",
        # a sentence, not a caption: what happened before the patch
        "Before patch, the dd tasks are quickly OOM killed.",
        # https://lore.kernel.org/lkml/ (2001, hdparm on a Promise RAID): a sentence with an aside
        "i did some tests using hdparm (4.1)",
    ],
)
def test_lines_that_name_no_system(line):
    assert names_system(line) is None


def test_naming_caption_passes_over_prose_and_other_printouts():
    lines = [
        "Under 2.4.21:",
        "",
        "And some numbers:",
        "",
        "/dev/md1:",
        " Timing buffered disk reads:  64 MB in  2.22 seconds = 28.83 MB/sec",
        "",
        "/dev/hdc:",
    ]
    assert naming_caption(lines, 7) == "2.4.21"
    assert naming_caption(lines, 7, floor=2) is None  # nothing names a system below the floor
    # a version inside a sentence's last line is not a caption
    assert naming_caption(["I ran it on a box with", "kernel 2.6.9 today", "/dev/sda:"], 2) is None


def test_printout_names_become_params_and_the_caption_wins():
    params: dict[str, str] = {}
    assert printout_system("2.6.24", {"device": "/dev/sda"}, params) == "2.6.24"
    assert params == {"device": "/dev/sda"}
    params = {}
    assert printout_system(None, {"host": "10.0.0.2"}, params) == "10.0.0.2"  # two hosts stay apart
    assert params == {"host": "10.0.0.2"}
    params = {}
    assert printout_system(None, {"host": None}, params) is None and params == {}


def test_versions_are_not_numbers_and_short_captions_may_end_with_a_stop():
    assert names_system("2.4.31:") == "2.4.31"
    assert names_system("Linux 2.4.31-si.") == "Linux 2.4.31-si"
    assert names_system("212992 212992 1        1       10.00    95965.18") is None
    assert names_system("Client connecting to 10.128.0.2, UDP port 25000") is None
    assert names_system("Before: (not enabling bigger TSO/GRO packets)") == "Before"
    assert names_system("- Distro: openEuler 23.03 RISC-V Preview V1") is None


def test_a_sentence_ending_in_a_label_names_it():
    assert names_system("OK, is a bit more stable now ... before:") == "before"
    assert names_system("Then the numbers with my change applied are, roughly, after:") == "after"
    assert names_system("OK, is a bit more stable now ... before") is None  # no colon: prose


def test_naming_caption_passes_over_progress_chatter_under_a_ruled_version():
    # https://lore.kernel.org/lkml/ (2003, bonnie++ on 2.4.19 and 2.5.59): the version, its rule,
    # then bonnie++'s progress lines, then the table
    lines = [
        "----",
        "2.4.19",
        "========",
        "Using uid:0, gid:0.",
        "Writing with putc()...done",
        "Create files in sequential order...done.",
        "Stat files in sequential order...done.",
        "Delete files in sequential order...done.",
        "Version  1.03       ------Sequential Output------ --Sequential Input-",
    ]
    assert naming_caption(lines, 8) == "2.4.19"


# https://lore.kernel.org/linux-mm/ (2007, slab vs slub over loopback netperf), the lines as posted
SLAB = """\
patches applied). Missing patches against 2.6.21-rc7-mm2 can be found at

slab

TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to localhost
(127.0.0.1) port 0 AF_INET
Recv   Send    Send
Socket Socket  Message  Elapsed
Size   Size    Size     Time     Throughput
bytes  bytes   bytes    secs.    10^6bits/sec

 87380  16384  16384    10.01    6068.61

slub

TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to localhost (127.0.0.1) port 0 AF_INET
Recv   Send    Send
Socket Socket  Message  Elapsed
Size   Size    Size     Time     Throughput
bytes  bytes   bytes    secs.    10^6bits/sec

 87380  16384  16384    10.53    5646.53
"""


def test_a_short_line_alone_above_a_printout_names_its_system():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(SLAB, "s")[0])
    assert {(r["system"], r["value"]) for r in rows if r["metric"] == "throughput"} == {
        ("slab", 6068.61), ("slub", 5646.53)}


@pytest.mark.parametrize("above", [
    "```", ".. code::", "Results", "netperf output", "二、然后测试UDP的批量：",
    "This is a sentence that runs on.", "and the tail of a wrapped sentence",
])
def test_lines_alone_above_a_printout_that_name_no_system(above):
    assert lone_caption(["", above, "", "TCP STREAM TEST from 0.0.0.0"], 3) is None


@pytest.mark.parametrize("label", ["dbench summaries", "The hdparm results", "The performance has been measured with",
                                   "fio output", "Here are the numbers", "dbench 16", "tbench -t 60 192",
                                   "dd bs=1M count=1000", "Compare"])
def test_generic_or_unfinished_labels_name_no_system(label):
    assert generic_label(label) and system_label(label + ":") is None


@pytest.mark.parametrize("label", ["zone reclaiming on", "Full", "tso off", "kernel 2.4.10-pre14 + preempt patch",
                                   "dbench on ext3", "fio 3.19 patched"])
def test_configuration_labels_are_not_generic(label):
    assert not generic_label(label)


@pytest.mark.parametrize(("line", "system"), [("With 2.2.18 I get:", "With 2.2.18"), ("2.4.2 gives:", "2.4.2"),
                                              ("With the patch it shows:", "With the patch")])
def test_the_clause_after_what_a_caption_names_is_dropped(line, system):
    assert names_system(line) == system


def test_netperf_data_lines_below_the_first_keep_its_caption():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    text = SLAB.replace(" 87380  16384  16384    10.01    6068.61\n",
                        " 87380  16384  16384    10.01    6068.61\n 87380  16384  16384    10.01    5877.91\n")
    rows = result_rows(extract_explained(text, "s")[0])
    assert {(r["system"], r["value"]) for r in rows if r["metric"] == "throughput"} == {
        ("slab", 6068.61), ("slab", 5877.91), ("slub", 5646.53)}


@pytest.mark.parametrize("above", ["UDP", "Sequential read", "Server side", "Run 2", "64 threads", "Average"])
def test_a_lone_line_naming_what_a_test_ran_names_no_system(above):
    assert lone_caption(["", above, "", "TCP STREAM TEST from 0.0.0.0"], 3) is None


@pytest.mark.parametrize(("line", "system"), [("'2.6.22 with CFS'", "2.6.22 with CFS"),
                                              ('"vanilla 4.19"', "vanilla 4.19"),
                                              ("/* 2.6.24-rc3 */", "2.6.24-rc3")])
def test_a_line_wholly_in_quotes_or_a_comment_is_a_name_figures_and_all(line, system):
    banner = "Throughput 221.812 MB/sec 16 procs"
    assert lone_caption(["", line, "", banner], 3) == system
    assert lone_caption(["", line.strip("'\"/* "), "", banner], 3) is None  # bare, its figures say how it ran


def test_a_run_parameter_over_a_command_is_no_system_label():
    # https://lore.kernel.org/ (2025, FUSE read throughput on 6.11 and 6.14; tests/fixtures/real/dev/
    # ad_linuxfsdevel_2025_fio_fuse_legacy_iodepth_611_614.txt): `iodepth=4` heads each fio command
    assert system_label("iodepth=4") is None and system_label("iodepth = 4:") is None
    assert system_label("linux-2.4.10-pre12") == "linux-2.4.10-pre12"
    assert system_label("read_latency=8192") == "read_latency=8192"  # a setting that names a configuration


# https://lore.kernel.org/lkml/998877465.801.19.camel@phantasy/ (2001, preempt-kernel patch), lines as posted
PREEMPT_DBENCH = """\
Some benchmarks:

kernel 2.4.8-ac12 (nonpreempt):
dbench 16:
Throughput 12.9453 MB/sec (NB=16.1816 MB/sec  129.453 MBit/sec)
dbench 1:
Throughput 76.0099 MB/sec (NB=95.0123 MB/sec  760.099 MBit/sec)
kernel compile (make dep clean bzImage):
7:35.51 (386.34s user, 23.41s system)

kernel 2.4.8-ac12 with preemptible kernel patch:
dbench 16:
Throughput 13.3579 MB/sec (NB=16.6974 MB/sec  133.579 MBit/sec)
"""


def test_a_command_caption_leaves_the_system_to_the_caption_above_it():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(PREEMPT_DBENCH, "p")[0])
    got = {(r["system"], r["value"]) for r in rows if r["metric"] == "throughput"}
    assert got == {("kernel 2.4.8-ac12 (nonpreempt)", 12.9453), ("kernel 2.4.8-ac12 (nonpreempt)", 76.0099),
                   ("kernel 2.4.8-ac12 with preemptible kernel patch", 13.3579)}


def test_a_setting_alone_above_a_printout_names_its_configuration():
    # https://lore.kernel.org/netdev/20210422075501.20207-3-mohammad.athari.ismail@intel.com/, as posted
    banner = "[  5] local 169.254.1.162 port 42123 connected to 169.254.244.142 port 5201"
    assert lone_caption(["", "DCHE = 0b", banner], 2) == "DCHE = 0b"
    assert lone_caption(["", "read_latency=8192", banner], 2) == "read_latency=8192"
    for how in ("threads = 4", "bs=4k", "iodepth=32", "numjobs = 8"):  # how the test ran, not on what
        assert lone_caption(["", how, banner], 2) is None


def test_an_underlined_setting_heads_the_printouts_of_its_section():
    # https://lore.kernel.org/lkml/20011120023240.B1509@earthlink.net/ (2001, dbench under two elevator read latencies), lines as posted
    lines = ["read_latency = 8192", "-------------------", "/usr/share/man/man3\t\t\treal    30m48.908s", "",
             "# /home/dbench$ ./dbench 50 completes",
             "Throughput 1.91472 MB/sec (NB=2.39339 MB/sec  19.1472 MBit/sec)  50 procs"]
    assert naming_caption(lines, 5) == "read_latency = 8192"
    assert naming_caption(["threads = 4", "-----------", "", "Throughput 1.9 MB/sec  4 procs"], 3) is None


def test_a_numbered_case_alone_above_a_printout_names_it():
    # https://lore.kernel.org/linux-mm/20091207153448.55e11607.nishimura@mxp.nes.nec.co.jp/, lines as posted
    lines = ["(1) no task migration(run on /01)", "",
             "Execl Throughput                                192.7 lps   (29.9 s, 2 samples)",
             "Process Creation                                475.5 lps   (30.0 s, 2 samples)", "",
             "Execl Throughput                                191.2 lps   (29.9 s, 2 samples)"]
    assert naming_caption(lines, 2) == naming_caption(lines, 5) == "no task migration(run on /01)"
    assert naming_caption(["1. How is fork()/exit() affected by this move ?", "", lines[2]], 2) is None


# https://lore.kernel.org/linux-block/e5ec65a0-abfd-8eac-59aa-b715d890126c@gmail.com/ (2021, nullb IOPS
# of a series, patch by patch): each heading stacks patches on the baseline above it
STACKED = """\
# baseline (for-5.16/block)

IOPS=4304768, IOS/call=32/32, inflight=32 (32)
IOPS=4289824, IOS/call=32/32, inflight=32 (32)

# + patch 14/16 (skip advance)

IOPS=4367424, IOS/call=32/32, inflight=0 (16)
IOPS=4401088, IOS/call=32/32, inflight=32 (32)
"""


def test_patches_stacked_on_a_base_name_the_system():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    assert names_system("# + patch 14/16 (skip advance)") == "+ patch 14/16 (skip advance)"
    assert names_system("# + patches 15,16 (switch optimisation)") == "+ patches 15,16 (switch optimisation)"
    rows = result_rows(extract_explained(STACKED, "p", subject="Re: [PATCH 00/16] block optimisation round")[0])
    assert {(r["system"], r["value"]) for r in rows} == {
        ("baseline (for-5.16/block)", 4304768.0), ("baseline (for-5.16/block)", 4289824.0),
        ("+ patch 14/16 (skip advance)", 4367424.0), ("+ patch 14/16 (skip advance)", 4401088.0)}


# https://lore.kernel.org/linux-wireless/20211210180213.3661994-1-davidm@egauge.net/ (2021, wilc1000 PSM)
REMARKED = """\
iperf3 without this patch (no significant different with PSM on/off):
  TX   0.00-120.01 sec   140 MBytes  9.82 Mbits/sec
  RX   0.00-120.69 sec   283 MBytes  19.6 Mbits/sec

with this patch applied:

PSM off (TX is 46% improved, RX slightly improved; may not be significant):
  TX   0.00-120.00 sec   206 MBytes  14.4 Mbits/sec
  RX   0.00-120.48 sec   322 MBytes  22.4 Mbits/sec

PSM on (no significant change):
  TX   0.00-120.00 sec   140 MBytes  9.78 Mbits/sec
  RX   0.00-120.08 sec   257 MBytes  18.0 Mbits/sec
"""


def test_a_remark_in_parentheses_before_a_labels_colon_is_no_part_of_the_name():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    assert system_label("PSM on (no significant change):") == "PSM on"
    assert system_label("2.6.24 (ext3):") == "2.6.24 (ext3)"  # a short aside names the setup
    rows = result_rows(extract_explained(REMARKED, "o", subject="[PATCH] wilc1000: fix PSM wakeup")[0])
    assert {(r["system"], r["value"]) for r in rows} >= {
        ("PSM off", 14.4), ("PSM off", 22.4), ("PSM on", 9.78), ("PSM on", 18.0)}


def test_a_caption_naming_the_tool_and_what_ran_then_a_condition_names_the_condition():
    # https://lore.kernel.org/netdev/20231116054350.620420-1-vishvambarpanth.s@microchip.com/
    assert tool_condition("iperf3 UDP bidirectional with DSPACE set to 16 Bytes") == "with DSPACE set to 16 Bytes"
    assert tool_condition("iperf3 UDP bidirectional with DSPACE set to L1 CACHE Size:") == \
        "with DSPACE set to L1 CACHE Size"
    assert tool_condition("iperf3 without this patch:") == "without this patch"
    # https://lore.kernel.org/netdev/20191225005655.1502037-2-martin.blumenstingl@googlemail.com/: before, after
    assert tool_condition("iperf3 results before the change:") == "before the change"
    assert tool_condition("iperf3 results after the change (including an updated TX delay of 2ns):") == \
        "after the change (including an updated TX delay of 2ns)"
    assert tool_condition("iperf3 runs much faster with this patch applied, as expected.") is None  # a sentence
    assert tool_condition("The iperf3 numbers with the patch:") is None  # not set off by the tool's name
    assert tool_condition("fio -rw=randread --bs=4k") is None  # a command line


# https://lore.kernel.org/qemu-devel/20250414185414.2922845-1-hibriansong@gmail.com/ (its lines, the
# reports cut to their summary): a condition heading, then the device the test ran on, then fio's report
DEVICE_UNDER_CONDITION = """\
The specific testing method and results are as follows:

guest $ sudo fio --filename=/dev/vda --ioengine=io_uring --direct=1 --name=randread \\
                 --readwrite=randread --iodepth=64 --numjobs=1 --blocksize=4k

** Guest with fixed file table support: **

**vda (guest.img)**

randread: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=io_uring, iodepth=64
fio-3.39
Starting 1 process

Run status group 0 (all jobs):
   READ: bw=496MiB/s (520MB/s), 496MiB/s-496MiB/s (520MB/s-520MB/s), io=14.5GiB (15.6GB), run=30001-30001msec



** Guest without fixed file table support**

** vda **
randread: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=io_uring, iodepth=64
fio-3.39
Starting 1 process

Run status group 0 (all jobs):
   READ: bw=490MiB/s (514MB/s), 490MiB/s-490MiB/s (514MB/s-514MB/s), io=14.4GiB (15.4GB), run=30001-30001msec
"""


def test_a_device_named_under_a_condition_leaves_the_system_to_the_condition():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(DEVICE_UNDER_CONDITION, "d")[0])
    got = {(r["system"], r["value"]) for r in rows if r["metric"] == "aggregate_bandwidth"}
    assert got == {("Guest with fixed file table support", 507904.0),
                   ("Guest without fixed file table support", 501760.0)}


def test_a_sentence_leading_into_the_output_names_no_system():
    # https://lore.kernel.org/lkml/8355959a0701201312r9a3aac4ufd151ca18ef7e64e@mail.gmail.com/ (its lines)
    text = ("I am still getting better I feel:\n\n"
            "[sukhoi@Typhoon ~]$ time dd if=/dev/zero of=/tmp/1GB bs=1M count=1024; time sync\n"
            "1024+0 records in\n1024+0 records out\n"
            "1073741824 bytes (1.1 GB) copied, 19.5007 seconds, 55.1 MB/s\n")
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(text, "d")[0])
    assert {(r["system"], r["value"]) for r in rows} == {(None, 19.5007), (None, 55.1)}
    assert system_label("We see the following:") is None and system_label("I get these numbers:") is None
    assert system_label("We tested 2.6.20-rc5:") == "We tested 2.6.20-rc5"  # a release in it: left to the reader


@pytest.mark.parametrize(("line", "system"), [
    # https://lore.kernel.org/netdev/20210514130018.GC12395@shell.armlinux.org.uk/ (its line)
    ("the interface by lowering the MTU. Here is a MTU of 9000:", "MTU of 9000"),
    ("Here are the results for 2.6.24-rc3:", "2.6.24-rc3"),
    ("Here is 2.6.24-rc3:", "2.6.24-rc3"),
    ("Here are the results:", None),
    # the same post, the next printout's caption: the condition, then `it was`
    ("Whereas before the test, it was:", "before the test"),
    ("With the patch applied, I get:", "With the patch applied"),
    ("Anyway, it was:", None),
])
def test_here_is_names_what_follows(line, system):
    assert system_label(line) == system


def test_a_line_that_is_one_setting():
    # https://lore.kernel.org/lkml/bd083d8d-023a-698e-701b-725f1b15766e@amd.com/ (`o NPS1` over each table)
    assert setting_of("o NPS1") == ("NPS", "1")
    assert setting_of("- NPS4 mode") == ("NPS", "4")
    assert setting_of("NPS=2") == ("NPS", "2") and setting_of("cpusched=staircase") == ("cpusched", "staircase")
    assert setting_of("o tbench") is None and setting_of("2.6.20") is None and setting_of("o NPS1 is slower") is None


# https://lore.kernel.org/bpf/24f1f083-92cd-4576-ac1f-2c53861ebc3f@intel.com/ (its quoted lines)
SIDES_UNDER_CONDITIONS = """\
without patch...

Client:
$ iperf3 -u -c 192.168.93.1 -t86400 -l1200 -P20 -b5G
...
[SUM]  10.00-10.33  sec   626 MBytes  16.0 Gbits/sec  546909

with patch...

Client:
$ iperf3 -u -c 192.168.93.1 -t86400 -l1200 -P20 -b5G
...
[SUM]  78.00-78.90  sec  2.01 GBytes  19.1 Gbits/sec  1801284
"""


def test_the_side_of_a_network_test_leaves_the_system_to_the_condition_above():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(SIDES_UNDER_CONDITIONS, "s")[0])
    got = {(r["system"], r["value"]) for r in rows}
    assert got == {("without patch...", 16000.0), ("with patch...", 19100.0)}


# https://lore.kernel.org/qemu-devel/20210909202639.1230170-1-atish.patra@wdc.com/ (its lines)
UNDER_PERF = """\
Perf stat:
==========

[root@fedora-riscv riscv]# perf stat -e cycles ./hackbench -pipe 15 process
Running with 15*40 (== 600) tasks.
Time: 6.578

 Performance counter stats for './hackbench -pipe 15 process':

             6,491      r8000000000000005      (52.59%) --> SBI_PMU_FW_SET_TIMER

Perf record:
============

[root@fedora-riscv riscv]# perf record -e cycles ./hackbench -pipe 15 process 15
Running with 15*40 (== 600) tasks.
Time: 1.238
"""


def test_a_caption_saying_the_run_was_under_perf_and_a_counter_line_name_no_system():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(UNDER_PERF, "p")[0])
    assert {(r["benchmark"], r["system"], r["value"]) for r in rows} == {("hackbench", None, 6.578),
                                                                         ("hackbench", None, 1.238)}
    assert names_system("6,491      r8000000000000005      (52.59%) --> SBI_PMU_FW_SET_TIMER") is None


def test_the_first_line_of_a_paragraph_whose_sentence_goes_on_is_no_caption():
    # https://lore.kernel.org/linux-raid/CAF_BDZ_mo=5Xqd0dC3boqHThF=vuO9BO_3gBFZ_r2wvL2=ESUQ@mail.gmail.com/ (its lines)
    lines = ["After doing some operations on array (random reads/writes) speed",
             "sometimes recovers, giving about 2k IOPS on linear read, then again",
             "drops.", "", "fio --name=read"]
    assert naming_caption(lines, 4) is None
    assert naming_caption(["After the patch", "", "fio --name=read"], 2) == "After the patch"


@pytest.mark.parametrize(("caption", "system"), [
    # https://lore.kernel.org/lkml/20191224173529.zudlfsjvdqrbayqx@pali/ (its line)
    ("Disk speed test on Stretch:", "Stretch"),
    ("hdparm results on Buster:", "Buster"),
    ("Results on 2.6.20:", "2.6.20"),
    ("Running on top of it:", None),  # no test's words before `on`
    ("Disk speed test on Stretch", None),  # no label: the colon makes it one
])
def test_a_tests_words_then_on_name_what_it_ran_on(caption, system):
    assert names_system(caption) == system


def test_a_shell_trace_of_a_command_names_no_system():
    # https://lore.kernel.org/linux-block/20230328195626.12075-1-kch@nvidia.com/: `set -x` over the
    # fio run prints each command it ran; the last one above the report is no caption
    from transforms.parsers._common import system_label
    from transforms.shell import traced

    assert system_label("+ dmesg -c") is None and traced("+ dmesg -c") and traced("++ nproc --all")
    assert system_label("+ patched") == "patched" and not traced("+ with the patch:")


def test_a_caption_saying_how_a_tool_ran_names_no_system():
    # the real-posts issue's command line, then output (#10): `Ran hackbench ten times each:` says what
    # ran and how; `dbench on ext3` says on what; a caption's leading `and` is no part of the system
    from transforms.parsers._common import system_label

    assert system_label("Ran hackbench ten times each:") is None
    assert system_label("I run 10 times dbench on ext3 and i have the following:") is not None
    assert system_label("and with the patch:") == "with the patch"


def test_a_caption_leading_in_with_and_names_what_follows_it():
    # the real-posts issue's tool output under a caption (#10): `and after enabling the prefetcher:`
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    table = ("Function    Best Rate MB/s  Avg time     Min time     Max time\n"
             "Copy:           {:.1f}     0.008102     0.008051     0.008213\n")
    text = "STREAM on the Ampere box:\n\n" + table.format(19873.2) + "\nand after enabling the prefetcher:\n\n" \
        + table.format(21002.9)
    got = {(r["system"], r["value"]) for r in result_rows(extract_explained(text, "m")[0]) if r["metric"] == "copy"}
    assert got == {("the Ampere box", 19873.2), ("after enabling the prefetcher", 21002.9)}


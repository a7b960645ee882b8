"""Benchmark evidence: tool names as words only, and with/without phrasing."""

from transforms.extract import extract_explained
from transforms.handmade.evidence import benchmarks_in, has_evidence, other_benchmark, with_without
from transforms.rows import result_rows


def test_tool_names_count_only_as_words():
    text = "upstream TCP_STREAM portfolio address; I ran STREAM triad and dd if=/dev/zero with fio"
    assert benchmarks_in(text) == ["netperf", "stream", "dd", "fio"]


def test_plain_english_stream_is_no_evidence():
    assert not has_evidence("a stream of packets went upstream", None)
    assert has_evidence("see numbers below", "[PATCH] sched: hackbench regression")


def test_names_posters_give_stream_and_dbench_by_their_build_or_version():
    # https://lore.kernel.org/lkml/YbnW/vLgE8MmQopN@BLR-5CG11610CF.amd.com/ (2021): `Stream with 16 threads.`
    # and its build line; https://lore.kernel.org/lkml/20050919200136.GA22144@kevlar.burdell.org/ (2005): `dbench3`
    assert benchmarks_in("Stream with 16 threads.") == ["stream"]
    assert benchmarks_in("built with -DSTREAM_ARRAY_SIZE=128000000, -DNTIMES=10") == ["stream"]
    assert benchmarks_in("dbench3 (16)\t1089.14 MB/sec") == ["dbench"]
    assert not has_evidence("we stream with 4 cameras", None)
    # https://lore.kernel.org/linux-mm/1186575947.3106.23.camel@castor.rsk.org/ (2007): the block size first
    assert benchmarks_in("dd bs=64k if=[sda]/data3g of=[sda]/temp_data3g &") == ["dd"]


def test_with_and_without_wrapped_over_two_lines():
    lines = ["SELinux enabled with and without these", "patches."]
    assert with_without(lines) == ("with these patches", "without these patches")


def test_caption_naming_another_benchmark():
    assert other_benchmark("schbench  99.0th tail latency") == "schbench"
    assert other_benchmark("tbench throughput") is None
    # https://lore.kernel.org/lkml/YbcEE/mgIAhWuS+A@BLR-5CG11610CF.amd.com/ (after the tbench tables)
    assert other_benchmark("YCSB + Mongodb.") == "YCSB"
    # https://lore.kernel.org/lkml/41E4BB99.90908@zanfx.com/ (2005): tiobench's own program, over its
    # table in a post that runs bonnie++ too
    assert other_benchmark("Tiotest results for 4 concurrent io threads:") == "Tiotest"


def test_a_long_tool_name_after_an_underscore_names_it():
    # https://lore.kernel.org/lkml/20230912065808.2530-2-aaron.lu@intel.com/ (`postgres_sysbench on SPR:`)
    assert benchmarks_in("postgres_sysbench on SPR:") == ["sysbench"]
    assert benchmarks_in("run_fio.sh and portfolio") == []  # short names still need a word boundary
    assert benchmarks_in("netperf TCP_STREAM and UDP_STREAM") == ["netperf"]  # not STREAM


def test_dd_counted_in_a_case_name_names_dd():
    # https://lore.kernel.org/linux-mm/20111003135902.GA16518@localhost/ (`xfs-10dd-4k-8p-4096M-20:10-X`)
    assert benchmarks_in("3G-UKEY-HDD/xfs-10dd-4k-8p-4096M-20:10-X") == ["dd"]
    assert benchmarks_in("thresh=1G/btrfs-100dd-4k-8p") == ["dd"]
    # a hex number, a decimal, a word, dd alone: no tool
    assert benchmarks_in("0xa0dd 1.5dd odd add dd/mm 10dda") == []
    # a code, not a count: `(XEN) d39:v1: unhandled page fault (ec=00dd)` (generated corpus, Xen logs)
    assert benchmarks_in("unhandled page fault (ec=00dd) 00dd") == []


def test_a_path_ending_in_fio_then_a_blank_runs_fio():
    # https://lore.kernel.org/lkml/CAD14+f1YoiSVvq2M1v8u5bUdCNN_0nurY4ued6ZFu1gaBSHxDw@mail.gmail.com/
    assert benchmarks_in("Test w/:\n    ./fio --name=onessd --filename=/data/test") == ["fio"]
    assert benchmarks_in("/usr/bin/fio job.fio") == ["fio"]
    # a path through a directory of that name, an option, a file: no run
    assert benchmarks_in("cd /usr/src/fio/ && make; --fio=1; t/fio.c") == []


def test_stream_scores_name_stream():
    # https://lore.kernel.org/lkml/3A8A8AAC.C04F8C2@linux.nu/
    assert benchmarks_in("> Stream scores.  it's been a while since I ran Stream") == ["stream"]
    assert benchmarks_in("the stream of scores") == []


def test_a_table_under_another_benchmarks_name_is_not_ours_whatever_its_heads():
    # https://lore.kernel.org/lkml/20030425230939.GA2281@rushmore/ (its lines): tiobench's tables, far
    # below lmbench's, with heads (`Latency`, `Rate`) that sysbench also prints
    from transforms.handmade.evidence import attribute

    lines = ["lmbench latency, 2.5.68 vs 2.5.68-mm2", "", "tiobench-0.3.3", "Unit information", "",
             "Sequential Reads ext2", "               Num                    Avg       Maximum",
             "Kernel         Thr   Rate  (CPU%)   Latency     Latency",
             "2.5.68           1   28.77 13.23%     0.405      592.14"]
    assert attribute(lines, 5, 9, None, {"sysbench": 2}) is None
    lines[2] = "sysbench 0.4"  # our tool named nearer: the heads may speak
    assert attribute(lines, 5, 9, None, {"sysbench": 2}).benchmark == "sysbench"


# https://lore.kernel.org/dm-devel/20210208085243.82367-1-jefflexu@linux.alibaba.com/ (its lines): fio
# never named, its job options are
DM_POLL = """\
1. One thread (numjobs=1) randread (bs=4k, direct=1) one dm-linear
device, which is built upon 3 nvme devices, with one polling hw queue
per nvme device.

     | IOPS (IRQ mode) | IOPS (iopoll=1 mode) | diff
---- | --------------- | -------------------- | ----
  dm | \t\t  208k |\t\t 279k | ~34%
"""


def test_fio_job_options_name_fio():
    got = [(r["benchmark"], r["system"], r["metric_label"], r["value"], r["params"].get("scale"))
           for r in result_rows(extract_explained(DM_POLL, "m")[0])]
    assert got == [("fio", "dm", "IOPS (IRQ mode)", 208.0, "k"), ("fio", "dm", "IOPS (iopoll=1 mode)", 279.0, "k")]

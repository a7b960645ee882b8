"""Re-typed summaries (transforms/handmade/summaries.py): lines of several `Key: value` pairs."""

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_explained
from transforms.handmade.metrics import resolve_unit
from transforms.handmade.summaries import _pairs
from transforms.rows import result_rows

# https://lore.kernel.org/lkml/17740000.1046989368@flay/ (2003, "Re: HT and idle = poll", kernbench quoted)
HT = """\
>> Kernbench on 2.5.64-HTschedB3, make -j2:
>>
>> idle != poll: Elapsed: 136.692s User: 249.846s System: 30.596s CPU: 204.8%
>> idle  = poll: Elapsed: 161.868s User: 295.738s System: 32.966s CPU: 202.6%
"""


def test_a_line_of_pairs_names_its_system_first():
    lead, pairs = _pairs("idle != poll: Elapsed: 136.692s User: 249.846s System: 30.596s CPU: 204.8%")
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
    assert _pairs("The run took Elapsed: 136s and then User: 249s later") is None
    assert _pairs("[ 11s ] thds: 256 tps: 1234.5 qps: 24690.2") is None
    assert _pairs("Date: 12 Cc: 3") is None
    assert _pairs("Size: 4GB Rev: 3a") is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aEl: 0123.4s%,/-[]>\t")), max_size=300))
def test_pairs_never_raise_and_keep_printed_numbers(line):
    found = _pairs(line)
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
    assert _pairs("   IOPS=815, BW=102MiB/s (107MB/s)(6113MiB/60001msec)") == (
        None, [("IOPS", 815.0, None), ("BW", 102.0, "MiB/s")])
    # https://lore.kernel.org/lkml/ (2019, kernel stack randomization: lmbench lines under labels)
    assert _pairs("With rdrand (every 10th syscall):\t\tSimple syscall: 0.0719 microseconds") == (
        "With rdrand (every 10th syscall)", [("Simple syscall", 0.0719, "us")])
    assert _pairs("fio --bs=4k --iodepth=32 --numjobs=4") is None
    assert _pairs("Note: size: 4") is None


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

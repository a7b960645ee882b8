"""Tool output lines behind a label name their system (transforms/labelled.py)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_explained
from transforms.labelled import unlabel
from transforms.rows import result_rows

# https://lore.kernel.org/netdev/ (2025, "net: ps3_gelic_net: Use napi routines for RX SKB"), as posted
PS3 = """\
iperf3 before and after the commit, where PS3 (with this driver) is on
the receiving side:
Before: [  5]   0.00-10.00  sec   551 MBytes   462 Mbits/sec receiver
After:  [  5]   0.00-10.00  sec  1.09 GBytes   939 Mbits/sec receiver

stats from the sending client to the PS3:
Before: [  5]   0.00-10.00  sec   552 MBytes   463 Mbits/sec  3151 sender
After:  [  5]   0.00-10.00  sec  1.09 GBytes   940 Mbits/sec   37  sender
"""


def test_each_labelled_line_is_read_and_its_label_is_the_system():
    rows = result_rows(extract_explained(PS3, "p")[0])
    got = {(r["system"], r["params"]["side"], r["value"]) for r in rows if r["metric"] == "throughput"}
    assert got == {("Before", "receiver", 462.0), ("After", "receiver", 939.0),
                   ("Before", "sender", 463.0), ("After", "sender", 940.0)}


def test_labels_are_blanked_in_place_and_prose_is_left_alone():
    lines, labels = unlabel(PS3.split("\n"))
    assert labels == {2: "Before", 3: "After", 6: "Before", 7: "After"}
    assert lines[3].startswith(" " * 8 + "[  5]") and len(lines[3]) == len(PS3.split("\n")[3])
    assert unlabel(["Note: 5 runs were made", "and nothing else"]) == (["Note: 5 runs were made", "and nothing else"], {})


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(list("Beforat: [5]0.1 sMbi/\t")), max_size=80), max_size=12))
def test_unlabel_keeps_every_line_and_its_length(lines):
    out, labels = unlabel(lines)
    assert len(out) == len(lines)
    assert all(len(a) == len(b) for a, b in zip(out, lines, strict=True))
    assert all(lines[i].lstrip().startswith(lab) for i, lab in labels.items())


def test_lines_told_apart_by_their_labels_are_no_repeats():
    rows = result_rows(extract_explained(PS3, "p")[0])
    assert not any("repeat" in r["params"] for r in rows)


# https://lore.kernel.org/lkml/20011225131430.A13534@earthlink.net/ : each kernel's name typed before the
# line dbench printed, a tab and no colon between them
KERNELS = """\
dbench 128 on Athlon

2.4.17rc2aa1\tThroughput 41.7986 MB/sec (NB=52.2483 MB/sec  417.986 MBit/sec)  128 procs
2.4.17-rc2\tThroughput 18.1516 MB/sec (NB=22.6895 MB/sec  181.516 MBit/sec)  128 procs
2.4.17-rc2\tThroughput 20.4923 MB/sec (NB=25.6153 MB/sec  204.923 MBit/sec)  128 procs
2.5.1-dj3\tThroughput 26.363 MB/sec  (NB=32.9537 MB/sec  263.63 MBit/sec)   128 procs
"""


def test_a_version_typed_before_each_printed_line_is_its_system():
    rows = result_rows(extract_explained(KERNELS, "k")[0])
    got = {(r["system"], r["params"].get("repeat"), r["value"]) for r in rows if r["metric_label"] == "Throughput"}
    assert got == {("2.4.17rc2aa1", None, 41.7986), ("2.4.17-rc2", "1", 18.1516), ("2.4.17-rc2", "2", 20.4923),
                   ("2.5.1-dj3", None, 26.363)}
    assert {r["layout"] for r in rows} == {"tool_output"}


def test_a_table_row_after_a_plain_word_is_no_labelled_line():
    rows = ["base      123.4   130.2", "patched   124.0   131.9", "Throughput  41.2 MB/sec  4 procs"]
    assert unlabel(rows) == (rows, {})

"""Results in sentences: `<metric> went from <a> to <b>` read as two values, before and after."""

import re
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_explained
from transforms.handmade.prose import (
    arrows,
    figure_words,
    figures_with,
    from_to,
    got_values,
    named_arrow,
    named_versus,
    read_prose,
    tool_says,
)
from transforms.rows import result_rows

# https://lore.kernel.org/lkml/ (2019, "[RFC PATCH v2 00/17] Core scheduling v2" thread), excerpt
NUMA = """\
Here is another one for task numa migration. We saw significant latency
improvement of workload sysbench MYSQL+gemmbench, for the overloaded case
on a 8-node system, the latency is reduced from 93.78ms to 28.36ms. So I
think it's worth to post this twist to draw more ideas and better solutions.
"""

WENT = "With netperf TCP_STREAM the throughput went from 1,234 MB/s to 1500 MB/s with the patch.\n"


def _rows(text: str) -> list[dict]:
    return result_rows(extract_explained(text, "p")[0])


def test_reduced_from_to_gives_before_and_after():
    got = sorted((r["benchmark"], r["metric"], r["value"], r["unit"], r["params"]["when"]) for r in _rows(NUMA))
    assert got == [("sysbench", "latency", 28.36, "ms", "after"), ("sysbench", "latency", 93.78, "ms", "before")]
    assert {r["layout"] for r in _rows(NUMA)} == {"prose"}


def test_went_from_to_with_the_patch_names_the_second_system():
    got = sorted((r["value"], r["system"], r["unit"], r["params"]["when"]) for r in _rows(WENT))
    assert got == [(1234.0, None, "MB/s", "before"), (1500.0, "with the patch", "MB/s", "after")]
    assert {r["benchmark"] for r in _rows(WENT)} == {"netperf"}


def test_a_change_named_by_a_noun_gives_before_and_after():
    # https://lore.kernel.org/netdev/20250218023908.1755-1-jasowang@redhat.com/ (the real-posts
    # corpus file): `single session netperf ... shows 82% improvement from 31Gb/s to 58Gb/s`
    line = "session netperf from guest to host shows 82% improvement from 31Gb/s to 58Gb/s, %stddev were reduced"
    assert [(v.value, v.unit, v.when) for v in from_to(0, line)] == [(31.0, "Gb/s", "before"), (58.0, "Gb/s", "after")]
    got = [(v.value, v.label) for v in from_to(0, "we saw a drop in throughput from 950 to 610 Mbit/s")]
    assert got == [(950.0, "throughput"), (610.0, "throughput")]
    assert from_to(0, "an improvement of the stddev from 34.5% to 1.9%") == []


def test_percentages_and_unitless_counts_are_no_results():
    assert from_to(0, "CPU usage went from 30% to 45% with netperf") == []
    assert from_to(0, "the number of threads went from 4 to 8 in that run") == []


_word = st.sampled_from(["latency", "throughput", "went", "is", "reduced", "from", "to", "ms", "MB/s", "the",
                         "1,234", "12.5", "7", "~", "k", "x", " ", "  "])


@settings(max_examples=200, deadline=None)
@given(st.lists(_word, max_size=30).map(" ".join))
def test_from_to_values_are_printed_numbers(line):
    printed = {float(t.replace(",", "")) for t in re.findall(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?", line)}
    for v in from_to(0, line):
        assert v.value in printed
        assert v.when in ("before", "after")


def test_from_to_is_linear():
    for bad in ("latency went from " * 5000, "a" * 100_000 + " from 1 to 2", "x is " * 20_000 + "from 1"):
        t = time.perf_counter()
        from_to(0, bad)
        assert time.perf_counter() - t < 1.0


def test_an_arrow_gives_the_value_before_and_after():
    # https://lore.kernel.org/linux-block/ (2021, bio-based IO polling: `IOPS: 332k (IRQ) -> 363k (iopoll)`)
    got = [(p.value, p.system, p.label, p.scale, p.when) for p in arrows(0, "IOPS: 332k (IRQ) -> 363k (iopoll), aka ~10%")]
    assert got == [(332.0, "IRQ", "IOPS", "k", None), (363.0, "iopoll", "IOPS", "k", None)]
    got = [(p.value, p.system, p.when) for p in arrows(0, "leiming: 674 -> 849")]
    assert got == [(674.0, "leiming", "before"), (849.0, "leiming", "after")]
    assert arrows(0, "3 -> 4") == [] and arrows(0, "cpu 5% -> 7%") == []


def test_an_arrow_wrapped_onto_the_next_line_and_a_figure_ending_the_sentence():
    # https://lore.kernel.org/lkml/Pine.LNX.4.30.0101090000110.9761-100000@ferret.lmh.ox.ac.uk/, as posted
    lines = ["1) Amazing 2.4 increase in streaming write performance; 13Mb/sec ->",
             "20Mb/sec. I suspect this is the result of the \"last minute\" 2.4.0 dirty"]
    got = [(p.line, p.value, p.unit, p.when) for p in read_prose(lines, set())]
    assert got == [(0, 13.0, "Mb/s", "before"), (0, 20.0, "Mb/s", "after")]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab: 0123.4kMs%()->=→\t")), max_size=200))
def test_arrows_never_raise(line):
    for p in arrows(0, line):
        assert p.when in ("before", "after", None)


def test_a_tool_named_beside_its_one_value():
    # https://lore.kernel.org/lkml/200507041530.SAA02324@raad.intranet/, as posted
    got = tool_says(0, "Hdparm -tT gives 38mb/s in 2.4.31")
    assert [(v.value, v.unit, v.system, v.label) for v in got] == [(38.0, "Mb/s", "2.4.31", "Hdparm -tT")]
    # https://lore.kernel.org/lkml/200512060005.04556.rjw@sisk.pl/, as quoted
    got = tool_says(0, "> good for about 18 MB/sec according to hdparm -t.")
    assert [(v.value, v.unit, v.system, v.label) for v in got] == [(18.0, "MB/s", None, "hdparm -t")]
    assert tool_says(0, "ATA100 suggests a maximum throughput of 100 MB/s. What should I expect?") == []
    rows = result_rows(extract_explained("Hdparm -tT gives 38mb/s in 2.4.31\n", "h")[0])
    assert [(r["benchmark"], r["system"], r["value"], r["unit"]) for r in rows] == [("hdparm", "2.4.31", 38.0, "MB/s")]


def test_a_sentence_wrapped_over_two_lines_is_read_once():
    # https://lore.kernel.org/virtualization/20250221170626.261687-1-eperezma@redhat.com/, as posted
    lines = ["After applying these patches, fio read test goes from 1124MiB/s to", "1263.14MiB/s.", ""]
    got = read_prose(lines, set())
    assert [(v.line, v.value, v.unit, v.when) for v in got] == [(0, 1124.0, "MiB/s", "before"), (0, 1263.14, "MiB/s", "after")]


def test_a_key_then_from_to():
    # https://lore.kernel.org/linux-usb/20230518204947.3770236-1-Frank.Li@nxp.com/, one line as posted
    got = from_to(0, "Transmit speed (TX): Improved from 299Mbps to 440Mbps")
    assert [(v.label, v.value, v.unit, v.when) for v in got] == [
        ("Transmit speed (TX)", 299.0, "Mb/s", "before"), ("Transmit speed (TX)", 440.0, "Mb/s", "after")]  # bits for iperf


def test_a_rate_a_verb_of_getting_puts_in_a_sentence():
    # https://lore.kernel.org/lkml/20070110223731.GC44411608@melbourne.sgi.com/ (its lines)
    text = ("for i in 1 2 3; do dd if=/dev/zero of=/mnt/$i/f bs=1024k count=800k & done\n\n"
            "Overall, on 2.6.18 this gave an average of about 240MB/s per\n"
            "filesystem with minimum write rates of about 190MB/s per fs\n")
    got = {(r["benchmark"], r["system"], r["value"], r["unit"]) for r in _rows(text)}
    assert ("dd", "2.6.18", 240.0, "MB/s") in got
    # https://lore.kernel.org/lkml/87itkaup0g.fsf@danube.cs.umbc.edu/ (its words)
    assert [(v.value, v.unit) for v in got_values(0, "i get about 6MB/s without DMA (under 2.4)")] == [(6.0, "MB/s")]
    # a duration is seldom a result, a share never
    assert got_values(0, "the build got 5 seconds faster and 3% smaller") == []


@given(st.text(alphabet="gotabu 0123456789MB/s~.", max_size=400))
@settings(max_examples=150, deadline=None)
def test_got_values_never_raises_and_reads_rates_only(line):
    for v in got_values(0, line):
        assert v.unit in {"MB/s", "B/s"} and v.value >= 0


# https://lore.kernel.org/linux-xfs/20210112010746.1154363-1-david@fromorbit.com/ (its lines): the
# sentence's subject ends the line above, the change and its scaled figures begin the next
SUBBLOCK = """\
Tested using fio with AIO+DIO randrw to a written file. Performance
increases from about 20k IOPS to 150k IOPS, which is the limit of
the setup I was using for testing.
"""


def test_a_change_whose_subject_ends_the_line_above_keeps_its_scale():
    got = sorted((r["benchmark"], r["metric"], r["value"], r["unit"], r["params"]["scale"], r["params"]["when"])
                 for r in _rows(SUBBLOCK))
    assert got == [("fio", "iops", 20.0, "IOPS", "k", "before"), ("fio", "iops", 150.0, "IOPS", "k", "after")]


# https://lore.kernel.org/lkml/20250321142859.13889-1-torvic9@mailbox.org/ (its lines, cut): the arrows'
# sides named once above (`generic --> native`), each figure under the key of what it measured
PHORONIX = """\
Here are some numbers comparing 'generic' to 'native' on a Skylake dual-core
laptop (generic --> native):

  - phoronix, average of 3 runs:
      ffmpeg:
      130.99 --> 131.15                        (+0.122 %)
      hackbench (lower is better):
      102.27 --> 99.50                         (-2.709 %)

  - xz compression of firefox tarball (lower is better):
      319.57 seconds --> 317.34 seconds        (-0.698 %)
"""


def test_an_arrow_under_the_tools_key_takes_the_legends_names():
    got = sorted((r["benchmark"], r["system"], r["metric_label"], r["value"]) for r in _rows(PHORONIX))
    assert got == [("hackbench", "generic", "hackbench (lower is better)", 102.27),
                   ("hackbench", "native", "hackbench (lower is better)", 99.5)]  # ffmpeg and xz are no hackbench


def test_before_and_after_without_units_keep_every_digit():
    # the form the real-posts issue quotes: `before 2741 after 2231 (-18%)`
    got = [(p.value, p.unit, p.system) for p in read_prose(["hackbench 50 process: before 2741 after 2231 (-18%)"], set())]
    assert got == [(2741.0, None, "before"), (2231.0, None, "after")]
    got = [(p.value, p.unit) for p in read_prose(["before 450Mbps after 941 Mbps"], set())]
    assert got == [(450.0, "Mb/s"), (941.0, "Mb/s")]


def test_two_values_set_against_each_other_name_their_systems():
    got = [(p.value, p.unit, p.system) for p in read_prose(
        ["netperf throughput: 9234 Mbit/s (vanilla) vs 9410 Mbit/s (patched)"], set())]
    assert got == [(9234.0, "Mbit/s", "vanilla"), (9410.0, "Mbit/s", "patched")]
    assert read_prose(["3 (a) vs 4 (b) of the runs"], set()) == []  # no unit: counts


def test_a_key_over_an_arrow_is_read_as_before_and_after():
    rows = result_rows(extract_explained("tbench 8 clients: 2300 MB/s -> 2450 MB/s\n", "m")[0])
    assert [(r["value"], r["params"].get("when")) for r in rows] == [(2300.0, "before"), (2450.0, "after")]


def test_versus_is_linear():
    from transforms.handmade.prose import versus

    for bad in ("1 (a) vs " * 10_000, "9 MB/s (" + "x" * 50_000, "1 " * 30_000 + "vs"):
        t = time.perf_counter()
        versus(0, bad)
        assert time.perf_counter() - t < 1.0


def test_from_to_names_the_release_of_each_value_and_reads_scales():
    # https://lore.kernel.org/linux-mm/83a0e3ef-acfa-a2af-2770-b9a92bda41bb@mellanox.com/
    line = "and see a drastic degradation in BW, from 47.5 G in v4.10 to 31.4 G in v4.11-rc1"
    got = [(v.value, v.scale, v.system, v.label, v.when) for v in from_to(0, line)]
    assert got == [(47.5, "G", "v4.10", "BW", "before"), (31.4, "G", "v4.11-rc1", "BW", "after")]
    # https://lore.kernel.org/lkml/3F9D2111.3020109@vgertech.com/
    got = [(v.value, v.scale) for v in from_to(0, "> then the buffered disk read goes from 1.5M to 55M")]
    assert got == [(1.5, "M"), (55.0, "M")]
    assert from_to(0, "the number of threads went from 4 to 8 in that run") == []


def test_one_measure_named_by_its_metric_is_read():
    # https://lore.kernel.org/netdev/1d3ac973-7bc7-4abe-9fe2-6b17dbba223b@linux.microsoft.com/
    got = [(p.value, p.unit, p.system, p.label) for p in read_prose(
        ["For reference, the throughput is 35.6 Gbits/sec when using skb_linearize"], set())]
    assert got == [(35.6, "Gbit/s", None, "throughput")]
    assert read_prose(["the file size is 4 GB"], set()) == []  # no metric, no rate


def test_names_each_with_a_figure_in_brackets_compared():
    # https://lore.kernel.org/linux-xfs/fddda0be-3679-46ae-836c-26580a8d55f4@linux.alibaba.com/ (its lines,
    # quoted): unixbench's shell1 index, with no unit, the comparison saying what is measured against what
    text = ">> XFS (35649.6) is still lower than EXT4 (37146.0) by 4% and\n>> the kconfig is attached.\n"
    runs = extract_explained(text, "x", subject="Re: [report] Unixbench shell1 performance regression")[0]
    got = [(r["benchmark"], r["system"], r["value"]) for r in result_rows(runs)]
    assert got == [("unixbench", "XFS", 35649.6), ("unixbench", "EXT4", 37146.0)]
    assert [(v.system, v.value, v.when) for v in named_arrow(0, "then recovered: XFS (35649.6 -> 37810.9)")] == [
        ("XFS", 35649.6, "before"), ("XFS", 37810.9, "after")]
    # footnote marks and shares are no figures compared
    assert named_versus(0, "see patch (1) rather than patch (2)") == []
    assert named_versus(0, "user (12%) is higher than sys (3%)") == []


_named_word = st.sampled_from(["XFS", "(", ")", "35649.6", "1,234", "is", "lower", "than", "vs", "->", "EXT4",
                               "MB/s", " ", "(12.5)", "(3 -> 4)"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_named_word, max_size=30).map(" ".join))
def test_named_figures_are_printed_numbers(line):
    printed = {float(t.replace(",", "")) for t in re.findall(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?", line)}
    for v in named_versus(0, line) + named_arrow(0, line):
        assert v.value in printed and v.system


# https://lore.kernel.org/netdev/cc58c09e-bbb5-354a-2030-bf8ebb2adc86@iogearbox.net/ : figures each followed by when
BEFORE_AFTER_WORDS = """\
The regression shows as a significant drop in throughput as measured
with "super_netperf" [0],
with measured bandwidth of ~95Gbps before and ~35Gbps after:
"""
# https://lore.kernel.org/lkml/Pine.LNX.4.64.0701111832080.3673@p34.internal.lan/ (a dd thread): each followed by
# what was done, the condition leading the sentence
DONE_WORDS = """\
Without the tweaks, I get 111MB/s write and 87MB/s read.
With the tweaks, 195MB/s write and 211MB/s read.
"""


def test_figures_each_followed_by_before_or_after():
    got = {(r["system"], r["metric_label"], r["value"]) for r in _rows(BEFORE_AFTER_WORDS)}
    assert got == {("before", "bandwidth", 95.0), ("after", "bandwidth", 35.0)}


def test_figures_each_followed_by_what_was_done_under_a_leading_condition():
    got = {(p.system, p.label, p.value, p.unit) for p in read_prose(DONE_WORDS.split("\n"), set())}
    assert got == {("Without the tweaks", "write", 111.0, "MB/s"), ("Without the tweaks", "read", 87.0, "MB/s"),
                   ("With the tweaks", "write", 195.0, "MB/s"), ("With the tweaks", "read", 211.0, "MB/s")}
    assert figure_words(0, "We ran 4 jobs and 8 jobs today.") == []  # counts, no unit
    assert figure_words(0, "about 30 MB/sec for writing") == []  # one figure alone


def test_figure_words_is_linear():
    for line in ("1MB/s read " * 4000, "1" * 20000 + "MB/s read", ("9 MB/s ab, " * 3000)):
        t = time.perf_counter()
        figure_words(0, line)
        assert time.perf_counter() - t < 1.0


# https://lore.kernel.org/linux-block/20230726005742.303865-4-bvanassche@acm.org/ : figures, each with the
# condition it was measured under, one sentence wrapped over three lines (excerpt)
CONDITIONS = """\
Add a new configfs attribute for disabling zone write locking. The test
script below reports 250 K IOPS with no I/O scheduler, 6 K IOPS with
mq-deadline and write locking enabled and 123 K IOPS with mq-deadline
and write locking disabled. This shows that disabling write locking
results in about 20 times more IOPS for this particular test case.

    for mode in "none 0" "mq-deadline 0" "mq-deadline 1"; do
            --zonemode=zbd
        )
        fio "${params[@]}"
    done
"""


def test_figures_each_with_the_condition_they_were_measured_under():
    got = {(r["benchmark"], r["system"], r["metric"], r["value"], r["unit"]) for r in _rows(CONDITIONS)}
    assert got == {("fio", "no I/O scheduler", "iops", 250.0, "IOPS"),
                   ("fio", "mq-deadline and write locking enabled", "iops", 6.0, "IOPS"),
                   ("fio", "mq-deadline and write locking disabled", "iops", 123.0, "IOPS")}
    # the words leading to the next figure are not part of a condition
    got = {(p.system, p.value) for p in figures_with(0, "about 1100 IOPS with a single job and about 150 IOPS with 72 jobs.")}
    assert got == {("a single job", 1100.0), ("72 jobs", 150.0)}
    assert figures_with(0, "We get 250 K IOPS with no scheduler, 6 K IOPS with") == []  # cut by wrapping
    assert figures_with(0, "4 jobs with 8 threads and 2 jobs with 4 threads.") == []  # counts, no unit
    assert figures_with(0, "We get 250 MB/s with the patch.") == []  # one figure alone


def test_a_figure_without_a_thing_and_one_with_it():
    # the real-posts issue's results in running text (#10): one line per run, the system after the figure
    text = "STREAM Triad: 12345.6 MB/s without the patch and 12890.1 MB/s with it.\n"
    got = {(r["benchmark"], r["system"], r["metric"], r["value"], r["unit"], r["layout"])
           for r in result_rows(extract_explained(text, "m", subject="[PATCH] mm: faster copies")[0])}
    assert got == {("stream", "without the patch", "triad", 12345.6, "MB/s", "prose"),
                   ("stream", "with the patch", "triad", 12890.1, "MB/s", "prose")}
    got = [(p.system, p.value) for p in figures_with(0, "dd gives 410 MB/s with the series and 380 MB/s without it.")]
    assert got == [("the series", 410.0), ("without the series", 380.0)]
    # `it` standing for nothing the sentence names, or for either of two things: no reading
    assert figures_with(0, "We get 410 MB/s with it and 380 MB/s with it.") == []
    assert figures_with(0, "410 MB/s with patch A, 380 MB/s with patch B and 300 MB/s without it.") == []


@given(st.text(alphabet="0123456789 .,KMG MB/s IOPS with without it and", max_size=120))
@settings(max_examples=300, deadline=None)
def test_figures_with_are_printed_numbers(line):
    printed = {float(t.replace(",", "")) for t in re.findall(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?", line)}
    for v in figures_with(0, line):
        assert v.value in printed and v.system


def test_figures_with_is_linear():
    for line in ("1 MB/s with " * 4000, "1 MB/s without it " * 3000, "1" * 20000 + " MB/s with x", "9 IOPS with a, " * 3000 + "."):
        t = time.perf_counter()
        figures_with(0, line)
        assert time.perf_counter() - t < 1.0


def test_a_setting_before_an_arrow_is_how_the_pair_ran_not_a_system():
    # the real-posts issue's rows of parameters (#10), written as `<key>: <a> -> <b>` lines
    from transforms.handmade.prose import arrows

    got = [(p.value, p.system, p.when, p.setting) for p in arrows(0, "  clients=16:  4012.7 -> 4102.9")]
    assert got == [(4012.7, None, "before", ("clients", "16")), (4102.9, None, "after", ("clients", "16"))]
    got = [(p.value, p.system, p.when, p.setting) for p in arrows(0, "  vanilla:  4012.7 -> 4102.9 MB/s")]
    assert got == [(4012.7, "vanilla", "before", None), (4102.9, "vanilla", "after", None)]
    text = "tbench results (MB/s), 5.15 vs 5.15+patch:\n  clients=1:   321.5 -> 330.2\n  clients=16:  4012.7 -> 4102.9\n"
    rows = result_rows(extract_explained(text, "m")[0])
    assert {(r["params"].get("clients"), r["params"].get("when"), r["value"]) for r in rows} == {
        ("1", "before", 321.5), ("1", "after", 330.2), ("16", "before", 4012.7), ("16", "after", 4102.9)}
    assert not any(r["system"] and "clients" in r["system"] for r in rows)


def test_before_and_after_figures_each_after_its_word_in_a_keyed_line():
    # the real-posts issue's results in running text (#10): `vanilla 4512.3 MB/sec   patched 4690.1 MB/sec`
    # after a key naming the tool is two values, not a table row; a `before = 570` pair stays a summary's
    text = ("tbench 16 clients:   vanilla 4512.3 MB/sec   patched 4690.1 MB/sec   (+3.9%)\n"
            "tbench 64 clients:   vanilla 6120.8 MB/sec   patched 6150.2 MB/sec   (+0.5%)\n")
    got = {(r["benchmark"], r["system"], r["metric_label"], r["value"], r["unit"])
           for r in result_rows(extract_explained(text, "m", subject="Re: [PATCH] sched: wakeup preemption")[0])}
    assert got == {("tbench", "vanilla", "tbench 16 clients", 4512.3, "MB/s"),
                   ("tbench", "patched", "tbench 16 clients", 4690.1, "MB/s"),
                   ("tbench", "vanilla", "tbench 64 clients", 6120.8, "MB/s"),
                   ("tbench", "patched", "tbench 64 clients", 6150.2, "MB/s")}


"""dbench/tbench parser: the tricky cells of the real fixtures, then properties.

Properties: summaries and op tables printed from dbench's printf formats round-trip
exactly; never raising on random or mutated text and keeping its rows under mail damage
come from `helpers.fuzz_tests` and `helpers.damage_tests`.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from tests.transforms.parsers.fixtures_io import rows_of
from tests.transforms.parsers.helpers import (
    Golden,
    damage_tests,
    fuzz_tests,
    metric_rows,
    negatives_test,
    property_settings,
)
from transforms.extract import extract_runs
from transforms.parsers.dbench import PARSER

GOLDEN = Golden("dbench", ("dbench", "tbench"))
DIR = GOLDEN.dir
SETTINGS = property_settings(80)
rows = GOLDEN.fixture_rows
pick = metric_rows


# --- real fixtures ---------------------------------------------------------------------------------


def test_dbench1_nb_figures_are_derived_and_time_lines_ignored():
    found = rows("lkml_wli_dbench1_numaq_time_lines")
    tp = pick(found, "throughput")
    assert [(r["params"]["clients"], r["value"]) for r in tp][:2] == [("16", 67.3949), ("32", 95.1519)]
    assert len(tp) == 8 and {r["statistic"] for r in tp} == {"value"}
    nb = pick(found, "netbench_throughput", procs="512")
    assert [(r["value"], r["statistic"], r["unit"]) for r in nb] == [(32.1932, "derived", "MB/s")]
    assert pick(found, "netbench_mbit", procs="16")[0]["value"] == 673.949
    assert {r["system"] for r in found} == {"Taken on 32x/32G NUMA-Q"}
    assert not any(r["value"] in (11.72, 122.21, 31.733) for r in found)  # zsh `time` lines


def test_clients_from_the_time_line_when_procs_is_not_printed():
    found = rows("lkml_akpm_dbench1_no_procs_suffix")
    scruffo = [r for r in found if r["system"] == "Taken on 2x/0.8G el-scruffo PC"]
    assert pick(scruffo, "throughput")[0] == {**pick(scruffo, "throughput")[0], "value": 135.02}
    assert pick(scruffo, "throughput")[0]["params"] == {"clients": "16"}  # from `./dbench 16  12.11s user ...`
    assert [r["quoted"] for r in pick(found, "throughput")] == [True, False]


def test_wrapped_procs_and_three_listings_of_one_kernel():
    found = rows("lkml_holmes_dbench1_wrapped_procs_quoted")
    old = [r for r in pick(found, "throughput") if r["system"] == "2.4.16"]
    assert [r["params"]["clients"] for r in old] == ["1", "2", "4", "8", "16", "32", "64", "128"]
    assert [r["value"] for r in old][4:6] == [210.989, 138.713]  # `16\n> procs`, `32\n> procs`
    new = pick(found, "throughput", clients="128")
    new = [r for r in new if r["system"] == "2.4.17-pre2"]
    assert [(r["params"]["repeat"], r["value"]) for r in new] == [("1", 54.9774), ("2", 66.1573), ("3", 59.258)]


def test_prefix_names_the_clients_and_kernel_labels_name_systems():
    found = pick(rows("lkml_mokrejs_dbench_prefix"), "throughput")
    assert [(r["system"], r["value"], r["params"]["clients"]) for r in found] == [
        ("linux-2.4.10-pre12", 67.8566, "16"), ("linux-2.4.10-pre12aa1", 141.659, "16"),
    ]  # fmt: skip


def test_dbench4_op_table_sync_flag_and_markers():
    found = rows("btrfs_manana_dbench4_op_tables_sync")
    t1 = [r for r in found if r["system"] == "result type 1"]
    assert pick(t1, "throughput")[0]["params"] == {"clients": "32", "procs": "32", "sync": "open"}
    assert pick(t1, "max_latency")[0]["value"] == 1963.312
    write = pick(t1, "op_max_latency", op="WriteX")  # `** WriteX ...` marked by the poster
    assert [r["value"] for r in write] == [2239.973]
    before = [r for r in found if r["system"] == "Before patch set"]
    assert pick(before, "op_count", op="ReadX")[0]["value"] == 17676028.0
    assert pick(before, "op_avg_latency", op="Flush")[0]["params"] == {"op": "Flush", "clients": "64", "procs": "64"}
    assert pick([r for r in found if r["system"] == "After patch set"], "throughput")[0]["value"] == 1339.32


def test_clients_per_process_differ_from_procs():
    found = rows("daos_docs_dbench4_clients_per_process")
    assert pick(found, "throughput")[0]["params"] == {"clients": "100", "procs": "10"}
    assert pick(found, "op_count", op="WriteX")[0]["value"] == 18750.0
    assert not any(r["value"] in (288.13, 104.57) for r in found)  # progress lines


def test_commented_summary_takes_clients_from_command_line():
    found = pick(rows("xfs_wang_dbench_partial_tables_commented"), "throughput")
    assert [(r["value"], r["params"]["clients"]) for r in found][2:] == [
        (884.406, "32"), (149.172, "1"), (740.95, "32"), (124.67, "1"),
    ]  # fmt: skip
    assert all(r["params"]["sync"] == "open" for r in found)


def test_tbench_is_marked_as_tbench():
    found = rows("coreidle_tbench_turbostat")
    assert {r["params"]["tool"] for r in found} == {"tbench"}
    assert {r["benchmark"] for r in found} == {"tbench"}  # tbench is scored as a benchmark of its own
    assert [r["system"] for r in pick(found, "throughput")] == ["default scheduler", "sched_mc/smt=1", "coreidle/ondemand"]
    runs = extract_runs(GOLDEN.body("coreidle_tbench_turbostat"), "m")
    assert {er.run.attributes["tool"] for er in runs if er.parser.name == "dbench"} == {"tbench"}


def test_tbench_srv_connection_marks_before_the_launch_line_are_chatter():
    # weishan18/lkp-tests spec/stats/tbench/01: tbench_srv, on the same terminal, prints one `^` per
    # accepted connection in front of the client's launch lines; the run is still tbench's
    head = ["2023-10-30 16:04:30 tbench -t 30 128 127.0.0.1",
            "dbench version 4.00 - Copyright Andrew Tridgell 1999-2004", "",
            "Running for 30 seconds with load '/usr/local/share/client.txt' and minimum warmup 6 secs",
            "^" * 127 + "127 of 128 processes prepared for launch   0 sec",
            "^128 of 128 processes prepared for launch   0 sec", "releasing clients",
            " 128     33330  24986.66 MB/sec  warmup   1 sec  latency 8.313 ms",
            " 128  cleanup  30 sec", "   0  cleanup  30 sec", "",
            "Throughput 23775.4 MB/sec  128 clients  128 procs  max_latency=8.632 ms"]
    found = GOLDEN.rows("\n".join(head))
    assert [(r["benchmark"], r["metric"], r["value"], r["params"]["tool"]) for r in found] == [
        ("tbench", "throughput", 23775.4, "tbench"), ("tbench", "max_latency", 8.632, "tbench")]
    found = rows("lkp_tbench4_two_runs_caret_noise")
    assert {r["benchmark"] for r in found} == {"tbench"}
    assert [(r["value"], r["params"]["repeat"], r["system"]) for r in pick(found, "throughput")] == [
        (23775.4, "1", None), (20853.0, "2", None)]  # the first run's op table names no system


def test_a_label_before_the_summary_is_its_system():
    # lkml 2003-09, "Re: 2.6.0-test5-mm1" (Con Kolivas): one tbench line per kernel
    text = ("tbench 192\n\n2.6.0-test5:\tThroughput 224.949 MB/sec 192 procs\n"
            "2.6.0-test5-mm1:\tThroughput 329.827 MB/sec 192 procs\n")
    found = [r for r in rows_of(text) if r["metric"] == "throughput"]
    assert [(r["benchmark"], r["system"], r["value"], r["params"]["procs"]) for r in found] == [
        ("tbench", "2.6.0-test5", 224.949, "192"), ("tbench", "2.6.0-test5-mm1", 329.827, "192"),
    ]  # fmt: skip


def test_a_label_after_the_summary_and_captions_over_prompts():
    # https://lore.kernel.org/lkml/m3ad9snxo6.fsf@bzzz.home.net/
    text = (" ES> Throughput 221.812 MB/sec 16 procs    ext2\n"
            " ES> Throughput 159.495 MB/sec 16 procs    ext3-extents (definitely enabled)\n\n"
            "w/o extents:\n[root@zefir root]# /root/db2.sh 2 16\nThroughput 119.199 MB/sec 16 procs\n"
            "Average: 112.64450\n\n\nwith extents:\n[root@zefir root]# /root/db2.sh 2 16\n"
            "Throughput 156.846 MB/sec 16 procs\n")
    got = [(r["system"], r["value"]) for r in rows_of(text)]
    assert got == [("ext2", 221.812), ("ext3-extents (definitely enabled)", 159.495),
                   ("w/o extents", 119.199), ("with extents", 156.846)]


def test_a_remark_after_the_summary_is_not_a_number_of_it():
    text = ("Throughput 22.6915 MB/sec (NB=28.3644 MB/sec  226.915 MBit/sec) - .5sec hiccup in xmms\n"
            "Throughput 20.5148 MB/sec (NB=25.6435 MB/sec  205.148 MBit/sec) - 2sec and .5sec in xmms\n")
    assert [r["value"] for r in rows_of(text) if r["metric"] == "throughput"] == [22.6915, 20.5148]
    # an unexplained number without a remark marker still makes the line unreadable
    assert rows_of("Throughput 22.6915 MB/sec 16 procs 7\n") == []


test_negative_fixtures_give_no_rows = negatives_test(DIR, rows)


def test_zero_client_run_is_unparsed():
    runs = extract_runs("Throughput 0 MB/sec  0 clients  0 procs  max_latency=0.000 ms\n", "m")
    assert [er.run.status for er in runs] == ["unparsed"]


def test_unknown_trailing_number_is_unparsed_not_guessed():
    runs = extract_runs("Throughput 12.5 MB/sec  4 clients  4 procs  max_latency=1.000 ms  7 sheep\n", "m")
    assert [er.run.status for er in runs] == ["unparsed"]


# --- (a) robustness ------------------------------------------------------------------------------


FRAGMENTS = [
    "Throughput ", "67.3949", " MB/sec", " (NB=84.2436 MB/sec  673.949 MBit/sec)", "  16 procs", "16\nprocs",
    "  32 clients", "  max_latency=", "1963.312 ms", " (sync open)", " Operation      Count    AvgLat    MaxLat",
    " ----------------------------------------", " NTCreateX     868942     0.028     3.017", "** WriteX ",
    "dbench 16: ", "#", "tbench -t 20 1", " 128  14082566  13563.95 MB/sec  execute 599 sec  latency 11.331 ms",
    "\n", "\n", "> ", "  ", "0", ".", "nan",
]  # fmt: skip


test_random_text_never_raises, test_mutated_fixtures_never_raise = fuzz_tests(
    PARSER, FRAGMENTS, GOLDEN.bodies(), SETTINGS
)


# --- (b) round trip from dbench's printf formats ---------------------------------------------------

OPS = ["NTCreateX", "Close", "Rename", "Unlink", "Deltree", "Mkdir", "Qpathinfo", "WriteX", "ReadX", "Flush",
       "QUERY_PATH_INFORMATION", "FIND_FIRST"]  # fmt: skip


@st.composite
def dbench4_report(draw) -> tuple[str, dict[tuple, float]]:
    """`" %-22s %7u %9.03f %9.03f"` op rows and
    `"Throughput %g MB/sec%s%s  %d clients  %d procs  max_latency=%.03f ms"`."""
    procs = draw(st.integers(1, 512))
    clients = procs * draw(st.integers(1, 4))
    sync = draw(st.sampled_from(["", " (sync open)", " (sync dirs)", " (sync open) (sync dirs)"]))
    params = {"clients": str(clients), "procs": str(procs)}
    if sync:
        params["sync"] = ",".join(re.findall(r"sync (\w+)", sync))
    key = tuple(sorted(params.items()))
    expected: dict[tuple, float] = {}
    lines = [" Operation                Count    AvgLat    MaxLat", " --------------------------------------------------"]
    for op in draw(st.lists(st.sampled_from(OPS), min_size=1, max_size=6, unique=True)):
        count = draw(st.integers(0, 10**9))
        avg, mx = (draw(st.floats(0, 1e5, allow_nan=False)) for _ in range(2))
        lines.append(f" {op:<22} {count:7d} {avg:9.03f} {mx:9.03f}")
        okey = tuple(sorted({**params, "op": op}.items()))
        expected[("op_count", okey)] = float(count)
        expected[("op_avg_latency", okey)] = float(f"{avg:.3f}")
        expected[("op_max_latency", okey)] = float(f"{mx:.3f}")
    tp = draw(st.floats(0.001, 1e7, allow_nan=False))  # %g: 1.23457e+06 above a million
    lat = draw(st.floats(0, 1e6, allow_nan=False))
    lines += ["", f"Throughput {tp:g} MB/sec{sync}  {clients} clients  {procs} procs  max_latency={lat:.03f} ms"]
    expected[("throughput", key)] = float(f"{tp:g}")
    expected[("max_latency", key)] = float(f"{lat:.3f}")
    return "\n".join(lines) + "\n", expected


@st.composite
def dbench1_listing(draw) -> tuple[str, dict[tuple, float]]:
    """`Throughput %g MB/sec (NB=%g MB/sec  %g MBit/sec)  %d procs`, one line per client count."""
    expected: dict[tuple, float] = {}
    lines = []
    for n in draw(st.lists(st.integers(1, 512), min_size=1, max_size=6, unique=True)):
        tp = draw(st.floats(0.001, 1e4, allow_nan=False))
        lines.append(f"Throughput {tp:g} MB/sec (NB={tp * 1.25:g} MB/sec  {tp * 10:g} MBit/sec)  {n} procs")
        key = (("clients", str(n)), ("procs", str(n)))
        expected[("throughput", key)] = float(f"{tp:g}")
        expected[("netbench_throughput", key)] = float(f"{tp * 1.25:g}")
        expected[("netbench_mbit", key)] = float(f"{tp * 10:g}")
    return "\n".join(lines) + "\n", expected


def keyed(found: list[dict]) -> dict[tuple, float]:
    return {(r["metric"], tuple(sorted(r["params"].items()))): r["value"] for r in found}


@SETTINGS
@given(st.one_of(dbench4_report(), dbench1_listing()))
def test_report_round_trips(report):
    text, expected = report
    found = rows_of(text)
    assert keyed(found) == expected and len(found) == len(expected)
    derived = {r["metric"] for r in found if r["statistic"] == "derived"}
    assert derived <= {"netbench_throughput", "netbench_mbit"}


# --- (c) mail damage ------------------------------------------------------------------------------


test_synthetic_report_survives_mail_damage, test_fixture_survives_mail_damage = damage_tests(
    st.one_of(dbench4_report(), dbench1_listing()), DIR, SETTINGS
)


def test_tbench_banner_and_marks_wrapped_by_a_mailer_stay_chatter():
    # the same lkp-tests log (weishan18/lkp-tests spec/stats/tbench/01) after a mailer's 72-column wrap
    from bench.extraction import wrap

    text = GOLDEN.body("lkp_tbench4_two_runs_caret_noise")
    assert "\nminimum warmup 6 secs\n" in wrap(text) and "\nprocesses prepared for launch" in wrap(text)
    key = lambda r: (r["benchmark"], r["metric"], tuple(sorted(r["params"].items())), r["value"])  # noqa: E731
    assert sorted(map(key, GOLDEN.rows(wrap(text)))) == sorted(map(key, GOLDEN.rows(text)))
    assert {r["benchmark"] for r in GOLDEN.rows(wrap(text))} == {"tbench"}


def test_the_next_printout_of_a_tbench_series_under_its_own_caption_is_tbench():
    # https://lore.kernel.org/lkml/bfbfbf041854e2cd1a8ed14e64081062e5d632d3.camel@gmx.de/ (its lines,
    # quoted-printable decoded): `tbench` is named once, above the first kernel's lines
    text = ("30 sec tbench\n6.3.0.g8ca09d5\n"
            "Throughput 3655.33 MB/sec  8 clients  8 procs  max_latency=16.322 ms\n"
            "Throughput 3651.73 MB/sec  8 clients  8 procs  max_latency=16.260 ms\n"
            "6.3.0.g8ca09d5+eevdf\n"
            "Throughput 3497.39 MB/sec  8 clients  8 procs  max_latency=12.380 ms\n"
            "Throughput 3403.28 MB/sec  8 clients  8 procs  max_latency=12.296 ms\n"
            "avg vs avg     .948\n")
    found = [r for r in rows_of(text) if r["metric"] == "throughput"]
    assert [(r["benchmark"], r["system"], r["value"]) for r in found] == [
        ("tbench", "6.3.0.g8ca09d5", 3655.33), ("tbench", "6.3.0.g8ca09d5", 3651.73),
        ("tbench", "6.3.0.g8ca09d5+eevdf", 3497.39), ("tbench", "6.3.0.g8ca09d5+eevdf", 3403.28)]


def test_dbench_lines_in_a_post_naming_only_tbench_are_tbench():
    # https://lore.kernel.org/lkml/4e271e7d95fe862c9f201b6f04b16b1423ae3dcb.camel@gmx.de/ (2023, SIS_CURRENT),
    # its lines quoted-printable decoded: the printout quoted alone, tbench named paragraphs below
    text = ("> > > Throughput  646.55 MB/sec   2 clients   2 procs  max_latency=0.104 ms\n"
            "> > > Throughput 1361.06 MB/sec   5 clients   5 procs  max_latency=0.100 ms\n"
            "> > >\n> > > So what's going on here? I don't see anything exciting happening at the\n"
            "> > > 40 mark.\n> >\n> > Are you running tbench in the GUI so the per second output stimulates\n"
            "> > assorted goo?  I'm using KDE fwtw.\n")
    found = [(r["benchmark"], r["value"], r["params"].get("tool")) for r in rows_of(text) if r["metric"] == "throughput"]
    assert found == [("tbench", 646.55, "tbench"), ("tbench", 1361.06, "tbench")]
    # a post that names dbench too keeps dbench's lines dbench's
    both = text.replace("Are you running tbench", "Are you running tbench or dbench")
    assert {r["benchmark"] for r in rows_of(both)} == {"dbench"}


def test_summary_lines_retyped_with_a_run_number_and_the_release_after_them():
    # https://lore.kernel.org/lkml/200108101328.f7ADSue26118@thor.mesatop.com/ (its lines)
    text = ("I re-ran dbench 32 with the settings above.  Here are the results:\n \n"
            "Run #1 Throughput 12.7943 MB/sec    2.4.8-pre8\n"
            "Run #2 Throughput 12.667 MB/sec     2.4.8-pre8\n \n"
            "Run #4 Throughput 13.7765 MB/sec    2.4.7\n")
    assert [(r["system"], r["params"].get("run"), r["value"]) for r in rows_of(text)] == [
        ("2.4.8-pre8", "1", 12.7943), ("2.4.8-pre8", "2", 12.667), ("2.4.7", "4", 13.7765)]
    # a figure after the gap is no release: the line stays unread
    assert rows_of("Throughput 12.7943 MB/sec    27.1849 MBit/sec)\n") == []


# https://lore.kernel.org/linux-btrfs/20210204111706.0AD1.409509F4@e16-tech.com/, the summary line as a
# mailer wrapping at 72 columns breaks it
MAX_LATENCY_WRAPPED = """\
 Flush          67264     0.575   363.550

Throughput 497.551 MB/sec (sync open)  32 clients  32 procs
max_latency=713.045 ms
"""


def test_max_latency_wrapped_onto_the_next_line_joins_its_summary():
    (run,) = [er.run for er in extract_runs(MAX_LATENCY_WRAPPED, "w") if er.parser.name == "dbench"]
    got = {r.metric: r.value for r in run.results if r.metric in ("throughput", "max_latency")}
    assert got == {"throughput": 497.551, "max_latency": 713.045}
    assert run.line_end == 4  # the wrapped tail is the run's own line, read by no other reader

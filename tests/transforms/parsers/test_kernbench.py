"""kernbench parser: the tricky cells of real posts, mail damage, and property tests."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.transforms.parsers.damage import (
    DAMAGES,
    canon,
    damaged,
    one,
)
from tests.transforms.parsers.helpers import Golden, robust_tests
from transforms.parsers import kernbench
from transforms.units import KNOWN_UNITS

GOLDEN = Golden("kernbench", ("kernbench",))
_rows, _runs, _fixture = GOLDEN.rows, GOLDEN.runs, GOLDEN.body


# --- real posts -------------------------------------------------------------------------------


def test_ck_output_mean_and_stddev_per_load_level():
    rows = _rows(_fixture("ck_full_output_two_captions"))
    half = {"load": "half", "jobs": "8"}
    r = one(
        rows, system="With percpu_counter", metric="elapsed_time", statistic="mean", params=half
    )
    assert (r["value"], r["unit"], r["higher_is_better"], r["metric_label"]) == (
        120.68,
        "s",
        False,
        "Elapsed Time",
    )
    sd = one(
        rows, system="With percpu_counter", metric="elapsed_time", statistic="stddev", params=half
    )
    assert sd["value"] == 0.425558
    cpu = one(
        rows, system="With atomic_long_t", metric="percent_cpu", statistic="mean", params=half
    )
    assert (cpu["value"], cpu["unit"]) == (551.8, "%CPU")
    # "Average Maximal load -j Run": unlimited jobs, so no jobs param
    mx = one(
        rows, system="With atomic_long_t", metric="sleeps", statistic="mean", params={"load": "max"}
    )
    assert (mx["value"], mx["unit"]) == (30436.2, "count")
    assert {r["system"] for r in rows} == {"With percpu_counter", "With atomic_long_t"}
    # "Kernel 2.6.16" is the compiled tree, not the kernel under test
    assert all(
        run.attributes.get("kernel") is None
        for run in _runs(_fixture("ck_full_output_two_captions"))
    )


def test_kernel_label_names_the_system_and_scientific_notation_reads():
    rows = _rows(_fixture("kernel_label_scientific"))
    p = {"load": "optimal", "jobs": "32"}
    sleeps = one(
        rows, system="3.7.0-rc3-vanilla-default", metric="sleeps", statistic="mean", params=p
    )
    assert sleeps["value"] == 1.8781e06
    cs = one(
        rows,
        system="3.7.0-rc3-sorted-buddy-default",
        metric="context_switches",
        statistic="mean",
        params=p,
    )
    assert cs["value"] == 2.1496e06


def test_vs_base_annotations_are_not_values():
    rows = _rows(_fixture("captions_vs_base_annotations"))
    assert len(rows) == 3 * 6 * 2
    r = one(rows, system="Full", metric="sleeps", statistic="stddev")
    assert r["value"] == 138808.0
    assert not [r for r in rows if r["value"] in (2.0, 1.4, 9.7)]


def test_side_by_side_columns_take_the_header_names():
    rows = _rows(_fixture("two_outputs_side_by_side"))
    p = {"load": "custom", "jobs": "32"}
    assert (
        one(rows, system="With 'if'", metric="user_time", statistic="mean", params=p)["value"]
        == 2528.19
    )
    assert (
        one(rows, system="Without 'if'", metric="user_time", statistic="stddev", params=p)["value"]
        == 382.228
    )
    # the names written once above the first block carry over to the next blocks
    p16 = {"load": "optimal", "jobs": "16"}
    assert (
        one(rows, system="Without 'if'", metric="elapsed_time", statistic="mean", params=p16)[
            "value"
        ]
        == 255.144
    )


def test_tab_separated_columns_and_percent_column_is_derived():
    text = _fixture("side_by_side_tabs_percent_column")
    rows = _rows(text)
    q = one(
        rows,
        system="4.13.0-rc5-spf",
        metric="percent_cpu",
        statistic="stddev",
        params={"load": "half", "jobs": "8"},
    )
    assert (q["value"], q["quoted"]) == (0.707107, True)
    u = one(
        rows,
        system="4.13.0-rc5",
        metric="elapsed_time",
        statistic="mean",
        params={"load": "optimal", "jobs": "16"},
    )
    assert (u["value"], u["quoted"]) == (85.422, False)
    assert not [r for r in rows if r["value"] in (12.42, -12.42, 42.36, 32.9)]
    assert all(r["statistic"] in ("mean", "stddev") for r in rows)


def test_run_line_under_banner_and_realigned_labels():
    rows = _rows(_fixture("quoted_base_spf_columns"))
    r = one(
        rows,
        system="SPF",
        metric="system_time",
        statistic="mean",
        params={"load": "half", "jobs": "8"},
    )
    assert (r["value"], r["metric_label"], r["quoted"]) == (923.28, "System  Time", True)


def test_negatives_give_nothing():
    for name in ("neg_time_make_real_user_sys", "neg_script_printing_kernbench_labels",
                 "neg_assembly_listing_and_diffstat"):  # fmt: skip
        text = _fixture(name)
        assert _rows(text) == []
        assert _runs(text) == []


def test_columns_without_names_are_unparsed_not_guessed():
    text = "\n".join([
        "Average Half load -j 4 Run (std deviation):",
        "Elapsed Time 10.1 (0.1)       Elapsed Time 12.5 (0.2)",
        "User Time 20.2 (0.3)           User Time 22.3 (0.4)",
    ])  # fmt: skip
    runs = _runs(text)
    assert [r.status for r in runs] == ["unparsed"] and "header" in runs[0].reason
    assert _rows(text) == []


def test_unreadable_row_is_unparsed():
    text = "Average Optimal load -j 8 Run (std deviation):\nElapsed Time 10.1 (0.x1)\nUser Time 3 (1)\n"
    runs = _runs(text)
    assert [r.status for r in runs] == ["unparsed"]


def test_single_run_without_stddev_and_repeated_system():
    text = "\n".join([
        "Average Custom load -j 16 Run (std deviation):",
        "Elapsed Time 7.770000",
        "User Time 60.960000",
        "",
        "Average Custom load -j 16 Run (std deviation):",
        "Elapsed Time 7.800000",
        "User Time 61.000000",
    ])  # fmt: skip
    rows = _rows(text)
    assert {r["statistic"] for r in rows} == {"mean"}
    assert (
        one(rows, metric="elapsed_time", params={"load": "custom", "jobs": "16", "repeat": "2"})[
            "value"
        ]
        == 7.8
    )


def test_metric_registry_units_are_known():
    assert all(spec.unit in KNOWN_UNITS for spec in kernbench.METRICS.values())


# --- properties -------------------------------------------------------------------------------

FIXTURE_TEXTS = GOLDEN.bodies()
test_random_text_never_raises, test_mutated_fixtures_never_raise = robust_tests(
    _runs, FIXTURE_TEXTS, ["", " ", "\t", "x", "(", ")", "%", "-", "\n", "1e9", "Average Half load -j 2 Run"], only="kernbench"
)  # fmt: skip


_VALUE = st.decimals(min_value=0, max_value=10**7, places=3, allow_nan=False, allow_infinity=False)
_LABELS = ["Elapsed Time", "User Time", "System Time", "Percent CPU", "Context Switches", "Sleeps"]


def _report(load: str, jobs: str, cells: list[tuple]) -> str:
    """A block as CK's kernbench prints it: ``echo "$label $mean ($stddev)"``."""
    lines = [f"Average {load} load -j {jobs} Run (std deviation):"]
    for label, (mean, sd) in zip(_LABELS, cells, strict=True):
        lines.append(f"{label} {mean} ({sd})")
    return "\n".join(lines) + "\n"


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(["Half", "Optimal", "Custom"]), st.integers(1, 4096),
       st.lists(st.tuples(_VALUE, _VALUE), min_size=6, max_size=6))  # fmt: skip
def test_printed_report_round_trips(load, jobs, cells):
    text = _report(load, str(jobs), cells)
    rows = _rows(text)
    assert len(rows) == 12
    for (mean, sd), metric in zip(cells, kernbench.METRICS, strict=True):
        p = {"load": load.lower(), "jobs": str(jobs)}
        assert one(rows, metric=metric, statistic="mean", params=p)["value"] == float(str(mean))
        assert one(rows, metric=metric, statistic="stddev", params=p)["value"] == float(str(sd))


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(["Half", "Optimal"]), st.integers(1, 64),
       st.lists(st.tuples(_VALUE, _VALUE), min_size=6, max_size=6),
       st.sampled_from(DAMAGES))  # fmt: skip
def test_mail_damage_keeps_the_rows(load, jobs, cells, how):
    text = _report(load, str(jobs), cells)
    assert canon(_rows(damaged(text, how, keep_ends=True))) == canon(_rows(text))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FIXTURE_TEXTS[:6]), st.sampled_from(DAMAGES))
def test_mail_damage_on_real_posts_never_gives_a_wrong_number(text, how):
    clean = set(canon(_rows(text)))
    damaged_runs = _runs(damaged(text, how, keep_ends=True))
    for row in canon(_rows(damaged(text, how, keep_ends=True))):
        assert row in clean, row
    if how != "collapse":
        assert set(canon(_rows(damaged(text, how, keep_ends=True)))) == clean
    else:
        assert all(r.status in ("ok", "unparsed") for r in damaged_runs)


# https://lore.kernel.org/linux-mm/ (2007, "[-mm PATCH 0/9] Memory controller introduction (v6)"):
# headings naming the tool title the runs; the release kernbench printed under its date is the system
TITLED_BY_THE_TOOL = """\
Run kernbench stress
--------------------
Three simultaneously and with one inside a container of 800 MB.


Kernbench results running within the container of 800 MB
--------------------------------------------------------

Thu Aug 16 22:34:59 IST 2007
2.6.23-rc2-mm2-mem-v6
Average Half load -j 4 Run (std deviation):
Elapsed Time 466.548 (47.6014)
User Time 876.598 (10.5273)

Average Optimal load -j 32 Run (std deviation):
Elapsed Time 423.496 (60.625)
User Time 897.285 (23.0391)
"""


def test_a_heading_naming_kernbench_yields_to_the_release_it_printed():
    got = {(r["system"], r["params"]["load"], r["metric"], r["value"]) for r in _rows(TITLED_BY_THE_TOOL)
           if r["statistic"] == "mean"}
    assert got == {("2.6.23-rc2-mm2-mem-v6", "half", "elapsed_time", 466.548),
                   ("2.6.23-rc2-mm2-mem-v6", "half", "user_time", 876.598),
                   ("2.6.23-rc2-mm2-mem-v6", "optimal", "elapsed_time", 423.496),
                   ("2.6.23-rc2-mm2-mem-v6", "optimal", "user_time", 897.285)}


# https://lore.kernel.org/lkml/ (2005, plugsched: kernbench under each CPU scheduler), as posted
PLUGSCHED = """\
here are kernbench results:

cpusched=ingosched

./kernbench -M -o 128
[..]
Average Optimal -j 128 Load Run:
Elapsed Time 365,4
User Time 620,8
System Time 64,6
Percent CPU 187,2
Context Switches 38296,8
Sleeps 37867

(reboot)

---

cpusched=staircase

./kernbench -M -o 128
[..]
Average Optimal -j 128 Load Run:
Elapsed Time 611,6
User Time 616,4
System Time 81
Percent CPU 114,8
Context Switches 96470,2
Sleeps 122413
"""


def test_decimal_commas_and_a_setting_caption_over_the_command():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(PLUGSCHED, "k")[0])
    got = {(r["system"], r["metric"], r["value"]) for r in rows if r["metric"] in ("elapsed_time", "context_switches")}
    assert got == {("cpusched=ingosched", "elapsed_time", 365.4), ("cpusched=ingosched", "context_switches", 38296.8),
                   ("cpusched=staircase", "elapsed_time", 611.6), ("cpusched=staircase", "context_switches", 96470.2)}


def test_a_paragraph_of_settings_names_the_run_below_it():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    text = ("(reboot)\n\n---\n\nmax_ia_bonus=0\nmax_tpt_bonus=default\n\n./kernbench -M -o 128\n[..]\n"
            "Average Optimal -j 128 Load Run:\nElapsed Time 351,4\nUser Time 623,4\n")
    got = {(r["system"], r["value"]) for r in result_rows(extract_explained(text, "k")[0])}
    assert got == {("max_ia_bonus=0 max_tpt_bonus=default", 351.4), ("max_ia_bonus=0 max_tpt_bonus=default", 623.4)}


def test_lkp_kbuild_builds_timed_by_the_harness_are_runs():
    # weishan18/lkp-tests spec/stats/kbuild/03: one allyesconfig build between lkp's own epochs
    text = ("2024-02-26 06:57:44 scripts/config --file .config --enable CONFIG_TRIM_UNUSED_KSYMS\n"
            "start time: 1708930664.406241182\n\nreal: 300.922s\nuser: 16611.657s\nsys: 1932.173s\n"
            "end time: 1708930965.330050942\niterations: 1\nruntime: 307\n")
    assert {(r["metric"], r["value"], r["unit"]) for r in _rows(text)} == {
        ("elapsed_time", 300.922, "s"), ("user_time", 16611.657, "s"), ("system_time", 1932.173, "s")}
    # the same times without lkp's start and end lines are a plain `time make`: not kernbench
    plain = "$ time make -j8\nreal: 300.922s\nuser: 16611.657s\nsys: 1932.173s\n"
    assert _rows(plain) == []


# https://lore.kernel.org/linux-mm/1507543672-25821-1-git-send-email-ldufour@linux.vnet.ibm.com/
DELTA_HEAD_TABS = (
    "Average Half load -j 8 Run (std deviation)\n"
    "\t\t 4.14.0-rc3-mm1\t\t4.14.0-rc3-mm1-spf\tdelta\n"
    "Elapsed\tTime\t 143.292 (0.24407)\t146.12 (0.548042)\t+1.97%\n"
    "User\tTime\t 995.582 (1.52229)\t1005.22\t(1.56144)\t+0.97%\n"
    "Sleeps\t\t 85328 (766.874)\t85254 (1079.3)\t\t-0.09%\n"
)
# the v3 posting of the same series: a `delta %` column of bare changes, and the last table
# without that head over rows that still end in one
DELTA_COLUMN = (
    "Average Half load -j 40 Run (std deviation)\n"
    "\t\t 4.13.0-mm1\t\t4.13.0-mm1-spf\t\tdelta %\n"
    "Elapsed Time \t 115.342 (0.321668)\t115.786 (0.427118)\t+0.38\n"
    "Sleeps\t\t 162109 (793.331)\t162057 (1414.08)\t+0.03\n"
    "\n"
    "Average Optimal load -j 80 Run (std deviation)\n"
    " \t\t 4.13.0-mm1\t\t4.13.0-mm1-spf\n"
    "Elapsed Time \t 110.308 (0.725445)\t109.78 (0.826862)\t-0.48\n"
)


def test_a_delta_column_is_no_system():
    from transforms.model import Segment
    from transforms.quotes import segments

    for text, n_rows in ((DELTA_HEAD_TABS, 12), (DELTA_COLUMN, 12)):
        seg: Segment = segments(text)[0]
        runs = kernbench.parse(seg)
        assert all(r.status == "ok" for r in runs), [r.reason for r in runs]
        results = [x for r in runs for x in r.results]
        assert len(results) == n_rows
        assert {x.system for x in results} <= {"4.14.0-rc3-mm1", "4.14.0-rc3-mm1-spf", "4.13.0-mm1", "4.13.0-mm1-spf"}
        assert not [x for x in results if x.value in (1.97, 0.97, 0.09, 0.38, 0.03, 0.48, -0.48)]
    runs = kernbench.parse(segments(DELTA_COLUMN)[0])
    last = [x for x in runs[-1].results if x.statistic == "mean"]
    assert {(x.system, x.value) for x in last} == {("4.13.0-mm1", 110.308), ("4.13.0-mm1-spf", 109.78)}


# https://lore.kernel.org/lkml/3ACA683A.89D24DED@chromium.com/ (excerpt): kernel builds timed by GNU
# time, three under each caption
GNU_TIME_BUILDS = """\
Kernel compilation times
========================

three runs of "time make -j2"

--

Linux 2.4.2-ac26 + HP Multiqueue patch

216.34user 14.36system 2:00.03elapsed 192%CPU (0avgtext+0avgdata 0maxresident)k
0inputs+0outputs (482269major+691020minor)pagefaults 0swaps

216.53user 14.23system 1:57.91elapsed 195%CPU (0avgtext+0avgdata 0maxresident)k
0inputs+0outputs (482269major+691020minor)pagefaults 0swaps

--

Linux 2.4.2-ac26

220.07user 14.88system 2:02.67elapsed 191%CPU (0avgtext+0avgdata 0maxresident)k
0inputs+0outputs (482269major+691019minor)pagefaults 0swaps
"""


def test_kernel_builds_timed_by_gnu_time_are_runs_under_their_captions():
    from transforms.quotes import segments

    runs = kernbench.parse(segments(GNU_TIME_BUILDS)[0])
    got = {(r.system, x.metric, x.value, x.params.get("repeat")) for r in runs for x in r.results}
    assert ("Linux 2.4.2-ac26 + HP Multiqueue patch", "user_time", 216.34, "1") in got
    assert ("Linux 2.4.2-ac26 + HP Multiqueue patch", "elapsed_time", 117.91, "2") in got  # 1:57.91
    assert ("Linux 2.4.2-ac26", "percent_cpu", 191.0, None) in got
    assert ("Linux 2.4.2-ac26", "system_time", 14.88, None) in got
    assert len(got) == 12


def test_a_timed_command_that_is_no_kernel_build_is_not_read():
    from transforms.quotes import segments

    text = "dd if=/dev/zero of=/mnt/f bs=1M count=1024\n" + GNU_TIME_BUILDS.split("--\n\n", 1)[1]
    assert kernbench.parse(segments(text)[0]) == []


@given(st.floats(0.01, 99999, allow_nan=False).map(lambda x: round(x, 2)), st.integers(0, 99), st.integers(0, 59))
@settings(max_examples=50, deadline=None)
def test_gnu_time_reads_the_printed_figures(user, minutes, seconds):
    from transforms.quotes import segments

    line = f"{user:.2f}user 1.00system {minutes}:{seconds:02d}.50elapsed 99%CPU (0avgtext+0avgdata 0maxresident)k"
    runs = kernbench.parse(segments(f"time make -j4 bzImage\n{line}\n")[0])
    values = {x.metric: x.value for r in runs for x in r.results}
    assert values["user_time"] == float(f"{user:.2f}")
    assert values["elapsed_time"] == round(minutes * 60 + seconds + 0.5, 3)

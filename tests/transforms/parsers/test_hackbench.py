"""hackbench parser: the tricky cells of the real fixtures, then properties.

Properties: runs printed from the classic, rt-tests and perf formats round-trip exactly;
the shared never-raise and mail-damage properties come from `helpers.fuzz_tests` and
`helpers.damage_tests`.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.transforms.parsers.fixtures_io import rows_of
from tests.transforms.parsers.helpers import (
    Golden,
    damage_tests,
    fuzz_tests,
    negatives_test,
    property_settings,
)
from transforms.parsers.hackbench import PARSER

GOLDEN = Golden("hackbench", ("hackbench",))
DIR = GOLDEN.dir
SETTINGS = property_settings(80)
rows = GOLDEN.fixture_rows


# --- real fixtures ---------------------------------------------------------------------------------


def test_classic_repeats_per_system_and_no_average_row():
    found = rows("mips_usercopy_classic_before_after")
    before = [r for r in found if r["system"] == "On qemu, before this patch, hackbench gives"]
    after = [r for r in found if r["system"] == "With this patch, hackbench gives"]
    assert len(before) == len(after) == 10
    assert [r["params"]["repeat"] for r in before] == [str(i) for i in range(1, 11)]
    assert before[0]["value"] == 5.484 and after[-1]["value"] == 4.079
    assert before[0]["params"] == {"variant": "classic", "groups": "10", "tasks": "400", "repeat": "1"}
    assert before[0]["unit"] == "s" and before[0]["statistic"] == "value"
    assert not any(r["value"] in (4.2371, 4.3607) for r in found)  # "Giving an average of ..."


def test_perf_sched_all_keeps_messaging_and_skips_pipe():
    found = rows("psi_perf_bench_sched_all")
    assert [(r["system"], r["value"]) for r in found] == [("before the patch", 0.032), ("after the patch", 0.032)]
    assert not any(r["value"] in (8.077, 7.758) for r in found)  # sched/pipe `Total time:`
    assert found[0]["params"] == {"variant": "perf", "groups": "10", "tasks": "400", "mode": "process", "ipc": "socket"}


def test_perf_command_wrapped_into_a_quote_still_gives_params():
    found = rows("qemu_pmu_perf_stat_record_messaging")
    assert [r["value"] for r in found] == [0.265, 1.397]
    assert {r["params"]["loops"] for r in found} == {"10"}  # `> perf bench sched messaging -g 1 -l 10`
    assert {r["params"]["groups"] for r in found} == {"1"}


def test_quoted_perf_record_run():
    (row,) = rows("perf_sched_map_quoted_messaging")
    assert row["value"] == 0.197 and row["quoted"] is True and row["params"]["tasks"] == "400"


def test_rt_tests_banner_and_lkp_instances():
    found = rows("lkp_rt_tests_process_pipe")
    assert [r["value"] for r in found][:3] == [9.541, 10.018, 12.241]
    assert found[0]["params"] == {
        "variant": "rt-tests", "groups": "256", "tasks": "10240", "mode": "process", "ipc": "pipe",
        "loops": "30000", "datasize": "100", "instance": "1", "repeat": "1",
    }  # fmt: skip
    multi = rows("lkp_rt_tests_threads_multi_instance")
    second = [r for r in multi if r["params"]["instance"] == "2"]
    assert len(second) == 8 and second[0]["value"] == 47.847
    assert second[0]["params"]["tasks"] == "327680" and second[0]["params"]["mode"] == "thread"


def test_perf_banner_without_command():
    (row,) = rows("lkp_perf_bench_sched_messaging")
    assert row["value"] == 0.055 and "ipc" not in row["params"]  # no command line: unknown


test_negative_fixtures_give_no_rows = negatives_test(DIR, rows)


def test_underlined_config_headings_name_the_systems_and_the_script_gives_params():
    found = rows("linuxmm_2011_rt_tests_config_headings")
    by_system = {}
    for r in found:
        by_system.setdefault(r["system"], []).append(r["value"])
    assert by_system == {
        "bzImage_nocgroups_nopreempt": [14.940, 14.883, 14.959],
        "bzImage_cgroups_nopreempt": [15.857, 15.745, 15.588],
        "bzImage_cgroups_preempt": [15.632, 15.221, 15.443],
        "bzImage_nocgroups_preempt": [14.488, 14.390, 14.310],
    }
    assert all(r["params"]["loops"] == "1000" for r in found)  # `./hackbench -l 1000` in the loop


def test_a_loop_command_reads_the_bare_numbers_below_it():
    text = "$ for i in 1 2 3; do ./hackbench 10 | grep Time | cut -d' ' -f2; done\n2.741\n2.802\n2.9\n\nok\n4\n"
    found = rows_of(text)
    assert [(r["value"], r["params"]["groups"], r["params"]["repeat"]) for r in found] == [
        (2.741, "10", "1"), (2.802, "10", "2"), (2.9, "10", "3"),
    ]  # fmt: skip
    # without a loop or a pipe hackbench prints `Time:`; a bare number below is not its output
    assert rows_of("$ ./hackbench 10\n2.5\n") == []


def test_perf_stat_repeating_hackbench_gives_one_run_per_elapsed_line_under_its_caption():
    # https://lore.kernel.org/netdev/86d05f68-e644-8b05-3154-4658813e986e@arm.com/ (excerpt, trailing blanks cut)
    text = ("  ./perf stat --null --sync --repeat 200 ./hackbench\n\n"
            "The regression is easily reproducible on my end, this is 3 runs of the above\n"
            "comparing the patch and its parent:\n\n"
            "  -PATCH:\n"
            "  0.71062 +- 0.00150 seconds time elapsed  ( +-  0.21% )\n"
            "  0.71121 +- 0.00181 seconds time elapsed  ( +-  0.25% )\n"
            "  0.71277 +- 0.00181 seconds time elapsed  ( +-  0.25% )\n\n"
            "  +PATCH:\n"
            "  0.72556 +- 0.00174 seconds time elapsed  ( +-  0.24% )\n"
            "  0.72695 +- 0.00192 seconds time elapsed  ( +-  0.26% )\n"
            "  0.72559 +- 0.00178 seconds time elapsed  ( +-  0.25% )\n")
    found = rows_of(text)
    assert [(r["system"], r["value"]) for r in found] == [
        ("-PATCH", 0.71062), ("-PATCH", 0.71121), ("-PATCH", 0.71277),
        ("+PATCH", 0.72556), ("+PATCH", 0.72695), ("+PATCH", 0.72559)]  # never the spread after `+-`
    # an elapsed line with no hackbench run under perf stat above it stays unread
    assert rows_of("  ./hackbench 10\n\n  0.71062 +- 0.00150 seconds time elapsed\n") == []


def test_a_time_line_above_perf_stats_report_of_hackbench_is_hackbenchs():
    # https://lore.kernel.org/linux-mm/20211011144331.70084-1-42.hyeyoo@gmail.com/ (counters cut short)
    text = ("Before:\n\nTime: 91.677\n\n Performance counter stats for 'hackbench -g 100 -l 10000':\n"
            "        1462938.07 msec cpu-clock                 #   15.908 CPUs utilized\n"
            "          18072550      context-switches          #   12.354 K/sec\n\n"
            "      91.964452802 seconds time elapsed\n\n      43.416742000 seconds user\n"
            "    1422.441123000 seconds sys\n\nAfter:\n\nTime: 90.220\n\n"
            " Performance counter stats for 'hackbench -g 100 -l 10000':\n"
            "        1437418.48 msec cpu-clock                 #   15.880 CPUs utilized\n\n"
            "      90.510010000 seconds time elapsed\n")
    found = rows_of(text)
    assert [(r["system"], r["value"]) for r in found] == [
        ("Before", 91.677), ("After", 90.22)]  # perf's elapsed wraps the same run
    assert found[0]["params"]["groups"] == "100" and found[0]["params"]["loops"] == "10000"
    # a `Time:` with no hackbench above or below it stays unread
    assert rows_of("Time: 91.677\n\n Performance counter stats for 'sleep 1':\n") == []


def test_perf_stat_null_of_hackbench_reports_its_elapsed_time():
    # https://lore.kernel.org/lkml/1615303512-35058-1-git-send-email-xlpang@linux.alibaba.com/
    text = ("1) perf stat --null --repeat 10 -- hackbench 20 thread 20000\n\n== original, no patched\n"
            "Performance counter stats for 'hackbench 20 thread 20000' (10 runs):\n\n"
            "      24.536050899 seconds time elapsed                                          ( +-  0.24% )\n\n\n"
            "== patched with patch1~4\n"
            "Performance counter stats for 'hackbench 20 thread 20000' (10 runs):\n\n"
            "      24.670892273 seconds time elapsed                                          ( +-  0.29% )\n")
    found = rows_of(text)
    assert [(r["system"], r["value"]) for r in found] == [
        ("original, no patched", 24.536050899), ("patched with patch1~4", 24.670892273)]
    assert found[0]["params"]["groups"] == "20" and found[0]["params"]["mode"] == "thread"


def test_runs_joined_on_one_line_after_the_command():
    # https://lore.kernel.org/lkml/E16Dh0t-0003yl-00@wagner.rustcorp.com.au/
    text = ("On a 12-way PPC64:\n2.4.17-pre7:\n\thackbench 50: Time: 851.469 Time: 847.143 Time: 826.868\n\n"
            "2.4.17-pre7-multiqueue-patch:\n\thackbench 50: Time: 15.120 Time: 14.766 Time: 15.067\n")
    found = rows_of(text)
    assert [(r["system"], r["value"], r["params"]["repeat"]) for r in found] == [
        ("2.4.17-pre7", 851.469, "1"), ("2.4.17-pre7", 847.143, "2"), ("2.4.17-pre7", 826.868, "3"),
        ("2.4.17-pre7-multiqueue-patch", 15.12, "1"), ("2.4.17-pre7-multiqueue-patch", 14.766, "2"),
        ("2.4.17-pre7-multiqueue-patch", 15.067, "3")]
    assert found[0]["params"]["groups"] == "50" and found[0]["unit"] == "s"
    # a bare group count before the runs needs hackbench named right above it
    assert rows_of("Results:\n10: Time: 10.573 Time: 13.471 Time: 9.289\n") == []
    assert len(rows_of("hackbench gives:\n10: Time: 10.573 Time: 13.471 Time: 9.289\n")) == 3


def test_rt_tests_banner_wrapped_by_the_mailer():
    # https://lore.kernel.org/linux-mm/1609862862-3573-1-git-send-email-imran.f.khan@oracle.com/
    text = ("Without this change:\n    # hackbench process 10 1000 -s 100000\n"
            "    Running in process mode with 10 groups using 40 file descriptors\n"
            "    each (== 400 tasks)\n    Each sender will pass 100 messages of 100000 bytes\n"
            "    Time: 4.401\n\nWith this change:\n    # hackbench process 10 1000 -s 100000\n"
            "    Running in process mode with 10 groups using 40 file descriptors\n"
            "    each (== 400 tasks)\n    Each sender will pass 100 messages of 100000 bytes\n"
            "    Time: 3.782\n")
    found = rows_of(text)
    assert [(r["system"], r["value"]) for r in found] == [("Without this change", 4.401), ("With this change", 3.782)]
    assert found[0]["params"] == {"ipc": "socket", "mode": "process", "groups": "10", "tasks": "400",
                                  "loops": "100", "datasize": "100000", "variant": "rt-tests"}


def test_rt_tests_banner_wrapped_after_each():
    # lkp-tests' rt-tests hackbench log (fixture lkp_rt_tests_process_pipe) after a 72-column wrap
    text = ("2026-07-19 18:06:13 hackbench -g 256 -f 20 --process --pipe -l 30000 -s 100\n"
            "Running in process mode with 256 groups using 40 file descriptors each\n(== 10240 tasks)\n"
            "Each sender will pass 30000 messages of 100 bytes\nTime: 9.541\n")
    (found,) = rows_of(text)
    assert (found["value"], found["params"]["groups"], found["params"]["tasks"]) == (9.541, "256", "10240")


def test_time_line_without_hackbench_context_is_not_a_row():
    assert rows_of("hackbench was mentioned above\n\nsomething else\nTime: 3.2\n") == []
    assert [r["value"] for r in rows_of("hackbench gives:\nTime: 3.2\n")] == [3.2]


# --- (a) robustness ------------------------------------------------------------------------------


FRAGMENTS = [
    "Running with 10*40 (== 400) tasks.", "Time: ", "5.484", "hackbench ", "-g 256", " --pipe", " -l", " x",
    "Running in threaded mode with 2 groups using 40 file descriptors each (== 80 tasks)",
    "Each sender will pass 30000 messages of 100 bytes", "# Running 'sched/messaging' benchmark:",
    " # Running sched/pipe benchmark...", "# 20 sender and receiver processes per group",
    "# 10 groups == 400 processes run", "     Total time: ", " [sec]", "Instance: 2", "\n", "\n", "> ", "  ", "0", ".",
]  # fmt: skip


test_random_text_never_raises, test_mutated_fixtures_never_raise = fuzz_tests(
    PARSER, FRAGMENTS, GOLDEN.bodies(), SETTINGS
)


# --- (b) round trip from the three tools' printf formats -------------------------------------------

seconds = st.floats(0.001, 5000, allow_nan=False)


@st.composite
def classic_runs(draw) -> tuple[str, list[tuple[dict, float]]]:
    """hackbench.c: `Running with %d*40 (== %d) tasks.` then `Time: %lu.%03lu`."""
    groups = draw(st.integers(1, 500))
    out = []
    lines = ["$ ./hackbench " + str(groups)]
    for _ in range(draw(st.integers(1, 6))):
        t = draw(seconds)
        lines += [f"Running with {groups}*40 (== {groups * 40}) tasks.", f"Time: {t:.3f}"]
        out.append(({"variant": "classic", "groups": str(groups), "tasks": str(groups * 40), "ipc": "socket"}, float(f"{t:.3f}")))
    return "\n".join(lines) + "\n", out


@st.composite
def rt_tests_runs(draw) -> tuple[str, list[tuple[dict, float]]]:
    """rt-tests: `Running in %s mode with %d groups using %d file descriptors each (== %d tasks)`."""
    groups, fds, loops, size = draw(st.integers(1, 9000)), draw(st.integers(1, 50)), draw(st.integers(1, 10**7)), draw(st.integers(1, 4096))
    threads, pipe = draw(st.booleans()), draw(st.booleans())
    cmd = f"hackbench -g {groups} -f {fds} {'--threads' if threads else '--process'}{' --pipe' if pipe else ''} -l {loops} -s {size}"
    params = {"variant": "rt-tests", "groups": str(groups), "tasks": str(groups * fds * 2), "mode": "thread" if threads else "process",
              "ipc": "pipe" if pipe else "socket", "loops": str(loops), "datasize": str(size)}  # fmt: skip
    lines, out = [], []
    for _ in range(draw(st.integers(1, 5))):
        t = draw(seconds)
        lines += [cmd, f"Running in {'threaded' if threads else 'process'} mode with {groups} groups using {fds * 2} file descriptors each (== {groups * fds * 2} tasks)",
                  f"Each sender will pass {loops} messages of {size} bytes", f"Time: {t:.3f}"]  # fmt: skip
        out.append((dict(params), float(f"{t:.3f}")))
    return "\n".join(lines) + "\n", out


@st.composite
def perf_runs(draw) -> tuple[str, list[tuple[dict, float]]]:
    """perf bench sched messaging: `# %d sender and receiver %s per group`, `Total time: %.3f [sec]`."""
    groups, per = draw(st.integers(1, 100)), 20
    threads = draw(st.booleans())
    kind = "threads" if threads else "processes"
    t = draw(seconds)
    lines = ["# Running 'sched/messaging' benchmark:", f"# {per} sender and receiver {kind} per group",
             f"# {groups} groups == {groups * per * 2} {kind} run", "", f"     Total time: {t:.3f} [sec]"]  # fmt: skip
    params = {"variant": "perf", "groups": str(groups), "tasks": str(groups * per * 2), "mode": "thread" if threads else "process"}
    if draw(st.booleans()):  # `perf bench sched all` also runs sched/pipe: not a hackbench time
        lines += ["", "# Running 'sched/pipe' benchmark:", "# Executed 1000000 pipe operations between two processes",
                  "", f"     Total time: {draw(seconds):.3f} [sec]"]  # fmt: skip
    return "\n".join(lines) + "\n", [(params, float(f"{t:.3f}"))]


def strip_repeat(found: list[dict]) -> list[tuple[dict, float]]:
    return [({k: v for k, v in r["params"].items() if k != "repeat"}, r["value"]) for r in found]


@SETTINGS
@given(st.one_of(classic_runs(), rt_tests_runs(), perf_runs()))
def test_report_round_trips(report):
    text, expected = report
    found = rows_of(text)
    assert strip_repeat(found) == expected
    assert all(r["metric"] == "time" and r["unit"] == "s" for r in found)
    if len(found) > 1:
        assert [r["params"]["repeat"] for r in found] == [str(i) for i in range(1, len(found) + 1)]


# --- (c) mail damage ------------------------------------------------------------------------------


test_synthetic_report_survives_mail_damage, test_fixture_survives_mail_damage = damage_tests(
    st.one_of(classic_runs(), rt_tests_runs(), perf_runs()), DIR, SETTINGS
)

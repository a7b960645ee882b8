"""UnixBench parser: the tricky cells of real posts, mail damage, and property tests."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.transforms.parsers.damage import (
    CANON_KEYS,
    canon,
    collapse,
    crlf,
    one,
    pick,
    quote,
    wrap,
)
from tests.transforms.parsers.fixtures_io import FIXTURES, fixture_body, rows_of
from transforms.extract import extract_runs
from transforms.parsers import unixbench
from transforms.quotes import segments
from transforms.rows import result_rows
from transforms.units import KNOWN_UNITS

HERE = FIXTURES / "unixbench"
SEED = fixture_body(HERE / "seed_000.txt")


def _rows(body: str) -> list[dict]:
    return [r for r in result_rows(extract_runs(body, "t"))
            if r["benchmark"] == "unixbench" and r["run_id"] in _parser_run_ids(body)]  # the parser's rows


def _parser_run_ids(body: str) -> set[str]:
    return {er.run_id for er in extract_runs(body, "t") if er.parser.name == "unixbench"}


def _runs(body: str) -> list:
    return [er.run for er in extract_runs(body, "t") if er.parser.name == "unixbench"]


def _pick(rows, **where):
    """unixbench rows carry more params than a test names: match the named ones."""
    return pick(rows, params_subset=True, **where)


def _one(rows, **where) -> dict:
    return one(rows, params_subset=True, **where)


def _canon(rows) -> list[tuple]:
    return canon(rows, (*CANON_KEYS, "alignment"))


# --- the seed: every value of Luvalley's 1-copy run ------------------------------------------

LUVALLEY_1 = {  # metric: (raw value, unit, duration_s, samples, baseline, index)
    "dhrystone_2": (10802400.5, "lps", "10.0", "2", "116700.0", 925.7),
    "whetstone_double": (12287.7, "MWIPS", "10.0", "2", "55.0", 2234.1),
    "execl_throughput": (1044.6, "lps", "29.2", "1", "43.0", 242.9),
    "file_copy_1024_bufsize_2000_maxblocks": (429860.0, "KBps", "30.0", "1", "3960.0", 1085.5),
    "file_copy_256_bufsize_500_maxblocks": (125357.0, "KBps", "30.0", "1", "1655.0", 757.4),
    "file_copy_4096_bufsize_8000_maxblocks": (990103.0, "KBps", "30.0", "1", "5800.0", 1707.1),
    "pipe_throughput": (803044.2, "lps", "10.0", "2", "12440.0", 645.5),
    "pipe_context_switching": (124785.9, "lps", "10.0", "2", "4000.0", 312.0),
    "process_creation": (1861.8, "lps", "30.0", "1", "126.0", 147.8),
    "shell_scripts_1": (2338.6, "lpm", "60.0", "1", "42.4", 551.6),
    "shell_scripts_8": (438.3, "lpm", "60.1", "1", "6.0", 730.5),
    "syscall_overhead": (709335.4, "lps", "10.0", "2", "15000.0", 472.9),
}


def test_seed_luvalley_one_copy_every_value():
    rows = _pick(_rows(SEED), system="Luvalley", params={"copies": "1"})
    assert len(rows) == 12 + 12 + 1
    run = _runs(SEED)[0]
    assert (run.system, run.tool_version, run.caption) == ("Luvalley", "5.1.2", "Luvalley's result:")
    for metric, (value, unit, secs, samples, baseline, index) in LUVALLEY_1.items():
        raw = _one(rows, metric=metric)
        assert (raw["value"], raw["unit"], raw["statistic"], raw["params"]) == (value, unit, "value", {"copies": "1"})
        assert raw["higher_is_better"] is True and raw["alignment"] == "exact" and raw["quoted"] is False
        assert run.attributes[f"{metric}.duration_s"] == secs
        assert run.attributes[f"{metric}.samples"] == samples
        idx = _one(rows, metric=f"{metric}_index")
        assert (idx["value"], idx["unit"], idx["statistic"]) == (index, "index", "index")
        assert idx["params"] == {"copies": "1", "baseline": baseline}
    score = _one(rows, metric="index_score")
    assert (score["value"], score["unit"], score["statistic"]) == (631.2, "index", "score")
    assert score["metric_label"] == "System Benchmarks Index Score"
    assert _one(rows, metric="dhrystone_2")["metric_label"] == "Dhrystone 2 using register variables"


def test_seed_runs_systems_copies_and_header_attributes():
    runs = _runs(SEED)
    assert [(r.system, r.results[0].params["copies"]) for r in runs] == [
        ("Luvalley", "1"), ("Luvalley", "2"), ("KVM", "1"), ("KVM", "2"),
    ]
    assert all(len(r.results) == 25 and r.status == "ok" for r in runs)
    kvm2 = runs[3]
    assert kvm2.attributes["kernel"] == "2.6.18-53.el5"
    assert kvm2.attributes["cpus"] == "2"
    assert kvm2.attributes["machine"] == "i686 (i386)"
    assert kvm2.attributes["hostname"] == "localhost.localdomain"
    assert kvm2.attributes["cpu.0"] == "QEMU Virtual CPU version 0.9.1 (5325.7 bogomips)"
    assert kvm2.attributes["cpu.1.flags"] == "x86-64, MMX, Physical Address Ext"
    assert kvm2.attributes["benchmark_run"].endswith("12:11:33 - 12:20:43")
    rows = _rows(SEED)
    assert _one(rows, system="KVM", metric="index_score", params={"copies": "2"})["value"] == 558.9
    assert _one(rows, system="KVM", metric="index_score", params={"copies": "1"})["value"] == 502.8
    assert _one(rows, system="Luvalley", metric="index_score", params={"copies": "2"})["value"] == 735.5
    assert _one(rows, system="KVM", metric="whetstone_double", params={"copies": "2"})["value"] == 4928.6
    assert {r["unit"] for r in rows} == {"lps", "lpm", "MWIPS", "KBps", "index"}
    assert {r["system"] for r in rows} == {"Luvalley", "KVM"}
    assert len(rows) == 100


# --- other versions and hand-made tables ------------------------------------------------------


def test_v4_outlook_wrapped_tails():
    body = fixture_body(HERE / "v4_outlook_wrapped.txt")
    rows = _rows(body)
    (run,) = _runs(body)
    assert (run.system, run.tool_version) == ("2.5.60", "4.1.0")
    assert run.attributes["kernel"] == "2.5.60" and run.attributes["hostname"] == "sowmya"
    assert run.attributes["system"].endswith("i686 GNU/Linux")
    assert _one(rows, metric="dhrystone_2")["value"] == 1822374.2
    assert run.attributes["dhrystone_2.duration_s"] == "10.0" and run.attributes["dhrystone_2.samples"] == "10"
    assert run.attributes["shell_scripts_8.samples"] == "3"
    assert _one(rows, metric="whetstone_double")["unit"] == "MWIPS"
    assert _one(rows, metric="file_read_4096_bufsize_8000_maxblocks")["value"] == 320907.0
    assert _one(rows, metric="dc_sqrt2")["value"] == 39450.0
    assert _one(rows, metric="shell_scripts_8_index")["params"] == {"baseline": "6.0"}
    score = _one(rows, metric="index_score")
    assert (score["value"], score["metric_label"], score["statistic"]) == (198.5, "FINAL SCORE", "score")
    assert all("copies" not in r["params"] for r in rows)  # 4.x does not print it: never guessed


def test_v4_tail_on_next_line():
    rows = _rows(fixture_body(HERE / "v4_tail_nextline.txt"))
    assert {r["system"] for r in rows} == {"kernel-2.5.67"}
    assert _one(rows, metric="process_creation")["value"] == 6095.5
    assert _one(rows, metric="index_score")["value"] == 216.0


def test_v311_pgp_ratio_index_kept_apart():
    rows = _rows(fixture_body(HERE / "v311_pgp.txt"))
    assert _one(rows, system="2.6.2", metric="index_average")["value"] == 240.2
    total = _one(rows, system="2.6.2", metric="index_sum")
    assert (total["value"], total["statistic"], total["params"]) == (1201.0, "derived", {"items": "5"})
    assert _one(rows, system="2.4.22", metric="dhrystone_2_noregister_index")["params"] == {"baseline": "22366.3"}
    assert _one(rows, system="2.4.22", metric="c_compiler_throughput")["value"] == 1077.6
    assert _one(rows, system="2.6.2", metric="file_read_10s")["value"] == 3618620.0
    assert not _pick(rows, metric="index_score")  # 3.11 summary is not the 4.x/5.x score


def test_partial_indexes_captions_and_copies():
    rows = _rows(fixture_body(HERE / "partial_quoted.txt"))
    assert all(r["quoted"] for r in rows)
    assert _one(rows, system="w/", metric="partial_index_score")["value"] == 1645.0
    assert _one(rows, system="w/", metric="shell_scripts_1")["params"] == {"copies": "1"}  # from RESULT
    assert _one(rows, system="w", metric="shell_scripts_1")["value"] == 76333.6
    assert _one(rows, system="w", metric="shell_scripts_1_index")["params"] == {"copies": "96", "baseline": "42.4"}
    assert _one(rows, system=None, metric="partial_index_score")["value"] == 25761.6
    assert not _pick(rows, metric="index_score")
    rows = _rows(fixture_body(HERE / "partial_progress.txt"))
    assert [r["value"] for r in _pick(rows, metric="partial_index_score")] == [2107.2, 1481.6, 2859.0, 2444.2]
    assert {r["params"]["copies"] for r in rows} == {"24"}
    rows = _rows(fixture_body(HERE / "partial_missing_paren.txt"))
    assert _one(rows, system="Use qspinlock", metric="partial_index_score")["value"] == 13775.1
    assert _one(rows, system="Use qspinlock", metric="process_creation")["params"] == {"copies": "120"}


def test_hand_made_tables():
    rows = _rows(fixture_body(HERE / "multi_column.txt"))
    assert {r["system"] for r in rows} == {"Base", "with patch"}
    assert _one(rows, system="with patch", metric="execl_throughput_index")["value"] == 941.1
    assert _one(rows, system="Base", metric="index_score")["value"] == 1467.2
    assert _one(rows, system="with patch", metric="index_score")["value"] == 1483.0
    rows = _rows(fixture_body(HERE / "row_labels.txt"))
    assert _one(rows, system="rc5-mm1 + memory controller", metric="execl_throughput")["value"] == 2868.8
    best = _one(rows, system="rc5-mm1 *without* memory controller", metric="execl_throughput_index")
    assert (best["value"], best["params"]) == (723.3, {"baseline": "43.0"})


# https://lore.kernel.org/lkml/20231220070204.2662730-1-zengheng4@huawei.com/, three rows as posted
DIFF_COLUMN = """\
System Benchmarks Index Values           Without Patch   With Patch     Diff
Dhrystone 2 using register variables         185518.38    185329.56   -0.10%
Execl Throughput                               9725.14     10390.18    6.84%
File Copy 1024 bufsize 2000 maxblocks          1658.42      2035.55   22.74%
                                                                    ========
System Benchmarks Index Score                 13634.17     14560.71    6.80%
"""


def test_a_hand_made_table_with_a_column_of_changes_beside_the_systems():
    rows = _rows(DIFF_COLUMN)
    assert {r["system"] for r in rows} == {"Without Patch", "With Patch"}  # `Diff` is no system
    assert len(rows) == 8 and all(r["unit"] == "index" for r in rows)
    assert _one(rows, system="With Patch", metric="execl_throughput_index")["value"] == 10390.18
    assert _one(rows, system="Without Patch", metric="index_score")["value"] == 13634.17
    assert _one(rows, system="With Patch", metric="index_score")["value"] == 14560.71


def test_empty_copies_block_and_negatives_give_nothing():
    body = fixture_body(HERE / "empty_copies_block.txt")
    rows = _rows(body)
    assert {r["params"]["copies"] for r in rows} == {"1"}
    assert {r["system"] for r in rows} == {"eons-supero-ryzen-2"}  # host name: no caption
    for case in ("neg_delta_digest", "neg_prose_listing"):
        assert rows_of(fixture_body(HERE / f"{case}.txt")) == []


def test_ambiguous_columns_are_unparsed_not_guessed():
    body = "Testcase Base with patch\nSystem Benchmarks Index Values INDEX INDEX\nExecl Throughput 1296.5 941.1\n"
    (run,) = _runs(body)
    assert run.status == "unparsed" and "column" in run.reason
    assert _rows(body) == []


def test_value_and_tail_wrapped_onto_next_lines():
    body = (
        "Luvalley's result:\n"
        "Dhrystone 2 using register variables\n10802400.5 lps (10.0 s, 2 samples)\n"
        "Double-Precision Whetstone 12287.7\nMWIPS (10.0 s, 2 samples)\n"
        "System Benchmarks Index Values BASELINE RESULT INDEX\n"
        "Dhrystone 2 using register variables 116700.0 10802400.5\n925.7\n"
        "System Benchmarks Index Score\n631.2\n"
    )
    rows = _rows(body)
    assert _one(rows, metric="dhrystone_2")["value"] == 10802400.5
    assert _one(rows, metric="whetstone_double")["unit"] == "MWIPS"
    assert _one(rows, metric="dhrystone_2_index")["value"] == 925.7
    assert _one(rows, metric="index_score")["value"] == 631.2
    assert {r["system"] for r in rows} == {"Luvalley"}


def test_lines_without_tail_graphics_and_attribution_captions():
    body = (
        "On Tue, Jun 2, 2009, Someone wrote:\n"
        "> Dhrystone 2 using register variables     4296680.5 lps\n"
        "> 3D graphics: gears                           3207.0 fps   (20.0 s, 7 samples)\n"
        "> 3D Graphics Benchmarks Index Values          BASELINE       RESULT    INDEX\n"
        "> 3D graphics: gears                               33.0       3207.0    971.8\n"
        "> 3D Graphics Benchmarks Index Score                                    971.8\n"
    )
    rows = _rows(body)
    assert {r["system"] for r in rows} == {None}  # an attribution line names no system
    assert _one(rows, metric="dhrystone_2")["value"] == 4296680.5
    assert _one(rows, metric="graphics_3d_gears")["unit"] == "/sec"
    assert _one(rows, metric="graphics_3d_index_score")["value"] == 971.8
    assert all(r["quoted"] for r in rows)


def test_every_emitted_metric_is_registered_with_a_known_unit():
    for path in sorted(HERE.glob("*.txt")):
        for r in _rows(fixture_body(path)):
            spec = unixbench.METRICS[r["metric"]]
            assert r["unit"] == spec.unit, (path.name, r)
            assert spec.low <= r["value"] <= spec.high, (path.name, r)
    assert {s.unit for s in unixbench.METRICS.values()} <= KNOWN_UNITS


# --- mail damage ------------------------------------------------------------------------------


# named functions: their names are the ids of the parametrized cases below


def _quote(body: str) -> str:
    return quote(body)


def _collapse(body: str) -> str:
    return collapse(body, strip=True)


def _tabify(body: str) -> str:
    return "\n".join(re.sub(r" {8}", "\t", line) for line in body.split("\n"))


def _wrap(body: str) -> str:
    return wrap(body, 72)


_DAMAGES = [_quote, _collapse, _tabify, _wrap, lambda b: crlf(b)]


def _unquoted(rows):
    return _canon([{**r, "quoted": False} for r in rows])


@pytest.mark.parametrize("damage", _DAMAGES)
@pytest.mark.parametrize("case", ["seed_000", "pkb_sample", "localized_blog", "partial_progress", "v4_outlook_wrapped"])
def test_mail_damage_keeps_rows(case, damage):
    body = fixture_body(HERE / f"{case}.txt")
    assert _unquoted(_rows(damage(body))) == _unquoted(_rows(body))


# --- property tests ---------------------------------------------------------------------------

_INDEXED = [  # printed name, metric, unit label, baseline
    ("Dhrystone 2 using register variables", "dhrystone_2", "lps", 116700.0),
    ("Double-Precision Whetstone", "whetstone_double", "MWIPS", 55.0),
    ("Execl Throughput", "execl_throughput", "lps", 43.0),
    ("File Copy 1024 bufsize 2000 maxblocks", "file_copy_1024_bufsize_2000_maxblocks", "KBps", 3960.0),
    ("File Copy 256 bufsize 500 maxblocks", "file_copy_256_bufsize_500_maxblocks", "KBps", 1655.0),
    ("File Copy 4096 bufsize 8000 maxblocks", "file_copy_4096_bufsize_8000_maxblocks", "KBps", 5800.0),
    ("Pipe Throughput", "pipe_throughput", "lps", 12440.0),
    ("Pipe-based Context Switching", "pipe_context_switching", "lps", 4000.0),
    ("Process Creation", "process_creation", "lps", 126.0),
    ("Shell Scripts (1 concurrent)", "shell_scripts_1", "lpm", 42.4),
    ("Shell Scripts (8 concurrent)", "shell_scripts_8", "lpm", 6.0),
    ("System Call Overhead", "syscall_overhead", "lps", 15000.0),
]
_VALUE = st.floats(min_value=0.1, max_value=9e9, allow_nan=False).map(lambda v: float(f"{v:.1f}"))


@st.composite
def _reports(draw):
    """A report printed with UnixBench 5.1.3's own formats (`Run`: logResults, logIndexCat)."""
    tests = draw(st.lists(st.sampled_from(_INDEXED), min_size=1, max_size=12, unique=True))
    tests = sorted(tests)  # Run sorts tests by name
    blocks = []
    for copies in draw(st.lists(st.integers(1, 256), min_size=1, max_size=2, unique=True)):
        scores = [draw(_VALUE) for _ in tests]
        indexes = [draw(_VALUE) for _ in tests]
        secs = [draw(st.floats(0.1, 99.9).map(lambda v: f"{v:.1f}")) for _ in tests]
        samples = [draw(st.integers(1, 10)) for _ in tests]
        blocks.append((str(copies), scores, indexes, secs, samples, draw(_VALUE)))
    full = len(tests) == len(_INDEXED)
    lines = ["Random's results:", "=" * 72, "   BYTE UNIX Benchmarks (Version 5.1.3)", "",
             "   System: box: GNU/Linux", "   OS: GNU/Linux -- 5.4.0 -- #1 SMP", "   Machine: x86_64 (x86_64)",
             "   CPU 0: Some CPU (5200.0 bogomips)", "          x86-64, MMX", "   10:00:00 up 1 day; runlevel 3", ""]
    expected = []
    for copies, scores, indexes, secs, samples, score in blocks:
        lines += ["-" * 72, "Benchmark Run: Tue Dec 16 2014 23:49:45 - 00:17:52",
                  f"256 CPUs in system; running {copies} parallel {'copy' if copies == '1' else 'copies'} of tests", ""]
        for (name, metric, unit, _), v, s, n in zip(tests, scores, secs, samples, strict=True):
            lines.append(f"{name:<40} {v:>12.1f} {unit:<5} ({s} s, {n} samples)")  # %-40s %12.1f %-5s
            expected.append(("Random", metric, "value", unit, v, (("copies", copies),)))
        head = "System Benchmarks " + ("Index Values" if full else "Partial Index")
        lines += ["", f"{head:<40} {'BASELINE':>12} {'RESULT':>12} {'INDEX':>8}"]
        for (name, metric, _, base), v, ix in zip(tests, scores, indexes, strict=True):
            lines.append(f"{name:<40} {base:>12.1f} {v:>12.1f} {ix:>8.1f}")
            expected.append(("Random", f"{metric}_index", "index", "index", ix,
                             (("baseline", f"{base:.1f}"), ("copies", copies))))
        title = "System Benchmarks Index Score" + ("" if full else " (Partial Only)")
        lines += [f"{'':<40} {'':>12} {'':>12} {'========':>8}", f"{title:<66} {score:>8.1f}", ""]
        expected.append(("Random", ("" if full else "partial_") + "index_score", "score", "index", score,
                         (("copies", copies),)))
    return "\n".join(lines) + "\n", expected


def _as_expected(rows):
    return sorted((r["system"], r["metric"], r["statistic"], r["unit"], r["value"], tuple(sorted(r["params"].items())))
                  for r in rows)


_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(_reports())
def test_printed_report_round_trips(report):
    body, expected = report
    rows = _rows(body)
    assert _as_expected(rows) == sorted(expected)
    assert all(r["alignment"] == "exact" and not r["quoted"] for r in rows)


@_SETTINGS
@given(_reports(), st.sampled_from(_DAMAGES))
def test_damaged_report_gives_same_rows_or_none(report, damage):
    body, expected = report
    damaged = _rows(damage(body))
    assert _as_expected(damaged) == sorted(expected)


_FIXTURE_TEXTS = [fixture_body(p) for p in sorted(HERE.glob("*.txt"))]


@st.composite
def _mutated(draw):
    text = draw(st.sampled_from(_FIXTURE_TEXTS))
    for _ in range(draw(st.integers(1, 6))):
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        j = min(len(text), i + draw(st.integers(0, 40)))
        op = draw(st.sampled_from(["delete", "insert", "duplicate", "digits"]))
        if op == "delete":
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + draw(st.text(alphabet=" \t\n>()-=.:0123456789abcxyzINDEX", max_size=20)) + text[i:]
        elif op == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        else:
            text = text[:i] + re.sub(r"\d", "9", text[i:j]) + text[j:]
    return text


def _parse_every_segment(text: str) -> None:
    for seg in segments(text):
        for run in unixbench.parse(seg):  # the parser itself must not raise
            assert run.status in ("ok", "unparsed")
            assert 0 <= run.line_start < run.line_end <= len(seg.lines) + 1
    extract_runs(text, "m")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutated())
def test_mutated_fixtures_never_raise(text):
    _parse_every_segment(text)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=400)
       | st.lists(st.sampled_from([
           "System Benchmarks Index Score", "Benchmark Run:", "BYTE UNIX Benchmarks (Version 5.1.2)",
           "Dhrystone 2 using register variables", "123.4 lps", "(10.0 s,", "samples)", "1.0 2.0", "---",
           "TEST BASELINE RESULT INDEX", "(1)", "(1) .... x", "FINAL SCORE", "INDEX INDEX", "========", "\n", " ",
       ]), max_size=40).map(" ".join))
def test_random_text_never_raises(text):
    _parse_every_segment(text)


def test_fixture_paths_exist():
    assert Path(HERE / "seed_000.txt").read_text().startswith(
        "Source: shared/seeds/000_aadb51172f2cdddf.txt (kvm list, Xiaodong Yi, April 2009)\n"
    )


_NAME_LINES = st.sampled_from([
    "Dhrystone 2 using register variables", "Double-Precision Whetstone", "Execl Throughput",
    "File Copy 1024 bufsize 2000 maxblocks", "File Read (30 seconds)", "Pipe Throughput",
    "Pipe-based Context Switching", "Process Creation Test", "Shell Scripts (8 concurrent)",
    "System Call Overhead", "Exec System Call Overhead", "Arithmetic Test (type = double)", "Arithoh",
    "C Compiler Throughput", "Dc: sqrt(2) to 99 decimal places", "Recursion Test--Tower of Hanoi",
    "Grep a large file (system's grep)", "2D graphics: aa polygons", "3D graphics: gears", "ſystem Call Overhead",
])


@given(_NAME_LINES.map(str.upper) | _NAME_LINES, st.text(alphabet=" \t0123456789.lpsm", max_size=20),
       st.text(max_size=3))
def test_names_found_by_first_character_as_by_every_pattern(name, rest, head):
    from transforms.parsers.unixbench import _TEST_UNITS, _TESTS, _match_test

    def every(text):  # the reference: each pattern in turn, as `_match_test` did before
        for pat, template, _ in _TESTS:
            if m := pat.match(text):
                metric = template.format(*(re.sub(r"\s+", "_", g.lower()) for g in m.groups()))
                return (metric, m.group(0)) if metric in _TEST_UNITS else None
        return None

    for text in (name + rest, head + name + rest, head):
        found = _match_test(text)
        assert ((found.metric, found.label) if found else None) == every(text)


# https://lore.kernel.org/lkml/Pine.LNX.4.63.0508110331250.27749@excalibur.intercode/
HEADLESS_INDEX = """\
1) control

Execl Throughput                                43.0     1159.7      269.7
File Copy 1024 bufsize 2000 maxblocks         3960.0    93041.0      235.0
Pipe Throughput                              12440.0   217759.8      175.0
Shell Scripts (8 concurrent)                     6.0      750.9     1251.5
System Call Overhead                         15000.0   752195.3      501.5
                                                                 =========
     FINAL SCORE                                                     342.1


2) stacker_dynamic

Execl Throughput                                43.0     1163.8      270.7
Pipe Throughput                              12440.0   211583.8      170.1
                                                                 =========
     FINAL SCORE                                                     340.2
"""


def test_index_rows_whose_heads_were_cut_off_are_known_by_their_baselines():
    got = {(r["system"], r["metric"], r["value"], r["unit"]) for r in _rows(HEADLESS_INDEX)}
    assert ("control", "execl_throughput", 1159.7, "lps") in got
    assert ("control", "execl_throughput_index", 269.7, "index") in got
    assert ("control", "shell_scripts_8", 750.9, "lpm") in got
    assert ("control", "index_score", 342.1, "index") in got
    assert ("stacker_dynamic", "pipe_throughput_index", 170.1, "index") in got
    assert len(got) == 16
    # three columns of figures that do not start with the test's baseline are no index rows
    hand = "Execl Throughput      1159.7   1163.8   1159.6\nPipe Throughput     217759.8 211583.8 208970.6\n"
    assert not any(r["metric"].endswith("_index") for r in _rows(hand))


# https://lore.kernel.org/lkml/005101c2b257$d82111e0$6009720a@wipro.com/ (its lines): a mailer's wrap put
# `INDEX` under the heads and each row's index on a line of its own
WRAPPED_INDEX_TABLE = """\
                     INDEX VALUES
TEST                                        BASELINE     RESULT
INDEX

Dhrystone 2 using register variables        116700.0   1804903.9
154.7
Double-Precision Whetstone                  55.0       476.2
86.6
Execl Throughput                            43.0       912.5
212.2
"""


def test_an_index_table_whose_index_a_mailer_wrapped_keeps_every_index():
    got = {(r["metric"], r["value"], r["unit"]) for r in _rows(WRAPPED_INDEX_TABLE)}
    assert ("dhrystone_2_index", 154.7, "index") in got
    assert ("whetstone_double", 476.2, "MWIPS") in got
    assert ("execl_throughput_index", 212.2, "index") in got
    assert len(got) == 6

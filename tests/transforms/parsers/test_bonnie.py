"""Bonnie parser: the tricky cells of real Bonnie 1.x posts, mail damage, property tests (bonnie++
text tables and CSV lines: test_bonnie_bonniepp, test_bonnie_csv).

The expected numbers below are restated from the posts (as printed), not from the parser.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.transforms.parsers.bonnie_cases import (
    FILES,
    HERE,
    IO,
    _bench_wrap,
    _by_run,
    _cells,
    _extracted,
    _fixture,
    _latency,
    _rows,
)
from tests.transforms.parsers.damage import collapse, crlf, fuzz_text, quote, wrap
from tests.transforms.parsers.fixtures_io import expected_rows, fixture_body
from tests.transforms.parsers.helpers import property_settings
from transforms.extract import extract_runs
from transforms.model import Segment
from transforms.parsers import bonnie
from transforms.quotes import segments
from transforms.units import KNOWN_UNITS

SETTINGS = property_settings(120)


def test_version_labels_and_blank_lines_between_groups_of_rows():
    runs = _by_run(_fixture("lkml_2003_kernel_column_grouped_rows"))
    assert [(system, repeat) for system, repeat, _, _ in runs] == [
        (k, str(n)) for k in ("2.4.21", "22pre6", "22pre6aa2") for n in (1, 2, 3)
    ]
    assert runs[1][3]["random_seeks"] == 1254.3 and runs[-1][3]["seq_input_block"] == 36599.0


# --- the seed post (Bonnie 1.4, xen-users 2007) -------------------------------------------------


# seed_004's lead-ins above the three runs of machine `Ubuntu` (the systems they compare)
DOM0 = "Machine: Ubuntu - Dom0 Test Disk: Same DomU disk, /dev/mapper/os-pardus but mounted on /mnt in Dom0 after DomU is shut down"
TEST_DISK_D = "Test Disk: /dev/mapper/os-data mounted on /d with a lot of free disk space"
TEST_DISK_NATIVE = "Test Disk: Native partition, no RAID, /dev/sdb2 mounted on /mnt (lower results due to non-RAID)"


def test_seed_ubuntu_run_with_glued_fields_has_every_value_once():
    runs = _by_run(_fixture("seed_004"))
    system, repeat, quoted, values = runs[1]
    assert (system, repeat, quoted) == (DOM0, None, False)
    # `93.1158724` is 93.1 %CPU then 158724 K/sec, `70.4107393` is 70.4 then 107393.
    assert values == {
        "seq_output_char": 65001.0, "seq_output_char_cpu": 93.1,
        "seq_output_block": 158724.0, "seq_output_block_cpu": 27.1,
        "seq_rewrite": 48770.0, "seq_rewrite_cpu": 3.7,
        "seq_input_char": 41054.0, "seq_input_char_cpu": 70.4,
        "seq_input_block": 107393.0, "seq_input_block_cpu": 3.4,
        "random_seeks": 290.5, "random_seeks_cpu": 0.1,
    }  # fmt: skip
    rows = [r for r in _rows(_fixture("seed_004")) if r["system"] == DOM0 and not r["quoted"]]
    ubuntu1 = [r for r in rows if r["params"] == {"file_size_mb": "1500", "machine": "Ubuntu"}]
    units = {r["metric"]: r["unit"] for r in ubuntu1}
    assert units["seq_output_block"] == "K/sec" and units["seq_output_block_cpu"] == "%CPU"
    assert units["random_seeks"] == "/sec"
    assert {r["tool_version"] for r in ubuntu1} == {"1.4"}


def test_seed_four_runs_systems_quoting_and_attributes():
    ers = _extracted(_fixture("seed_004"))
    # the three runs of machine `Ubuntu` are told apart by the test disk each names above it
    assert [(er.run.system, er.quoted) for er in ers] == [
        ("Pardus", True), (DOM0, False), (TEST_DISK_D, True), (TEST_DISK_NATIVE, False)]  # fmt: skip
    assert {r["params"].get("machine") for r in _rows(_fixture("seed_004")) if r["system"] != "Pardus"} == {"Ubuntu"}
    assert [er.run.attributes["dir"] for er in ers] == ["/tmp", "/mnt/tmp/", "/d", "/mnt"]
    assert all(er.run.attributes["size_arg"] == "1500" for er in ers)
    assert all(er.run.attributes["file_size_bytes"] == "1572864000" for er in ers)
    assert all(er.run.attributes["progress_lines"] == "agree" for er in ers)
    # each configuration is measured once: no repeat
    assert {r["params"].get("repeat") for r in _rows(_fixture("seed_004"))} == {None}
    pardus = _by_run(_fixture("seed_004"))[0][3]
    assert (pardus["seq_output_char"], pardus["seq_rewrite"], pardus["random_seeks"]) == (74270, 43062, 221.2)
    ubuntu3 = _by_run(_fixture("seed_004"))[3][3]
    assert (ubuntu3["seq_output_block"], ubuntu3["seq_input_block"], ubuntu3["seq_input_block_cpu"]) == (
        108945, 51561, 0.9)  # fmt: skip




# --- Bonnie 1.x variants -----------------------------------------------------------------------


def test_classic_bonnie_blank_machine_uses_one_line_caption():
    runs = _by_run(_fixture("bonnie1_classic_shmfs"))
    assert [r[0] for r in runs] == ["2.1.108 + shmfs", None]  # 2nd caption is a 2-line paragraph
    assert runs[1][3] == _cells(IO, "3023 99.5 4343 99.1 6342 26.3 7819 98.4 17860 64.0 156.4 3.6")
    supercite = _by_run(_fixture("bonnie1_classic_supercite_quote"))
    assert [r[2] for r in supercite] == [True, True]
    assert [r[3] for r in supercite] == [r[3] for r in runs]


def test_header_without_machine_column_and_captions():
    runs = _by_run(_fixture("bonnie1_no_machine_column"))
    assert [r[0] for r in runs] == [
        "2.4.6.pre3 before", "2.4.6.pre3 after  (using flushto behavior as in defaults)",
        "2.4.6.pre3 after  (flushto = ndirty)"]  # fmt: skip
    assert runs[2][3] == _cells(IO, "10286 38.4 10715 14.4 3267 6.1 9605 47.6 10596 13.4 102.7 1.6")


# https://lore.kernel.org/lkml/20010412230944.A930@athlon.random/ ("I cutted out the numbers that
# aren't using O_DIRECT"): cells blanked with `xxxx` have no value, the rest of the row still reads
_BLANKED = """\
without using o_direct:
              -------Sequential Output-------- ---Sequential Input-- --Random--
              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---
           MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU
          400  xxxx xxxx 12999 12.1  5918 10.8  xxxx xxxx 13412 12.1   xxx  xxx
          400  xxxx xxxx 12960 12.3  5896 11.1  xxxx xxxx 13520 13.3   xxx  xxx
"""


def test_cells_the_poster_blanked_out_have_no_value():
    runs = _by_run(_BLANKED)
    assert [r[0] for r in runs] == ["without using o_direct", "without using o_direct"]
    assert runs[0][3] == _cells(IO, "_ _ 12999 12.1 5918 10.8 _ _ 13412 12.1 _ _")
    assert runs[1][3] == _cells(IO, "_ _ 12960 12.3 5896 11.1 _ _ 13520 13.3 _ _")
    assert {r["params"]["file_size_mb"] for r in _rows(_BLANKED)} == {"400"}


# https://lore.kernel.org/lkml/3B6184F0.A4D2CE5B@egenera.com/ (its lines): rows indented by a tab, a
# %CPU of 100.0 printed `100.`, captions naming each group of runs
_CPU_CUT = """\
              -------Sequential Output-------- ---Sequential Input-- --Random--
              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---
Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU
pblade 2 (ext2 defaults)
\t 1000 14400 99.9 16769  9.8  7397 11.2  9805 63.4 21820  9.1 1139.8  5.7
\t 1000 14361 100. 17089 10.4  7768 11.5  9924 64.1 24154  9.8 1112.9  7.2
pblade 3 (log all data)
\t 1000  5932 47.6  7244 12.5  4708  9.7 13909 90.5 17051  8.1 894.5  6.5
"""


def test_a_cpu_figure_cut_to_its_cell_and_the_groups_after_it_are_read():
    runs = _by_run(_CPU_CUT)
    assert [r[0] for r in runs] == ["pblade 2 (ext2 defaults)"] * 2 + ["pblade 3 (log all data)"]
    assert runs[1][3] == _cells(IO, "14361 100.0 17089 10.4 7768 11.5 9924 64.1 24154 9.8 1112.9 7.2")
    assert runs[2][3] == _cells(IO, "5932 47.6 7244 12.5 4708 9.7 13909 90.5 17051 8.1 894.5 6.5")


def test_bonnie14_cpu_100_small_size_and_wrapped_seek_cpu():
    runs = _by_run(_fixture("bonnie14_tiobench_and_two_runs"))
    assert [r[3] for r in runs] == [
        _cells(IO, "13038 99.8 44931 43.8 15274 12.9 12038 95.0 66362 32.5 305.7 4.1"),
        _cells(IO, "13023 100.0 39051 40.2 15114 13.9 12158 96.3 53235 28.3 210.7 2.1"),
    ]
    rows = _rows(_fixture("bonnie14_tiobench_and_two_runs"))
    assert {r["params"]["file_size_mb"] for r in rows} == {"512", "1024"}
    wrapped = _by_run(_fixture("bonnie14_seek_cpu_wrapped"))
    assert wrapped[0][3] == _cells(IO, "9854 100.0 109124 51.0 65537 52.2 9821 99.9 167240 97.6 1504.4 6.4")


def test_rows_wrapped_inside_quotes_are_joined():
    runs = _by_run(_fixture("bonnie14_quoted_wrapped_rows"))
    assert [(r[0], r[2]) for r in runs] == [("generic_file_write", True), ("reiserfs_file_write", True)]
    assert runs[1][3] == _cells(IO, "15647 86.8 30875 22.1 10822 14.1 11631 72.1 29184 16.1 250.0 2.0")


def test_table_wrapped_out_of_its_quote_is_read_whole_with_its_progress_lines():
    # the mailer wrapped the quoted rows; their tails (`11.4  382.1  2.4`) lost the quote prefix,
    # and go back into the quote: one run, the table agreeing with the progress lines, seeks read
    (er,) = _extracted(_fixture("bonnie14_reply_wrapped_across_depths"))
    assert er.quoted and er.run.status == "ok"
    values = {r.metric: r.value for r in er.run.results}
    assert values == _cells(IO, "72692 83.7 103022 40.5 25355 12.0 37188 67.5 40809 11.4 382.1 2.4")
    assert er.run.attributes.get("progress_lines") == "agree"


def test_volumes_and_repeats_within_a_segment():
    runs = _by_run(_fixture("bonnie14_three_volumes_repeated"))
    assert [(r[0], r[1]) for r in runs] == [("M1135-", str(k)) for k in range(1, 7)]
    rows = _rows(_fixture("bonnie14_three_volumes_repeated"))
    assert {tuple(sorted(r["params"].items())) for r in rows if r["params"]["repeat"] == "4"} == {
        (("file_size_mb", "1024"), ("repeat", "4"), ("volumes", "3"))}  # fmt: skip
    assert runs[3][3] == _cells(IO, "25746 93.9 44001 93.6 25134 29.5 40780 81.9 63560 24.0 388.0 2.4")


def _bonnie14_report(label: str, mb: int, cells: list[tuple[int, float]], seeks: tuple[float, float],
                     *, file_line: bool = True, done: dict[str, tuple[int, float]] | None = None) -> str:
    """A Bonnie 1.4 report as the tool prints it (`%6d` K/sec, ` %4.1f` CPU, `%7.1f` seeks)."""
    lines = [f"$ ./Bonnie -d /tmp -m {label}" + (f" -s {mb}" if file_line else "")]
    if file_line:
        lines.append(f"Bonnie 1.4: File '/tmp/Bonnie.4242', size: {mb * 1048576}, volumes: 1")
    names = ["Writing with putc()...", "Rewriting...", "Writing intelligently...",
             "Reading with getc()...", "Reading intelligently..."]  # fmt: skip
    order = [0, 2, 1, 3, 4]  # progress lines come in test order, the table in column order
    done = done or {}
    for k, name in zip(order, names, strict=True):
        kb, cpu = done.get(name, cells[k])
        lines.append(f"{name:<31}done: {kb:6d} kB/s {cpu:5.1f} %CPU")
    lines += [
        "Seeker 1...Seeker 2...Seeker 3...start 'em...done...done...done...",
        "              ---Sequential Output (nosync)--- ---Sequential Input-- --Rnd Seek-",
        "              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --04k (03)-",
        "Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU   /sec %CPU",
        f"{label} 1*{mb}" + "".join(f"{kb:6d} {cpu:4.1f}" for kb, cpu in cells)
        + f"{seeks[0]:7.1f} {seeks[1]:4.1f}",
    ]
    return "\n".join(lines) + "\n"


def _expected_b1(cells: list[tuple[int, float]], seeks: tuple[float, float]) -> dict[str, float]:
    out = {}
    for test, (kb, cpu) in zip(IO, [*cells, seeks], strict=True):
        out[test], out[f"{test}_cpu"] = float(kb), float(cpu)
    return out


CELLS = [(74270, 87.8), (158724, 10.0), (43062, 4.9), (51825, 68.4), (1095262, 5.3)]


def test_size_glued_to_six_digit_rate_is_split_by_the_known_file_size():
    cells = [(123456, 93.1), *CELLS[1:]]
    text = _bonnie14_report("Ubuntu", 1500, cells, (221.2, 0.1))
    assert "Ubuntu 1*1500123456 93.1158724" in text
    (run,) = _by_run(text)
    assert run[0] == "Ubuntu" and run[3] == _expected_b1(cells, (221.2, 0.1))


def test_glued_row_without_known_size_is_resolved_by_progress_lines():
    cells = [(123456, 93.1), *CELLS[1:]]
    text = _bonnie14_report("Ubuntu", 1500, cells, (221.2, 0.1), file_line=False)
    (er,) = _extracted(text)
    assert {r.metric: r.value for r in er.run.results} == _expected_b1(cells, (221.2, 0.1))
    assert er.run.results[0].params == {"file_size_mb": "1500"}


def test_progress_lines_that_disagree_with_the_table_make_the_run_unparsed():
    text = _bonnie14_report("box", 100, CELLS, (99.5, 1.0), done={"Rewriting...": (43061, 4.9)})
    (er,) = _extracted(text)
    assert er.run.status == "unparsed" and "disagrees" in er.run.reason
    assert _rows(text) == []


def test_progress_lines_without_a_table_are_a_run_without_seeks():
    text = "\n".join(_bonnie14_report("box", 100, CELLS, (99.5, 1.0)).splitlines()[:8]) + "\n"
    (run,) = _by_run(text)
    assert run[0] == "box" and run[3] == {k: v for k, v in _expected_b1(CELLS, (0, 0)).items()
                                           if not k.startswith("random")}  # fmt: skip


def test_bonnie64_layout_is_recognised_but_not_read():
    text = ("\t\t-------Sequential Output-------- ---Sequential Input-- --Random--\n"
            "\t\t-Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---\n"
            "Machine    GB M/sec %CPU M/sec %CPU M/sec %CPU M/sec %CPU M/sec %CPU\t /sec %CPU\n"
            "box         1 101.5 98.0 900.1 60.2 300.3 40.1 100.1 99.0 1200.5 50.0 9000.1 30.0\n")  # fmt: skip
    ers = _extracted(text)
    assert [er.run.status for er in ers] == ["unparsed"] and _rows(text) == []


# --- negative posts and the metric registry ------------------------------------------------------


def test_negative_fixtures_and_metric_registry():
    assert _rows(_fixture("neg_eff_digest")) == []
    assert _rows(_fixture("neg_prose_and_tiobench")) == []
    for path in sorted(HERE.glob("*.txt")):
        for r in _rows(fixture_body(path)):
            spec = bonnie.METRICS[r["metric"]]
            assert r["unit"] == spec.unit and r["unit"] in KNOWN_UNITS
            assert spec.low <= r["value"] <= spec.high, (path.name, r)
            assert r["higher_is_better"] == spec.higher_is_better


# --- property tests ------------------------------------------------------------------------------

BODIES = [fixture_body(p) for p in sorted(HERE.glob("*.txt"))]
FRAGMENTS = ["K/sec %CPU", "K/sec %CP", "/sec %CP", "Version  1.03 ", "Sequential Output", "Latency ",
             "Sequential Create", "1.97,1.97,", "stan,4G,", "done: ", " kB/s ", " %CPU", "+++++", "+++",
             "1*1500", "93.1158724", "16 ", " 4G ", "\n", "> ", "\t", ",", "  ", "Machine", "files"]  # fmt: skip


def _no_crash(body: str) -> None:
    for seg in segments(body):
        bonnie.parse(seg)  # must not raise (the driver would hide it)
    for er in extract_runs(body, "p"):
        assert not (er.run.reason or "").startswith("parser error"), er.run.reason


@SETTINGS
@given(fuzz_text(FRAGMENTS, piece=10, pieces=80))
def test_random_text_never_raises(text):
    _no_crash(text)


@SETTINGS
@given(st.one_of(st.sampled_from(BODIES), st.lists(st.sampled_from(FRAGMENTS), max_size=30).map("".join)))
def test_every_signature_match_contains_a_keyword(text):
    for m in bonnie.SIGNATURE.finditer(text):
        assert any(k in m.group(0).lower() for k in bonnie.KEYWORDS), m.group(0)


MUTATION = st.tuples(st.sampled_from(["delete", "insert", "dup", "swap"]), st.integers(0, 10**6),
                     st.integers(1, 40), st.sampled_from([" ", "\n", "1", ".", "+", ",", ">", "k", "x"]))  # fmt: skip


def _mutate(text: str, ops) -> str:
    for op, pos, n, ch in ops:
        i = pos % (len(text) + 1)
        if op == "delete":
            text = text[:i] + text[i + n :]
        elif op == "insert":
            text = text[:i] + ch * (n % 4 + 1) + text[i:]
        elif op == "dup":
            text = text[:i] + text[i : i + n] + text[i:]
        else:
            j = (i + n) % (len(text) + 1)
            text = text[:i] + text[j:] + text[i:j]
    return text


@SETTINGS
@given(st.sampled_from(BODIES), st.lists(MUTATION, max_size=10))
def test_mutated_fixtures_never_raise(body, ops):
    _no_crash(_mutate(body, ops))


def _pp_name() -> st.SearchStrategy[str]:
    return st.from_regex(r"[a-z][a-z0-9-]{0,10}", fullmatch=True)


@st.composite
def bonnie14_report(draw) -> tuple[str, str, dict[str, float]]:
    label = draw(st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,7}", fullmatch=True))
    mb = draw(st.integers(1, 99999))
    cells = [(draw(st.integers(0, 9_999_999)), draw(st.integers(0, 1000)) / 10) for _ in range(5)]
    seeks = (draw(st.integers(0, 9_999_999)) / 10, draw(st.integers(0, 1000)) / 10)
    return _bonnie14_report(label, mb, cells, seeks), label, _expected_b1(cells, seeks)


def _pp_cell(kind: str, state: str, value: float, with_csv: bool) -> tuple[str, str, float | None]:
    """(text cell, CSV field, value read back) as bonnie++ 1.03e prints them."""
    if state == "blank":
        return " " * (6 if kind != "cpu" else 4), "", None
    if state == "fast":
        return (" +++++" if kind != "cpu" else " +++"), ("+++++" if kind != "cpu" else "+++"), None
    if kind == "seeks":  # the text rounds seeks >= 1000, the CSV keeps one decimal
        text = f" {value:5.0f}" if value >= 1000 else f" {value:5.1f}"
        return text, f"{value:.1f}", float(f"{value:.1f}") if with_csv else float(text)
    return (f" {int(value):5d}" if kind != "cpu" else f" {int(value):3d}"), str(int(value)), float(int(value))


@st.composite
def bonnie_pp_report(draw) -> tuple[str, str, dict[str, float], bool]:
    """bonnie++ 1.03 text (IO + create sections), optionally followed by its CSV line."""
    name = draw(_pp_name())
    mb = draw(st.integers(1, 200_000))
    size = f"{mb // 1024}G" if mb % 1024 == 0 else f"{mb}M"
    files = draw(st.integers(1, 512))
    state = st.sampled_from(["value", "value", "value", "fast", "blank"])
    with_csv = draw(st.booleans())
    rows, csv, expected = {"io": "", "files": ""}, [name, size], {}
    for section, tests in (("io", IO), ("files", FILES)):
        fields = []
        for test in tests:
            st_rate, st_cpu = draw(state), None
            st_cpu = "value" if st_rate == "value" else st_rate
            rate_kind = "seeks" if test == "random_seeks" else "rate"
            raw = draw(st.integers(0, 99_999_999)) / (10 if rate_kind == "seeks" else 1)
            t1, c1, v1 = _pp_cell(rate_kind, st_rate, raw, with_csv)
            t2, c2, v2 = _pp_cell("cpu", st_cpu, draw(st.integers(0, 999)), with_csv)
            rows[section] += t1 + t2
            fields += [c1, c2]
            if v1 is not None:
                expected[test] = v1
            if v2 is not None:
                expected[f"{test}_cpu"] = v2
        csv += fields if section == "io" else [str(files), *fields]
    prefix = f"{name.ljust(18)[: 18 - len(size)]} {size}"
    text = (
        "Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n"
        "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
        "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
        f"{prefix}{rows['io']}\n"
        "                    ------Sequential Create------ --------Random Create--------\n"
        "                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
        "              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
        f"{files:19d}{rows['files']}\n"
    )
    if with_csv:
        text += ",".join(csv) + "\n"
    return text, name, expected, with_csv


@st.composite
def bonnie_pp197_report(draw) -> tuple[str, str, dict[str, float], bool]:
    """bonnie++ 1.97 text with Latency rows (all tests run), and its versioned CSV line."""
    name = draw(_pp_name())
    io = [(draw(st.integers(0, 9_999_999)), draw(st.integers(0, 999))) for _ in range(5)]
    seeks = (draw(st.integers(0, 99_999)) / 10, draw(st.integers(0, 999)))
    fs = [(draw(st.integers(0, 99_999)), draw(st.integers(0, 999))) for _ in range(6)]
    lat = [f"{draw(st.integers(1, 99_999))}{draw(st.sampled_from(['us', 'ms', 's']))}" for _ in range(12)]
    seek_txt = f" {seeks[0]:5.0f}" if seeks[0] >= 1000 else f" {seeks[0]:5.1f}"
    seek_csv = f"{seeks[0]:.0f}" if seeks[0] >= 1000 else f"{seeks[0]:.1f}"
    text = (
        "Version  1.97       ------Sequential Output------ --Sequential Input- --Random-\n"
        "Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
        "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
        + f"{name.ljust(18)[:15]}  4G" + "".join(f" {v:5d} {c:3d}" for v, c in io) + f"{seek_txt} {seeks[1]:3d}\n"
        + "Latency          " + "".join(f" {x:>9s}" for x in lat[:6]) + "\n"
        "Version  1.97       ------Sequential Create------ --------Random Create--------\n"
        + f"{name:<19.19s} -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
        "              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
        + f"{16:19d}" + "".join(f" {v:5d} {c:3d}" for v, c in fs) + "\n"
        + "Latency          " + "".join(f" {x:>9s}" for x in lat[6:]) + "\n"
    )  # fmt: skip
    expected = {**_cells(IO, " ".join(f"{v} {c}" for v, c in io) + f" {seek_csv} {seeks[1]}"),
                **_cells(FILES, " ".join(f"{v} {c}" for v, c in fs)), **_latency(IO + FILES, " ".join(lat))}  # fmt: skip
    with_csv = draw(st.booleans())
    if with_csv:
        csv = ["1.97", "1.97", name, "1", "1438076799", "4G", "",
               *[x for v, c in io for x in (str(v), str(c))], seek_csv, str(seeks[1]), "16", "", "", "", "",
               *[x for v, c in fs for x in (str(v), str(c))], *lat]  # fmt: skip
        text += ",".join(csv) + "\n"
    return text, name, expected, with_csv


REPORTS = st.one_of(
    bonnie14_report().map(lambda r: (r[0], r[1], r[2], False)), bonnie_pp_report(), bonnie_pp197_report())


@SETTINGS
@given(REPORTS)
def test_synthetic_reports_round_trip(report):
    text, name, expected, _with_csv = report
    runs = _by_run("Some results:\n\n" + text + "\nThanks.\n")
    assert len(runs) == 1, runs
    system, repeat, quoted, values = runs[0]
    assert (system, repeat, quoted) == (name, None, False)
    assert values.keys() == expected.keys()
    for metric, value in expected.items():
        assert math.isclose(values[metric], value, rel_tol=1e-12, abs_tol=1e-9), metric


def _quote(text: str) -> str:
    return quote(text, bare_blank=True)


def _key(row: dict) -> tuple:
    return (row["system"], row["metric"], tuple(sorted(row["params"].items())), row["value"], row["unit"])


@SETTINGS
@given(REPORTS, st.sampled_from(["quote", "crlf", "collapse", "quote+collapse"]))
def test_mail_damage_gives_the_same_rows_or_flags_them(report, damage):
    text = "Some results:\n\n" + report[0] + "\nThanks.\n"
    damaged = text
    if "collapse" in damage:
        damaged = collapse(damaged)
    if "quote" in damage:
        damaged = _quote(damaged)
    if damage == "crlf":
        damaged = crlf(damaged)
    before, after = _rows(text), _rows(damaged)
    assert all(r["quoted"] == ("quote" in damage) for r in after)
    after_keys, before_keys = sorted(map(_key, after)), sorted(map(_key, before))
    assert set(after_keys) <= set(before_keys), "a damaged report produced a number the original did not"
    if after_keys != before_keys:  # allowed only when the loss is flagged
        ers = _extracted(damaged)
        assert any(er.run.status == "unparsed" for er in ers) or any(r["alignment"] == "inferred" for r in after)
    if damage in ("quote", "crlf") or report[3]:  # alignment survives, or the CSV line carries it
        assert after_keys == before_keys


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BODIES), st.sampled_from(["quote", "crlf", "collapse"]))
def test_mail_damage_on_real_posts_never_invents_a_number(body, damage):
    damaged = {"quote": _quote, "crlf": crlf, "collapse": collapse}[damage](body)
    before = {(r["metric"], r["value"], r["unit"]) for r in _rows(body)}
    after = {(r["metric"], r["value"], r["unit"]) for r in _rows(damaged)}
    assert after <= before


def test_parse_is_pure_on_a_bare_segment():
    seg = Segment(["Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU   /sec %CPU",
                   "box 1*100  1000  1.0  2000  2.0  3000  3.0  4000  4.0  5000  5.0  100.0  0.5"])  # fmt: skip
    first, second = bonnie.parse(seg), bonnie.parse(seg)
    assert [r.value for r in first[0].results] == [r.value for r in second[0].results]
    assert first[0].results[0].value == 1000.0 and first[0].system == "box"


# --- long lines re-wrapped by the mailer --------------------------------------------------------
# A mailer breaks every line longer than its limit at the last blank before the width (or hard,
# inside a CSV line that has no blank) and moves the rest to a new line without the quote prefix.
# Every fixture is re-wrapped like that and parsed again: rows may be lost (quoted tables fall
# apart into one quote segment per line), but no value may differ from the post's, and no
# measurement may be read twice.


WRAPS = {
    "bench-wrap-72": (_bench_wrap, 0.70),  # (transform, recall it must keep)
    "damage-wrap-72": (lambda text: wrap(text, 72), 0.60),
}


def _measured_at(row: dict) -> tuple:
    return row["system"], row["metric"], tuple(sorted(row["params"].items()))


def _printed(rows: list[dict]) -> Counter:
    return Counter((r["metric"], r["value"], r["unit"]) for r in rows)


def _read_twice(rows: list[dict]) -> list[tuple]:
    """Pairs of runs (same system and params but `repeat`) printing the same values everywhere."""
    runs: dict[tuple, dict[str, float]] = {}
    for r in rows:
        runs.setdefault((r["system"], tuple(sorted(r["params"].items()))), {})[r["metric"]] = r["value"]
    twins = []
    keys = sorted(runs, key=repr)
    for a, k1 in enumerate(keys):
        for k2 in keys[a + 1 :]:
            same_config = k1[0] == k2[0] and [p for p in k1[1] if p[0] != "repeat"] == [
                p for p in k2[1] if p[0] != "repeat"]  # fmt: skip
            common = runs[k1].keys() & runs[k2].keys()
            if same_config and len(common) >= 4 and all(runs[k1][m] == runs[k2][m] for m in common):
                twins.append((k1, k2))
    return twins


@pytest.mark.parametrize("how", sorted(WRAPS))
def test_wrapped_fixtures_give_the_posted_values_or_none(how):
    transform, floor = WRAPS[how]
    expected_total = found_total = 0
    problems = []
    for path in sorted(HERE.glob("*.txt")):
        expected, got = expected_rows(path), _rows(transform(fixture_body(path)))
        posted: dict[tuple, Counter] = {}
        for r in expected:
            posted.setdefault(_measured_at(r), Counter())[(r["value"], r["unit"])] += 1
        emitted: dict[tuple, Counter] = {}
        for r in got:
            emitted.setdefault(_measured_at(r), Counter())[(r["value"], r["unit"])] += 1
        for key, values in emitted.items():
            if key in posted and values - posted[key]:
                problems.append((path.stem, "value the post does not give there", key, dict(values),
                                 dict(posted[key])))  # fmt: skip
            elif key not in posted and sum(values.values()) > 1:
                problems.append((path.stem, "emitted twice", key, dict(values)))
        # (a key can be expected twice: parsers number repeats within a quote segment only)
        problems += [(path.stem, "run read twice", *pair) for pair in _read_twice(got)
                     if pair not in _read_twice(expected)]  # fmt: skip
        if more := _printed(got) - _printed(expected):  # under whatever label
            problems.append((path.stem, "value read more often than printed", dict(more)))
        facts = Counter((*_measured_at(r), r["value"], r["unit"]) for r in expected)
        found = Counter((*_measured_at(r), r["value"], r["unit"]) for r in got)
        expected_total += len(expected)
        found_total += sum((facts & found).values())
    recall = found_total / expected_total
    print(f"{how}: recall {found_total}/{expected_total} = {recall:.3f} (quoted flag ignored)")
    assert not problems, problems[:5]
    assert recall >= floor


def test_quoted_row_wrapped_out_of_its_quote_keeps_the_numbering():
    # the third Ubuntu row of the seed post is quoted; the mailer moves its seeks to the unquoted
    # text below, where they are read as the rest of that row, not as the next run's
    rows = _rows(_bench_wrap(_fixture("seed_004")))
    seeks = {r["params"].get("repeat"): r["value"] for r in rows
             if r["system"] == "Ubuntu" and r["metric"] == "random_seeks"}  # fmt: skip
    assert seeks == {"1": 290.5, "2": 314.7, "3": 283.6}


def test_wrapped_group_header_does_not_split_the_progress_lines_from_their_table():
    runs = _by_run(_bench_wrap(_fixture("bonnie14_tiobench_and_two_runs")))
    assert [(r[0], r[1]) for r in runs] == [(None, None), (None, None)]  # two runs, each read once


@SETTINGS
@given(REPORTS, st.sampled_from(["bench-wrap-72", "damage-wrap-72", "quote+bench-wrap-72"]))
def test_wrapped_synthetic_reports_never_invent_a_number(report, how):
    text = "Some results:\n\n" + report[0] + "\nThanks.\n"
    damaged = _bench_wrap(_quote(text)) if how.startswith("quote+") else WRAPS[how][0](text)
    readings = [_rows(text)]
    if report[3]:  # the CSV line may end up alone, unread: the table's values are then as printed
        readings.append(_rows(text.replace(report[0].splitlines()[-1] + "\n", "")))
    after = _rows(damaged)
    # a label may be lost with its quote segment (system, size), a number never
    posted: dict[tuple, set] = {}
    for r in (r for rows in readings for r in rows):
        posted.setdefault(_measured_at(r), set()).add(r["value"])
    assert all(r["value"] in posted.get(_measured_at(r), {r["value"]}) for r in after)
    printed = _printed(readings[0]) | _printed(readings[-1])
    assert not _printed(after) - printed, "a value read more often than printed"
    assert max(Counter(map(_measured_at, after)).values(), default=1) == 1, "a key emitted twice"




def test_a_quoted_row_broken_inside_its_blanks_keeps_its_rest_and_its_csv_line_reads_once():
    # a report hypothesis found: quoted, then re-wrapped, the row's rest (` 0.0   0`) left the quote,
    # the table lost its seeks and its CSV line below was read as a second run of the same values
    report = ("Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n"
              "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
              "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
              "a                1M     0   0                                           0.0   0\n"
              "                    ------Sequential Create------ --------Random Create--------\n"
              "                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
              "              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
              "                  1     0   0     0   0     0   0     0   0     0   0     0   0\n"
              "a,1M,0,0,,,,,,,,,0.0,0,1,0,0,0,0,0,0,0,0,0,0,0,0\n")
    text = "Some results:\n\n" + report + "\nThanks.\n"
    assert _printed(_rows(_bench_wrap(_quote(text)))) == _printed(_rows(text))


def test_a_quoted_row_whose_rest_is_figures_one_blank_apart_keeps_it_and_its_csv_line_reads_once():
    # a report hypothesis found: quoted, then re-wrapped at 72 columns, the create row's rest (`   0
    # 100`, after a run of empty cells) left the quote; the CSV line below read as a second run
    report = ("Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n"
              "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
              "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
              "a                1M     0   0     0   0     0   0     0   0     0   0   0.0   0\n"
              "                    ------Sequential Create------ --------Random Create--------\n"
              "                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
              "              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
              "                  1     0   0                                             0 100\n"
              "a,1M,0,0,0,0,0,0,0,0,0,0,0.0,0,1,0,0,,,,,,,,,0,100\n")
    text = "Some results:\n\n" + report + "\nThanks.\n"
    rows = _rows(_bench_wrap(_quote(text)))
    assert len({r["run_id"] for r in rows}) == 1
    assert {(r["metric"], r["value"]) for r in rows} == {(r["metric"], r["value"]) for r in _rows(text)}

"""Bonnie 1.x / bonnie++ parser: the tricky cells of real posts, mail damage, property tests.

The expected numbers below are restated from the posts (as printed), not from the parser.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.parsers.damage import bench_rows, collapse, crlf, fuzz_text, quote, wrap
from tests.parsers.fixtures_io import FIXTURES, expected_rows, fixture_body
from transforms.extract import extract_runs
from transforms.model import Segment
from transforms.parsers import bonnie
from transforms.quotes import segments
from transforms.rows import result_rows
from transforms.units import KNOWN_UNITS

HERE = FIXTURES / "bonnie"
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

IO = ("seq_output_char", "seq_output_block", "seq_rewrite", "seq_input_char", "seq_input_block",
      "random_seeks")  # fmt: skip
FILES = ("seq_create", "seq_stat", "seq_delete", "random_create", "random_stat", "random_delete")


def _fixture(name: str) -> str:
    return fixture_body(HERE / f"{name}.txt")


def _extracted(body: str) -> list:
    return [er for er in extract_runs(body, "t") if er.parser.name == "bonnie"]


def _rows(body: str) -> list[dict]:
    return [r for r in result_rows(_extracted(body)) if r["benchmark"] == "bonnie"]


def _by_run(body: str) -> list[tuple[str | None, str | None, bool, dict[str, float]]]:
    """(system, repeat, quoted, {metric: value}) per ok run, in message order."""
    out = []
    for er in _extracted(body):
        if er.run.status != "ok" or not er.run.results:
            continue
        repeats = {r.params.get("repeat") for r in er.run.results}
        assert len(repeats) == 1
        values = {r.metric: r.value for r in er.run.results}
        assert len(values) == len(er.run.results), "a metric emitted twice in one run"
        out.append((er.run.system, repeats.pop(), er.quoted, values))
    return out


def _cells(tests: tuple[str, ...], printed: str) -> dict[str, float]:
    """`16092 36 9563 1 ...` as printed (rate, CPU pairs; `+++++`/`+++`/`_` = no value)."""
    toks = printed.split()
    assert len(toks) == 2 * len(tests)
    out: dict[str, float] = {}
    for k, test in enumerate(tests):
        rate, cpu = toks[2 * k], toks[2 * k + 1]
        if rate not in ("+++++", "_"):
            out[test] = float(rate)
        if cpu not in ("+++", "_"):
            out[f"{test}_cpu"] = float(cpu)
    return out


def _latency(tests: tuple[str, ...], printed: str) -> dict[str, float]:
    mult = {"us": 1.0, "ms": 1e3, "s": 1e6}
    out = {}
    for test, tok in zip(tests, printed.split(), strict=True):
        if tok != "_":
            n, unit = re.fullmatch(r"(\d+)(us|ms|s)", tok).groups()
            out[f"{test}_latency"] = float(n) * mult[unit]
    return out


def test_version_labels_and_blank_lines_between_groups_of_rows():
    runs = _by_run(_fixture("lkml_2003_kernel_column_grouped_rows"))
    assert [(system, repeat) for system, repeat, _, _ in runs] == [
        (k, str(n)) for k in ("2.4.21", "22pre6", "22pre6aa2") for n in (1, 2, 3)
    ]
    assert runs[1][3]["random_seeks"] == 1254.3 and runs[-1][3]["seq_input_block"] == 36599.0


# --- the seed post (Bonnie 1.4, xen-users 2007) -------------------------------------------------


def test_seed_ubuntu_run_with_glued_fields_has_every_value_once():
    runs = _by_run(_fixture("seed_004"))
    system, repeat, quoted, values = runs[1]
    assert (system, repeat, quoted) == ("Ubuntu", "1", False)
    # `93.1158724` is 93.1 %CPU then 158724 K/sec, `70.4107393` is 70.4 then 107393.
    assert values == {
        "seq_output_char": 65001.0, "seq_output_char_cpu": 93.1,
        "seq_output_block": 158724.0, "seq_output_block_cpu": 27.1,
        "seq_rewrite": 48770.0, "seq_rewrite_cpu": 3.7,
        "seq_input_char": 41054.0, "seq_input_char_cpu": 70.4,
        "seq_input_block": 107393.0, "seq_input_block_cpu": 3.4,
        "random_seeks": 290.5, "random_seeks_cpu": 0.1,
    }  # fmt: skip
    rows = [r for r in _rows(_fixture("seed_004")) if r["system"] == "Ubuntu" and not r["quoted"]]
    ubuntu1 = [r for r in rows if r["params"] == {"file_size_mb": "1500", "repeat": "1"}]
    units = {r["metric"]: r["unit"] for r in ubuntu1}
    assert units["seq_output_block"] == "K/sec" and units["seq_output_block_cpu"] == "%CPU"
    assert units["random_seeks"] == "/sec"
    assert {r["tool_version"] for r in ubuntu1} == {"1.4"}


def test_seed_four_runs_systems_quoting_and_attributes():
    ers = _extracted(_fixture("seed_004"))
    assert [(er.run.system, er.quoted) for er in ers] == [
        ("Pardus", True), ("Ubuntu", False), ("Ubuntu", True), ("Ubuntu", False)]  # fmt: skip
    assert [er.run.attributes["dir"] for er in ers] == ["/tmp", "/mnt/tmp/", "/d", "/mnt"]
    assert all(er.run.attributes["size_arg"] == "1500" for er in ers)
    assert all(er.run.attributes["file_size_bytes"] == "1572864000" for er in ers)
    assert all(er.run.attributes["progress_lines"] == "agree" for er in ers)
    # Pardus is measured once (no repeat); the three Ubuntu runs are numbered across segments
    assert {r["params"].get("repeat") for r in _rows(_fixture("seed_004")) if r["system"] == "Pardus"} == {None}
    pardus = _by_run(_fixture("seed_004"))[0][3]
    assert (pardus["seq_output_char"], pardus["seq_rewrite"], pardus["random_seeks"]) == (74270, 43062, 221.2)
    ubuntu3 = _by_run(_fixture("seed_004"))[3][3]
    assert (ubuntu3["seq_output_block"], ubuntu3["seq_input_block"], ubuntu3["seq_input_block_cpu"]) == (
        108945, 51561, 0.9)  # fmt: skip


def test_seed_ubuntu_runs_numbered_across_the_message():
    repeats = [rep for system, rep, _q, _v in _by_run(_fixture("seed_004")) if system == "Ubuntu"]
    assert repeats == ["1", "2", "3"]


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


def test_table_split_across_quote_depths_keeps_progress_line_values():
    (er,) = _extracted(_fixture("bonnie14_reply_wrapped_across_depths"))
    assert er.quoted and er.run.status == "ok"
    values = {r.metric: r.value for r in er.run.results}
    assert values == {k: v for k, v in _cells(IO, "72692 83.7 103022 40.5 25355 12.0 37188 67.5 "
                                                  "40809 11.4 _ _").items()}  # fmt: skip
    assert any("random seeks not reported" in n for n in er.run.notes)


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


# --- bonnie++ ------------------------------------------------------------------------------------


def test_bonnie_pp_103_text_and_csv_twins_are_one_run():
    runs = _by_run(_fixture("bonnie_pp_103_forum_stan"))
    assert [(r[0], r[1]) for r in runs] == [
        ("Test run on the FreeBSD guest OS", None), ("stan", "1"), ("stan", None), ("stan", None),
        ("stan", "2")]  # fmt: skip
    assert runs[0][3] == _cells(IO, "16969 28.2 8098 7.5 7597 8.3 11760 18.6 15411 10.6 47.3 0.8")
    assert runs[1][3] == {**_cells(IO, "16092 36 9563 1 6068 1 11202 24 49497 5 180.6 0"),
                          **_cells(FILES, "294 1 +++++ +++ 311 1 382 2 +++++ +++ 117 0")}  # fmt: skip
    assert runs[2][3] == _cells(IO, "67903 61.8 59348 21.0 7413 4.1 38698 36.3 51930 12.9 676.0 1.5")
    assert runs[3][3] == _cells(IO, "67343 61.0 61342 22.2 7043 4.0 39466 37.1 52458 12.6 384.6 0.9")
    assert runs[4][3] == {**_cells(IO, "39389 96 86195 32 33475 8 38358 80 83507 8 518.0 0"),
                          **_cells(FILES, "2675 98 +++++ +++ +++++ +++ 2687 98 +++++ +++ 8592 97")}  # fmt: skip
    ers = _extracted(_fixture("bonnie_pp_103_forum_stan"))
    assert ers[1].run.tool_version == "1.03" and ers[1].run.attributes["csv_line"] == "merged"
    assert "seq_stat: '+++++' (too fast to measure; no value)" in ers[1].run.notes
    stan = [r for r in _rows(_fixture("bonnie_pp_103_forum_stan")) if r["params"].get("repeat") == "1"]
    assert {r["params"].get("num_files") for r in stan if r["metric"] == "seq_create"} == {"16384"}
    assert {r["params"]["file_size_mb"] for r in stan if r["metric"] == "seq_rewrite"} == {"4096"}


def test_bonnie_pp_197_latency_rows_and_csv():
    ((system, repeat, quoted, values),) = _by_run(_fixture("bonnie_pp_197_latency_csv"))
    assert (system, repeat, quoted) == ("wifo3-02", None, False)
    assert values == {
        **_cells(IO, "1905 91 364656 24 119264 12 3457 86 306391 14 439.5 17"),
        **_latency(IO, "8631us 18055us 184ms 23985us 57565us 83422us"),
        **_cells(FILES, "8891 13 +++++ +++ 17536 23 11535 17 +++++ +++ 19876 28"),
        **_latency(FILES, "391us 125us 128us 375us 20us 90us"),
    }
    rows = _rows(_fixture("bonnie_pp_197_latency_csv"))
    assert {r["params"]["file_size_mb"] for r in rows if r["metric"] in IO} == {"64512"}  # 63G
    assert {r["unit"] for r in rows if r["metric"].endswith("_latency")} == {"us"}


def test_bonnie_pp_197_cpu_over_100_and_long_machine_name():
    ((system, _r, _q, values),) = _by_run(_fixture("bonnie_pp_197_cpu_over_100"))
    assert system == "ceph-test-linux"
    assert values == {
        **_cells(IO, "651 95 101525 14 61141 11 1072 99 66183 5 3794 112"),
        **_latency(IO, "26668us 397ms 1066ms 29247us 541ms 115ms"),
        **_cells(FILES, "18315 80 +++++ +++ +++++ +++ 29574 79 +++++ +++ +++++ +++"),
        **_latency(FILES, "12265us 804us 541us 837us 170us 802us"),
    }
    (er,) = _extracted(_fixture("bonnie_pp_197_cpu_over_100"))
    assert er.run.attributes["command"] == "bonnie++ -d /tmp/bonnie/ -s 5G"


def test_bonnie_pp_196_blank_cells_and_markdown_bold():
    ((system, _r, _q, values),) = _by_run(_fixture("bonnie_pp_196_blank_cells_markdown"))
    assert system == "ako"
    assert values == {**_cells(IO, "_ _ 56561 10 32386 12 _ _ 88826 16 110.1 3"),
                      **_latency(IO, "_ 5549ms 228ms _ 43102us 430ms")}  # fmt: skip
    rows = _rows(_fixture("bonnie_pp_196_blank_cells_markdown"))
    assert {r["params"]["file_size_mb"] for r in rows} == {"4018"}


def test_bonnie_pp_196_blank_cells_read_by_column_without_the_csv():
    text = "\n".join(ln for ln in _fixture("bonnie_pp_196_blank_cells_markdown").splitlines()
                     if not ln.startswith("1.96,"))  # fmt: skip
    ((_s, _r, _q, values),) = _by_run(text)
    assert values == {**_cells(IO, "_ _ 56561 10 32386 12 _ _ 88826 16 110.1 3"),
                      **_latency(IO, "_ 5549ms 228ms _ 43102us 430ms")}  # fmt: skip
    collapsed = re.sub(r"[ ]{2,}", " ", text)  # blanks can no longer be placed: not read, not guessed
    assert _rows(collapsed) == []
    assert [er.run.status for er in _extracted(collapsed)] == ["unparsed"]


def test_bonnie_pp_196_pkb_csv_only():
    ((system, _r, _q, values),) = _by_run(_fixture("bonnie_pp_196_pkb_csv_only"))
    assert system == "perfkit-7b22f510-0"
    assert values == {
        **_cells(IO, "_ _ 72853 15 47358 5 _ _ 156821 7 537.7 10"),
        **_cells(FILES, "49223 58 +++++ +++ 54405 53 2898 97 +++++ +++ 59089 60"),
        **_latency(IO + FILES, "_ 512ms 670ms _ 44660us 200ms 3747us 1759us 1643us 33518us 192us 839us"),
    }
    rows = _rows(_fixture("bonnie_pp_196_pkb_csv_only"))
    assert {r["params"].get("num_files") for r in rows if r["metric"] in FILES} == {"102400"}


def test_bonnie_pp_193c_diff_markers():
    runs = _by_run(_fixture("bonnie_pp_193c_diff_markers"))
    assert [(r[0], r[1]) for r in runs] == [("prod", "1"), ("prod", "2")]
    assert runs[0][3] == {**_cells(IO, "331 98 27139 10 17554 4 1156 99 65858 7 371.8 5"),
                          **_latency(IO, "104ms 41538ms 804ms 19824us 46554us 631ms")}  # fmt: skip
    assert runs[1][3] == {**_cells(IO, "335 98 54977 23 27923 7 1075 99 61596 6 342.9 4"),
                          **_latency(IO, "76755us 331ms 590ms 12104us 24805us 414ms")}  # fmt: skip
    ers = _extracted(_fixture("bonnie_pp_193c_diff_markers"))
    assert [er.run.attributes["diff_marker"] for er in ers] == ["-", "+"]
    assert {r["params"]["file_size_mb"] for r in _rows(_fixture("bonnie_pp_193c_diff_markers"))} == {"7168"}


def test_bonnie_pp_200a_csv_values_win_over_rounded_suffixes():
    runs = _by_run(_fixture("bonnie_pp_200a_suffixes"))
    assert [(r[0], r[1]) for r in runs] == [("ANDREW-PC", "1"), ("ANDREW-PC", "2")]
    assert runs[0][3] == {
        **_cells(IO, "540 99 745124 100 980550 91 2205 99 1203968 58 +++++ +++"),
        **_latency(IO + FILES, "16366us 5650us 12027us 4465us 1806us 478us "
                               "586us 404us 3818us 3324us 837us 3156us"),
    }  # fmt: skip
    assert runs[1][3] == {
        **_cells(IO, "6 6 51776 6 22717 6 6 7 40308 4 8475 109"),
        **_cells(FILES, "793 6 1765 7 1574 7 827 6 1945 8 1416 6"),
        **_latency(IO + FILES, "1445ms 17524us 9356us 1284ms 5950us 408ms "
                               "15088us 15053us 18784us 11317us 3377us 12653us"),
    }  # fmt: skip
    ers = _extracted(_fixture("bonnie_pp_200a_suffixes"))
    assert [er.run.tool_version for er in ers] == ["2.00a", "2.00a"]
    assert ers[0].run.attributes["seek_proc_count"] == "5"


def test_bonnie_pp_200a_text_alone_converts_k_m_g_and_refuses_unscaled_counts():
    text = "\n".join(ln for ln in _fixture("bonnie_pp_200a_suffixes").splitlines()
                     if not ln.startswith("1.98,"))  # fmt: skip
    runs = _by_run(text)
    first, second = runs[0][3], runs[1][3]
    assert first["seq_output_char"] == 540.0  # 540k
    assert first["seq_output_block"] == 728 * 1024.0  # 728m (K/sec scaled by 1024)
    assert first["seq_input_block"] == pytest.approx(1.1 * 1024 * 1024)  # 1.1g
    assert second["seq_output_block"] == pytest.approx(50.6 * 1024)
    assert second["random_seeks"] == 8475.0
    # the create section prints 0 where the CSV has 793: a plain number there has no known scale
    assert not any(m in second for m in FILES)
    er = _extracted(text)[1]
    assert "seq_create: unreadable cell '0'" in er.run.notes


def test_bonnie_pp_102b_csv2txt_chunk_and_two_runs():
    runs = _by_run(_fixture("bonnie_pp_102b_csv2txt_two_runs"))
    assert [(r[0], r[1]) for r in runs] == [("Gaia", "1"), ("Gaia", "2")]
    assert runs[0][3] == {**_cells(IO, "_ _ 26895 41 10177 13 _ _ 25450 16 145.5 3"),
                          **_cells(FILES, "340 97 +++++ +++ 16450 79 340 97 +++++ +++ 1861 96")}  # fmt: skip
    assert runs[1][3] == {**_cells(IO, "_ _ 26636 42 9849 12 _ _ 25920 17 146.4 3"),
                          **_cells(FILES, "267 77 +++++ +++ 12301 62 240 69 +++++ +++ 1339 69")}  # fmt: skip
    rows = _rows(_fixture("bonnie_pp_102b_csv2txt_two_runs"))
    assert {(r["params"]["file_size_mb"], r["params"]["chunk_size_bytes"]) for r in rows
            if r["metric"] in IO} == {("1024", "32768")}  # fmt: skip


def test_bonnie_pp_eff_digest_is_not_read_but_the_real_tables_are():
    runs = _by_run(_fixture("bonnie_pp_102b_digest_then_tables"))
    # one machine under two kernel captions: the kernels are the systems compared, merlin the host
    assert [(r[0], r[1]) for r in runs] == [
        (kernel, str(k)) for kernel in ("Linux 2.5.3-dj1", "Linux 2.5.3-dj1-radix-pagecache") for k in (1, 2, 3)
    ]
    assert {r["params"]["host"] for r in _rows(_fixture("bonnie_pp_102b_digest_then_tables"))} == {"merlin"}
    printed = [
        ("_ _ 22038 13 11768 8 _ _ 19219 6 183.9 0", "2015 99 +++++ +++ +++++ +++ 2526 99 +++++ +++ 8514 99"),
        ("_ _ 22495 13 11216 6 _ _ 22390 6 183.9 0", "2354 99 +++++ +++ +++++ +++ 2656 99 +++++ +++ 10195 100"),
        ("_ _ 22292 13 11713 7 _ _ 19249 6 188.8 0", "2871 99 +++++ +++ +++++ +++ 3036 99 +++++ +++ 12012 98"),
        ("_ _ 22397 13 11248 7 _ _ 22595 7 178.6 0", "2485 99 +++++ +++ +++++ +++ 2456 99 +++++ +++ 9614 100"),
        ("_ _ 22088 12 11204 7 _ _ 22591 7 188.1 0", "2653 99 +++++ +++ +++++ +++ 2884 100 +++++ +++ 11101 100"),
        ("_ _ 24767 14 10966 7 _ _ 22474 7 191.1 0", "1948 99 +++++ +++ +++++ +++ 2530 99 +++++ +++ 9294 99"),
    ]
    assert [r[3] for r in runs] == [{**_cells(IO, io), **_cells(FILES, fs)} for io, fs in printed]
    ers = _extracted(_fixture("bonnie_pp_102b_digest_then_tables"))
    assert [er.run.caption for er in ers] == ["Linux 2.5.3-dj1"] * 3 + ["Linux 2.5.3-dj1-radix-pagecache"] * 3
    assert {r["params"]["num_files"] for r in _rows(_fixture("bonnie_pp_102b_digest_then_tables"))
            if r["metric"] in FILES} == {"10240"}  # fmt: skip


def test_bonnie_pp_quoted_table_and_csv_both_wrapped_by_the_mailer():
    ((system, _r, quoted, values),) = _by_run(_fixture("bonnie_pp_103_quoted_wrapped_csv"))
    assert (system, quoted) == ("txiki", True)
    assert values == {**_cells(IO, "21270 87 32856 11 10533 3 10962 51 28744 5 157.0 0"),
                      **_cells(FILES, "21675 96 +++++ +++ 23523 100 23700 99 +++++ +++ 13062 61")}  # fmt: skip
    (er,) = _extracted(_fixture("bonnie_pp_103_quoted_wrapped_csv"))
    assert er.run.attributes["csv_line"] == "merged"  # the CSV split over `++` / blank / `+` joined


def test_bonnie_pp_x3_rows_without_name_inherit_machine_and_size():
    runs = _by_run(_fixture("bonnie_pp_103_x3_rows_without_name"))
    assert [(r[0], r[1], r[2]) for r in runs] == [("2.6.16.19", str(k % 3 + 1), True) for k in range(6)]
    assert [r[3] for r in runs] == [_cells(IO, p) for p in (
        "59223 91 264155 45 111459 36 57313 99 317944 63 1478 7",
        "58814 92 276803 47 110418 36 57105 99 317534 65 1525 5",
        "58299 92 274523 48 110290 36 56723 99 318839 65 1502 4",
        "38621 98 194816 94 87776 49 37921 92 239128 54 1402 5",
        "47000 99 194276 94 89232 49 38628 92 240539 55 1399 5",
        "45873 98 178195 90 89726 50 38482 92 240490 55 1381 4")]  # fmt: skip


def test_bonnie_pp_103_csv_lines_and_truncated_hand_made_txt():
    body = _fixture("bonnie_pp_103_csv_runs_and_truncated_txt")
    runs = _by_run(body)
    assert [(r[0], r[1], r[2]) for r in runs] == [
        *[(f"default_run{k}", None, True) for k in range(1, 6)],
        *[("c6300-optimized", str(k), True) for k in range(1, 6)]]  # fmt: skip
    printed = [  # the CSV lines of the post: name,size, 12 IO cells, files spec, 12 file cells
        "42879,98,105436,19,41081,11,46277,96,87845,15,639.2,1,380,4,29642,99,2990,18,469,5,11784,40,1712,12",
        "47145,99,108664,19,40931,11,46466,97,94158,16,634.8,0,377,4,16990,56,2850,17,431,4,21066,71,1800,13",
        "43653,98,109063,19,40898,11,46447,97,97141,16,645.8,1,373,4,22302,75,2793,16,420,4,16708,56,1794,13",
        "46485,98,110664,20,41102,11,46443,97,93616,16,631.3,1,363,3,14484,49,2802,17,388,4,25532,86,1604,12",
        "43813,98,109800,19,41214,11,46457,97,92563,15,635.1,1,376,4,28990,95,2827,17,388,4,22874,76,1817,13",
        "43976,99,167209,29,73109,22,43471,91,208572,40,511.4,1,1109,12,26948,89,2469,14,1051,11,29037,97,2167,16",
        "47455,99,190212,35,70402,21,43167,92,206290,40,503.3,1,1071,11,29893,99,2804,16,1059,12,24887,84,2090,16",
        "43979,99,172543,29,71811,21,41760,87,201870,39,498.9,1,1042,11,30276,99,2800,16,1063,12,29491,99,2257,17",
        "43824,98,164585,29,73470,22,43098,90,207003,40,489.1,1,1045,11,30288,98,2512,15,1018,11,27365,92,2097,16",
        "44003,99,194250,32,71055,21,43327,91,196553,38,505.8,1,1031,11,30278,98,2474,14,1049,12,28068,94,2027,15",
    ]  # fmt: skip
    assert [r[3] for r in runs] == [_cells(IO + FILES, p.replace(",", " ")) for p in printed]
    # the txt rows (`c6300-optimiz`, no size column, wrapped) are the twins of CSV runs 2-5
    ers = _extracted(body)
    assert [er.run.attributes.get("csv_line") for er in ers[5:]] == [None, "merged", "merged", "merged", "merged"]
    file_params = {tuple(sorted(r["params"].items())) for r in _rows(body) if r["metric"] == "seq_create"
                   and r["system"] == "default_run1"}  # fmt: skip
    assert file_params == {(("file_max_size_bytes", "100000"), ("file_min_size_bytes", "16"),
                            ("num_dirs", "64"), ("num_files", "16384"))}  # fmt: skip


def test_bonnie_pp_too_fast_cells_have_no_value_and_a_note():
    runs = _by_run(_fixture("bonnie_pp_103_nptl_too_fast"))
    assert [(r[0], r[2]) for r in runs] == [("NPTL", True), ("LinuxThreads", True)]
    assert runs[0][3] == _cells(IO, "13070 100 +++++ +++ 14141 4 13099 100 +++++ +++ +++++ +++")
    assert runs[1][3] == _cells(IO, "25957 100 +++++ +++ 20037 5 26777 99 +++++ +++ +++++ +++")
    er = _extracted(_fixture("bonnie_pp_103_nptl_too_fast"))[0]
    assert "random_seeks: '+++++' (too fast to measure; no value)" in er.run.notes


def test_latency_row_that_lost_its_columns_is_placed_as_inferred():
    text = (
        "Version  1.96       ------Sequential Output------ --Sequential Input- --Random-\n"
        "Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
        "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
        "ako           4018M           56561  10 32386  12           88826  16 110.1   3\n"
        "Latency 5549ms 228ms 43102us 430ms\n"
    )
    rows = [r for r in _rows(text) if r["metric"].endswith("_latency")]
    assert {r["metric"]: (r["value"], r["alignment"]) for r in rows} == {
        "seq_output_block_latency": (5549000.0, "inferred"), "seq_rewrite_latency": (228000.0, "inferred"),
        "seq_input_block_latency": (43102.0, "inferred"), "random_seeks_latency": (430000.0, "inferred")}  # fmt: skip


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


def _bench_wrap(text: str) -> str:
    """The wrap transform of bench.extraction: lines over 76 columns broken at 72."""
    from bench.extraction import wrap as bench_wrap

    return bench_wrap(text)


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


def _pp_table(rows: str) -> str:
    return (
        "Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n"
        "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
        "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
        + rows
    )


def test_wrapped_row_with_blank_cells_takes_its_tail_by_column():
    # `-f` runs print no per-char cells: the head keeps its columns, the seeks are the rest
    text = _pp_table("merlin         496M           22038  13 11768   8           19219   6\n"
                     "183.9   0\n"
                     "merlin         496M           22495  13 11216   6           22390   6\n"
                     "183.9   0\n")  # fmt: skip
    runs = _by_run(text)
    assert [r[3] for r in runs] == [_cells(IO, "_ _ 22038 13 11768 8 _ _ 19219 6 183.9 0"),
                                    _cells(IO, "_ _ 22495 13 11216 6 _ _ 22390 6 183.9 0")]  # fmt: skip
    assert [r[1] for r in runs] == ["1", "2"]  # the tail is not a row of its own


def test_wrapped_tail_that_does_not_fill_the_cut_columns_makes_the_row_unparsed():
    # two cells past the head's end, one value on the next line: which of them it is was lost
    text = _pp_table("merlin         496M           22038  13 11768   8           19219   6\n"
                     "183.9\n")  # fmt: skip
    (er,) = _extracted(text)
    assert er.run.status == "unparsed" and not er.run.results
    assert "column positions were lost" in er.run.reason


def test_wrapped_diff_row_keeps_the_first_digit_of_its_tail():
    text = ("```\n"
            " Version 1.93c       ------Sequential Output------ --Sequential Input- --Random-\n"
            " Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
            " Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
            "-prod             7G   331  98 27139  10 17554   4  1156  99 65858   7\n"
            "371.8   5\n"
            "```\n")  # fmt: skip
    ((system, _repeat, _quoted, values),) = _by_run(text)
    assert system == "prod" and values == _cells(IO, "331 98 27139 10 17554 4 1156 99 65858 7 371.8 5")


def test_wrapped_latency_row_takes_its_last_cell_back():
    text = _pp_table("wifo3-02        63G  1905  91 364656  24 119264  12  3457  86 306391  14\n"
                     "439.5  17\n"
                     "Latency              8631us   18055us     184ms   23985us   57565us\n"
                     "83422us\n")  # fmt: skip
    ((_s, _r, _q, values),) = _by_run(text)
    assert values == {**_cells(IO, "1905 91 364656 24 119264 12 3457 86 306391 14 439.5 17"),
                      **_latency(IO, "8631us 18055us 184ms 23985us 57565us 83422us")}  # fmt: skip


def test_csv_line_cut_inside_its_last_field():
    line = ("1.98,2.00a,ANDREW-PC,1,1731170067,63G,,8192,5,6,6,51776,6,22717,6,6,7,40308,4,8475,109,16,"
            ",,,,793,6,1765,7,1574,7,827,6,1945,8,1416,6,1445ms,17524us,9356us,1284ms,5950us,408ms,"
            "15088us,15053us,18784us,11317us,3377us,12653us")  # fmt: skip
    ((_s, _r, _q, values),) = _by_run(_bench_wrap(line + "\n"))
    assert values["random_delete_latency"] == 12653.0  # `...,1` + `2653us`: `1` alone is no latency
    # a 1.0x line whose last field reads whole either way: `6`, or `65` with the line below
    v1 = ("stan,4G,16092,36,9563,1,6068,1,11202,24,49497,5,180.6,0,16,294,1,+++++,+++,311,1,382,2,"
          "+++++,+++,117,6")  # fmt: skip
    piece = v1[30:]
    assert len(piece) >= 60  # as long as a piece the mailer cuts off
    text = _pp_table("stan             4G 16092  36  9563   1  6068   1 11202  24 49497   5 180.6   0\n")
    (er,) = _extracted(f"{text}{v1[:30]}\n{piece}\n5\n")
    assert er.run.attributes["csv_line"] == "merged"
    assert "random_delete_cpu" not in {r.metric for r in er.run.results}
    assert any(n.startswith("random_delete_cpu: '6' or '65'") for n in er.run.notes), er.run.notes


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


def test_csv_values_are_labelled_as_the_table_names_them():
    csv = "stan,4G,45000,98,60000,20,30000,10,50000,95,120000,15,300.5,1,16,5000,90,+++++,+++,4000,80,5100,91,+++++,+++,3900,78\n"
    body = "Version 1.03 ------Sequential Output------ --Sequential Input- --Random-\n\n" + csv
    labels = {r["metric"]: r["metric_label"] for r in bench_rows(body, "bonnie")}
    assert labels["seq_output_char"] == "Sequential Output Per Chr (putc)"
    assert labels["seq_output_block_cpu"] == "Sequential Output Block %CP (put_block_cpu)"
    assert labels["random_seeks"] == "Random Seeks (seeks)"
    assert labels["seq_create"] == "Sequential Create Create (seq_create)"


def test_a_create_row_of_exactly_twelve_cells_never_raises():
    body = ("                    ------Sequential Create------ --------Random Create--------\n"
            "                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
            "              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
            "1 2 3 4 5 6 7 8 9 10 11 12\n")
    for seg in segments(body):
        bonnie.parse(seg)

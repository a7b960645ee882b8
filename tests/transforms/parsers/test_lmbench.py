"""lmbench summary tables: the tricky cells of the seeds, header variants, and properties
(raw result lines: test_lmbench_raw).

The synthetic reports below are printed with the formats of lmbench 3.0-a9
``scripts/getsummary`` (intel/lmbench): its `num`/`inum` cell formatting and the
exact printf widths of every table, so whitespace-preserved and collapsed
renderings of the same numbers can be compared.
"""

from __future__ import annotations

import math
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.transforms.parsers.fixtures_io import fixture_body, rows_of
from tests.transforms.parsers.lmbench_cases import FIX, _lm, _rows, _runs
from transforms.extract import extract_runs
from transforms.model import Segment
from transforms.numbers import parse_number
from transforms.parsers import PARSERS
from transforms.parsers.lmbench import METRICS, PARSER
from transforms.quotes import segments
from transforms.rows import result_rows
from transforms.units import KNOWN_UNITS


def test_context_switches_are_one_metric_with_procs_and_size():
    # seed_001 (lmbench 3.0 summary, `2p/16K ctxsw` columns), davem's lmbench 1.x table (`8-proc ctxsw`)
    # and PerfKit's raw lat_ctx series: one metric name whatever the layout
    for name in ("seed_001.txt", "lmlinux_1996_davem_lmbench1.txt", "pkb_raw_results.txt"):
        rows = [r for r in rows_of(fixture_body(FIX / name)) if r["benchmark"] == "lmbench"]
        ctx = [r for r in rows if r["metric"] == "ctxsw"]
        assert ctx and all(r["params"]["procs"].isdigit() and r["params"]["size_kb"].isdigit() for r in ctx), name
        assert not [r for r in rows if re.match(r"ctxsw_\d", r["metric"])], name
    for path in sorted(FIX.glob("*.txt")):  # every reader: the parser's rows and any hand-read ones
        rows = result_rows(extract_runs(fixture_body(path), "t"))
        assert not [r for r in rows if r["benchmark"] == "lmbench" and re.match(r"ctxsw_\d", r["metric"])], path
    seed = [r for r in rows_of(fixture_body(FIX / "seed_001.txt")) if r["metric"] == "ctxsw"]
    assert {(r["params"]["procs"], r["params"]["size_kb"], r["params"]["repeat"], r["value"])
            for r in seed if r["system"] == LX} >= {("2", "16", "2", 2.11)}


def _table(rows: list[dict], metrics: list[str]) -> dict[tuple[str, str], list]:
    """(system, repeat) -> [(value, alignment) or None per metric]."""
    out: dict[tuple[str, str], list] = {}
    for r in rows:
        if r["metric"] in metrics:
            key = (r["system"], r["params"].get("repeat", ""))
            out.setdefault(key, [None] * len(metrics))[metrics.index(r["metric"])] = (
                r["value"],
                r["alignment"],
            )
    return out


# --------------------------------------------------------------------------- registry


def test_metric_registry_units_are_canonical():
    assert PARSER.name == "lmbench"
    assert PARSERS["lmbench"] is PARSER
    for name, spec in METRICS.items():
        assert spec.unit in KNOWN_UNITS, name
        assert re.fullmatch(r"[a-z0-9_]+", name)


def test_every_fixture_row_uses_a_registered_metric_and_its_unit():
    for path in sorted(FIX.glob("*.txt")):
        for r in rows_of(fixture_body(path)):
            assert r["benchmark"] == "lmbench"
            assert METRICS[r["metric"]].unit == r["unit"], (path.name, r)


# --------------------------------------------------------------------------- seed 001 (collapsed)

LG, LX = "darkstar Lguest 2.6.21", "darkstar Linux 2.6.21"
PROC = ["null_call", "null_io", "stat", "open_close", "select_tcp", "sig_inst", "sig_hndl",
        "fork_proc", "exec_proc", "sh_proc"]  # fmt: skip


def test_seed_001_processor_table_lguest_rows_have_no_slct_tcp():
    got = _table(_rows("seed_001.txt"), PROC)
    i, e = "inferred", "exact"
    assert got == {
        (LG, "1"): [(0.21, i), (0.36, i), (2.57, i), (3.84, i), None, (0.68, i), (1.64, i),
                    (1137.0, i), (2653.0, i), (7960.0, i)],
        (LG, "2"): [(0.21, i), (0.37, i), (2.38, i), (4.02, i), None, (0.65, i), (1.75, i),
                    (1137.0, i), (2653.0, i), (7960.0, i)],
        (LX, "1"): [(0.18, e), (0.37, e), (3.54, e), (5.20, e), (28.9, e), (0.62, e), (1.59, e),
                    (213.0, e), (1042.0, e), (8725.0, e)],
        (LX, "2"): [(0.18, e), (0.37, e), (4.01, e), (5.88, e), (17.7, e), (0.62, e), (1.50, e),
                    (204.0, e), (1077.0, e), (8840.0, e)],
    }  # fmt: skip


def test_seed_001_local_latencies():
    cols = ["lat_ctxsw_2p_0k", "lat_pipe", "lat_unix", "lat_udp", "lat_rpc_udp", "lat_tcp",
            "lat_rpc_tcp", "lat_tcp_conn"]  # fmt: skip
    got = _table(_rows("seed_001.txt"), cols)
    i = "inferred"
    # lguest: 3 values; 2p/0K matches the Context switching table, the network columns are blank
    assert got[(LG, "1")] == [(6.09, i), (18.3, i), (19.4, i), None, None, None, None, None]
    assert got[(LG, "2")] == [(6.62, i), (18.5, i), (27.6, i), None, None, None, None, None]
    # Linux: 5 values for 8 columns and no complete row: 18.9 / 64. could be any two network
    # columns, so only the values before the gap are kept
    assert got[(LX, "1")] == [(1.14, i), (8.805, i), (10.7, i), None, None, None, None, None]
    assert got[(LX, "2")] == [(1.37, i), (9.547, i), (10.8, i), None, None, None, None, None]
    notes = [n for run in _runs("seed_001.txt") if run.system == LX for n in run.notes]
    assert any("dropped 18.9 64." in n for n in notes)
    assert any("dropped 18.1 62." in n for n in notes)


def test_seed_001_bandwidths_lguest_gap_placed_by_magnitude():
    cols = ["bw_pipe", "bw_unix", "bw_tcp", "bw_file_reread", "bw_mmap_reread", "bw_bcopy_libc",
            "bw_bcopy_hand", "bw_mem_read", "bw_mem_write"]  # fmt: skip
    got = _table(_rows("seed_001.txt"), cols)
    i, e = "inferred", "exact"
    # 146. is within 10% of the Linux TCP column (134./136.) and 6x below AF UNIX (979./829.)
    assert got[(LG, "1")] == [(139.0, i), None, (146.0, i), (420.2, i), (701.4, i), (262.8, i),
                              (262.8, i), (701.0, i), (525.6, i)]  # fmt: skip
    assert got[(LG, "2")] == [(135.0, i), None, (140.0, i), (420.3, i), (701.4, i), (262.8, i),
                              (262.8, i), (525.0, i), (525.6, i)]  # fmt: skip
    assert got[(LX, "1")] == [(156.0, e), (979.0, e), (134.0, e), (406.3, e), (636.6, e),
                              (275.3, e), (276.3, e), (609.0, e), (457.3, e)]  # fmt: skip


def test_seed_001_memory_guesses_empty_and_basic_parameters_are_attributes():
    rows = _rows("seed_001.txt")
    got = _table(rows, ["lat_l1", "lat_l2", "lat_main_mem", "lat_rand_mem"])
    assert got[(LX, "2")] == [(1.862, "exact"), (12.5, "exact"), (154.8, "exact"), None]
    assert not {r["metric"] for r in rows} & {"mhz", "tlb_pages", "mem_par", "description"}
    runs = {(r.system, r.results[0].params["repeat"]): r for r in _runs("seed_001.txt")}
    assert (
        runs[(LG, "1")].attributes.items()
        >= {
            "description": "i686-pc-linux-gnu",
            "mhz": "1602",
            "tlb_pages": "32",
            "cache_line_bytes": "64",
            "mem_par": "2.9500",
            "scal_load": "1",
        }.items()
    )
    assert "mem_guess" not in runs[(LG, "1")].attributes
    assert runs[(LX, "2")].attributes["mem_par"] == "2.5600"
    assert all(r.tool_version == "3.0" for r in runs.values())


def test_seed_001_labels_and_units():
    by = {(r["metric"], r["system"], r["params"]["repeat"]): r for r in _rows("seed_001.txt")}
    r = by[("file_delete_10k", LG, "1")]
    assert (r["value"], r["unit"], r["alignment"]) == (1499.3, "us", "exact")
    assert by[("ctxsw_2p_16k", LX, "2")]["value"] == 2.11
    assert by[("int_div", LG, "2")]["unit"] == "ns"
    assert by[("bw_mem_write", LX, "1")]["unit"] == "MB/s"
    labels = {r.metric: r.metric_label for run in _runs("seed_001.txt") for r in run.results}
    assert labels["null_call"] == "null call"
    assert labels["sig_inst"] == "sig inst"
    assert labels["file_delete_10k"] == "10K File Delete"
    assert labels["mmap_latency"] == "Mmap Latency"
    assert labels["ctxsw_2p_16k"] == "2p/16K ctxsw"
    assert labels["lat_main_mem"] == "Main mem"
    assert labels["lat_unix"] == "AF UNIX"


# --------------------------------------------------------------------------- seed 003 (collapsed, complete)


def test_seed_003_file_vm_table_in_full():
    cols = ["file_create_0k", "file_delete_0k", "file_create_10k", "file_delete_10k",
            "mmap_latency", "prot_fault", "page_fault", "select_100fd"]  # fmt: skip
    got = _table(_rows("seed_003.txt"), cols)
    strip = {k: [v for v, _ in vals] for k, vals in got.items()}
    assert strip == {
        ("26-nat-sm Linux 2.6.8.1", ""): [41.3, 19.0, 96.0, 38.3, 134.0, 0.889, 2.3765, 22.4],
        ("26-nat-un Linux 2.6.8.1", ""): [32.2, 6.105, 69.8, 15.0, 84.0, 0.871, 1.6155, 3.614],
        ("26-xR1301 Linux 2.6.8.1", ""): [32.0, 5.534, 64.9, 14.3, 155.0, 1.372, 2.6753, 3.016],
    }
    assert {a for vals in got.values() for _, a in vals} == {"exact"}


def test_seed_003_processor_and_repeat_policy():
    rows = _rows("seed_003.txt")
    got = _table(rows, PROC)
    assert [v for v, _ in got[("26-xR1301 Linux 2.6.8.1", "")]] == [
        0.46,
        0.52,
        1.29,
        1.98,
        5.44,
        0.79,
        1.34,
        218.0,
        879.0,
        3183.0,
    ]
    # each system appears once: no `repeat` parameter at all
    assert all(r["params"] == {} for r in rows)
    assert {r["alignment"] for r in rows} == {"exact"}
    runs = _runs("seed_003.txt")
    assert {r.system for r in runs} == {
        "26-nat-sm Linux 2.6.8.1",
        "26-nat-un Linux 2.6.8.1",
        "26-xR1301 Linux 2.6.8.1",
    }
    assert all(r.tool_version == "3.0" and r.attributes["mhz"] == "2400" for r in runs)
    by = {(r["metric"], r["system"]): r["value"] for r in rows}
    # the latency table repeats 2p/0K under its own name; here it differs from Context switching
    assert by[("ctxsw_2p_0k", "26-xR1301 Linux 2.6.8.1")] == 3.16
    assert by[("lat_ctxsw_2p_0k", "26-xR1301 Linux 2.6.8.1")] == 3.32
    assert by[("lat_tcp_conn", "26-nat-sm Linux 2.6.8.1")] == 55.0
    assert by[("bw_pipe", "26-nat-un Linux 2.6.8.1")] == 1031.0


# --------------------------------------------------------------------------- other versions / layouts


def test_lmbench_2_0_with_repeats_k_suffix_and_tab_header():
    rows = _rows("lkml_2002_mau_lmbench2.txt")
    by = {(r["metric"], r["system"], r["params"]["repeat"]): r for r in rows}
    assert by[("lat_tcp_conn", "tony Linux 2.4.18", "3")]["value"] == 599000.0
    assert by[("exec_proc", "tony Linux 2.4.18", "1")]["value"] == 452.0
    assert by[("select_tcp", "tony Linux 2.4.18", "5")]["value"] == 10.6
    assert by[("page_fault", "tony Linux 2.5.40", "5")]["value"] == 2.0
    assert by[("file_delete_0k", "tony Linux 2.5.40", "2")]["value"] == 6.598
    assert ("select_100fd", "tony Linux 2.4.18", "1") not in by  # lmbench 2 has no 100fd column
    assert {r["params"]["repeat"] for r in rows} == {"1", "2", "3", "4", "5"}
    assert {r.tool_version for r in _runs("lkml_2002_mau_lmbench2.txt")} == {"2.0"}


def test_lmbench_1_x_tables():
    rows = _rows("lmlinux_1996_davem_lmbench1.txt")
    by = {(r["metric"], r["system"], r["params"].get("repeat", "")): r["value"] for r in rows}
    assert by[("fork_proc", "trombetas Linux 1.3.74", "1")] == 11400.0  # "11.4K"
    assert by[("sh_proc", "negro.rut SunOS 4.1.3_U", "")] == 110000.0  # "110K"
    assert by[("ctxsw_8p_0k", "madeira.r SunOS 5.5.1", "")] == 212.0
    assert by[("bw_tcp", "trombetas Linux 1.3.74", "2")] == 3.8  # megabytes/second -> MB/s
    assert by[("lat_tlb", "trombetas Linux 1.3.74", "2")] == 659.0
    assert ("lat_tlb", "trombetas Linux 1.3.74", "1") not in by  # -1: not measured
    assert not [k for k in by if k[0].startswith("lat_l") and k[1].startswith("madeira")]  # "-"
    runs = {r.system: r for r in _runs("lmlinux_1996_davem_lmbench1.txt")}
    assert runs["madeira.r SunOS 5.5.1"].attributes["mem_guess"] == "Bad mhz?"
    assert runs["negro.rut SunOS 4.1.3_U"].attributes["mem_guess"] == "No L2 cache?"


def test_widened_columns_and_blank_cells_by_position():
    rows = _rows("lkml_2005_lameter_widened.txt")
    sys_dm = "margin Linux 2.6.12-rc1-bk3-dm"
    got = _table(rows, ["lat_udp", "lat_rpc_udp", "lat_tcp", "lat_rpc_tcp", "lat_tcp_conn"])
    e = "exact"
    assert got[("margin Linux 2.6.12-rc1-bk3", "2")] == [None, None, (31.5, e), None, (52.0, e)]
    assert got[(sys_dm, "3")] == [(29.0, e), (37.4, e), (77.1, e), (46.1, e), (53.0, e)]
    fvm = _table(rows, ["file_create_0k", "mmap_latency", "select_100fd"])
    assert fvm[(sys_dm, "1")] == [None, (340.0, e), (10.6, e)]
    run = _runs("lkml_2005_lameter_widened.txt")[0]
    assert run.attributes["cache_line_bytes"] == "128"
    assert "tlb_pages" not in run.attributes and "mem_par" not in run.attributes


def test_blank_pipe_and_unix_read_by_position():
    got = _table(_rows("virtualclient_blank_cells.txt"),
                 ["lat_ctxsw_2p_0k", "lat_pipe", "lat_unix", "lat_udp", "lat_tcp", "lat_tcp_conn"])  # fmt: skip
    e = "exact"
    assert got[("X64-Linux Linux 5.8.0-1", "")] == [
        (11.5, e),
        None,
        None,
        (35.7, e),
        (40.3, e),
        (71.0, e),
    ]


def test_uint64_table_with_int64_header_and_empty_remote_row():
    rows = _rows("virtualclient_uint64_remote.txt")
    by = {r["metric"]: r for r in rows}
    assert by["uint64_bit"]["value"] == 0.25
    labels = {r.metric: r.metric_label for r in _runs("virtualclient_uint64_remote.txt")[0].results}
    assert labels["uint64_bit"] == "int64 bit"
    assert "uint64_add" not in by
    assert by["bw_mem_write"]["value"] == 23500.0  # 23.5K
    assert by["bw_mem_read"]["value"] == 10000.0  # 10.K
    assert by["lat_main_mem"]["value"] == 9.256
    assert not [m for m in by if m.endswith("_remote")]


def test_comment_lines_and_shifted_host():
    rows = _rows("oemu_make_see.txt")
    by = {(r["metric"], r["params"]["repeat"]): r["value"] for r in rows}
    assert by[("fork_proc", "1")] == 11000.0  # 11.K
    assert by[("sh_proc", "2")] == 612000.0  # 612K
    assert by[("null_call", "3")] == 1.33  # row after the "# ..." comment lines and a blank line
    assert by[("mmap_latency", "2")] == 8014200.0
    assert ("lat_rpc_udp", "1") not in by and by[("lat_tcp", "1")] == 494.1
    shifted = {r["metric"]: r["value"] for r in _rows("blog_example_vm_perl_warning.txt")}
    assert shifted["sh_proc"] == 1183.0 and shifted["lat_rand_mem"] == 164.5
    assert {r["system"] for r in _rows("blog_example_vm_perl_warning.txt")} == {
        "example-vm Linux 3.10.0-"
    }


def test_minus_one_mhz_is_not_an_attribute():
    run = _runs("fedora_kerneltest_minus1_mhz.txt")[0]
    assert "mhz" not in run.attributes
    assert {r.metric: r.value for r in run.results}["mmap_latency"] == 44300.0


def test_relative_best_of_breed_tables_are_not_read():
    assert _rows("neg_best_of_breed.txt") == []
    assert _rows("neg_diffstat.txt") == []
    assert _rows("neg_config_dialog.txt") == []


# --------------------------------------------------------------------------- generator layout

GEN = "gen_corpus_os_description.txt"
HG, PV = "hvm-guest Linux 2.6.18-", "pvops-dom Linux 2.6.18-"


def test_generator_layout_left_aligned_header_read_by_spans():
    rows = _rows(GEN)
    assert len(rows) == 104 and {r["alignment"] for r in rows} == {"exact"}  # 102 results, 2 hosts' clocks
    assert {r["system"] for r in rows} == {HG, PV}  # host cut to 9, OS to 13 characters
    by = {(r["metric"], r["system"]): r for r in rows}
    assert by[("select_tcp", HG)]["value"] == 12.5
    assert by[("exec_proc", PV)]["value"] == 521.0  # "521."
    assert by[("int_mul", PV)]["value"] == 0.046
    assert by[("ctxsw_16p_64k", HG)]["value"] == 20.7
    assert by[("lat_ctxsw_2p_0k", PV)]["value"] == 2.89
    assert by[("lat_tcp_conn", HG)]["value"] == 105.0
    # "0K Fil" and "10K Fi" are printed over the Create columns only, cut to 6 characters
    assert by[("file_create_0k", HG)]["value"] == 37.0
    assert by[("file_delete_0k", HG)]["value"] == 25.7
    assert by[("file_delete_10k", PV)]["value"] == 21.4
    assert by[("mmap_latency", HG)]["value"] == 14920.0
    assert by[("bw_tcp", PV)]["value"] == 745.0
    assert by[("bw_mem_write", HG)]["value"] == 3173.0
    assert by[("lat_rand_mem", HG)]["value"] == 441.0
    assert by[("lat_main_mem", PV)]["unit"] == "ns"
    assert all(r["params"] == {} for r in rows)
    labels = {r.metric: r.metric_label for run in _runs(GEN) for r in run.results}
    assert labels["file_delete_0k"] == "0K Fil Delete"
    assert labels["file_create_10k"] == "10K Fi Create"


def test_generator_layout_os_description_is_one_span_of_attributes():
    runs = {r.system: r for r in _runs(GEN)}
    assert set(runs) == {HG, PV}
    assert all(r.status == "ok" and not r.notes and r.tool_version == "3.0" for r in runs.values())
    base = {"description": "x86_64-linux-gnu", "mhz": "2500", "cache_line_bytes": "64",
            "scal_load": "1"}  # fmt: skip
    assert runs[HG].attributes.items() >= {**base, "mem_par": "8.6623"}.items()
    assert runs[PV].attributes.items() >= {**base, "mem_par": "11.277"}.items()
    assert "tlb_pages" not in runs[HG].attributes and "mem_guess" not in runs[HG].attributes


def test_generator_layout_collapsed_gives_the_same_rows():
    text = fixture_body(FIX / GEN)
    collapsed = "\n".join(" ".join(line.split()) for line in text.split("\n"))
    assert _canon(_lm(collapsed)) == _canon(_rows(GEN))


def test_unreadable_basic_parameters_table_is_a_note_not_an_unparsed_run():
    text = fixture_body(FIX / GEN).replace("Host      OS Description", "Host      Box Wording   ")
    runs = [er.run for er in extract_runs(text, "t") if er.parser.name == "lmbench"]
    assert {r.status for r in runs} == {"ok"} and len(runs) == 2
    assert all(any("header not recognised" in n and "attributes not read" in n for n in r.notes)
               for r in runs)  # fmt: skip
    assert all("description" not in r.attributes for r in runs)
    assert _canon(_lm(text)) == _canon(_rows(GEN))


def test_unreadable_header_becomes_unparsed_run():
    text = (
        "Processor, Processes - times in microseconds - smaller is better\n"
        "Host OS something else entirely\n"
        "--------- ------------- ---- ----\n"
        "darkstar Linux 2.6.21 1 2\n"
    )
    runs = PARSER.parse(Segment(text.split("\n")))
    assert [r.status for r in runs] == ["unparsed"]
    assert "header not recognised" in (runs[0].reason or "")


# --------------------------------------------------------------------------- synthetic getsummary (3.0-a9)


def _num(val: float | None, w: int) -> str:
    """getsummary `num`: blank when not measured, K/M scaling, %.1f, %.(w-2)f."""
    if val is None or val <= 0:
        return " " * w
    if val >= 10e6:
        return "%*.*s" % (w - 1, w - 1, "%.1f" % (val / 1e6)) + "M"
    if val >= 10e3:
        return "%*.*s" % (w - 1, w - 1, "%.1f" % (val / 1e3)) + "K"
    if val >= 10:
        return "%*.*s" % (w, w, "%.1f" % val)
    return "%*.*f" % (w, w - 2, val)


def _inum(val: float | None, w: int) -> str:
    return " " * w if val is None or val <= 0 else "%*d" % (w, int(val))


# (title, header block, cell formats: (metric or None, num width, printf width)), as in getsummary
_TABLES = [
    ("Processor, Processes - times in microseconds - smaller is better",
     "Host                 OS  Mhz null null      open slct sig  sig  fork exec sh  \n"
     "                             call  I/O stat clos TCP  inst hndl proc proc proc\n"
     "--------- ------------- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ----",
     [("mhz", 4, 4)] + [(m, 4, 4) for m in PROC]),
    ("Basic integer operations - times in nanoseconds - smaller is better",
     "Host                 OS  intgr intgr  intgr  intgr  intgr  \n"
     "                          bit   add    mul    div    mod   \n"
     "--------- ------------- ------ ------ ------ ------ ------ ",
     [(f"int_{op}", 6, 6) for op in ("bit", "add", "mul", "div", "mod")]),
    ("Basic double operations - times in nanoseconds - smaller is better",
     "Host                 OS  double double double double\n"
     "                         add    mul    div    bogo\n"
     "--------- ------------- ------  ------ ------ ------ ",
     [(f"double_{op}", 6, 6) for op in ("add", "mul", "div", "bogo")]),
    ("Context switching - times in microseconds - smaller is better",
     "Host                 OS  2p/0K 2p/16K 2p/64K 8p/16K 8p/64K 16p/16K 16p/64K\n"
     "                         ctxsw  ctxsw  ctxsw ctxsw  ctxsw   ctxsw   ctxsw\n"
     "--------- ------------- ------ ------ ------ ------ ------ ------- -------",
     [("ctxsw_2p_0k", 6, 6), ("ctxsw_2p_16k", 6, 6), ("ctxsw_2p_64k", 6, 6), ("ctxsw_8p_16k", 6, 6),
      ("ctxsw_8p_64k", 6, 6), ("ctxsw_16p_16k", 7, 7), ("ctxsw_16p_64k", 7, 7)]),
    ("*Local* Communication latencies in microseconds - smaller is better",
     "Host                 OS 2p/0K  Pipe AF     UDP  RPC/   TCP  RPC/ TCP\n"
     "                        ctxsw       UNIX         UDP         TCP conn\n"
     "--------- ------------- ----- ----- ---- ----- ----- ----- ----- ----",
     [("lat_ctxsw_2p_0k", 5, 5), ("lat_pipe", 5, 5), ("lat_unix", 4, 4), ("lat_udp", 5, 5),
      ("lat_rpc_udp", 5, 5), ("lat_tcp", 5, 5), ("lat_rpc_tcp", 5, 5), ("lat_tcp_conn", 5, 4)]),
    ("File & VM system latencies in microseconds - smaller is better",
     "Host                 OS   0K File      10K File     Mmap    Prot   Page   100fd\n"
     "                        Create Delete Create Delete Latency Fault  Fault  selct\n"
     "--------- ------------- ------ ------ ------ ------ ------- ----- ------- -----",
     [("file_create_0k", 6, 6), ("file_delete_0k", 6, 6), ("file_create_10k", 6, 6),
      ("file_delete_10k", 6, 6), ("mmap_latency", 7, 7), ("prot_fault", 5, 5),
      ("page_fault", 7, 7), ("select_100fd", 5, 5)]),
    ("*Local* Communication bandwidths in MB/s - bigger is better",
     "Host                OS  Pipe AF    TCP  File   Mmap  Bcopy  Bcopy  Mem   Mem\n"
     "                             UNIX      reread reread (libc) (hand) read write\n"
     "--------- ------------- ---- ---- ---- ------ ------ ------ ------ ---- -----",
     [("bw_pipe", 4, 4), ("bw_unix", 4, 4), ("bw_tcp", 4, 4), ("bw_file_reread", 6, 6),
      ("bw_mmap_reread", 6, 6), ("bw_bcopy_libc", 6, 6), ("bw_bcopy_hand", 6, 6),
      ("bw_mem_read", 4, 4), ("bw_mem_write", 5, 5)]),
]  # fmt: skip
_MEM_HEADER = (
    "Host                 OS   Mhz   L1 $   L2 $    Main mem    Rand mem    Guesses\n"
    "--------- -------------   ---   ----   ----    --------    --------    -------"
)
_MEM = ["lat_l1", "lat_l2", "lat_main_mem", "lat_rand_mem"]
_HOSTS = ["darkstar", "tony", "26-xR1301", "xen-dom0", "kvm-guest", "margin", "lguest1"]
_OSES = ["Linux 2.6.21", "Lguest 2.6.21", "Linux 2.6.8.1", "Linux 2.6.18-128.el5", "SunOS 5.5.1"]


def _synthetic(seed: int, blank_p: float) -> tuple[str, list[dict], set[tuple[str, str, str]]]:
    """A getsummary 3.0 report with random numbers and blank cells.

    Returns the text, the rows the parser must produce, and the (system, repeat, metric)
    cells that sit in rows with blanks (the ones a collapsed rendering may infer or drop).
    Within a table the columns' typical magnitudes differ by at least 2.2x (values vary
    by -15%/+18% around them) and every table starts with a complete row: the conditions
    under which a gap can be placed by magnitude at all.
    """
    rng = random.Random(seed)
    systems = [(rng.choice(_HOSTS), rng.choice(_OSES)) for _ in range(rng.randint(1, 4))]
    names = [f"{h[:9]} {o[:13]}".split() for h, o in systems]
    sys_names = [" ".join(n) for n in names]
    repeated = {s for s in sys_names if sys_names.count(s) > 1}
    occ = [sys_names[:k].count(s) + 1 for k, s in enumerate(sys_names)]
    mhz = [rng.choice([1602, 2400, 3000, 800]) for _ in systems]
    lines = ["", "                 L M B E N C H  3 . 0   S U M M A R Y",
             "                 ------------------------------------", ""]  # fmt: skip
    expected: list[dict] = []
    short: set[tuple[str, str, str]] = set()
    ctx0 = [None] * len(systems)

    def emit(k: int, metric: str, cell: str, unit: str) -> None:
        v = parse_number(cell.strip(), suffixes=True) if cell.strip() else None
        if v is None or v <= 0:
            return
        params = {"repeat": str(occ[k])} if sys_names[k] in repeated else {}
        expected.append({"benchmark": "lmbench", "system": sys_names[k], "metric": metric,
                         "params": params, "value": v, "unit": unit, "quoted": False,
                         "alignment": "exact", "statistic": "value"})  # fmt: skip

    for title, header, fmts in _TABLES + [("MEM", _MEM_HEADER, [])]:
        unit = (
            "ns"
            if "nanoseconds" in title or title == "MEM"
            else "MB/s"
            if "MB/s" in title
            else "us"
        )
        metrics = [f[0] for f in fmts] if title != "MEM" else _MEM
        ladder = rng.sample(range(14), len(metrics))
        typical = [0.15 * 2.2**k for k in ladder]  # 0.15 .. 41K: two or more printed digits
        lines += ["", "Memory latencies in nanoseconds - smaller is better" if title == "MEM" else title,
                  "-" * 70, *header.split("\n")]  # fmt: skip
        for k, (host, os_) in enumerate(systems):
            vals = []
            for j, m in enumerate(metrics):
                if m == "mhz":
                    vals.append(float(mhz[k]))
                elif m == "lat_ctxsw_2p_0k":
                    vals.append(ctx0[k])
                elif k > 0 and rng.random() < blank_p:
                    vals.append(None)
                else:
                    vals.append(typical[j] * rng.uniform(0.85, 1.18))
            if m0 := [j for j, m in enumerate(metrics) if m == "ctxsw_2p_0k"]:
                ctx0[k] = vals[m0[0]]
            if title == "MEM":
                cells = [_num(v, 6) for v in vals]
                row = "%-9.9s %13.13s  %4d" % (host, os_, mhz[k])
                row += " %6.6s %6.6s %6.6s %11.11s" % tuple(cells)
            else:
                cells = []
                for (m, nw, pw), v in zip(fmts, vals, strict=True):
                    text = "%4.0f" % v if m == "mhz" else _num(v, nw)
                    cells.append("%*.*s" % (pw, pw, text))
                row = "%-9.9s %13.13s " % (host, os_) + " ".join(cells)
            if not [c for c, m in zip(cells, metrics, strict=True) if m != "mhz" and c.strip()]:
                # getsummary would skip the host, and the repeat numbering of its later rows
                # could then no longer be matched across tables; keep every row printed
                return _synthetic(seed + 10**9, blank_p)
            lines.append(row)
            has_blank = any(not c.strip() for c in cells)
            if not any(r["metric"] == "cpu_mhz" and r["system"] == sys_names[k]
                       and r["params"].get("repeat") == (str(occ[k]) if sys_names[k] in repeated else None)
                       for r in expected):
                emit(k, "cpu_mhz", "%4d" % mhz[k], "MHz")  # the clock, once per run
            if has_blank:  # a collapsed rendering may place this row's cells by inference only
                short.add((sys_names[k], str(occ[k]) if sys_names[k] in repeated else "", "cpu_mhz"))
            for c, m in zip(cells, metrics, strict=True):
                if m != "mhz":
                    emit(k, m, c, unit)
                    if has_blank:
                        short.add(
                            (sys_names[k], str(occ[k]) if sys_names[k] in repeated else "", m)
                        )
    return "\n".join(lines) + "\n", expected, short


def _canon(rows: list[dict]) -> list[tuple]:
    return sorted(
        (
            r["system"],
            r["metric"],
            tuple(sorted(r["params"].items())),
            r["value"],
            r["alignment"],
            r["quoted"],
        )
        for r in rows
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), blank_p=st.sampled_from([0.0, 0.1, 0.3]))
def test_synthetic_summary_round_trips_exactly(seed, blank_p):
    text, expected, _ = _synthetic(seed, blank_p)
    got = _lm(text)
    assert _canon(got) == _canon(expected)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), blank_p=st.sampled_from([0.0, 0.2]))
def test_quoted_and_crlf_give_the_same_rows(seed, blank_p):
    text, expected, _ = _synthetic(seed, blank_p)
    quoted = "\n".join("> " + line for line in text.split("\n"))
    want_q = [{**r, "quoted": True} for r in expected]
    assert _canon(_lm(quoted)) == _canon(want_q)
    assert _canon(_lm(text.replace("\n", "\r\n"))) == _canon(expected)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), blank_p=st.sampled_from([0.0, 0.1, 0.3]))
def test_collapsed_whitespace_never_puts_a_value_in_the_wrong_column(seed, blank_p):
    text, expected, short = _synthetic(seed, blank_p)
    collapsed = "\n".join(" ".join(line.split()) for line in text.split("\n"))
    got = _lm(collapsed)
    key = lambda r: (r["system"], r["params"].get("repeat", ""), r["metric"])  # noqa: E731
    want = {key(r): r["value"] for r in expected}
    for r in got:
        k = key(r)
        assert k in want, f"value {r['value']} placed in a column that is blank: {k}"
        assert r["value"] == want[k], k
        # the clock is read from an exactly placed row only
        assert r["alignment"] == ("inferred" if k in short and k[2] != "cpu_mhz" else "exact"), k
    got_keys = {key(r) for r in got}
    # complete rows are always read in full; only cells of rows with blanks may be dropped
    assert {k for k in want if k not in short} <= got_keys


def test_collapsed_synthetic_usually_places_everything():
    placed = total = 0
    for seed in range(40):
        text, expected, short = _synthetic(seed, 0.2)
        collapsed = "\n".join(" ".join(line.split()) for line in text.split("\n"))
        got = _lm(collapsed)
        total += len(expected)
        placed += len(got)
    assert placed >= 0.95 * total


# --------------------------------------------------------------------------- robustness


def _all_fixture_texts() -> list[str]:
    return [fixture_body(p) for p in sorted(FIX.glob("*.txt"))]


_TEXTS = _all_fixture_texts()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, len(_TEXTS) - 1),
    edits=st.lists(
        st.tuples(st.integers(0, 10**6), st.sampled_from(["del", "dup", "swap", "junk", "cut"]),
                  st.text(alphabet=" -.0123456789KM\tabc>|\n", max_size=6)),
        max_size=8,
    ),
)  # fmt: skip
def test_mutated_fixtures_never_raise(which, edits):
    lines = _TEXTS[which].split("\n")
    for pos, op, junk in edits:
        if not lines:
            break
        i = pos % len(lines)
        if op == "del":
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = (i + 1) % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "junk":
            cut = pos % (len(lines[i]) + 1)
            lines[i] = lines[i][:cut] + junk + lines[i][cut:]
        else:
            lines[i] = lines[i][: pos % (len(lines[i]) + 1)]
    text = "\n".join(lines)
    for seg in segments(text):
        for run in PARSER.parse(seg):
            for r in run.results:
                assert math.isfinite(r.value) and r.value > 0
                assert r.metric in METRICS
    extract_runs(text, "m")


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=400))
def test_random_text_never_raises(text):
    PARSER.parse(Segment(text.split("\n")))
    extract_runs(text, "r")


@pytest.mark.parametrize(
    "text",
    [
        "L M B E N C H 3 . 0 S U M M A R Y\nProcessor, Processes - times in microseconds\nHost OS",
        "Context switching - times in microseconds\nHost OS 2p/0K\n--------- ---- ----\n",
        '"size=0k ovr=\n2 x\n',
        "bw_mem 1m rd\n",
        "Simple syscall: nan microseconds\n",
    ],
)
def test_truncated_inputs(text):
    for run in PARSER.parse(Segment(text.split("\n"))):
        assert all(math.isfinite(r.value) for r in run.results)


# --------------------------------------------------------------------------- mail artefacts

_SEED1_PROC = """\
Processor, Processes - times in microseconds - smaller is better
------------------------------------------------------------------------------
Host OS Mhz null null open slct sig sig fork exec sh
call I/O stat clos TCP inst hndl proc proc proc
--------- ------------- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ----
darkstar Lguest 2.6.21 1602 0.21 0.36 2.57 3.84 0.68 1.64 1137 2653 7960
darkstar Linux 2.6.21 1602 0.18 0.37 3.54 5.20 28.9 0.62 1.59 213. 1042 8725
"""


def test_wrapped_row_is_joined():
    text = _SEED1_PROC.replace("213. 1042 8725", "213. 1042\n8725")
    by = {(r["metric"], r["system"]): r for r in _lm(text)}
    assert by[("sh_proc", LX)]["value"] == 8725.0
    assert by[("sh_proc", LX)]["alignment"] == "exact"
    assert by[("sig_inst", LG)]["value"] == 0.68


def test_row_with_too_many_values_becomes_an_unparsed_run():
    text = _SEED1_PROC.replace("1602 0.18 0.37", "1602 0.18 0.37 9.99")
    runs = PARSER.parse(Segment(text.split("\n")))
    assert not [r for r in runs if r.system == LX]
    bad = [r for r in runs if r.status == "unparsed"]
    assert len(bad) == 1 and "12 values for 11 columns" in (bad[0].reason or "")
    assert bad[0].line_start == 6
    assert {r.system for r in runs if r.status == "ok"} == {LG}


def test_seed_table_quoted_gives_the_same_values():
    plain = _lm(_SEED1_PROC)
    quoted = _lm("\n".join("> " + line for line in _SEED1_PROC.split("\n")))
    assert _canon(quoted) == _canon([{**r, "quoted": True} for r in plain])
    assert len(plain) == 20  # 19 results and the clock of the one row placed exactly


def test_make_see_summary_then_relative_tables():
    summary = fixture_body(FIX / "seed_003.txt")
    relative = fixture_body(FIX / "neg_best_of_breed.txt")
    rows = _lm(summary + "\n" + relative)
    assert _canon(rows) == _canon(_rows("seed_003.txt"))


@pytest.mark.parametrize("name", ["seed_001", "seed_003", "lkml_2002_mau_lmbench2", "virtualclient_uint64_remote"])
def test_a_ruler_whose_last_groups_a_mailer_wrapped_still_gives_every_column(name):
    # a 74-column ruler broken at 72: `--------- ------------- ---- ... ----` then `---- ----`
    from bench.extraction import wrap

    body = fixture_body(FIX / f"{name}.txt")
    assert re.search(r"(?m)^-{2,}(?: +-{2,}){0,3} *$", wrap(body)), "the damage does wrap a ruler"
    key = lambda r: (r["system"], r["metric"], tuple(sorted(r["params"].items())), r["value"])  # noqa: E731
    assert {key(r) for r in rows_of(wrap(body))} == {key(r) for r in rows_of(body)}


# https://lore.kernel.org/lkml/94F20261551DC141B6B559DC4910867204491F@blr-m3-msg.wipro.com/ (its lines,
# two of the five runs): the caption between rules of stars names the kernel lmbench's OS column cuts
CAPTIONED_SUMMARY = """*****************************************************************************
\t\t\t\tLmbench result
\t\t\t\tkernel 2.5.54-mm2
****************************************************************************
L M B E N C H  2 . 0   S U M M A R Y
                 ------------------------------------
\t\t (Alpha software, do not distribute)

Processor, Processes - times in microseconds - smaller is better
----------------------------------------------------------------
Host                 \tOS  Mhz null null      open selct sig  sig  fork exec sh
                             \tcall  I/O stat clos TCP   inst hndl proc proc proc
--------- ------------- ---- ---- ---- ---- ---- ----- ---- ---- ---- ---- ----
benchtest  Linux 2.5.54  790 0.44 0.81 6.28 7.58       1.27 3.63  282 1212 6618
benchtest  Linux 2.5.54  790 0.46 0.83 6.42 7.71    33 1.27 3.59  304 1217 6569
"""


def test_a_caption_above_the_summary_names_its_system_and_the_host_becomes_a_parameter():
    runs = extract_runs(CAPTIONED_SUMMARY, "m")
    results = [(er.run.system, r) for er in runs for r in er.run.results]
    assert results and {s for s, _ in results} == {"kernel 2.5.54-mm2"}
    assert {r.params["host"] for _, r in results} == {"benchtest Linux 2.5.54"}
    assert {(r.params.get("repeat"), r.value) for _, r in results if r.metric == "null_call"} == {("1", 0.44), ("2", 0.46)}


# https://lore.kernel.org/lkml/94F20261551DC141B6B559DC491086721E00F9@blr-m3-msg.wipro.com/ (its lines, two
# of the five runs): a caption that is a release other than the one lmbench printed for every run
CAPTION_AGAINST_THE_PRINTOUT = """*************************************************************
\t\tKernel 2.5.62
*************************************************************
                 L M B E N C H  2 . 0   S U M M A R Y
                 ------------------------------------
\t\t (Alpha software, do not distribute)

Processor, Processes - times in microseconds - smaller is better
----------------------------------------------------------------
Host                 OS  Mhz null null      open selct sig  sig  fork exec sh
                             call  I/O stat clos TCP   inst hndl proc proc proc
--------- ------------- ---- ---- ---- ---- ---- ----- ---- ---- ---- ---- ----
benchtest  Linux 2.5.63  790 0.46 0.82 6.75 8.03    33 1.26 4.04  285 1322 6675
benchtest  Linux 2.5.63  790 0.44 0.82 6.66 7.99       1.23 4.04  364 1318 6776
"""


@pytest.mark.parametrize("caption", ["Kernel 2.5.62", "kernel 2.5.63"])
def test_a_caption_that_is_only_a_release_leaves_the_printout_its_system(caption):
    # (another release than the one printed, or the same: the banner tells what ran)
    runs = extract_runs(CAPTION_AGAINST_THE_PRINTOUT.replace("Kernel 2.5.62", caption), "m")
    results = [(er.run.system, r) for er in runs for r in er.run.results]
    assert results and {s for s, _ in results} == {"benchtest Linux 2.5.63"}
    assert {(r.params.get("repeat"), r.value) for _, r in results if r.metric == "null_call"} == {("1", 0.46), ("2", 0.44)}


# https://lore.kernel.org/lkml/200302251711.h1PHBct16624@mail.osdl.org/ (its lines, one table): the 2-way
# hosts, a blank line, then the 1-way hosts running the same OS: one table in two groups
TWO_GROUPS = """\
LMBench 2.0 Data ( items selected from total of five runs )

Processor, Processes - times in microseconds - smaller is better
----------------------------------------------------------------
Host                 OS  Mhz null null      open selct sig  sig  fork exec sh
                             call  I/O stat clos TCP   inst hndl proc proc proc
--------- ------------- ---- ---- ---- ---- ---- ----- ---- ---- ---- ---- ----
stp2-003.  Linux 2.4.18 1000 0.39 0.67 3.89 4.99  30.4 0.93 3.06 344. 1403 4465
stp2-000.  Linux 2.5.60 1000 0.41 0.77 4.34 5.57  32.6 1.15 3.59 245. 1406 5795

stp1-003.  Linux 2.4.18 1000 0.32 0.46 2.60 3.21  16.6 0.79 2.52 104. 918. 4460
stp1-002.  Linux 2.5.60 1000 0.33 0.47 2.83 3.47  16.0 0.94 2.70 143. 1212 5292
"""


def test_a_second_group_of_hosts_after_a_blank_line_is_read():
    got = {(r["system"], r["metric"], r["value"]) for r in _lm(TWO_GROUPS)}
    assert {s for s, _, _ in got} == {"stp2-003. Linux 2.4.18", "stp2-000. Linux 2.5.60", "stp1-003. Linux 2.4.18",
                                     "stp1-002. Linux 2.5.60"}
    assert ("stp1-003. Linux 2.4.18", "null_call", 0.32) in got
    assert ("stp1-002. Linux 2.5.60", "sh_proc", 5292.0) in got


# https://lore.kernel.org/lkml/94F20261551DC141B6B559DC4910867238D7BD@blr-m3-msg.wipro.com/ (its lines,
# fewer rows): a hand-made summary of two releases right above lmbench's own summary
HAND_ABOVE = (
    "Context switching - times in microseconds - smaller is better\n"
    "2p/0k ctxsw\t\t0.940\t\t1.420\n8p/16k ctxsw\t\t9.04\t\t15\n" + "-" * 104 + "\n\n"
    "                 L M B E N C H  2 . 0   S U M M A R Y\n"
    "                 ------------------------------------\n\n"
    "Processor, Processes - times in microseconds - smaller is better\n"
    "----------------------------------------------------------------\n"
    "Host                 OS  Mhz null null      open selct sig  sig  fork exec sh  \n"
    "                             call  I/O stat clos TCP   inst hndl proc proc proc\n"
    "--------- ------------- ---- ---- ---- ---- ---- ----- ---- ---- ---- ---- ----\n"
    "benchtest  Linux 2.5.67  790 0.44 0.77 6.50 8.04    31 1.23 3.85  263 1117 6097\n"
)


def test_a_row_of_the_table_above_is_no_caption_of_the_summary():
    rows = [r for r in rows_of(HAND_ABOVE) if r["metric"] == "null_call"]
    assert [(r["system"], r["value"]) for r in rows] == [("benchtest Linux 2.5.67", 0.44)]


# https://lore.kernel.org/linux-mm/20090324173414.GB24227@balbir.in.ibm.com/, as posted
MERGED_RULER_GROUP = """\
Context switching - times in microseconds - smaller is better
-------------------------------------------------------------
Host                 OS 2p/0K 2p/16K 2p/64K 8p/16K 8p/64K 16p/16K 16p/64K
                        ctxsw  ctxsw  ctxsw ctxsw  ctxsw   ctxsw ctxsw
--------- ------------- ----- ------ ------ ------ ------ --------------
nosoftlim Linux 2.6.29- 2.190 9.2300 3.1900 9.7400   10.8 7.93000 4.36000
softlimit Linux 2.6.29- 0.970 4.8200 3.1300 8.8900   10.3 8.82000 10.7
"""


def test_a_ruler_group_under_two_headed_columns_is_split_between_them():
    rows = _lm(MERGED_RULER_GROUP)
    assert len(rows) == 14
    last = [(r["system"].split()[0], r["value"]) for r in rows if r["metric"] == "ctxsw_16p_64k"]
    assert last == [("nosoftlim", 4.36), ("softlimit", 10.7)]
    assert [r["value"] for r in rows if r["system"].startswith("softlimit")] == [0.97, 4.82, 3.13, 8.89, 10.3, 8.82, 10.7]


# https://lore.kernel.org/lkml/Pine.LNX.4.44.0303241731540.2456-100000@localhost.localdomain/ (excerpt):
# groups of rows a blank line apart, each group's host and OS cells typed by hand
HAND_NAMED_GROUPS = """\
Processor, Processes - times in microseconds - smaller is better
----------------------------------------------------------------
Host                OS  Mhz null null      open selct sig  sig  fork exec sh
                            call  I/O stat clos TCP   inst hndl proc proc proc
--------- ------------- ---- ---- ---- ---- ---- ----- ---- ---- ---- ---- ----
2*HT*P4 with anobjrmap 1800 0.73 1.22 6.01 7.85  39.8 1.41 4.75 405. 1287 4246
2*HT*P4 with anobjrmap 1800 0.73 1.22 6.01 7.88  39.8 1.43 4.70 406. 1287 4172

2*HT*P4  w/o anobjrmap 1800 0.73 1.22 6.19 8.02  40.2 1.43 4.64 455. 1336 4133
2*HT*P4  w/o anobjrmap 1800 0.73 1.23 6.18 7.96  40.0 1.53 4.63 462. 1340 4131

This paragraph is no row of the table: 1 2 3 4 5 6 7 8 9 10 11
"""


def test_groups_a_blank_apart_filling_the_same_columns_are_one_table():
    rows = [r for er in extract_runs(HAND_NAMED_GROUPS, "g") for r in result_rows([er])]
    forks = {(r["system"], r["value"]) for r in rows if r["metric"] == "fork_proc"}
    assert forks == {("2*HT*P4 with anobjrmap", 405.0), ("2*HT*P4 with anobjrmap", 406.0),
                     ("2*HT*P4 w/o anobjrmap", 455.0), ("2*HT*P4 w/o anobjrmap", 462.0)}
    assert not {r["value"] for r in rows} & {10.0, 11.0}

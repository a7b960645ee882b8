"""bonnie++ text tables: fixed-width rows with blank cells, Latency rows, file-creation rows,
k/m/g suffixes, `+++++` cells and rows the mailer wrapped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.transforms.parsers.bonnie_cases import (
    FILES,
    IO,
    _by_run,
    _cells,
    _extracted,
    _fixture,
    _latency,
    _pp_table,
    _rows,
)
from transforms.parsers import bonnie
from transforms.quotes import segments


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

def test_a_create_row_of_exactly_twelve_cells_never_raises():
    body = ("                    ------Sequential Create------ --------Random Create--------\n"
            "                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
            "              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
            "1 2 3 4 5 6 7 8 9 10 11 12\n")
    for seg in segments(body):
        bonnie.parse(seg)


# https://lore.kernel.org/lkml/ (2001, "SW-RAID0 Performance problem", bonnie++ under dashed headings)
_SWRAID = Path(__file__).parents[2] / "fixtures/real/dev/m_lkml_2001_bonnie_hdparm_swraid0_chunks.txt"


def test_dashed_headings_over_one_machine_name_the_systems_and_the_machine_is_a_param():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = [r for r in result_rows(extract_explained(_SWRAID.read_text(), "b")[0]) if r["benchmark"] == "bonnie"]
    block = {(r["system"], r["value"]) for r in rows if r["metric"] == "seq_output_block"}
    assert block == {("RAID-0 chunk-size=16", 14277.0), ("chunk-size=32", 14075.0), ("Single HD /dev/hdc1", 11055.0)}
    assert {r["params"].get("host") for r in rows} == {"debian"}


# https://lore.kernel.org/lkml/ (2003, libata and Promise SATA): each box under a caption naming its kernel and driver
_SILO = Path(__file__).parents[2] / "fixtures/real/dev/dx_lkml_2003_bonnie_libata_promise.txt"


def test_each_machine_under_a_caption_of_its_own_is_named_by_the_caption():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = [r for r in result_rows(extract_explained(_SILO.read_text(), "b")[0]) if r["benchmark"] == "bonnie"]
    block = {(r["system"], r["params"].get("host"), r["value"]) for r in rows if r["metric"] == "seq_output_block"}
    assert block == {("2.4.22 + Promise ft3xx", "silo4.rz.informa", 62522.0), ("2.4.22 + Promise ft3xx", "silo4", 62522.0),
                     ("2.4.22-bk48 + 2.4.22-bk48-libata1", "silo5.rz.informa", 61698.0),
                     ("2.4.22-bk48 + 2.4.22-bk48-libata1", "silo5", 61698.0)}  # the table, then its CSV line


def test_a_machine_name_that_runs_into_the_size_is_split_from_it():
    # https://lore.kernel.org/lkml/Pine.LNX.4.44.0508291530310.14200-100000@coffee.psychology.mcmaster.ca/
    # (2005), the quoted bonnie++ 1.03 rows as posted: `Raid0 (8 disk)` is longer than its column
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    text = ("Version  1.03        ------Sequential Output------ --Sequential Input- --Random-\n"
            "                     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
            "Machine         Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
            "Raid0 (8 disk)15744M 54406  96 247419 90 100752 25 60266  98 226651 29 830.2   1\n"
            "node4G            4G 54915  97 253642 89 73976  18 59445  97 198372 24 659.8   1\n")
    rows = result_rows(extract_explained(text, "b")[0])
    got = {(r["system"], r["params"]["file_size_mb"], r["value"]) for r in rows if r["metric"] == "random_seeks"}
    assert got == {("Raid0 (8 disk)", "15744", 830.2), ("node4G", "4096", 659.8)}

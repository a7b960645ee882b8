"""bonnie++ CSV lines: alone, and merged into the text row they are the twin of."""

from __future__ import annotations

from tests.transforms.parsers.bonnie_cases import (
    FILES,
    IO,
    _bench_wrap,
    _by_run,
    _cells,
    _extracted,
    _fixture,
    _latency,
    _pp_table,
    _rows,
)
from tests.transforms.parsers.damage import bench_rows


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

def test_bonnie_pp_quoted_table_and_csv_both_wrapped_by_the_mailer():
    ((system, _r, quoted, values),) = _by_run(_fixture("bonnie_pp_103_quoted_wrapped_csv"))
    assert (system, quoted) == ("txiki", True)
    assert values == {**_cells(IO, "21270 87 32856 11 10533 3 10962 51 28744 5 157.0 0"),
                      **_cells(FILES, "21675 96 +++++ +++ 23523 100 23700 99 +++++ +++ 13062 61")}  # fmt: skip
    (er,) = _extracted(_fixture("bonnie_pp_103_quoted_wrapped_csv"))
    assert er.run.attributes["csv_line"] == "merged"  # the CSV split over `++` / blank / `+` joined

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

def test_csv_values_are_labelled_as_the_table_names_them():
    csv = "stan,4G,45000,98,60000,20,30000,10,50000,95,120000,15,300.5,1,16,5000,90,+++++,+++,4000,80,5100,91,+++++,+++,3900,78\n"
    body = "Version 1.03 ------Sequential Output------ --Sequential Input- --Random-\n\n" + csv
    labels = {r["metric"]: r["metric_label"] for r in bench_rows(body, "bonnie")}
    assert labels["seq_output_char"] == "Sequential Output Per Chr (putc)"
    assert labels["seq_output_block_cpu"] == "Sequential Output Block %CP (put_block_cpu)"
    assert labels["random_seeks"] == "Random Seeks (seeks)"
    assert labels["seq_create"] == "Sequential Create Create (seq_create)"


# https://lore.kernel.org/lkml/20030827203454.GA1492@cheney.cx/ (the post's lines)
_CSV_UNDER_ITS_NAME = """\
hdparm -Tt /dev/hdi
/dev/hdi:
 Timing buffer-cache reads:   4128 MB in  2.00 seconds = 2063.28 MB/sec
 Timing buffered disk reads:  156 MB in  3.00 seconds =  51.99 MB/sec


bonnie++

calc,2G,9054,32,8713,3,7028,1,19993,59,27927,2,144.0,0,16,3190,99,+++++,+++,+++++,+++,2980,91,+++++,+++,7685,85
"""


def test_bonnie_pp_103_csv_line_alone_under_the_tools_name():
    ((system, _r, _q, values),) = _by_run(_CSV_UNDER_ITS_NAME)
    assert system == "calc"
    assert values == {**_cells(IO, "9054 32 8713 3 7028 1 19993 59 27927 2 144.0 0"),
                      **_cells(FILES, "3190 99 +++++ +++ +++++ +++ 2980 91 +++++ +++ 7685 85")}
    # without the tool's name over it, a line of this shape is any other CSV
    assert _by_run(_CSV_UNDER_ITS_NAME.replace("bonnie++", "results")) == []

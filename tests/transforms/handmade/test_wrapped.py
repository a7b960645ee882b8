"""transforms.handmade.wrapped: table rows the mailer broke in two, joined again."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.extraction import wrap
from transforms.extract import extract_explained
from transforms.handmade.wrapped import JOINED, join_lone_labels, rejoin, unwrap
from transforms.rows import result_rows

# https://lore.kernel.org/lkml/794520d1-8cfa-0b81-a8d6-2c2bf4b55eb9@efficios.com/ (its lines, one quote
# level of three): each row's last cell, and the last head's second word, on a line of their own
BROKEN = """\
Below are the results on the 1 Socket 4th Generation EPYC Processor
(1 x 96C/192T), hackbench:

Threads:

Test:              Base (v6.4-rc1)   Base + new_mmcid_reverted  Base
+ mm_count_padding
  1-groups:         5.23 (0.00 pct)         4.61 (11.85 pct)
5.11 (2.29 pct)
  2-groups:         4.99 (0.00 pct)         4.72 (5.41 pct)
5.00 (-0.20 pct)
  4-groups:         5.96 (0.00 pct)         4.87 (18.28 pct)
5.86 (1.67 pct)
"""


def test_each_tail_joins_its_row_and_every_line_keeps_its_number():
    lines = BROKEN.splitlines()
    out = unwrap(lines)
    assert len(out) == len(lines)
    assert out[5].endswith("Base + mm_count_padding") and out[6] == "-"
    assert out[7].endswith("4.61 (11.85 pct)   5.11 (2.29 pct)") and out[8] == "-"


def test_the_joined_table_names_its_three_systems():
    rows = result_rows(extract_explained(BROKEN, "m")[0])
    got = {(r["system"], r["params"].get("groups"), r["value"]) for r in rows}  # `1-groups:`: groups=1
    assert ("Base + mm_count_padding", "1", 5.11) in got
    assert ("Base + new_mmcid_reverted", "4", 4.87) in got
    assert ("Base (v6.4-rc1)", "2", 4.99) in got
    assert len(got) == 9


def test_prose_and_two_broken_rows_stay_as_they_are():
    prose = ["This is a long sentence of a paragraph that the mailer wrapped at its width of seventy",
             "characters.", "", "And another long sentence of the same paragraph, wrapped as well at",
             "its width.", "A third long line of text written by the poster of this message, ok",
             "the end."]
    assert unwrap(prose) == prose
    two = BROKEN.splitlines()[:10]  # the heads and one row broken: three breaks are needed
    assert unwrap(two[:8]) == two[:8]


@pytest.mark.parametrize("rewrite", [unwrap, join_lone_labels, rejoin])
@settings(max_examples=80, deadline=None)
@given(st.lists(st.text(alphabet=" abc123.()[]%:-+K", max_size=90), max_size=25))
def test_any_lines_keep_their_count_and_only_joined_rows_and_rules_change(rewrite, lines):
    out = rewrite(lines)
    assert len(out) == len(lines)
    for before, after in zip(lines, out, strict=True):
        assert after == before or after == "-" or after.startswith(before.rstrip())


# https://lore.kernel.org/target-devel/20230710214442.6718-1-michael.christie@oracle.com/ (its lines):
# each row's label begins on a line of its own (`workqueue`, `direct`), the rest of it (`submit`) by
# the values
LONE = """\
[PATCH 0/5] scsi: target: Allow userspace to config cmd submission

For a nvme device and vhost-scsi I can see with 4K IOs:

fio jobs        1       2       4       8       10
--------------------------------------------------
workqueue
submit           94K     190K    394K    770K    890K

direct
submit          128K    252K    488K    950K    -
"""


def test_a_label_on_its_own_line_joins_its_row_and_every_line_keeps_its_number():
    lines = LONE.splitlines()
    out = join_lone_labels(lines)
    assert len(out) == len(lines)
    assert out[6].startswith("workqueue submit 94K") and out[7] == "-"
    assert out[9].startswith("direct submit   128K    252K") and out[10] == "-"
    assert out[9].index("252K") == lines[10].index("252K")  # the values keep their columns when they can


def test_the_two_line_labels_name_the_systems():
    rows = result_rows(extract_explained(LONE, "m")[0])
    got = {(r["benchmark"], r["system"], r["params"].get("fio jobs"), r["value"]) for r in rows}
    assert ("fio", "workqueue submit", "10", 890.0) in got
    assert ("fio", "direct submit", "1", 128.0) in got
    assert len(got) == 9


def test_a_caption_or_a_group_over_several_rows_is_not_joined():
    group = ["read", "4k      100   200", "64k     300   400"]
    assert join_lone_labels(group) == group  # a name over two rows heads a group
    caption = ["Results:", "base    100   200", "", "patch   300   400"]
    assert join_lone_labels(caption) == caption


# ---------------------------------------------------------------- rows a mailer hard-wrapped

# https://lore.kernel.org/lkml/21f3d376-17d6-8fb6-5f35-507ea931c0d3@amd.com/ (its lines), and the same
# lines as a mailer re-wraps them at 72 columns (bench.extraction's `wrap`: the last head, and each
# row's last cell, broken off at the blank before the word that did not fit, inside the cell's brackets)
REPORT = """\
==================================================================
Test          : hackbench
Units         : Normalized time in seconds
Interpretation: Lower is better
Statistic     : AMean
==================================================================
Case:          base[pct imp](CV)         eevdf[pct imp](CV)    eevdf-curb[pct imp](CV)
 1-groups     1.00 [ -0.00]( 2.51)     1.02 [ -1.69]( 1.89)     1.03 [ -2.54]( 2.42)
 2-groups     1.00 [ -0.00]( 1.63)     1.05 [ -4.68]( 2.04)     1.04 [ -3.75]( 1.25)  *
 4-groups     1.00 [ -0.00]( 1.80)     1.07 [ -7.47]( 2.38)     1.07 [ -6.81]( 1.68)  *
"""
REPORT_WRAPPED = wrap(REPORT)


def _facts(text):
    return sorted((r["benchmark"], r["system"], r["metric"], tuple(sorted(r["params"].items())), r["value"])
                  for r in result_rows(extract_explained(text, "m")[0]))


def test_a_report_a_mailer_wrapped_reads_as_the_one_it_sent():
    assert len(_facts(REPORT)) == 9
    assert _facts(REPORT_WRAPPED) == _facts(REPORT)
    assert ("hackbench", "eevdf-curb", "normalized_time_in_seconds", (("groups", "4"), ("statistic", "AMean")),
            1.07) in _facts(REPORT_WRAPPED)


def test_each_rest_joins_its_row_in_its_own_cell_and_every_line_keeps_its_number():
    lines = REPORT_WRAPPED.splitlines()
    assert lines[6:10] == ["Case:          base[pct imp](CV)         eevdf[pct imp](CV)", "eevdf-curb[pct imp](CV)",
                           " 1-groups     1.00 [ -0.00]( 2.51)     1.02 [ -1.69]( 1.89)     1.03 [", "-2.54]( 2.42)"]
    out = rejoin(lines)
    assert len(out) == len(lines)
    assert out[6].endswith("eevdf[pct imp](CV)   eevdf-curb[pct imp](CV)") and out[7] == JOINED
    assert out[8].endswith("1.03 [ -2.54]( 2.42)") and out[9] == JOINED


def test_a_paragraph_a_parser_read_is_left_as_it_is():
    lines = REPORT_WRAPPED.splitlines()
    end = next((k for k in range(len(lines)) if not lines[k].strip()), len(lines))  # the first paragraph's end
    assert rejoin(lines, read=set(range(end))) == lines
    assert rejoin(lines, read={6, 7}) == rejoin(lines)  # a paragraph read only in part is joined


# https://lore.kernel.org/linux-mm/20111003135902.GA16518@localhost/ (its lines, re-wrapped at 72
# columns): each case's name, printed after the values, on a line of its own
LABELS_WRAPPED = """\
dd numbers, USB stick:

      3.1.0-rc4-vanilla+        3.1.0-rc8-ioless6+
------------------------  ------------------------
                   54.39        +0.6%        54.73
3G-UKEY-HDD/xfs-10dd-4k-8p-4096M-20:10-X
                   63.72        -1.8%        62.58
3G-UKEY-HDD/xfs-1dd-4k-8p-4096M-20:10-X
                    4.91        +0.9%         4.95
UKEY-thresh=50M/xfs-2dd-4k-8p-4096M-50M:10-X

The complete test matrix for the major filesystems would take some more
days to complete.  As far as I can tell from the current test results,
"""


def test_names_printed_after_the_values_join_their_rows():
    got = {(r["system"], r["params"].get("case"), r["value"]) for r in
           result_rows(extract_explained(LABELS_WRAPPED, "m")[0])}
    assert ("3.1.0-rc4-vanilla+", "3G-UKEY-HDD/xfs-10dd-4k-8p-4096M-20:10-X", 54.39) in got
    assert ("3.1.0-rc8-ioless6+", "UKEY-thresh=50M/xfs-2dd-4k-8p-4096M-50M:10-X", 4.95) in got
    assert len([g for g in got if g[0] is not None]) == 6


# https://lore.kernel.org/lkml/94F20261551DC141B6B559DC4910867204491F@blr-m3-msg.wipro.com/ (its lines,
# tabs expanded): a rule under a row is no part of it; rows as long as the one above are rows
def test_rules_and_whole_rows_are_not_joined():
    lines = ["Context switching - times in microseconds - smaller is better", "",
             "1. 2p/0K ctxsw                          1.370           1.560",
             "------------------------------------------------------------------------------",
             "*Local* Communication latencies in microseconds - smaller is better"]
    assert rejoin(lines) == lines
    rows = ["kernel 2.5.54mm2   1.370   1.560   3.550   13.00   19.00   58.00   75.00   79.00",
            "kernel 2.5.54      1.560   1.600   3.600   19.00   25.00   75.00   51.00   126.0",
            "kernel 2.5.53      1.500   1.610   3.590   18.00   24.00   70.00   50.00   120.0"]
    assert rejoin(rows) == rows


# https://lore.kernel.org/lkml/277737d6034b3da072d3b0b808d2fa6e110038b0.camel@suse.com/ (its rows of
# eight configurations, re-wrapped at 72 columns): each row broken twice, inside a change's brackets,
# the rest keeping the blank the break did not take
def test_a_row_broken_twice_inside_brackets_is_one_row_again():
    lines = ["MB/sec copy     33827.50 (   0.00%)    33654.32 (  -0.51%)    33683.34 (",
             " -0.43%)    33819.30 (  -0.02%)    33830.88 (   0.01%)    33731.02 (",
             "-0.29%)    33573.76 (  -0.75%)    33292.76 (  -1.58%)",
             "MB/sec scale    22762.02 (   0.00%)    22524.00 (  -1.05%)    22416.54 (",
             " -1.52%)    22444.16 (  -1.40%)    22652.56 (  -0.48%)    22462.80 (",
             "-1.31%)    22461.90 (  -1.32%)    22670.84 (  -0.40%)"]
    out = rejoin(lines)
    assert out[1:3] == [JOINED, JOINED] and out[4:] == [JOINED, JOINED]
    assert out[0].split()[2::3] == ["33827.50", "33654.32", "33683.34", "33819.30", "33830.88", "33731.02",
                                    "33573.76", "33292.76"]
    assert out[0].endswith("33292.76 (  -1.58%)") and "33683.34 ( -0.43%)" in out[0]


# https://lore.kernel.org/lkml/f6dc1652-bc39-0b12-4b6b-29a2f9cd8484@amd.com/ (its hackbench table,
# re-wrapped at 72 columns): each row broken inside the wide gap after its
# second value (the blanks the break took leave no sign of the width), the rest at the margin; the
# heads broken inside their last head
GAPS_WRAPPED = """\
hackbench:

Test:        6.5.0-rc1 (base)    base + mathieu-queued-wakeup       base
+ aaron-tg-load-avg        base + queued-wakeup + tg-load-avg
  1-groups:   22.15 (0.00 pct)      22.46 (-1.39 pct)
22.35 (-0.90 pct)                   21.20 (4.28 pct)
  2-groups:   22.76 (0.00 pct)      21.78 (4.30 pct)
22.60 (0.70 pct)                    21.90 (3.77 pct)
  4-groups:   22.12 (0.00 pct)      22.02 (0.45 pct)
22.22 (-0.45 pct)                   21.94 (0.81 pct)
"""


def test_rows_broken_in_a_wide_gap_join_and_stand_under_their_heads():
    got = {(r["system"], r["params"].get("groups"), r["value"]) for r in
           result_rows(extract_explained(GAPS_WRAPPED, "m")[0])}
    assert ("base + aaron-tg-load-avg", "1", 22.35) in got
    assert ("base + queued-wakeup + tg-load-avg", "4", 21.94) in got
    assert ("6.5.0-rc1 (base)", "2", 22.76) in got
    assert len(got) == 12


# https://lore.kernel.org/lkml/bd083d8d-023a-698e-701b-725f1b15766e@amd.com/ (its lines), and the same lines as a
# mailer re-wraps them at 72 columns: the heads broken inside a wide gap (no sign of the width), each row
# broken inside the brackets of its third figure (`458.13 (1.24` / `pct)       447.69 (-1.06 pct)`)
SIS_NODE = """\
~ tbench ~

Clients:      tip                     SIS_NODE             SIS_NODE_LIMIT         SIS_NODE_TOPOEXT
    1    452.49 (0.00 pct)       457.94 (1.20 pct)       458.13 (1.24 pct)       447.69 (-1.06 pct)
    2    862.44 (0.00 pct)       879.99 (2.03 pct)       881.19 (2.17 pct)       855.91 (-0.75 pct)
    4    1604.27 (0.00 pct)      1618.87 (0.91 pct)      1628.00 (1.47 pct)      1627.14 (1.42 pct)
"""
SIS_NODE_WRAPPED = wrap(SIS_NODE)


def test_heads_broken_in_a_wide_gap_and_rows_broken_in_their_brackets_read_as_sent():
    assert "\nSIS_NODE_LIMIT" in SIS_NODE_WRAPPED and "(1.24\npct)" in SIS_NODE_WRAPPED  # as the mailer broke them
    assert len(_facts(SIS_NODE)) == 12
    assert _facts(SIS_NODE_WRAPPED) == _facts(SIS_NODE)


def test_a_rule_under_the_heads_is_no_rest_of_theirs():
    # https://lore.kernel.org/linux-mm/20111003135902.GA16518@localhost/ : heads, their rule, rows each broken
    # before the case named after its figures
    lines = ["      3.1.0-rc4-vanilla+        3.1.0-rc8-ioless6+",
             "------------------------  ------------------------",
             "                   54.39        +0.6%        54.73",
             "3G-UKEY-HDD/xfs-10dd-4k-8p-4096M-20:10-X",
             "                   63.72        -1.8%        62.58",
             "3G-UKEY-HDD/xfs-1dd-4k-8p-4096M-20:10-X"]
    out = rejoin(lines + [""] + ["x" * 72])
    assert out[1] == lines[1] and out[3] == JOINED and out[5] == JOINED


# the same post's hackbench report, re-wrapped the same way: each row broken between a figure and the
# change in brackets beside it (`3.78` / `(3.57 pct)`)
SIS_NODE_HACKBENCH = """\
~ hackbench ~

Test:                   tip                     SIS_NODE           SIS_NODE_LIMIT          SIS_NODE_TOPOEXT
 1-groups:         3.92 (0.00 pct)         4.05 (-3.31 pct)        3.78 (3.57 pct)         3.77 (3.82 pct)
 2-groups:         4.58 (0.00 pct)         3.84 (16.15 pct)        4.50 (1.74 pct)         4.34 (5.24 pct)
 4-groups:         4.99 (0.00 pct)         3.98 (20.24 pct)        4.93 (1.20 pct)         5.01 (-0.40 pct)
"""


def test_a_row_broken_before_the_change_beside_a_figure_keeps_them_one_cell():
    wrapped = wrap(SIS_NODE_HACKBENCH)
    assert "3.78\n(3.57 pct)" in wrapped  # as the mailer broke it
    assert len(_facts(SIS_NODE_HACKBENCH)) == 12
    assert _facts(wrapped) == _facts(SIS_NODE_HACKBENCH)


# https://lore.kernel.org/lkml/d686347e-f76c-7f9c-3f1a-f4326f5167ca@amd.com/ (its lines), each row
# then broken by a mailer before its second value: the tails hold a change padded inside its brackets
MMTESTS_ROWS = """\
~ unixbench ~
~~~~~~~~~~~~~

o NPS1

\t\t\t\t\tbase\t\t     affinity_scopes
Hmean     unixbench-dhry2reg-1      41194259.44 (   0.00%)    41044431.89 (  -0.36%)
Hmean     unixbench-dhry2reg-512  6252840065.42 (   0.00%)  6244309194.01 (  -0.14%)
Amean     unixbench-syscall-1        2534936.20 (   0.00%)     2517701.13 *   0.68%*
Amean     unixbench-syscall-512      8037812.87 (   0.00%)     7379945.23 *   8.18%*
Hmean     unixbench-pipe-1           2391449.08 (   0.00%)     2392275.16 (   0.03%)
"""


def test_tails_holding_a_padded_change_join_their_rows():
    broken = wrap(MMTESTS_ROWS)
    assert "\n2392275.16 (   0.03%)" in broken and "\n2517701.13 *   0.68%*" in broken
    rows = result_rows(extract_explained(broken, "m")[0])
    got = {(r["system"], r["value"]) for r in rows}
    assert ("base", 41194259.44) in got and ("affinity_scopes", 41044431.89) in got
    assert ("base", 2534936.2) in got and ("affinity_scopes", 2517701.13) in got
    assert got == {(r["system"], r["value"]) for r in result_rows(extract_explained(MMTESTS_ROWS, "m")[0])}


# https://lore.kernel.org/qemu-devel/20210721094211.69853-1-sgarzare@redhat.com/ (rows as a mailer at 72 columns breaks them)
PIPE_ROWS_BROKEN = """\
bs=4k iodepth=1    | 200 | 195 | 181 | 208 | 200 | 203 | 206 | 212 | 200
| 204 |
bs=4k iodepth=8    | 269 | 231 | 256 | 244 | 255 | 260 | 266 | 268 | 270
| 250 |
bs=4k iodepth=64   | 230 | 198 | 262 | 265 | 261 | 253 | 260 | 273 | 253
| 263 |
bs=4k iodepth=128  | 217 | 181 | 261 | 253 | 249 | 276 | 250 | 278 | 255
| 278 |
""".splitlines()


def test_a_pipe_rows_last_cells_on_a_line_of_their_own_join_the_row():
    out = rejoin(PIPE_ROWS_BROKEN)
    assert out[1] == out[3] == JOINED
    assert [c.strip() for c in out[0].split("|")][-3:] == ["200", "204", ""]
    assert [c.strip() for c in out[2].split("|")][-3:] == ["270", "250", ""]


# https://lore.kernel.org/lkml/2d747fb5-81e7-48ac-ae51-db737a170b81@amd.com/ (its lines, three of the rows),
# as a mailer re-wraps them at 72 columns: the heads and each row broken inside a wide gap, the
# rest at the margin; each column's cells hold blanks of their own inside their brackets
FIVE_COLUMNS = """\
     ==================================================================
     Test          : hackbench
     Units         : Normalized time in seconds
     Interpretation: Lower is better
     Statistic     : AMean
     ==================================================================
     Case:           tip[pct imp](CV)       vanilla[pct imp](CV)     DELAYED[pct imp](CV)     DEFUALT[pct imp](CV)      BOTH[pct imp](CV)
      1-groups     1.00 [ -0.00](13.74)     0.92 [  7.68]( 6.04)     0.95 [  5.12](10.12)     1.02 [ -1.92]( 6.70)     0.95 [  4.90]( 5.28)
      2-groups     1.00 [ -0.00]( 9.58)     1.04 [ -3.56]( 4.96)     1.03 [ -3.12]( 5.12)     0.98 [  1.56]( 4.30)     1.01 [ -1.11]( 5.78)
      4-groups     1.00 [ -0.00]( 2.10)     1.01 [ -1.30]( 2.27)     1.01 [ -1.09]( 2.68)     1.00 [ -0.43]( 2.58)     1.01 [ -0.65]( 1.38)
"""


def test_rows_and_heads_broken_in_a_wide_gap_join_though_their_cells_hold_blanks():
    wrapped = wrap(FIVE_COLUMNS)
    assert "\nDELAYED[pct imp](CV)" in wrapped and "\n0.95 [  5.12](10.12)" in wrapped  # (the damage does break them)
    assert len(_facts(FIVE_COLUMNS)) == 15
    assert _facts(wrapped) == _facts(FIVE_COLUMNS)

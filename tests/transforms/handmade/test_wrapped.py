"""transforms.handmade.wrapped: table rows the mailer broke in two, joined again."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_explained
from transforms.handmade.wrapped import join_lone_labels, unwrap
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
    got = {(r["system"], r["params"].get("case"), r["value"]) for r in rows}
    assert ("Base + mm_count_padding", "1-groups", 5.11) in got
    assert ("Base + new_mmcid_reverted", "4-groups", 4.87) in got
    assert ("Base (v6.4-rc1)", "2-groups", 4.99) in got
    assert len(got) == 9


def test_prose_and_two_broken_rows_stay_as_they_are():
    prose = ["This is a long sentence of a paragraph that the mailer wrapped at its width of seventy",
             "characters.", "", "And another long sentence of the same paragraph, wrapped as well at",
             "its width.", "A third long line of text written by the poster of this message, ok",
             "the end."]
    assert unwrap(prose) == prose
    two = BROKEN.splitlines()[:10]  # the heads and one row broken: three breaks are needed
    assert unwrap(two[:8]) == two[:8]


@pytest.mark.parametrize("rewrite", [unwrap, join_lone_labels])
@settings(max_examples=80, deadline=None)
@given(st.lists(st.text(alphabet=" abc123.()%:-+K", max_size=90), max_size=25))
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

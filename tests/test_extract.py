"""transforms.extract: how parsers' runs and the hand-made reader come together in one post."""

from transforms.extract import extract_explained
from transforms.rows import result_rows

# https://lore.kernel.org/lkml/ (2005, RAID0/RAID5 on U320 disks; the reply quotes the table in parts)
CONTINUED = """\
> Version  1.03        ------Sequential Output------ --Sequential Input- --Random-
>                       -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
> Machine         Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
> Raid0 (8 disk)15744M 54406  96 247419 90 100752 25 60266  98 226651 29 830.2   1

you're obviously saturating something already with 2 disks.

> Raid5 (8 disk)15744M 55881  98 153735 51 61680  24 56229  95 207348 44 741.2   1

the block-read shows that even with 3 disks, you're hitting ~190 MB/s.
"""


def test_rows_quoted_again_after_a_comment_are_read_under_the_header_above():
    runs, _, explained = extract_explained(CONTINUED, "m")
    rows = result_rows(runs)
    raid5 = {r["metric"]: r["value"] for r in rows if r["system"].startswith("Raid5")}
    assert raid5["seq_output_char"] == 55881 and raid5["seq_output_block"] == 153735
    assert raid5["seq_input_block"] == 207348 and raid5["random_seeks"] == 741.2
    assert raid5["seq_rewrite_cpu"] == 24
    assert len([r for r in rows if r["system"].startswith("Raid0")]) == 12
    assert len(raid5) == 12
    cont = [r for r in runs if any("continuing" in n for n in r.run.notes)]
    assert [(r.line_start, r.line_end) for r in cont] == [(7, 8)]  # its own line, not the borrowed header


def test_a_segment_without_a_table_above_is_not_read_as_a_continuation():
    alone = CONTINUED.split("\n", 4)[4]  # the same rows, no header anywhere above
    assert result_rows(extract_explained(alone, "m")[0]) == []

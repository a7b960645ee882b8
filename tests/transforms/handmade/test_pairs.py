"""Slash-pair tables (transforms/handmade/pairs.py): `IOPs Rand Read (before/after)` over `318K/316K`."""

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_explained
from transforms.handmade.pairs import read_pairs
from transforms.rows import result_rows

# https://lore.kernel.org/kvm/20210901131434.31158-1-mgurtovoy@nvidia.com/ (2021, "[PATCH v3 1/1] virtio-blk: avoid preallocating big SGL for data")
INLINE_SGL = """\
No performance degradation was seen (fio libaio engine with 16 jobs and
128 iodepth):

IO size      IOPs Rand Read (before/after)         IOPs Rand Write (before/after)
--------     ---------------------------------    ----------------------------------
512B          318K/316K                                    329K/325K

4KB           323K/321K                                    353K/349K

128KB         36K/36.1K                                    39.2K/41.7K

Signed-off-by: Max Gurtovoy <mgurtovoy@nvidia.com>
"""


def test_each_cell_gives_both_systems_values_blank_lines_between_rows():
    rows = result_rows(extract_explained(INLINE_SGL, "v", subject="[PATCH v3 1/1] virtio-blk: avoid preallocating big SGL for data")[0])
    got = {(r["benchmark"], r["system"], r["metric_label"], r["params"]["io_size"], r["value"]) for r in rows}
    assert got == {
        ("fio", "before", "IOPs Rand Read", "512B", 318.0), ("fio", "after", "IOPs Rand Read", "512B", 316.0),
        ("fio", "before", "IOPs Rand Write", "512B", 329.0), ("fio", "after", "IOPs Rand Write", "512B", 325.0),
        ("fio", "before", "IOPs Rand Read", "4KB", 323.0), ("fio", "after", "IOPs Rand Read", "4KB", 321.0),
        ("fio", "before", "IOPs Rand Write", "4KB", 353.0), ("fio", "after", "IOPs Rand Write", "4KB", 349.0),
        ("fio", "before", "IOPs Rand Read", "128KB", 36.0), ("fio", "after", "IOPs Rand Read", "128KB", 36.1),
        ("fio", "before", "IOPs Rand Write", "128KB", 39.2), ("fio", "after", "IOPs Rand Write", "128KB", 41.7)}
    assert all(r["params"].get("scale") == "k" for r in rows)


def test_a_date_or_a_path_is_no_pair_and_a_head_without_cells_reads_nothing():
    assert read_pairs(["Results (before/after)", "see 2021/09/01 and /dev/sda"]) == ([], set())
    assert read_pairs(["BW (base/patched)", ""]) == ([], set())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["IO size   BW (a/b)   IOPS (x / y)", "4k   1/2   3.5K/4K", "", "----  ----",
                                 "8k   10/20", "(a/b)", "1/2", "foo  bar"]) | st.text(max_size=80), max_size=12))
def test_random_lines_never_raise_and_every_value_is_printed(lines):
    values, used = read_pairs(lines)
    for v in values:
        assert v.line in used
        assert v.system and v.key
        text = lines[v.line]
        assert f"{v.value:g}".split(".")[0] in text

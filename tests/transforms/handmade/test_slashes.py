"""Slash tables (transforms.handmade.slashes), on the posts' own lines."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_explained
from transforms.handmade.slashes import read_slashes
from transforms.rows import result_rows

# https://lore.kernel.org/stable/20190904175306.977087695@linuxfoundation.org/
SIDE_BY_SIDE = """\
To evaluate this change, another tests were done using netperf(RR, TX) between
two machines with Intel(R) Xeon(R) Gold 6133 CPU @ 2.50GHz, and vq size was
tweaked through qemu. Results shown below does not show obvious changes.

vq size=256 TCP_RR                vq size=512 TCP_RR
size/sessions/+thu%/+normalize%   size/sessions/+thu%/+normalize%
   1/       1/  -7%/        -2%      1/       1/   0%/        -2%
   1/       4/  +1%/         0%      1/       4/  +1%/         0%
 256/       8/  +2%/         0%    256/       8/  +1%/        -1%
"""

# https://lore.kernel.org/netdev/?q=%22Vhost_net+TX+batching%22 (the cover letter, 2018)
ONE_GROUP = """\
Netperf TCP_STREAM TX from guest shows obvious improvements on small
packet:

    size/session/+thu%/+normalize%
       64/     1/   +2%/    0%
       64/     2/   +3%/   +1%
    65535/     8/    0%/   +3%
"""


def test_side_by_side_halves_take_their_captions_as_systems_and_the_test_as_a_param():
    values, used = read_slashes(SIDE_BY_SIDE.splitlines())
    got = {(v.system, v.params["test"], v.params["size"], v.params["sessions"], v.key, v.value) for v in values}
    assert ("vq size=256", "TCP_RR", "1", "1", "+thu%", -7.0) in got
    assert ("vq size=512", "TCP_RR", "256", "8", "+normalize%", -1.0) in got
    assert len(values) == 12 and all(v.change and v.unit == "%" for v in values)
    assert used == set(range(4, 9))


def test_a_slash_table_becomes_netperf_change_rows():
    rows = result_rows(extract_explained(SIDE_BY_SIDE, "m")[0])
    assert len(rows) == 12 and {r["benchmark"] for r in rows} == {"netperf"}
    assert {r["layout"] for r in rows} == {"change_table"}
    one = next(r for r in rows if r["system"] == "vq size=512" and r["params"].get("size") == "1"
               and r["params"].get("sessions") == "4" and r["metric_label"] == "+thu%")
    assert one["value"] == 1.0 and one["unit"] == "%"


def test_one_group_under_a_sentence_names_no_system():
    values, _ = read_slashes(ONE_GROUP.splitlines())
    assert [(v.params, v.key, v.value) for v in values[:2]] == [
        ({"size": "64", "session": "1"}, "+thu%", 2.0), ({"size": "64", "session": "1"}, "+normalize%", 0.0)]
    assert {v.system for v in values} == {None}
    rows = result_rows(extract_explained(ONE_GROUP, "m")[0])
    assert len(rows) == 6 and {r["benchmark"] for r in rows} == {"netperf"}


def test_paths_dates_and_diffstats_are_no_slash_tables():
    text = "drivers/vhost/net.c | 8 +++++++-\n2019/09/04 12/13/14\n 1 file changed\nsize/sessions/thu\n1/2\n"
    assert read_slashes(text.splitlines()) == ([], set())


def test_every_row_pattern_is_linear():
    from tests.redos import check
    from transforms.handmade.slashes import MAX_FIELDS, MAX_GROUPS, _row_pattern

    for fields in range(3, MAX_FIELDS + 1):
        for groups in range(1, MAX_GROUPS + 1):
            assert check(_row_pattern(fields, groups), "fullmatch") == [], (fields, groups)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["size/session/+thu%", "  64/  1/ +2%", "1/2/3%", "a/b/c/", " / ", "x", "",
                                 "vq size=256 TCP_RR   vq size=512", "64/ 1/ +2%    64/ 1/ -1%"]), max_size=12))
def test_any_lines_read_without_raising(lines):
    values, used = read_slashes(lines)
    assert all(0 <= v.line < len(lines) for v in values) and all(0 <= k < len(lines) for k in used)

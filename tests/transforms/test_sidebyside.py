"""transforms.sidebyside: two printouts pasted side by side, each read as its own."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_explained
from transforms.model import Segment
from transforms.rows import result_rows
from transforms.sidebyside import cuts, halves

# https://lore.kernel.org/linux-mm/20071203183355.0061ddeb.kamezawa.hiroyu@jp.fujitsu.com/ (its lines)
BEFORE = """\
*** Before patch ***************
 Average Half Load -j 4 Run:                   Average Optimal -j 32 Load Run:
 Elapsed Time 266.104                          Elapsed Time 353.957
 User Time 1015.82                             User Time 1070.68
 System Time 70.0701                           System Time 154.63
 Percent CPU 407.667                           Percent CPU 351.667
 Context Switches 136916                       Context Switches 223173
 Sleeps 135404                                 Sleeps 199366
"""


def test_each_half_is_a_kernbench_printout_under_the_caption_above_both():
    rows = result_rows(extract_explained(BEFORE, "k", subject="memory controller: kernbench result")[0])
    got = {(r["system"], r["params"].get("jobs"), r["metric"], r["value"]) for r in rows}
    assert ("Before patch", "4", "elapsed_time", 266.104) in got
    assert ("Before patch", "32", "elapsed_time", 353.957) in got
    assert ("Before patch", "32", "sleeps", 199366.0) in got
    assert len(rows) == 12


def test_the_cut_is_where_the_first_word_comes_again_after_a_wide_gap():
    lines = BEFORE.splitlines()
    at = cuts(lines)
    assert sorted(at) == [1, 2, 3, 4, 5, 6, 7] and at[2] == lines[2].index("Elapsed Time 353")
    left, right, span = halves(Segment(lines))
    assert left.lines[2].strip() == "Elapsed Time 266.104" and right.lines[2] == "Elapsed Time 353.957"
    assert left.lines[0] == right.lines[0] == lines[0] and span == range(1, 8)
    # two lines are no pair of printouts; a word standing twice in prose is none either
    assert cuts(lines[1:3]) == {}
    assert cuts(["the cat sat on the mat and then the cat slept"] * 4) == {}


@settings(max_examples=80, deadline=None)
@given(st.lists(st.text(alphabet=" \tabcdeTime0123456789.:-", max_size=120), max_size=30))
def test_any_lines_cut_cleanly_or_not_at_all(lines):
    at = cuts(lines)
    for i, col in at.items():
        first = lines[i].lstrip(" \t")[:2]  # the first word's start comes again, after three blanks
        assert lines[i][col:].startswith(first) and lines[i][col - 3:col] == "   "
    split = halves(Segment(lines))
    if split is not None:
        left, right, _ = split
        assert len(left.lines) == len(right.lines) == len(lines)

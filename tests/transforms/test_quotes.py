"""Quote segments: depth, prefixes, and the tails a mailer wrapped out of a quoted line."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.extraction import quote, wrap
from transforms.extract import extract_explained
from transforms.quotes import segments
from transforms.rows import result_rows

# https://lore.kernel.org/lkml/Pine.LNX.4.44.0508291530310.14200-100000@coffee.psychology.mcmaster.ca/
# (2005, "Re: Where is the performance bottleneck?"): the quoted bonnie++ 1.03 table, as posted
_BONNIE = (
    "> Version  1.03        ------Sequential Output------ --Sequential Input- --Random-\n"
    ">                       -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
    "> Machine         Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
    "> Raid0 (8 disk)15744M 54406  96 247419 90 100752 25 60266  98 226651 29 830.2   1\n"
    "> Raid0s(4 disk)15744M 54915  97 253642 89 73976  18 59445  97 198372 24 659.8   1\n"
)


def _by_depth(text: str) -> list[tuple[int, list[str]]]:
    """Segments by depth, leaving out those holding only blank lines."""
    return [(s.depth, s.lines) for s in segments(text) if any(x.strip() for x in s.lines)]


def test_a_tail_wrapped_out_of_the_quote_stays_in_the_quote():
    wrapped = wrap(_BONNIE)  # what the replier's mailer does to the 84-column quoted rows
    assert "\n830.2   1\n" in wrapped  # the tails lost their `>`
    assert [d for d, _ in _by_depth(wrapped)] == [1]
    rows = result_rows(extract_explained(wrapped, "m")[0])
    assert sorted(r["value"] for r in rows if r["metric"] == "random_seeks") == [659.8, 830.2]
    assert result_rows(extract_explained(_BONNIE, "m")[0]) == rows


def test_a_reply_between_quoted_lines_is_not_a_tail():
    text = ("> The U320 SCSI controller has a 64 bit PCI-X bus for itself, there is\n"
            "Right, it does.\n"
            "> no other device on that bus.\n")
    assert [d for d, _ in _by_depth(text)] == [1, 0, 1]


def test_a_short_line_that_would_have_fit_ended_there_on_purpose():
    text = "> Raid0 (8 disk)15744M 54406  96\n830.2   1\n> Raid0s(4 disk)15744M 54915  97\n"
    assert [d for d, _ in _by_depth(text)] == [1, 0, 1]


def test_a_tail_after_the_last_quoted_line_needs_a_number_and_a_blank_line_below():
    head = "> Raid5s(4 disk)15744M 54920  97 83680  29 36551  14 56917  95 185345 35\n"
    assert [d for d, _ in _by_depth(head + "599.8   1\n\nthe block-read shows\n")] == [1, 0]
    assert _by_depth(head + "599.8   1\n\nx\n")[0][1][-1] == "599.8   1"
    assert [d for d, _ in _by_depth(head + "seems slow\n\nx\n")] == [1, 0]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("> ab1.\t-"), max_size=90), max_size=12))
def test_every_line_lands_in_exactly_one_segment_in_order(lines):
    text = "\n".join(lines)
    segs = segments(text)
    assert sum(len(s.lines) for s in segs) == len(text.split("\n"))
    offsets = [s.offset for s in segs]
    assert offsets == sorted(offsets) and (not segs or segs[0].offset == 0)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(_BONNIE.splitlines()), min_size=1, max_size=6))
def test_wrapping_a_quoted_table_moves_no_line_out_of_the_quote(rows):
    text = "\n".join([*rows, "> Latency 1053us"])  # the quote goes on below the rows
    assert {d for d, _ in _by_depth(wrap(quote(text)))} == {2}


def test_a_blank_line_left_unquoted_inside_a_quote_keeps_the_quote_whole():
    # Message-ID <m167gwm17r.fsf@flinx.npwt.net> (linux-mm, 1998; fixture bonnie1_classic_supercite_quote):
    # the caption above the blank line names the table below it
    text = ("ZC> 2.1.108 + shmfs:\n\n"
            "ZC>               -------Sequential Output-------- ---Sequential Input-- --Random--\n"
            "ZC>               -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---\n"
            "ZC> Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU\n"
            "ZC>           100  2611 90.7  3924 86.2  3201 13.3  4763 61.4  6736 24.4 143.7  4.0\n")
    assert [d for d, _ in _by_depth(text)] == [1]
    rows = result_rows(extract_explained(text, "z")[0])
    assert {(r["system"], r["value"]) for r in rows if r["metric"] == "random_seeks"} == {("2.1.108 + shmfs", 143.7)}


def test_fio_io_depths_wrapped_onto_their_own_line_are_no_quote():
    text = ("  IO depths    : 1=0.1%, 2=0.1%, 4=0.1%, 8=0.1%, 16=0.1%, 32=0.1%,\n"
            ">=64=99.7%\n")
    assert [d for d, _ in _by_depth(text)] == [0]


# https://lore.kernel.org/lkml/f6dc1652-bc39-0b12-4b6b-29a2f9cd8484@amd.com/ (its hackbench rows,
# quoted in a reply whose mailer re-wrapped them at 72 columns): each row's rest, two cells long,
# lost its quote mark and stays in the quote
def test_a_quoted_rows_rest_of_several_cells_stays_in_the_quote():
    text = ("> Test:        6.5.0-rc1 (base)    base + mathieu-queued-wakeup       base\n"
            "> + aaron-tg-load-avg        base + queued-wakeup + tg-load-avg\n"
            ">   1-groups:   22.15 (0.00 pct)      22.46 (-1.39 pct)\n"
            "22.35 (-0.90 pct)                   21.20 (4.28 pct)\n"
            ">   2-groups:   22.76 (0.00 pct)      21.78 (4.30 pct)\n"
            "22.60 (0.70 pct)                    21.90 (3.77 pct)\n"
            ">   4-groups:   22.12 (0.00 pct)      22.02 (0.45 pct)\n"
            "22.22 (-0.45 pct)                   21.94 (0.81 pct)\n"
            "> \n"
            "I see the same here.\n")
    segs = segments(text)
    assert [(s.depth, len(s.lines)) for s in segs[:1]] == [(1, 9)] and segs[1].lines[0] == "I see the same here."
    assert segs[0].lines[3] == "22.35 (-0.90 pct)                   21.20 (4.28 pct)"

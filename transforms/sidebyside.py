"""Two printouts pasted side by side, to compare them line by line:

    Average Half Load -j 4 Run:                   Average Optimal -j 32 Load Run:
    Elapsed Time 266.104                          Elapsed Time 353.957
    User Time 1015.82                             User Time 1070.68

A parser reads one printout a line; here each line holds two. A run of three or more lines whose
first word comes again after a wide gap (three blanks or more) is cut there, and each half is read
as a printout of its own, in the same lines (so captions above still name both).
"""

from __future__ import annotations

import re

from transforms.model import Segment

_FIRST = re.compile(r"^[ \t]*+(?P<word>[A-Za-z][\w%/-]{1,30}+)")
_MIN_LINES = 3  # lines in a row that show the pattern
_MIN_COLUMN = 12  # a second copy sits at least this far in
_MAX_LINE = 400


def _cut(line: str) -> int | None:
    """Where the second copy of the line's first word starts after a gap of three blanks, or None."""
    if len(line) > _MAX_LINE:
        return None
    m = _FIRST.match(line)
    if m is None:
        return None
    word = m["word"]
    k = line.find("   " + word, max(m.end(), _MIN_COLUMN - 3))
    if k < 0:
        return None
    at = k + 3
    end = at + len(word)
    if end < len(line) and (line[end].isalnum() or line[end] == "_"):
        return None
    return at


def cuts(lines: list[str]) -> dict[int, int]:
    """Line index -> column of the right-hand printout, for every run of side-by-side lines."""
    out: dict[int, int] = {}
    run: dict[int, int] = {}
    for i, line in enumerate(lines):
        at = _cut(line)
        if at is not None:
            run[i] = at
            continue
        if len(run) >= _MIN_LINES:
            out.update(run)
        run = {}
    if len(run) >= _MIN_LINES:
        out.update(run)
    return out


def halves(seg: Segment) -> tuple[Segment, Segment, range] | None:
    """The segment as its left-hand and its right-hand printouts (other lines alike in both), and
    the lines that were cut; None when no lines stand side by side."""
    if "   " not in seg.text:
        return None
    at = cuts(seg.lines)
    if not at:
        return None
    left = [line[: at[i]].rstrip() if i in at else line for i, line in enumerate(seg.lines)]
    right = [line[at[i]:] if i in at else line for i, line in enumerate(seg.lines)]
    span = range(min(at), max(at) + 1)
    return Segment(left, seg.offset, seg.depth, seg.before), Segment(right, seg.offset, seg.depth, seg.before), span

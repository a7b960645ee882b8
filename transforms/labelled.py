"""Tool output lines behind a label: `Before: [  5]   0.00-10.00  sec   551 MBytes   462 Mbits/sec`.

Posters who compare two runs sometimes paste one line of each, each behind the name of what was
measured (`Before:`/`After:`, `vanilla:`, `5.10:`). The label was put before the columns the tool
printed, so, like a log prefix, it is blanked out before a parser reads the line (the columns keep
their places), and it becomes the system of the rows read from that line.

Only lines whose text after the label starts like a tool's row (`[`, a digit) count, and only
when at least two such lines are in the block, so that `Note: 5 runs were made` stays prose.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

MIN_LINES = 2
# `2.4.17rc2aa1<TAB>Throughput 41.7986 MB/sec ...`: a kernel's name typed before each line the tool
# printed, no colon; only a name with a digit and a `.` or `-` (a version), or a condition word, and a
# tab or two spaces after it, so that a table's rows (`base   123   456`) are no labelled lines
_BARE = (r"(?:(?=[\w+~]{0,39}+[.-])(?=[A-Za-z_.+~-]{0,39}+\d)[A-Za-z0-9][\w.+~-]{0,39}+"
         r"|(?i:vanilla|patched|baseline|base|before|after|stock|mainline|upstream|unpatched))(?:\t|  )")
_LABELLED = re.compile(r"^(?P<lead>[ \t]{0,4}+)(?:(?P<label>[A-Za-z][\w.()+/-]{0,24}+(?: [\w.()+/-]{1,24}+){0,3}?):"
                       r"(?P<gap>[ \t]++)(?=\[|\d)|(?P<bare>" + _BARE + r")[ \t]*+(?=[A-Za-z\[]))")
_ANY = re.compile(r"(?m)^[ \t]{0,4}+(?:[A-Za-z][\w.()+/ -]{0,100}?:[ \t]++[\[\d]|" + _BARE + r"[ \t]*+[A-Za-z\[])")


def unlabel(lines: Sequence[str]) -> tuple[list[str], dict[int, str]]:
    """The lines with each label blanked out (same length), and line index -> label."""
    found = {i: m for i, line in enumerate(lines) if len(line) < 1000 and (m := _LABELLED.match(line))}
    if len(found) < MIN_LINES:
        return list(lines), {}
    out = list(lines)
    labels: dict[int, str] = {}
    for i, m in found.items():
        out[i] = " " * m.end() + lines[i][m.end():]
        labels[i] = m.group("label") or m.group("bare").strip()
    return out, labels


def has_labels(text: str) -> bool:
    """A cheap test before any line is looked at: some line starts like a labelled row."""
    return _ANY.search(text[:4_000_000]) is not None


def unlabel_text(text: str) -> str:
    return "\n".join(unlabel(text.split("\n"))[0])

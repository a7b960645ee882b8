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
_LABELLED = re.compile(r"^(?P<lead>[ \t]{0,4}+)(?P<label>[A-Za-z][\w.()+/-]{0,24}+(?: [\w.()+/-]{1,24}+){0,3}?):"
                       r"(?P<gap>[ \t]++)(?=\[|\d)")
_ANY = re.compile(r"(?m)^[ \t]{0,4}+[A-Za-z][\w.()+/ -]{0,100}?:[ \t]++[\[\d]")


def unlabel(lines: Sequence[str]) -> tuple[list[str], dict[int, str]]:
    """The lines with each label blanked out (same length), and line index -> label."""
    found = {i: m for i, line in enumerate(lines) if len(line) < 1000 and (m := _LABELLED.match(line))}
    if len(found) < MIN_LINES:
        return list(lines), {}
    out = list(lines)
    labels: dict[int, str] = {}
    for i, m in found.items():
        out[i] = " " * m.end() + lines[i][m.end():]
        labels[i] = m.group("label")
    return out, labels


def has_labels(text: str) -> bool:
    """A cheap test before any line is looked at: some line starts like a labelled row."""
    return _ANY.search(text[:4_000_000]) is not None


def unlabel_text(text: str) -> str:
    return "\n".join(unlabel(text.split("\n"))[0])

"""Table rows the mailer broke in two: the last cell of each row on a line of its own.

    Test:              Base (v6.4-rc1)   Base + new_mmcid_reverted  Base
    + mm_count_padding
      1-groups:         5.23 (0.00 pct)         4.61 (11.85 pct)
    5.11 (2.29 pct)

A line that holds a wide gap (a table's), long enough that one more cell did not fit, followed by
a short line: the short line is the end of the row above. Only when three rows or more of a block
break this way (prose wraps too, but its lines have no wide gaps). The tail joins its row (a value
after a wide gap, words after one blank) and its own line becomes a rule line, so that every line
keeps its number.
"""

from __future__ import annotations

import re

_GAP = re.compile(r"\S[ \t]{3,}\S")
_VALUE_START = re.compile(r"^[-+]?\d")
_MIN_ROW = 48  # a row the mailer broke was at least this long before its tail
_WRAP = 64  # the row and its tail together would not have fitted on one line
_MAX_TAIL = 32
_MIN_BROKEN = 3


def _tail(lines: list[str], i: int) -> bool:
    if i == 0:
        return False
    tail, row = lines[i].strip(), lines[i - 1].rstrip()
    if not tail or len(tail) > _MAX_TAIL or len(tail.split()) > 4 or len(row) < _MIN_ROW:
        return False
    if len(row) + 1 + len(tail) <= _WRAP or _GAP.search(row) is None or _GAP.search(tail) is not None:
        return False
    return i + 1 >= len(lines) or not lines[i + 1].strip() or len(lines[i + 1].rstrip()) >= _MIN_ROW \
        or _GAP.search(lines[i + 1]) is not None


def unwrap(lines: list[str]) -> list[str]:
    """The lines with each broken row joined again (its tail's line a rule line), or as they are."""
    tails = [i for i in range(len(lines)) if _tail(lines, i)]
    if len(tails) < _MIN_BROKEN or sum(bool(_VALUE_START.match(lines[i].strip())) for i in tails) < _MIN_BROKEN - 1:
        return lines
    out = list(lines)
    for i in tails:
        tail = out[i].strip()
        out[i - 1] = out[i - 1].rstrip() + ("   " if _VALUE_START.match(tail) else " ") + tail
        out[i] = "-"
    return out

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


# `workqueue` on a line of its own over `submit   94K  190K ...`: a row label written on two lines
_LONE_LABEL = re.compile(r"^[ \t]*+[A-Za-z][\w+./-]{0,20}+(?:[ \t][A-Za-z][\w+./-]{0,20}+){0,2}+[ \t]*+$")


def lone_label(line: str) -> bool:
    """A line of one to three words and no colon, that may begin a row's label."""
    return _LONE_LABEL.match(line) is not None and not line.rstrip().endswith(":")


def _row_values(line: str) -> tuple[int, int] | None:
    """(column of the first value, values) of a row with a label and two values or more."""
    from transforms.handmade.cells import cells

    row = cells(line)
    k = next((n for n, c in enumerate(row) if c.kind != "label"), len(row))
    if k == 0 or len(row) - k < 2 or any(c.kind == "label" for c in row[k:]):
        return None
    return row[k].start, len(row) - k


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def join_lone_labels(lines: list[str]) -> list[str]:
    """Rows whose label begins on a line of its own, the rest of it and the values on the next
    (`workqueue` / `submit  94K  190K`, `direct` / `submit  128K ...`): the label's first part joins
    its row, which moves up to the label's line, and the row's own line becomes a rule line (every
    line keeps its number). Only for one row under each such label (a blank line or the next such
    label below it), at the label's indent, in a table: a row of as many values within four lines."""
    out = list(lines)
    n = len(lines)
    for k in range(n - 1):
        if not lone_label(lines[k]):
            continue
        row = lines[k + 1]
        found = _row_values(row) if row.strip() else None
        if found is None or _indent(row) != _indent(lines[k]):
            continue
        after = lines[k + 2] if k + 2 < n else ""
        if after.strip() and not (lone_label(after) and k + 3 < n and _row_values(lines[k + 3])):
            continue
        start, count = found
        near = [j for j in range(max(0, k - 4), min(n, k + 6)) if j not in (k, k + 1) and lines[j].strip()]
        if not any((v := _row_values(out[j])) is not None and v[1] == count for j in near):
            continue
        label = f"{lines[k].strip()} {row[:start].strip()}"
        pad = " " * _indent(row)
        joined = (pad + label).ljust(start) if len(pad + label) < start else pad + label + " "
        out[k], out[k + 1] = joined + row[start:], "-"
    return out

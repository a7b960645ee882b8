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

`rejoin` reads the same damage from the mailer's side, before any hand reader looks: a mailer
breaks a line longer than its width (60-80 columns) at the last blank that fits and puts the rest
at the margin, so a line starting at the margin whose first word would not have fitted on the
table row above it is that row's rest (values, the case named after them, the rest of a rule or
of the heads), however many cells it holds. A row broken inside a wide gap leaves no sign of the
width; such rows are joined when it happens row after row, and then set out again under their heads.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection

JOINED = "-"  # what a line joined to the one above it becomes: a rule line, so every line keeps its number
_GAP = re.compile(r"\S[ \t]{3,}\S")
_VALUE_START = re.compile(r"^[-+]?\d")
_CLOSES = re.compile(r"^[^\[\]()]*+[\])]")  # `-2.54]( 2.42)`: the rest of a cell broken inside its brackets
_MIN_ROW = 48  # a row the mailer broke was at least this long before its tail
_WRAP = 64  # the row and its tail together would not have fitted on one line
_MAX_TAIL = 32
_MIN_BROKEN = 3


# a value's change beside it: `(3.57 pct)`, `(-1.3%)`, padded inside by mmtests (`(   0.03%)`, `*   0.68%*`)
_PAREN_CHANGE = r"\([ \t]*+[-+]?\d[\d.]{0,12}+[ \t]*+(?:%|pct)\)"
_CHANGE_ASIDE = re.compile(_PAREN_CHANGE + r"|\*[ \t]*+[-+]?\d[\d.]{0,12}+%\*")


def _tail(lines: list[str], i: int) -> bool:
    if i == 0:
        return False
    tail, row = lines[i].strip(), lines[i - 1].rstrip()
    if not tail or len(tail) > _MAX_TAIL or len(tail.split()) > 4 or len(row) < _MIN_ROW:
        return False
    if len(row) + 1 + len(tail) <= _WRAP or _GAP.search(row) is None or _GAP.search(_CHANGE_ASIDE.sub("()", tail)):
        return False  # (the blanks inside a value's change, `(   0.03%)`, `*   0.68%*`, are no gap between cells)
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
        apart = _VALUE_START.match(tail) and not _CLOSES.match(tail)  # `1.03 [` / `-2.54]( 2.42)`: one cell
        out[i - 1] = out[i - 1].rstrip() + ("   " if apart else " ") + tail
        out[i] = JOINED
    return out


# ---------------------------------------------------------------- rows a mailer hard-wrapped

_NARROWEST = 60  # no mailer wraps narrower
_WIDEST = 80  # no mailer wraps wider
_NEARBY = 12  # lines either side where a broken phrase may stand whole
_NEAR = 20  # a broken row reaches within this many columns of the width
_TABLE_GAP = re.compile(r"\S {3,}\S|[^\s.?!:,;] {2}\S")  # a gap between cells, not two blanks after a sentence
_RULE_PIECE = re.compile(r"^[-=_+|: ]+$")
_RULE_CHARS = frozenset("-=_+|:")
_ASIDE = re.compile("^" + _PAREN_CHANGE)  # a row's rest that opens with a value's change
_HAS_VALUE = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?%?(?![\w.])")


def mailer_width(lines: list[str]) -> int | None:
    """The widest column a mailer can have hard-wrapped these lines at: their longest line of a
    mailer's width or less (a longer one it left whole: no blank to break at, or tabs it counted as
    one column), or None when no line reaches a mailer's width."""
    width = max((n for line in lines if (n := len(line.rstrip())) <= _WIDEST), default=0)
    return width if width >= _NARROWEST else None


def _overflow(lines: list[str], i: int, width: int) -> bool:
    """Line `i` is the rest of the table row above it, which the mailer broke at `width`: the rest's
    first word would not have fitted on the row, and it starts at the margin (the mailer drops the
    blank it breaks at); it is values, a row's label printed after its values, a rule's other part,
    or the other part of a line of heads."""
    row, rest = lines[i - 1].rstrip(), lines[i]
    if not rest or not row or not width // 2 <= len(row) <= width:
        return False
    indent = len(rest) - len(rest.lstrip(" "))
    if indent == len(rest) or rest[0] == "\t" or indent > 3 \
            or indent and not (_opens(row) and _CLOSES.match(rest)):
        return False  # an indented line, unless a cell broken inside its brackets (`33683.34 (` / ` -0.43%)`)
    rest = rest[indent:]
    words = rest.split(None, 1)
    if len(row) + 1 + indent + len(words[0]) <= width:
        return False
    last = row.rsplit(None, 1)[-1]
    label_after = len(words) == 1 and _HAS_VALUE.fullmatch(last) is not None
    if len(row) < width - _NEAR and not label_after:
        return False  # a row well short of the width was not broken, unless its label was too long to fit
    if (row.lstrip()[0] in _RULE_CHARS and _RULE_PIECE.match(row)) or (rest[0] in _RULE_CHARS and _RULE_PIECE.match(rest)):
        return _RULE_PIECE.match(row) is not None and _RULE_PIECE.match(rest) is not None  # a rule broken in two
    if "  " not in row.strip() or _TABLE_GAP.search(row.strip()) is None:
        return False
    if _opens(row) and _CLOSES.match(rest):
        return True  # a cell broken inside its brackets (`458.13 (1.24` / `pct)`), however much of the row follows
    if label_after:
        return True  # `54.39  +0.6%  54.73` / `3G-UKEY-HDD/xfs-10dd-4k`: the label after the values
    if len(rest.rstrip()) > len(row) - 8:
        return False  # as long as the row: the next row, not the rest of this one
    if _VALUE_START.match(rest) or rest[0] in "([" or (rest[0] == "|" and row.count("|") >= 2):
        return True  # values where a row's label would start; a pipe row's last cells (`| 204 |`)
    return not _HAS_VALUE.search(row) and not _HAS_VALUE.search(rest)  # a line of column heads broken in two


def _opens(row: str) -> bool:
    """The row's last word opens a bracket it does not close (`(`, `(1.24`, `[  5.41`)."""
    last = row.rsplit(None, 1)[-1] if row.strip() else ""
    return last.count("(") > last.count(")") or last.count("[") > last.count("]")


def _separator(row: str, rest: str, nearby: list[str]) -> str:
    """What the break replaced: one blank inside a cell (`1.03 [` / `-2.54]`, `ctx` / `swtch` when
    `ctx swtch` stands whole on a line nearby), else a gap between two cells."""
    last, first = row.split()[-1], rest.split()[0]
    if _CLOSES.match(rest) or first.startswith("(") and _HAS_VALUE.fullmatch(last) and _ASIDE.match(rest):
        return " "  # the rest of a cell, or a value's aside (`3.78` / `(3.57 pct)`)
    if any(f"{last} {first}" in x for x in nearby):
        return " "
    if _VALUE_START.match(first) or (len(first) >= 3 and _RULE_PIECE.match(first)) or first == last \
            or _HAS_VALUE.fullmatch(last):
        return "   "
    cell, head = row.split("  ")[-1].strip(), rest.split("  ")[0].strip()
    if len(cell) > 4 and cell[-4:] == head[-4:]:
        return "   "  # `eevdf[pct imp](CV)` / `eevdf-curb[pct imp](CV)`: two heads of one shape
    between = row.rstrip()[-len(last) - 2:-len(last)]
    return "   " if between == "  " else " "


def rejoin(lines: list[str], read: Collection[int] = ()) -> list[str]:
    """Table rows a mailer hard-wrapped (each row's rest on the next line, at the margin) joined
    again, the rest's line a rule line so that every line keeps its number. The width is the
    segment's (a mailer wraps a whole message at one); rows are joined in each paragraph with two
    broken rows or more. Paragraphs wholly in `read` (a parser's printout) are left as they are:
    no other reader looks at them."""
    width = mailer_width(lines) if len(lines) >= 3 else None
    if width is None:
        return lines
    out: list[str] = []
    start, changed = 0, False
    for k in range(len(lines) + 1):
        if k == len(lines) or not lines[k].strip():
            para = lines[start:k]
            joined = para if read and all(j in read for j in range(start, k)) else _rejoin_paragraph(para, width)
            changed = changed or joined is not para
            out += joined
            if k < len(lines):
                out.append(lines[k])
            start = k + 1
    return out if changed else lines


def _rejoin_paragraph(lines: list[str], width: int) -> list[str]:
    if len(lines) < 3:
        return lines  # (two rows broken, or a row and its rest three times, take more lines)
    # the paragraph's own longest line, when it reaches a mailer's width: the segment's can be a few
    # columns wider than the width its rows were broken at (mailers leave a line just over it whole)
    width = min(width, max(_NARROWEST, max(len(x.rstrip()) for x in lines)))
    rests = [i for i in range(1, len(lines)) if _overflow(lines, i, width)]
    if len(rests) < 2:
        rests = _alternating(lines)
    if len(rests) < 2:
        return lines
    if (top := _heads_rest(lines, rests[0] - 1)) is not None:
        rests = [top, *rests]
    out = list(lines)
    for i in rests:
        k = i - 1
        while out[k] == JOINED and k > 0:
            k -= 1  # a row broken twice: its second rest joins the row
        rest = out[i].strip()
        out[k] = out[k].rstrip() + _separator(out[k], rest, lines[max(0, i - _NEARBY):i + _NEARBY]) + rest
        out[i] = JOINED
    return _realigned(out)


def _heads_rest(lines: list[str], row: int) -> int | None:
    """The line right above the first broken row, when it is the rest of the heads above it (broken
    inside a wide gap, so no sign of the width): neither holds a value, the rest starts at the margin,
    and heads and rest together name as many columns as the row and its rest hold cells."""
    top = row - 1
    if not _under_heads(lines, top) or _HAS_VALUE.search(lines[top]) or _RULE_PIECE.match(lines[top]):
        return None  # (a rule under the heads is no rest of theirs)
    rest = lines[row + 1].strip()
    joined = lines[row].rstrip() + _separator(lines[row], rest, lines) + rest
    heads = _cell_count(lines[top - 1]) + _cell_count(lines[top])
    return top if heads == _cell_count(joined) else None


def _cell_count(line: str) -> int:
    """Cells a wide gap apart, a cell's brackets kept whole (`1.06 [  5.97]( 0.42)` is one cell,
    blanks inside its brackets and all)."""
    from transforms.handmade.cells import split_wide

    n, depth = 0, 0
    for cell in split_wide(line):
        if depth <= 0:
            n += 1
        depth += cell.text.count("[") + cell.text.count("(") - cell.text.count("]") - cell.text.count(")")
    return n


def _under_heads(lines: list[str], top: int) -> bool:
    """Line `top` starts at the margin under a line of heads (cells a wide gap apart, no value): it may
    be the heads' own rest, broken off them."""
    return top >= 1 and bool(lines[top][:1].strip()) and _TABLE_GAP.search(lines[top - 1].strip()) is not None \
        and not _HAS_VALUE.search(lines[top - 1])


_VALUE_FIRST = frozenset("0123456789+-.(")


def _first_is_value(line: str) -> bool:
    """The line's first word is a value (`22.35`, `-0.4%`) or opens one's aside (`(11.85`)."""
    first = line.split(None, 1)[0]
    return _HAS_VALUE.fullmatch(first) is not None or first.startswith("(")


def _alternating(lines: list[str]) -> list[int]:
    """Rows broken inside a wide gap (the blanks the break took leave no sign of the width): every
    row a label and cells, then its rest at the margin, values first, three times or more; joined,
    each has as many cells as the heads (whose own rest may follow them). The rests, or none."""
    if len(lines) < 6:
        return []
    rests = [i for i in range(1, len(lines))
             if lines[i][:1] in _VALUE_FIRST and _first_is_value(lines[i]) and lines[i - 1].strip()
             and not _first_is_value(lines[i - 1]) and _TABLE_GAP.search(lines[i - 1].strip())]
    if len(rests) < 3:
        return []
    top = rests[0] - 2  # the heads, right above the first row
    if top < 0 or not lines[top].strip() or _HAS_VALUE.search(lines[top]):
        return []
    heads = _cell_count(lines[top])
    if _under_heads(lines, top):
        heads += _cell_count(lines[top - 1])  # the heads' own rest under them
        rests = [top, *rests]
    widths = {heads, heads - 1}  # (a head's last cell may be broken in two: `base` / `+ aaron-tg`)
    for i in (i for i in rests if i != top):
        if _cell_count(lines[i - 1]) + _cell_count(lines[i]) not in widths:
            return []
    return rests


def _realigned(lines: list[str]) -> list[str]:
    """The rows of a paragraph joined again, set out in common columns: a break lost the blanks
    before the rest, so a joined row's later cells stand off their heads. When the first line of the
    most common number of cells (three or more, on three lines or more) holds no value (the heads),
    every line of that many cells is written again, cell after cell, each column as wide as its
    widest cell."""
    from transforms.handmade.cells import split_wide

    rows = {k: [c.text for c in split_wide(x)] for k, x in enumerate(lines)
            if x.strip() and x != JOINED and not _RULE_PIECE.match(x)}
    counts = Counter(len(v) for v in rows.values())
    if not counts:
        return lines
    n, often = counts.most_common(1)[0]
    first = min(k for k, v in rows.items() if len(v) == n) if often else 0
    if n < 3 or often < 3 or _HAS_VALUE.search(lines[first]):
        return lines  # (the first line of that many cells are the heads, one over each column)
    widths = [max(len(v[i]) for v in rows.values() if len(v) == n) for i in range(n)]
    out = list(lines)
    for k, cells in rows.items():
        if len(cells) == n:
            out[k] = "   ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()
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
        out[k], out[k + 1] = joined + row[start:], JOINED
    return out

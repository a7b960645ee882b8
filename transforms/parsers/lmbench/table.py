"""lmbench summary tables: one table read off its title, header and ruler, row by row (a
collapsed row short of values keeps them pending; gaps.py places them)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from transforms.model import EXACT, INFERRED

from .columns import (
    _BANNER,
    _KIND,
    _NOISE,
    _RULER,
    _T,
    _TITLE,
    _best_span,
    _catalog_labels,
    _cell_value,
    _header_aligned,
    _hib_of,
    _is_cell,
    _label_parts,
    _role,
    _spans,
    _tokens,
    _unit_of,
)


@dataclass(slots=True)
class _Col:
    label: str  # header words joined, as printed
    role: str  # metric | attr | text | skip
    key: str  # metric name or attribute key


@dataclass(slots=True)
class _Row:
    system: str
    line: int
    host: str = ""  # the Host cell alone (tables without an OS column are matched by it)
    occ: int = 0
    cells: dict[int, str] = field(default_factory=dict)  # column index -> token (placed)
    texts: dict[int, str] = field(default_factory=dict)
    pending: list[str] | None = None  # collapsed short row: tokens still to place
    alignment: str = EXACT
    problem: str | None = None  # a row-like line that cannot be read (kept as a note)


@dataclass(slots=True)
class _Table:
    kind: str
    title: str
    unit: str | None
    hib: bool | None
    line: int
    cols: list[_Col] = field(default_factory=list)
    rows: list[_Row] = field(default_factory=list)
    end: int = 0
    notes: list[str] = field(default_factory=list)  # (applies to every run of the table)
    row_notes: dict[int, list[str]] = field(default_factory=dict)  # row index -> notes
    unreadable: list[tuple[int, str]] = field(default_factory=list)  # (line, why): unparsed runs
    error: str | None = None
    nid: int = 2  # leading identity spans: Host and OS, or Host alone ("OS Description" shared)


# ------------------------------------------------------------------ reading a table


_RULER_TAIL = re.compile(r"^-{2,}+(?:[ \t]++-{2,}+){0,3}[ \t]*+$")


def _open_table(lines: list[str], i: int, m: re.Match[str], known: set[str]) -> _Table:
    """The table whose title is on line `i`: columns from header and ruler, then its rows.

    `known` are the systems of the block's earlier tables (a row after a blank line must be one).
    """
    title = m.group("title")
    rest = m.group("rest")
    kind = "ops" if m.group("op") else _KIND[title]
    op = m.group("op")
    t = _Table(kind, " ".join(lines[i].split()), _unit_of(rest), _hib_of(rest), i)
    host = next(
        (j for j in range(i + 1, min(i + 8, len(lines))) if lines[j].split()[:1] == ["Host"]), None
    )
    if host is None:  # a title-like line of prose, not a table
        t.end = i + 1
        return t
    ruler = next(
        (j for j in range(host + 1, min(host + 6, len(lines))) if _RULER.match(lines[j])), None
    )
    if ruler is None:
        t.error, t.end = f"{t.title!r}: no dash ruler under the header", host + 1
        return t
    header, spans = lines[host:ruler], _spans(lines[ruler])
    t.end = ruler + 1
    if t.end < len(lines) and _RULER_TAIL.match(lines[t.end]):  # the ruler's last groups, wrapped by a mailer
        width = len(lines[ruler].rstrip()) + 1
        spans += [(width + s, width + e) for s, e in _spans(lines[t.end])]
        t.end += 1
    spans = _split_merged(header, spans)
    aligned = _header_aligned(header, spans)
    cols = _columns(kind, op, header, spans, aligned)
    if cols is None:
        t.error = f"{t.title!r}: header not recognised ({' '.join(' '.join(header).split())!r})"
        return t
    t.nid, t.cols = len(spans) - len(cols), cols
    for col in cols:
        if col.role == "skip":
            t.notes.append(f"{t.title}: unknown column {col.label!r} not read")
    _read_rows(lines, t, spans, aligned, known)
    return t


def _split_merged(header: list[str], spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A ruler group under two headed columns (`--------------` under `16p/16K 16p/64K` and
    `ctxsw ctxsw`: its blank between them lost) split in two at the gap between the heads."""
    toks = [_tokens(line) for line in header]
    out: list[tuple[int, int]] = []
    for k, (s, e) in enumerate(spans):
        inside = [[t for t in line if s <= t[0] < e] for line in toks]
        heads = [t for t in inside if t]
        if k >= 2 and len(heads) >= 2 and all(len(t) == 2 for t in heads):
            left, right = max(t[0][1] for t in heads), min(t[1][0] for t in heads)
            if left <= right:
                out += [(s, left), (right, e)]
                continue
        out.append((s, e))
    return out


def _columns(
    kind: str, op: str | None, header: list[str], spans: list[tuple[int, int]], aligned: bool
) -> list[_Col] | None:
    """The value columns (every span after Host and OS), or None when the header cannot be read.

    A catalogued header gives the labels; a ruler with one span fewer than the catalogue
    has OS sharing its span with the text column after it ("OS Description"). Otherwise an
    intact header is read by its ruler spans (labels as printed), and a collapsed one is
    matched to the catalogue allowing cut-short words, or else its lines paired word by word.
    """
    n = len(spans)

    def col(label: str) -> _Col:
        return _Col(label, *_role(kind, op, label))

    def catalogued(cut_short: bool) -> list[_Col] | None:
        labels = _catalog_labels(header, cut_short)
        if labels is not None and (
            len(labels) == n - 2 or (len(labels) == n - 1 and col(labels[0]).role == _T)
        ):
            return [col(lb) for lb in labels]
        return None

    if (cols := catalogued(False)) is not None:
        return cols
    if not aligned:
        if (cols := catalogued(True)) is not None:
            return cols
        labels = _pair_labels(header, n - 2)
        return [col(lb) for lb in labels] if labels and all(labels) else None
    parts = _label_parts(header, spans)
    nid = 2
    first = parts[1][0].split()
    if len(first) > 1 and first[0] == "OS":  # "OS Description": one span, the description's
        nid, parts[1][0] = 1, " ".join(first[1:])
    cols = []
    for k in range(nid, n):
        c = col(" ".join(p for p in parts[k] if p))
        if c.role == "skip" and len(header) > 1 and not parts[k][0]:
            # under a heading that spans several columns ("0K File" over Create and Delete):
            # the heading is printed over the first of them only
            left = next((parts[j][0] for j in range(k - 1, nid - 1, -1) if parts[j][0]), "")
            grouped = col(" ".join(p for p in [left, *parts[k][1:]] if p))
            if left and grouped.role != "skip":
                c = grouped
        cols.append(c)
    return cols if all(c.label for c in cols) else None


def _pair_labels(header: list[str], n: int) -> list[str] | None:
    """Collapsed header without a catalogue entry: lines with one word per column pair up."""
    words = [line.split() for line in header]
    if not words or words[0][:2] != ["Host", "OS"]:
        return None
    words[0] = words[0][2:]
    words = [w for w in words if w]
    if not words or any(len(w) != n for w in words):
        return None
    return [" ".join(col) for col in zip(*words, strict=True)]


def _same_os(line: str, rows: list[str]) -> bool:
    """A row of another host under a blank line that runs the same OS as the rows above it
    (`stp1-003.  Linux 2.4.18 ...` after the `stp2-...` rows): the next group of one table."""
    words = line.split()
    return len(words) > 3 and any(r.split()[1:2] == words[1:2] and len(r.split()) == len(words) for r in rows)


def _same_columns(row: _Row, rows: list[_Row]) -> bool:
    """A row under a blank line that fills, by position, the very columns the row above it filled
    (`2*HT*P4  w/o anobjrmap ...` after the `2*HT*P4 with anobjrmap` group; the host cells typed by
    hand): the next group of one table."""
    return bool(rows) and row.alignment == EXACT and rows[-1].alignment == EXACT and not row.problem \
        and len(row.cells) >= 3 and row.cells.keys() == rows[-1].cells.keys()


def _read_rows(
    lines: list[str], t: _Table, spans: list[tuple[int, int]], aligned: bool, known: set[str]
) -> None:
    """Data rows under the ruler, up to the next title, prose, or a blank line not followed by a known host."""
    i, seen_blank = t.end, False
    counts: dict[str, int] = {}
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            seen_blank, i = True, i + 1
            continue
        if _TITLE.match(line) or _BANNER.search(line) or _RULER.match(line):
            break
        if _NOISE.match(line):
            i += 1
            continue
        row, used = _parse_row(lines, i, t, spans, aligned)
        if row is None or (seen_blank and row.system not in counts and row.system not in known
                           and not _same_os(line, [lines[r.line] for r in t.rows])
                           and not _same_columns(row, t.rows)):
            break
        row.occ = counts.get(row.system, 0)
        counts[row.system] = row.occ + 1
        if row.problem:
            t.unreadable.append((i, f"{t.title}: {row.problem}"))
        else:
            t.rows.append(row)
        seen_blank, i = False, i + used
        t.end = i


def _parse_row(
    lines: list[str], i: int, t: _Table, spans: list[tuple[int, int]], aligned: bool
) -> tuple[_Row | None, int]:
    """One data row and the number of lines it takes (2 when the mailer wrapped it); None: not a row."""
    line = lines[i]
    nxt = lines[i + 1] if i + 1 < len(lines) else ""
    wrapped = bool(nxt.strip()) and all(_is_cell(w) for w in nxt.split()) and not _TITLE.match(nxt)
    if aligned and not wrapped:
        row = _row_by_position(line, i, t, spans)
        if row is not None:
            return row, 1
    row = _row_by_order(line, i, t)
    if row is not None and wrapped and row.pending is not None:
        joined = _row_by_order(line + " " + nxt, i, t)
        if joined is not None:
            return joined, 2
    return row, 1


def _row_by_position(line: str, i: int, t: _Table, spans: list[tuple[int, int]]) -> _Row | None:
    """Whitespace intact: each token goes to the dash span it overlaps most; None if that fails."""
    toks = _tokens(line)
    if not toks or toks[0][0] > spans[0][1]:
        return None
    system: list[str] = []
    host: list[str] = []
    row = _Row("", i)
    texts: dict[int, list[str]] = {}
    for s, e, w in toks:
        k = _best_span(s, e, spans)
        if k is None:
            if s < spans[-1][1]:
                return None
            k = len(spans) - 1  # beyond the ruler: guesses text, or an annotation
            if t.cols[-1].role != _T:
                if _is_cell(w):
                    return None
                continue
        if k < t.nid:
            system.append(w)
            if k == 0:
                host.append(w)
            continue
        col = k - t.nid
        if t.cols[col].role == _T:
            texts.setdefault(col, []).append(w)
        elif col in row.cells or not _is_cell(w):
            return None
        else:
            row.cells[col] = w
    if not system or not any(_cell_value(v) is not None for v in row.cells.values()):
        return None
    row.system, row.host = " ".join(system), " ".join(host)
    row.texts = {k: " ".join(v) for k, v in texts.items()}
    return row


def _row_by_order(line: str, i: int, t: _Table) -> _Row | None:
    """Collapsed row: host, sysname, release (or the host alone), then the cells in order."""
    toks = line.split()
    ident = 3 if t.nid == 2 else 1
    if len(toks) < ident + 1 or _is_cell(toks[0]) or (ident > 1 and _is_cell(toks[1])):
        return None
    row = _Row(" ".join(toks[:ident]), i, host=toks[0])
    rest = toks[ident:]
    cols = t.cols
    if cols and cols[0].role == _T and rest and not _is_cell(rest[0]):
        row.texts[0] = rest[0]
        rest = rest[1:]
    cells: list[str] = []
    for k, w in enumerate(rest):
        if not _is_cell(w):
            tail = rest[k:]
            if cols and cols[-1].role == _T:
                row.texts[len(cols) - 1] = " ".join(tail)
            elif w[0].isalnum():
                return None
            break
        cells.append(w)
    numeric = [k for k, c in enumerate(cols) if c.role != _T]
    if not any(_cell_value(c) is not None for c in cells):
        return None
    if len(cells) > len(numeric):
        row.problem = (
            f"row {row.system!r} has {len(cells)} values for {len(numeric)} columns; not read"
        )
    elif len(cells) == len(numeric):
        row.cells = dict(zip(numeric, cells, strict=True))
    else:
        row.pending = cells
        row.alignment = INFERRED
    return row

"""bonnie++ text tables: one run per machine row, with its file-creation row and its Latency
rows attached.

Cells are fixed width and a blank cell means "test not run", so rows with blanks are read by
column position; `+++++` / `+++` mean "too fast to measure" (no value, noted on the run).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from transforms.model import EXACT, INFERRED

from .common import (
    _CPU_TOK,
    _FILE_LABELS,
    _FILE_TESTS,
    _FILES_TOK,
    _IO_LABELS_PP,
    _IO_TESTS,
    _LATENCY,
    _PP_SPLIT_OFF,
    _RATE_TOK,
    _SIZE_TOK,
    NOT_RUN,
    UNREADABLE,
    _caption_above,
    _Cell,
    _cell,
    _cells_fit,
    _command_attributes,
    _Draft,
    _files_params,
    _size_params,
)
from .csv import _csv_start

# --------------------------------------------------------------------------- bonnie++ text tables

_HDR_WORD = re.compile(
    r"(?<!\S)(?:-*(?:Sequential|Output|Input|Random|Per|Chr|Block|Rewrite|Seeks|Create|Read|Delete)-*"
    r"|K/sec|/sec|%CP|Machine|Size:chnk|Name:Size|Size|etc|files(?::max(?::min)?)?)(?!\S)"
)
_HDR_STRONG = re.compile(r"Sequential (?:Output|Create)|-Per Chr-|K/sec %CP\b|/sec %CP\b|^\s*files\b")
_HDR_IO = re.compile(r"Sequential Output|Sequential Input|Per Chr|Seeks|Rewrite|Machine|Size")
_HDR_CREATE = re.compile(r"Sequential Create|Random Create|-Create-|-Delete-|files")


# A row's name is its words up to the first one that is a size (or file count) spec; a lazy
# `\S.*?` before `\s+` tried every blank run from every character.
_IO_SPEC = r"\d+[MG](?::\d+[kKmM]?)?(?= |$)"
_CREATE_SPEC = r"\d+(?::(?:\d+|link|symlink)(?::\d+)?)?(?:/\d+)?(?= |$)"
_IO_PREFIX = re.compile(rf"\s*+(?P<name>\S++(?:\s++(?!{_IO_SPEC})\S++)*+)\s++(?P<spec>{_IO_SPEC})")
_CREATE_PREFIX = re.compile(
    rf"\s*+(?:(?P<name>\S++(?:\s++(?!{_CREATE_SPEC})\S++)*+)\s++)??(?P<spec>{_CREATE_SPEC})"
)
_PREFIX_WIDTH = 19
_ROW_WIDTHS = (6, 4) * 6  # " %5d" rate, " %3d" CPU
_LATENCY_WIDTHS = (10,) * 6  # " %9s"


@dataclass(slots=True)
class _Header:
    section: str | None
    strong: bool
    version: str | None = None
    concurrency: str | None = None
    suffix: bool = False
    name: str | None = None


def _pp_header(line: str) -> _Header | None:
    """A bonnie++ header line (or a wrapped piece of one), or None."""
    s = line.strip()
    version = concurrency = None
    if m := re.match(r"Version\s+(\d+\.\d+[\w.]*)\s*", s):
        version, s = m.group(1), s[m.end():]
    if m := re.match(r"Concurrency\s+(\d+)\s*", s):
        concurrency, s = m.group(1), s[m.end():]
    words = _HDR_WORD.findall(s)
    rest = _HDR_WORD.sub(" ", s).split()
    if not words and version is None and concurrency is None:
        return None
    name = None
    if rest:
        if len(rest) == 1 and "-Create--" in s and s.startswith(rest[0]):
            name = rest[0]  # 1.9x prints the machine above the create columns
        else:
            return None
    section = "io" if _HDR_IO.search(line) else "create" if _HDR_CREATE.search(line) else None
    # 2.0x heads the rate columns "/sec" (not "K/sec") and prints 540k / 728m / 1.1g in them
    suffix = "Name:Size" in line
    return _Header(section, bool(_HDR_STRONG.search(line)) or version is not None and bool(words),
                   version, concurrency, suffix, name)


def _cursor_fields(line: str, pos: int, widths: tuple[int, ...], *,
                   head: bool = False) -> list[str | None] | None:
    """Fixed-width cells printed as ' ' + right-aligned value; blank cell = all spaces.

    A value wider than its cell pushes the rest right (bonnie++ overflows), so the cursor
    follows each value's end. Returns None when the text is not column-aligned (collapsed).
    head=True: `line` is the head of a row the mailer wrapped; only the cells that start
    before its end are returned (the others, blank or not, went to the next line).
    """
    out: list[str | None] = []
    for w in widths:
        if head and pos >= len(line):
            break
        window = line[pos : pos + w]
        if not window.strip():
            out.append(None)
            pos += w
            continue
        if window[0] != " ":
            return None
        k = pos + len(window) - len(window.lstrip())
        end = k
        while end < len(line) and line[end] != " ":
            end += 1
        tok = line[k:end]
        if end != pos + w and len(tok) < w - 1:
            return None  # not right-aligned to its column: spacing was lost
        out.append(tok)
        pos = end
    return out if not line[pos:].strip() else None


@dataclass(slots=True)
class _Row:
    name: str | None
    spec: str | None
    cells: list[str | None] | None  # None: row-shaped but the cells cannot be placed


def _is_cell(tok: str) -> bool:
    return bool(_RATE_TOK.fullmatch(tok) or _CPU_TOK.fullmatch(tok))


def _is_latency(tok: str) -> bool:
    return bool(_LATENCY.fullmatch(tok))


# a machine name's last token with the size glued on: after a non-alphanumeric character, or
# three or more digits after a letter (`disk)15744M`, `storage2048M`; not `node4G`, a name)
_GLUED_SIZE = re.compile(r"(?P<tail>\S{0,60}?(?:[^\w\s]|[A-Za-z](?=\d{3})))(?P<spec>\d{1,9}[MG])")


def _pp_row(line: str, section: str, columns: bool, tail: list[str] | None = None) -> _Row | None:
    """Parse an IO or create row: all 12 cells by order, else (blank cells) by column.

    `tail`: the tokens of the row's last cells, which the mailer wrapped onto the following
    line(s). Their columns are lost, so they are placed only when they are exactly the cells
    that start past the end of `line` (none of those was blank); otherwise the row is
    row-shaped but its cells cannot be placed (cells None).
    """
    spec_ok = (_SIZE_TOK if section == "io" else _FILES_TOK).fullmatch
    toks = line.split() + (tail or [])
    if len(toks) >= 12 and _cells_fit(list(toks[-12:])):
        prefix = toks[:-12]
        if not prefix and section == "io":  # a create row always prints its files column
            return _Row(None, None, list(toks[-12:]))
        if prefix and spec_ok(prefix[-1]):
            return _Row(" ".join(prefix[:-1]) or None, prefix[-1], list(toks[-12:]))
        if section == "io" and prefix and (glued := _GLUED_SIZE.fullmatch(prefix[-1])) is not None:
            # `Raid0 (8 disk)15744M`: a name longer than its column runs into the size
            return _Row(" ".join([*prefix[:-1], glued.group("tail")]), glued.group("spec"), list(toks[-12:]))
        if section == "io" and not any(spec_ok(t) for t in prefix):
            return _Row(" ".join(prefix), None, list(toks[-12:]))  # size column missing
    m = (_IO_PREFIX if section == "io" else _CREATE_PREFIX).match(line)
    rest = line[m.end() :].split() if m else []
    if m is None or not (rest or tail) or not all(map(_is_cell, rest)):
        return None  # not "name size" / "files" followed by cells only
    # bonnie++ pads "name size" / the files column to 19 characters; anything else has lost its
    # spacing, and blank cells can then no longer be told apart
    aligned = columns and m.end() == _PREFIX_WIDTH
    cells = _cursor_fields(line, m.end(), _ROW_WIDTHS, head=bool(tail)) if aligned else None
    if cells is not None and tail:
        cells = cells + tail if len(cells) + len(tail) == len(_ROW_WIDTHS) else None
    if cells is not None and not _cells_fit(cells):
        cells = None
    return _Row(m.group("name"), m.group("spec"), cells)


def _row_room(line: str, section: str) -> int:
    """How many cell tokens the mailer may have wrapped off a row head (0: the row is whole)."""
    toks = line.split()
    if len(toks) >= 12 and _cells_fit(toks[-12:]) and (section == "io" or len(toks) > 12):
        return 0
    if section == "io" and all(map(_is_cell, toks)):  # no name and size: `-x` rows under the first
        return 12 - len(toks)
    m = (_IO_PREFIX if section == "io" else _CREATE_PREFIX).match(line)
    if m is None:  # no size column (hand-made tables): the cells after the name, by order only
        k = next((k for k, t in enumerate(toks) if _is_cell(t)), len(toks))
        return 12 - len(toks[k:]) if k and toks[k:] and all(map(_is_cell, toks[k:])) else 0
    cells = line[m.end() :].split()
    if not cells or not all(map(_is_cell, cells)):
        return 0
    placed = _cursor_fields(line, m.end(), _ROW_WIDTHS, head=True) if m.end() == _PREFIX_WIDTH else None
    return 12 - len(placed) if placed is not None else 12 - len(cells)


def _tail_lines(lines: list[str], j: int, room: int,
                tok_ok: Callable[[str], bool]) -> tuple[list[str], int]:
    """Lines from `j` made only of cell tokens, at most `room` of them: a wrapped row's rest.

    Returns (tokens, lines used). The mailer adds no quote or diff marker to the pieces."""
    toks: list[str] = []
    used = 0
    while room > len(toks) and j + used < len(lines):
        more = lines[j + used].split()
        if not more or len(toks) + len(more) > room or not all(map(tok_ok, more)):
            break
        toks += more
        used += 1
    return toks, used


@dataclass(slots=True)
class _Block:
    """One bonnie++ table (IO section, create section, Latency rows) being read."""

    start: int
    version: str | None = None
    concurrency: str | None = None
    suffix: bool = False
    marker_mode: bool = False
    section: str | None = None
    create_name: str | None = None
    io_runs: list[_Draft] = field(default_factory=list)
    creates: int = 0
    last: tuple[_Draft, str] | None = None
    attributes: dict[str, str] = field(default_factory=dict)
    caption: str | None = None
    own_header: bool = False  # a header line only bonnie++ prints (not a Bonnie 1.x group header)


_COLUMN = re.compile(r"/sec\s+%CP\b")
_PP_ONLY = re.compile(r"^\s*(?:Version|Concurrency)\b|%CP\b|-Per Chr-|Create")
_PP_CHATTER = re.compile(r"\s*+(?:\.\.\.|```.*+|.*\.\.\.done\.?|start 'em.*+|Using uid:.*+)\s*")


def _new_block(lines: list[str], raw: str, i: int) -> _Block:
    """A table starts; the command line and caption above it (past progress chatter) go with it."""
    block = _Block(start=i, marker_mode=bool(re.match(r" (?:Version|Machine)\b", raw)))
    k = i - 1
    while k >= 0 and i - k <= 20 and (not lines[k].strip() or _PP_CHATTER.fullmatch(lines[k])):
        k -= 1
    if k >= 0 and (attrs := _command_attributes(lines[k])) is not None:
        block.attributes = attrs
        k -= 1
    block.caption = _caption_above(lines, k + 1)
    return block


def _apply_header(lines: list[str], block: _Block | None, hdr: _Header, raw: str, i: int) -> _Block:
    if block is None or (hdr.section == "io" and (block.creates or (hdr.version and block.io_runs))):
        block = _new_block(lines, raw, i)
    block.section = hdr.section or block.section
    block.version = hdr.version or block.version
    block.concurrency = hdr.concurrency or block.concurrency
    block.suffix = block.suffix or hdr.suffix
    block.create_name = hdr.name or block.create_name
    block.own_header = block.own_header or bool(_PP_ONLY.search(raw))
    return block


def _row_cells(tests: tuple[str, ...], labels: tuple[str, ...], toks: list[str | None], line: int,
               suffix_style: bool) -> list[_Cell]:
    """Cells of one row. In 2.0x text (suffix_style) rates carry k/m/g; a plain number is only
    trusted for seeks (the CSV shows create/stat/delete printed as 0 where it has 793)."""
    cells = []
    for k, test in enumerate(tests):
        kind = "rate" if test in _IO_TESTS[:5] else "count"
        unit_label = "K/sec" if kind == "rate" else "/sec"
        plain_ok = not suffix_style or test == "random_seeks"
        cells.append(_cell(test, f"{labels[k]} {unit_label}", toks[2 * k], kind, line,
                           plain_ok=plain_ok))
        cells.append(_cell(f"{test}_cpu", f"{labels[k]} %CP", toks[2 * k + 1], "cpu", line))
    return cells


def _latency_room(line: str) -> int:
    """How many Latency cells the mailer may have wrapped off this line (0: it is whole)."""
    at = line.index("Latency")
    toks = line[at + 7 :].split()
    if len(toks) >= 6 or not all(map(_is_latency, toks)):
        return 0
    placed = None
    if not line[at + 7 : at + 17].strip():
        placed = _cursor_fields(line, at + 17, _LATENCY_WIDTHS, head=True)
    return 6 - len(placed) if placed is not None else 6 - len(toks)


def _attach_latency(block: _Block, line: str, i: int, tail: list[str], end: int) -> None:
    """Latency cells of the row above; `tail`: cells the mailer wrapped onto the next line(s)."""
    if block.last is None:
        return
    d, section = block.last
    tests, labels = (_IO_TESTS, _IO_LABELS_PP) if section == "io" else (_FILE_TESTS, _FILE_LABELS)
    at = line.index("Latency")
    toks = line[at + 7 :].split() + tail
    alignment = EXACT
    fields: list[str | None] | None = None
    if len(toks) == 6:
        fields = list(toks)
    elif not line[at + 7 : at + 17].strip():
        fields = _cursor_fields(line, at + 17, _LATENCY_WIDTHS, head=bool(tail))
        if fields is not None and tail:  # the wrapped cells are those past the head's end
            fields = fields + tail if len(fields) + len(tail) == 6 else None
    if fields is None:  # spacing lost: the values belong to the tests that ran, in order
        ran = [k for k, t in enumerate(tests) if (c := d.cell(t)) is not None and c.status != NOT_RUN]
        if len(ran) == len(toks):
            fields = [None] * 6
            for k, tok in zip(ran, toks, strict=True):
                fields[k] = tok
            alignment = INFERRED
        else:
            d.reason = d.reason or f"bonnie++ Latency row not readable: {line.strip()!r}"
            return
    for k, test in enumerate(tests):
        if fields[k] is not None:
            c = _cell(f"{test}_latency", f"Latency {labels[k]}", fields[k], "latency", i)
            c.alignment = alignment
            d.cells.append(c)
    d.line_end = max(d.line_end, end)


def _parse_pp_text(lines: list[str]) -> list[_Draft]:
    drafts: list[_Draft] = []
    block: _Block | None = None
    blanks = 0
    i, n = 0, len(lines)
    while i < n:
        raw = lines[i]
        line, marker = raw, None
        if block is not None and block.marker_mode and raw[:1] in "+- " and raw.strip():
            marker, line = raw[0], raw[1:]
        if not line.strip():
            blanks += 1
            if blanks >= 2:
                block = None
            i += 1
            continue
        blanks = 0
        hdr = _pp_header(line)
        if hdr is not None and (block is not None or hdr.strong):
            block = _apply_header(lines, block, hdr, raw, i)
            i += 1
            continue
        if block is None or _csv_start(line) is not None:
            i += 1
            continue
        if line.lstrip().startswith("Latency"):
            tail, more = _tail_lines(lines, i + 1, _latency_room(line), _is_latency)
            _attach_latency(block, line, i, tail, i + 1 + more)
            i += 1 + more
            continue
        used = _pp_table_row(block, lines, i, line, marker, drafts)
        if used == 0:
            block = None
            used = 1
        i += used
    last = next((line for line in reversed(lines) if line.strip()), "")
    if block is not None and block.last is None and block.own_header and len(_COLUMN.findall(last)) >= 3:
        # the segment ends under the column header, where the rows would start: see _SPLIT_OFF
        drafts.append(_Draft(line_start=block.start, line_end=n, reason=_PP_SPLIT_OFF))
    return drafts


def _pp_table_row(block: _Block, lines: list[str], i: int, line: str, marker: str | None,
                  drafts: list[_Draft]) -> int:
    """Read one IO/create row (joining a line the mailer wrapped); returns lines used (0: none)."""
    section = block.section or "io"
    # the mailer may have wrapped the row: its last cells are on the next line(s), never read
    # as a row of their own, and never taken for blank cells of the head
    room = _row_room(line, section)
    tail, more = _tail_lines(lines, i + 1, room, _is_cell)
    row, used = _pp_row(line, section, columns=True, tail=tail or None), 1 + more
    if row is None:
        return 0
    end = i + used
    if section == "io":
        d = _pp_io_draft(block, row, i, end)
    else:
        d = _pp_create_draft(block, row, i, end, drafts)
    if room and i + 1 == len(lines):
        # The segment ends with this row: in a quoted post, its last cells may be blank or may
        # have been wrapped out of the quote, into the next segment. Unknown either way.
        tests = _IO_TESTS if section == "io" else _FILE_TESTS
        cut = {f"{tests[k // 2]}{'_cpu' if k % 2 else ''}" for k in range(12 - room, 12)}
        for c in d.cells:
            if c.line == i and c.metric in cut and c.status == NOT_RUN:
                c.status = UNREADABLE
                c.raw = "(past the end of its quote segment)"
    if marker in ("+", "-"):
        d.attributes["diff_marker"] = marker
    if not d.listed:
        d.listed = True
        drafts.append(d)
    return used


def _pp_io_draft(block: _Block, row: _Row, i: int, end: int) -> _Draft:
    prev = block.io_runs[-1] if block.io_runs else None
    d = _Draft(line_start=block.start, line_end=end, system=row.name, tool_version=block.version,
               attributes=dict(block.attributes), caption=block.caption)
    if row.name is None and row.spec is None and prev is not None:
        d.system, d.io_params = prev.system, dict(prev.io_params)  # -x rows under the first
    else:
        d.io_params = _size_params(row.spec)
    if block.concurrency and int(block.concurrency) > 1:
        d.io_params["concurrency"] = block.concurrency
        d.attributes["concurrency"] = block.concurrency
    if row.cells is None:
        d.reason = "bonnie++ row with blank cells whose column positions were lost"
    else:
        d.cells = _row_cells(_IO_TESTS, _IO_LABELS_PP, row.cells, i, block.suffix)
    block.io_runs.append(d)
    block.last = (d, "io")
    return d


def _pp_create_draft(block: _Block, row: _Row, i: int, end: int, drafts: list[_Draft]) -> _Draft:
    k = block.creates
    block.creates += 1
    d = block.io_runs[k] if k < len(block.io_runs) else None
    if d is not None and row.name and row.name != d.system:
        d = None
    if d is None:
        d = _Draft(line_start=block.start, line_end=end, system=row.name or block.create_name,
                   tool_version=block.version, attributes=dict(block.attributes),
                   caption=block.caption)
    d.file_params = _files_params(row.spec or "")
    d.line_end = max(d.line_end, end)
    if row.cells is None:  # which value is which is unknown: the run is not completely readable
        d.reason = "bonnie++ file-creation row with blank cells whose column positions were lost"
    else:
        d.cells.extend(_row_cells(_FILE_TESTS, _FILE_LABELS, row.cells, i, block.suffix))
    block.last = (d, "create")
    return d

"""bonnie++ CSV lines (1.0x without a version field, 1.93-1.97 and 1.98/2.0x with one).

A CSV line that is the twin of a text row of the same post (same machine, same values) is
merged into that run (the CSV values are exact where 2.0x text prints `728m`); otherwise it is a
run of its own. A 1.0x line (`name,4G,...`) is only looked for in a segment that also holds
Bonnie text: alone it is too much like any other CSV.
"""

from __future__ import annotations

import bisect
import re

from .common import (
    _CPU_TOK,
    _FILE_LABELS,
    _FILE_TESTS,
    _FILES_TOK,
    _IO_LABELS_PP,
    _IO_TESTS,
    _LATENCY,
    CUT,
    OK,
    UNREADABLE,
    _cell,
    _cells_fit,
    _Draft,
    _files_params,
    _size_params,
    _version_at_least,
)

# --------------------------------------------------------------------------- bonnie++ CSV

_CSV_VERSIONED = re.compile(r"\s*(?P<fmt>1\.9\d[a-z]?|[2-9]\.\d+[a-z]?),(?P<ver>\d++\.\d++[\w.]*+),\S*")
_CSV_V1 = re.compile(r"\s*[^,\s]+,\d+[MG](?::\d+k?)?,[\d+,]\S*")
_CSV_V1_COLON = re.compile(r"\s*[^,\s:]+:\d+[MG](?::\d+k?)?,[\d+,]\S*")
_CSV_CHARS = re.compile(r"[\w.+:/,-]+")
_IO_CSV = ("putc", "put_block", "rewrite", "getc", "get_block", "seeks")
_FILE_CSV = ("seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del")


def _csv_start(line: str) -> tuple[str, tuple[int, ...]] | None:
    """(layout, possible field counts) if the line starts a bonnie++ CSV record."""
    if m := _CSV_VERSIONED.fullmatch(line):
        return ("v198", (50,)) if _version_at_least(m.group("fmt"), 1, 98) else ("v197", (48,))
    if _CSV_V1_COLON.fullmatch(line):
        return "v1colon", (26,)
    if _CSV_V1.fullmatch(line):
        return "v1", (27,)
    return None


_WRAPPED_PIECE = 60  # a CSV piece this long may have been cut by the mailer (bench: at 72)


def _csv_last_ok(layout: str, tok: str) -> bool:
    """Is `tok` a whole last field (random delete latency in 1.9x, its %CPU in 1.0x)?"""
    return not tok or bool((_LATENCY if layout in ("v198", "v197") else _CPU_TOK).fullmatch(tok))


def _csv_piece(line: str) -> bool:
    """A line the mailer cut out of a long CSV line: CSV characters only, no blank."""
    s = line.strip()
    return bool(s) and bool(_CSV_CHARS.fullmatch(s))


def _parse_pp_csv(lines: list[str], continued: bool = False) -> list[_Draft]:
    """CSV records; `continued`: the segment opens with the rest of a CSV line quoted above it."""
    drafts: list[_Draft] = []
    i, n = 0, len(lines)
    while continued and i < n and _csv_piece(lines[i]):
        i += 1  # pieces of a record whose start is in another quote segment: not a record
    while i < n:
        start = _csv_start(lines[i])
        if start is None:
            i += 1
            continue
        layout, counts = start
        text, j = lines[i].strip(), i + 1
        while text.count(",") + 1 < max(counts) and j < n:  # a long line the mailer wrapped
            nxt = lines[j].strip()
            if not nxt and j + 1 < n and lines[j + 1].strip() and text.count(",") + 1 < min(counts):
                j += 1
                continue
            if not nxt or not _CSV_CHARS.fullmatch(nxt) or _csv_start(nxt) is not None:
                break
            text, j = text + nxt, j + 1
        if (text.endswith(",") and text.count(",") + 1 == max(counts) and j < n
                and len(lines[j - 1].strip()) >= _WRAPPED_PIECE and "," not in lines[j]
                and _csv_piece(lines[j]) and _csv_last_ok(layout, lines[j].strip())):
            text, j = text + lines[j].strip(), j + 1  # the mailer broke the line right after a comma
        fields = text.split(",")
        cut = False  # the last field may go on in the next line: which of the two is unknowable
        last_piece = lines[j - 1].strip()
        if (len(fields) == max(counts) and j < n and len(last_piece) >= _WRAPPED_PIECE
                and " " not in last_piece and _csv_piece(lines[j]) and "," not in lines[j]
                and _csv_start(lines[j]) is None):
            longer = fields[-1] + lines[j].strip()
            if _csv_last_ok(layout, longer) and not _csv_last_ok(layout, fields[-1]):
                fields[-1], j = longer, j + 1  # the mailer cut the last field
            elif _csv_last_ok(layout, longer):
                cut = True
        if len(fields) in counts:
            d = _csv_draft(fields, layout, i, j)
            if d is not None and cut and d.cells and d.cells[-1].raw == fields[-1]:
                c = d.cells[-1]
                c.status, c.value = CUT, None
                c.raw = f"'{fields[-1]}' or '{fields[-1]}{lines[j].strip()}'"
            if d is not None:
                drafts.append(d)
        elif layout in ("v198", "v197"):
            drafts.append(_Draft(line_start=i, line_end=j, reason=(
                f"bonnie++ CSV line has {len(fields)} fields, expected {' or '.join(map(str, counts))}")))
        i = j
    return drafts


def _csv_draft(f: list[str], layout: str, i: int, j: int) -> _Draft | None:
    d = _Draft(line_start=i, line_end=j)
    if layout in ("v1", "v1colon"):
        if layout == "v1colon":
            m = re.fullmatch(r"(.*?):(\d+[MG](?::\d+k?)?)", f[0])
            if m is None:
                return None
            f = [m.group(1), m.group(2), *f[1:]]
        name, size, io, files, fio, lat = f[0], f[1], f[2:14], f[14], f[15:27], None
        max_size = min_size = dirs = ""
        if not _cells_fit([x or None for x in io + fio]) or (files and not _FILES_TOK.fullmatch(files)):
            return None
    else:
        d.tool_version = f[1]
        d.attributes.update({"csv_format_version": f[0], "seed": f[4]})
        name, size, chunk = f[2], f[5], f[6]
        off = 9 if layout == "v198" else 7
        if layout == "v198":
            d.attributes.update({"seeks_count": f[7], "seek_proc_count": f[8]})
        io, files = f[off : off + 12], f[off + 12]
        max_size, min_size, dirs = f[off + 13], f[off + 14], f[off + 15]
        fio, lat = f[off + 17 : off + 29], f[off + 29 : off + 41]
        if f[3].isdigit() and int(f[3]) > 1:
            d.attributes["concurrency"] = f[3]
        if chunk:
            size = f"{size}:{chunk}"
    d.system = name or None
    d.io_params = _size_params(size)
    if "concurrency" in d.attributes:
        d.io_params["concurrency"] = d.attributes["concurrency"]
    if files:
        d.file_params = _files_params(files, max_size, min_size, dirs)
    # a CSV record prints no labels: each value is named as bonnie++'s own table names it, with
    # the CSV field after it (`Sequential Output Per Chr %CP (putc_cpu)`)
    for k, test in enumerate(_IO_TESTS):
        kind = "count" if test == "random_seeks" else "rate"
        name = _IO_LABELS_PP[k]
        d.cells.append(_cell(test, f"{name} ({_IO_CSV[k]})", io[2 * k] or None, kind, i))
        d.cells.append(_cell(f"{test}_cpu", f"{name} %CP ({_IO_CSV[k]}_cpu)", io[2 * k + 1] or None, "cpu", i))
    for k, test in enumerate(_FILE_TESTS):
        if files:
            name = _FILE_LABELS[k]
            d.cells.append(_cell(test, f"{name} ({_FILE_CSV[k]})", fio[2 * k] or None, "count", i))
            d.cells.append(_cell(f"{test}_cpu", f"{name} %CP ({_FILE_CSV[k]}_cpu)", fio[2 * k + 1] or None,
                                 "cpu", i))
    if lat is not None:
        for k, test in enumerate(_IO_TESTS + _FILE_TESTS):
            if lat[k]:
                name = (_IO_LABELS_PP + _FILE_LABELS)[k]
                d.cells.append(_cell(f"{test}_latency", f"Latency {name} ({(_IO_CSV + _FILE_CSV)[k]}_latency)",
                                     lat[k], "latency", i))
    if size and not d.io_params:
        return None
    return d


def _same_machine(text_name: str | None, csv_name: str | None) -> bool:
    """Text tables cut long machine names (`c6300-optimiz` for `c6300-optimized`); CSV does not."""
    if text_name == csv_name:
        return True
    return bool(text_name and csv_name) and len(text_name) >= 8 and csv_name.startswith(text_name)


def _consistent(text: _Draft, csv: _Draft) -> bool:
    """Do a text run and a CSV record print the same measurements (same machine, same cells)?"""
    if not _same_machine(text.system, csv.system):
        return False
    if text.reason:
        return True  # unreadable text row: its CSV twin is the readable form
    for t in text.cells:
        if t.status == UNREADABLE:
            continue
        c = csv.cell(t.metric)
        if c is None:
            if t.status == OK:
                return False
            continue
        if c.status == CUT:
            continue  # the text cell says which reading it was
        if t.status != c.status:
            return False
        if t.status == OK and abs((t.value or 0.0) - (c.value or 0.0)) > t.tol + 1e-6:
            return False
    return True


_MERGE_WINDOW = 200  # lines: a CSV record's text twin is printed close to it


def _merge(text_drafts: list[_Draft], csv_drafts: list[_Draft]) -> list[_Draft]:
    """Fold each CSV record into its text twin (nearest consistent run of the same machine)."""
    out = list(text_drafts)
    runs = sorted(text_drafts, key=lambda t: t.line_end)
    ends = [t.line_end for t in runs]
    for c in csv_drafts:
        t = None
        if not c.reason:
            lo = bisect.bisect_left(ends, c.line_start - _MERGE_WINDOW)
            hi = bisect.bisect_right(ends, c.line_end + _MERGE_WINDOW)
            near = sorted((t for t in runs[lo:hi] if not t.merged),
                          key=lambda t: abs(t.line_end - c.line_start))
            t = next((t for t in near if _consistent(t, c)), None)
        if t is None:
            out.append(c)
            continue
        t.merged = True
        t.reason = None
        t.system = c.system
        text_cells = {x.metric: x for x in t.cells if x.status == OK}
        t.cells = [text_cells.get(x.metric, x) if x.status == CUT else x for x in c.cells]
        for x in t.cells:  # the table's column names label the values, not the CSV field names
            if x.metric in text_cells:
                x.label = text_cells[x.metric].label
        t.io_params = {**t.io_params, **c.io_params}
        t.file_params = c.file_params or t.file_params
        t.tool_version = t.tool_version or c.tool_version
        t.attributes.update(c.attributes)
        t.attributes["csv_line"] = "merged"
        t.line_start, t.line_end = min(t.line_start, c.line_start), max(t.line_end, c.line_end)
    return out

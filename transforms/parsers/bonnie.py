"""Bonnie 1.x and bonnie++ (1.0x, 1.9x, 2.0x) output: text tables, progress lines, CSV lines.

One `Run` per measured configuration:

* Bonnie 1.x (Tim Bray's Bonnie and the 1.4 "nosync" variant): one run per table row. The
  `Writing with putc()... done: N kB/s P %CPU` progress lines printed by the same invocation
  describe the same measurements as the first row that follows them: they are used to split
  fields the table glued together (`93.1158724` is `%4.1f` CPU then `%6d` K/sec) and to
  cross-check, never emitted a second time (not even when a line came between them and the
  table: a first row printing their values is their table). Progress lines without a table
  make a run of their own (no seeks).
* bonnie++ text tables: one run per machine row, with its file-creation row and its Latency
  rows attached. Cells are fixed width and a blank cell means "test not run", so rows with
  blanks are read by column position; `+++++` / `+++` mean "too fast to measure" (no value,
  noted on the run).
* bonnie++ CSV lines (1.0x without a version field, 1.93-1.97 and 1.98/2.0x with one): a CSV
  line that is the twin of a text row of the same post (same machine, same values) is merged
  into that run (the CSV values are exact where 2.0x text prints `728m`); otherwise it is a
  run of its own. A 1.0x line (`name,4G,...`) is only looked for in a segment that also holds
  Bonnie text: alone it is too much like any other CSV.

Mail re-wrapped by a mailer (lines over ~72 columns broken at the last blank, the rest on a new
line without the quote prefix) is read as the tool printed it: a line made only of the cells a
row lost is joined back to that row (by column when the row's head keeps its columns, else only
when no cell can have been blank), never read as a row of its own; a CSV line is joined piece by
piece, and a last field the break may have cut is not read. A quoted row whose rest fell into the
unquoted text below keeps its seeks (the rest opens the next segment; see `_b1_tail_of_quote`).
What cannot be put together again is an `unparsed` run or a note, never a guess.

Units: rates K/sec (Bonnie's kB/s and 2.0x's k/m/g suffixes, which scale K/sec by 1024),
seeks and file operations /sec, CPU %CPU, latencies us (printed us/ms/s).

`params.repeat` numbers runs of this segment that would otherwise give identical rows (same
system and parameters): "1", "2", ... in order; a configuration measured once gets no
`repeat`. Numbering across segments of a message (a run quoted, then repeated) needs the
driver, which alone sees the whole message.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from transforms.model import EXACT, INFERRED, MetricSpec, Parser, Result, Run, Segment
from transforms.parsers._common import names_system, naming_caption

# --------------------------------------------------------------------------- metric registry

_IO_TESTS: tuple[str, ...] = (
    "seq_output_char",
    "seq_output_block",
    "seq_rewrite",
    "seq_input_char",
    "seq_input_block",
    "random_seeks",
)
_FILE_TESTS: tuple[str, ...] = (
    "seq_create",
    "seq_stat",
    "seq_delete",
    "random_create",
    "random_stat",
    "random_delete",
)
_IO_LABELS_B1 = (
    "Sequential Output Per Char",
    "Sequential Output Block",
    "Sequential Output Rewrite",
    "Sequential Input Per Char",
    "Sequential Input Block",
    "Random Seeks",
)
_IO_LABELS_PP = (
    "Sequential Output Per Chr",
    "Sequential Output Block",
    "Sequential Output Rewrite",
    "Sequential Input Per Chr",
    "Sequential Input Block",
    "Random Seeks",
)
_FILE_LABELS = (
    "Sequential Create Create",
    "Sequential Create Read",
    "Sequential Create Delete",
    "Random Create Create",
    "Random Create Read",
    "Random Create Delete",
)
_FILE_METRICS = frozenset(_FILE_TESTS) | {f"{t}_{s}" for t in _FILE_TESTS for s in ("cpu", "latency")}


def _metric_specs() -> dict[str, MetricSpec]:
    specs: dict[str, MetricSpec] = {t: MetricSpec("K/sec", True, 0.0, 1e8) for t in _IO_TESTS[:5]}
    specs["random_seeks"] = MetricSpec("/sec", True, 0.0, 1e7)
    specs.update({t: MetricSpec("/sec", True, 0.0, 1e8) for t in _FILE_TESTS})
    for test in _IO_TESTS + _FILE_TESTS:
        specs[f"{test}_cpu"] = MetricSpec("%CPU", False, 0.0, 10000.0)
        specs[f"{test}_latency"] = MetricSpec("us", False, 0.0, 1e10)
    return specs


METRICS: dict[str, MetricSpec] = _metric_specs()

# --------------------------------------------------------------------------- cells and drafts

OK, TOO_FAST, NOT_RUN, UNREADABLE = "ok", "too_fast", "not_run", "unreadable"
CUT = "cut"  # the last field of a CSV line the mailer may have cut: two readings, no value

_RATE_SUFFIX = {"": 1.0, "k": 1.0, "m": 1024.0, "g": 1024.0 * 1024.0}  # K/sec scaled by 1024
_LATENCY_UNIT = {"us": 1.0, "ms": 1e3, "s": 1e6}
_NUM_SUFFIX = re.compile(r"(\d+(?:\.(\d+))?)([kmg]?)")
_LATENCY = re.compile(r"(?<!\d)(\d+(?:\.\d+)?)(us|ms|s)")  # not from inside a number


@dataclass(slots=True)
class _Cell:
    """One printed cell: a value, or why there is none (`+++++`, blank, unreadable)."""

    metric: str
    label: str
    unit: str
    value: float | None = None
    status: str = OK
    raw: str = ""
    tol: float = 0.0  # half the printed resolution, for cross-checks (0: exact)
    alignment: str = EXACT
    line: int | None = None


def _cell(metric: str, label: str, tok: str | None, kind: str, line: int | None,
          *, plain_ok: bool = True) -> _Cell:
    """Read one token. kind: rate (K/sec, k/m/g allowed), count (/sec), cpu, latency (to us).

    plain_ok=False: a number without a k/m/g suffix has no known scale (bonnie++ 2.0x text).
    """
    unit = {"rate": "K/sec", "count": "/sec", "cpu": "%CPU", "latency": "us"}[kind]
    c = _Cell(metric, label, unit, raw=tok or "", line=line)
    if tok is None or tok == "":
        c.status = NOT_RUN
    elif set(tok) == {"+"}:
        c.status = TOO_FAST
    elif kind == "latency":
        m = _LATENCY.fullmatch(tok)
        if m:
            c.value = float(m.group(1)) * _LATENCY_UNIT[m.group(2)]
        else:
            c.status = UNREADABLE
    else:
        m = _NUM_SUFFIX.fullmatch(tok)
        suffix = m.group(3) if m else ""
        if m is None or (suffix and kind != "rate") or (not suffix and not plain_ok):
            c.status = UNREADABLE
        else:
            mult = _RATE_SUFFIX[suffix]
            c.value = float(m.group(1)) * mult
            if suffix and mult != 1.0:  # 2.0x prints 728m / 1.1g: rounded, compare with tolerance
                decimals = len(m.group(2) or "")
                c.tol = 0.5 * 10.0**-decimals * mult
            elif metric == "random_seeks" and m.group(2) is None:
                c.tol = 0.5  # text prints seeks >= 1000 with %5.0f, the CSV with %.1f
    return c


@dataclass(slots=True, eq=False)
class _Draft:
    """A run being assembled from one or more printed forms."""

    line_start: int
    line_end: int
    system: str | None = None
    tool_version: str | None = None
    io_params: dict[str, str] = field(default_factory=dict)
    file_params: dict[str, str] = field(default_factory=dict)
    cells: list[_Cell] = field(default_factory=list)
    attributes: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    caption: str | None = None
    reason: str | None = None  # set: recognised but not readable (unparsed run)
    repeat: str | None = None
    merged: bool = False
    listed: bool = False  # already in the parser's output list
    fragment: bool = False  # the rest of a row that starts in another quote segment

    def cell(self, metric: str) -> _Cell | None:
        return next((c for c in self.cells if c.metric == metric), None)


def _to_run(d: _Draft) -> Run:
    if d.reason:
        return Run(benchmark="bonnie", results=[], tool_version=d.tool_version, system=d.system,
                   caption=d.caption, line_start=d.line_start, line_end=d.line_end,
                   attributes=dict(d.attributes), notes=list(d.notes), status="unparsed",
                   reason=d.reason)
    results: list[Result] = []
    notes = list(d.notes)
    for c in d.cells:
        if c.status == OK and c.value is not None:
            params = dict(d.file_params if c.metric in _FILE_METRICS else d.io_params)
            if d.repeat:
                params["repeat"] = d.repeat
            results.append(Result(metric=c.metric, metric_label=c.label, value=c.value, unit=c.unit,
                                  params=params, alignment=c.alignment, line=c.line))
        elif c.status == TOO_FAST:
            notes.append(f"{c.metric}: '{c.raw}' (too fast to measure; no value)")
        elif c.status == NOT_RUN:
            notes.append(f"{c.metric}: blank (test not run)")
        elif c.status == CUT:
            notes.append(f"{c.metric}: {c.raw} (the mailer wrapped the CSV line there; no value)")
        else:
            notes.append(f"{c.metric}: unreadable cell {c.raw!r}")
    return Run(benchmark="bonnie", results=results, tool_version=d.tool_version, system=d.system,
               caption=d.caption, line_start=d.line_start, line_end=d.line_end,
               attributes=dict(d.attributes), notes=notes)


# --------------------------------------------------------------------------- shared helpers

_DECORATION = re.compile(r"```.*|[-=_~#*]{3,}")
_SPACES = str.maketrans({"\xa0": " ", "\u2007": " ", "\u2009": " ", "\u202f": " "})


def _clean(line: str) -> str:
    """Undo mail/forum damage that keeps columns: non-breaking spaces, Markdown bold."""
    return line.translate(_SPACES).replace("**", "").rstrip()


def _caption_above(lines: list[str], start: int) -> str | None:
    """A one-line paragraph right above a block (e.g. `2.4.6.pre3 before`), if there is one."""
    k = start - 1
    while k >= 0 and (not lines[k].strip() or _DECORATION.fullmatch(lines[k].strip())):
        k -= 1  # blank lines, code fences, underlines
    if k < 0:
        return None
    text = lines[k].strip()
    if k > 0 and lines[k - 1].strip() and not _DECORATION.fullmatch(lines[k - 1].strip()):
        return None  # last line of a longer paragraph, not a caption
    if len(text) > 80 or text.endswith("?") or re.search(r"[Bb]onnie|^[#$%>]|\.\.\.|(?<!\S)[^\s@]*+@\S+[:\s]", text):
        return None
    return text


_COMMAND = re.compile(r"(?<![\w.+-])[Bb]onnie(?:\+\+)?(?![\w+])(?P<args>(?:\s+-[A-Za-z]\S*(?:\s+[^\s-]\S*)?)+)")
_OPTION_ATTRIBUTE = {"d": "dir", "s": "size_arg", "m": "machine_arg", "n": "files_arg"}


def _command_attributes(line: str) -> dict[str, str] | None:
    """`./Bonnie -d /tmp -s 1500 -m Pardus` (any prompt before it) as run attributes."""
    best: dict[str, str] | None = None
    if "onnie" not in line:
        return None
    for m in _COMMAND.finditer(line):
        start = max(line.rfind(" ", 0, m.start()), line.rfind("\t", 0, m.start())) + 1
        attrs = {"command": line[start : m.end()].strip()}
        toks = m.group("args").split()
        for k, tok in enumerate(toks):
            if re.fullmatch(r"-[A-Za-z]\S*", tok):
                value = tok[2:] or (toks[k + 1] if k + 1 < len(toks) and not toks[k + 1].startswith("-")
                                    else "")
                key = _OPTION_ATTRIBUTE.get(tok[1])
                if key and value:
                    attrs[key] = value
        if len(attrs) > 1 and (best is None or len(attrs) > len(best)):
            best = attrs
    return best


# --------------------------------------------------------------------------- Bonnie 1.x

_B1_HEADER = re.compile(r"\bK/sec\s+%CPU\b")
_B1_M_HEADER = re.compile(r"\bM/sec\s+%CPU\b")  # Bonnie-64 (M/sec, GB): not read
# the wrapped rest of the header line, with any column the poster added after it (`Start Date&Time`)
# keywords, then blank-separated words (a keyword after a blank is a word too)
_B1_HEADER_FRAGMENT = re.compile(r"\s*+(?:Machine|MB|K/sec|/sec|%CPU)++(?:\s++[^\d\s]++)*+\s*+")
_B1_GROUP_HEADER = re.compile(r"Sequential Output|-Per Char-|Sequential Input|--Rnd Seek-")
# a group-header line the mailer wrapped leaves its last groups alone on a line: `--Rnd Seek-`,
# `--04k (03)-`, `Seek-`, `(03)-    Iteration`
_B1_HEADER_PIECE = re.compile(r"\s*(?:-*\(?\w+\)?-*\s+){0,3}-*\(?\w+\)?-*\s*")
_B1_DASHED = re.compile(r"(?:^|\s)-|-(?:\s|$)")


def _b1_header_piece(line: str) -> bool:
    return bool(_B1_DASHED.search(line)) and bool(_B1_HEADER_PIECE.fullmatch(line))

_DONE = re.compile(
    r"(?P<test>Writing with putc\(\)|Rewriting|Writing intelligently|Reading with getc\(\)"
    r"|Reading intelligently)\.\.\.\s*done:\s*(?P<kb>\d+)\s*kB/s\s+(?P<cpu>\d+(?:\.\d+)?)\s*%CPU"
)
_B1_CHATTER = re.compile(
    r"\s*(?:Seeker \d|start 'em|\.\.\.\s*$|(?:Writing|Rewriting|Reading)\b.*\.\.\.)"
    r"|.*(?:Sequential Output|-Per Char-|Sequential Input)"
)
_B1_SEEKERS = re.compile(r"\s*Seeker \d\.\.\.")
_DONE_METRIC = {
    "Writing with putc()": "seq_output_char",
    "Writing intelligently": "seq_output_block",
    "Rewriting": "seq_rewrite",
    "Reading with getc()": "seq_input_char",
    "Reading intelligently": "seq_input_block",
}
_FILE_LINE = re.compile(
    r"(?:Bonnie (?P<ver>\d++(?:\.\d++)++\w*+):\s*)?File '(?P<path>[^']*)', size: (?P<bytes>\d+)"
    r"(?:, volumes: (?P<vol>\d+))?"
)
_ATOM = re.compile(r"\d+(?:\.\d)?")  # `\d+\.\d|\d+` without retrying the digits
_ONE_DECIMAL = re.compile(r"\d+\.\d")
_NUMERIC_LINE = re.compile(r"[\d.\s]+")


@dataclass(slots=True)
class _B1Context:
    """What one Bonnie invocation printed before its table: command, File line, done-lines."""

    start: int | None = None
    version: str | None = None
    attributes: dict[str, str] = field(default_factory=dict)
    done: dict[str, tuple[str, str, int]] = field(default_factory=dict)  # metric -> (kb, cpu, line)
    known_mb: int | None = None
    file_seen: bool = False
    last: int = 0


_B1_VERSION = re.compile(r"\d+\.\d+\.\d+")


def _b1_row_at(lines: list[str], k: int) -> bool:
    """A full Bonnie row (label, MB and twelve cells) at line k, maybe wrapped onto the next line:
    posters group rows with blank lines between."""
    split = _b1_split(lines[k])
    if split is not None and len(split[3]) >= 13:
        return True
    if split is None or k + 1 >= len(lines) or not _NUMERIC_LINE.fullmatch(lines[k + 1]):
        return False
    joined = _b1_split(f"{lines[k]} {lines[k + 1].strip()}")
    return joined is not None and len(joined[3]) >= 13


def _b1_split(text: str) -> tuple[str, str | None, list[str], list[str]] | None:
    """Split a table row into (label, volumes, numeric tokens, atoms); glued fields become atoms.

    Bonnie prints K/sec with `%6d` right after a ` %4.1f` CPU cell, so 6-digit rates run into
    the CPU value; a CPU cell always has exactly one decimal, which makes the split exact.
    """
    toks = text.split()
    k = len(toks)
    while k > 0 and re.fullmatch(r"[\d.]+", toks[k - 1]) and not (k == 1 and _B1_VERSION.fullmatch(toks[0])):
        k -= 1  # a leading `2.4.21` is the machine label (glued cells such as `0.010000.0` come later)
    head, nums = toks[:k], toks[k:]
    vol = None
    if head and (m := re.fullmatch(r"(\d+)\*(\d*)", head[-1])):
        vol, head = m.group(1), head[:-1]
        if m.group(2):
            nums = [m.group(2), *nums]
    atoms: list[str] = []
    for tok in nums:
        parts = _ATOM.findall(tok)
        if "".join(parts) != tok:
            return None
        atoms.extend(parts)
    return " ".join(head), vol, nums, atoms


def _b1_fields(atoms: list[str], known_mb: int | None) -> tuple[str, list[str]] | None:
    """(MB, 12 cells) from a row's atoms, or None if they do not fit `MB (K/sec %CPU)x5 seeks %CPU`."""
    if len(atoms) == 12 and known_mb is not None:  # size glued to a 6-digit first rate
        mb = str(known_mb)
        if atoms[0].startswith(mb) and len(atoms[0]) > len(mb) and atoms[0].isdigit():
            atoms = [mb, atoms[0][len(mb):], *atoms[1:]]
    if len(atoms) != 13 or not atoms[0].isdigit():
        return None
    cells = atoms[1:]
    for k, a in enumerate(cells):
        is_rate = k < 10 and k % 2 == 0
        if is_rate != a.isdigit() or (not is_rate and not _ONE_DECIMAL.fullmatch(a)):
            return None
    return atoms[0], cells


def _b1_fields_from_done(nums: list[str], done: dict[str, tuple[str, str, int]]) -> tuple[str, list[str]] | None:
    """Resolve a row whose digits ran together by matching the progress lines' values in order."""
    if len(done) < 5 or len(nums) < 3:
        return None
    seeks, seeks_cpu = nums[-2], nums[-1]
    if not (_ONE_DECIMAL.fullmatch(seeks) and _ONE_DECIMAL.fullmatch(seeks_cpu)):
        return None
    tail = "".join(done[m][0] + done[m][1] for m in _IO_TESTS[:5])
    glued = "".join(nums[:-2])
    mb = glued[: len(glued) - len(tail)]
    if not glued.endswith(tail) or not mb.isdigit():
        return None
    cells = [x for m in _IO_TESTS[:5] for x in done[m][:2]]
    return mb, [*cells, seeks, seeks_cpu]


def _b1_row_draft(label: str, vol: str | None, mb: str, cells: list[str], line: int,
                  ctx: _B1Context, start: int, end: int) -> _Draft:
    d = _Draft(line_start=start, line_end=end, system=label or None, tool_version=ctx.version,
               attributes=dict(ctx.attributes))
    d.io_params["file_size_mb"] = str(int(mb))
    if vol and vol != "1":
        d.io_params["volumes"] = vol
    for k, test in enumerate(_IO_TESTS):
        label_k = _IO_LABELS_B1[k]
        kind = "count" if test == "random_seeks" else "rate"
        d.cells.append(_cell(test, f"{label_k} {'/sec' if kind == 'count' else 'K/sec'}",
                             cells[2 * k], kind, line))
        d.cells.append(_cell(f"{test}_cpu", f"{label_k} %CPU", cells[2 * k + 1], "cpu", line))
    return d


def _b1_done_draft(ctx: _B1Context, lines: list[str]) -> _Draft:
    """A run from progress lines alone (no summary table: no seeks)."""
    start = ctx.start if ctx.start is not None else 0
    d = _Draft(line_start=start, line_end=ctx.last + 1, tool_version=ctx.version,
               attributes=dict(ctx.attributes))
    if ctx.known_mb is not None:
        d.io_params["file_size_mb"] = str(ctx.known_mb)
    inverse = {v: k for k, v in _DONE_METRIC.items()}
    for test in _IO_TESTS[:5]:
        if test in ctx.done:
            kb, cpu, line = ctx.done[test]
            d.cells.append(_cell(test, f"{inverse[test]} kB/s", kb, "rate", line))
            d.cells.append(_cell(f"{test}_cpu", f"{inverse[test]} %CPU", cpu, "cpu", line))
    d.notes.append("values from the progress lines: random seeks not reported")
    machine = ctx.attributes.get("machine_arg")
    d.system = machine or _caption_system(_caption_above(lines, start)) or naming_caption(lines, start)
    return d


def _caption_system(caption: str | None) -> str | None:
    return caption.rstrip(":").strip() or None if caption else None


def _check_done(d: _Draft, done: dict[str, tuple[str, str, int]]) -> str | None:
    """Why the table row and the progress lines disagree (None: they agree)."""
    for test, (kb, cpu, _line) in done.items():
        for metric, text in ((test, kb), (f"{test}_cpu", cpu)):
            c = d.cell(metric)
            if c is not None and c.value is not None and c.value != float(text):
                return f"table {metric}={c.raw} disagrees with progress line value {text}"
    return None


def _parse_bonnie1(lines: list[str]) -> list[_Draft]:
    drafts: list[_Draft] = []
    ctx = _B1Context()
    flushed: list[tuple[_Draft, _B1Context]] = []  # progress lines read alone since the last table

    def flush() -> None:
        nonlocal ctx
        if ctx.done:
            drafts.append(_b1_done_draft(ctx, lines))
            flushed.append((drafts[-1], ctx))
        ctx = _B1Context()

    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if _B1_HEADER.search(line):
            table, end = _b1_table(lines, i, ctx)
            if not ctx.done and flushed:
                table, end = _b1_rejoin_progress(lines, i, table, end, flushed, drafts)
            flushed.clear()
            drafts.extend(table)
            ctx, i = _B1Context(), end
            continue
        if _B1_M_HEADER.search(line):
            drafts.append(_Draft(line_start=i, line_end=i + 1,
                                 reason="Bonnie-64 table (GB, M/sec columns) is not read"))
        elif (attrs := _command_attributes(line)) is not None and "bonnie++" not in line:
            flush()
            ctx.start, ctx.last, ctx.attributes = i, i, attrs
            if (size := attrs.get("size_arg", "")).isdigit():
                ctx.known_mb = int(size)
        elif m := _FILE_LINE.search(line):
            if ctx.file_seen or ctx.done:
                flush()
            ctx.start = i if ctx.start is None else ctx.start
            ctx.file_seen, ctx.last = True, i
            ctx.version = m.group("ver") or ctx.version
            ctx.attributes["file"] = m.group("path")
            ctx.attributes["file_size_bytes"] = m.group("bytes")
            size = int(m.group("bytes"))
            if size % (1024 * 1024) == 0:
                ctx.known_mb = size // (1024 * 1024)
        elif _DONE.search(line):
            for m in _DONE.finditer(line):
                metric = _DONE_METRIC[m.group("test")]
                if metric in ctx.done:
                    flush()
                ctx.start = i if ctx.start is None else ctx.start
                ctx.done[metric] = (m.group("kb"), m.group("cpu"), i)
                ctx.last = i
        elif line.strip() and not _B1_CHATTER.match(line) and not _b1_header_piece(line):
            flush()  # anything else ends what one invocation printed before its table
        i += 1
    flush()
    return drafts


def _b1_rejoin_progress(lines: list[str], h: int, table: list[_Draft], end: int,
                        flushed: list[tuple[_Draft, _B1Context]],
                        drafts: list[_Draft]) -> tuple[list[_Draft], int]:
    """Progress lines cut off from their table by a line between them (a piece of a line the
    mailer wrapped, a remark) made runs of their own: where the table's first row prints their
    values, they are the same measurements, read once (from the row, checked against them)."""
    last, last_ctx = flushed[-1]
    again, end_again = _b1_table(lines, h, last_ctx)
    if again and again[0].attributes.get("progress_lines") == "agree":
        drafts.remove(last)
        flushed = flushed[:-1]
        table, end = again, end_again
    row = table[0] if table and table[0].reason is None else None
    for d, _ctx in flushed:
        size = d.io_params.get("file_size_mb")
        if row is not None and size in (None, row.io_params.get("file_size_mb")) and all(
                (x := row.cell(c.metric)) is not None and x.value == c.value for c in d.cells):
            drafts.remove(d)
    return table, end


def _b1_tail_of_quote(lines: list[str], before: tuple[str, ...]) -> _Draft | None:
    """The seeks of a quoted row the mailer wrapped: the row's head closes the quote above this
    segment (`before`), the wrapped rest (no quote prefix) opens this one.

    The quote's progress lines give that run its ten rates and CPU values, but the seeks are
    printed only in the row: they make a run of their own here, which the driver numbers with the
    runs of the same machine. Nothing is read unless head and rest make one whole row.
    """
    if not lines or not lines[0].strip() or not _NUMERIC_LINE.fullmatch(lines[0]) or len(before) < 2:
        return None
    if not any(_B1_HEADER.search(b) for b in before[:-1]):
        return None
    head_text = _clean(before[-1])
    head, whole = _b1_split(head_text), _b1_split(f"{head_text} {lines[0].strip()}")
    if head is None or whole is None or len(head[3]) >= 13 or len(whole[3]) != 13:
        return None
    label, vol, _nums, atoms = whole
    fields = _b1_fields(atoms, None)
    if fields is None:
        return None
    mb, cells = fields
    d = _Draft(line_start=0, line_end=1, system=label or None, fragment=True)
    d.io_params["file_size_mb"] = str(int(mb))
    if vol and vol != "1":
        d.io_params["volumes"] = vol
    d.cells = [_cell("random_seeks", f"{_IO_LABELS_B1[5]} /sec", cells[10], "count", 0),
               _cell("random_seeks_cpu", f"{_IO_LABELS_B1[5]} %CPU", cells[11], "cpu", 0)]
    d.notes.append(f"rest of the quoted row {head_text.strip()!r}, wrapped out of the quote by the mailer")
    return d


# a table header that closes its segment: in a quoted post the mailer's wrap moves every long
# line's rest out of the quote, so the rows often end up in segments of their own
_SPLIT_OFF = ("Bonnie table header without rows in its quote segment "
              "(rows split off by quoting or wrapping?)")
_PP_SPLIT_OFF = _SPLIT_OFF.replace("Bonnie", "bonnie++")


def _b1_table(lines: list[str], h: int, ctx: _B1Context) -> tuple[list[_Draft], int]:
    """Rows under a `Machine MB K/sec %CPU ...` header; returns drafts and the next line index."""
    top = h
    while top > 0 and h - top < 6 and (_B1_GROUP_HEADER.search(lines[top - 1])
                                         or _b1_header_piece(lines[top - 1])):
        top -= 1  # (up to 3 group-header lines, each possibly wrapped in two)
    start = ctx.start if ctx.start is not None else top
    caption = _caption_above(lines, start)
    j, n = h + 1, len(lines)
    while j < n and (not lines[j].strip() or _B1_HEADER_FRAGMENT.fullmatch(lines[j])) and j <= h + 2:
        j += 1  # the header wrapped onto the next line, or a blank line before the rows
    drafts: list[_Draft] = []
    first = True
    while j < n and (lines[j].strip() or (drafts and j + 1 < n and _b1_row_at(lines, j + 1))):
        if not lines[j].strip():
            j += 1  # a blank line between groups of rows of the same table
            continue
        text, used = lines[j], 1
        split = _b1_split(text)
        while split and len(split[3]) < 13 and j + used < n and lines[j + used].strip() \
                and _NUMERIC_LINE.fullmatch(lines[j + used]):  # the mailer wrapped the row (maybe twice)
            joined = _b1_split(f"{text} {lines[j + used].strip()}")
            if not joined or len(joined[3]) > 13:
                break
            text, split, used = f"{text} {lines[j + used].strip()}", joined, used + 1
        if split is None or len(split[3]) < 6:
            break
        label, vol, nums, atoms = split
        if len(atoms) > 13:  # a numeric machine label: leading atoms belong to the label
            extra = len(atoms) - 13
            label, atoms = " ".join([label, *atoms[:extra]]).strip(), atoms[extra:]
        done = ctx.done if first else {}
        fields = _b1_fields(atoms, ctx.known_mb) or (_b1_fields_from_done(nums, done) if done else None)
        end = j + used
        if fields is None and len(done) == 5:  # the progress lines still hold ten of the values
            d = _b1_done_draft(ctx, lines)
            d.line_end = end
            d.system = label or d.system
            d.notes.append(f"summary row not readable ({text.strip()!r}): random seeks not reported")
            drafts.append(d)
        elif fields is None:
            drafts.append(_Draft(line_start=start if first else j, line_end=end, system=label or None,
                                 reason=f"Bonnie row does not split into MB + 12 cells: {text.strip()!r}"))
        else:
            d = _b1_row_draft(label, vol, fields[0], fields[1], j, ctx, start if first else j, end)
            d.caption = caption
            if d.system is None:
                # no machine label: a caption naming a kernel or a patch further up names the system
                d.system = (_caption_system(caption) or naming_caption(lines, start)) if first else None
            if done:
                d.reason = _check_done(d, done)
                d.attributes["progress_lines"] = "agree" if d.reason is None else "disagree"
            drafts.append(d)
        first = False
        j = end
    if first and ctx.done:  # header without a readable row: keep the progress lines
        drafts.append(_b1_done_draft(ctx, lines))
    elif first and not any(line.strip() for line in lines[j:]):
        drafts.append(_Draft(line_start=top, line_end=n, reason=_SPLIT_OFF))
    return drafts, max(j, h + 1)


# --------------------------------------------------------------------------- bonnie++ text tables

_HDR_WORD = re.compile(
    r"(?<!\S)(?:-*(?:Sequential|Output|Input|Random|Per|Chr|Block|Rewrite|Seeks|Create|Read|Delete)-*"
    r"|K/sec|/sec|%CP|Machine|Size:chnk|Name:Size|Size|etc|files(?::max(?::min)?)?)(?!\S)"
)
_HDR_STRONG = re.compile(r"Sequential (?:Output|Create)|-Per Chr-|K/sec %CP\b|/sec %CP\b|^\s*files\b")
_HDR_IO = re.compile(r"Sequential Output|Sequential Input|Per Chr|Seeks|Rewrite|Machine|Size")
_HDR_CREATE = re.compile(r"Sequential Create|Random Create|-Create-|-Delete-|files")
_RATE_TOK = re.compile(r"\+{5}|\d+(?:\.\d+)?[kmg]?")
_CPU_TOK = re.compile(r"\+{3}|\d+")
_SIZE_TOK = re.compile(r"(?<!\d)(?P<n>\d+)(?P<u>[MG])(?::(?P<chunk>\d+)(?P<cu>[kKmM]?))?")
_FILES_TOK = re.compile(r"(?P<n>\d+)(?::(?P<max>\d+|link|symlink)(?::(?P<min>\d+))?)?(?:/(?P<dirs>\d+))?")
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


def _version_at_least(version: str, major: int, minor: int) -> bool:
    m = re.match(r"(\d+)\.(\d+)", version)
    return bool(m) and (int(m.group(1)), int(m.group(2))) >= (major, minor)


def _size_params(spec: str | None) -> dict[str, str]:
    """`4G` -> 4096 MB, `4018M`, `1G:32k` (non-default chunk) -> file size and chunk size."""
    m = _SIZE_TOK.fullmatch(spec or "")
    if not m:
        return {}
    params = {"file_size_mb": str(int(m.group("n")) * (1024 if m.group("u") == "G" else 1))}
    if m.group("chunk"):
        mult = {"": 1, "k": 1024, "K": 1024, "m": 1024 * 1024, "M": 1024 * 1024}[m.group("cu")]
        params["chunk_size_bytes"] = str(int(m.group("chunk")) * mult)
    return params


def _files_params(num: str, max_size: str = "", min_size: str = "", dirs: str = "") -> dict[str, str]:
    """The files column counts in units of 1024 files; `16:100:10/5` adds max:min size and dirs."""
    if m := _FILES_TOK.fullmatch(num):
        num, max_size = m.group("n"), m.group("max") or max_size
        min_size, dirs = m.group("min") or min_size, m.group("dirs") or dirs
    elif not num.isdigit():
        return {}
    params = {"num_files": str(int(num) * 1024)}
    if max_size in ("link", "symlink"):
        params["file_kind"] = max_size
    elif max_size.isdigit():
        params["file_max_size_bytes"] = max_size
        if min_size.isdigit():
            params["file_min_size_bytes"] = min_size
    if dirs.isdigit() and int(dirs) > 1:
        params["num_dirs"] = dirs
    return params


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


def _cells_fit(cells: list[str | None]) -> bool:
    return all(t is None or (_RATE_TOK if k % 2 == 0 else _CPU_TOK).fullmatch(t) for k, t in enumerate(cells))


def _is_cell(tok: str) -> bool:
    return bool(_RATE_TOK.fullmatch(tok) or _CPU_TOK.fullmatch(tok))


def _is_latency(tok: str) -> bool:
    return bool(_LATENCY.fullmatch(tok))


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


# --------------------------------------------------------------------------- entry point


def _number_repeats(drafts: list[_Draft]) -> None:
    """repeat = 1, 2, ... for runs that would otherwise give identical rows."""

    def key(d: _Draft) -> tuple[object, ...]:
        return d.system, tuple(sorted(d.io_params.items())), tuple(sorted(d.file_params.items()))

    # unparsed runs count too: numbers stay stable. A fragment stands for a run of another
    # segment: the driver numbers it with that segment's runs.
    counts = Counter(key(d) for d in drafts if not d.fragment)
    seen: Counter[tuple[object, ...]] = Counter()
    for d in drafts:
        if counts[key(d)] > 1 and not d.fragment:
            seen[key(d)] += 1
            d.repeat = str(seen[key(d)])


def parse(seg: Segment) -> list[Run]:
    lines = [_clean(line) for line in seg.lines]
    drafts = _parse_bonnie1(lines)
    # progress lines right above this segment (the seeker chatter is their last line) made a run
    # of the same invocation there, which notes that its seeks are missing: a header opening this
    # segment is that run's table, not a run lost
    progress_above = any(_B1_SEEKERS.match(b) for b in seg.before)
    if progress_above:
        drafts = [d for d in drafts
                  if d.reason != _SPLIT_OFF or any(x.strip() for x in lines[: d.line_start])]
    if (tail := _b1_tail_of_quote(lines, seg.before)) is not None:
        # A run of this segment with the same machine and size shares the fragment's keys: the
        # driver tells them apart only if the quote above gave its run too; otherwise the
        # fragment is left out.
        same = any((d.system, d.io_params) == (tail.system, tail.io_params) for d in drafts)
        if not same or progress_above:
            drafts.append(tail)
    before = seg.before[-1].strip() if seg.before else ""
    continued = len(before) >= _WRAPPED_PIECE and "," in before and _csv_piece(before)
    text, csv = _parse_pp_text(lines), _parse_pp_csv(lines, continued)
    if csv:  # a header above a CSV record is not a table whose rows went elsewhere
        text = [d for d in text if d.reason != _PP_SPLIT_OFF]
    drafts += _merge(text, csv)
    drafts.sort(key=lambda d: d.line_start)
    _captions_over_hosts(drafts, lines, seg.before)
    _number_repeats(drafts)
    return [_to_run(d) for d in drafts]


def _captions_over_hosts(drafts: list[_Draft], lines: list[str], before: tuple[str, ...]) -> None:
    """One machine name under captions naming different kernels (or patches, VMs): the post
    compares what the captions name, so each caption is the system and the machine a param `host`."""
    named: dict[int, str | None] = {}
    by_machine: dict[str, set[str | None]] = {}
    for k, d in enumerate(drafts):
        if d.reason or not d.system or names_system(d.system):
            continue
        named[k] = naming_caption(lines, d.line_start, 0, before)
        by_machine.setdefault(d.system, set()).add(named[k])
    for k, caption in named.items():
        d = drafts[k]
        captions = by_machine[d.system]
        if caption is None or None in captions or len(captions) < 2:
            continue
        d.io_params["host"] = d.file_params["host"] = d.system
        d.system = caption


# Every alternative contains one of KEYWORDS (lower-cased), so the driver's substring test can skip
# mail without Bonnie output. A 1.0x CSV line (no version field) is read only in a segment that
# matched otherwise (its table); versioned CSV (format 1.9x, also bonnie++ 2.0x) stands alone.
SIGNATURE = re.compile(
    r"K/sec\s+%CPU|kB/s\s+[\d.]+\s*%CPU|/sec\s+%CP\b|Sequential (?:Output|Create)"
    r"|^[^\S\n]*+1\.9\d[a-z]?,\d++\.\d++[\w.]*+,",
    re.M,
)
KEYWORDS = ("%cp", "sequential output", "sequential create",
            *(f"1.9{d}{s}," for d in "0123456789" for s in ["", *"abcdefghijklmnopqrstuvwxyz"]))

PARSER = Parser(name="bonnie", version="1", signature=SIGNATURE, parse=parse, metrics=METRICS,
                keywords=KEYWORDS)

"""Bonnie 1.x (Tim Bray's Bonnie and the 1.4 "nosync" variant): one run per table row.

The `Writing with putc()... done: N kB/s P %CPU` progress lines printed by the same invocation
describe the same measurements as the first row that follows them: they are used to split
fields the table glued together (`93.1158724` is `%4.1f` CPU then `%6d` K/sec) and to
cross-check, never emitted a second time (not even when a line came between them and the
table: a first row printing their values is their table). Progress lines without a table
make a run of their own (no seeks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from transforms.parsers._common import naming_caption

from .common import (
    _IO_LABELS_B1,
    _IO_TESTS,
    _SPLIT_OFF,
    _caption_above,
    _cell,
    _clean,
    _command_attributes,
    _Draft,
)

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
    r"\s*(?:Seeker \d|start 'em|'em\.\.\.|\.\.\.\s*$|(?:Writing|Rewriting|Reading)\b.*\.\.\.)"
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
# `xxxx`: a figure the poster cut out of the row ("I cutted out the numbers that aren't using
# O_DIRECT"): a cell without a value, as bonnie's own `+++++` is
_BLANKED = re.compile(r"x{3,8}+|X{3,8}+")


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
    while k > 0 and (re.fullmatch(r"[\d.]+", toks[k - 1]) or _BLANKED.fullmatch(toks[k - 1])) \
            and not (k == 1 and _B1_VERSION.fullmatch(toks[0])):
        k -= 1  # a leading `2.4.21` is the machine label (glued cells such as `0.010000.0` come later)
    while k < len(toks) and _BLANKED.fullmatch(toks[k]):
        k += 1  # the first figure (the size) is never blanked: `xxx` before it is part of the label
    head, nums = toks[:k], toks[k:]
    vol = None
    if head and (m := re.fullmatch(r"(\d+)\*(\d*)", head[-1])):
        vol, head = m.group(1), head[:-1]
        if m.group(2):
            nums = [m.group(2), *nums]
    atoms: list[str] = []
    for tok in nums:
        if _BLANKED.fullmatch(tok):
            atoms.append("")  # a figure the poster cut out: no value
            continue
        if tok[-1:] == "." and tok[:-1].isdigit():
            atoms.append(tok + "0")  # `100.`: a %CPU of 100.0 cut to its cell's four characters
            continue
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
        if not a:
            continue  # blanked out
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

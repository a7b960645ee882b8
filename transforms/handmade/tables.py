"""Hand-made tables: whitespace-aligned, pipe (Markdown), `+----+` box and reST grid/simple
tables, including tables of relative changes only.

A table is a header line (configuration names, metric names, or a parameter name first)
followed by rows that end in the same number of value cells. The reader decides what rows
and columns mean (parameters, metrics or systems) from the labels themselves; attribution to
a benchmark and mapping to canonical metrics happen in `transforms.handmade.read`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from transforms.handmade.cells import (
    HEDGE,
    INTERVAL,
    MISSING,
    MULTIPLIER,
    ONE_RUN,
    PAIR_IN_LABEL,
    RELEASE,
    RULE,
    Cell,
    aligned,
    cells,
    read_number,
    scaled,
    split_wide,
    words,
)
from transforms.handmade.evidence import benchmarks_in, names_tool
from transforms.handmade.metrics import (
    STAT_HEAD,
    any_metric,
    canonical,
    label_votes,
    norm,
    unit,
    unit_in,
)
from transforms.handmade.prose import FROM_FIGURE
from transforms.handmade.wrapped import JOINED
from transforms.parsers._common import CHANGE_HEAD
from transforms.shell import OPTION, is_shell_syntax
from transforms.tools import names_pattern

MAX_ROWS = 400
_PARAM_WORDS = frozenset({
    "size", "msg size", "message size", "msgsize", "bytes", "procs", "processes", "threads", "thread",
    "clients", "client", "tasks", "groups", "loops", "jobs", "numjobs", "iodepth", "qd", "bs",
    "block size", "blocksize", "record size", "reclen", "copies", "cpus", "cpu", "nr", "n", "streams",
    "instances", "connections", "conns", "users", "load", "rw", "mode", "run", "#", "workers",
    "pairs", "flows", "sessions", "req size", "request size", "packet size", "pkt size", "len",
    "length", "test", "case", "iteration", "iter", "nproc", "np", "vcpus", "queues", "depth",
    "group", "g", "samples", "runs", "rings", "#rings", "nr_threads", "nthreads", "parallel", "p",
    "j", "-j", "count", "sample", "num", "number", "files", "type", "pattern",
})  # fmt: skip
STDEV_HEAD = re.compile(r"^(?:(?:stdev|stddev|std\.?dev|std|sd|σ|err|error|cv|var|variance|noise)\b|\+/-|\+-(?!\d)|±)",
                         re.I)
_GENERIC_HEAD = re.compile(r"^(?:results?|values?|scores?|numbers?|data|benchmark|test|metric|name"
                           r"|item|workload|config|configuration|kernel|system|setup)s?\b\s*:?$", re.I)
_PARAM_LABEL = re.compile(r"^(?P<word>[A-Za-z#][\w ./-]{0,20}?)\s*+[=:]?\s*+(?P<val>\d[\w.,/-]{0,12})$")
_LABEL_PARAM = re.compile(r"^(?P<val>\d[\w.,/-]{0,12})\s*+(?P<word>[A-Za-z][\w ./-]{0,20})$")
_DIGIT = re.compile(r"\d")
_RELEASE_LABEL = re.compile(r"^v?\d{1,2}\.\d{1,2}\.\d{1,3}(?:[-.]\w{1,12})?$|^v?\d{1,2}\.\d{1,2}-rc\d{1,2}$")  # `2.6.20`
_HARDWARE = re.compile(r"(?i)\b(?:ssds?|hdds?|nvme|optane|sata|sas|emmc|disks?|drives?|nics?)\b")  # a device, no metric
_COPIES = re.compile(r"(?i)^(?P<n>\d{1,4})[ \t]++(?:parallel[ \t]++)?(?:(?P<copy>cop(?:y|ies))(?:[ \t]++(?:tests?|runs?))?|tests?)$")
_NUMERIC_LABEL = re.compile(r"^\d[\d/x:.,+-]{0,15}$")  # `1/1`, `4x8`, `16:100`
_UTIL_HEAD = re.compile(r"^(?:cpu|%\s?cpu|cpu\s?%|cpu\s?util\w*|util(?:i[sz]ation)?\s?%?|%\s?util|%usr|%sys)$", re.I)
_UNIT_SAID = re.compile(r"(?i)\bunits?[ \t]*+:")  # `Unit: MB / (s * J)`: a head saying what its figures count in
_HEAD_UNIT = re.compile(r"\(([^()]{1,20})\)\s*+$")
# the head of a column of names that are the systems (`NAME`, `Kernel`, `Config`)
_SYSTEM_HEAD = re.compile(r"^(?:names?|config(?:uration)?s?|kernels?|systems?|setups?|fs|file ?systems?|devices?"
                          r"|vms?|guests?|hosts?|drivers?|backends?|targets?)$", re.I)
_BASELINE_KEY = re.compile(r"(?i)^(?:base(?:line)?|vanilla|stock|unpatched|default|original|mainline)$")
_SYSTEM_WORD = re.compile(
    r"^(?:before|after|base(?:line)?|patch(?:ed|es|set)?|unpatched|vanilla|stock|default|orig(?:inal)?|old|new"
    r"|mainline|upstream|tip|(?:net-|linux-)?next|host|guest|native|bare[- ]?metal|dom0|domu|(?:un)?modified"
    r"|(?:native|stock|vanilla|patched|(?:un)?modified|upstream|mainline|default|base(?:line)?)[ \t]++kernel"
    r"|(?:vm|kvm|xen|qemu|lxc|docker)(?:[ +/-]{1,3}+[\w./+-]{1,20}+){0,3}+"  # `KVM upstream`, `KVM trunk+paravirt/cr3`
    r"|with(?:out)?\b[^:]{0,60}+|w/o?\b[^:]{0,60}+|\+\s*+patch[^:]{0,60}+|v?\d++\.\d++[\w.+-]*+|linux[\w.+-]*+"
    r"|\d\.\d++[\w.+-]*+)(?:[ \t]++#\d{1,3}+)?\s*+:?$", re.I)  # (`after #1`: after the first patch)
# a word or release that names a configuration inside a longer label (`Baseline v4.10.0`, `This patch`)
_NAMES_SYSTEM = re.compile(r"(?i)(?<![\w.])(?:v?\d{1,2}\.\d{1,2}(?:\.\d{1,3})?(?:-rc\d{1,2})?(?![\w.])|baseline|base|vanilla"
                           r"|stock|upstream|mainline|current|patch(?:ed|set)?|unpatched|before|after|with(?:out)?"
                           r"|orig(?:inal)?)\b")
_BULLETED = re.compile(r"^[-*•][ \t]++")
_WORDS = re.compile(r"[\s_/=:()-]+")
RATIO_UNIT = re.compile(r"[\[(][^\[\]()\n]{0,30}/[ \t]*+\(")  # `[Mbps / (%CPU_Host + ...)]`
_SIZE = re.compile(r"^\d+(?:\.\d+)?\s*[kKmMgG]?(?:i?[bB])?$")


@dataclass(slots=True)
class TableValue:
    """One number of a table, with what its row and column say about it."""

    line: int  # index into the block's lines
    value: float
    unit: str | None
    system: str | None
    label: str | None  # metric label as printed (None: the table names none)
    params: dict[str, str] = field(default_factory=dict)
    statistic: str = "value"
    change: bool = False
    col: int = -1  # value column (0-based), when the table has no header to name it
    row: str = ""  # the row's label as printed


@dataclass(slots=True)
class Table:
    """A table read from lines[start:end] of a block."""

    start: int
    end: int
    kind: str  # whitespace | pipe | box | grid
    header: list[str]
    labels: list[str]  # row labels
    values: list[TableValue]
    caption: str | None = None
    unit: str | None = None
    orientation: str = ""  # rows=metrics | rows=systems | rows=params
    change: bool = False
    note: str = ""
    baseline: str | None = None  # the column every change is measured against, when printed
    normalised: bool = False  # values are ratios to a column of 1.00 (or 100): they have no unit
    group: dict[str, str] = field(default_factory=dict)  # `group=8` over the rows: what they ran at
    series: str | None = None  # mmtests' rows (`Hmean  64 ...`): the name given to the count each row ran at

    def all_labels(self) -> list[str]:
        return [*self.header, *self.labels]


_INTERVAL = re.compile(rf"^{INTERVAL}$")  # `63.55, [63.04, 64.05]`: a mean, then its interval


def _pipe_cells(line: str) -> list[Cell] | None:
    """`| a | b |` or `a | b` (box and grid rows too) as cells; None for a separator line."""
    if RULE.match(line):
        return None
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|"):
        body = body[:-1]
    out: list[Cell] = []
    pos = line.find(body) if body else 0
    for part in body.split("|"):
        text = part.strip()
        start = pos + (len(part) - len(part.lstrip()))
        pos += len(part) + 1
        if not text or text == "~":  # `| ~ |`: about the same, no figure
            out.append(Cell(text, start, start + len(text), "miss"))
            continue
        inner = cells(text)
        nums = [c for c in inner if c.kind in ("abs", "chg")]
        if len(nums) == 1 and inner[0] is nums[0] and len(inner) == 1 or nums and inner[0] is nums[0] and all(
                c.kind != "label" or unit(c.text) or _INTERVAL.match(c.text) for c in inner[1:]):
            c = nums[0]
            out.append(Cell(c.text, start, start + len(text), c.kind, c.value, c.unit))
        else:
            out.append(Cell(text, start, start + len(text), "label"))
    return out


def is_pipe_block(lines: list[str]) -> bool:
    rows = [ln for ln in lines if not RULE.match(ln)
            and (ln.count("|") >= 2 or (ln.count("|") == 1 and not ln.strip().startswith("|")))]
    return len(rows) >= 2 and len(rows) * 2 >= len([ln for ln in lines if ln.strip() and not RULE.match(ln)])


def _pipe_parts(lines: list[str], rules: bool = True) -> tuple[list[list[str] | None], int] | None:
    """Each line cut at its pipes (None for a line without one, or a rule when `rules` is false),
    and the one number of parts they all have; None when the pipes are ragged."""
    split = [ln.split("|") if "|" in ln and (rules or not RULE.match(ln)) else None for ln in lines]
    widths = {len(p) for p in split if p is not None}
    return (split, widths.pop()) if len(widths) == 1 else None


def join_grid_heads(lines: list[str]) -> list[str]:
    """A box table's heads written over two lines or more between two rules (`| IRQ   |` over
    `| test  |`, reST grid tables): one head a column, its words joined (each line read alone was a row
    of labels, then a row of half-heads). A title boxed over the heads (`| TBench (Performance Per
    Watt) |`, one cell between the first two rules) is passed over: the heads are in the next box."""
    rules = [k for k, ln in enumerate(lines) if ln.lstrip().startswith("+") and RULE.match(ln)]
    for top, bottom in zip(rules, rules[1:], strict=False):
        group = range(top + 1, bottom)
        parts = [lines[k].split("|") for k in group]
        if parts and all(len(p) <= 3 for p in parts):
            continue  # one cell: the table's title
        if not parts or len({len(p) for p in parts}) != 1 or any(
                read_number(cell.strip()) is not None for p in parts for cell in p[1:-1]):
            return lines  # ragged, or figures in it: rows, not heads
        if len(parts) < 2:
            return lines  # heads on one line: nothing to join
        joined = [" ".join(p[j].strip() for p in parts if p[j].strip()) for j in range(len(parts[0]))]
        out = list(lines)
        out[group[0]] = "|".join([parts[0][0], *(f" {cell} " for cell in joined[1:-1]), parts[0][-1]])
        for k in group[1:]:
            out[k] = lines[top]  # (the lines joined stand as rules, so the rows keep their places)
        return out
    return lines


# `-- randread tests -|-------|`: a section's caption set in a pipe table's first column, a rule after
_SECTION_PIPE_ROW = re.compile(r"^[\s-]*+[A-Za-z][^|]{0,60}+\|[\s|-]*+$")


def _pipes(line: str) -> list[int]:
    return [k for k, ch in enumerate(line) if ch == "|"]


_FLAG = re.compile(r"^[A-Za-z]{1,2}$")  # `Y`, `N`, `on`: a switch's setting
_RULE_CHARS = frozenset("-=_+~")


def split_flag_columns(lines: list[str]) -> list[str]:
    """Switches one blank apart under heads one blank apart (`O S W bs` over `N N Y 4K`, each
    letter a column of its own): every such gap is widened to two blanks in every line of the
    table's paragraph (a rule's character repeated), so that each switch reads as a column and the columns
    right of it keep their places under the heads and the group names above."""
    for h, head in enumerate(lines):
        rows = []
        for ln in lines[h + 1:]:
            if not ln.strip():
                break
            if not RULE.match(ln):
                rows.append(ln)
        if len(rows) < 2:
            continue
        hw = words(head)
        if len(hw) < 3 or any(read_number(w.text) is not None for w in hw):
            continue
        gaps = [a.end for a, b in zip(hw, hw[1:], strict=False)
                if b.start == a.end + 1 and len(a.text) <= 4 and len(b.text) <= 4
                and all(_flag_gap(ln, a.end) for ln in rows)]
        if not gaps:
            continue
        top = h
        while top > 0 and lines[top - 1].strip():
            top -= 1  # the group names over the heads move with them
        bottom = h + 1
        while bottom < len(lines) and lines[bottom].strip():
            bottom += 1
        out: list[str] = lines[:top]
        for ln in lines[top:bottom]:
            for g in reversed(gaps):
                if len(ln) <= g or ln[g] == " ":
                    ln = ln[:g] + " " + ln[g:]
                elif ln[g] in _RULE_CHARS:
                    ln = ln[:g] + ln[g] + ln[g:]
                else:
                    return lines  # a line of text across the gap: not a table of switches
            out.append(ln)
        return out + lines[bottom:]
    return lines


def _flag_gap(line: str, g: int) -> bool:
    """A single blank at g between two short words of a row, one of them a switch's letter."""
    if len(line) <= g + 1 or line[g] != " " or line[g - 1] == " " or line[g + 1] == " ":
        return False
    left = line[:g].rsplit(None, 1)[-1]
    right = line[g + 1:].split(None, 1)[0]
    return len(left) <= 4 and len(right) <= 4 and bool(_FLAG.match(left) or _FLAG.match(right))


def span_pipe_heads(lines: list[str]) -> list[str]:
    """Heads over a pipe table set on several lines, an upper one spanning columns (`| master |
    with this series applied |` over `| 143c2e0 | maxbatch=8 | maxbatch=16 |` over `| 1q | 4qs |
    1q | 4qs |`): one head line, each column's head the words of every head line over its middle
    (a line cut otherwise than the rows was read as a row of labels, the columns left unnamed)."""
    d = next((k for k, ln in enumerate(lines) if "|" in ln and not RULE.match(ln)
              and sum(read_number(p.strip()) is not None for p in ln.split("|")) >= 2), None)
    if d is None:
        return lines
    cuts = _pipes(lines[d])
    heads: list[int] = []
    for k in range(d - 1, max(-1, d - 7), -1):
        ln = lines[k]
        if RULE.match(ln) or (not heads and _SECTION_PIPE_ROW.match(ln)):
            continue
        if "|" not in ln or len(heads) == 4 or any(read_number(p.strip()) is not None for p in ln.split("|")):
            break
        heads.insert(0, k)
    if len(heads) < 2 or _pipes(lines[heads[-1]]) != cuts or all(_pipes(lines[k]) == cuts for k in heads):
        return lines
    spans = [(-1, cuts[0]), *zip(cuts, cuts[1:], strict=False)]
    joined: list[str] = []
    for a, b in spans:
        centre = (a + b) / 2
        words: list[str] = []
        for k in heads:
            bounds = [-1, *_pipes(lines[k]), len(lines[k])]
            for lo, hi in zip(bounds, bounds[1:], strict=False):
                if lo < centre < hi and (text := lines[k][lo + 1:hi].strip()) and text not in words:
                    words.append(text)
        joined.append(" ".join(words))
    out = list(lines)
    for k in (*heads, *range(heads[-1] + 1, d)):  # (a section's caption between heads and rows too)
        out[k] = "-" * len(lines[k].rstrip())  # (the lines joined stand as rules, so the rows keep their places)
    out[d - 1] = joined[0] + "".join(f"| {w} " for w in joined[1:]) + "|"
    return out


_GROUP_HEADS = frozenset({"benchmark", "benchmarks", "test", "tests", "workload", "workloads", "suite"})
_METRIC_COLUMN = re.compile(r"^(?:metrics?|units?|measure)$", re.I)


def metric_column_first(lines: list[str]) -> list[str]:
    """A last column headed `metric` (`workload | base | opt | metric` over `sysbench | 63.55 | 64.36 |
    avg latency`) names what each row measured: moved next to the row's label, so that the row ends
    in its values."""
    grid = _pipe_parts(lines)
    if grid is None:
        return lines
    split, width = grid
    rows = [p for p in split if p is not None and not RULE.match("|".join(p))]
    if width < 4 or len(rows) < 3 or not _METRIC_COLUMN.match(rows[0][-1].strip()) or not all(
            p[-1].strip() and read_number(p[-1].strip()) is None and len(p[-1].split()) <= 4 for p in rows[1:]):
        return lines
    return [ln if p is None or RULE.match(ln) else "|".join([f"{p[0].rstrip()} {p[-1].strip()}  ", *p[1:-1]])
            for ln, p in zip(lines, split, strict=True)]


def drop_text_columns(lines: list[str]) -> list[str]:
    """A pipe table's columns right of its last number column (`| note |`, `| better |`) are
    remarks: cut out, so each row ends in its values."""
    grid = _pipe_parts(lines)
    if grid is None:
        return lines  # ragged pipes: not one grid of columns
    split, width = grid
    numeric = [False] * width
    for parts in split:
        if parts is None or RULE.match("|".join(parts)):
            continue
        for j, part in enumerate(parts):
            text = part.strip()
            if text and any(c.kind in ("abs", "chg") for c in cells(text)[:1]):
                numeric[j] = True
    if True not in numeric:
        return lines
    last = width - 1 - numeric[::-1].index(True)
    drop = set(range(last + 1, width - 1))  # the part after the last pipe stays
    if not drop:
        return lines
    return [ln if parts is None else "|".join(p for j, p in enumerate(parts) if j not in drop)
            for ln, parts in zip(lines, split, strict=True)]


# `Latency (ms), after-patch, origial` over `avg avg: 2133.51, 2150.97`: heads and rows set apart
# by commas (a label's colon too), as people type a small table inline
_COMMA_HEAD = re.compile(r"^[ \t]*+(?P<cells>[A-Za-z(][^,\d\n]{0,40}+(?:,[ \t]*+[^,\n]{1,40}+){2,5}+)[ \t]*+$")
_COMMA_ROW = re.compile(r"^[ \t]*+(?P<label>[A-Za-z][^,:\n]{0,40}+)[:,][ \t]*+"
                        r"(?P<values>[-+]?\d[\d.]{0,20}+[A-Za-z%/]{0,8}+(?:,[ \t]*+[-+]?\d[\d.]{0,20}+[A-Za-z%/]{0,8}+){1,4}+)"
                        r"[ \t]*+$")


_LETTER = re.compile(r"[A-Za-z]")


def comma_columns(lines: list[str]) -> list[str]:
    """A small table typed with commas, as columns the table reader reads: a line of heads, then two
    or more rows each a label and one value per head after the first (`avg min: 21.9629, 20.9413`)."""
    out = list(lines)
    for h, line in enumerate(lines):
        m = _COMMA_HEAD.match(line) if "," in line and len(line) <= 300 else None
        if m is None:
            continue
        heads = [c.strip() for c in m["cells"].split(",")]
        if not all(_LETTER.search(c) for c in heads):
            continue  # `syscall ,0.1644,35.0321`: a row, not heads
        rows: list[tuple[str, list[str]]] = []
        for k in range(h + 1, len(lines)):
            r = _COMMA_ROW.match(lines[k]) if len(lines[k]) <= 300 else None
            if r is None:
                break
            values = [v.strip() for v in r["values"].split(",")]
            if len(values) != len(heads) - 1:
                break
            rows.append((r["label"].strip(), values))
        if len(rows) < 2:
            continue
        grid = [heads, *([label, *values] for label, values in rows)]
        widths = [max(len(row[j]) for row in grid) for j in range(len(heads))]
        for k, row in enumerate(grid):
            out[h + k] = "   ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
    return out


# a row's last cell a link to the run's page (`linux-2.5.30   55.0   -4.8   http://khack.osdl.org/stp/4089/`)
_LINK_TAIL = re.compile(r"(?<![ \t])[ \t]++(?:https?://|www\.)[^\s|]{1,300}+[ \t]*+$")
# the link column's head (`URL`, `Link`, `Results`) at the end of the header line
_LINK_HEAD = re.compile(r"(?<![ \t])[ \t]++(?i:urls?|links?|results?|details|reports?)[ \t]*+$")


def _ends_in_figure(text: str) -> bool:
    """A label, then values, the last a figure or a missing mark (`linux-2.5.28   57.8   N/A`)."""
    tokens = text.split()
    return len(tokens) >= 2 and (read_number(tokens[-1]) is not None or tokens[-1].lower() in MISSING)


def drop_link_column(lines: list[str]) -> list[str]:
    """An aligned table whose rows end in a link to each run's page: the links, and the head over
    them, cut out, so that each row ends in its values."""
    tails = [_LINK_TAIL.search(ln) if "://" in ln or "www." in ln else None for ln in lines]
    linked = [k for k, m in enumerate(tails) if m and _ends_in_figure(lines[k][:m.start()])]
    if len(linked) < 2:
        return lines
    out = list(lines)
    for k in linked:
        out[k] = lines[k][:tails[k].start()]
    at = min(tails[k].start() for k in linked)
    for k in range(linked[0] - 3 if linked[0] >= 3 else 0, linked[-1] + 1):
        if RULE.match(out[k]) and len(out[k]) > at:
            out[k] = out[k][:at].rstrip()  # the rule's run under the links
    for k in range(linked[0] - 1, max(-1, linked[0] - 4), -1):
        head = _LINK_HEAD.search(out[k])
        if head and abs(head.start() - at) <= 4 and not RULE.match(out[k]):
            out[k] = out[k][:head.start()]
            break
    return out


# `5.43 (0.00 pct)   6.60 (-21.54 pct)    * [Machine is overloaded ...]`: a remark on a row after its
# figures, in brackets, maybe after a marker
_ROW_REMARK = re.compile(r"(?<![ \t])[ \t]{2,}+(?:\*[ \t]++)?+\[(?=[^\[\]]{0,30}?[A-Za-z])[^\[\]]{2,100}+\][ \t]*+$")


_FIGURE_ASIDE_END = re.compile(r"\d[^()\d]{0,12}+\)$")  # `6.60 (-21.54 pct)`: a figure's change in parentheses


def drop_row_remarks(lines: list[str]) -> list[str]:
    """Rows ending in a remark in brackets (`[Verification Run]`) after their figures: the remark cut,
    so that each row ends in its values."""
    tails = [_ROW_REMARK.search(ln) if "]" in ln else None for ln in lines]
    marked = [k for k, m in enumerate(tails) if m and (_ends_in_figure(head := lines[k][:m.start()].rstrip(" \t*"))
                                                       or _FIGURE_ASIDE_END.search(head))]
    if not marked:
        return lines
    out = list(lines)
    for k in marked:
        out[k] = lines[k][:tails[k].start()].rstrip()
    return out


# `30898KB/s,7724,555.00us`: several figures of one run in one cell, each with its own unit or none
_FIGURE_LIST = re.compile(r"^[ \t]*+\d[\d.]{0,15}+[A-Za-z/%µ]{0,8}+(?:[ \t]*+,[ \t]*+\d[\d.]{0,15}+[A-Za-z/%µ]{0,8}+){1,5}+[ \t]*+$")


_UNIT_LETTER = re.compile(r"\d[A-Za-z/%µ]")  # a figure's unit: no thousands separator (`848,362`) has one


def split_figure_lists(lines: list[str]) -> list[str]:
    """A pipe table whose every row holds, in one column, a list of figures with their units
    (`| 30898KB/s,7724,555.00us |` under `| READ |`): that column cut into one per figure, its head
    repeated over each, so that each figure is read under its head with its unit."""
    grid = _pipe_parts(lines, rules=False)
    if grid is None:
        return lines
    split, width = grid
    listed: dict[int, int] = {}  # column -> figures per cell
    for j in range(width):
        counts = {len(p[j].split(",")) for p in split if p is not None and _FIGURE_LIST.match(p[j])}
        data = [p for p in split if p is not None
                and (_FIGURE_LIST.match(p[j]) or any(c.kind in ("abs", "chg") for c in cells(p[j])))]
        if len(counts) == 1 and data and all(_FIGURE_LIST.match(p[j]) and _UNIT_LETTER.search(p[j]) for p in data):
            listed[j] = counts.pop()
    if not listed:
        return lines
    out: list[str] = []
    for ln, parts in zip(lines, split, strict=True):
        if parts is None:
            out.append(ln)
            continue
        new: list[str] = []
        for j, part in enumerate(parts):
            if j not in listed:
                new.append(part)
            elif _FIGURE_LIST.match(part):
                new.extend(f" {x.strip()} " for x in part.split(","))
            else:
                new.extend([part] * listed[j])  # the head over the list, over each of its figures
        out.append("|".join(new))
    return out


def _grid(lines: list[str], pipe: bool) -> list[list[Cell] | None]:
    grid = [(_pipe_cells(ln) if pipe else (None if RULE.match(ln) else cells(ln))) if ln.strip() else None
            for ln in lines]
    return _text_columns(_groups_filled(grid)) if pipe else _keyed_labels(lines, _labels_first(lines, grid))


def _groups_filled(grid: list[list[Cell] | None]) -> list[list[Cell] | None]:
    """A box table's first column naming a group once, blank on the rows under it up to the next
    rule (`| mmtests/kernbench | real time |` over `|   | system time |`): each row of the group
    is named by it, as if the cell were written on every row."""
    out = list(grid)
    name: Cell | None = None
    for k, row in enumerate(grid):
        if row is None:
            name = None  # a rule or a blank line ends the group
            continue
        first = row[0]
        if first.kind == "label" and len(row) >= 3 and row[1].kind == "label":
            name = first
        elif name is not None and first.kind == "miss" and not first.text and len(row) >= 3 \
                and row[1].kind == "label" and len(row) == len(out[k - 1] or ()):
            out[k] = [Cell(name.text, first.start, first.start + len(name.text), "label"), *row[1:]]
        else:
            name = None
    return out


def _text_columns(grid: list[list[Cell] | None]) -> list[list[Cell] | None]:
    """A pipe table's column of names with a number among them (`| nginx | 200 |` over `| hackbench
    | 8 - Process |`, then a value column) holds names only: its number is one of them, not a value."""
    rows = [row for row in grid if row is not None]
    if len(rows) < 3 or len({len(row) for row in rows}) != 1:
        return grid
    body = rows[1:]  # under the head row
    numeric = [sum(row[j].kind in ("abs", "chg") for row in body) for j in range(len(rows[0]))]
    named = [sum(row[j].kind == "label" for row in body) for j in range(len(rows[0]))]
    text = {j for j in range(len(numeric)) if 0 < numeric[j] < named[j]
            and any(numeric[k] == len(body) for k in range(j + 1, len(numeric)))}
    if not text:
        return grid
    return [None if row is None else [Cell(c.text, c.start, c.end, "label") if j in text and c.kind != "miss" else c
                                      for j, c in enumerate(row)] for row in grid]


def _keyed_labels(lines: list[str], grid: list[list[Cell] | None]) -> list[list[Cell] | None]:
    """`Thermal Pressure PELT Algo. Decay : 32 ms      13.29   0.56%` under `No Thermal Pressure
    14.03   2.69%`: a setting's value glued to the label by its colon is part of the label when the
    values of a neighbouring row start where this row's next value does."""
    out = list(grid)
    for i, row in enumerate(grid):
        if row is None or len(row) < 3 or row[0].kind != "label" or not row[0].text.endswith((":", "=")) \
                or row[1].kind != "abs" or row[1].start - row[0].end > 1 or row[2].kind not in ("abs", "chg") \
                or row[2].start - row[1].end < 3:
            continue
        col = row[2].start
        if any(other is not None and len(other) >= 2 and other[0].kind == "label" and not other[0].text.endswith(":")
               and other[1].kind == "abs" and abs(other[1].start - col) <= 2
               for other in grid[max(0, i - 10):i + 10]):
            out[i] = [Cell(lines[i][row[0].start:row[1].end], row[0].start, row[1].end, "label"), *row[2:]]
    return out


def _label_last(row: list[Cell] | None) -> bool:
    return bool(row and len(row) >= 3 and row[-1].kind == "label" and row[0].kind == "abs"
                and all(c.kind in ("abs", "chg", "miss") for c in row[:-1]))


def _labels_first(lines: list[str], grid: list[list[Cell] | None]) -> list[list[Cell] | None]:
    """Rows that print their label after the values (`54.39  +0.6%  54.73  xfs-10dd-4k`, the way
    writeback and robot comparisons name each case) read as if it came first: two or more such
    rows under heads that stand over the values only (a head over the labels too, `text data bss
    dec hex filename`, is a tool's listing). The cells keep their columns, so the heads still fit."""
    out = list(grid)
    i, n = 0, len(grid)
    last_turned = -2  # the last row turned so far
    while i < n:
        if not _label_last(grid[i]):
            i += 1
            continue
        j = i
        while j < n and (_label_last(grid[j]) or lines[j] == JOINED):
            j += 1  # (the line a mailer broke a row onto, joined to it again, stands between)
        h = i - 1
        while h >= 0 and grid[h] is None and lines[h].strip():
            h -= 1  # separator lines
        heads = grid[h] if h >= 0 else None
        turned = [k for k in range(i, j) if lines[k] != JOINED]
        first_label = min(grid[k][-1].start for k in turned)  # type: ignore[index]
        # the next group of the same rows, a blank line below the last one turned (each group of
        # thresholds, then the `TOTAL write_bw` row, under the heads written once)
        # (a note of one line may stand between: `note: the above 8G cases run on another test box!`)
        continued = i - 3 <= last_turned <= i - 2 and not lines[i - 1].strip() \
            and aligned(lines[last_turned], lines[i])
        absolute = {sum(c.kind == "abs" for c in grid[k]) for k in turned}  # type: ignore[union-attr]
        if continued or len(turned) >= 2 and heads and all(c.kind == "label" for c in heads) \
                and (all(c.end < first_label for c in heads) or absolute == {len(heads)}
                     or absolute == {len(words(lines[h]))}):
            # (heads wider than their columns, one over each absolute value: `<release>+  <release>+`,
            # also one blank apart when the spacing was lost)
            for k in turned:
                row = grid[k]
                out[k] = [row[-1], *row[:-1]]  # type: ignore[index]
            last_turned = turned[-1]
        i = j
    return out


_NOTE = re.compile(r"^[a-z][a-z-]{2,15}$")


def _values_tail(row: list[Cell]) -> tuple[list[Cell], list[Cell]]:
    """(label cells, value cells): value cells are the trailing numbers, missing marks and changes."""
    k = len(row)
    if k >= 3 and row[-1].kind == "label" and row[-2].kind == "abs" and row[-3].kind in ("abs", "chg") \
            and _is_param_name(row[-1].text):
        k -= 2  # `... 179.243 MB/sec 16 procs`: a parameter typed after the values
    elif k >= 2 and row[-1].kind == "label" and row[-2].kind in ("abs", "chg") and _NOTE.match(row[-1].text) \
            and row[-1].start - row[-2].end <= 2 and not _is_param_name(row[-1].text):
        lab, vals = _trailing(row, k - 1)
        if lab and all(c.kind == "label" for c in lab):
            return lab, vals  # `2.5.59-mm2   841.02 badrun`, `~10x speedup`: a word of comment after a value
    return _trailing(row, k)


def _trailing(row: list[Cell], end: int) -> tuple[list[Cell], list[Cell]]:
    k = end
    while k > 0 and row[k - 1].kind in ("abs", "chg", "miss"):
        k -= 1
    return row[:k], row[k:end]


def _tail_param(row: list[Cell]) -> dict[str, str]:
    if len(row) >= 3 and row[-1].kind == "label" and row[-2].kind == "abs" and row[-3].kind in ("abs", "chg") \
            and _is_param_name(row[-1].text):
        return {norm(row[-1].text): row[-2].text}
    return {}


def _header_cells(line: str, n: int, pipe: bool, vals: list[Cell] | None = None) -> list[Cell]:
    if pipe:
        return [c for c in (_pipe_cells(line) or [])]
    wide = split_wide(line)
    if vals and len(wide) < n + 1 and (regrouped := _regrouped(line, wide, vals)) is not None:
        return regrouped
    if vals and len(wide) == n - 1 >= 2 and (lead := param_lead(wide[0])) is not None:
        return [*lead, *wide[1:]]  # `pkt_size before opt   p 1   p 2+3`: the rows' parameter, one blank, a head
    if len(wide) in (n, n + 1) or len(wide) >= 3:
        return wide
    if vals and len(wide) == n - 1 >= 1 and vals[-1].kind == "chg" and all(c.kind == "abs" for c in vals[:-1]):
        return wide  # `origin    ng + cling` over two values and a change without a head
    narrow = words(line)
    if len(narrow) in (n, n + 1):
        return narrow
    if len(narrow) == 1 and n >= 2 and (parts := _glued_names(narrow[0], n)) is not None:
        return parts
    absolute = [v for v in vals or () if v.kind == "abs"]
    if len(wide) < len(narrow) == len(absolute) >= 2 and len(absolute) < n:
        # `<release>+ <release>+` over `54.39 +0.6% 54.73`, one blank apart (spacing lost): a head over
        # each absolute value, the change between them headless
        return [Cell(w.text, v.start, v.end, "label") for w, v in zip(narrow, absolute, strict=True)]
    return wide


_RULE_RUN = re.compile(r"-{2,}+|={2,}+")


def _ruled_heads(lines: list[str], h: int, n: int) -> list[Cell] | None:
    """`Kernel   Metric Change (%)` over `------- ------ ----------`: a rule of one dash run a column
    under the heads draws the columns; each head is the words over its run (heads one blank apart
    read as one otherwise)."""
    if h + 1 >= len(lines) or not RULE.match(lines[h + 1]) or "|" in lines[h]:
        return None
    runs = list(_RULE_RUN.finditer(lines[h + 1]))
    if len(runs) not in (n, n + 1) or len(runs) < 3 or any(ch not in " -=\t" for ch in lines[h + 1].strip()):
        return None
    return _heads_over(words(lines[h]), [(r.start(), r.end()) for r in runs])


def param_lead(cell: Cell) -> tuple[Cell, Cell] | None:
    """`pkt_size before opt`: a parameter word one blank before the first column's head, split off."""
    word, _, rest = cell.text.partition(" ")
    if not rest or rest[:1] == " " or not _is_param_name(word) or _is_param_name(rest) or read_number(rest) is not None:
        return None
    return Cell(word, cell.start, cell.start + len(word), "label"), Cell(rest, cell.start + len(word) + 1, cell.end, "label")


def _regrouped(line: str, wide: list[Cell], vals: list[Cell]) -> list[Cell] | None:
    """`netperf   cfs +eevdf  vs cfs` over a label column and three of values: a corner over the
    labels, then heads one blank apart. Each word joins the head of the column it stands over."""
    if len(wide) < 2 or len(vals) < 2 or wide[0].end >= vals[0].start or wide[1].start < vals[0].start - 4:
        return None
    heads = _heads_over([w for w in words(line) if w.start >= wide[1].start], [(v.start, v.end) for v in vals])
    return None if heads is None else [wide[0], *heads]


def _heads_over(line_words: list[Cell], columns: list[tuple[int, int]]) -> list[Cell] | None:
    """One head a column: the words standing over each (start, end) span, joined; None when a word
    stands over no column or over two, or a column has no word."""
    groups: list[list[Cell]] = [[] for _ in columns]
    for w in line_words:
        over = [k for k, (start, end) in enumerate(columns) if w.start < end and start < w.end]
        if len(over) != 1:
            return None
        groups[over[0]].append(w)
    if any(not g for g in groups):
        return None
    return [Cell(" ".join(w.text for w in g), g[0].start, g[-1].end, "label") for g in groups]


def _names_under_heads(lines: list[str], k: int, values: int) -> list[Cell] | None:
    """mmtests' second head line, one name a column a blank apart (or run together: `_unglued`),
    under a line of as many heads (`5.15.0-rc1` x 3): the names, set where their columns are."""
    if k < 1 or not lines[k].strip():
        return None
    upper = split_wide(lines[k - 1])
    n = len(upper)
    if n < 2 or values not in (n, n + 1) or any(read_number(c.text) is not None for c in upper):
        return None
    narrow = words(lines[k])
    if any(read_number(c.text) is not None for c in narrow):
        return None
    return narrow if len(narrow) == n else _unglued(narrow, lines[k - 1], n)


def _glued_names(word: Cell, n: int) -> list[Cell] | None:
    """mmtests prints names too wide for their columns without a blank between them
    (`6_1_base_config6_1_final_config` over two columns): n names, each starting as the first
    does (the longest such start, four characters or more)."""
    text = word.text
    if len(text) > 240:
        return None
    for size in range(len(text) // n, 3, -1):
        at = [k for k in range(0, len(text) - size + 1) if text.startswith(text[:size], k)]
        if len(at) == n and all(b - a >= size for a, b in zip(at, at[1:], strict=False)):
            cuts = [*at, len(text)]
            return [Cell(text[a:b], word.start + a, word.start + b, word.kind) for a, b in zip(cuts, cuts[1:], strict=False)]
    return None


def _unglued(narrow: list[Cell], above: str, n: int) -> list[Cell] | None:
    """mmtests sets each name flush right under its column's release (`5.15.0-rc1` x 3 over
    `vanillasched-scalewakegran-v2r5 sched-moveforward-v1r1`): a name as wide as its column runs
    into the one before it. Each word is cut where a head of the line above ends inside it."""
    ends = [c.end for c in split_wide(above)]
    if len(ends) != n:
        return None
    out: list[Cell] = []
    for w in narrow:
        start = w.start
        for end in ends:
            if start + 3 <= end <= w.end - 3:
                out.append(Cell(w.text[start - w.start:end - w.start], start, end, w.kind))
                start = end
        out.append(Cell(w.text[start - w.start:], start, w.end, w.kind))
    return out if len(out) == n else None


def _by_position(header: list[Cell], vals: list[Cell]) -> list[Cell | None]:
    """The header cell each value sits under (ragged or missing cells): nearest by overlap, then centre."""
    out: list[Cell | None] = []
    for v in vals:
        best, score = None, None
        vc = (v.start + v.end) / 2
        for h in header:
            overlap = min(v.end, h.end) - max(v.start, h.start)
            dist = abs((h.start + h.end) / 2 - vc)
            key = (-(overlap > 0), dist)
            if score is None or key < score:
                best, score = h, key
        out.append(best)
    return out


def row_head(line: str) -> str | None:
    """`threads`, `procs`: one parameter word alone on a line, flush left under a table's heads."""
    text = line.strip()
    return norm(text).strip("#=: ") if text and line[:1] != " " and " " not in text and _is_param_name(text) else None


def _is_param_name(text: str) -> bool:
    """`threads`, `#rings`, `msg size`, `fio jobs` (a parameter word last in a short name)."""
    n = norm(text).strip("()=: ")
    if n in _PARAM_WORDS or n.lstrip("#") in _PARAM_WORDS:
        return True
    words = n.split()
    return 1 < len(words) <= 3 and words[-1] in _PARAM_WORDS and words[-1] not in ("test", "case", "mode", "n")


_CSV_TABLE = re.compile(r"^\s*+\.\. csv-table::\s*+(?P<caption>.*)$")
_CSV_HEADER = re.compile(r"^\s*+:header:\s*+(?P<cells>.*)$")


def _csv_table(lines: list[str]) -> list[Table] | None:
    """A reST `.. csv-table:: caption` with a `:header:` option and comma-separated rows."""
    m = _CSV_TABLE.match(lines[0]) if lines else None
    if not m:
        return None
    header: list[str] = []
    t = Table(start=0, end=len(lines), kind="rest-csv", header=[], labels=[], values=[],
              caption=m.group("caption").strip() or None, orientation="rows=metrics")
    t.unit = unit_in(t.caption) if t.caption else None
    for i, line in enumerate(lines[1:], start=1):
        h = _CSV_HEADER.match(line)
        if h:
            header = [c.strip().strip('"') for c in h.group("cells").split(",")]
            t.header = header
            continue
        if not line.strip() or line.strip().startswith(":"):
            continue
        cells_ = [c.strip().strip('"') for c in line.split(",")]
        if len(cells_) < 2:
            continue
        label = cells_[0]
        t.labels.append(label)
        heads = header[1:] if len(header) == len(cells_) else [None] * (len(cells_) - 1)
        for head, text in zip(heads, cells_[1:], strict=False):
            read = read_number(text) if text else None
            if read is None or read[0] != "abs":
                continue
            system, extra = _system_or_metric(head)
            t.values.append(TableValue(i, read[1], read[2] or t.unit, system, label or extra))
    return [t] if t.values else []


_BRACKETS = re.compile(r"\[[^\[\]]{0,40}\]")


# `91us (-6%)`, `2.8us (~)`: a value and its change against the first column, in brackets after it
_BRACKETED_CHANGE = re.compile(r"\([ \t]*+(?:[-+]?\d{1,6}+(?:\.\d{1,4}+)?[ \t]*+%|~)[ \t]*+\)[ \t]*+$")


def _grouped(lines: list[str]) -> bool:
    """A pipe table whose cells hold several numbers each (a value with its change in brackets is
    one: the change is an aside of the value)."""
    for ln in lines:
        for part in ln.split("|"):
            if sum(1 for c in cells(_BRACKETED_CHANGE.sub("", part)) if c.kind in ("abs", "chg")) >= 2:
                return True
    return False


_SUPERCITE = re.compile(r"^[A-Za-z][\w.-]{0,15}>$")  # `rwhron>`: a quote prefix naming the quoted
_DASHED = re.compile(r"^-{2,}+[ \t]*+(?P<text>[^-\s](?:[^-]|-(?!-)){0,60}+)-{2,}+$")  # `-----Per Char-----`, `--- Create ---`


def with_groups(lines: list[str], h: int, header: list[Cell]) -> list[Cell]:
    """Column heads under group heads drawn with dashes (`---Sequential Output---` over
    `-Per Chr-` over `K/sec %CP`): each head is prefixed with the groups spanning it."""
    groups: list[list[Cell]] = []
    for k in (h - 1, h - 2, h - 3):
        if k < 0 or not lines[k].strip() or len(lines[k]) > 400:
            break
        found = []
        for c in split_wide(lines[k]):
            for part in _DASH_RUNS.finditer(c.text):  # `--Sequential Input- --Random-` in one cell
                m = _DASHED.match(part.group(0))
                if m:
                    found.append(Cell(m.group("text").strip(), c.start + part.start(), c.start + part.end(), "label"))
        if not found:
            break
        groups.insert(0, found)
    if not groups:
        upper = _upper_heads(lines, h, header)
        if upper is None:
            return _repeated_groups(lines, h, header) or header
        if len(upper) == len(header) >= 2 and len({hc.text for hc in header}) == 1:
            # one name under every column (mmtests' `workload-kernbench-max`): the line above names them
            return [Cell(u.text, hc.start, hc.end, hc.kind) for u, hc in zip(upper, header, strict=True)]
        groups = [upper]
    out: list[Cell] = []
    named = 0
    for hc in header:
        centre = (hc.start + hc.end) / 2
        parts = [g.text for line in groups for g in line if g.start <= centre <= g.end]
        named += bool(parts)
        out.append(Cell(" ".join([*parts, hc.text]), hc.start, hc.end, hc.kind) if parts else hc)
    return out if named >= 2 else header


def _repeated_groups(lines: list[str], h: int, header: list[Cell]) -> list[Cell] | None:
    """Heads that repeat in groups (`IOPS  BW  IOPS  BW  IOPS  BW`) under a line naming each group
    (`base   iomap+large folio base+large folio`, one blank or more between names): each head is
    prefixed with the name over its group, the line cut where each group's first head starts."""
    if h < 1 or not lines[h - 1].strip() or len(lines[h - 1]) > 400 or RULE.match(lines[h - 1].strip()):
        return None
    texts = [norm(_without_unit(c.text)) for c in header]  # (`BW` is `BW(M/s)`)
    n = len(texts)
    # the heads' repeating tail (`type  bs` before it head the rows' labels): its period and start
    size, first = next(((k, lead) for lead in range(0, min(6, n - 4) + 1) for k in range(2, (n - lead) // 2 + 1)
                        if (n - lead) % k == 0 and len(set(texts[lead:lead + k])) == k
                        and all(texts[i] == texts[lead + (i - lead) % k] for i in range(lead, n))), (0, 0))
    if not size:
        return None
    above = lines[h - 1]
    starts = [header[i].start for i in range(first, n, size)]
    if above[: starts[0]].strip():
        return None  # words over the row labels: no line of group names
    names: list[str] = []
    for a, b in zip(starts, [*starts[1:], len(above)], strict=True):
        if 0 < a < len(above) and above[a - 1] != " " and above[a] != " ":
            return None  # a name cut in two: the groups do not start where their heads do
        name = above[a:b].strip()
        if not name or not re.search(r"[A-Za-z]", name) or read_number(name) is not None or len(name.split()) > 4:
            return None
        names.append(name)
    # a head written once with its unit (`BW(M/s)`) gives it to the same head without (`BW`)
    with_unit = {texts[first + i]: c.text for i, c in enumerate(header[first:]) if _without_unit(c.text) != c.text}
    return [*header[:first], *(Cell(f"{names[i // size]} {with_unit.get(texts[first + i], c.text)}", c.start, c.end,
                                    c.kind) for i, c in enumerate(header[first:]))]


def _sub_heads(lines: list[str], h: int) -> tuple[int, list[Cell]] | None:
    """A head that names two columns, its second told apart on the line below (`virtio-net + vhost`
    over `TCP_NODELAY` at its right): the heads of the line above, the spanning one split in two
    (`virtio-net + vhost`, `virtio-net + vhost TCP_NODELAY`), and that line's index."""
    below = split_wide(lines[h])
    if h < 1 or not 1 <= len(below) <= 2 or not lines[h - 1].strip() or len(lines[h - 1]) > 400:
        return None
    above = split_wide(lines[h - 1])
    if len(above) < 3 or any(read_number(c.text) is not None or not re.search(r"[A-Za-z]", c.text) for c in above) \
            or any(read_number(c.text) is not None or len(c.text.split()) > 2 for c in below):
        return None
    out = list(above)
    for sub in below:
        over = [k for k, c in enumerate(out) if c.start < sub.start < c.end + 2 and sub.start > c.start]
        if len(over) != 1:
            return None
        head = out[over[0]]
        out[over[0]:over[0] + 1] = [Cell(head.text, head.start, sub.start - 1, head.kind),
                                    Cell(f"{head.text} {sub.text}", sub.start, max(sub.end, head.end), head.kind)]
    return h - 1, out


def _staggered_heads(lines: list[str], h: int, n: int) -> tuple[int, list[Cell]] | None:
    """Heads too wide to stand side by side, set on two lines in turn (`NO_WA_WEIGHT` and
    `NO_SIS_CURRENT` above, `NO_WA_BIAS` and `SIS_CURRENT` below, between them): the heads of both
    lines in the order of their columns, and the upper line's index."""
    if h < 1 or not lines[h - 1].strip() or len(lines[h - 1]) > 400 or RULE.match(lines[h - 1].strip()):
        return None
    above, below = split_wide(lines[h - 1]), split_wide(lines[h])
    cells_ = sorted([(c.start, 0, c) for c in above] + [(c.start, 1, c) for c in below], key=lambda t: t[0])
    if len(above) < 2 or not below or len(cells_) not in (n, n + 1) or any(
            read_number(c.text) is not None or not re.search(r"[A-Za-z]", c.text) or len(c.text.split()) > 2
            for _, _, c in cells_):
        return None
    lines_of = [src for _, src, _ in cells_]
    if lines_of[0] != 0 or any(a == b == 1 for a, b in zip(lines_of, lines_of[1:], strict=False)) \
            or any(x.start + 2 > y.start for (_, _, x), (_, _, y) in zip(cells_, cells_[1:], strict=False)) \
            or any(2 * (min(lo.end, up.end) - max(lo.start, up.start)) >= lo.end - lo.start
                   for lo in below for up in above):
        return None  # the lower line's heads each stand between two upper ones, under none of them
    return h - 1, [c for _, _, c in cells_]


def _continued_heads(lines: list[str], h: int, n: int) -> tuple[int, list[Cell]] | None:
    """Heads set on two lines, the lower one continuing some of the upper ones (`hackbench  tip
    +patch(%gain)` over `20 iterations, 50000 loops  sched/core`): the upper heads, each joined
    with the words under it (`tip sched/core`), and the upper line's index. A cell of the lower
    line under the label column only (`20 iterations, 50000 loops`) is a note on the rows."""
    if h < 1 or not lines[h - 1].strip() or len(lines[h - 1]) > 400 or RULE.match(lines[h - 1].strip()):
        return None
    upper, lower = split_wide(lines[h - 1]), split_wide(lines[h])
    if len(upper) != n + 1 or not 1 <= len(lower) <= n or any(
            read_number(c.text) is not None or not re.search(r"[A-Za-z]", c.text) for c in upper + lower):
        return None
    added: dict[int, str] = {}
    for c in lower:
        over = [k for k, u in enumerate(upper) if c.start < u.end + 1 and u.start < c.end + 1]
        if over == [0] and c.end < upper[1].start:
            continue  # under the label column only
        if len(over) != 1 or over[0] == 0 or over[0] in added or len(c.text.split()) > 2:
            return None
        added[over[0]] = c.text
    if not added:
        return None
    return h - 1, [Cell(f"{u.text} {added[k]}", u.start, u.end, u.kind) if k in added else u
                   for k, u in enumerate(upper)]


def _upper_heads(lines: list[str], h: int, header: list[Cell]) -> list[Cell] | None:
    """A row of words right over the column heads, each over one head (`fork  execve  /bin/sh` over
    `process  process  process`): the first level of a two-line head."""
    if h < 1 or not lines[h - 1].strip() or len(lines[h - 1]) > 400 or RULE.match(lines[h - 1].strip()):
        return None
    upper = split_wide(lines[h - 1])
    if len(upper) == 1 and len(header) >= 2 and (glued := _glued_names(upper[0], len(header))) is not None:
        # (`6_1_base_config6_1_final_config`: mmtests' names run together, one over each head in turn)
        upper = [Cell(g.text, hc.start, hc.end, g.kind) for g, hc in zip(glued, header, strict=True)]
    if not 2 <= len(upper) <= len(header) or any(
            not re.search(r"[A-Za-z]", c.text) or read_number(c.text) is not None or unit(c.text) or unit_in(c.text)
            or len(c.text.split()) > 3 or c.text.startswith("$") for c in upper):  # `$i`: the loop's variable
        return None
    spans = [[hc for hc in header if c.start < hc.end and hc.start < c.end] for c in upper]
    if any(len(over) != 1 for over in spans) or len({id(over[0]) for over in spans}) != len(upper):
        return None  # each word stands over exactly one head, no two over the same one
    return upper


# `Kernel version: report%2.4.19`: a label, a colon and one name; over rows of bare numbers it is the
# caption of the series, not the heads of its columns
_ONE_NAME_CAPTION = re.compile(r"^[^\S\n]*+[A-Za-z][\w ./()-]{0,40}+:[^\S\n]*+[^\s:]{1,40}+[^\S\n]*+$")


_DASH_RUNS = re.compile(r"(?<!-)-{2,}+[ \t]{0,3}+[^-\s](?:[^-]|-(?!-)){0,60}+-{2,}+")  # from a run's first dash


# a line of changes in parentheses under a row of values (`(0.00%)  (-2.21%)  (12.82%)`)
_ASIDE_ROW = re.compile(r"^[ \t]*+(?:\([ \t]*+[-+]?[\d.,]{1,15}+[ \t]*+%[ \t]*+\)[ \t]*+){2,}+$")


def _change_row(row: list[Cell] | None) -> bool:
    """`| %  |  ~  |  2.0  |  8.0 |` under a system's row: the changes of the row above, each under its
    column (derived, no result of its own)."""
    if not row or row[0].kind != "label":
        return False
    lead = row[0].text.strip(" |:")
    return (lead == "%" or bool(CHANGE_HEAD.match(lead))) and len(row) >= 3 \
        and all(c.kind in ("abs", "chg", "miss") for c in row[1:]) and any(c.kind != "miss" for c in row[1:])


def _spread_row(row: list[Cell] | None) -> bool:
    """`std: 7.298%   std: 2.252%`, `diff: -1.295%  diff: 5.356%`: each figure after its own word of
    spread or change, no absolute figure: the row above's asides, one under each of its values."""
    if not row:
        return False
    labels = [c for c in row if c.kind == "label"]
    return len(labels) >= 2 and all(STDEV_HEAD.match(c.text.strip(":")) or CHANGE_HEAD.match(c.text.strip(":"))
                                    for c in labels) and not any(c.kind == "abs" for c in row) \
        and all(c.kind == "chg" for c in row if c.kind != "label")


def read_tables(lines: list[str]) -> list[Table]:
    """Every table in a block of lines (one paragraph of one quote depth)."""
    if any("\t" in ln for ln in lines):
        lines = [ln.expandtabs(8) if "\t" in ln else ln for ln in lines]  # columns as the poster saw them
    csv = _csv_table(lines)
    if csv is not None:
        return csv
    pipe = is_pipe_block(lines)
    if pipe:
        lines = split_figure_lists(drop_text_columns(metric_column_first(span_pipe_heads(join_grid_heads(lines)))))
    md_heads = {k for k in range(len(lines)) if _md_header(lines, k)}  # before any rewriting below
    if pipe and _grouped(lines):
        # `| 1/1  508.5 [0.2%] 2.1% | 504.7 ... |`: groups of sub-columns; read it as an aligned table
        lines = [_BRACKETS.sub(lambda m: " " * len(m.group(0)), ln).replace("|", " ") for ln in lines]
        pipe = False
    if not pipe:
        lines = split_flag_columns(lines)
    grid = _grid(lines, pipe)
    _release_heads(lines, grid)
    if not pipe:
        _worded_heads(lines, grid)
    out: list[Table] = []
    i = 0
    n_lines = len(lines)
    while i < n_lines:
        row = grid[i]
        if row is None:
            i += 1
            continue
        lab, vals = _values_tail(row)
        if not vals or i in md_heads:
            i += 1  # a Markdown header row (`| | count=1024 |` over `|---|`) names columns, holds no data
            continue
        if _group_param(lines, grid, i):
            i += 1
            continue
        # a run of data rows from i
        j = i
        rows: list[int] = []
        while j < n_lines and len(rows) < MAX_ROWS:
            r = grid[j]
            if rows and j <= rows[-1] + 2 and (_ASIDE_ROW.match(lines[j]) or _spread_row(r) or _change_row(r)):
                j += 1  # `(0.00%)  (-2.21%)  (-0.03%)`, `std: 7.298%  std: 2.252%` under a row: asides
                continue
            if r is None:
                if lines[j].strip() and RULE.match(lines[j]):
                    j += 1
                    continue
                if rows and _gap_in_table(lines, grid, rows[-3:], j):
                    j += 1
                    continue
                break
            if not _values_tail(r)[1]:
                if rows and j == rows[-1] + 1 and _note_between(lines, grid, rows[-3:], j):
                    j += 2  # `note: the above 8G cases run on another test box!`, a blank, more rows
                    continue
                break
            rows.append(j)
            j += 1
        table = _table_from(lines, grid, rows, pipe, md_heads)
        if table is not None:
            out.append(table)
        i = max(j, i + 1)
    return out


# `6.6`, `5.10`, `v4.19`: a two-part kernel release as a column head reads like a number
RELEASE_NUMBER = re.compile(r"^v?[2-9]\.\d{1,2}$")


def _release_heads(lines: list[str], grid: list[list[Cell] | None]) -> None:
    """Turn a line of release heads (`jobs   6.6   6.7-rc1`, `   5.10   5.11`) over rows of values
    into a line of labels, in place: its releases are column names, not a first row of data.

    Only at the top of a table (nothing with values right above), with no label in front but a
    parameter's name, and over a row whose values are not releases too."""
    for k, row in enumerate(grid):
        if not row or len(row) < 2:
            continue
        lead = row[0] if row[0].kind == "label" and not RELEASE.match(row[0].text) else None
        heads = row[1:] if lead else row
        if len(heads) < 2 or not all(
                c.kind == "abs" and c.unit is None and RELEASE_NUMBER.match(c.text)
                or c.kind == "label" and RELEASE.match(c.text) for c in heads):
            continue
        if not any(c.kind == "abs" for c in heads):
            continue
        if k > 0 and grid[k - 1] and _values_tail(grid[k - 1])[1]:
            continue  # a row of a table above: data, not heads
        below = next((grid[j] for j in range(k + 1, min(len(grid), k + 3)) if grid[j]), None)
        if below is None:
            continue
        b_lab, b_vals = _values_tail(below)
        # a name in front heads the row labels: a kernel's, or a parameter's over rows of its values
        # (`jobs` over `4`, `16`); over rows labelled with words it is a row label itself (`load 2.5 3.1`)
        if lead is not None and not _SYSTEM_HEAD.match(lead.text.strip(":")) \
                and not (_is_param_name(lead.text) and not b_lab and below[0].kind == "abs"):
            continue
        if len(b_vals) < sum(1 for c in heads if c.kind == "abs") or all(
                c.unit is None and RELEASE_NUMBER.match(c.text) for c in b_vals):
            continue
        grid[k] = [Cell(c.text, c.start, c.end, "label") for c in row]


def _worded_heads(lines: list[str], grid: list[list[Cell] | None]) -> None:
    """Turn a line of heads whose names hold numbers (`kernel   Piped Context Switching   Shell
    Scripts (16)`, `Copy 1024 bufsize`) into a line of labels, in place: set three blanks apart,
    each starting with a word, over a row of as many values as there are heads after the corner
    (and more values than the line itself seems to hold)."""
    for k, row in enumerate(grid[:-1]):
        below = grid[k + 1]
        if not row or not below or all(c.kind == "label" for c in row) or len(lines[k]) > 400 \
                or (k > 0 and grid[k - 1] and _values_tail(grid[k - 1])[1]):
            continue
        wide = split_wide(lines[k])
        b_lab, b_vals = _values_tail(below)
        if len(wide) < 3 or not b_lab or len(b_vals) != len(wide) - 1 or any(c.kind != "abs" for c in b_vals) \
                or not all(c.text[:1].isalpha() and re.search(r"[A-Za-z]{2}", c.text) for c in wide) \
                or len(_values_tail(row)[1]) >= len(b_vals):
            continue
        grid[k] = [Cell(c.text, c.start, c.end, "label") for c in wide]


def _label_cells(line: str, starts: list[int], end: int) -> list[str]:
    """A row's label columns, cut where each head after the first starts, up to its first value."""
    cuts = [*starts, end]
    return [line[a:b] for a, b in zip([0, *cuts[:-1]], cuts, strict=True)]


def _label_columns(lines: list[str], parsed: list[tuple[int, str, list[Cell]]], header: list[Cell],
                   n: int) -> list[TableValue] | None:
    """Rows with two or more label columns under heads of their own (`NAME  I/O Operation
    BW(Read/Write)` over `9p-cache-none  seqread-psync  27(MiB/s)`): the first column names the
    system, each other one a parameter its head names; the heads over the values name them."""
    k = len(header) - n
    if k < 2 or k > 4 or not _SYSTEM_HEAD.match(header[0].text) or any(read_number(c.text) is not None for c in header) \
            or any(CHANGE_HEAD.match(c.text) or STDEV_HEAD.match(c.text) for c in header[k:]):
        return None
    heads = header[:k]
    out: list[TableValue] = []
    for r, _, vals in parsed:
        line = lines[r]
        if not vals or vals[0].start < heads[-1].start or any(h.start > 0 and line[h.start - 1:h.start] != " "
                                                               for h in heads[1:]):
            return None
        labs = [x.strip() for x in _label_cells(line, [h.start for h in heads[1:]], vals[0].start)]
        if not all(labs):
            return None
        params = {norm(h.text): lab for lab, h in zip(labs[1:], heads[1:], strict=True)}
        for c, (v, hd) in enumerate(zip(vals, header[k:], strict=False)):
            if v.kind != "abs" or v.value is None:
                continue
            out.append(TableValue(r, v.value, v.unit, labs[0], hd.text, dict(params), col=c, row=labs[0]))
    return out or None


def _label_heads(lines: list[str], parsed: list[tuple[int, str, list[Cell]]], header: list[Cell],
                     n: int) -> tuple[int, dict[int, tuple[str, ...]]] | None:
    """Label columns under heads of their own over rows of parameters (`case  load
    baseline(std%)  compare%( std%)` over `TCP_RR  56-threads  1.00 ( 1.12)  -0.05 ( 0.97)`;
    switches, `type  O  S  W` over `cache  N  N  Y`): how many, and each row's labels, cut where
    each head after the first starts."""
    first_value = min((v[0].start for _, _, v in parsed if v), default=0)
    k = sum(c.end <= first_value for c in header)  # heads left of every row's first value
    if not (3 <= k <= 6 and n - 2 <= len(header) - k <= n):
        if len(header) != n + 2 or n < 1:
            return None
        k = 2
    heads = header[:k]
    if any(read_number(c.text) is not None or not c.text[:1].isalpha() or len(c.text.split()) > 2 for c in heads) \
            or any(b.start <= a.end for a, b in zip(heads, heads[1:], strict=False)):
        return None
    out: dict[int, tuple[str, ...]] = {}
    for r, _, vals in parsed:
        line = lines[r]
        if not vals or vals[0].start <= heads[-1].start \
                or any(line[c.start - 1:c.start] not in (" ", "\t") for c in heads[1:]):
            return None
        labs = tuple(x.strip(" :|") for x in _label_cells(line, [c.start for c in heads[1:]], vals[0].start))
        if not labs[0] and r - 1 in out and line.lstrip().startswith("|"):
            labs = (out[r - 1][0], *labs[1:])  # a box's group named on its first row only
        if not all(labs) or any(len(x.split()) > 3 for x in labs) \
                or k > 2 and any(read_number(x) is not None for x in labs):
            return None  # (numbers left of the values, `0.843734  md0_raid10  5267`: a trace's columns)
        out[r] = labs
    return k, out


_KEYED_VALUE = re.compile(r":[ \t]*+[-+]?\d")  # `orig: 2.063s`: a key and its value


def _note_between(lines: list[str], grid: list[list[Cell] | None], last: list[int], j: int) -> bool:
    """A remark of a sentence (five words or more) under a group of rows, then a blank line,
    then rows cut into the same columns: the table goes on below its note."""
    if len(lines[j].split()) < 5 or j + 2 >= len(lines) or lines[j + 1].strip() or grid[j + 2] is None:
        return False
    if not _values_tail(grid[j + 2])[1] or sum(w.isalpha() for w in lines[j].split()) < 5:
        return False
    return any(aligned(lines[k], lines[j + 2]) for k in last)


def _gap_in_table(lines: list[str], grid: list[list[Cell] | None], last: list[int], j: int) -> bool:
    """A blank line `j` between groups of one table's rows: the row after it is cut into the same
    columns as the row before it (`9p-cache-none  seqread-psync  27(MiB/s)`, a blank, the next
    operation's rows)."""
    if lines[j].strip() or j + 1 >= len(lines) or grid[j + 1] is None:
        return False
    _, vals = _values_tail(grid[j + 1])  # type: ignore[arg-type]
    if not vals or _KEYED_VALUE.search(lines[j + 1][: vals[0].start]):
        return False  # `orig: 2.063s   with X: 1.833s`: pairs of a summary, each line its own
    return any(aligned(lines[k], lines[j + 1]) for k in last)


_BINARY = {"k": 1024, "M": 1024 ** 2, "G": 1024 ** 3}  # a size column's `1K` after `512`
_REPORT_KEY = re.compile(r"^(?:Statistic|Interpretation)[ \t]*+:")
_UNITS_KEY = re.compile(r"^Units[ \t]*+:[ \t]*+(\S.{0,80})$")
_GROUP_PARAM = re.compile(r"^[A-Za-z][\w.-]{0,30}=[\w.%-]{0,20}\d[\w.%-]{0,20}$")  # `group=8`, `nr_client=50%`


def _group_param(lines: list[str], grid: list[list[Cell] | None], i: int) -> bool:
    """`75%` or `group=8` alone on a line over `base:` / `patch:` rows: what the group below was
    run at (a caption), not a row of its own."""
    row = grid[i]
    if row is None or i + 2 >= len(lines):
        return False
    if _keyed_group(lines[i]) is None:
        if not (len(row) == 1 or _count_of(row)):
            return False
        if len(row) == 1 and row[0].kind == "label" and not _GROUP_PARAM.match(row[0].text):
            return False
    below = [grid[j] for j in (i + 1, i + 2)]
    return all(r is not None and _values_tail(r)[0] and _values_tail(r)[1] for r in below)


# `MTU : 4096+ (4096 bytes of TCP payload, plus TCP/IPv6 headers)`: a parameter, its value, a remark
# (`group=8` alone is `_GROUP_PARAM`'s)
_KEYED_GROUP = re.compile(r"^[ \t]*+(?P<name>[A-Za-z][\w.-]{0,30}+)[ \t]*+:[ \t]*+(?P<val>\d[\w.%+-]{0,20}+)"
                          r"(?:[ \t]++\([^()\n]{0,100}+\))?+[ \t]*+$")
_GROUP_KEYS = frozenset({"mtu"})  # settings a run is made at, named before a colon


def _keyed_group(line: str) -> tuple[str, str] | None:
    """(name, value) of a parameter's line heading the rows below it: a parameter's name, a colon,
    its value and perhaps a remark in brackets."""
    m = _KEYED_GROUP.match(line)
    if m is None:
        return None
    name = norm(m.group("name"))
    if name in _NAMELESS_PARAMS or not (_is_param_name(name) or name in _GROUP_KEYS):
        return None
    return name, m.group("val")


def _count_of(row: list[Cell]) -> bool:
    """`8 threads`, `clients 16`: a whole number and the parameter it counts, alone on a line."""
    if len(row) != 2:
        return False
    num, word = row if row[0].kind == "abs" else row[::-1]
    return num.kind == "abs" and word.kind == "label" and num.value is not None \
        and float(num.value).is_integer() and _is_param_name(word.text)


def _section_caption(lines: list[str], grid: list[list[Cell] | None], k: int) -> str | None:
    """The heading over groups of rows (`netperf/udp_rr on ICL`, then `25%` / `base: ...` /
    `patch: ...`, `50%` / ...): the nearest line above that is no row and no group's parameter."""
    for j in range(k - 1, max(-1, k - 60), -1):
        text = lines[j].strip()
        if not text or RULE.match(text) or _group_param(lines, grid, j):
            continue
        if grid[j] is not None and _values_tail(grid[j])[1]:
            continue
        return text
    return None


# the metric, then the release it ran on in brackets: `File Copy 1024 bufsize 2000 maxblocks[2.5.63]`
_BRACKETED_RELEASE = re.compile(r"^([^\[\]]{2,80}+)\[((?:linux-)?v?\d{1,2}\.\d{1,2}(?:\.\d{1,3})?(?:[-.]\w{1,12})?)\]$")
# a label, set off, then the metric: `No randomization:   Simple syscall`, `randomize_kstack_offset=y   Simple syscall`
_SYSTEM_THEN_METRIC = re.compile(r"^([^:\s][^:]{0,40}):\s{2,}+(\S[^:]{0,60})$|^([A-Za-z][\w.-]{0,40}=[\w.,+-]{1,20})\s{2,}+"
                                 r"([A-Za-z][^:=]{0,60})$")
_CODE = re.compile(r"\(\)|->|;|[{}]|>=|<=|==|&&|\|\||\breturn\b|\bif\b\s")
_SPREAD_ROW = re.compile(r"^(?:stddev|stdev|std|coeffvar|cv|variance|var)\b", re.I)
_SENTENCE = re.compile(r"[a-z]{2}[.!?](?:\s|$)|\b(?:is|are|was|were|the|this|that|with|which)\b.{0,200}?\b(?:is|are|was"
                       r"|were|the|this|that|with|which)\b", re.I)


_MD_RULE = re.compile(r"^\s*+\|?(?:\s*+:?-{3,}+:?\s*+\|)++\s*+(?::?-{3,}+:?\s*+)?$")


def _md_header(lines: list[str], k: int) -> bool:
    """The row right above a Markdown `|---|---|` rule is the table's header."""
    return k + 1 < len(lines) and bool(_MD_RULE.match(lines[k + 1]))


def _header_index(lines: list[str], grid: list[list[Cell] | None], first: int,
                  md_heads: frozenset[int] | set[int] = frozenset()) -> int | None:
    k = first - 1
    while k >= 0 and lines[k].strip() and RULE.match(lines[k]):
        k -= 1
    if k >= 1 and not lines[k].strip() and lines[k - 1].strip() and aligned(lines[k - 1], lines[first]) \
            and not _values_tail(grid[k - 1] or [])[1]:
        k -= 1  # heads over the first group, a blank line between: cut into the rows' columns
    if k >= 2 and not lines[k].strip() and row_head(lines[k - 1]):
        k -= 1
    if k >= 1 and row_head(lines[k]) and lines[k - 1].strip() and not RULE.match(lines[k - 1]) \
            and len(lines[k - 1].split()) >= 2 and not _values_tail(grid[k - 1] or [])[1]:
        k -= 1  # `threads` alone under the heads: the rows' parameter, named on a line of its own
    if k < 0 or not lines[k].strip():
        return None
    if k in md_heads:
        return k
    if _group_param(lines, grid, k):
        return None  # `group=8` over `base:` / `patch:` rows: a caption
    if lines[k].lstrip().startswith('"'):
        return None  # `"mappings`: lmbench's title of the series below, not column heads
    row = grid[k]
    if row is None or "|" not in lines[k] and (len(lines[k].split()) > 14 and len(split_wide(lines[k])) <= 3
                                                 or len(lines[k].split()) >= 6 and _SENTENCE.search(lines[k])):
        return None  # a sentence above the rows is a caption, not a header
    _, vals = _values_tail(row)
    if vals and len(vals) == len(row):
        return None
    _, first_vals = _values_tail(grid[first] or [])
    wide = split_wide(lines[k]) if "|" not in lines[k] else []  # a pipe row's cells are its own
    if len(wide) == 1 and len(wide[0].text) > 40 and _names_under_heads(lines, k, len(first_vals)) is None \
            and not _one_blank_heads(lines[k], len(first_vals)):
        return None  # `MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 ...`: a banner, not a column head
    if len(wide) == 1 and lines[k].rstrip().endswith((":", ":-")) and len(lines[k].split()) >= 2:
        return None  # `The hdparm results:` over the rows: a caption, not a column head
    if "|" not in lines[k] and sum(bool(OPTION.match(w.split("=", 1)[0])) for w in lines[k].split()) >= 2 \
            and benchmarks_in(lines[k]):
        return None  # `RX: taskset -c 2 iperf3 -s -p 5200 -D`: the command that ran, not column heads
    second = grid[first + 1] if first + 1 < len(grid) else None
    if len(first_vals) >= 2 and len(wide) == 1 and wide[0].start < first_vals[0].start \
            and not _values_tail(row)[1] and second is not None and _values_tail(second)[1] \
            and benchmarks_in(wide[0].text) and not _one_blank_heads(lines[k], len(first_vals)):
        return None  # `hackbench -l (2560/#grp) -g #grp` flush left over two columns: a caption
    return k


# `417.26  -5.5%  394.24  TOTAL write_bw` under the cases it sums (writeback comparisons)
_TOTAL_ROW = re.compile(r"^TOTAL[ \t]++(?P<name>[A-Za-z][\w.:/%-]{0,60}+)$")


def _totals(parsed: list[tuple[int, str, list[Cell]]]) -> dict[int, str]:
    """Rows of cases (`NFS-thresh=100M/nfs-10dd-4k-32p-32768M-100M:10-X`) above the `TOTAL write_bw`
    row that sums them measured what it names: row -> that name."""
    out: dict[int, str] = {}
    pending: list[int] = []
    for r, lab, _ in parsed:
        if (m := _TOTAL_ROW.match(lab or "")) is not None:
            out.update(dict.fromkeys(pending, m.group("name")))
            pending = []
        else:
            pending.append(r)
    return out


def _without_end_remark(text: str) -> str:
    """`dbench4 Throughput (misleading but traditional)` -> `dbench4 Throughput`."""
    text = text.rstrip()
    cut = text.rfind("(")
    return text[:cut].rstrip() if text.endswith(")") and cut > 0 and ")" not in text[cut:-1] else text


_UNIT_TAIL = re.compile(r"(?<![ \t])[ \t]*+(?:,[ \t]*+[A-Za-z/%µ]{1,12}+|\([A-Za-z/%µ]{1,12}+\))[ \t]*+:?$")  # `, K/sec:`, `(MB/s)`


def _caption_measure(caption: str | None) -> str | None:
    """`LMbench running times:`: a caption that names what the table's figures measure."""
    text = (caption or "").strip().rstrip(":").strip()
    words = text.split()
    if not words or len(words) > 6 or text.endswith((".", "?", "!")):
        return None
    tail = [" ".join(words[-k:]) for k in (1, 2) if len(words) >= k]
    return text if any(any_metric(x) or x.endswith("s") and any_metric(x[:-1]) for x in tail) else None


def _one_blank_heads(line: str, values: int) -> bool:
    """`Clients: tip SIS_NODE SIS_NODE_LIMIT SIS_NODE_TOPOEXT` over a count and four values: a head a
    word a column, one blank apart (its spacing lost), no banner (a banner's words hold numbers)."""
    narrow = words(line)
    if len(narrow) == 1 and values >= 2 and (glued := _glued_names(narrow[0], values)) is not None:
        narrow = glued  # (`workload-kernbench-maxworkload-kernbench-max`: mmtests' names run together)
    if len(narrow) >= 2 and values in (len(narrow), 2 * len(narrow)) and len({c.text for c in narrow}) == 1:
        return True  # `workload-kernbench-max workload-kernbench-max`: one name over each column (and its change)
    return len(narrow) >= 3 and len(narrow) in (values, values + 1) and not any(
        read_number(c.text.strip("(),:")) is not None or _ADDRESS.search(c.text) or c.text.startswith("/")
        for c in narrow)


_ADDRESS = re.compile(r"\d{1,3}+\.\d{1,3}+\.\d{1,3}+\.\d{1,3}+")  # `0.0.0.0`: a banner's address
_HEDGED = re.compile(rf"(?i)(?<=\s)(?:{HEDGE}|~)\s*+$")


# a tool and its one bare argument, maybe what was measured after (`dbench 32 throughput`, `tbench 8:`)
_TOOL_CALL = re.compile(rf"(?i)^[ \t>]*+(?:{names_pattern()})[ \t]\d{{1,5}}+(?:[ \t]++[A-Za-z][\w/-]{{0,30}}+){{0,3}}+[ \t]*+:?[ \t]*+$")


def _table_from(lines: list[str], grid: list[list[Cell] | None], rows: list[int], pipe: bool,
                md_heads: frozenset[int] | set[int] = frozenset()) -> Table | None:
    if not rows:
        return None
    if len(rows) >= 3 and _TOOL_CALL.match(lines[rows[0]]):
        rows = rows[1:]  # `dbench 32 throughput` over the rows: what ran, a caption, no row of figures
    h = _header_index(lines, grid, rows[0], md_heads)
    parsed: list[tuple[int, str, list[Cell]]] = []
    for r in rows:
        lab, vals = _values_tail(grid[r])  # type: ignore[arg-type]
        label = " ".join(c.text for c in lab).strip(" :|")
        if not pipe and lab and vals and lab[0].start < vals[0].start:
            label = _HEDGED.sub("", lines[r][: vals[0].start]).strip(" :|")  # `scheduler:   about 5630K`
        if label.endswith((" -", "\t-")) and len(label) > 2:
            label = label[:-1].rstrip()  # `v6.15 -    97.3K`: a dash between the label and its value
        parsed.append((r, label, vals))
    transposed = _transposed(parsed)
    if transposed is not None:
        return _read_transposed(lines, rows, parsed, transposed, h)
    counts = Counter(len(v) for _, _, v in parsed)
    n = counts.most_common(1)[0][0]
    if h is None and len(counts) > 1:
        fewest = min(counts)  # `patch:  112470±0.1% +12.2%` under `base:  100216±1.2%`: a change
        if all(c.kind in ("chg", "miss") for _, _, v in parsed for c in v[fewest:]):
            parsed = [(r, lab, v[:fewest]) for r, lab, v in parsed]
            n = fewest
    if any(len(v) > n for _, _, v in parsed) and not any(c.kind == "chg" for _, _, v in parsed if len(v) == n for c in v):
        # `5.73 (   0.00%)  32.03 (-458.86%)` among rows whose changes in parentheses were asides: a
        # change too wide for its blanks is an aside too, not a column the others lack
        parsed = [(r, lab, [c for c in v if c.kind != "chg"] if len(v) > n and sum(c.kind != "chg" for c in v) == n
                   else v) for r, lab, v in parsed]
    if h is not None and not pipe and all(not lab for _, lab, _ in parsed) and _ONE_NAME_CAPTION.match(lines[h]):
        h = None  # `Kernel version: 2.4.19` over rows of numbers names what they ran on: a caption
    if len(rows) < 2 and h is not None and n >= 3 and parsed[0][2][-1].kind == "chg" \
            and parsed[0][2][-2].kind == "abs" and len(_header_cells(lines[h], n - 1, pipe)) == n - 1:
        parsed = [(r, lab, v[:-1]) for r, lab, v in parsed]  # `System time:  1379.91s  1364.22s (-0.11%)`
        n -= 1  # under `Before  After:`: the change after the values has no head of its own
    if len(rows) < 2 and (h is None or n < 2 or len(_header_cells(lines[h], n, pipe)) < n):
        return None  # one row makes a table only under a header naming each of its columns
    named = _names_under_heads(lines, h, n) if h is not None and not pipe and len(split_wide(lines[h])) == 1 else None
    sub = _sub_heads(lines, h) if h is not None and not pipe and named is None else None
    staggered = _staggered_heads(lines, h, n) if h is not None and not pipe and named is None and sub is None else None
    continued = _continued_heads(lines, h, n) if h is not None and not pipe and named is None and sub is None \
        and staggered is None else None
    if named is not None:
        header = named
    elif staggered is not None:
        h, header = staggered
    elif continued is not None:
        h, header = continued
    elif sub is not None:
        h, header = sub
    else:
        widest = next((v for _, _, v in parsed if len(v) == n), None)
        header = (None if pipe or h is None else _ruled_heads(lines, h, n)) \
            or (_header_cells(lines[h], n, pipe, widest) if h is not None else [])
    if header and not pipe and h is not None:
        header = with_groups(lines, h, header)
    caption_lines = [ln.strip() for ln in lines[: (h if h is not None else rows[0])]
                     if ln.strip() and not RULE.match(ln) and not is_shell_syntax(ln)]
    caption = caption_lines[-1] if caption_lines else None
    if caption and _REPORT_KEY.match(caption):
        # a report's key block (`Test : netperf`, `Units : Throughput`, `Statistic : AMean`) over
        # the table: what it measured is the `Units` line, not the statistic right above
        units = next((m.group(1) for ln in reversed(caption_lines[-5:]) if (m := _UNITS_KEY.match(ln))), None)
        caption = units or caption
    group: dict[str, str] = {}
    if h is None and rows[0] > 0 and _group_param(lines, grid, rows[0] - 1):
        text = lines[rows[0] - 1].strip().rstrip(":")
        name, val = _keyed_group(text) or _row_param(text, None) or ("case", text)
        group = {name: val}
        caption = _section_caption(lines, grid, rows[0] - 1)
    named_rows = next((name for j in range(h + 1, rows[0]) if (name := row_head(lines[j]))), None) \
        if h is not None else None
    start = h if h is not None else rows[0]
    t = Table(start=start, end=rows[-1] + 1, kind="pipe" if pipe else "whitespace",
              header=[c.text for c in header], labels=[], values=[], caption=caption, group=group)
    t.unit = unit_in(lines[h]) if h is not None else None
    if t.unit is not None and len({unit_in(c.text) for c in header} - {None}) >= 2:
        t.unit = None  # column heads with units of their own: one column's unit is not all of them
    elif t.unit is not None and len(header) >= 3 and unit_in(header[0].text) != t.unit \
            and 0 < sum(unit_in(c.text) == t.unit for c in header[1:]) < len(header) - 2:
        # `files  /sec  %CPU  Eff`: the unit of a column of its own (`%CPU`), not of the others (a unit
        # in the corner, `MiB/s  fuse  native`, is the table's)
        t.unit = None
    elif t.unit is not None and len(header) >= 2 and all(
            CHANGE_HEAD.match(c.text) for c in header if unit_in(c.text) == t.unit):
        t.unit = None  # `Metric  Change (%)`: the unit of the change column alone
    if t.unit is None and caption and not RATIO_UNIT.search(caption):
        t.unit = unit_in(caption)  # `[Mbps / (%CPU_Host + %CPU_Guest)]` is a ratio: no unit of the values

    corner = _CORNER.match(header[0].text) if header and len(header) in (n, n - 1) and not pipe else None
    if corner and not _is_param_name(corner.group("param")):
        corner = None
    if corner:
        # `Clients: tip-core   mel-v3`: the label column's name, then the first column's system
        header = [Cell(corner.group("name"), header[0].start + corner.start("name"), header[0].end, header[0].kind),
                  *header[1:]]
    if not pipe and (keyed := _label_columns(lines, parsed, header, n)) is not None:
        t.values, t.labels, t.orientation = keyed, [lab for _, lab, _ in parsed], "rows=systems"
        return t

    # does the first value column hold a parameter (sizes, procs, groups) rather than a measurement?
    first_is_param = False
    param_name = norm(corner.group("param")) if corner else named_rows
    label_name: str | None = None  # the label column's head, when it names no parameter
    labels_named: str | None = None  # the parameter the label column's head names (`rw` over `randread`)
    pairs: dict[int, tuple[str, ...]] | None = None  # label columns: each row's labels
    label_pair: tuple[str, ...] = ()  # and their heads
    if all(not lab for _, lab, _ in parsed):
        ints = [v[0].value for _, _, v in parsed if v and v[0].kind == "abs" and v[0].value is not None]
        sizes = [v[0].value * _BINARY.get(v[0].unit or "", 1) for _, _, v in parsed
                 if v and v[0].kind == "abs" and v[0].value is not None]  # `512`, `1K`, `2K`: sizes
        head0 = header[0].text if header else ""
        if n >= 2 and len(ints) == len(parsed) and all(float(x).is_integer() for x in ints) and (
            _is_param_name(head0) or (len(set(sizes)) == len(sizes) >= 2 and len(header) in (n, n - 1, 0))
            or (len(sizes) >= 3 and all(a < b for a, b in zip(sizes, sizes[1:], strict=False))
                and len(header) <= n)  # a head spanning two columns (`virtio-net + vhost` over two)
        ):  # one row under a header of names is one value per name, not a sweep
            first_is_param = True
            param_name = param_name or (norm(head0).strip("#=: ") if header and _is_param_name(head0)
                                        or len(header) == n else "size")
        elif n >= 2 and not header and len(ints) == len(parsed) >= 3 and caption and caption.startswith('"') \
                and all(a < b for a, b in zip(ints, ints[1:], strict=False)):
            first_is_param, param_name = True, "size"  # lmbench's `"mappings` series: sizes, then values
    core = [(r, lab, v) for r, lab, v in parsed if not _SPREAD_ROW.match(lab)]  # `Stddev` rows aside
    same_label = {lab for _, lab, _ in core}
    row_stat: str | None = None  # mmtests' statistic (`Hmean`) written on every row before the size
    if not first_is_param and len(core) >= 3 and len(same_label) == 1 and "" not in same_label and n >= 3:
        # mmtests: `Hmean     64   732.14 (0.00%)   736.90 (0.65%)`: one statistic, then the size or
        # thread count the row was measured at, then one value per system
        ints = [v[0].value for _, _, v in core if v and v[0].kind == "abs" and v[0].value is not None]
        n_abs = Counter(sum(c.kind == "abs" for c in v) for _, _, v in core).most_common(1)[0][0]
        if len(ints) == len(core) and all(float(x).is_integer() for x in ints) \
                and all(a < b for a, b in zip(ints, ints[1:], strict=False)) and len(header) in (n_abs - 1, 0):
            first_is_param = True
            param_name = "size" if min(ints) >= 64 else "instances"
            row_stat = next(iter(same_label))
            t.series = param_name
            parsed = core
    row_stats: dict[int, str] = {}  # a row's own statistic, in reports giving several per size
    if not first_is_param and row_stat is None and len(core) >= 2 and len(same_label) >= 2 and n >= 3 \
            and all(_REPORT_STAT.match(lab) for lab in same_label):
        # mmtests: `Min 256 23.55 (0.00%) 23.19 (1.53%)`, then `Amean 256 ...`, `Max 256 ...`: a
        # statistic, the size or count it was measured at, one value per system
        ints = [v[0].value for _, _, v in core if v and v[0].kind == "abs" and v[0].value is not None]
        n_abs = Counter(sum(c.kind == "abs" for c in v) for _, _, v in core).most_common(1)[0][0]
        if len(ints) == len(core) and all(float(x).is_integer() for x in ints) and len(header) in (n_abs - 1, 0):
            first_is_param = True
            param_name = "size" if min(ints) >= 64 else "instances"
            row_stats = {r: lab for r, lab, _ in core}
            t.series = param_name
            parsed = core
    runs_under_units = bool(header) and len(header) == n and len(parsed) <= 12 \
        and all(unit_in(c.text) is not None and re.search(r"[A-Za-z]{2}", c.text) for c in header)
    if not first_is_param and len(parsed) > 3 and all(not lab for _, lab, _ in parsed) and not runs_under_units:
        return None  # unlabelled rows of numbers: samples over time (vmstat-like), not results
    if first_is_param:
        first_end = max(v[0].end for _, _, v in parsed)
        if len(header) == 1 and header[0].end <= first_end + 1 and n >= 3 and read_number(header[0].text) is None:
            param_name = norm(header[0].text).strip("#=: ")  # `VQs` over the first column only: its name
        parsed = [(r, v[0].text, v[1:]) for r, _, v in parsed]
        n -= 1
        if header and (len(header) == n + 1 or _is_param_name(header[0].text) or header[0].end <= first_end + 1):
            header = header[1:]
    elif header and (labelled := _label_heads(lines, parsed, header, n)) is not None:
        k, pairs = labelled
        label_pair = tuple(norm(c.text).strip("#=: ") for c in header[:k])
        header = header[k:]
    elif header and (len(header) == n + 1 and header[0].start < min((v[0].start for _, _, v in parsed if v), default=0)
                     or len(header) == n >= 3 and _is_param_name(header[0].text)
                     and all(lab and v and header[0].end < v[0].start and header[1].start <= v[0].end
                             for _, lab, v in parsed)):
        # (`rw  iodepth  numjobs  IOPS  IOPS` over `read  1  1  93K  97K  1.04`: the first head is over
        # the labels, the second over the first value; the last column has no head)
        label_head = header[0]
        header = header[1:]
        if _is_param_name(label_head.text):
            param_name = norm(label_head.text)
            labels_named = _labels_param(param_name)
        else:
            label_name = label_head.text.strip(" :|")
    elif header and len(header) == n >= (2 if header[0].text.endswith(":") else 3) and all(
            v and header[0].end <= v[0].start and v[-1].kind == "chg" for _, lab, v in parsed) \
            and (header[0].text.endswith(":") or not _is_param_name(header[0].text) or all(lab for _, lab, _ in parsed)):
        # `2.6.32-rc5+mmotm-091101   no-patch  this-patch` over rows ending `12.856  ~1.2%`: the first
        # head stands over the row labels (a corner), the last column is a change without a head
        # (`Test:  mel-v4.2`; a parameter's name over labelled rows, `rw` over `randread`, names them)
        if _is_param_name(header[0].text) and not header[0].text.endswith(":"):
            param_name = norm(header[0].text)
            labels_named = _labels_param(param_name)
        else:
            label_name = header[0].text.strip(" :|")
        header = header[1:]
    if n <= 0:
        return None
    if header and len(header) < n:
        # trailing change cells with no header of their own (`+4%` after the two systems)
        extra = n - len(header)
        if all(len(v) >= len(header) and all(c.kind in ("chg", "miss") for c in v[len(header):])
               for _, _, v in parsed):
            parsed = [(r, lab, v[: len(header)]) for r, lab, v in parsed]
            n -= extra
        elif all(sum(c.kind != "chg" for c in v) == len(header) and all(
                c.kind != "chg" or (k and v[k - 1].kind == "abs") for k, c in enumerate(v)) for _, _, v in parsed):
            # `12.850(+/- 2.21%) +4%    13.411(+/- 2.47%) -0%`: each system's change beside its value,
            # under no head of its own
            parsed = [(r, lab, [c for c in v if c.kind != "chg"]) for r, lab, v in parsed]
            n = len(header)
    items = sum(bool(_BULLETED.match(lab)) for _, lab, _ in parsed)
    if items >= 2:  # `  not be able to achieve the full 300 MB/s.`: a note under an item goes on its line
        parsed = [(r, lab, v) for r, lab, v in parsed if _BULLETED.match(lab) or not lines[r][:1].isspace()]
    parsed = [(r, lab.rstrip(",;"), v) for r, lab, v in parsed
              if len(lab.split()) <= (11 if items >= 2 and _BULLETED.match(lab) else 8)  # (an item's name may run longer)
              and not (lab.endswith((".", ",")) and len(lab.split()) > 3)
              and not lab.endswith("=") and not _CODE.search(lab) and not _SPREAD_ROW.match(lab)
              and not PAIR_IN_LABEL.search(lab)  # `cdc_ncm.ko: TCP_RR: 740, UDP_RR: 750`: a line of pairs
              and not _FROM_FIGURE_TO.search(lab)]  # `Receive speed (RX): Improved from 290Mbps to 500Mbps`: prose
    bulleted = bool(parsed) and all(_BULLETED.match(lab) for _, lab, _ in parsed)
    if bulleted:  # `- MAC1000 - 950 Mbps` / `- XGMAC: 9.22 Gbps`: a list, each item named
        parsed = [(r, _BULLETED.sub("", lab).rstrip(" -:").strip(), v) for r, lab, v in parsed]
    cite = {lab.split(" ", 1)[0] for _, lab, _ in parsed}
    if len(cite) == 1 and _SUPERCITE.match(next(iter(cite))) and all(" " in lab for _, lab, _ in parsed):
        parsed = [(r, lab.split(" ", 1)[1].strip(), v) for r, lab, v in parsed]  # `rwhron> 2.4.17`
    if not parsed or (len(parsed) < 2 and h is None):
        return None  # long labels are sentences: prose, not table rows
    if h is None and n == 1 and all(len(lab.split()) >= 5 and _FUNCTION_WORD.search(lab) and all(
            c.unit is None and c.kind == "abs" for c in v) for _, lab, v in parsed):
        return None  # `... running under Fedora 42` / `... and then under Rocky 9.5`: sentences ending in a name
    if sum(lab.endswith("=") or lab.endswith(" =") for _, lab, _ in parsed) * 2 > len(parsed):
        return None  # `multcount = 16`: a settings listing, not measurements
    col_heads: list[str | None]
    if len(header) == n:
        col_heads = [c.text for c in header]
    elif header:
        col_heads = []  # aligned by position per row
    else:
        col_heads = [None] * n
    row_labels = [lab for _, lab, _ in parsed]
    t.labels = row_labels
    totals = _totals(parsed)
    if h is None and not pipe and all(v and lines[r][: v[0].start].rstrip().endswith(":") for r, _, v in parsed):
        t.kind = "key_value"  # `Simple syscall: 0.7419 / 0.4244 microseconds` lines, no header

    placed: dict[int, list[Cell | None]] = {}

    def head_of(vals: list[Cell], k: int) -> str | None:
        if col_heads:
            off = k - (len(vals) - n)
            return col_heads[off] if 0 <= off < len(col_heads) else None
        pos = placed.get(id(vals))
        if pos is None:
            pos = placed[id(vals)] = _by_position(header, vals)
        return pos[k].text if pos[k] is not None else None

    # which columns hold changes, deviations, statistics, parameters
    kinds: dict[str, str] = {}
    chg_votes: Counter[str] = Counter()
    abs_votes: Counter[str] = Counter()
    fractional: Counter[str] = Counter()
    for _, _, vals in parsed:
        for k, c in enumerate(vals):
            hd = head_of(vals, k) or f"#{k - (len(vals) - n)}"
            if c.kind == "chg":
                chg_votes[hd] += 1
            elif c.kind == "abs":
                abs_votes[hd] += 1
                if c.value is not None and not float(c.value).is_integer():
                    fractional[hd] += 1
    for hd in set(chg_votes) | set(abs_votes):
        if _UTIL_HEAD.match(hd):
            kinds[hd] = "util"
        elif STDEV_HEAD.match(hd):
            kinds[hd] = "stdev"
        elif _is_param_name(hd) and not chg_votes[hd] and not fractional[hd]:
            kinds[hd] = "param"
        elif CHANGE_HEAD.match(hd) or chg_votes[hd] > abs_votes[hd]:
            kinds[hd] = "change"
        else:
            kinds[hd] = "abs"
    bare_cpu = [hd for hd, kd in kinds.items() if kd == "util" and hd.strip(" :|").lower() == "cpu"]
    if len(bare_cpu) == 1 and not any(kd == "util" for hd, kd in kinds.items() if hd not in bare_cpu) \
            and sum(kd == "abs" and _system_or_metric(hd)[0] is not None for hd, kd in kinds.items()) >= 3 \
            and not any(c.unit for _, _, vals in parsed for k, c in enumerate(vals) if head_of(vals, k) == bare_cpu[0]):
        # `base  cpu  cache  numa  system`: among heads naming three systems or more, a bare `cpu`
        # over figures with no `%` names one more (a workqueue's affinity scope), no CPU share
        kinds[bare_cpu[0]] = "abs"
        named_scope = bare_cpu[0]
    else:
        named_scope = None
    absolute = [hd for hd, kd in kinds.items() if kd == "abs"]
    norm_cols = [hd for hd in absolute if _normalised(parsed, hd, head_of)]
    if norm_cols and len(norm_cols) < len(kinds) and any(kinds[hd] == "change" for hd in kinds):
        for hd in norm_cols:  # `baseline 1.00 | compare% +4.35`: the baseline column is no result
            kinds[hd] = "baseline"
        t.baseline = norm_cols[0].split("(")[0].strip() or None
        absolute = [hd for hd in absolute if hd not in norm_cols]
    elif norm_cols and len(norm_cols) < len(absolute) and not norm_cols[0].startswith("#") and len(parsed) >= 3 \
            and not any(kd == "change" for kd in kinds.values()) \
            and not any(c.unit for _, _, v in parsed for c in v) and not any(unit_in(hd) for hd in absolute):
        t.normalised = True  # `slab 1.0000  slub 0.9484  slqb 0.9804`: each figure a ratio to the first
        t.baseline = norm_cols[0].split("(")[0].strip() or None
    changes = [hd for hd, kd in kinds.items() if kd == "change"]
    zero_cols = [hd for hd in changes if _zero_change(parsed, hd, head_of)]
    if not absolute and zero_cols and len(zero_cols) < len(changes):
        for hd in zero_cols:  # `6.6  0.00%` beside `6.7-rc1  -1.2%`: the baseline's own column, no result
            kinds[hd] = "baseline"
        t.baseline = t.baseline or zero_cols[0].split("(")[0].strip() or None
    t.change = not absolute and any(kd == "change" for kd in kinds.values())

    # orientation: do row labels or column heads name metrics (or statistics of one metric)?
    heads = [h for h in col_heads if h] if col_heads else [c.text for c in header]
    row_votes = sum(any_metric(lab) for lab in row_labels if lab)
    col_votes = sum(any_metric(hd) for hd in heads)
    stat_heads = sum(norm(hd) in STAT_HEAD or bool(STDEV_HEAD.match(hd)) or kinds.get(hd) == "param"
                     for hd in heads)
    # labels printed after the values (rotated by _labels_first) name cases, unless they are metrics
    cases = row_votes == 0 and all(len(g) >= 2 and g[0].start > g[1].start
                                   for g in (grid[r] for r, _, _ in parsed) if g)
    row_params = [_row_param(lab, param_name) or (
        (label_name or "case", lab) if (_NUMERIC_LABEL.match(lab) and not _RELEASE_LABEL.match(lab)) or cases
        else (labels_named, lab) if labels_named and lab and not any_metric(lab) else None) for lab in row_labels]
    if pairs is not None:
        row_params = [(label_pair[0], pairs[r][0]) for r, _, _ in parsed]
    head_params = {hd: _row_param(hd, None) for hd in heads}
    cols_are_params = bool(heads) and all(p is not None and p[0] != "case" for p in head_params.values())
    if first_is_param or (row_labels and all(p is not None for p in row_params)):
        t.orientation = "rows=params"
    elif cols_are_params:
        t.orientation = "rows=systems"  # `1 cpu   16 cpus`: the columns are parameter values
    elif label_name and _SYSTEM_HEAD.match(label_name) and row_votes == 0 \
            and not any(_NAMES_SYSTEM.search(hd) for hd in heads) \
            and not any(lab and _REPORT_STAT.match(lab.split()[0]) for lab in row_labels):
        # `kernel` over row labels, heads naming no release: the rows are systems (unless the rows are
        # an mmtests report's, `Hmean  unixbench-dhry2reg-1`: each a statistic of a test)
        t.orientation = "rows=systems"
    elif bulleted and row_votes == 0 and n == 1 and not header:
        t.orientation = "rows=systems"  # a list of items, one value each, none a metric: the systems
    elif row_labels and sum(bool(_SYSTEM_WORD.match(lab)) for lab in row_labels) * 2 >= len(row_labels) \
            and row_votes == 0:
        t.orientation = "rows=systems"  # `Before 102 Mbits/sec` / `After 279 Mbits/sec`
    elif t.kind == "key_value" and len(row_labels) >= 3 and row_votes == 0 and not heads \
            and _BASELINE_KEY.match(row_labels[0]):
        t.orientation = "rows=systems"  # `base: 0.1737` / `rdtsc: 0.1803 (+3.89%)`: a baseline, then what is set beside it
    elif t.kind == "key_value" and len(row_labels) >= 2 and row_votes == 0 and n == 1 \
            and all(_NAMES_SYSTEM.search(lab) for lab in row_labels):
        t.orientation = "rows=systems"  # `Baseline v4.10.0  : 60316 Mbit/s` / `This patch : 60662 Mbit/s`
    elif t.kind == "key_value" and len(row_labels) >= 2 and row_votes == 0 and n == 1 \
            and _caption_measure(_UNIT_TAIL.sub("", t.caption or "")):
        t.orientation = "rows=systems"  # `Bonnie++ sequential block output, K/sec:` over `ext4:  512340`
    elif row_votes == 0 and heads and any(_headline(hd) for hd in heads) \
            and not any(names_tool(lab) for lab in row_labels):
        t.orientation = "rows=systems"  # `tbench (MB/s)  turbostat PkgWatt` over kernels or governors
    elif col_votes > row_votes and col_votes * 2 >= max(1, len(heads)) or heads and stat_heads * 2 > len(heads) and row_votes == 0:
        t.orientation = "rows=systems"
    elif row_votes == 0 and len(heads) >= 2 and all(_IO_TEST.match(hd) for hd in heads) \
            and not any(_IO_TEST.match(lab) for lab in row_labels if lab):
        t.orientation = "rows=systems"  # `READ  WRITE` over `w/`, `w/o`: the I/O each column measured
    elif row_votes == 0 and heads and sum(unit_in(hd) is not None or _UNIT_SAID.search(hd) is not None
                                          for hd in heads) * 2 >= len(heads) + 1:
        # `power(W/s)  throughput(MB/s)` heads, or heads saying their unit (`Unit: MB / (s * J)`): measured quantities
        t.orientation = "rows=systems"
    else:
        t.orientation = "rows=metrics"

    # `plain  IRQ test  ping flood` over kernels, under `LMbench running times:`: heads naming no measure
    # are the conditions each was measured under; the caption names the measure
    value_heads = [hd for hd in heads if hd in kinds]  # (not the corner over the labels)
    # `dbench4 Throughput (misleading but traditional)` over mmtests' `Min  1  813.26 ...` rows
    # (the line right above the names, when a line of names stands over the heads)
    stat_measure = _caption_measure(_without_end_remark(caption_lines[-2])) \
        if (row_stats or row_stat) and len(caption_lines) >= 2 and h is not None and h >= 2 \
        and caption_lines[-1] == lines[h - 1].strip() and _upper_heads(lines, h, header) is not None else None
    case_measure = _caption_measure(t.caption) if t.orientation == "rows=systems" and len(value_heads) >= 2 \
        and col_votes == 0 and not cols_are_params and all(kinds[hd] == "abs" for hd in value_heads) \
        and not any(unit_in(hd) or _NAMES_SYSTEM.search(hd) for hd in value_heads) else None
    # `base  cpu  cache  numa  system`: a word that is no name alone (`system`) names a system among
    # heads that all do
    systems_named = [hd for hd in heads if kinds.get(hd) == "abs" and (_system_or_metric(hd)[0] or hd == named_scope)]
    generic_names = {hd for hd in heads if kinds.get(hd) == "abs" and _GENERIC_HEAD.match(hd.strip(" :|"))} \
        if len(systems_named) >= 3 and len(systems_named) + 1 >= len([h for h in heads if kinds.get(h) == "abs"]) else set()
    if named_scope is not None:
        generic_names.add(named_scope)  # the bare `cpu` above: a name like the generic words
    owner: dict[str, str | None] = {}  # a sub-column head -> the system head before it
    current: str | None = None
    for hd in heads:
        if kinds.get(hd) == "util":
            owner[hd] = current
        elif kinds.get(hd) in (None, "abs"):
            current = _system_or_metric(hd)[0] or current
    for (r, label, vals), rp in zip(parsed, row_params, strict=True):
        if len(vals) > n and not first_is_param and not (
                header and not col_heads and len(vals) <= len(header)
                and len({id(x) for x in _by_position(header, vals)}) == len(vals)):
            vals = vals[len(vals) - n:]  # (a row fuller than most, each value under a head of its own: kept whole)
        row_word = row_stats.get(r) or row_stat  # (`Min`, `Hmean`: the row's statistic; a caption may name the measure)
        row_units = {c.unit for k, c in enumerate(vals) if c.kind == "abs" and c.unit
                     and kinds.get(head_of(vals, k) or "") != "param"}  # (`4k` under `bs` is no unit)
        row_unit = row_units.pop() if len(row_units) == 1 else None  # `0.74 / 0.42 microseconds`
        if row_unit is None and t.orientation == "rows=metrics" and (benchmarks_in(label) or any_metric(label)) \
                and (inside := _HEAD_UNIT.search(label.rstrip(" -:"))):
            # `Bitrate(Gb/s)  40.7`, `Netperf Result (MB/s) - 112.21`: the row's unit in its label
            row_unit = unit(inside.group(1).strip())
        count_label = _COUNT_LABEL.search(label) if t.orientation == "rows=metrics" else None
        row_extra: dict[str, str] = _tail_param(grid[r] or [])
        for k, c in enumerate(vals):
            hd = head_of(vals, k)
            if kinds.get(hd or "") == "param" and c.value is not None:
                row_extra[norm(hd or "")] = c.text
        for k, c in enumerate(vals):
            if c.kind == "miss" or c.value is None:
                continue
            hd = head_of(vals, k)
            kind = kinds.get(hd or f"#{k - (len(vals) - n)}", "abs")
            if kind in ("stdev", "baseline", "param") or (kind == "change" and not t.change):
                continue
            if kind == "abs" and c.kind == "chg":
                continue  # a change typed into a column of absolute values
            if kind == "util":
                c = Cell(c.text, c.start, c.end, "abs", c.value, "%CPU")
            if count_label and c.kind == "abs" and c.unit in MULTIPLIER:
                # `Read IOPS   25.1k   30.7k`: thousands of the count the row names
                c = Cell(c.text, c.start, c.end, "abs", scaled(c.value, c.unit), unit(count_label.group(0)))
            u = c.unit or (unit_in(hd) if hd else None) or t.unit or (row_unit if c.kind == "abs" else None)
            stat = STAT_HEAD.get(norm(hd or ""), "value")
            system: str | None
            metric_label: str | None
            params: dict[str, str] = dict(row_extra)
            if t.orientation == "rows=params":
                if first_is_param or rp is None:
                    params[param_name or "size"] = label
                elif pairs is not None:  # `TCP_RR  56-threads`: each label its head's parameter
                    params.update(zip(label_pair, pairs[r], strict=True))
                    label = pairs[r][0]
                else:
                    params[rp[0]] = rp[1]
                # `Benchmark  Result Class` over `mmtests/kernbench  real time`: a group, then what it measured
                grouped = pairs[r][1] if pairs is not None and len(label_pair) == 2 and label_pair[0] in _GROUP_HEADS \
                    else None
                system, metric_label = _system_or_metric(hd)
                if system is None and hd in generic_names:
                    system, metric_label = hd.strip(" :|"), None
                metric_label = metric_label or totals.get(r) or grouped or (stat_measure if row_word else None) \
                    or row_word
                if rp is not None and rp[0] == "case" and not metric_label and any(
                        any_metric(w) and norm(w) not in _BARE_TIME for w in label.split()):
                    metric_label = label  # `TCP_RR 56-threads`: the case names the metric (`thread 10 Time`: no other)
            elif t.orientation == "rows=systems":
                system, metric_label = (label or None), hd  # `Average`: a statistic's head still labels it
                if case_measure and hd:
                    params["case"], metric_label = hd, case_measure
                if cols_are_params and hd in head_params:
                    name, val = head_params[hd]  # type: ignore[misc]
                    params[name] = val
                    metric_label = None
                elif hd and _HARDWARE.search(hd) and not any_metric(hd) and u:
                    params["device"], metric_label = hd, None  # `PCIe Gen3 SSD` over `553k iops`: where it ran
            elif label_name and row_votes == 0 and _JOB_LABEL.match(label) and (
                    any_metric(label_name) or _IO_TEST.match(label_name)):
                # `Randread 4K  RR  WRR` over `fio-1:  220 k  395 k`: the corner names the test, rows the jobs
                metric_label, params["job"] = label_name, label.rstrip(":")
                system = _system_or_metric(hd)[0]
            else:
                metric_label = label or None
                system, extra = _system_or_metric(hd)
                if extra and not metric_label:
                    metric_label = extra
                elif extra and metric_label and stat == "value":
                    metric_label = f"{metric_label} {extra}"
            counted = _COUNTED_TEST.match(label) if t.orientation == "rows=metrics" and stat == "value" else None
            if counted and any_metric(counted["test"]):
                # `TCP_SENDFILE-1  : Avg:`: the test, how many ran at once, and the statistic of the runs
                metric_label, params["instances"] = counted["test"], counted["n"]
            if stat != "value" and t.orientation != "rows=systems":
                system = None
            if counted and counted["stat"] and metric_label == counted["test"]:
                stat = STAT_HEAD.get(counted["stat"].lower(), "value")
            if stat == "value" and (bound := _BOUND_ROW.match(row_stats.get(r) or label)):
                # mmtests' `Min  Trans-1`, `Max  Trans-1`: the runs' bounds; `BAmean-50`: the best half's mean
                stat = bound.group(1).lower() if bound.group(1) else "mean"
            elif stat == "value" and row_word and (mean := MEAN_STAT.get(row_word.lower())):
                stat = mean  # `Hmean  64  732.14 ...`: the harmonic mean of the runs
            elif stat == "value" and metric_label and (lead := _MEAN_LEAD.match(metric_label)):
                # `Hmean     unixbench-dhry2reg-1`: a mean of the runs of the test the row names (the
                # label stays as printed)
                stat = MEAN_STAT[lead.group(1).lower()]
            if kind == "util" and t.orientation != "rows=systems":
                system, metric_label = owner.get(hd or ""), hd  # `cpu%` after `vanilla-SMT`: its cpu%
            if t.change and u is None:
                u = "%" if "%" in (hd or "") + (t.caption or "") else "x" if _RATIO_HEAD.match(hd or "") else None
            if system is None and metric_label and (sm := _SYSTEM_THEN_METRIC.match(metric_label)):
                system, metric_label = (sm.group(1) or sm.group(3)).strip(), (sm.group(2) or sm.group(4)).strip()
            elif system is None and metric_label and (bm := _BRACKETED_RELEASE.match(metric_label)):
                system, metric_label = bm.group(2), bm.group(1).strip()  # `Execl Throughput[linux-2.5.69]`
            t.values.append(TableValue(r, c.value, u, system, metric_label, params, stat, t.change,
                                       k - (len(vals) - n), label))
    if t.orientation == "rows=systems":
        _split_runs(t)
    elif t.orientation == "rows=metrics":
        _run_rows(t)
    return t


# `avg(s)`: the mean of the rows of runs (`test1`, `run 2`) above it
_MEAN_ROW = re.compile(r"(?i)^(?:avg|average|mean|median)\b")


def _run_rows(t: Table) -> None:
    """Rows that are runs (`test1`, `test2`, `test3`, then `avg(s)`) name no metric: each is the tool's
    headline figure of one run (param run), and a mean row's unit is the one it names."""
    labels = [lab.strip() for lab in t.labels if lab and lab.strip()]
    runs = [m for lab in labels if (m := ONE_RUN.match(lab))]
    if len(runs) < 2 or len(runs) + sum(bool(_MEAN_ROW.match(lab)) for lab in labels) < len(labels):
        return
    for v in t.values:
        if m := ONE_RUN.match(v.row.strip()):
            v.label = None
            v.params.setdefault("run", m.group("n"))
        elif _MEAN_ROW.match(v.row.strip()) and v.unit is None:
            v.unit = unit_in(v.row)


_RATIO_HEAD = re.compile(r"(?i)^(?:relative|ratio|speed-?up|rel\.?)$")  # `Relative  0.975`: a ratio to the baseline
_BOUND_ROW = re.compile(r"(?i)^(?:(min|max)(?:-\d{1,2})?+|b[ahg]mean-\d{1,2})(?:[ \t]++\S|$)")
# a report's statistic of the runs, first on its row (mmtests: `Amean`, `BHmean-50`, `Max-90`)
_REPORT_STAT = re.compile(r"(?i)^(?:[ahg]mean|min|max|stddev|coeffvar|median|b[ahg]mean-\d{1,2}|(?:min|max)-\d{1,2})$")
_JOB_LABEL = re.compile(r"^[A-Za-z][\w.]{0,20}[-_]\d{1,3}:?$")  # `fio-1`, `job_2`, `vm-3`
# `TCP_SENDFILE-1  : Avg:`, `UDP_RR-10    Avg:`: a test, the count run at once, the statistic
_COUNT_LABEL = re.compile(r"(?i)\b(?:iops|trans/s|ops/s)\b")  # a row naming a count (`Read IOPS`)
MEAN_STAT = {"amean": "mean", "hmean": "hmean", "gmean": "gmean", "median": "median"}  # mmtests' means
_MEAN_LEAD = re.compile(r"(?i)^([ahg]mean)[ \t]++\S")
_COUNTED_TEST = re.compile(r"^(?P<test>[A-Za-z][A-Za-z_]{1,30}+)-(?P<n>\d{1,4}+)[ \t]*+:?[ \t]*+"
                           r"(?:(?P<stat>avg|average|mean|min|max|median)[ \t]*+:?)?$", re.I)
_IO_TEST = re.compile(r"(?i)^(?:rand|seq(?:uential)?\s*)?(?:read|write|rw|randrw|mixed)\b")
_RUN_LABEL = re.compile(r"^(?P<sys>.{1,40}?)[-_ #](?P<n>\d{1,2})$")


def _split_runs(t: Table) -> None:
    """`a-1`, `a-2`, `b-1`: repeated runs of systems `a` and `b` (params run = 1, 2)."""
    found = [_RUN_LABEL.match(lab) for lab in t.labels]
    if not t.labels or not all(found):
        return
    prefixes = Counter(m.group("sys") for m in found if m)
    if max(prefixes.values()) < 2:
        return
    for v in t.values:
        m = _RUN_LABEL.match(v.system or "")
        if m and m.group("sys") in prefixes:
            v.system = m.group("sys")
            v.params.setdefault("run", m.group("n"))


def _transposed(parsed: list[tuple[int, str, list[Cell]]]) -> str | None:
    """`g=  2  4  6` / `clients 1 2 4 8` on the first row: the columns are parameter values."""
    if len(parsed) < 2:
        return None
    _, label, vals = parsed[0]
    name = label.strip(" =:")
    if not name or not _is_param_name(name) or len(vals) < 2:
        return None
    if not all(c.kind == "abs" and c.value is not None and float(c.value).is_integer() for c in vals):
        return None
    return norm(name)


def _read_transposed(lines: list[str], rows: list[int], parsed: list[tuple[int, str, list[Cell]]],
                     name: str, h: int | None) -> Table | None:
    keys = [c.text for c in parsed[0][2]]
    caption = None
    for ln in reversed(lines[: rows[0]]):
        if ln.strip() and not RULE.match(ln):
            caption = ln.strip()
            break
    t = Table(start=rows[0], end=rows[-1] + 1, kind="whitespace", header=[parsed[0][1], *keys],
              labels=[], values=[], caption=caption, orientation="cols=params")
    t.unit = unit_in(caption) if caption else None
    for r, label, vals in parsed[1:]:
        if not label or all(c.kind != "abs" for c in vals) or len(vals) > len(keys):
            continue  # a row of changes under the systems
        system = label.strip(" :=") or None
        t.labels.append(label)
        off = len(keys) - len(vals)  # a short row is aligned to the right
        for k, c in enumerate(vals):
            if c.kind != "abs" or c.value is None:
                continue
            t.values.append(TableValue(r, c.value, c.unit or t.unit, system, None, {name: keys[off + k]}))
    return t if t.values else None


def _normalised(parsed: list, head: str, head_of) -> bool:
    """A column whose every value is 1.00 or 100 is the baseline the others are relative to."""
    return _column_all(parsed, head, head_of, "abs", (1.0, 100.0))


def _zero_change(parsed: list, head: str, head_of) -> bool:
    """A column of changes that are all zero (`0.00%`): the baseline the other columns change from."""
    return _column_all(parsed, head, head_of, "chg", (0.0,))


def _column_all(parsed: list, head: str, head_of, kind: str, values: tuple[float, ...]) -> bool:
    """Two or more cells of `kind` under `head`, every one of them one of `values`."""
    seen = 0
    for _, _, vals in parsed:
        for k, c in enumerate(vals):
            if (head_of(vals, k) or f"#{k}") == head and c.kind == kind:
                if c.value not in values:
                    return False
                seen += 1
    return seen >= 2


# heads over a label column that say nothing of what its labels are (`test` over `TCP_RR`)
_NAMELESS_PARAMS = frozenset({"test", "case", "mode", "n", "#", "num", "number", "run", "runs", "sample", "samples"})
def _labels_param(name: str) -> str | None:
    """The parameter a head over the label column makes of its labels (`rw`), if it names one."""
    return name if name in _PARAM_WORDS and name not in _NAMELESS_PARAMS else None


_BARE_TIME = frozenset({"time", "seconds", "sec"})  # in a case's label, the time measured: the tool's own
_COUNT_DASH = re.compile(r"^(?P<val>\d{1,6}+)-(?P<word>[A-Za-z]{1,20}+):?$")


def _row_param(label: str, default_name: str | None) -> tuple[str, str] | None:
    """`procs 8`, `8 threads`, `bs=4k`, or a bare size under a parameter-named label column."""
    if not label:
        return None
    copies = _COPIES.match(label)
    if copies:  # UnixBench's `1 copy test`, `8 copy tests`; `224 tests` in parallel
        return ("copies" if copies.group("copy") else "tests"), copies.group("n")
    m = _PARAM_LABEL.match(label)
    if m and _is_param_name(m.group("word")):
        return norm(m.group("word")), m.group("val")
    m = _LABEL_PARAM.match(label)
    if m and _is_param_name(m.group("word")):
        return norm(m.group("word")), m.group("val")
    if default_name and _SIZE.match(label):
        return default_name, label
    m = _COUNT_DASH.match(label)
    if m and _is_param_name(m.group("word")):
        return norm(m.group("word")), m.group("val")  # `16-groups:`, `56-threads`
    if _DIGIT.search(label) and any(_is_param_name(w) or w == "process" for w in _WORDS.split(label.lower()) if w):
        return "case", label  # `4 instances each 12 threads`, `loopback 56-threads`, `Process(Pipe) 10 Time`
    return None


def _headline(head: str) -> bool:
    """`tbench (MB/s)`, `dbench 8`: a column of a tool's headline figure (the tool, a unit, a count);
    `netperf UDP_STREAM`: the tool, then one of its tests."""
    named = benchmarks_in(head)
    if any(canonical(b, head) is not None for b in named):
        return True
    tool, _, rest = head.strip().partition(" ")
    return len(named) == 1 and benchmarks_in(tool) == named and canonical(named[0], rest) is not None


# a label ending in a change's first figure (`... Improved from 290Mbps to`): the row is a sentence
_FROM_FIGURE_TO = re.compile(FROM_FIGURE + "$")
_CORNER = re.compile(r"^(?P<param>[A-Za-z#][\w#]{0,20}+):[ \t]++(?P<name>\S.{0,60}+)$")  # `Clients: tip-core`
_FUNCTION_WORD = re.compile(r"(?i)\b(?:the|and|then|under|which|that|when|than|from|into|there)\b")
_SPREAD_ASIDE = re.compile(r"[(\[][ \t]*+(?:std|stdev|stddev|sem|cv)%?[^()\[\]]{0,20}+[)\]]$", re.I)
# `+patch(%gain)`: the head of a column whose cells carry their change in parentheses
_CHANGE_ASIDE = re.compile(r"[(\[][ \t]*+%?[ \t]*+(?:gain|change|diff|delta|improvement|impr|imp)[ \t]*+%?[ \t]*+[)\]]$",
                           re.I)


def _without_unit(head: str) -> str:
    """A head without the unit in brackets at its end (`BW(M/s)` -> `BW`, `patched (MB/s)` -> `patched`)."""
    m = _HEAD_UNIT.search(head)
    return head[: m.start()].rstrip() if m and unit_in(m.group(1)) else head


def _system_or_metric(head: str | None) -> tuple[str | None, str | None]:
    """A column head names a system (`patched`), a metric (`Throughput (MB/s)`), or nothing."""
    if not head:
        return None, None
    text = _CHANGE_ASIDE.sub("", _SPREAD_ASIDE.sub("", head)).strip(" :|")  # `compare%( std%)`: the spread's head is no name
    if _GENERIC_HEAD.match(text) or CHANGE_HEAD.match(text) or norm(text) in STAT_HEAD:
        return None, None
    if label_votes([text]) or any_metric(text):
        return None, text
    bare = _without_unit(text)  # `patched (MB/s)` -> `patched`
    if bare != text and (label_votes([bare]) or any_metric(bare)):
        return None, text
    if unit(text) is not None:
        return None, None
    name, _, last = bare.rpartition(" ")
    if name and len(last) >= 2 and last.isupper() and (unit(last) or any_metric(last)) and not any_metric(name):
        if benchmarks_in(name) and len(name.split()) == 1:
            return None, text  # `netperf UDP_STREAM`: the tool, then its test; no system
        return name, text[len(name):].strip()  # `no zero copy IOPS`, `base BW(M/s)`: the system, then what was measured of it
    return (bare or text), None

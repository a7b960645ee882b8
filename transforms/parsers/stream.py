"""STREAM parser: McCalpin's memory-bandwidth benchmark, as pasted into mail.

STREAM ends with a four-row table::

    Function    Best Rate MB/s  Avg time     Min time     Max time
    Copy:           31496.2     0.005665     0.005080     0.006309
    ...

(5.9/5.10; earlier releases print ``Rate (MB/s)`` and four decimals, the
oldest ``RMS time`` instead of ``Avg time``).  Rows are bound by their label,
so the rate is the first number after ``Copy:`` and the times the next three.
The rate (MB/s, 10^6 bytes) is stored as metric ``copy``/``scale``/``add``/
``triad``; the times as ``<kernel>_time`` in seconds with statistic ``mean``
(avg), ``min`` and ``max``.  An RMS column is not an average and is not
stored; without a header the second column is ambiguous and is not stored
either.  Array size and thread count from the preamble become params.
A table followed by ``Failed Validation`` is reported unparsed (its numbers
are not to be trusted).  lmbench's ``STREAM copy bandwidth:`` lines belong to
the lmbench parser.

HPC Challenge (HPCC) runs STREAM twice: `StarSTREAM` (every node at once; the table of one node,
then `Minimum/Average/Maximum Copy GB/s ...` over the nodes) and `SingleSTREAM` (one node:
`Single STREAM Copy GB/s ...`). Rows read inside those sections carry params.hpcc
(`StarSTREAM` / `SingleSTREAM`); the node summary lines give the kernel metrics in GB/s with
statistic `min` / `mean` / `max`, the single-node lines statistic `value`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from transforms.model import MetricSpec, Parser, Result, Run, Segment
from transforms.numbers import parse_number
from transforms.parsers._common import caption_above, naming_caption, number_repeated_runs

NAME = "stream"

_KERNELS = ("copy", "scale", "add", "triad")
METRICS: dict[str, MetricSpec] = {
    **{k: MetricSpec("MB/s", True, 1.0, 1e8, units=("GB/s", "KB/s")) for k in _KERNELS},
    **{f"{k}_time": MetricSpec("s", False, 0.0, 1e5) for k in _KERNELS},
}

_N = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_HEADER = re.compile(
    r"^\s*Function\s+(?:Best\s+)?Rate\s*+\(?\s*+(?P<unit>[KMG]B/s)(?:\s*+\))?\s+(?P<second>Avg|RMS)\s+time\s+"
    r"Min\s+time\s+Max\s+time\b",
    re.I,
)
_ROW = re.compile(
    rf"^(?P<margin>.*?)(?<![A-Za-z])(?P<fn>Copy|Scale|Add|Sum|Triad):\s+(?P<rate>{_N})\s+"
    rf"(?P<t1>{_N})\s+(?P<t2>{_N})\s+(?P<t3>{_N})\s*$",
    re.I,
)
_ARRAY = re.compile(r"^\s*Array size\s*=\s*(?P<n>\d+)", re.I)
_THREADS = re.compile(r"^\s*Number of Threads(?: requested)?\s*=\s*(?P<n>\d+)\s*$", re.I)
_ELEMENT = re.compile(
    r"This system uses (?P<n>\d+) bytes per (?:array|DOUBLE PRECISION word)", re.I
)
_VERSION = re.compile(r"STREAM version \$Revision:\s*(?P<v>[\d.]+)\s*\$", re.I)
_VALID = re.compile(r"Solution Validates", re.I)
_FAILED = re.compile(r"Failed Validation|validation failed", re.I)
_MARGIN_LABEL = re.compile(r"^[\w.+()/-]+(?: [\w.+()/-]+){0,3}:?$")
_UNITS = {"mb/s": "MB/s", "gb/s": "GB/s", "kb/s": "KB/s"}
# HPC Challenge's STREAM sections and their summary lines
_HPCC_BEGIN = re.compile(r"^\s*+Begin of (?P<s>StarSTREAM|SingleSTREAM) section\.")
_HPCC_END = re.compile(r"^\s*+End of (?:StarSTREAM|SingleSTREAM) section\.")
_HPCC_STAR = re.compile(rf"^\s*+(?P<stat>Minimum|Average|Maximum) (?P<fn>Copy|Scale|Add|Triad) GB/s\s++(?P<v>{_N})\s*$")
# HPCC's closing summary: `StarSTREAM_Copy=5.22586` (the mean over the nodes), `SingleSTREAM_Copy=11.5032`
_HPCC_SUMMARY = re.compile(rf"^\s*+(?P<s>StarSTREAM|SingleSTREAM)_(?P<fn>Copy|Scale|Add|Triad)=(?P<v>{_N})\s*$")
# a Windows build's pipe table: `| Function | Avg (MB/s) | Best (MB/s) | Worst (MB/s) | Avg time | Min time | Max time |`
_PIPE_HEAD = re.compile(r"^\s*+\|\s*+Function\s*+\|(?P<rest>(?:[^|\n]{1,30}+\|){3,8}+)\s*$", re.I)
_PIPE_ROW = re.compile(rf"^\s*+\|\s*+(?P<fn>Copy|Scale|Add|Triad)\s*+\|(?P<rest>(?:\s*+{_N}\s*+\|){{3,8}}+)\s*$", re.I)
# a column head of the pipe table -> (rate or time, statistic)
_PIPE_COLS = {"avg (mb/s)": ("rate", "mean"), "best (mb/s)": ("rate", "value"), "worst (mb/s)": ("rate", "min"),
              "avg time": ("time", "mean"), "min time": ("time", "min"), "max time": ("time", "max")}
_HPCC_SINGLE = re.compile(rf"^\s*+Single STREAM (?P<fn>Copy|Scale|Add|Triad) GB/s\s++(?P<v>{_N})\s*$")
_HPCC_STAT = {"Minimum": "min", "Average": "mean", "Maximum": "max"}

# STREAM's own preamble and the command that ran it, passed over when looking
# for the poster's caption above a table
_CHATTER = re.compile(
    r"^(?:-{5,}|STREAM\b|This system uses|Array size|Memory per array|Total memory|Each kernel|"
    r"The \*best\* time|will be used|Number of Threads|Your clock|Each test below|\(= \d+|"
    r"Increase the size|you are not getting|WARNING|For best results|precision of your|"
    r"Printing one line|Solution Validates|Failed Validation|={3} .* ={3}$|\[\s*\.\.\.\s*\])|"
    r"(?:^|[\s/$])\.?/?stream\w*(?:\.exe)?(?:\s|$)",
    re.I,
)


@dataclass(slots=True)
class _Table:
    start: int
    end: int
    rows: list[tuple[int, re.Match[str]]] = field(default_factory=list)


def _tables(lines: Sequence[str]) -> list[_Table]:
    """Runs of consecutive kernel rows."""
    tables: list[_Table] = []
    cur: _Table | None = None
    for i, line in enumerate(lines):
        m = _ROW.match(line)
        if m is None:
            cur = None
            continue
        if cur is None:
            cur = _Table(i, i + 1)
            tables.append(cur)
        cur.rows.append((i, m))
        cur.end = i + 1
    return [
        t
        for t in tables
        if len({m.group("fn").lower() for _, m in t.rows}) >= 2 or _header_near(lines, t)
    ]


def _header_near(lines: Sequence[str], table: _Table) -> bool:
    k = table.start - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    return k >= 0 and bool(_HEADER.match(lines[k]))


def _metric(fn: str) -> str:
    fn = fn.lower()
    return "add" if fn == "sum" else fn  # STREAM's Fortran ancestor called Add "Sum"


def _margin_system(table: _Table) -> tuple[str | None, bool]:
    """(label, ok): a kernel or machine written in the left margin of a table."""
    labels = {m.group("margin").strip() for _, m in table.rows} - {""}
    if not labels:
        return None, True
    if len(labels) > 1 or not all(_MARGIN_LABEL.match(x) for x in labels):
        return None, False
    return labels.pop().rstrip(":"), True


def _table_results(
    table: _Table, header: re.Match[str] | None, params: dict[str, str], system: str | None
) -> list[Result]:
    unit = _UNITS[header.group("unit").lower()] if header else "MB/s"
    second = header.group("second").lower() if header else None
    out: list[Result] = []
    for i, m in table.rows:
        metric = _metric(m.group("fn"))
        label = m.group("fn") + ":"
        rate = parse_number(m.group("rate"))
        times = [parse_number(m.group(g)) for g in ("t1", "t2", "t3")]
        if rate is None or any(t is None for t in times):
            continue
        out.append(Result(metric, label, rate, unit, dict(params), system, line=i))
        stats = (("mean" if second == "avg" else None), "min", "max")
        for stat, t in zip(stats, times, strict=True):
            if stat is not None and t is not None:
                out.append(
                    Result(
                        f"{metric}_time",
                        label,
                        t,
                        "s",
                        dict(params),
                        system,
                        statistic=stat,
                        line=i,
                    )
                )
    return out


def _hpcc_sections(lines: Sequence[str]) -> list[str | None]:
    """For each line, the HPCC STREAM section it lies in (None outside one)."""
    out: list[str | None] = []
    cur: str | None = None
    for line in lines:
        if m := _HPCC_BEGIN.match(line):
            cur = m.group("s")
        out.append(cur)
        if _HPCC_END.match(line):
            cur = None
    return out


def _hpcc_runs(lines: Sequence[str], sections: Sequence[str | None]) -> list[Run]:
    """HPCC's node summary lines (`Average Copy GB/s 5.225863`, `Single STREAM Copy GB/s 11.5`)."""
    runs: list[Run] = []
    cur: Run | None = None
    for i, line in enumerate(lines):
        m = _HPCC_STAR.match(line) or _HPCC_SINGLE.match(line)
        value = parse_number(m.group("v")) if m else None
        if m is None or value is None:
            if cur is not None and line.strip():
                cur = None
            continue
        section = sections[i] or ("StarSTREAM" if "stat" in m.groupdict() else "SingleSTREAM")
        if cur is None or cur.attributes.get("hpcc") != section:
            cur = Run(NAME, [], line_start=i, line_end=i + 1, attributes={"hpcc": section})
            runs.append(cur)
        stat = _HPCC_STAT[m.group("stat")] if "stat" in m.groupdict() else "value"
        label = line.strip().rsplit(None, 1)[0]
        cur.results.append(Result(_metric(m.group("fn")), label, value, "GB/s", {"hpcc": section},
                                  statistic=stat, line=i))
        cur.line_end = i + 1
    return runs


def _hpcc_summary_runs(lines: Sequence[str], read: set[str]) -> list[Run]:
    """HPCC's `StarSTREAM_Copy=...` summary lines, for sections whose own lines were not read
    (`read`): the same numbers, rounded, so never both."""
    runs: dict[str, Run] = {}
    for i, line in enumerate(lines):
        m = _HPCC_SUMMARY.match(line)
        value = parse_number(m.group("v")) if m else None
        if m is None or value is None or m.group("s") in read:
            continue
        section = m.group("s")
        run = runs.get(section)
        if run is None:
            run = runs[section] = Run(NAME, [], line_start=i, line_end=i + 1, attributes={"hpcc": section})
        stat = "mean" if section == "StarSTREAM" else "value"
        run.results.append(Result(_metric(m.group("fn")), f"{section}_{m.group('fn')}", value, "GB/s",
                                  {"hpcc": section}, statistic=stat, line=i))
        run.line_end = i + 1
    return list(runs.values())


def _pipe_runs(lines: Sequence[str]) -> list[Run]:
    """A pipe table of rates and times (best, average and worst), one row per kernel."""
    runs: list[Run] = []
    heads: list[tuple[str, str] | None] | None = None
    cur: Run | None = None
    for i, line in enumerate(lines):
        if h := _PIPE_HEAD.match(line):
            heads = [_PIPE_COLS.get(c.strip().lower()) for c in h.group("rest").split("|")[:-1]]
            cur = None
            continue
        m = _PIPE_ROW.match(line) if heads is not None else None
        if m is None:
            if heads is not None and line.strip() and not line.strip().startswith("|-"):
                heads, cur = None, None
            continue
        cells = [parse_number(c.strip()) for c in m.group("rest").split("|")[:-1]]
        if cur is None:
            cur = Run(NAME, [], line_start=i, line_end=i + 1)
            runs.append(cur)
        metric, label = _metric(m.group("fn")), m.group("fn")
        for head, value in zip(heads or [], cells, strict=False):
            if head is None or value is None:
                continue
            kind, stat = head
            cur.results.append(Result(metric if kind == "rate" else f"{metric}_time", label, value,
                                      "MB/s" if kind == "rate" else "s", {}, statistic=stat, line=i))
        cur.line_end = i + 1
    return [r for r in runs if r.results]


def parse(seg: Segment) -> list[Run]:
    """One run per STREAM table of the segment, and HPCC's STREAM summaries."""
    lines = seg.lines
    sections = _hpcc_sections(lines)
    runs: list[Run] = []
    header: re.Match[str] | None = None
    version: str | None = None
    context: dict[str, str] = {}
    attributes: dict[str, str] = {}
    pos = 0
    prev_end = 0
    for table in _tables(lines):
        for k in range(pos, table.start):  # preamble and header lines since the last table
            line = lines[k]
            if h := _HEADER.match(line):
                header = h
            elif m := _ARRAY.match(line):
                context["array_size"] = m.group("n")
            elif m := _THREADS.match(line):
                context["threads"] = m.group("n")
            elif m := _ELEMENT.search(line):
                attributes["element_bytes"] = m.group("n")
            elif m := _VERSION.search(line):
                version = m.group("v")
        pos = table.end
        run = Run(
            NAME,
            [],
            tool_version=version,
            line_start=table.start,
            line_end=table.end,
            attributes=dict(attributes),
        )
        if header is not None and header.group("unit").lower() not in _UNITS:
            run.status, run.reason = "unparsed", f"STREAM rate unit {header.group('unit')!r}"
        margin, ok = _margin_system(table)
        _, caption = caption_above(
            lines,
            _table_top(lines, table, prev_end),
            prev_end,
            skip=_CHATTER.search,
            before=seg.before,
        )
        run.caption = caption
        run.system = margin or caption or naming_caption(lines, _table_top(lines, table, prev_end), 0, seg.before)
        if not ok:
            run.status, run.reason = "unparsed", "STREAM rows with text in the margin"
        if run.status == "ok":
            params = {**context, "hpcc": sections[table.start]} if sections[table.start] else context
            run.results = _table_results(table, header, params, run.system)
            if _failed_after(lines, table):
                run.status, run.reason = "unparsed", "STREAM reported Failed Validation"
        runs.append(run)
        prev_end = table.end
    number_repeated_runs(runs)
    hpcc = _hpcc_runs(lines, sections)
    read = {r.attributes["hpcc"] for r in hpcc}
    return runs + hpcc + _hpcc_summary_runs(lines, read) + _pipe_runs(lines)


def _table_top(lines: Sequence[str], table: _Table, floor: int) -> int:
    """The first line of a table including its header, for the caption search."""
    k = table.start - 1
    while k >= floor and (not lines[k].strip() or _HEADER.match(lines[k])):
        if _HEADER.match(lines[k]):
            return k
        k -= 1
    return table.start


def _failed_after(lines: Sequence[str], table: _Table) -> bool:
    """Whether the validation report after the table says the results are wrong."""
    for line in lines[table.end : table.end + 6]:
        if _VALID.search(line):
            return False
        if _ROW.match(line) or _HEADER.match(line):
            return False
        if _FAILED.search(line):
            return True
    return False


# distinctive literals, one of which every block the parser reads contains (see Parser.keywords)
KEYWORDS = ("triad:", "scale:", "copy:", *(f"{op} gb/s" for op in ("copy", "scale", "add", "triad")),
            "stream_triad=", "| triad ")


PARSER = Parser(
    name=NAME,
    version="1",
    signature=re.compile(
        rf"(?im)(?:Copy|Scale|Add|Sum|Triad):\s+{_N}\s+{_N}\s+{_N}\s+{_N}\s*$"
        rf"|^[^\S\n]*+(?:(?:Minimum|Average|Maximum)|Single STREAM) (?:Copy|Scale|Add|Triad) GB/s[^\S\n]++{_N}\s*$"
        rf"|^[^\S\n]*+(?:Star|Single)STREAM_(?:Copy|Scale|Add|Triad)={_N}\s*$"
        rf"|^[^\S\n]*+\|[^\S\n]*+Triad[^\S\n]*+\|[^\S\n]*+{_N}[^\S\n]*+\|"
    ),
    parse=parse,
    metrics=METRICS,
    keywords=KEYWORDS,
)

"""kernbench parser: Con Kolivas' kernel-build benchmark, as pasted into mail.

kernbench prints one block per load level::

    Average Half load -j 8 Run (std deviation):
    Elapsed Time 120.68 (0.425558)
    User Time 583.488 (0.54099)
    ...

The value is a mean over the runs (statistic ``mean``), the parenthesised
number its standard deviation (statistic ``stddev``); both are kept apart.
Posters also line several kernels up side by side, one column per kernel,
under a header row of kernel names, sometimes with a percent-change column
(derived, never stored) or ``( + 2 % vs base)`` annotations.  Rows count
under an ``Average ... load`` banner; in lkp-tests' kbuild log, where the
harness times each kernel build itself between its own ``start time: <epoch>``
and ``end time: <epoch>`` lines (one run per build, ``real:``/``user:``/``sys:``
as printed); and in GNU time's summary of a kernel build (``216.34user
14.36system 2:00.03elapsed 192%CPU`` under ``time make -j2`` or a heading
saying the kernel was compiled). A shell's ``time`` (real/user/sys) and any
timed command that is no kernel build are not kernbench and are never read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from transforms.model import MetricSpec, Parser, Result, Run, Segment
from transforms.numbers import parse_number
from transforms.parsers._common import (
    caption_above,
    names_system,
    naming_caption,
    number_repeated_runs,
)
from transforms.shell import is_prompted

NAME = "kernbench"

METRICS: dict[str, MetricSpec] = {
    "elapsed_time": MetricSpec("s", False, 0.01, 1e6),
    "user_time": MetricSpec("s", False, 0.01, 1e7),
    "system_time": MetricSpec("s", False, 0.0, 1e7),
    "percent_cpu": MetricSpec("%CPU", True, 0.0, 1e6),
    "context_switches": MetricSpec("count", False, 0.0, 1e10),
    "sleeps": MetricSpec("count", False, 0.0, 1e10),
}

# label as printed (whitespace may be re-aligned: "User    Time") -> metric
_LABELS: tuple[tuple[str, str], ...] = (
    (r"Elapsed\s+Time", "elapsed_time"),
    (r"User\s+Time", "user_time"),
    (r"System\s+Time", "system_time"),
    (r"Percent\s+CPU", "percent_cpu"),
    (r"Context\s+Switches", "context_switches"),
    (r"Sleeps", "sleeps"),
)
_LABEL_RE = "|".join(f"(?:{p})" for p, _ in _LABELS)
_LABEL_PATTERNS = tuple((re.compile(p, re.I), metric) for p, metric in _LABELS)
_ROW = re.compile(rf"^\s*(?P<label>{_LABEL_RE})(?![\w-])(?P<rest>.*)$", re.I)

_LOADS = {"half": "half", "optimal": "optimal", "maximal": "max", "max": "max", "custom": "custom"}
# "Average Half load -j 8 Run (std deviation):", "Average Maximal load -j Run ...",
# OSDL's "Average Optimal -j 32 Load Run:", and a bare "Average Half load -j 8"
# whose "Run (std deviation)" sits on the next line.
_HEADER = re.compile(
    r"^\s*+Average\s++(?:(?P<load>Half|Optimal|Maximal|Max|Custom)\s++)?(?:load\s++)?"
    r"(?:-j\s*+(?P<jobs>\d+)?\s*+)?(?:load\s++)?(?:Run\b.*)?(?m:$)",  # one line
    re.I,
)

_NUM = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
# a cell starts where a blank run starts: finditer would otherwise rescan each run from every blank
_CELL = re.compile(rf"(?<!\s)\s*+(?P<v>{_NUM})(?:\s*+\(\s*+(?P<sd>{_NUM})\s*+\))?")
# derived material posters append: "( + 2 % vs base)", "-12.5%", "+0%"
_DECIMAL_COMMA = re.compile(r"(?<![\d,])(\d{1,9}),(\d{1,2})(?![\d,])")  # `365,4`, never `137,214`
_ANNOTATION = re.compile(r"\([^()%]*+%[^()]*+\)")
_PERCENT = re.compile(r"(?<!\S)[-+]?\s?(?:\d+(?:\.\d*)?|\.\d+)\s?%(?!\S)")

# lines of CK's own chatter and of the kernbench log that may sit between a
# caption and the block it labels
_CHATTER = re.compile(
    r"^(?:\d+ cpus found|Cleaning source tree|Caching kernel source|No old config|"
    r"Making (?:mrproper|defconfig|oldconfig)|Kernel \S+$|Performing \d+ runs|make -j|"
    r"All data logged|Warmup run|(?:Half|Optimal|Maximal|Custom) load -j(?:\s*+\d++)?\s+run number)",
    re.I,
)
_DATE = re.compile(
    r"^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\s+\w{3}\s+\d{1,2}\s+\d{1,2}:\d{2}:\d{2}\s+(?:\w+\s+)?\d{4}$"
)
_RELEASE = re.compile(r"^\d++\.\d++[-+\w.]*+$")  # `(?:\.\d+)*` before `[-+\w.]*` added nothing
_KERNEL_LABEL = re.compile(r"^Kernel:\s*(?P<k>\S+)$", re.I)


# ---------------------------------------------------------------- kernbench


@dataclass(slots=True)
class _Row:
    line: int
    label: str  # as printed
    metric: str
    cells: list[tuple[float, float | None]]  # (mean, stddev) per column


@dataclass(slots=True)
class _Block:
    header: int
    end: int  # exclusive
    load: str | None
    jobs: str | None
    names: list[str] | None = None  # column names printed inside the block
    rows: list[_Row] = field(default_factory=list)
    error: str | None = None


def _header(line: str) -> re.Match[str] | None:
    """An ``Average ... load -j N Run`` banner (not a bare word "Average")."""
    m = _HEADER.match(line)
    if m is None or not (m.group("load") or "-j" in line or re.search(r"\bRun\b", line)):
        return None
    return m


def _metric_of(label: str) -> str:
    for pattern, metric in _LABEL_PATTERNS:
        if pattern.fullmatch(label):
            return metric
    raise ValueError(label)  # unreachable: the label came from _ROW


def _cells(rest: str, label: str) -> list[tuple[float, float | None]] | None:
    """The (mean, stddev) cells of a row, or None when something unreadable remains."""
    own = re.compile(
        r"(?<![\w-])" + r"\s+".join(map(re.escape, label.split())) + r"(?![\w-])", re.I
    )
    rest = own.sub(" ", rest)  # two outputs pasted side by side repeat the label per column
    rest = _ANNOTATION.sub(" ", rest)
    rest = _PERCENT.sub(" ", rest)
    if "," in rest and "." not in rest:
        rest = _DECIMAL_COMMA.sub(r"\1.\2", rest)  # `Elapsed Time 365,4`: a decimal comma
    cells: list[tuple[float, float | None]] = []
    pos = 0
    for m in _CELL.finditer(rest):
        if rest[pos : m.start()].strip():
            return None
        v = parse_number(m.group("v"))
        sd = parse_number(m.group("sd")) if m.group("sd") else None
        if v is None or (m.group("sd") and sd is None):
            return None
        cells.append((v, sd))
        pos = m.end()
    if rest[pos:].strip() or not cells:
        return None
    return cells


_SEPARATORS = (re.compile(r"\s{2,}"), re.compile(r"\s+"))  # columns, then words


def _split_names(line: str, n: int) -> list[str] | None:
    """The column names of a header row, when there are exactly ``n``."""
    text = line.strip()
    if not text or _ROW.match(text) or _header(text):
        return None
    text = re.sub(r"^Run\s*\(\s*std\s+deviation\s*\)\s*", "", text, flags=re.I)
    for sep in _SEPARATORS:
        parts = [p.strip().rstrip(":").strip() for p in sep.split(text) if p.strip()]
        if len(parts) == n + 1 and _DELTA_HEAD.match(parts[-1]):
            parts = parts[:-1]  # `delta` over changes printed as `+1.97%`, which are no cells
        if len(parts) == n and all(parts):
            return parts
    return None


_DELTA_HEAD = re.compile(r"(?i)^(?:delta|diff|change|chg)?[ \t]*+%?$")


def _read_block(lines: Sequence[str], h: int, m: re.Match[str]) -> _Block:
    """The rows under the banner at ``h``; column names printed between banner and rows."""
    load = m.group("load")
    block = _Block(h, h + 1, _LOADS[load.lower()] if load else None, m.group("jobs"))
    j = h + 1
    pre: list[str] = []
    while j < len(lines) and j <= h + 4 and not _ROW.match(lines[j]):
        pre.append(lines[j])
        j += 1
    while j < len(lines) and (rm := _ROW.match(lines[j])):
        label = rm.group("label")
        cells = _cells(rm.group("rest"), label)
        if cells is None:
            block.error = f"unreadable kernbench row: {lines[j].strip()!r}"
            block.end = j + 1
            return block
        block.rows.append(_Row(j, label, _metric_of(label), cells))
        j += 1
    block.end = j
    if not block.rows:
        block.error = "kernbench banner without result rows"
        return block
    widths = {len(r.cells) for r in block.rows}
    if len(widths) != 1:
        block.error = "kernbench rows with differing column counts"
        return block
    n = widths.pop()
    if n > 2 and all(r.cells[-1][1] is None and all(c[1] is not None for c in r.cells[:-1]) for r in block.rows):
        n -= 1  # `mean (sd)` columns, then a last one without spreads: the change (`delta %`)
        for r in block.rows:
            r.cells = r.cells[:-1]
    if n > 1:
        for line in pre:
            block.names = _split_names(line, n) or block.names
    return block


def _is_chatter(s: str) -> bool:
    return bool(_CHATTER.match(s) or _DATE.match(s))


_NAMES_TOOL = re.compile(r"(?i)\bkernbench\b")  # a caption naming the tool titles a run, not a system


def _system_above(
    lines: Sequence[str], index: int, floor: int, before: Sequence[str] = ()
) -> tuple[bool, str | None, str | None]:
    """(blocked, system, kernel) of a one-column block.

    The system is a ``Kernel: X`` line, else the caption above the block, else
    the kernel release the kernbench log prints under its date line.
    """
    kernel: str | None = None
    k = index - 1
    while k >= floor:  # walk over the kernbench log preamble
        s = lines[k].strip()
        if km := _KERNEL_LABEL.match(s):
            return True, km.group("k"), km.group("k")
        if _RELEASE.match(s) and k - 1 >= floor and _DATE.match(lines[k - 1].strip()):
            kernel = s
            k -= 2
            continue
        if s and not _is_chatter(s):
            break
        k -= 1
    blocked, caption = caption_above(lines, k + 1, floor, skip=_is_chatter, before=before)
    if caption is not None and _NAMES_TOOL.search(caption) and not names_system(caption):
        caption, blocked = None, False  # `Kernbench results within a container` titles the run
    if caption is not None:
        return True, caption, kernel
    if kernel is not None:
        return True, kernel, kernel
    named = naming_caption(lines, k + 1, floor, before)  # not past the block above
    if named is not None:
        return True, named, None
    return blocked, None, None


def _names_above(lines: Sequence[str], index: int, floor: int, n: int) -> list[str] | None:
    """Column names written on the nearest line above the banner."""
    for k in range(index - 1, max(floor, 0) - 1, -1):
        if lines[k].strip():
            return _split_names(lines[k], n)
    return None


def _results(block: _Block, systems: Sequence[str | None]) -> list[Result]:
    params: dict[str, str] = {}
    if block.load:
        params["load"] = block.load
    if block.jobs:
        params["jobs"] = block.jobs
    out: list[Result] = []
    for row in block.rows:
        unit = METRICS[row.metric].unit
        for (mean, sd), system in zip(row.cells, systems, strict=True):
            out.append(
                Result(
                    row.metric,
                    row.label,
                    mean,
                    unit,
                    dict(params),
                    system,
                    statistic="mean",
                    line=row.line,
                )
            )
            if sd is not None:
                out.append(
                    Result(
                        row.metric,
                        row.label,
                        sd,
                        unit,
                        dict(params),
                        system,
                        statistic="stddev",
                        line=row.line,
                    )
                )
    return out


_LKP_START = re.compile(r"^\s*start time: \d{9,11}(?:\.\d{1,9})?\s*$")
_LKP_TIME = re.compile(r"^\s*(real|user|sys): (\d{1,9}(?:\.\d{1,6})?)s\s*$")
_LKP_END = re.compile(r"^\s*end time: \d{9,11}(?:\.\d{1,9})?\s*$")
_LKP_METRIC = {"real": "elapsed_time", "user": "user_time", "sys": "system_time"}


def _lkp_kbuild_runs(lines: Sequence[str]) -> list[Run]:
    """lkp-tests' kbuild: `start time:`, then `real:`/`user:`/`sys:` of one build, `end time:`."""
    runs: list[Run] = []
    i = 0
    while i < len(lines):
        if not _LKP_START.match(lines[i]):
            i += 1
            continue
        j, results = i + 1, []
        while j < len(lines) and j - i <= 6 and not _LKP_END.match(lines[j]):
            if m := _LKP_TIME.match(lines[j]):
                value = parse_number(m.group(2))
                if value is not None:
                    results.append(Result(_LKP_METRIC[m.group(1)], f"{m.group(1)}:", value, "s", {}, line=j))
            elif lines[j].strip():
                break
            j += 1
        if j < len(lines) and _LKP_END.match(lines[j]) and len(results) == 3:
            run = Run(NAME, results, line_start=i, line_end=j + 1)
            run.attributes["harness"] = "lkp-tests kbuild"
            runs.append(run)
        i = j + 1
    return runs


# GNU time's summary of one command: `216.34user 14.36system 2:00.03elapsed 192%CPU (0avgtext+...`
_GNU_TIME = re.compile(
    r"^[ \t]*+(?P<user>\d{1,7}+(?:\.\d{1,3}+)?)user[ \t]++(?P<sys>\d{1,7}+(?:\.\d{1,3}+)?)system[ \t]++"
    r"(?P<elapsed>(?:\d{1,4}+:)?\d{1,4}+:\d\d(?:\.\d{1,3}+)?)elapsed[ \t]++(?P<cpu>\d{1,5}+)%CPU"
)
_GNU_TIME_TAIL = re.compile(r"^[ \t]*+\d++inputs\+\d++outputs\b")  # its second line
# what makes a timed command a kernel build: `time make -j2`, `make bzImage`, a heading saying so
_KERNEL_BUILD = re.compile(
    r"(?i)\bmake\b[^\n]{0,60}?(?:-j[ \t]*+\d|\bbzImage\b|\bvmlinux\b|\bmodules\b)"
    r"|\bkernel[ \t]++(?:compil|build)|\bcompil\w{0,6}+[ \t]++(?:times?|the[ \t]++kernel)\b|\bkernbench\b"
)
_BUILD_REACH = 40  # lines above a timed command where the build may be said


def _seconds(clock: str) -> float:
    """`2:00.03` -> 120.03, `1:02:03` -> 3723."""
    total = 0.0
    for part in clock.split(":"):
        total = total * 60 + float(part)
    return round(total, 3)


def _gnu_time_runs(lines: Sequence[str], before: Sequence[str]) -> list[Run]:
    """Kernel builds timed by GNU time (`time make -j2` then `216.34user 14.36system 2:00.03elapsed
    192%CPU`): one run per build, named by the caption over its group of runs. A timed command
    that is no kernel build (a dd, a dbench) is not kernbench and is not read."""
    runs: list[Run] = []
    floor = 0
    for i, line in enumerate(lines):
        m = _GNU_TIME.match(line) if "elapsed" in line else None
        if m is None:
            continue
        if not any(_KERNEL_BUILD.search(x) for x in lines[max(0, i - _BUILD_REACH):i]):
            continue
        end = i + 2 if i + 1 < len(lines) and _GNU_TIME_TAIL.match(lines[i + 1]) else i + 1
        cpu = float(m.group("cpu"))
        results = [Result("user_time", "user", float(m.group("user")), "s", {}, line=i),
                   Result("system_time", "system", float(m.group("sys")), "s", {}, line=i),
                   Result("elapsed_time", "elapsed", _seconds(m.group("elapsed")), "s", {}, line=i),
                   Result("percent_cpu", "CPU", cpu, "%CPU", {}, line=i)]
        run = Run(NAME, results, line_start=i, line_end=end)
        run.attributes["timer"] = "GNU time"
        if runs and all(not x.strip() or _is_build_chatter(x.strip()) for x in lines[floor:i]):
            run.system = runs[-1].system  # the next build of the same group
        else:
            _, caption = caption_above(lines, i, floor, skip=_is_build_chatter, before=before)
            run.system = caption if caption is None or not _NAMES_TOOL.search(caption) else None
        runs.append(run)
        floor = end
    return runs


_BUILD_COMMAND = re.compile(r"^(?:(?:/usr/bin/)?time[ \t]++)?make\b")  # `time make -j8 vmlinux`


def _is_build_chatter(s: str) -> bool:
    """Lines between a caption and its timed builds: the build command, GNU time's second line, a `--`."""
    return _is_chatter(s) or bool(_GNU_TIME_TAIL.match(s) or _BUILD_COMMAND.match(s)) or is_prompted(s) \
        or s.startswith("--") and not s.strip("-")


def parse(seg: Segment) -> list[Run]:
    """Every ``Average ... Run`` block of a segment, one run per block (and lkp's kbuild builds,
    and kernel builds timed by GNU time)."""
    kbuild = _lkp_kbuild_runs(seg.lines)
    timed = _gnu_time_runs(seg.lines, seg.before) if "elapsed" in seg.text else []
    number_repeated_runs(kbuild)
    number_repeated_runs(timed)
    return kbuild + timed + _parse_averages(seg)


def _parse_averages(seg: Segment) -> list[Run]:
    lines = seg.lines
    context = list(seg.before)
    runs: list[Run] = []
    prev: _Block | None = None
    prev_systems: list[str | None] | None = None
    i = 0
    while i < len(lines):
        m = _header(lines[i])
        if m is None:
            i += 1
            continue
        block = _read_block(lines, i, m)
        i = block.end
        run = Run(NAME, [], line_start=block.header, line_end=block.end)
        if block.error:
            run.status, run.reason = "unparsed", block.error
            runs.append(run)
            prev, prev_systems = None, None
            continue
        floor = prev.end if prev is not None else 0
        n = len(block.rows[0].cells)
        if n == 1:
            blocked, system, kernel = _system_above(lines, block.header, floor, context)
            if not blocked and prev_systems is not None and len(prev_systems) == 1:
                system = prev_systems[0]  # Optimal after Half, same kernel
            if kernel:
                run.attributes["kernel"] = kernel
            systems: list[str | None] = [system]
            run.system = system
        else:
            names = block.names or _names_above(lines, block.header, floor, n)
            gap_blank = prev is not None and not any(s.strip() for s in lines[floor : block.header])
            if names is None and gap_blank and prev_systems is not None and len(prev_systems) == n:
                names = [s or "" for s in prev_systems]
            if names is None:
                run.status, run.reason = (
                    "unparsed",
                    f"{n} kernbench columns without a header naming them",
                )
                runs.append(run)
                prev, prev_systems = block, None
                continue
            systems = list(names)
            run.caption = caption_above(lines, block.header, floor, skip=_is_chatter)[1]
        run.results = _results(block, systems)
        runs.append(run)
        prev, prev_systems = block, systems
    number_repeated_runs(runs)
    return runs


# distinctive literals, one of which every block the parser reads contains (see Parser.keywords)
KEYWORDS = ("load -j", "average half", "average optimal", "average maximal", "average max",
            "average custom", "average load", "average run", "average -j", "end time: ", "%cpu (")


PARSER = Parser(
    name=NAME,
    version="1",
    signature=re.compile(
        r"(?im)^[ \t>|]*Average\s+(?:(?:Half|Optimal|Maximal|Max|Custom)\s+)?(?:load\s+)?(?:-j|Run\b)"
        r"|^[ \t>|]*sys: \d{1,9}(?:\.\d{1,6})?s[ \t]*+\r?\n[ \t>|]*end time: \d"
        r"|^[ \t>|]*\d{1,7}(?:\.\d{1,3})?user[ \t]+\d{1,7}(?:\.\d{1,3})?system[ \t]+[\d:.]{4,14}elapsed[ \t]+\d{1,5}%CPU \("
    ),
    parse=parse,
    metrics=METRICS,
    keywords=KEYWORDS,
)

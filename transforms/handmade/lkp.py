"""The kernel test robot's comparison table (lkp-tests `compare`), as its reports print it:

    f553741ac8c0e467 2ae891b826958b60919ea21c727
    ---------------- ---------------------------
             %stddev     %change         %stddev
                 \\          |                \\
        433157            -6.2%     406447        hackbench.throughput
      5457 ±  6%     +30.9%       7146 ± 11%  perf-c2c.DRAM.remote

Each row is `<base> [± spread] <change> <patched> [± spread] <testcase>.<metric>`; the two column
heads (commits or releases) are the systems. Only rows of a benchmark the project reads
(`hackbench.throughput`, `netperf.Throughput_Mbps`, `fio.write_bw_MBps`) become results; the
profile, vmstat and perf-stat rows around them, and the job's own accounting (`<testcase>.time.*`),
do not. The `compiler/.../testcase:` line and the slash-separated values under it give the params.

The 0-day reports of 2013-2016 print the same table without the `%stddev` line, the spread as
`~ 1%`, one row per test box (`lkp-ne04/micro/hackbench/1600%-process-socket`: the box and the
case are params, the metric is the one of the `TOTAL hackbench.throughput` row below) and a
`TOTAL <testcase>.<metric>` row summing them.

Comparisons of three commits or more print a `change` column before every column but the first
(`21204  -17%  17604  23%  26123`, a gain without its sign), a `testcase/testparams/testbox` head
over the names, one row per box (`lmbench3/<params>/lkp-bdw-de1`: the testcase first, the box last)
and a `GEO-MEAN <testcase>.<metric>` row over them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from transforms.handmade.wrapped import JOINED

_HEAD = re.compile(r"^[^\S\n]*+%stddev(?:[^\S\n]++%?+change[^\S\n]++%stddev)++[^\S\n]*+$")
_DASHES = re.compile(r"^[^\S\n]*+-{8,}+(?:[^\S\n]++-{8,}+)++[^\S\n]*+$")
_TICKS = re.compile(r"^[^\S\n]*+\\(?:[^\S\n]++\|[^\S\n]++\\)++[^\S\n]*+$")
_NUMBER = re.compile(r"[-+]?\d[\d.]*+(?:e[-+]?\d++)?")
# `-6.2%`, `+2.1e+05%`, `-0.6` (of a % metric); `23%` (a gain printed without its sign, lkp's 3-way tables)
_CHANGE = re.compile(r"[-+]\d[\d.]*+(?:e[-+]?\d++)?%?|(?<![\d.])\d[\d.]*+%")
# the spread: `± 6%`, `±141%`, `~ 1%`, or the sign mangled by a wrong charset (`ą  3%`, `Â± 6%`)
_SIGN = re.compile(r"[^\s\d]{1,2}+")
_SPREAD = re.compile(r"(?![-+])[^\s\d]{1,2}+\d++%")  # (`-17%` is a change, not a spread)
_PERCENT = re.compile(r"(?<!\d)\d++%")
# (`lmbench3/performance-...-ucode=0x7000019/lkp-bdw-d`, `perf-sched...asm_sysvec_reschedule_ipi.[unknown]`)
_NAME = re.compile(r"[A-Za-z][\w.:/%+()=\[\]-]*+")
_KEYS = re.compile(r"^[^\S\n]*+([a-z_]++(?:/[a-z_]++)++):[^\S\n]*+$")
_PARAMS_HEAD = re.compile(r"^[^\S\n]*+(?:(?:with|on) following )?parameters:[^\S\n]*+$", re.I)
_SKIP_PARAMS = frozenset({"compiler", "cpufreq_governor", "kconfig", "rootfs", "testcase", "ucode"})

# the robot's testcase prefix -> the benchmark the project names it
BENCHMARKS = {
    "hackbench": "hackbench", "netperf": "netperf", "fio": "fio", "unixbench": "unixbench",
    "dbench": "dbench", "tbench": "tbench", "stream": "stream", "iperf": "iperf",
    "lmbench3": "lmbench", "kbuild": "kernbench", "sysbench": "sysbench",
}  # fmt: skip
# the last part of a metric's name -> its unit (`Throughput_Mbps`, `write_bw_MBps`, `PIPE.latency.us`)
_UNITS = {"Mbps": "Mbit/s", "MBps": "MB/s", "KBps": "KB/s", "GBps": "GB/s", "bps": "bit/s", "iops": "IOPS",
          "tps": "trans/s", "ms": "ms", "us": "us", "ns": "ns", "MB/sec": "MB/s"}
_LAST = re.compile(r"[._]([A-Za-z/]++)$")


@dataclass(slots=True)
class LkpValue:
    line: int  # index into the lines given
    benchmark: str
    label: str  # the metric as printed, without the testcase prefix
    value: float
    unit: str | None
    system: str
    params: dict[str, str]


def _params(lines: list[str], top: int) -> dict[str, str]:
    """`compiler/.../nr_threads/.../testcase:` and its values, the nearest above line `top`."""
    for k in range(top - 1, max(-1, top - 15), -1):
        m = _KEYS.match(lines[k])
        if m and k + 1 < len(lines):
            keys, vals = m.group(1).split("/"), lines[k + 1].strip().split("/")
            if len(keys) == len(vals):
                return {key: v for key, v in zip(keys, vals, strict=True) if key not in _SKIP_PARAMS and v}
            return {}
    return {}


def _unit(label: str) -> str | None:
    m = _LAST.search(label)
    return _UNITS.get(m.group(1)) if m else None


@dataclass(frozen=True, slots=True)
class Head:
    """What the rows of a table share: its two column heads and the job's params."""

    systems: tuple[str, ...]  # one per column, left to right
    params: dict[str, str]


def read_lkp(lines: list[str], carry: Head | None = None) -> tuple[list[LkpValue], set[int], Head | None]:
    """The values of every comparison table in `lines`, the lines the robot's report holds (tables,
    their heads), and the head of the last table. With `carry` (the head of a table in the text
    before), rows at the top of `lines` are that table's: a reply that quotes a table in two pieces
    with a comment between them."""
    out: list[LkpValue] = []
    used: set[int] = set()
    head = carry
    if carry is not None:
        top = next((k for k, x in enumerate(lines) if x.strip()), len(lines))
        _rows(lines, top, carry, out, used)
    for d, line in enumerate(lines):
        if d < 1 or not _DASHES.match(line):
            continue
        systems = lines[d - 1].split()
        if len(systems) > 2 and _NAME_HEAD.fullmatch(systems[-1]):
            systems = systems[:-1]  # `testcase/testparams/testbox`: the head of the names, no system
        k = d + 1
        if k < len(lines) and "fail:runs" in lines[k]:  # the runs that failed, then the figures
            j = next((j for j in range(k, min(len(lines), k + 200)) if _HEAD.match(lines[j])), None)
            if j is not None:
                used.update(range(k, j))
                k = j
        stddev = k < len(lines) and bool(_HEAD.match(lines[k]))
        if len(systems) not in (len(line.split()), len(line.split()) - 1) \
                or not stddev and _row(lines, k, len(systems)) is None:
            continue
        head = Head(tuple(systems), _params(lines, d - 1))
        used.update((d - 1, d, k) if stddev else (d - 1, d))
        k += stddev
        if k < len(lines) and _TICKS.match(lines[k]):
            used.add(k)
            k += 1
        _rows(lines, k, head, out, used)
    _param_tables(lines, out, used)
    return out, used, head


_NAME_HEAD = re.compile(r"[a-z]++(?:/[a-z]++)++")  # `testcase/testparams/testbox` over the rows' names
_SUMMING = frozenset({"TOTAL", "GEO-MEAN"})
_ROW_HEAD = re.compile(r"^[^\S\n]*+([a-z][a-z_]{1,30}+)[^\S\n]*+$")  # `worker_threads`, alone under the heads
_SETTING = re.compile(r"([A-Za-z_]\w{0,30}+)=([^\s=]{1,40}+)")


def _param_tables(lines: list[str], out: list[LkpValue], used: set[int]) -> None:
    """The same rows typed by hand under a parameter (`hackbench: ipc=pipe mode=process`, the two
    heads, `worker_threads` alone on a line, then `25%  115562  +825.7%  1069725
    hackbench.throughput_avg`, a `(0.35%) ... stddev` line under a row maybe): the row's first cell
    is the parameter's value, the caption's settings are params. Under the heads and a blank line
    instead, each row's first cell names its case (`A-P50-r-4k`)."""
    for d in range(1, len(lines) - 1):
        m = _ROW_HEAD.match(lines[d])
        systems = lines[d - 1].split()
        if d in used or len(systems) < 2 or any(_NUMBER.fullmatch(x) for x in systems):
            continue
        if m is not None:
            param = m.group(1)
        elif not lines[d].strip() and _cased_row(lines[d + 1], len(systems)):
            param = "case"  # `A-P50-r-4k  16881 ±  2%  +1.2%  17081 ±  2%  fio.read_bw_MBps`: each row its case
        else:
            continue
        above = next((lines[j] for j in range(d - 2, max(-1, d - 5), -1) if lines[j].strip()), "")
        params = dict(_SETTING.findall(above)) if ":" in above else {}
        head = Head(tuple(systems), params)
        rows: list[int] = []
        for k in range(d + 1, min(len(lines), d + 200)):
            toks = lines[k].split()
            if toks and toks[-1] == "stddev" and rows:
                rows.append(k)  # the spreads of the row above
                continue
            row = _row([" ".join(toks[1:])], 0, len(systems)) if len(toks) > 2 else None
            if row is None:
                break
            values, _, name, _ = row
            bench, label = _benchmark_of(name), name.partition(".")[2]
            if bench is not None and label and not label.startswith("time."):
                _emit(out, head, k, bench, label, {**params, param: toks[0]}, values)
            rows.append(k)
        if rows:
            used.update((d - 1, d, *rows))


def _benchmark_of(name: str) -> str | None:
    """`fio.read_bw_MBps`, `hackbench-process.throughput`: the benchmark a row's testcase names, if one we read."""
    return BENCHMARKS.get(name.partition(".")[0].split("-")[0])


def _cased_row(line: str, n: int) -> bool:
    """A row of one of the robot's benchmarks behind a case's name of its own (not a number)."""
    toks = line.split()
    if len(toks) < 3 or _NUMBER.fullmatch(toks[0]) or not _NAME.fullmatch(toks[0]):
        return False
    row = _row([" ".join(toks[1:])], 0, n)
    return row is not None and _benchmark_of(row[2]) is not None


def _row(lines: list[str], k: int, n: int) -> tuple[list[str], bool, str, int] | None:
    """(the n values, TOTAL row?, the name, lines used) of a row at line k: `<v> [± s%] (<change>
    <v> [± s%])*(n-1) [TOTAL] <name>`, the name maybe wrapped onto the next line by a mailer."""
    if k >= len(lines):
        return None  # the heads' rule was the last line
    toks = lines[k].split()
    used = 1
    if toks and not _NAME.fullmatch(toks[-1]):
        nxt = lines[k + 1].split() if k + 1 < len(lines) else []
        if not 1 <= len(nxt) <= 2 or not _NAME.fullmatch(nxt[-1]):
            return None
        toks, used = toks + nxt, 2  # `0.69  -10.3%  0.62` / `reaim.child_systime`, `2.01 ±` / `2%  name`
    if len(toks) < 2 or not _NAME.fullmatch(toks[-1]):
        return None
    name, toks = toks[-1], toks[:-1]
    total = bool(toks) and toks[-1] in _SUMMING  # (`GEO-MEAN`: the 3-way tables' row over the boxes)
    if total:
        toks = toks[:-1]
    values: list[str] = []
    i = 0
    while i < len(toks):
        if values:  # a change stands before every value but the first
            if not _CHANGE.fullmatch(toks[i]) or i + 1 >= len(toks):
                return None
            i += 1
        if not _NUMBER.fullmatch(toks[i]):
            return None
        values.append(toks[i])
        i += 1
        if i < len(toks) and _SPREAD.fullmatch(toks[i]):
            i += 1
        elif i + 1 < len(toks) and _SIGN.fullmatch(toks[i]) and _PERCENT.fullmatch(toks[i + 1]):
            i += 2
    return (values, total, name, used) if len(values) == n else None


def _rows(lines: list[str], k: int, head: Head, out: list[LkpValue], used: set[int]) -> None:
    """The table's rows from line k on, to the first line that is none."""
    boxes: list[tuple[int, str, dict[str, str], list[str]]] = []  # per-box rows wait for the TOTAL row
    while k < len(lines):
        if lines[k] == JOINED:  # the line a mailer broke a row onto, joined to it again (handmade.wrapped)
            used.add(k)
            k += 1
            continue
        row = _row(lines, k, len(head.systems))
        if row is None:
            break
        values, total, name, span = row
        used.update(range(k, k + span))
        if "." not in name and "/" in name:  # `lkp-ne04/micro/hackbench/1600%-process-socket`
            parts = name.split("/")
            at = next((i for i, p in enumerate(parts) if p in BENCHMARKS), None)
            if at == 0 and len(parts) >= 3:  # `lmbench3/<params>/lkp-bdw-d`: the testcase first, the box last
                params = {**head.params, "testbox": parts[-1], "case": "/".join(parts[1:-1])}
                boxes.append((k, BENCHMARKS[parts[0]], {p: v for p, v in params.items() if v}, values))
            elif at is not None:
                params = {**head.params, "testbox": parts[0], "case": "/".join(parts[at + 1:])}
                boxes.append((k, BENCHMARKS[parts[at]], {p: v for p, v in params.items() if v}, values))
            k += span
            continue
        bench, label = _benchmark_of(name), name.partition(".")[2]
        ours = bench is not None and bool(label) and not label.startswith("time.")
        if total:  # the boxes above measured what it sums (a counter, maybe: no result)
            for line, bbench, params, vals in boxes:
                if ours and bbench == bench:
                    _emit(out, head, line, bench, label, params, vals)
            boxes = []
        if ours:
            _emit(out, head, k, bench, label, dict(head.params), values)
        k += span
    # boxes no TOTAL row names are left out: what they measured is not said


def _emit(out: list[LkpValue], head: Head, line: int, bench: str, label: str, params: dict[str, str],
          values: list[str]) -> None:
    for system, value in zip(head.systems, values, strict=True):
        out.append(LkpValue(line, bench, label, float(value), _unit(label), system, dict(params)))


def robot_heads(lines: list[str], used: set[int]) -> bool:
    """Whether the lines a reading used hold the robot's own `%stddev  %change  %stddev` head (a
    writeback comparison has the same rows without it, and may name what no prefix names)."""
    return any(_HEAD.match(lines[k]) for k in used if k < len(lines))


def parameter_list(lines: list[str]) -> set[int]:
    """The report's `parameters:` list (`nr_threads: 100%`, `iterations: 4`): the job's settings."""
    out: set[int] = set()
    for k, line in enumerate(lines):
        if not _PARAMS_HEAD.match(line):
            continue
        j = k + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        while j < len(lines) and lines[j].strip():
            out.add(j)
            j += 1
    return out

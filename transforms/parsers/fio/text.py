"""fio normal output (2.x `io=, bw=, iops=` and >= 2.17/3.x `IOPS=, BW=`) and terse v3/v4/v5.

Rows (one `Run` per fio invocation: the job sections and their `Run status group` lines):

* per job and direction (`params.direction` = read|write|trim|mixed):
  `bandwidth` (KiB/s), `iops` (IOPS), latency summaries `slat_min`, `slat_max`,
  `slat_avg`, `slat_stddev` (same for `clat`, `lat`; in us whatever fio printed:
  nsec/usec/msec, `K` suffixes) and `clat_percentile` (`lat_`/`slat_` when fio
  printed those) with `params.percentile` (`99`, `99.5`, `99.99`: trailing zeros
  dropped so text and terse agree).
* per group and direction: `aggregate_bandwidth` (KiB/s) from `READ: bw=` (3.x) or
  `READ: aggrb=` (2.x), with `params.group`.
* terse lines (`3;fio-2.1.10;job;0;0;...`, field order from fio's HOWTO): the same
  metrics for every direction that moved data; its percentiles are read as clat
  percentiles (terse does not say when `lat_percentiles` replaced them).

Units: bandwidth is converted to KiB/s exactly. fio <= 2.16 prints `KB/s`/`MB/s`
meaning 1024-based (kb_base=1024); 3.x prints IEC units with SI ones in parentheses
(`102MiB/s (107MB/s)`) and we read the first, honouring its prefix. Not emitted:
bw/iops sample statistics (`bw (KiB/s): min=...`), cpu, IO depth and latency
histograms, disk stats, progress (`Jobs:`) lines, `io=` totals, runtimes.

params: `job` (job name), `jobs` (jobs aggregated in that report), `direction`,
`rw`, `bs` (bytes when one size), `ioengine`, `iodepth` (from the job description
line `name: (g=0): rw=..., bs=..., ioengine=..., iodepth=...` or the `fio --rw= --bs=`
command line), `instance` (1..N when one invocation prints the same job name twice,
as numjobs without group_reporting does), `repeat` (same key in several runs).

`--status-interval=N` prints the whole report every N seconds (stat.c
`__show_running_run_stats` calls the same `__show_run_stats` as the end of the run: job
sections, group status, disk stats), cumulative since the start, before the final one. Each
`(groupid=...)` header names its job's process (pid) and the time it was printed; each job's
runtime (`(3598MiB/100001msec)`, 2.x `runt=`) and each group's (`run=...-100001msec`, 2.x
`maxt=`) say how long it had run. Consecutive reports of one process whose runtimes grow with
their header dates are one series (`series`): every report but the last gives its rows with
statistic `interval` and params `interval_start` = `0`, `interval_end` = the runtime of the row's
job (or group) in seconds (`100.001`); the last report gives the summary rows a paste of it alone
gives. Stonewalled groups join the dumps as they start; a finished job stands still and is not
repeated. Headers without pid and date (fio 1.x), terse lines and hand-averaged pastes are never a
series.

Hand-averaged pastes (fractional `iops=63528.9` or `runt=8274.4msec` where fio prints
integers, or "average" in the lines just above) keep their values with
statistic `mean`, never `value`. Mail damage undone first: Markdown `*iops=463*`,
HTML entities, and the `<host> ` prefix of `fio --client` runs. Not read: JSON output,
terse v2 (its field layout changed between fio releases).

`system` is the caption just above a block when it reads like a label (`2.4.16:`,
`Before:`, `- default scheduler`, `linux-2.4.10-pre12`); prose, attributions and
generic headings are kept as `Run.caption` only.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal

from transforms.model import MetricSpec, Parser, Result, Run, Segment
from transforms.numbers import parse_number
from transforms.parsers._common import (
    caption_system,
    naming_caption,
    nearest_caption,
    number_repeated_results,
    scaled,
    system_label,
)
from transforms.parsers.fio.series import Clock, mark_series

NAME = "fio"

_LAT_KINDS = ("slat", "clat", "lat")
_LAT_STATS = ("min", "max", "avg", "stddev")

_HAND_BW = ("B/s", "KB/s", "MB/s", "GB/s", "MiB/s", "GiB/s")
METRICS: dict[str, MetricSpec] = {
    # fio's printouts are read in KiB/s; a table a person typed keeps the unit it printed
    "bandwidth": MetricSpec("KiB/s", True, 0.0, 1e9, units=_HAND_BW),
    "iops": MetricSpec("IOPS", True, 0.0, 1e9),
    "aggregate_bandwidth": MetricSpec("KiB/s", True, 0.0, 1e9, units=_HAND_BW),
    **{f"{k}_{s}": MetricSpec("us", False, 0.0, 1e10) for k in _LAT_KINDS for s in _LAT_STATS},
    **{f"{k}_percentile": MetricSpec("us", False, 0.0, 1e10) for k in _LAT_KINDS},
}

_N = r"\d+(?:\.\d+)?"
_DIRS = "read|write|trim|mixed"
# a job name is words joined by blanks, so that the blanks before its colon are never part of it
_JOB_NAME = r"^\s*+(?P<name>[^\s:]++(?:\s++[^\s:]++)*+)\s*+:"
JOB = re.compile(_JOB_NAME + r"\s*+\(groupid=(?P<gid>\d+),\s*+jobs=(?P<jobs>\d+)\)")
# the rest of a job header: `: err= 0: pid=16109: Sat Jun 24 12:07:54 2017` (fio's ctime at print)
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
JOB_CLOCK = re.compile(
    r":\s*+err=\s*+\d++\s*+:\s*+pid=(?P<pid>\d{1,10}+)\s*+:\s*+[A-Z][a-z]{2}\s++"
    rf"(?P<mon>{'|'.join(_MONTHS)})\s++(?P<day>\d{{1,2}}+)\s++"
    r"(?P<h>\d\d):(?P<m>\d\d):(?P<s>\d\d)\s++(?P<y>\d{4})\b"
)
DESC = re.compile(
    # `bs` ends at its first comma: any later one would leave the same `.*?ioengine=` to find
    _JOB_NAME + r"\s*+\(g=(?P<gid>\d+)\)\s*+:\s*+rw=(?P<rw>[\w,]+?),\s*+bs=(?P<bs>[^,\n]*+),"
    r".*?ioengine=(?P<engine>[\w.-]+),\s*+iodepth=(?P<depth>\d+)"
)
DIR2 = re.compile(
    rf"^\s*(?P<dir>{_DIRS})\s*:\s*io=[^,]*,\s*bw=\s*(?P<bw>{_N})\s*(?P<unit>[KMGTP]?B)/s\s*,"
    rf"\s*iops=\s*(?P<iops>{_N})\s*,\s*runt=\s*(?P<runt>{_N})\s*msec"
)
DIR3 = re.compile(
    rf"^\s*(?P<dir>{_DIRS})\s*:\s*IOPS=\s*(?P<iops>{_N}[kMG]?)\s*,\s*BW=\s*(?P<bw>{_N})\s*"
    r"(?P<unit>[KMGTP]iB|[kMGTP]B|B)/s"
)
RUNTIME3 = re.compile(r"\([^()/\s]++/(?P<ms>\d{1,12}+)msec\)")  # 3.x `(1024MiB/10001msec)`
LAT = re.compile(
    rf"^\s*(?P<kind>slat|clat|lat)\s*\((?P<unit>nsec|usec|msec)\)\s*:\s*min=\s*(?P<min>{_N}[kKMG]?)\s*,"
    rf"\s*max=\s*(?P<max>{_N}[kKMG]?)\s*,\s*avg=\s*(?P<avg>{_N}[kKMG]?)\s*,\s*stdev=\s*(?P<dev>{_N}[kKMG]?)"
)
PCT_HEAD = re.compile(r"^\s*(?P<kind>slat|clat|lat)\s+percentiles\s*\((?P<unit>nsec|usec|msec)\)\s*:")
PCT_ROW = re.compile(r"^\s*\|")
PCT_ITEM = re.compile(rf"(?<!\d)(?P<p>{_N})th\s*+=\s*+\[\s*+(?P<v>{_N}[KMG]?)\s*+\]")
GROUP_HEAD = re.compile(r"^\s*Run status group (?P<gid>\d+) \(all jobs\)\s*:")
# the tail of a group line a mailer wrapped (`maxb=440590KB/s, mint=35699msec, maxt=36564msec`)
GROUP_WRAPPED = re.compile(r"^\s*+(?:minb|maxb|mint|maxt|run)=")
GROUP2 = re.compile(rf"^\s*(?P<dir>READ|WRITE|TRIM|MIXED)\s*:\s*io=[^,]*,\s*aggrb=\s*(?P<bw>{_N})\s*(?P<unit>[KMGTP]?B)/s")
# the group's longest runtime: 3.x `run=341704-341704msec`, 2.x `maxt=300002msec`
GROUP_RUN = re.compile(r"\brun=\s*+\d{1,12}+-(?P<run>\d{1,12}+)msec|\bmaxt=\s*+(?P<maxt>\d{1,12}+)msec")
GROUP3 = re.compile(rf"^\s*(?P<dir>READ|WRITE|TRIM|MIXED)\s*:\s*bw=\s*(?P<bw>{_N})\s*(?P<unit>[KMGTP]iB|[kMGTP]B|B)/s")
TERSE = re.compile(r"^\s*(?P<ver>[345]);(?P<fv>(?:fio-)?\d[^;]*);(?P<job>[^;]*);(?P<gid>\d+);(?P<err>\d+);")
VERSION = re.compile(r"^\s*+fio[- ](?P<v>\d+\.\d++[\w.-]*+)\s*$")
# `fio ... --opt`: the command word, then a long option after it (one pattern with `.*` between
# would rescan the line from every `fio`)
COMMAND = re.compile(r"(?:^|[\s/$#>])fio\s+")
LONG_OPTION = re.compile(r"(?<=\s)--\w")
AVERAGE = re.compile(r"\baverag", re.I)

# The driver also scans the raw body, where quoted lines still carry their `> ` prefix.
_Q = r"^(?:[ \t]{0,2}[A-Za-z]{0,3}>)*"
SIGNATURE = re.compile(
    rf"{_Q}[^\S\n]*+[^\s:>][^:\n>]*:\s*\(groupid=\d+,\s*jobs=\d+\)"
    rf"|{_Q}[^\S\n]*+\**(?:{_DIRS})\s*:\s*(?:io=|IOPS=)"
    rf"|{_Q}[^\S\n]*+(?:READ|WRITE|TRIM|MIXED)\s*:\s*(?:io=|bw=)"
    rf"|{_Q}[^\S\n]*+[345];(?:fio-)?\d[^;\n]*;[^;\n]*;\d+;\d+;",
    re.M,
)

_KIB = Decimal(1024)
# KiB/s per printed unit. fio <= 2.16 (`io=/bw=/aggrb=` grammar) means 1024 by `KB`.
_BW2: dict[str, Decimal] = {"B": 1 / _KIB, "KB": Decimal(1), "MB": _KIB, "GB": _KIB**2, "TB": _KIB**3, "PB": _KIB**4}
BW3: dict[str, Decimal] = {
    "B": 1 / _KIB,
    "KiB": Decimal(1),
    "MiB": _KIB,
    "GiB": _KIB**2,
    "TiB": _KIB**3,
    "PiB": _KIB**4,
    "kB": Decimal(1000) / _KIB,
    "MB": Decimal(10**6) / _KIB,
    "GB": Decimal(10**9) / _KIB,
    "TB": Decimal(10**12) / _KIB,
    "PB": Decimal(10**15) / _KIB,
}
_TIME_US = {"nsec": Decimal("0.001"), "usec": Decimal(1), "msec": Decimal(1000)}
SUFFIX = {"k": Decimal(1000), "K": Decimal(1000), "M": Decimal(10**6), "G": Decimal(10**9)}  # fio's num2str
_SIZE = re.compile(r"^(?P<n>\d+)(?P<u>[kKmMgG]?)(?:i?B)?$")


def _scaled(token: str, factor: Decimal) -> float | None:
    """fio prints `26.2k`: every number it prints may carry a num2str K/M/G suffix."""
    return scaled(token, factor, SUFFIX)


# --- parameters ---------------------------------------------------------------------------------


def _bs(text: str) -> str:
    """`4K-4K/4K-4K`, `(R) 4096B-4096B, (W) ...`, `4k` -> `4096`; mixed sizes stay as printed."""
    cleaned = re.sub(r"\([RWT]\)\s*", "", text).strip()
    parts = {p.strip() for p in re.split(r"[-/,]", cleaned) if p.strip()}
    if len(parts) != 1:
        return cleaned
    m = _SIZE.match(parts.pop())
    if not m:
        return cleaned
    power = " KMG".index(m["u"].upper()) if m["u"] else 0
    return str(int(m["n"]) * 1024**power)


def _command_params(line: str) -> dict[str, str]:
    """Job parameters from a `fio --rw=... --bs=...` command line."""
    out: dict[str, str] = {}
    names = {"rw": "rw", "readwrite": "rw", "bs": "bs", "blocksize": "bs", "ioengine": "ioengine", "iodepth": "iodepth"}
    for key, value in re.findall(r"--(\w+)=(\S+)", line):
        if key in names:
            out[names[key]] = _bs(value) if names[key] == "bs" else value
    return out


def _percentile(token: str) -> str:
    return format(Decimal(token).normalize(), "f")


# --- runs ---------------------------------------------------------------------------------------


@dataclass
class _FioRun:
    start: int
    end: int = 0
    kind: str = "normal"  # normal | terse
    results: list[Result] = field(default_factory=list)
    closed: bool = False  # group status seen: the next job starts another invocation
    averaged: bool = False
    version: str | None = None
    notes: list[str] = field(default_factory=list)
    unparsed: str | None = None
    seen: dict[tuple, int] = field(default_factory=dict)  # (job, direction) -> times seen
    group_params: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    # the report's clock (`series`): job name/pid pairs, the latest header date, the longest runtime
    heads: set[str] = field(default_factory=set)
    stamp: Decimal | None = None
    clockless: bool = False  # a job header without pid and date
    runtime_ms: Decimal | None = None
    head_lines: list[tuple[int, str]] = field(default_factory=list)  # (line, name/pid) of each header
    job_ms: dict[str, Decimal] = field(default_factory=dict)  # name/pid -> that job's longest runtime
    group_ms: dict[str, Decimal] = field(default_factory=dict)  # `group N` -> its longest runtime


_CLIENT = re.compile(r"^\s*<[^>\s]+>\s?")  # `fio --client=host` prefixes every line with `<host> `


def _clean(line: str) -> str:
    """Undo mail damage that fio never prints (Markdown `*iops=463*`, `&amp;gt;`) and the
    `<host> ` prefix of client/server runs."""
    return _CLIENT.sub("", html.unescape(html.unescape(line))).replace("*", "")


class _Reader:
    """Walks one segment's lines, building fio runs (one per invocation)."""

    HANDLERS = (
        (TERSE, "_terse"),
        (GROUP_HEAD, "_group_head"),
        (GROUP3, "_group3"),
        (GROUP2, "_group2"),
        (DESC, "_desc"),
        (JOB, "_job"),
        (DIR3, "_dir3"),
        (DIR2, "_dir2"),
        (LAT, "_lat"),
        (PCT_HEAD, "_pct_head"),
        (VERSION, "_version"),
    )

    def __init__(self, seg: Segment) -> None:
        self.seg = seg
        self.runs: list[_FioRun] = []
        self.run: _FioRun | None = None
        self.cmd: dict[str, str] = {}  # params from the last `fio --...` command line
        self.descs: dict[str, dict[str, str]] = {}  # job name -> params from its description line
        self.job: dict[str, str] | None = None  # params of the current job section
        self.direction: dict[str, str] | None = None  # params of the current read/write section
        self.pct: tuple[str, str] | None = None  # (kind, unit) inside a percentile block
        self.group: str | None = None
        self.lead: int | None = None  # first command/description/version line of the next run
        self.version: str | None = None  # `fio-3.1` printed before the next job section
        self.head: str | None = None  # name/pid of the current job section, when its header has them

    # run bookkeeping
    def _open(self, i: int, kind: str = "normal") -> _FioRun:
        if self.run is not None and (self.run.closed or self.run.kind != kind):
            self.close(i)
        if self.run is None:
            self.run = _FioRun(start=self.lead if self.lead is not None else i, kind=kind)
            self.lead = None
            self.job = self.direction = self.pct = None
            self.head = None
        return self.run

    def close(self, i: int) -> None:
        if self.run is not None:
            self.runs.append(self.run)
            self.cmd = {}
        self.run = None

    def _add(self, i: int, metric: str, label: str, value: float | None, unit: str, params: dict[str, str]) -> None:
        run = self.run if self.run is not None else self._open(i)
        if value is None:
            run.unparsed = run.unparsed or f"unreadable number in {label!r} at line {i}"
            return
        run.results.append(Result(metric, label, value, unit, dict(params), line=i))
        run.end = i + 1

    def _lead(self, i: int) -> None:
        if self.run is not None and (self.run.closed or self.run.kind == "terse"):
            self.close(i)
        if self.lead is None:
            self.lead = i

    def feed(self, i: int, raw: str) -> None:
        line = _clean(raw)
        if self.pct and PCT_ROW.match(line):
            self._percentiles(i, line)
            return
        if self.pct and not line.strip():
            return  # the line a wrapped percentile row's rest was joined back from
        self.pct = None
        for pattern, name in self.HANDLERS:
            m = pattern.match(line)
            if m:
                getattr(self, name)(i, m, line)
                return
        if self.run is not None and self.run.end == i and self.run.results and GROUP_WRAPPED.match(line):
            self.run.end = i + 1  # a group line's tail, wrapped by the mailer: the printout's own
            return
        if (cmd := COMMAND.search(line)) and LONG_OPTION.search(line, cmd.end()):
            if self.run is not None and self.run.results:
                self.close(i)
            self.lead = i
            self.cmd = _command_params(line)

    # normal output
    def _version(self, i: int, m: re.Match[str], line: str) -> None:
        self._lead(i)
        self.version = m["v"]

    def _desc(self, i: int, m: re.Match[str], line: str) -> None:
        self._lead(i)
        self.descs[m["name"]] = {"rw": m["rw"], "bs": _bs(m["bs"]), "ioengine": m["engine"], "iodepth": m["depth"]}

    def _job(self, i: int, m: re.Match[str], line: str) -> None:
        run = self._open(i)
        if self.version:
            run.version, self.version = self.version, None
        name = m["name"].strip()
        self.job = {**self.cmd, **self.descs.get(name, {}), "job": name, "jobs": m["jobs"]}
        self.direction = None
        shared = {k: v for k, v in self.job.items() if k in ("rw", "bs", "ioengine", "iodepth")}
        run.group_params.setdefault(m["gid"], []).append(shared)
        self.head = self._clock(run, i, name, JOB_CLOCK.match(line, m.end()))

    @staticmethod
    def _clock(run: _FioRun, i: int, name: str, clock: re.Match[str] | None) -> str | None:
        """A job header's pid and print date: what tells a `--status-interval` series apart.
        Returns the job's identity (name and pid), None when the header has no clock."""
        year = int(clock["y"]) if clock is not None else 0
        if clock is None or year < 1:
            run.clockless = True
            return None
        head = f"{name}\x00{clock['pid']}"
        run.heads.add(head)
        run.head_lines.append((i, head))
        month = datetime(year, _MONTHS.index(clock["mon"]) + 1, 1, tzinfo=UTC)
        # day and time as offsets, not datetime fields: a `Feb 31` fio never prints costs nothing
        day, h, mi, sec = (int(clock[k]) for k in ("day", "h", "m", "s"))
        stamp = Decimal(int(month.timestamp()) + (day - 1) * 86400 + h * 3600 + mi * 60 + sec)
        run.stamp = stamp if run.stamp is None else max(run.stamp, stamp)
        return head

    def _runtime(self, msec: str) -> None:
        """The longest runtime of a report's directions (how long its jobs had run), and of the
        current job's."""
        run, ms = self.run, Decimal(msec)
        if run is None:
            return
        run.runtime_ms = ms if run.runtime_ms is None else max(run.runtime_ms, ms)
        if self.job is not None and self.head is not None:
            run.job_ms[self.head] = max(ms, run.job_ms.get(self.head, ms))

    def _direction_params(self, i: int, direction: str) -> dict[str, str]:
        run = self._open(i)
        base = self.job if self.job is not None else dict(self.cmd)
        key = (base.get("job"), direction)
        if self.job is None and key in run.seen:
            # orphan read/write lines pasted one block after another: separate runs
            self.close(i)
            run = self._open(i)
        run.seen[key] = run.seen.get(key, 0) + 1
        params = {**base, "direction": direction}
        if run.seen[key] > 1:
            params["instance"] = str(run.seen[key])
            for r in run.results:
                if (r.params.get("job"), r.params.get("direction")) == key and "instance" not in r.params:
                    r.params["instance"] = "1"
        self.direction = params
        run.averaged = run.averaged or self._looks_averaged(i)
        return params

    def _looks_averaged(self, i: int) -> bool:
        above = [t for t in self.seg.lines[max(0, i - 3) : i] if t.strip()]
        return any(AVERAGE.search(t) for t in above[-2:])

    def _dir2(self, i: int, m: re.Match[str], line: str) -> None:
        params = self._direction_params(i, m["dir"])
        if "." in m["iops"] or "." in m["runt"]:
            self._open(i).averaged = True  # fio 2.x prints both as integers
        self._add(i, "bandwidth", "bw", _scaled(m["bw"], _BW2[m["unit"]]), "KiB/s", params)
        self._add(i, "iops", "iops", _scaled(m["iops"], Decimal(1)), "IOPS", params)
        self._runtime(m["runt"])

    def _dir3(self, i: int, m: re.Match[str], line: str) -> None:
        params = self._direction_params(i, m["dir"])
        self._add(i, "bandwidth", "BW", _scaled(m["bw"], BW3[m["unit"]]), "KiB/s", params)
        self._add(i, "iops", "IOPS", _scaled(m["iops"], Decimal(1)), "IOPS", params)  # `26.2k`
        if (runtime := RUNTIME3.search(line, m.end())) is not None:
            self._runtime(runtime["ms"])

    def _lat(self, i: int, m: re.Match[str], line: str) -> None:
        if self.direction is None:
            self._open(i).notes.append(f"line {i}: latency line without a read/write line above, skipped")
            return
        factor = _TIME_US[m["unit"]]
        for stat, group, word in zip(_LAT_STATS, ("min", "max", "avg", "dev"), ("min", "max", "avg", "stdev"), strict=True):
            label = f"{m['kind']} ({m['unit']}) {word}"
            self._add(i, f"{m['kind']}_{stat}", label, _scaled(m[group], factor), "us", self.direction)

    def _pct_head(self, i: int, m: re.Match[str], line: str) -> None:
        if self.direction is not None:
            self.pct = (m["kind"], m["unit"])

    def _percentiles(self, i: int, line: str) -> None:
        assert self.pct is not None and self.direction is not None
        kind, unit = self.pct
        for item in PCT_ITEM.finditer(line):
            params = {**self.direction, "percentile": _percentile(item["p"])}
            value = _scaled(item["v"], _TIME_US[unit])
            self._add(i, f"{kind}_percentile", f"{kind} percentiles ({unit})", value, "us", params)

    # group status
    def _group_head(self, i: int, m: re.Match[str], line: str) -> None:
        run = self.run if self.run is not None else self._open(i)
        self.group = m["gid"]
        self.job = self.direction = None
        run.closed = True

    def _group_line(self, i: int, m: re.Match[str], line: str, table: dict[str, Decimal], label: str) -> None:
        run = self.run if self.run is not None else self._open(i)
        params = dict(self.cmd)
        jobs = run.group_params.get(self.group or "", [])
        if jobs:
            params.update({k: v for k, v in jobs[0].items() if all(j.get(k) == v for j in jobs)})
        params["direction"] = m["dir"].lower()
        if self.group is not None:
            params["group"] = self.group
        self._add(i, "aggregate_bandwidth", label, _scaled(m["bw"], table[m["unit"]]), "KiB/s", params)
        run.closed = True
        if self.group is not None and (found := GROUP_RUN.search(line, m.end())) is not None:
            ms, key = Decimal(found["run"] or found["maxt"]), _group_key(self.group)
            run.group_ms[key] = max(ms, run.group_ms.get(key, ms))

    def _group2(self, i: int, m: re.Match[str], line: str) -> None:
        self._group_line(i, m, line, _BW2, "aggrb")

    def _group3(self, i: int, m: re.Match[str], line: str) -> None:
        self._group_line(i, m, line, BW3, "bw")

    # terse
    def _terse(self, i: int, m: re.Match[str], line: str) -> None:
        run = self._open(i, kind="terse")
        run.version = m["fv"].removeprefix("fio-")
        fields = line.strip().split(";")
        ver = int(m["ver"])
        size = 47 if ver == 5 else 41
        dirs = ("read", "write", "trim") if ver in (4, 5) else ("read", "write")
        if len(fields) < 5 + size * len(dirs) + 5:
            run.unparsed = run.unparsed or f"terse v{ver} line {i} has {len(fields)} fields, too few"
            return
        job = {**self.cmd, "job": m["job"]}
        for k, direction in enumerate(dirs):
            block = fields[5 + k * size : 5 + (k + 1) * size]
            self._terse_direction(i, block, {**job, "direction": direction})

    def _terse_direction(self, i: int, f: list[str], params: dict[str, str]) -> None:
        if parse_number(f[0]) == 0 and parse_number(f[3]) == 0:
            return  # this direction moved no data
        d = params["direction"]
        one = Decimal(1)
        self._add(i, "bandwidth", f"{d}_bandwidth_kb", _scaled(f[1], one), "KiB/s", params)
        self._add(i, "iops", f"{d}_iops", _scaled(f[2], one), "IOPS", params)
        for kind, offset in (("slat", 4), ("clat", 8), ("lat", 32)):
            if all(parse_number(v) == 0 for v in f[offset : offset + 4]):
                continue  # fio prints 0;0;0.000000;0.000000 for a latency it did not measure
            for k, stat in enumerate(_LAT_STATS):
                label = f"{d}_{kind}_{('min', 'max', 'mean', 'dev')[k]}_us"
                self._add(i, f"{kind}_{stat}", label, _scaled(f[offset + k], one), "us", params)
        for item in f[12:32]:
            p, _, v = item.partition("%=")
            if not parse_number(p):
                continue  # `0%=0`: an unused percentile slot
            pct = {**params, "percentile": _percentile(p)}
            self._add(i, "clat_percentile", f"{d}_clat_pct", _scaled(v, one), "us", pct)


def _report_captions(seg: Segment, fr: _FioRun) -> None:
    """One command, then several reports, each under a caption of its own (`Without X:` ... report
    ... `With X:` ... report): each report's rows take the system its caption names."""
    heads = [i for i in range(fr.start, min(fr.end, len(seg.lines))) if JOB.search(_clean(seg.lines[i]))]
    if len(heads) < 2:
        _summary_captions(seg, fr)
        return
    floors = [fr.start, *(h + 1 for h in heads[:-1])]
    named = [naming_caption(seg.lines, h, lo) for h, lo in zip(heads, floors, strict=True)]
    if None in named or len(set(named)) < len(named):
        return  # only when every report has a caption of its own, all different
    for r in fr.results:
        k = max((n for n, h in enumerate(heads) if h <= r.line), default=None)
        if k is not None and r.system is None:
            r.system = named[k]


def _summary_captions(seg: Segment, fr: _FioRun) -> None:
    """Only the groups' summary lines, pasted in blocks each under a short caption of its own
    (`RAID1` / `READ: bw=...` / `WRITE: bw=...`, then `ram disk:` / ...): each block's rows take
    the system its caption names, the first block's caption being the run's own."""
    lines = seg.lines
    summary = [i for i in range(fr.start, min(fr.end, len(lines)))
               if GROUP3.match(_clean(lines[i])) or GROUP2.match(_clean(lines[i]))]
    starts = [i for k, i in enumerate(summary) if k == 0 or summary[k - 1] < i - 1]
    if len(starts) < 2:
        return
    names: list[str | None] = []
    for i in starts:
        k, reach = i - 1, i - 2
        while k >= 0 and (not lines[k].strip() or GROUP_HEAD.match(_clean(lines[k]))):
            reach -= bool(lines[k].strip())  # `Run status group 0 (all jobs):` between caption and lines
            k -= 1
        names.append(system_label(lines[k].strip()) if k >= 0 and k >= reach else None)
    if None in names or any(a.lower() == b.lower() for a, b in zip(names, names[1:], strict=False) if a and b):
        return  # only when every block has a caption of its own, each other than the one before
        # (a series repeated under the same captions, `Unpatched:` / `Patched:` twice, is read block by block)
    for r in fr.results:
        k = max((n for n, i in enumerate(starts) if i <= r.line), default=None)
        if k is not None and r.system is None:
            r.system = names[k]
            r.params.pop("repeat", None)


def _finish(seg: Segment, fr: _FioRun) -> Run:
    caption = nearest_caption(seg, fr.start)
    run = Run(
        benchmark=NAME,
        results=fr.results,
        tool_version=fr.version,
        system=caption_system(seg, fr.start),
        caption=caption,
        line_start=fr.start,
        line_end=max(fr.end, fr.start + 1),
        notes=fr.notes,
    )
    _report_captions(seg, fr)
    if fr.averaged:
        run.attributes["averaged"] = "poster"
        run.notes.append("values averaged by the poster (fractional iops/runtime or 'average' above)")
        for r in run.results:
            r.statistic = "mean"
    if fr.unparsed:
        run.status, run.reason, run.results = "unparsed", fr.unparsed, []
    return run


_TERSE_PIECE = re.compile(r"^[^\s]{1,200}+$")


def _terse_fields(ver: str) -> int:
    return 5 + (47 * 3 if ver == "5" else 41 * (3 if ver == "4" else 2)) + 5


def _join_wrapped_terse(lines: list[str]) -> list[str]:
    """A terse line a mailer broke (it has no blank, so the break falls anywhere, mid-field too):
    the pieces below it joined back, only when that gives the line its full count of fields.
    The pieces' lines are left blank, so line numbers stay."""
    out = list(lines)
    for i, line in enumerate(out):
        m = TERSE.match(line)
        if m is None or line.count(";") + 1 >= _terse_fields(m["ver"]):
            continue
        joined, j = line.rstrip(), i + 1
        while j < len(out) and j - i <= 40 and _TERSE_PIECE.match(out[j].strip()) and not TERSE.match(out[j]) \
                and joined.count(";") + 1 < _terse_fields(m["ver"]):
            joined += out[j].strip()
            j += 1
        if joined.count(";") + 1 >= _terse_fields(m["ver"]):
            out[i] = joined
            out[i + 1:j] = [""] * (j - i - 1)
    return out


_DESC_HEAD = re.compile(_JOB_NAME + r"\s*+\(g=\d+\)\s*+:\s*+rw=")
_DESC_TAIL = re.compile(r"^\S[^\n]{0,120}?\biodepth=\d+\s*$")


def _join_wrapped_desc(lines: list[str]) -> list[str]:
    """A job's description line (`myjob: (g=0): rw=write, bs=(R) 4096B-4096B, ... (T)`) a mailer
    broke before `ioengine=..., iodepth=4`: joined back, the rest's line left blank."""
    out = list(lines)
    for i in range(len(out) - 1):
        if _DESC_HEAD.match(out[i]) and "iodepth=" not in out[i] and _DESC_TAIL.match(out[i + 1]):
            out[i], out[i + 1] = f"{out[i].rstrip()} {out[i + 1].strip()}", ""
    return out


# an indented stat line a mailer broke after a field (`avg=1106.55, ` / `stdev=25.25, samples=17006`)
# or inside a percentile's brackets (`20.00th=[ ` / `231],`); the rest starts the next line
_STAT_REST = re.compile(r"^ ?+(?:[\w.%/]{1,20}+=|\d{1,12}+\]|>=\d)")
_GROUP_LINE = re.compile(r"^[ \t]*+(?:READ|WRITE|TRIM|MIXED):")  # a group's line: its wrapped tail is read as such


def _join_wrapped_stats(lines: list[str]) -> list[str]:
    """Stat lines a mailer broke: the rest (at the margin, a field or a percentile's figure) joined
    back onto its line, the rest's line left blank."""
    out = list(lines)
    for i in range(len(out) - 1):
        head = out[i].rstrip()
        if head[:1] in (" ", "\t") and "=" in head and head.endswith((",", "[")) and _STAT_REST.match(out[i + 1]) \
                and not _GROUP_LINE.match(head):
            out[i], out[i + 1] = f"{head} {out[i + 1].strip()}", ""
    return out


def parse(seg: Segment) -> list[Run]:
    """Every fio invocation (normal or terse output) in the segment, one run each."""
    reader = _Reader(seg)
    for i, line in enumerate(_join_wrapped_stats(_join_wrapped_desc(_join_wrapped_terse(seg.lines)))):
        reader.feed(i, line)
    reader.close(len(seg.lines))
    kept = [fr for fr in reader.runs if fr.results or fr.unparsed]
    runs = [_finish(seg, fr) for fr in kept]
    clocks = {id(run): c for fr, run in zip(kept, runs, strict=True) if (c := _report_clock(fr))}
    mark_series(runs, clocks)
    number_repeated_results(runs)
    return runs


def _report_clock(fr: _FioRun) -> Clock | None:
    """A normal-output report's clock: every job header dated, a runtime read, fio's own numbers;
    per job (name and pid) its own runtime, and which job each row belongs to."""
    if fr.kind != "normal" or fr.clockless or fr.averaged:
        return None
    if fr.stamp is None or fr.runtime_ms is None:
        return None
    if set(fr.job_ms) != fr.heads:  # a job section without a runtime: the report's clock only
        return Clock(frozenset(fr.heads), fr.stamp, fr.runtime_ms / 1000)
    runtimes = {key: ms / 1000 for key, ms in (fr.job_ms | fr.group_ms).items()}
    starts = [line for line, _ in fr.head_lines]
    owners: list[str | None] = []
    for r in fr.results:
        k = bisect_right(starts, r.line) - 1
        if "job" in r.params:
            owners.append(fr.head_lines[k][1] if k >= 0 else None)
        else:
            group = _group_key(r.params.get("group", ""))
            owners.append(group if group in fr.group_ms else None)
    return Clock(frozenset(fr.heads), fr.stamp, fr.runtime_ms / 1000, runtimes, tuple(owners))


def _group_key(gid: str) -> str:
    """A group's key among a report's job identities (`name\\x00pid`): never a job's."""
    return f"group {gid}\x00"


# distinctive literals, one of which every block the parser reads contains (see Parser.keywords)
KEYWORDS = ("groupid=", "run status group", "aggrb=", "iops=", "bw=", "3;fio-", "4;fio-", "5;fio-",
            "t/io_uring")

PARSER = Parser(name=NAME, version="1", signature=SIGNATURE, parse=parse, metrics=METRICS, keywords=KEYWORDS)

"""sysbench parser: the summaries of sysbench 0.4/0.5, 1.0 and 1.1, as pasted into mail.

sysbench prints ``label: value`` lines grouped in sections whose names and
units changed between versions:

* 0.4/0.5: ``Test execution summary:`` with ``total time: 10.0012s`` and
  ``per-request statistics:`` latencies carrying their unit (``37.42ms``);
  fileio's ``Read 8Gb  Written 0b  Total transferred 8Gb  (167.07Mb/sec)``
  (``Mb`` there is MiB) and ``10692.66 Requests/sec executed``.
* 1.0: ``CPU speed: events per second:``, ``General statistics:``,
  ``Latency (ms):`` (the unit moved into the section name), fileio's
  ``reads/s:`` / ``read, MiB/s:``, OLTP's ``transactions: N (X per sec.)``.
* 1.1: ``Throughput: events/s (eps):``, ``time elapsed:``, fileio's
  ``read: IOPS=... X MiB/s (Y MB/s)``.

The lines are read as a key/value stream, so a summary whose layout was
damaged (indentation lost, label and value on separate lines) still reads.
A run starts at the ``sysbench X.Y`` banner or the command line; the test
(cpu, memory, fileio, threads, mutex, oltp) comes from the banner lines or
the command, the thread count from ``Number of threads:``.

Interval reports (``[ 2s ] thds: ... tps: ...`` in 1.x, ``[   2s] threads: 16, tps: ...`` in 0.5)
are a time series: each value is a row with statistic ``interval`` and params ``interval_start`` /
``interval_end`` (seconds from the start), kept only beside a summary (a run cut short before its
summary gives no rows). ``queries performed:`` counts are ``query_count`` rows (params
``query_type``); PerfKit's per-CPU memory runs (``CPU 3 sysbench 1.0.11``) carry ``cpu``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from transforms.model import MetricSpec, Parser, Result, Run, Segment
from transforms.numbers import parse_number
from transforms.parsers._common import caption_above, naming_caption, number_repeated_runs

NAME = "sysbench"

METRICS: dict[str, MetricSpec] = {
    "events_per_second": MetricSpec("events/s", True, 0.0, 1e9),
    "total_time": MetricSpec("s", False, 0.0, 1e6),
    "total_events": MetricSpec("count", True, 0.0, 1e12),
    "event_execution_time": MetricSpec("s", False, 0.0, 1e8),
    "latency": MetricSpec("ms", False, 0.0, 1e7),  # statistic min / mean / max
    "latency_percentile": MetricSpec("ms", False, 0.0, 1e7),  # params: percentile
    "latency_sum": MetricSpec("ms", False, 0.0, 1e12),
    "thread_events": MetricSpec("count", True, 0.0, 1e12),  # statistic mean / stddev
    "thread_execution_time": MetricSpec("s", False, 0.0, 1e8),  # statistic mean / stddev
    "ops_per_second": MetricSpec("ops/s", True, 0.0, 1e11),
    "throughput": MetricSpec("MiB/s", True, 0.0, 1e8),
    "requests_per_second": MetricSpec("ops/s", True, 0.0, 1e9),
    "reads_per_second": MetricSpec("ops/s", True, 0.0, 1e9),
    "writes_per_second": MetricSpec("ops/s", True, 0.0, 1e9),
    "fsyncs_per_second": MetricSpec("ops/s", True, 0.0, 1e9),
    "read_throughput": MetricSpec("MiB/s", True, 0.0, 1e8),
    "write_throughput": MetricSpec("MiB/s", True, 0.0, 1e8),
    "transactions_per_second": MetricSpec("trans/s", True, 0.0, 1e8),
    "queries_per_second": MetricSpec("ops/s", True, 0.0, 1e9),
    "rw_requests_per_second": MetricSpec("ops/s", True, 0.0, 1e9),
    "other_ops_per_second": MetricSpec("ops/s", True, 0.0, 1e9),
    "errors_per_second": MetricSpec("ops/s", False, 0.0, 1e9),
    "reconnects_per_second": MetricSpec("ops/s", False, 0.0, 1e9),
    "deadlocks_per_second": MetricSpec("ops/s", False, 0.0, 1e9),
    "query_count": MetricSpec("count", True, 0.0, 1e15),  # params: query_type
}

_N = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"

# sysbench 0.4 sizes: "Mb" is a mebibyte
_BINARY = {"b": None, "kb": "KiB/s", "mb": "MiB/s", "gb": "GiB/s",
           "kib": "KiB/s", "mib": "MiB/s", "gib": "GiB/s"}  # fmt: skip

_BANNER = re.compile(
    r"^(?:CPU (?P<cpu>\d+)\s+)?sysbench\s+(?P<ver>\d+\.\d+(?:\.\d+)?(?:[-.][\w.]+)?)\s*(?::|\(|$)", re.I
)
# `sysbench ... --opt` or `... run`: the command word, then an option or verb after it, as two
# searches (a lookahead `.*` after `\s+` rescanned the line from every blank and every `sysbench`)
_COMMAND_WORD = re.compile(r"(?:^|[\s$#>])sysbench\s", re.I)
_COMMAND_REST = re.compile(r"--|\b(?:run|prepare)\b", re.I)


def _is_command(s: str) -> bool:
    m = _COMMAND_WORD.search(s)
    return m is not None and _COMMAND_REST.search(s, m.end()) is not None

_CMD_TEST_FLAG = re.compile(r"--test=(?P<t>[\w./-]+)", re.I)
_CMD_TEST_WORD = re.compile(r"\bsysbench\s++(?:--\S++\s++)*(?P<t>[\w./-]+)", re.I)
_CMD_THREADS = re.compile(r"--(?:num-)?threads=(?P<n>\d+)")
_THREADS = re.compile(r"^Number of threads:\s*(?P<n>\d+)\s*$", re.I)
_TEST_LINES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(?:Doing CPU performance benchmark|CPU speed:|Prime numbers limit:|"
                r"Maximum prime number checked)", re.I), "cpu"),
    (re.compile(r"^(?:Doing memory operations speed test|Running memory speed test|"
                r"Memory block size|Memory transfer size)", re.I), "memory"),
    (re.compile(r"^(?:Extra file open flags|File operations:|Doing (?:random|sequential) \S+)", re.I),
     "fileio"),
    (re.compile(r"^Doing thread subsystem performance test", re.I), "threads"),
    (re.compile(r"^Doing mutex performance test", re.I), "mutex"),
    (re.compile(r"^(?:Doing OLTP test|OLTP test statistics:|SQL statistics:)", re.I), "oltp"),
)  # fmt: skip
_TESTS = {"cpu", "memory", "fileio", "threads", "mutex", "oltp"}
# settings that change what a number means, kept as params
_SETTINGS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(?:Prime numbers limit|Maximum prime number checked in CPU test):\s*(?P<v>\d+)$", re.I),
     "max_prime"),
    (re.compile(r"^Block size (?P<v>\d++\w*+)$", re.I), "block_size"),
    (re.compile(r"^block size:\s*+(?P<v>\d++\w*+)$", re.I), "block_size"),
    (re.compile(r"^operation:\s*(?P<v>read|write|none)$", re.I), "operation"),
)  # fmt: skip
_MODES = {
    "sequential write (creation)": "seqwr", "sequential rewrite": "seqrewr",
    "sequential read": "seqrd", "random read": "rndrd", "random write": "rndwr",
    "random r/w": "rndrw",
}  # fmt: skip
_MODE = re.compile(r"^Doing (?P<m>.+?) test$", re.I)

_SECTION = re.compile(
    r"^(?P<s>Test execution summary|General statistics|Threads fairness|per-request statistics|"
    r"response time|Latency \((?P<u>ms|us|s)\)|CPU speed|File operations|Throughput|"
    # the histogram title runs to the line's last colon, less the blanks before it
    r"SQL statistics|OLTP test statistics|(?P<q>queries performed)|Latency histogram(?:.*[^\s:])?)\s*:\s*$",
    re.I,
)
_STRONG_SECTIONS = {"test execution summary", "general statistics", "threads fairness",
                    "per-request statistics", "cpu speed", "file operations", "sql statistics",
                    "oltp test statistics"}  # fmt: skip


@dataclass(slots=True)
class _Reading:
    metric: str
    value: float
    unit: str
    statistic: str = "value"
    params: dict[str, str] = field(default_factory=dict)


def _plain(metric: str, unit: str) -> Callable[[re.Match[str], str | None], list[_Reading]]:
    def read(m: re.Match[str], _: str | None) -> list[_Reading]:
        v = parse_number(m.group("v"))
        return [] if v is None else [_Reading(metric, v, unit)]

    return read


def _seconds(metric: str) -> Callable[[re.Match[str], str | None], list[_Reading]]:
    def read(m: re.Match[str], _: str | None) -> list[_Reading]:
        v = parse_number(m.group("v"))
        return [] if v is None else [_Reading(metric, v, "s")]

    return read


def _latency(statistic: str) -> Callable[[re.Match[str], str | None], list[_Reading]]:
    def read(m: re.Match[str], section_unit: str | None) -> list[_Reading]:
        v = _to_ms(m.group("v"), m.group("u") or section_unit)
        if v is None:
            return []
        if statistic == "percentile":
            return [_Reading("latency_percentile", v, "ms", params={"percentile": m.group("p")})]
        if statistic == "sum":
            return [_Reading("latency_sum", v, "ms")]
        return [_Reading("latency", v, "ms", statistic)]

    return read


def _to_ms(token: str, unit: str | None) -> float | None:
    v = parse_number(token)
    if v is None or unit not in ("ms", None):
        return None  # sysbench prints milliseconds; anything else is not read
    return v


def _pair(metric: str, unit: str) -> Callable[[re.Match[str], str | None], list[_Reading]]:
    def read(m: re.Match[str], _: str | None) -> list[_Reading]:
        avg, sd = parse_number(m.group("a")), parse_number(m.group("d"))
        if avg is None or sd is None:
            return []
        return [_Reading(metric, avg, unit, "mean"), _Reading(metric, sd, unit, "stddev")]

    return read


def _rate_04(m: re.Match[str], _: str | None) -> list[_Reading]:
    """``Total transferred 8Gb  (167.07Mb/sec)``: sysbench 0.4 sizes are binary."""
    v = parse_number(m.group("v"))
    scale = m.group("s").lower()
    if v is None:
        return []
    if scale == "b":
        return [_Reading("throughput", v / 1024, "KiB/s")]
    return [_Reading("throughput", v, _BINARY[scale])]


def _memory_rate(m: re.Match[str], _: str | None) -> list[_Reading]:
    """``1024.00 MiB transferred (3785.11 MiB/sec)``; 0.4 prints ``MB`` for MiB."""
    v = parse_number(m.group("v"))
    unit = _BINARY.get(m.group("s").lower())
    return [] if v is None or unit is None else [_Reading("throughput", v, unit)]


def _iops(kind: str) -> Callable[[re.Match[str], str | None], list[_Reading]]:
    def read(m: re.Match[str], _: str | None) -> list[_Reading]:
        out = []
        iops = parse_number(m.group("v"))
        if iops is not None:
            out.append(_Reading(f"{kind}s_per_second", iops, "ops/s"))
        if m.groupdict().get("mib"):
            mib = parse_number(m.group("mib"))
            if mib is not None:
                out.append(
                    _Reading(f"{'read' if kind == 'read' else 'write'}_throughput", mib, "MiB/s")
                )
        return out

    return read


_Reader = Callable[[re.Match[str], str | None], list[_Reading]]
_PER_SEC = rf"(?P<c>{_N})\s*\(\s*(?P<v>{_N})\s*per sec\.?\s*\)"
# (pattern, reader, strong marker?, only inside a latency section?)
_VALUES: tuple[tuple[re.Pattern[str], _Reader, bool, bool], ...] = (
    (re.compile(rf"^events per second:\s*(?P<v>{_N})$", re.I), _plain("events_per_second", "events/s"), True, False),
    (re.compile(rf"^events/s \(eps\):\s*(?P<v>{_N})$", re.I), _plain("events_per_second", "events/s"), True, False),
    (re.compile(rf"^total time:\s*(?P<v>{_N})\s*s$", re.I), _seconds("total_time"), False, False),
    (re.compile(rf"^time elapsed:\s*(?P<v>{_N})\s*s$", re.I), _seconds("total_time"), False, False),
    (re.compile(rf"^total number of events:\s*(?P<v>{_N})$", re.I), _plain("total_events", "count"), True, False),
    (re.compile(rf"^total time taken by event execution:\s*(?P<v>{_N})\s*s?$", re.I),
     _seconds("event_execution_time"), True, False),
    (re.compile(rf"^min:\s*(?P<v>{_N})\s*(?P<u>ms|us|s)?$", re.I), _latency("min"), False, True),
    (re.compile(rf"^avg:\s*(?P<v>{_N})\s*(?P<u>ms|us|s)?$", re.I), _latency("mean"), False, True),
    (re.compile(rf"^max:\s*(?P<v>{_N})\s*(?P<u>ms|us|s)?$", re.I), _latency("max"), False, True),
    (re.compile(rf"^(?:approx\.\s+)?(?P<p>\d+(?:\.\d+)?)(?:th)?\s+percentile:\s*(?P<v>{_N})\s*(?P<u>ms|us|s)?$",
                re.I), _latency("percentile"), False, True),
    (re.compile(rf"^sum:\s*(?P<v>{_N})\s*(?P<u>ms|us|s)?$", re.I), _latency("sum"), False, True),
    (re.compile(rf"^events \(avg/stddev\):\s*(?P<a>{_N})/(?P<d>{_N})$", re.I),
     _pair("thread_events", "count"), True, False),
    (re.compile(rf"^execution time \(avg/stddev\):\s*(?P<a>{_N})/(?P<d>{_N})$", re.I),
     _pair("thread_execution_time", "s"), True, False),
    (re.compile(rf"^Operations performed:\s*(?P<c>{_N})\s*\(\s*(?P<v>{_N})\s*ops/sec\s*\)$", re.I),
     _plain("ops_per_second", "ops/s"), True, False),
    (re.compile(rf"^Total operations:\s*(?P<c>{_N})\s*\(\s*(?P<v>{_N})\s*per second\s*\)$", re.I),
     _plain("ops_per_second", "ops/s"), True, False),
    (re.compile(rf"^(?P<c>{_N})\s*(?:[KMG]i?B)\s+transferred\s*\(\s*(?P<v>{_N})\s*(?P<s>[KMG]i?B)/sec\s*\)$", re.I),
     _memory_rate, True, False),
    (re.compile(rf"^Read\s+{_N}\s*[KMG]?b\s+Written\s+{_N}\s*[KMG]?b\s+Total transferred\s+{_N}\s*[KMG]?b\s*"
                rf"\(\s*(?P<v>{_N})\s*(?P<s>[KMG]?b)/sec\s*\)$", re.I), _rate_04, True, False),
    (re.compile(rf"^(?P<v>{_N})\s+Requests/sec executed$", re.I), _plain("requests_per_second", "ops/s"), True, False),
    (re.compile(rf"^reads/s:\s*(?P<v>{_N})$", re.I), _plain("reads_per_second", "ops/s"), True, False),
    (re.compile(rf"^writes/s:\s*(?P<v>{_N})$", re.I), _plain("writes_per_second", "ops/s"), True, False),
    (re.compile(rf"^fsyncs/s:\s*(?P<v>{_N})$", re.I), _plain("fsyncs_per_second", "ops/s"), True, False),
    (re.compile(rf"^read, MiB/s:\s*(?P<v>{_N})$", re.I), _plain("read_throughput", "MiB/s"), True, False),
    (re.compile(rf"^written, MiB/s:\s*(?P<v>{_N})$", re.I), _plain("write_throughput", "MiB/s"), True, False),
    (re.compile(rf"^read:\s*IOPS=(?P<v>{_N})\s+(?P<mib>{_N})\s*MiB/s(?:\s*\(\s*{_N}\s*MB/s\s*\))?$", re.I),
     _iops("read"), True, False),
    (re.compile(rf"^write:\s*IOPS=(?P<v>{_N})\s+(?P<mib>{_N})\s*MiB/s(?:\s*\(\s*{_N}\s*MB/s\s*\))?$", re.I),
     _iops("write"), True, False),
    (re.compile(rf"^fsync:\s*IOPS=(?P<v>{_N})$", re.I), _iops("fsync"), True, False),
    (re.compile(rf"^transactions:\s*{_PER_SEC}$", re.I), _plain("transactions_per_second", "trans/s"), True, False),
    (re.compile(rf"^queries:\s*{_PER_SEC}$", re.I), _plain("queries_per_second", "ops/s"), False, False),
    (re.compile(rf"^read/write requests:\s*{_PER_SEC}$", re.I), _plain("rw_requests_per_second", "ops/s"), True, False),
    (re.compile(rf"^other operations:\s*{_PER_SEC}$", re.I), _plain("other_ops_per_second", "ops/s"), False, False),
    (re.compile(rf"^ignored errors:\s*{_PER_SEC}$", re.I), _plain("errors_per_second", "ops/s"), False, False),
    (re.compile(rf"^reconnects:\s*{_PER_SEC}$", re.I), _plain("reconnects_per_second", "ops/s"), False, False),
    (re.compile(rf"^deadlocks:\s*{_PER_SEC}$", re.I), _plain("deadlocks_per_second", "ops/s"), False, False),
)  # fmt: skip
_RESTATED = ("events/s (eps)", "events per second")
_COMMENT = re.compile(r"(?<!\s)\s+\((?![^()]*(?:per sec|/sec|per second))[^()]*\)$", re.I)
_BARE_VALUE = re.compile(rf"^{_N}\s*(?:ms|s)?$")
_LABEL_ONLY = re.compile(r"^[A-Za-z][\w ,./()-]*:$")

# lines that may sit between a poster's caption and the run: prompts, the
# command, warnings, and sysbench's own prepare output
_NOISE = re.compile(
    r"sysbench\b|^WARNING:|^\S*[$#]\s*$|bytes written in [\d.]+ seconds|^Creating file|"
    r"^\d+ files, \d\w++ each|^Running the test with following options",
    re.I,
)


@dataclass(slots=True)
class _Run:
    start: int
    end: int = 0
    version: str | None = None
    test: str | None = None
    threads: str | None = None
    settings: dict[str, str] = field(default_factory=dict)
    results: list[Result] = field(default_factory=list)
    keys: set[tuple] = field(default_factory=set)
    strong: bool = False
    series: list[Result] = field(default_factory=list)  # interval reports, kept beside a summary

    def params(self) -> dict[str, str]:
        out = dict(self.settings)
        if self.test:
            out["test"] = self.test
        if self.threads:
            out["threads"] = self.threads
        return out


def _command_context(line: str) -> tuple[str | None, str | None]:
    """(test, threads) named on a ``sysbench ... run`` command line."""
    m = _CMD_TEST_FLAG.search(line) or _CMD_TEST_WORD.search(line)
    test = None
    if m:
        name = m.group("t").lower().rsplit("/", 1)[-1].removesuffix(".lua")
        if name.startswith("oltp"):
            test = "oltp"
        elif name in _TESTS:
            test = name
    t = _CMD_THREADS.search(line)
    return test, (t.group("n") if t else None)


def _logical(lines: list[str]) -> list[tuple[int, str]]:
    """Stripped lines, with a value that a reflow put under its label joined back to it."""
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(lines):
        s = lines[i].strip()
        if _LABEL_ONLY.match(s) and not _SECTION.match(s):
            k = i + 1
            while k < len(lines) and k <= i + 2 and not lines[k].strip():
                k += 1
            if k < len(lines) and _BARE_VALUE.match(lines[k].strip()):
                out.append((i, f"{s} {lines[k].strip()}"))
                i = k + 1
                continue
        out.append((i, s))
        i += 1
    return out


def parse(seg: Segment) -> list[Run]:
    """Every sysbench summary of a segment, one run per sysbench invocation."""
    runs: list[_Run] = []
    cur: _Run | None = None
    section: str | None = None
    section_unit: str | None = None
    queries = False  # inside `queries performed:`

    def fresh(i: int) -> _Run:
        nonlocal cur, section, section_unit
        if cur is not None and cur.results:
            runs.append(cur)
        cur = _Run(start=i, end=i + 1)
        section = section_unit = None
        return cur

    for i, s in _logical(seg.lines):
        if not s:
            continue
        if s.startswith("["):  # interval reports "[ 2s ] thds: ..."
            if cur is not None and (m := _IV_HEAD.match(s)) is not None:
                cur.series.extend(_interval(cur, m, i))
                cur.end = i + 1
            continue
        if _is_command(s) and not _BANNER.match(s):
            run = cur if cur is not None and not cur.results and not cur.version else fresh(i)
            test, threads = _command_context(s)
            run.test, run.threads = test or run.test, threads or run.threads
            continue
        if m := _BANNER.match(s):
            run = cur if cur is not None and not cur.results and not cur.version else fresh(i)
            run.version, run.strong = m.group("ver"), True
            if m.group("cpu"):
                run.settings["cpu"] = m.group("cpu")
            run.end = i + 1
            continue
        if m := _THREADS.match(s):
            run = fresh(i) if cur is None or cur.results else cur
            run.threads = m.group("n")
            continue
        if (ctx := _context(s)) is not None:
            run = fresh(i) if cur is None or cur.results else cur
            test, settings, strong = ctx
            run.test = run.test or test
            run.settings.update(settings)
            run.strong = run.strong or strong
            continue
        if m := _SECTION.match(s):
            section = m.group("s").lower()
            section_unit = (m.group("u") or "ms") if _is_latency(section) else None
            queries = bool(m.group("q"))
            if cur is not None and section in _STRONG_SECTIONS:
                cur.strong = True
            continue
        if queries and (m := _QUERY_COUNT.match(s)) is not None:
            if (v := parse_number(m.group("v"))) is not None:
                kind = m.group("k").lower()
                run = cur if cur is not None and not any(
                    r.metric == "query_count" and r.params.get("query_type") == kind for r in cur.results
                ) else fresh(i)  # (a summary quoted from its `queries performed:` on; the next one's counts)
                params = {**run.params(), "query_type": kind}
                run.results.append(Result("query_count", m.group("k"), v, "count", params, line=i))
                run.end = i + 1
            continue
        queries = False
        bare = _COMMENT.sub("", s)  # a poster's "(note)" after the value
        for pattern, reader, strong, latency_only in _VALUES:
            m = pattern.match(s) or pattern.match(bare)
            if m is None or (latency_only and not _is_latency(section)):
                continue
            readings = reader(m, section_unit)
            if not readings:
                break
            keys = {(r.metric, r.statistic, tuple(sorted(r.params.items()))) for r in readings}
            if cur is not None and cur.keys & keys and s.lower().startswith(_RESTATED):
                break  # 1.1 restates events/s under "Throughput:"; the first reading stands
            if cur is None or cur.keys & keys:
                fresh(i)
            assert cur is not None
            cur.keys |= keys
            cur.strong = cur.strong or strong
            for r in readings:
                params = {**cur.params(), **r.params}
                cur.results.append(
                    Result(
                        r.metric,
                        s.split(":")[0].strip() if ":" in s else s,
                        r.value,
                        r.unit,
                        params,
                        statistic=r.statistic,
                        line=i,
                    )
                )
            cur.end = i + 1
            break
    if cur is not None and cur.results:
        runs.append(cur)
    return _finish(seg, [r for r in runs if r.strong])


def _is_latency(section: str | None) -> bool:
    return section is not None and (
        section.startswith(("latency (", "per-request", "response time"))
    )


def _context(s: str) -> tuple[str | None, dict[str, str], bool] | None:
    """(test, settings, strong) of a line of the option banner, or None for other lines."""
    test: str | None = None
    settings: dict[str, str] = {}
    for pattern, name in _TEST_LINES:
        if pattern.match(s):
            test = name
            break
    for pattern, key in _SETTINGS:
        if sm := pattern.match(s):
            settings[key] = sm.group("v")
    if (mm := _MODE.match(s)) and (mode := _MODES.get(mm.group("m").lower())):
        settings["mode"] = mode
    if test is None and not settings:
        return None
    strong = s.lower().startswith(("cpu speed", "file operations", "sql statistics", "oltp test"))
    return test, settings, strong


def _skippable(s: str) -> bool:
    """Lines between a caption and its run that are sysbench's own (or the shell's)."""
    return bool(
        _NOISE.search(s) or _SECTION.match(s) or _THREADS.match(s) or _context(s) is not None
    )


def _finish(seg: Segment, found: list[_Run]) -> list[Run]:
    out: list[Run] = []
    floor = 0
    context = list(seg.before)
    for r in found:
        _, caption = caption_above(seg.lines, r.start, floor, skip=_skippable, before=context)
        run = Run(
            NAME,
            r.results,
            tool_version=r.version,
            system=caption or naming_caption(seg.lines, r.start, 0, context),
            caption=caption,
            line_start=r.start,
            line_end=max(r.end, r.start + 1),
        )
        if r.test:
            run.attributes["test"] = r.test
        out.append(run)
        floor = run.line_end
    number_repeated_runs(out)
    for r, run in zip(found, out, strict=True):
        repeat = run.results[0].params.get("repeat") if run.results else None
        for x in r.series:
            x.params = {**r.params(), **x.params}  # the test is often named only below the series
            if repeat is not None:
                x.params["repeat"] = repeat
            run.results.append(x)
    return out


# --- interval reports ------------------------------------------------------------------------

_IV_HEAD = re.compile(r"^\[\s*+(?P<t>\d{1,7}(?:\.\d{1,3})?)s\s*+\]\s*+(?P<rest>\S.*)$")
_IV_TOKEN = re.compile(
    rf"(?P<k>thds|threads|tps|qps|eps|err/s|reconn/s|errors|reconnects|reads|writes|fsyncs)\s*+:?\s*+"  # `err/s 1.20`: some 1.0 builds drop the colon
    rf"(?P<v>{_N})\s*+(?P<u>MiB/s|/s)?"
    rf"|\(r/w/o:\s*+(?P<r>{_N})/(?P<w>{_N})/(?P<o>{_N})\)"
    rf"|\blat(?:ency)?\s*+\(ms,\s*+(?P<p>\d{{1,3}}(?:\.\d{{1,4}})?)%\)\s*+:\s*+(?P<lat>{_N})"
    rf"|response time:\s*+(?P<rt>{_N})\s*+ms\s*+\((?P<rp>\d{{1,3}}(?:\.\d{{1,4}})?)%\)"
)
_IV_METRICS = {
    "tps": ("transactions_per_second", "trans/s"), "qps": ("queries_per_second", "ops/s"),
    "eps": ("events_per_second", "events/s"), "err/s": ("errors_per_second", "ops/s"),
    "errors": ("errors_per_second", "ops/s"), "reconn/s": ("reconnects_per_second", "ops/s"),
    "reconnects": ("reconnects_per_second", "ops/s"), "fsyncs": ("fsyncs_per_second", "ops/s"),
}  # fmt: skip
_QUERY_COUNT = re.compile(rf"^(?P<k>read|write|other|total):\s*+(?P<v>{_N})$", re.I)


def _interval(run: _Run, m: re.Match[str], line: int) -> list[Result]:
    """One interval report as rows: each rate with statistic `interval` and its time span."""
    end = m.group("t")
    start = run.series[-1].params["interval_end"] if run.series else "0"
    params = {**run.params(), "interval_start": start, "interval_end": end}
    got: list[tuple[str, str, float, str, dict[str, str]]] = []  # metric, label, value, unit, extra
    for t in _IV_TOKEN.finditer(m.group("rest")):
        if t.group("k"):
            key, v = t.group("k"), parse_number(t.group("v"))
            if v is None:
                continue
            if key in ("thds", "threads"):
                params.setdefault("threads", t.group("v"))
            elif key in ("reads", "writes"):
                kind = key[:-1]
                if t.group("u") == "MiB/s":  # fileio
                    got.append((f"{kind}_throughput", key, v, "MiB/s", {}))
                else:  # 0.5 OLTP: read/write queries per second
                    got.append(("queries_per_second", key, v, "ops/s", {"query_type": kind}))
            elif key in _IV_METRICS:
                metric, unit = _IV_METRICS[key]
                got.append((metric, key, v, unit, {}))
        elif t.group("r") is not None:
            for kind, g in (("read", "r"), ("write", "w"), ("other", "o")):
                if (v := parse_number(t.group(g))) is not None:
                    got.append(("queries_per_second", "r/w/o", v, "ops/s", {"query_type": kind}))
        else:
            p, tok = (t.group("p"), t.group("lat")) if t.group("p") else (t.group("rp"), t.group("rt"))
            if (v := parse_number(tok)) is not None:
                got.append(("latency_percentile", "lat (ms)", v, "ms", {"percentile": p}))
    return [
        Result(metric, label, v, unit, {**params, **extra}, statistic="interval", line=line)
        for metric, label, v, unit, extra in got
    ]


# necessary literals of the signature (see Parser.keywords)
KEYWORDS = (
    "sysbench",
    "events per second",
    "total number of events",
    "requests/sec",
    "per-request",
    "threads fairness",
    "per sec.)",
    "mib/sec)",
    "mb/sec)",
    "file operations:",
    "iops=",
)


PARSER = Parser(
    name=NAME,
    version="1",
    signature=re.compile(
        r"(?i)sysbench|events per second:|total number of events:|Requests/sec executed|"
        r"per-request statistics:|Threads fairness:|\(\s*[\d.]+\s*per sec\.\)|MiB/sec\)|Mb/sec\)|"
        r"File operations:|read:\s+IOPS="
    ),
    parse=parse,
    metrics=METRICS,
    keywords=KEYWORDS,
)

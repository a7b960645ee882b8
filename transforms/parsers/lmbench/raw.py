"""lmbench raw result lines (result files, single tools run by hand).

``Simple syscall: 0.2345 microseconds``-style lines, ``"size=0k ovr=0.93``
lat_ctx blocks (processes, microseconds; the summary's own names such as
``ctxsw_2p_16k`` where one exists, else ``ctxsw`` with ``procs``/``size_kb``;
100 fds likewise give ``select_100fd``/``select_tcp``, other counts
``select_fd``/``select_tcp_fd`` with ``fds``), sized series (``"read bandwidth``,
``"mappings``, ``Socket bandwidth using localhost``, ``Memory read bandwidth``,
``"stride=128`` lat_mem_rd, ...: one row per size, ``params.size_mb``), the
``"File system latency`` rates and ``bw_mem ... rd`` command/result pairs.
``[lmbench3.0 results for Linux host release ...]`` names the system and version.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from transforms.model import Result, Run
from transforms.numbers import parse_number
from transforms.parsers._common import from_or_to, names_system, system_label

from .metrics import _OP_PREFIX, BENCH, METRICS

_RAW_HEADER = re.compile(r"^\s*\[lmbench(\d+(?:\.\d+)?)\s+results for\s+(\S+)\s+(\S+)\s+(\S+)")
_RAW_ATTR = re.compile(
    # the value is words joined by blanks, so that its trailing blanks are never tried as part of it
    r"^\s*+\[(MB|MHZ|OS|PROCESSORS|SYNC_MAX|LMBENCH VERSION|LMBENCH_SCHED): *+"
    r"([^\]\s]*+(?:\s++[^\]\s]++)*+)\s*+\]\s*+$"
)
_RAW_SCALAR = re.compile(
    r"^\s*(?P<label>[A-Za-z][^:]*?):\s*(?P<value>[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)\s+"
    r"(?P<unit>microseconds|nanoseconds|usecs|MB/sec|KB/sec)\.?\s*$"  # re-typed: `fork+exit:164.8 microseconds.`
)
_RAW_UNITS = {"microseconds": "us", "usecs": "us", "nanoseconds": "ns", "MB/sec": "MB/s", "KB/sec": "KB/s"}
_RAW_NAMES = {
    "Simple syscall": "null_call",
    "Null syscall": "null_call",
    "Simple read": "syscall_read",
    "Simple write": "syscall_write",
    "Simple stat": "stat",
    "Simple fstat": "fstat",
    "Simple open/close": "open_close",
    "Signal handler installation": "sig_inst",
    "Signal handler overhead": "sig_hndl",
    "Protection fault": "prot_fault",
    "Pipe latency": "lat_pipe",
    "FIFO latency": "lat_fifo",
    "AF_UNIX sock stream latency": "lat_unix",
    "Process fork+exit": "fork_proc",
    "Process fork+execve": "exec_proc",
    "Process fork+/bin/sh -c": "sh_proc",
    "Pipe bandwidth": "bw_pipe",
    "AF_UNIX sock stream bandwidth": "bw_unix",
}
_RAW_PATTERNS: list[
    tuple[re.Pattern[str], Callable[[re.Match[str]], tuple[str, dict[str, str]]]]
] = [
    (
        re.compile(r"^Select on (\d+) fd's$"),
        lambda m: (
            ("select_100fd", {}) if m.group(1) == "100" else ("select_fd", {"fds": m.group(1)})
        ),
    ),
    (
        re.compile(r"^Select on (\d+) tcp fd's$"),
        lambda m: (
            ("select_tcp", {}) if m.group(1) == "100" else ("select_tcp_fd", {"fds": m.group(1)})
        ),
    ),
    (re.compile(r"^Pagefaults on \S.*$"), lambda m: ("page_fault", {})),
    (re.compile(r"^File \S.* write bandwidth$"), lambda m: ("bw_file_write", {})),
    (
        re.compile(r"^(UDP|TCP|RPC/udp|RPC/tcp) latency using (\S+)$"),
        lambda m: _raw_net(m.group(1), m.group(2)),
    ),
    (re.compile(r"^TCP/IP connection cost to (\S+)$"), lambda m: _raw_net("conn", m.group(1))),
    (
        re.compile(r"^(integer|int64|uint64|float|double) (bit|add|mul|div|mod|bogomflops)$"),
        lambda m: (f"{_OP_PREFIX[m.group(1)]}_{m.group(2).replace('bogomflops', 'bogo')}", {}),
    ),
]
_NET = {
    "UDP": "lat_udp",
    "TCP": "lat_tcp",
    "RPC/udp": "lat_rpc_udp",
    "RPC/tcp": "lat_rpc_tcp",
    "conn": "lat_tcp_conn",
}

_SERIES = [
    (re.compile(r'^"?mappings$'), "mmap_latency", "us"),
    (re.compile(r'^"?read bandwidth$'), "bw_file_reread", "MB/s"),
    (re.compile(r'^"?read open2close bandwidth$'), "bw_file_open2close", "MB/s"),
    (re.compile(r'^"?Mmap read bandwidth$'), "bw_mmap_reread", "MB/s"),
    (re.compile(r'^"?Mmap read open2close bandwidth$'), "bw_mmap_open2close", "MB/s"),
    (re.compile(r'^"?libc bcopy unaligned$'), "bw_bcopy_libc", "MB/s"),
    (re.compile(r'^"?libc bcopy aligned$'), "bw_bcopy_libc_aligned", "MB/s"),
    (re.compile(r'^"?unrolled bcopy unaligned$'), "bw_bcopy_hand", "MB/s"),
    (re.compile(r'^"?unrolled partial bcopy unaligned$'), "bw_bcopy_hand_partial", "MB/s"),
    (re.compile(r'^"?Memory bzero bandwidth$'), "bw_bzero", "MB/s"),
    (re.compile(r'^"?Memory read bandwidth$'), "bw_mem_read", "MB/s"),
    (re.compile(r'^"?Memory partial read bandwidth$'), "bw_mem_read_partial", "MB/s"),
    (re.compile(r'^"?Memory write bandwidth$'), "bw_mem_write", "MB/s"),
    (re.compile(r'^"?Memory partial write bandwidth$'), "bw_mem_write_partial", "MB/s"),
    (re.compile(r'^"?Memory partial read/write bandwidth$'), "bw_mem_rdwr_partial", "MB/s"),
    (re.compile(r'^"?Socket bandwidth using localhost$'), "bw_tcp", "MB/s"),
]
_PAIR = re.compile(r"^\s*(\d+(?:\.\d*)?)\s+(\d+(?:\.\d*)?)(?:\s+MB/sec)?\s*$")
_CTX_HEAD = re.compile(r'^\s*"size=(\d+)k?\s+ovr=([\d.]+)\s*$')
_CTX_ROW = re.compile(r"^\s*(\d+)\s+(\d+(?:\.\d*)?)\s*$")
_STRIDE_HEAD = re.compile(r'^\s*"stride=(\d+)\s*$')
_FS_HEAD = re.compile(r'^\s*(?:"File system latency|lat_fs(?: \(\w{1,12}\))?)\s*$')  # or `lat_fs (ext2)`
_FS_ROW = re.compile(r"^\s*(\d+k)\s+(\d+)\s+(\d+(?:\.\d*)?)\s+(\d+(?:\.\d*)?)\s*$")
_BW_MEM_CMD = re.compile(
    # at most 8 options (bw_mem has 3): a search then rescans only the few words after each `bw_mem`
    r"\bbw_mem(?:\s++-[A-Za-z]\s++\S++){0,8}\s+\S+\s+(rd|wr|rdwr|cp|fwr|frd|fcp|bzero|bcopy)\s*$"
)
_BW_MEM_OPS = {
    "rd": "bw_mem_read", "wr": "bw_mem_write", "rdwr": "bw_mem_rdwr", "cp": "bw_mem_cp",
    "fwr": "bw_mem_fwr", "frd": "bw_mem_frd", "fcp": "bw_mem_fcp", "bzero": "bw_bzero",
    "bcopy": "bw_mem_bcopy",
}  # fmt: skip


def _raw_net(kind: str, host: str) -> tuple[str, dict[str, str]]:
    if host == "localhost":
        return _NET[kind], {}
    return f"{_NET[kind]}_remote", {"remote": host}


def _raw_metric(label: str) -> tuple[str, dict[str, str]] | None:
    if label in _RAW_NAMES:
        return _RAW_NAMES[label], {}
    for rx, make in _RAW_PATTERNS:
        m = rx.match(label)
        if m:
            return make(m)
    return None


_RAW_LABEL_START = re.compile(r"^(?:Simple|Signal|Protection|Pipe|FIFO|AF_UNIX|Process|Select|File|Mmap|Pagefaults"
                              r"|UDP|TCP|RPC|Memory)")  # a raw result line's own label, not a caption
_RAW_LINE_START = re.compile(rf"{_RAW_LABEL_START.pattern}|^(?:\d|\")")  # ... or a raw data line


def _raw_caption(text: str) -> bool:
    """`Before:`, `2.6.24-rc3:`: a short label line; not a raw line, not a compiler's `file.c: In ...:`."""
    core = text[:-1]
    return (text.endswith(":") and not _RAW_LINE_START.match(text) and ":" not in core
            and not any(q in core for q in "'\"`") and len(core.split()) <= 5)


class _RawRuns:
    """Accumulates raw result lines into runs: a `[lmbench... results for` header starts a new one."""

    def __init__(self) -> None:
        self.runs: list[Run] = []
        self.cur: Run | None = None

    def start(self, line: int, version: str | None = None, system: str | None = None) -> Run:
        self.cur = Run(
            BENCH, [], tool_version=version, system=system, line_start=line, line_end=line + 1
        )
        self.runs.append(self.cur)
        return self.cur

    def add(
        self, line: int, metric: str, label: str, value: float, unit: str, params: dict[str, str]
    ) -> None:
        run = self.cur or self.start(line)
        run.line_end = max(run.line_end, line + 1)
        if value > 0 and METRICS[metric].unit == unit:
            run.results.append(Result(metric, label, value, unit, params, line=line))

    def note(self, line: int, text: str) -> None:
        run = self.cur or self.start(line)
        run.line_end = max(run.line_end, line + 1)
        run.notes.append(text)


def _raw_runs(lines: list[str]) -> list[Run]:
    acc = _RawRuns()
    i = 0
    while i < len(lines):
        text = lines[i].strip()
        alone = i == 0 or not lines[i - 1].strip() or len(text.split()) == 1
        label = (system_label(text) if _raw_caption(text) else None) or (
            names_system(text) if (text.endswith(":") or alone) and not _RAW_LABEL_START.match(text) else None) \
            or from_or_to(lines, i)
        if label:
            acc.start(i, None, label)  # `Before:` above raw lines names the system they measure
            i += 1
            continue
        i = _raw_line(lines, i, acc)
    return [r for r in acc.runs if r.results]


def _raw_line(lines: list[str], i: int, acc: _RawRuns) -> int:
    """Read the raw construct starting at line `i`; return the next line to look at."""
    line = lines[i].strip()
    if m := _RAW_HEADER.match(line):
        acc.start(i, m.group(1), f"{m.group(3)} {m.group(2)} {m.group(4)}")
        return i + 1
    if (m := _RAW_ATTR.match(line)) and acc.cur is not None:
        key, value = m.group(1).lower().replace(" ", "_"), m.group(2)
        acc.cur.attributes.setdefault(key, value.split()[0] if key == "mhz" else value)
        return i + 1
    if m := _RAW_SCALAR.match(line):
        found = _raw_metric(m.group("label"))
        value = parse_number(m.group("value"))
        if found and value is not None:
            acc.add(i, found[0], m.group("label"), value, _RAW_UNITS[m.group("unit")], found[1])
        return i + 1
    if m := _CTX_HEAD.match(line):
        return _raw_ctx(lines, i, m, acc)
    if m := _STRIDE_HEAD.match(line):
        prev = next(
            (lines[j].strip() for j in range(i - 1, max(i - 4, -1), -1) if lines[j].strip()), ""
        )
        metric = "lat_mem_rand" if prev.startswith("Random load latency") else "lat_mem_rd"
        return _raw_series(lines, i, metric, "ns", {"stride": m.group(1)}, acc)
    if _FS_HEAD.match(line):
        return _raw_fs(lines, i, acc)
    for rx, metric, unit in _SERIES:
        if rx.match(line):
            return _raw_series(lines, i, metric, unit, {}, acc)
    if _BW_MEM_CMD.search(line):
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j < len(lines) and (p := _PAIR.match(lines[j])):
            op = _BW_MEM_CMD.search(line).group(1)  # type: ignore[union-attr]
            acc.add(
                j,
                _BW_MEM_OPS[op],
                f"bw_mem {op}",
                float(p.group(2)),
                "MB/s",
                {"size_mb": p.group(1)},
            )
            return j + 1
    return i + 1


def _raw_series(
    lines: list[str], i: int, metric: str, unit: str, params: dict[str, str], acc: _RawRuns
) -> int:
    """`"label` then `size value` lines: one row per size (size in MB as printed)."""
    label = lines[i].strip().lstrip('"')
    j = i + 1
    while j < len(lines) and (p := _PAIR.match(lines[j])):
        acc.add(j, metric, label, float(p.group(2)), unit, {**params, "size_mb": p.group(1)})
        j += 1
    return j


def _raw_ctx(lines: list[str], i: int, head: re.Match[str], acc: _RawRuns) -> int:
    """lat_ctx: `"size=16k ovr=1.43` then `nprocs usec` lines."""
    size = head.group(1)
    j = i + 1
    while j < len(lines) and (p := _CTX_ROW.match(lines[j])):
        procs, value = p.group(1), float(p.group(2))
        name = f"ctxsw_{procs}p_{size}k"
        if name in METRICS:
            acc.add(j, name, f"size={size}k {procs}", value, "us", {})
        else:
            acc.add(
                j, "ctxsw", f"size={size}k {procs}", value, "us", {"procs": procs, "size_kb": size}
            )
        j += 1
    if acc.cur is not None and j > i + 1:
        acc.cur.attributes.setdefault(f"ctx_ovr_{size}k", head.group(2))
    return j


def _raw_fs(lines: list[str], i: int, acc: _RawRuns) -> int:
    """lat_fs: `size count creates/s deletes/s` (rates; getsummary shows 1e6/rate as microseconds)."""
    j = i + 1
    while j < len(lines) and (p := _FS_ROW.match(lines[j])):
        size = p.group(1)
        acc.add(j, "file_create_rate", f"{size} create", float(p.group(3)), "/sec", {"size": size})
        acc.add(j, "file_delete_rate", f"{size} delete", float(p.group(4)), "/sec", {"size": size})
        j += 1
    return j

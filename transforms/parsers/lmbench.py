"""lmbench: `make summary` tables (lmbench 1.x, 2.0, 3.0) and raw result lines.

Summary tables (``scripts/getsummary``)
---------------------------------------
Each table has a title that carries the unit ("times in microseconds",
"in MB/s") and the direction ("smaller is better"), a one-to-three line header
and a dash ruler (``--------- ------------- ---- ...``) whose dash groups are
the exact column spans.  The first two spans are Host (9 chars) and OS
(uname sysname + release, 13 chars); `system` is both joined
("darkstar Lguest 2.6.21").  A table may have Host alone: when the header puts
"OS Description" in one span (a printer that left-aligns its header words), that
span is the Description text and the table's rows join the runs of their host
(its k-th row the host's k-th system in the tables that show the OS).

* **Whitespace preserved**: every token is placed in the span it overlaps
  most, so blank cells stay blank (alignment ``exact``).
* **Whitespace collapsed** (mail archives that squeeze runs of spaces): a row
  with as many values as columns is read in order (``exact``).  A shorter row
  has blank cells somewhere; every order-preserving placement of its values is
  scored by the log-distance of each value to the same column in the table's
  complete rows (and to the same test shown elsewhere in the post, e.g. the
  2p/0K context switch that the latency table repeats).  A clearly best
  placement is used and flagged ``inferred``.  Otherwise only the values that
  sit in the same column in every near-best placement are kept (in practice
  the values before the gap) and the run's notes say why the rest was dropped.
  When a table has no complete row at all, the columns lmbench usually leaves
  blank (network, RPC, remote, file-create in parallel runs, ...) are assumed
  to be the missing ones; the note says so.

Column labels are the header words of each column joined over the header lines
("null call", "10K File Delete", "2p/16K ctxsw", "Main mem").  A header is read
by its ruler spans when its words sit in them (`OS` in the second span, whether
right-aligned as getsummary prints it or left-aligned); a word cut short by its
cell width ("0K Fil") matches the known label it begins, and a column with no
word on the first header line takes the first-line words of the nearest column
to its left when that names a known column (a heading printed over the first of
the columns it spans: "10K Fi" over Create and Delete).  Collapsed headers are
recognised by their word sequence (cut-short words allowed) against the headers
printed by the known getsummary versions (catalogued below) or, failing that, by
pairing header lines with one word per column.  A "Basic system parameters"
table holds attributes only: when it cannot be read, the block's runs get a note
instead of an unparsed run.

Cells: trailing-dot truncation (``452.``), ``K``/``M`` suffixes (x1000,
x1000000 as in getsummary's `num`; lmbench 1.x is read the same way, as the
2.0 script that replaced it divides by 1000), ``%e`` for tiny values; a value
<= 0 (``-1``) or ``-`` means "not measured": no row.  Mhz, Description, tlb
pages, cache line bytes, mem par, scal load and the memory-latency "Guesses"
become run attributes (first table that shows them wins), not results.

One run per Host/OS row; rows of different tables are matched by the system
and its occurrence number.  When a system appears on several rows of a table,
its runs get ``params.repeat`` "1", "2", ... in row order; a system listed
once gets no ``repeat`` at all.  The "2p/0K ctxsw" column that the latency
table repeats is ``lat_ctxsw_2p_0k`` (getsummary versions differ on whether it
equals the Context switching cell).  lmbench 1.x "2-proc/8-proc ctxsw" are the
size-0 context switches (``ctxsw_2p_0k``, ``ctxsw_8p_0k``).  The "Comparison to
best of the breed" tables (``make see``: factors, starred bests, percentages)
are relative and are skipped.

Raw result lines (lmbench result files, single tools run by hand)
------------------------------------------------------------------
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

import itertools
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from transforms.model import EXACT, INFERRED, MetricSpec, Parser, Result, Run, Segment
from transforms.numbers import parse_number
from transforms.parsers._common import names_system, system_label

BENCH = "lmbench"

# --------------------------------------------------------------------------- metrics


def _us(low: float = 0.001, high: float = 1e8) -> MetricSpec:
    return MetricSpec("us", False, low, high)


def _ns(low: float = 0.0001, high: float = 1e7) -> MetricSpec:
    return MetricSpec("ns", False, low, high)


def _mbs(low: float = 0.001, high: float = 1e7) -> MetricSpec:
    return MetricSpec("MB/s", True, low, high)


_CTX_NAMED = [(2, 0), (2, 16), (2, 64), (8, 0), (8, 16), (8, 64), (16, 0), (16, 16), (16, 64)]
_OPS = {
    "int": ("bit", "add", "mul", "div", "mod"),
    "int64": ("bit", "add", "mul", "div", "mod"),
    "uint64": ("bit", "add", "mul", "div", "mod"),
    "float": ("add", "mul", "div", "bogo"),
    "double": ("add", "mul", "div", "bogo"),
}

METRICS: dict[str, MetricSpec] = {
    # Processor, Processes (and the raw lat_syscall / lat_proc / lat_sig lines)
    "null_call": _us(),
    "null_io": _us(),
    "syscall_read": _us(),
    "syscall_write": _us(),
    "stat": _us(),
    "fstat": _us(),
    "open_close": _us(),
    "select_tcp": _us(),
    "select_tcp_fd": _us(),
    "select_100fd": _us(),
    "select_fd": _us(),
    "sig_inst": _us(),
    "sig_hndl": _us(),
    "fork_proc": _us(),
    "exec_proc": _us(),
    "sh_proc": _us(),
    # context switching: named columns of the summaries, generic `ctxsw` (params) otherwise
    **{f"ctxsw_{p}p_{k}k": _us() for p, k in _CTX_NAMED},
    "ctxsw": _us(),
    # *Local* / *Remote* communication latencies
    "lat_ctxsw_2p_0k": _us(),
    "lat_pipe": _us(),
    "lat_unix": _us(),
    "lat_udp": _us(),
    "lat_rpc_udp": _us(),
    "lat_tcp": _us(),
    "lat_rpc_tcp": _us(),
    "lat_tcp_conn": _us(),
    "lat_udp_remote": _us(),
    "lat_rpc_udp_remote": _us(),
    "lat_tcp_remote": _us(),
    "lat_rpc_tcp_remote": _us(),
    "lat_tcp_conn_remote": _us(),
    # File & VM system latencies
    "file_create_0k": _us(),
    "file_delete_0k": _us(),
    "file_create_10k": _us(),
    "file_delete_10k": _us(),
    "file_create_rate": MetricSpec("/sec", True, 0.01, 1e9),
    "file_delete_rate": MetricSpec("/sec", True, 0.01, 1e9),
    "mmap_latency": _us(),
    "prot_fault": _us(),
    "page_fault": _us(),
    # bandwidths
    "bw_pipe": _mbs(),
    "bw_unix": _mbs(),
    "bw_tcp": _mbs(),
    "bw_file_reread": _mbs(),
    "bw_file_open2close": _mbs(),
    "bw_mmap_reread": _mbs(),
    "bw_mmap_open2close": _mbs(),
    "bw_bcopy_libc": _mbs(),
    "bw_bcopy_libc_aligned": _mbs(),
    "bw_bcopy_hand": _mbs(),
    "bw_bcopy_hand_partial": _mbs(),
    "bw_bzero": _mbs(),
    "bw_mem_read": _mbs(),
    "bw_mem_read_partial": _mbs(),
    "bw_mem_write": _mbs(),
    "bw_mem_write_partial": _mbs(),
    "bw_mem_rdwr": _mbs(),
    "bw_mem_rdwr_partial": _mbs(),
    "bw_mem_cp": _mbs(),
    "bw_mem_bcopy": _mbs(),
    "bw_mem_fwr": _mbs(),
    "bw_mem_frd": _mbs(),
    "bw_mem_fcp": _mbs(),
    "bw_file_write": MetricSpec("KB/s", True, 1, 1e10),
    # memory latencies
    "lat_l1": _ns(),
    "lat_l2": _ns(),
    "lat_main_mem": _ns(),
    "lat_rand_mem": _ns(),
    "lat_tlb": _ns(),
    "lat_mem_rd": _ns(),
    "lat_mem_rand": _ns(),
    # basic CPU operations
    **{f"{t}_{op}": _ns() for t, ops in _OPS.items() for op in ops},
}

# Plausible ranges tight enough that a value read from the neighbouring column (a
# collapsed-whitespace shift) falls outside: e.g. a null call is 0.01..1000 us on any
# machine from a 1995 workstation to a nested guest, a fork is never under 10 us.
_PLAUSIBLE: dict[str, tuple[float, float]] = {
    **dict.fromkeys(("null_call", "null_io", "syscall_read", "syscall_write", "stat", "fstat",
                     "sig_inst", "sig_hndl"), (0.01, 1000.0)),
    "open_close": (0.05, 5000.0),
    **dict.fromkeys(("select_tcp", "select_tcp_fd", "select_100fd", "select_fd"), (0.1, 20000.0)),
    "fork_proc": (10.0, 1e6),  # 144 ms seen on a sanitizer-instrumented kernel
    "exec_proc": (30.0, 1e6),
    "sh_proc": (100.0, 1e6),
    **{f"ctxsw_{p}p_{k}k": (0.01, 1e5) for p, k in _CTX_NAMED},
    "ctxsw": (0.01, 1e5),
    **dict.fromkeys(("lat_ctxsw_2p_0k", "lat_pipe", "lat_unix", "lat_udp", "lat_rpc_udp", "lat_tcp",
                     "lat_rpc_tcp"), (0.1, 1e5)),
    "lat_tcp_conn": (1.0, 1e6),
    **dict.fromkeys(("file_create_0k", "file_delete_0k", "file_create_10k", "file_delete_10k"), (0.1, 1e6)),
    "mmap_latency": (0.1, 1e7),
    "prot_fault": (0.01, 1e4),
    "page_fault": (0.01, 1e5),
    **dict.fromkeys(("bw_pipe", "bw_unix", "bw_tcp", "bw_file_reread", "bw_mmap_reread", "bw_bcopy_libc",
                     "bw_bcopy_hand", "bw_mem_read", "bw_mem_write"), (0.5, 1e6)),
    "lat_l1": (0.05, 100.0),
    "lat_l2": (0.2, 500.0),
    "lat_main_mem": (2.0, 5000.0),
}
for _name, (_lo, _hi) in _PLAUSIBLE.items():
    METRICS[_name] = MetricSpec(METRICS[_name].unit, METRICS[_name].higher_is_better, _lo, _hi)

# --------------------------------------------------------------------------- summary tables

_BANNER = re.compile(r"L\s*M\s*B\s*E\s*N\s*C\s*H\s+(\d)\s*\.\s*(\d)\s+S\s*U\s*M\s*M\s*A\s*R\s*Y")
_TITLE = re.compile(
    r"^\s*(?P<title>Basic system parameters|Processor, Processes"
    r"|Basic (?P<op>integer|int64|uint64|float|double) operations|Context switching"
    r"|\*Local\* Communication latencies|\*Remote\* Communication latencies"
    r"|File & VM system latencies|\*Local\* Communication bandwidths|Memory latencies)"
    r"(?P<rest>.*)$"
)
_KIND = {
    "Basic system parameters": "basic",
    "Processor, Processes": "proc",
    "Context switching": "ctx",
    "*Local* Communication latencies": "lat_local",
    "*Remote* Communication latencies": "lat_remote",
    "File & VM system latencies": "filevm",
    "*Local* Communication bandwidths": "bw",
    "Memory latencies": "mem",
}
_OP_PREFIX = {
    "integer": "int",
    "int64": "int64",
    "uint64": "uint64",
    "float": "float",
    "double": "double",
}
_RELATIVE = re.compile(r"factor slower|percentage of the best", re.I)
_RULER = re.compile(r"^\s*-+(?:[ \t]+-+){2,}\s*$")
_NOISE = re.compile(r"^\s*(?:#|[~^*|<>=+.?!-]+\s*$|Argument .* at \S*getsummary line)")

# Header blocks exactly as the known getsummary versions print them.  Their word
# sequence identifies a collapsed header; their positions give the column labels.
_CATALOG_TEXT = [
    # lmbench 3.0
    """\
Host                 OS Description              Mhz  tlb  cache  mem   scal
                                                     pages line   par   load
                                                           bytes
--------- ------------- ----------------------- ---- ----- ----- ------ ----""",
    """\
Host                 OS  Mhz null null      open slct sig  sig  fork exec sh
                             call  I/O stat clos TCP  inst hndl proc proc proc
--------- ------------- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ----""",
    """\
Host                 OS  intgr intgr  intgr  intgr  intgr
                          bit   add    mul    div    mod
--------- ------------- ------ ------ ------ ------ ------""",
    """\
Host                 OS int64  int64  int64  int64  int64
                         bit    add    mul    div    mod
--------- ------------- ------ ------ ------ ------ ------""",
    """\
Host                 OS  float  float  float  float
                         add    mul    div    bogo
--------- ------------- ------ ------ ------ ------""",
    """\
Host                 OS  double double double double
                         add    mul    div    bogo
--------- ------------- ------  ------ ------ ------""",
    """\
Host                 OS  2p/0K 2p/16K 2p/64K 8p/16K 8p/64K 16p/16K 16p/64K
                         ctxsw  ctxsw  ctxsw ctxsw  ctxsw   ctxsw   ctxsw
--------- ------------- ------ ------ ------ ------ ------ ------- -------""",
    """\
Host                 OS 2p/0K  Pipe AF     UDP  RPC/   TCP  RPC/ TCP
                        ctxsw       UNIX         UDP         TCP conn
--------- ------------- ----- ----- ---- ----- ----- ----- ----- ----""",
    """\
Host                 OS   UDP  RPC/  TCP   RPC/ TCP
                               UDP         TCP  conn
--------- ------------- ----- ----- ----- ----- ----""",
    """\
Host                 OS   0K File      10K File     Mmap    Prot   Page   100fd
                        Create Delete Create Delete Latency Fault  Fault  selct
--------- ------------- ------ ------ ------ ------ ------- ----- ------- -----""",
    """\
Host                OS  Pipe AF    TCP  File   Mmap  Bcopy  Bcopy  Mem   Mem
                             UNIX      reread reread (libc) (hand) read write
--------- ------------- ---- ---- ---- ------ ------ ------ ------ ---- -----""",
    """\
Host                 OS   Mhz   L1 $   L2 $    Main mem    Rand mem    Guesses
--------- -------------   ---   ----   ----    --------    --------    -------""",
    # lmbench 2.0 (and early 3.0 alphas for the memory table)
    """\
Host                 OS Description              Mhz
--------- ------------- ----------------------- ----""",
    """\
Host                 OS  Mhz null null      open selct sig  sig  fork exec sh
                             call  I/O stat clos TCP   inst hndl proc proc proc
--------- ------------- ---- ---- ---- ---- ---- ----- ---- ---- ---- ---- ----""",
    """\
Host                 OS   0K File      10K File      Mmap    Prot    Page
                        Create Delete Create Delete  Latency Fault   Fault
--------- ------------- ------ ------ ------ ------  ------- -----   -----""",
    """\
Host                 OS   Mhz  L1 $   L2 $    Main mem    Guesses
--------- -------------  ---- ----- ------    --------    -------""",
    # lmbench 1.x
    """\
Host                 OS  Mhz    Null    Null  Simple /bin/sh Mmap 2-proc 8-proc
                             Syscall Process Process Process  lat  ctxsw  ctxsw
--------- ------------- ---- ------- ------- ------- ------- ---- ------ ------""",
    """\
Host                 OS  Pipe       UDP    RPC/     TCP    RPC/
                                            UDP             TCP
--------- ------------- ------- ------- ------- ------- -------""",
    """\
Host                 OS Pipe  TCP  File   Mmap  Bcopy  Bcopy  Mem   Mem
                                  reread reread (libc) (hand) read write
--------- ------------- ---- ---- ------ ------ ------ ------ ---- -----""",
    """\
Host                 OS   Mhz  L1 $   L2 $    Main mem    TLB    Guesses
--------- -------------   ---  ----   ----    --------    ---    -------""",
]

# label (lower case, single spaces) -> (role, key); role: metric | attr | text
_M, _A, _T = "metric", "attr", "text"
_LABELS: dict[str, dict[str, tuple[str, str]]] = {
    "basic": {
        "description": (_T, "description"),
        "mhz": (_A, "mhz"),
        "tlb pages": (_A, "tlb_pages"),
        "cache line bytes": (_A, "cache_line_bytes"),
        "mem par": (_A, "mem_par"),
        "scal load": (_A, "scal_load"),
    },
    "proc": {
        "mhz": (_A, "mhz"),
        "null call": (_M, "null_call"),
        "null i/o": (_M, "null_io"),
        "stat": (_M, "stat"),
        "open clos": (_M, "open_close"),
        "slct tcp": (_M, "select_tcp"),
        "selct tcp": (_M, "select_tcp"),
        "sig inst": (_M, "sig_inst"),
        "sig hndl": (_M, "sig_hndl"),
        "fork proc": (_M, "fork_proc"),
        "exec proc": (_M, "exec_proc"),
        "sh proc": (_M, "sh_proc"),
        # lmbench 1.x: fork+exit, fork+execve, fork+/bin/sh; ctxsw at size 0 (getpercent: size=0)
        "null syscall": (_M, "null_call"),
        "null process": (_M, "fork_proc"),
        "simple process": (_M, "exec_proc"),
        "/bin/sh process": (_M, "sh_proc"),
        "mmap lat": (_M, "mmap_latency"),
        "2-proc ctxsw": (_M, "ctxsw_2p_0k"),
        "8-proc ctxsw": (_M, "ctxsw_8p_0k"),
    },
    "lat_local": {
        "2p/0k ctxsw": (_M, "lat_ctxsw_2p_0k"),
        "pipe": (_M, "lat_pipe"),
        "af unix": (_M, "lat_unix"),
        "udp": (_M, "lat_udp"),
        "rpc/ udp": (_M, "lat_rpc_udp"),
        "tcp": (_M, "lat_tcp"),
        "rpc/ tcp": (_M, "lat_rpc_tcp"),
        "tcp conn": (_M, "lat_tcp_conn"),
    },
    "lat_remote": {
        "udp": (_M, "lat_udp_remote"),
        "rpc/ udp": (_M, "lat_rpc_udp_remote"),
        "tcp": (_M, "lat_tcp_remote"),
        "rpc/ tcp": (_M, "lat_rpc_tcp_remote"),
        "tcp conn": (_M, "lat_tcp_conn_remote"),
    },
    "filevm": {
        "0k file create": (_M, "file_create_0k"),
        "0k file delete": (_M, "file_delete_0k"),
        "10k file create": (_M, "file_create_10k"),
        "10k file delete": (_M, "file_delete_10k"),
        "mmap latency": (_M, "mmap_latency"),
        "prot fault": (_M, "prot_fault"),
        "page fault": (_M, "page_fault"),
        "100fd selct": (_M, "select_100fd"),
    },
    "bw": {
        "pipe": (_M, "bw_pipe"),
        "af unix": (_M, "bw_unix"),
        "tcp": (_M, "bw_tcp"),
        "file reread": (_M, "bw_file_reread"),
        "mmap reread": (_M, "bw_mmap_reread"),
        "bcopy (libc)": (_M, "bw_bcopy_libc"),
        "bcopy (hand)": (_M, "bw_bcopy_hand"),
        "mem read": (_M, "bw_mem_read"),
        "mem write": (_M, "bw_mem_write"),
    },
    "mem": {
        "mhz": (_A, "mhz"),
        "l1 $": (_M, "lat_l1"),
        "l2 $": (_M, "lat_l2"),
        "main mem": (_M, "lat_main_mem"),
        "rand mem": (_M, "lat_rand_mem"),
        "tlb": (_M, "lat_tlb"),
        "guesses": (_T, "mem_guess"),
    },
}
_CTX_LABEL = re.compile(r"^(\d+)p/(\d+)k ctxsw$")

# Columns lmbench often leaves blank (no network, no portmapper, parallel runs, ...).
# Only consulted when a table has no complete row to compare magnitudes with.
_USUALLY_BLANK = {
    "select_tcp", "lat_udp", "lat_rpc_udp", "lat_tcp", "lat_rpc_tcp", "lat_tcp_conn",
    "lat_udp_remote", "lat_rpc_udp_remote", "lat_tcp_remote", "lat_rpc_tcp_remote",
    "lat_tcp_conn_remote", "bw_tcp", "file_create_0k", "file_delete_0k", "file_create_10k",
    "file_delete_10k", "select_100fd", "lat_rand_mem", "lat_tlb", "tlb_pages", "mem_par",
    *(f"{t}_{op}" for t, ops in _OPS.items() for op in ops),
}  # fmt: skip
# Cells getsummary prints even when unmeasured (`%4.0f` / `%4d` of the Mhz, `-1` at worst):
# in a collapsed row they are always there.
_ALWAYS_PRINTED = {("proc", "mhz"), ("mem", "mhz")}
# The same test printed in two tables (same system): used as a reference when placing gaps.
_SAME_TEST = {"lat_ctxsw_2p_0k": "ctxsw_2p_0k"}

# Scoring of gap placements (natural-log units).
_UNKNOWN_COST = 1.0  # a value in a column with no reference at all
_BLANK_COST = 1.0  # a column left blank although the test ran (or is rarely blank)
_MARGIN = 0.5  # "clearly best": the runner-up costs at least this much more
_MAX_MEAN_COST = 1.5  # mean cost per value above which no placement is trusted
_MAX_PLACEMENTS = 20000


@dataclass(slots=True)
class _Col:
    label: str  # header words joined, as printed
    role: str  # metric | attr | text | skip
    key: str  # metric name or attribute key


@dataclass(slots=True)
class _Row:
    system: str
    line: int
    host: str = ""  # the Host cell alone (tables without an OS column are matched by it)
    occ: int = 0
    cells: dict[int, str] = field(default_factory=dict)  # column index -> token (placed)
    texts: dict[int, str] = field(default_factory=dict)
    pending: list[str] | None = None  # collapsed short row: tokens still to place
    alignment: str = EXACT
    problem: str | None = None  # a row-like line that cannot be read (kept as a note)


@dataclass(slots=True)
class _Table:
    kind: str
    title: str
    unit: str | None
    hib: bool | None
    line: int
    cols: list[_Col] = field(default_factory=list)
    rows: list[_Row] = field(default_factory=list)
    end: int = 0
    notes: list[str] = field(default_factory=list)  # (applies to every run of the table)
    row_notes: dict[int, list[str]] = field(default_factory=dict)  # row index -> notes
    unreadable: list[tuple[int, str]] = field(default_factory=list)  # (line, why): unparsed runs
    error: str | None = None
    nid: int = 2  # leading identity spans: Host and OS, or Host alone ("OS Description" shared)


def _spans(ruler: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"-+", ruler)]


def _tokens(line: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+", line)]


def _overlap(s: int, e: int, span: tuple[int, int]) -> int:
    return max(0, min(e, span[1]) - max(s, span[0]))


def _best_span(s: int, e: int, spans: list[tuple[int, int]], slack: int = 1) -> int | None:
    """Index of the span a token overlaps most; a token in a separator gap goes to a span within `slack`."""
    best, best_ov = None, 0
    for k, sp in enumerate(spans):
        ov = _overlap(s, e, sp)
        if ov > best_ov:
            best, best_ov = k, ov
    if best is not None:
        return best
    for k, (a, b) in enumerate(spans):
        if a - slack <= s < b + slack or a - slack < e <= b + slack:
            return k
    return None


def _labels_from_header(header: list[str], spans: list[tuple[int, int]]) -> list[str]:
    """One label per span: the header words above it, joined over the lines.

    A word that straddles two spans ("File" in "0K File") labels both, together
    with the words before it in the same phrase ("0K File Create", "0K File Delete").
    """
    return [" ".join(p for p in parts if p) for parts in _label_parts(header, spans)]


def _label_parts(header: list[str], spans: list[tuple[int, int]]) -> list[list[str]]:
    """Per span, the header words above it on each header line ("" where a line has none)."""
    per_span: list[list[str]] = [[""] * len(header) for _ in spans]
    for li, line in enumerate(header):
        words = _tokens(line)
        parts: list[list[str]] = [[] for _ in spans]
        used: set[int] = set()
        for wi, (s, e, w) in enumerate(words):
            hits = [k for k, sp in enumerate(spans) if _overlap(s, e, sp) > 0]
            if len(hits) < 2:
                continue
            phrase, j = [w], wi - 1
            while j >= 0 and words[j][1] + 1 == words[j + 1][0] and j not in used:
                if _best_span(words[j][0], words[j][1], spans) != hits[0]:
                    break
                phrase.insert(0, words[j][2])
                used.add(j)
                j -= 1
            used.add(wi)
            for k in hits:
                parts[k].append(" ".join(phrase))
        for wi, (s, e, w) in enumerate(words):
            if wi in used:
                continue
            k = _best_span(s, e, spans)
            if k is not None:
                parts[k].append(w)
        for k, p in enumerate(parts):
            per_span[k][li] = " ".join(p)
    return per_span


def _catalog() -> dict[tuple[str, ...], list[str]]:
    """Header word sequence -> value-column labels, for every known getsummary header."""
    out: dict[tuple[str, ...], list[str]] = {}
    for text in _CATALOG_TEXT:
        lines = text.split("\n")
        header, ruler = lines[:-1], lines[-1]
        sig = tuple(" ".join(header).split())
        out.setdefault(sig, _labels_from_header(header, _spans(ruler))[2:])
    return out


_CATALOG = _catalog()


def _norm(label: str) -> str:
    return " ".join(label.lower().split())


def _truncated(words: list[str], full: list[str]) -> bool:
    """`words` are `full` printed in fixed-width cells: each equal or cut short ("Fil", "File")."""
    return len(words) == len(full) and all(
        w == f or (len(w) >= 2 and f.startswith(w)) for w, f in zip(words, full, strict=True)
    )


def _catalog_labels(header: list[str], cut_short: bool = False) -> list[str] | None:
    """Value-column labels of the catalogued header with these words (`cut_short`: or a print
    of it with words cut short by their cells)."""
    sig = tuple(" ".join(header).split())
    if sig in _CATALOG or not cut_short:
        return _CATALOG.get(sig)
    low = [w.lower() for w in sig]
    found = [v for k, v in _CATALOG.items() if _truncated(low, [w.lower() for w in k])]
    return found[0] if len(found) == 1 else None


def _lookup(table: dict[str, tuple[str, str]], low: str) -> tuple[str, str] | None:
    """A label's (role, key): exact, else the one known label it is a cut-short print of."""
    if low in table:
        return table[low]
    words = low.split()
    found = {v for k, v in table.items() if _truncated(words, k.split())}
    return found.pop() if len(found) == 1 else None


def _role(kind: str, op: str | None, label: str) -> tuple[str, str]:
    """What a column is: a metric, a run attribute, free text, or unknown (skip)."""
    low = _norm(label)
    if kind == "ops" and op:
        word = low.split()[-1] if low else ""
        name = f"{_OP_PREFIX[op]}_{word}"
        return (_M, name) if name in METRICS else ("skip", low)
    if kind == "ctx":
        m = _CTX_LABEL.match(low)
        name = f"ctxsw_{m.group(1)}p_{m.group(2)}k" if m else ""
        return (_M, name) if name in METRICS else ("skip", low)
    return _lookup(_LABELS.get(kind, {}), low) or ("skip", low)


def _header_aligned(header: list[str], spans: list[tuple[int, int]]) -> bool:
    """Whitespace is intact when the header words sit in the ruler's spans.

    getsummary right-aligns `OS` at the end of its span; other printers left-align it
    ("Host      OS Description"). Either way `OS` is in the second span, and every header
    word overlaps (or touches) a span; a collapsed header has `OS` inside Host's span.
    """
    if len(spans) < 3 or not header:
        return False
    toks = _tokens(header[0])
    os_tok = next((t for t in toks if t[2] == "OS"), None)
    if os_tok is None:
        return False
    if abs(os_tok[1] - spans[1][1]) <= 2:
        return True
    return (
        toks[0][2] == "Host"
        and toks[1] is os_tok
        and _best_span(os_tok[0], os_tok[1], spans) == 1
        and all(_best_span(s, e, spans) is not None for line in header for s, e, _ in _tokens(line))
    )


def _is_cell(tok: str) -> bool:
    return tok == "-" or parse_number(tok, suffixes=True) is not None


def _cell_value(tok: str) -> float | None:
    """A measured value, or None for a blank / not-measured cell (`-`, `-1`, `0`)."""
    v = parse_number(tok, suffixes=True) if tok != "-" else None
    return v if v is not None and v > 0 else None


def _unit_of(rest: str) -> str | None:
    low = rest.lower()
    if "microsecond" in low:
        return "us"
    if "nanosecond" in low:
        return "ns"
    if "mb/s" in low or "megabytes/second" in low or "mb/sec" in low:
        return "MB/s"
    return None


def _hib_of(rest: str) -> bool | None:
    low = rest.lower()
    if "bigger is better" in low or "larger is better" in low:
        return True
    if "smaller is better" in low:
        return False
    return None


# ------------------------------------------------------------------ reading a table


def _open_table(lines: list[str], i: int, m: re.Match[str], known: set[str]) -> _Table:
    """The table whose title is on line `i`: columns from header and ruler, then its rows.

    `known` are the systems of the block's earlier tables (a row after a blank line must be one).
    """
    title = m.group("title")
    rest = m.group("rest")
    kind = "ops" if m.group("op") else _KIND[title]
    op = m.group("op")
    t = _Table(kind, " ".join(lines[i].split()), _unit_of(rest), _hib_of(rest), i)
    host = next(
        (j for j in range(i + 1, min(i + 8, len(lines))) if lines[j].split()[:1] == ["Host"]), None
    )
    if host is None:  # a title-like line of prose, not a table
        t.end = i + 1
        return t
    ruler = next(
        (j for j in range(host + 1, min(host + 6, len(lines))) if _RULER.match(lines[j])), None
    )
    if ruler is None:
        t.error, t.end = f"{t.title!r}: no dash ruler under the header", host + 1
        return t
    header, spans = lines[host:ruler], _spans(lines[ruler])
    t.end = ruler + 1
    aligned = _header_aligned(header, spans)
    cols = _columns(kind, op, header, spans, aligned)
    if cols is None:
        t.error = f"{t.title!r}: header not recognised ({' '.join(' '.join(header).split())!r})"
        return t
    t.nid, t.cols = len(spans) - len(cols), cols
    for col in cols:
        if col.role == "skip":
            t.notes.append(f"{t.title}: unknown column {col.label!r} not read")
    _read_rows(lines, t, spans, aligned, known)
    return t


def _columns(
    kind: str, op: str | None, header: list[str], spans: list[tuple[int, int]], aligned: bool
) -> list[_Col] | None:
    """The value columns (every span after Host and OS), or None when the header cannot be read.

    A catalogued header gives the labels; a ruler with one span fewer than the catalogue
    has OS sharing its span with the text column after it ("OS Description"). Otherwise an
    intact header is read by its ruler spans (labels as printed), and a collapsed one is
    matched to the catalogue allowing cut-short words, or else its lines paired word by word.
    """
    n = len(spans)

    def col(label: str) -> _Col:
        return _Col(label, *_role(kind, op, label))

    def catalogued(cut_short: bool) -> list[_Col] | None:
        labels = _catalog_labels(header, cut_short)
        if labels is not None and (
            len(labels) == n - 2 or (len(labels) == n - 1 and col(labels[0]).role == _T)
        ):
            return [col(lb) for lb in labels]
        return None

    if (cols := catalogued(False)) is not None:
        return cols
    if not aligned:
        if (cols := catalogued(True)) is not None:
            return cols
        labels = _pair_labels(header, n - 2)
        return [col(lb) for lb in labels] if labels and all(labels) else None
    parts = _label_parts(header, spans)
    nid = 2
    first = parts[1][0].split()
    if len(first) > 1 and first[0] == "OS":  # "OS Description": one span, the description's
        nid, parts[1][0] = 1, " ".join(first[1:])
    cols = []
    for k in range(nid, n):
        c = col(" ".join(p for p in parts[k] if p))
        if c.role == "skip" and len(header) > 1 and not parts[k][0]:
            # under a heading that spans several columns ("0K File" over Create and Delete):
            # the heading is printed over the first of them only
            left = next((parts[j][0] for j in range(k - 1, nid - 1, -1) if parts[j][0]), "")
            grouped = col(" ".join(p for p in [left, *parts[k][1:]] if p))
            if left and grouped.role != "skip":
                c = grouped
        cols.append(c)
    return cols if all(c.label for c in cols) else None


def _pair_labels(header: list[str], n: int) -> list[str] | None:
    """Collapsed header without a catalogue entry: lines with one word per column pair up."""
    words = [line.split() for line in header]
    if not words or words[0][:2] != ["Host", "OS"]:
        return None
    words[0] = words[0][2:]
    words = [w for w in words if w]
    if not words or any(len(w) != n for w in words):
        return None
    return [" ".join(col) for col in zip(*words, strict=True)]


def _read_rows(
    lines: list[str], t: _Table, spans: list[tuple[int, int]], aligned: bool, known: set[str]
) -> None:
    """Data rows under the ruler, up to the next title, prose, or a blank line not followed by a known host."""
    i, seen_blank = t.end, False
    counts: dict[str, int] = {}
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            seen_blank, i = True, i + 1
            continue
        if _TITLE.match(line) or _BANNER.search(line) or _RULER.match(line):
            break
        if _NOISE.match(line):
            i += 1
            continue
        row, used = _parse_row(lines, i, t, spans, aligned)
        if row is None or (seen_blank and row.system not in counts and row.system not in known):
            break
        row.occ = counts.get(row.system, 0)
        counts[row.system] = row.occ + 1
        if row.problem:
            t.unreadable.append((i, f"{t.title}: {row.problem}"))
        else:
            t.rows.append(row)
        seen_blank, i = False, i + used
        t.end = i


def _parse_row(
    lines: list[str], i: int, t: _Table, spans: list[tuple[int, int]], aligned: bool
) -> tuple[_Row | None, int]:
    """One data row and the number of lines it takes (2 when the mailer wrapped it); None: not a row."""
    line = lines[i]
    nxt = lines[i + 1] if i + 1 < len(lines) else ""
    wrapped = bool(nxt.strip()) and all(_is_cell(w) for w in nxt.split()) and not _TITLE.match(nxt)
    if aligned and not wrapped:
        row = _row_by_position(line, i, t, spans)
        if row is not None:
            return row, 1
    row = _row_by_order(line, i, t)
    if row is not None and wrapped and row.pending is not None:
        joined = _row_by_order(line + " " + nxt, i, t)
        if joined is not None:
            return joined, 2
    return row, 1


def _row_by_position(line: str, i: int, t: _Table, spans: list[tuple[int, int]]) -> _Row | None:
    """Whitespace intact: each token goes to the dash span it overlaps most; None if that fails."""
    toks = _tokens(line)
    if not toks or toks[0][0] > spans[0][1]:
        return None
    system: list[str] = []
    host: list[str] = []
    row = _Row("", i)
    texts: dict[int, list[str]] = {}
    for s, e, w in toks:
        k = _best_span(s, e, spans)
        if k is None:
            if s < spans[-1][1]:
                return None
            k = len(spans) - 1  # beyond the ruler: guesses text, or an annotation
            if t.cols[-1].role != _T:
                if _is_cell(w):
                    return None
                continue
        if k < t.nid:
            system.append(w)
            if k == 0:
                host.append(w)
            continue
        col = k - t.nid
        if t.cols[col].role == _T:
            texts.setdefault(col, []).append(w)
        elif col in row.cells or not _is_cell(w):
            return None
        else:
            row.cells[col] = w
    if not system or not any(_cell_value(v) is not None for v in row.cells.values()):
        return None
    row.system, row.host = " ".join(system), " ".join(host)
    row.texts = {k: " ".join(v) for k, v in texts.items()}
    return row


def _row_by_order(line: str, i: int, t: _Table) -> _Row | None:
    """Collapsed row: host, sysname, release (or the host alone), then the cells in order."""
    toks = line.split()
    ident = 3 if t.nid == 2 else 1
    if len(toks) < ident + 1 or _is_cell(toks[0]) or (ident > 1 and _is_cell(toks[1])):
        return None
    row = _Row(" ".join(toks[:ident]), i, host=toks[0])
    rest = toks[ident:]
    cols = t.cols
    if cols and cols[0].role == _T and rest and not _is_cell(rest[0]):
        row.texts[0] = rest[0]
        rest = rest[1:]
    cells: list[str] = []
    for k, w in enumerate(rest):
        if not _is_cell(w):
            tail = rest[k:]
            if cols and cols[-1].role == _T:
                row.texts[len(cols) - 1] = " ".join(tail)
            elif w[0].isalnum():
                return None
            break
        cells.append(w)
    numeric = [k for k, c in enumerate(cols) if c.role != _T]
    if not any(_cell_value(c) is not None for c in cells):
        return None
    if len(cells) > len(numeric):
        row.problem = (
            f"row {row.system!r} has {len(cells)} values for {len(numeric)} columns; not read"
        )
    elif len(cells) == len(numeric):
        row.cells = dict(zip(numeric, cells, strict=True))
    else:
        row.pending = cells
        row.alignment = INFERRED
    return row


# ------------------------------------------------------------------ gap placement


@dataclass(slots=True)
class _Evidence:
    """What a gap placement is scored against."""

    refs: dict[int, list[float]]  # column -> log values of the table's complete rows
    no_refs: bool  # the table has no complete row at all
    xrefs: Callable[[_Row, _Col], float | None]  # same test, same system, in an earlier table


def _place_pending(t: _Table, xrefs: Callable[[_Row, _Col], float | None]) -> None:
    """Give every short collapsed row of the table its columns (or drop what is ambiguous)."""
    numeric = [k for k, c in enumerate(t.cols) if c.role != _T]
    refs: dict[int, list[float]] = {k: [] for k in numeric}
    for row in t.rows:
        if row.pending is None:
            for k, tok in row.cells.items():
                v = _cell_value(tok)
                if v is not None and k in refs:
                    refs[k].append(math.log(v))
    no_refs = not any(refs.values())
    for idx, row in enumerate(t.rows):
        if row.pending is not None:
            _place_row(t, idx, row, numeric, _Evidence(refs, no_refs, xrefs))


def _place_row(t: _Table, idx: int, row: _Row, numeric: list[int], ev: _Evidence) -> None:
    toks = row.pending or []
    n, m = len(numeric), len(toks)
    notes = t.row_notes.setdefault(idx, [])
    where = f"{t.title.split(' - ')[0]}: row {row.system!r} ({m} of {n} values)"
    if math.comb(n, m) > _MAX_PLACEMENTS:
        notes.append(f"{where}: too many blank cells to place; row not read")
        row.pending = None
        return
    xr = {k: ev.xrefs(row, t.cols[k]) for k in numeric}

    def cell_cost(tok: str, k: int) -> float:
        v, ref = _cell_value(tok), xr[k]
        if v is None:
            return 0.0
        if ref is not None:
            return abs(math.log(v) - math.log(ref))
        if ev.refs[k]:
            return min(abs(math.log(v) - r) for r in ev.refs[k])
        return _UNKNOWN_COST

    def blank_cost(k: int) -> float:
        if xr[k] is not None:
            return _BLANK_COST
        if ev.no_refs and t.cols[k].key not in _USUALLY_BLANK:
            return _BLANK_COST
        return 0.0

    fixed = {c for c in range(n) if (t.kind, t.cols[numeric[c]].key) in _ALWAYS_PRINTED}
    scored = []
    for combo in itertools.combinations(range(n), m):
        taken = set(combo)
        if not fixed <= taken:
            continue
        cost = sum(cell_cost(tok, numeric[c]) for tok, c in zip(toks, combo, strict=True))
        cost += sum(blank_cost(numeric[c]) for c in range(n) if c not in taken)
        scored.append((cost, combo))
    if not scored:
        notes.append(f"{where}: fewer values than always-printed columns; row not read")
        row.pending = None
        return
    scored.sort()
    best_cost, best = scored[0]
    near = [combo for cost, combo in scored if cost < best_cost + _MARGIN]
    blanks = [t.cols[numeric[c]].label for c in range(n) if c not in best]
    mean = best_cost / max(m, 1)
    if len(near) == 1 and mean <= _MAX_MEAN_COST:
        row.cells = {numeric[c]: tok for tok, c in zip(toks, best, strict=True)}
        how = (
            "no complete row to compare with; assumed the usually blank columns"
            if ev.no_refs
            else "by magnitude"
        )
        notes.append(f"{where}: blank {', '.join(blanks)} inferred ({how})")
    else:
        kept = (
            []
            if mean > _MAX_MEAN_COST
            else [j for j in range(m) if all(c[j] == best[j] for c in near)]
        )
        row.cells = {numeric[best[j]]: toks[j] for j in kept}
        dropped = [tok for j, tok in enumerate(toks) if j not in kept]
        keep = row.cells
        why = (
            "values do not match the complete rows"
            if mean > _MAX_MEAN_COST
            else f"{len(near)} placements fit about equally well"
        )
        notes.append(f"{where}: {why}; kept {len(keep)}, dropped {' '.join(dropped) or 'none'}")
    row.pending = None


# ------------------------------------------------------------------ building runs


@dataclass(slots=True)
class _Block:
    version: str | None
    start: int
    tables: list[_Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # (applies to every run of the block)


# Tables that only describe the machine (run attributes, no results): when one cannot be
# read the block's results still can, so the problem is a note, not an unparsed run.
_ATTRIBUTES_ONLY = {"basic"}


def _summary_blocks(lines: list[str]) -> tuple[list[_Block], list[Run]]:
    blocks: list[_Block] = []
    unparsed: list[Run] = []
    cur: _Block | None = None
    i = 0
    while i < len(lines):
        b = _BANNER.search(lines[i])
        if b:
            cur = _Block(f"{b.group(1)}.{b.group(2)}", i)
            blocks.append(cur)
            i += 1
            continue
        m = _TITLE.match(lines[i])
        if not m:
            i += 1
            continue
        if _RELATIVE.search(m.group("rest")):
            i += 1  # "best of the breed": relative factors and percentages, not measurements
            continue
        if cur is None:
            cur = _Block(None, i)
            blocks.append(cur)
        known = {r.system for tb in cur.tables for r in tb.rows}
        t = _open_table(lines, i, m, known)
        if t.kind in _ATTRIBUTES_ONLY:
            cur.notes += [f"{t.error}; attributes not read"] if t.error else []
            cur.notes += [f"{why}; attributes not read" for _line, why in t.unreadable]
            t.error, t.unreadable = None, []
        if t.error:
            unparsed.append(
                Run(
                    BENCH,
                    [],
                    tool_version=cur.version,
                    line_start=i,
                    line_end=t.end,
                    status="unparsed",
                    reason=t.error,
                )
            )
        elif t.cols:
            cur.tables.append(t)
        for line, why in t.unreadable:
            unparsed.append(
                Run(BENCH, [], tool_version=cur.version, line_start=line, line_end=line + 1,
                    status="unparsed", reason=why)
            )  # fmt: skip
        i = max(t.end, i + 1)
    return blocks, unparsed


def _match_hosts(block: _Block) -> None:
    """Rows of tables without an OS column join the runs of their host.

    The k-th row of a host there is the host's k-th (system, occurrence) in the tables that
    show the OS; a row with no such match keeps its host as its system.
    """
    by_host: dict[str, list[tuple[str, int]]] = {}
    for t in block.tables:
        if t.nid == 2:
            for row in t.rows:
                keys = by_host.setdefault(row.host, [])
                if (row.system, row.occ) not in keys:
                    keys.append((row.system, row.occ))
    for t in block.tables:
        if t.nid != 2:
            for row in t.rows:
                keys = by_host.get(row.host, [])
                if row.occ < len(keys):
                    row.system, row.occ = keys[row.occ]


def _block_runs(block: _Block) -> list[Run]:
    """One run per (system, repeat) of a summary block, results in table order."""
    _match_hosts(block)
    exact: dict[tuple[str, int], dict[str, float]] = {}

    def xref(row: _Row, col: _Col) -> float | None:
        key = _SAME_TEST.get(col.key, col.key) if col.role == _M else col.key
        return exact.get((row.system, row.occ), {}).get(key)

    for t in block.tables:
        _place_pending(t, xref)
        for row in t.rows:
            if row.alignment != EXACT:
                continue
            for k, tok in row.cells.items():
                col, v = t.cols[k], _cell_value(tok)
                if v is None or col.role not in (_M, _A):
                    continue
                exact.setdefault((row.system, row.occ), {}).setdefault(
                    _SAME_TEST.get(col.key, col.key), v
                )

    repeats = {r.system for t in block.tables for r in t.rows if r.occ > 0}
    runs: dict[tuple[str, int], Run] = {}
    end = max((t.end for t in block.tables), default=block.start + 1)
    for t in block.tables:
        for idx, row in enumerate(t.rows):
            key = (row.system, row.occ)
            run = runs.get(key)
            if run is None:
                run = runs[key] = Run(
                    BENCH,
                    [],
                    tool_version=block.version,
                    system=row.system,
                    line_start=block.start,
                    line_end=end,
                )
            for note in block.notes + t.notes + t.row_notes.get(idx, []):
                if note not in run.notes:
                    run.notes.append(note)
            params = {"repeat": str(row.occ + 1)} if row.system in repeats else {}
            _emit_row(run, t, row, params)
    return list(runs.values())


def _emit_row(run: Run, t: _Table, row: _Row, params: dict[str, str]) -> None:
    for k in sorted(row.cells):
        col, tok = t.cols[k], row.cells[k]
        v = _cell_value(tok)
        if v is None:
            continue
        if col.role == _A:
            run.attributes.setdefault(col.key, tok)
        elif col.role == _M and t.unit is not None and METRICS[col.key].unit == t.unit:
            run.results.append(
                Result(
                    col.key,
                    col.label,
                    v,
                    t.unit,
                    dict(params),
                    higher_is_better=t.hib,
                    alignment=row.alignment,
                    line=row.line,
                )
            )
    for k, text in row.texts.items():
        run.attributes.setdefault(t.cols[k].key, text)


# --------------------------------------------------------------------------- raw results

_RAW_HEADER = re.compile(r"^\s*\[lmbench(\d+(?:\.\d+)?)\s+results for\s+(\S+)\s+(\S+)\s+(\S+)")
_RAW_ATTR = re.compile(
    # the value is words joined by blanks, so that its trailing blanks are never tried as part of it
    r"^\s*+\[(MB|MHZ|OS|PROCESSORS|SYNC_MAX|LMBENCH VERSION|LMBENCH_SCHED): *+"
    r"([^\]\s]*+(?:\s++[^\]\s]++)*+)\s*+\]\s*+$"
)
_RAW_SCALAR = re.compile(
    r"^\s*(?P<label>[A-Za-z][^:]*?):\s*(?P<value>[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)\s+"
    r"(?P<unit>microseconds|nanoseconds|MB/sec|KB/sec)\.?\s*$"  # re-typed: `fork+exit:164.8 microseconds.`
)
_RAW_UNITS = {"microseconds": "us", "nanoseconds": "ns", "MB/sec": "MB/s", "KB/sec": "KB/s"}
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
_FS_HEAD = re.compile(r'^\s*"File system latency\s*$')
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


_RAW_LABEL_START = re.compile(r"^(?:Simple|Signal|Protection|Pipe|AF_UNIX|Process|Select|File|Mmap|Pagefaults"
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
            names_system(text) if (text.endswith(":") or alone) and not _RAW_LABEL_START.match(text) else None)
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


# --------------------------------------------------------------------------- entry point


def parse(seg: Segment) -> list[Run]:
    """Summary blocks (one run per host row) and raw result lines of one segment."""
    lines = seg.lines
    blocks, unparsed = _summary_blocks(lines)
    runs: list[Run] = []
    for block in blocks:
        runs.extend(_block_runs(block))
    runs.extend(unparsed)
    runs.extend(_raw_runs(lines))
    return runs


_NAMED_CTX = re.compile(r"^ctxsw_(\d{1,3})p_(\d{1,4})k$")


def one_ctxsw_metric(r: Result) -> None:
    """Context switches are one metric, `ctxsw`, with `procs` and `size_kb` params, whatever the
    layout printed (`2p/16K ctxsw` columns, lmbench 1.x `2-proc ctxsw`, lat_ctx series, a hand
    table). The column names stay inside the readers, where gap placement compares columns."""
    if m := _NAMED_CTX.match(r.metric):
        r.metric = "ctxsw"
        r.params = {"procs": m.group(1), "size_kb": m.group(2), **r.params}


# Start of a line, allowing the quote prefixes the driver's whole-body prefilter still sees.
_LINE = r"^(?:[ \t]*[A-Za-z]{0,3}>)*[ \t]*"


def _signature() -> re.Pattern[str]:
    parts: Iterable[str] = (
        r"L\s?M\s?B\s?E\s?N\s?C\s?H",
        _LINE
        + r"(?:Processor, Processes -|Context switching -|\*Local\* Communication|\*Remote\* Communication"
        r"|File & VM system latencies|Memory latencies in nano|Basic (?:system parameters|integer|int64|uint64"
        r"|float|double))",
        _LINE
        + r"(?:Simple (?:syscall|read|write|stat|fstat|open/close)|Select on \d+ (?:tcp )?fd's"
        r"|Signal handler (?:installation|overhead)|Protection fault|Pipe (?:latency|bandwidth)"
        r"|AF_UNIX sock stream|Process fork\+(?:exit|execve|/bin/sh -c)|Pagefaults on|(?:UDP|TCP|RPC/udp|RPC/tcp) latency using"
        r"|TCP/IP connection cost to|(?:integer|int64|uint64|float|double) (?:bit|add|mul|div|mod|bogomflops)):",
        _LINE
        + r'"(?:size=\d|stride=\d|mappings|read bandwidth|Mmap read|libc bcopy|unrolled|File system latency)',
        _LINE
        + r'"?(?:Memory (?:partial )?(?:read|write|read/write|bzero) bandwidth|Socket bandwidth using)\s*$',
        r"\bbw_mem\b",
        _LINE + r"\[lmbench\d",
    )
    return re.compile("|".join(f"(?:{p})" for p in parts), re.M)


# distinctive literals, one of which every block the parser reads contains (see Parser.keywords)
KEYWORDS = (
    *dict.fromkeys("".join(c + " " * (s >> i & 1) for i, c in enumerate("lmbench")).strip() for s in range(64)),
    "processor, processes -", "context switching -", "*local* communication", "*remote* communication",
    "file & vm system", "memory latencies in nano", "basic system parameters", "basic integer", "basic int64",
    "basic uint64", "basic float", "basic double", "simple syscall:", "simple read:", "simple write:",
    "simple stat:", "simple fstat:", "simple open/close:", "fd's:", "signal handler installation:",
    "signal handler overhead:", "protection fault:", "pipe latency:", "pipe bandwidth:", "af_unix sock stream",
    "process fork+", "pagefaults on", "udp latency using", "tcp latency using", "connection cost to",
    *(f"{t} {o}:" for t in ("integer", "int64", "uint64", "float", "double")
      for o in ("bit", "add", "mul", "div", "mod", "bogomflops")),
    '"size=', '"stride=', '"mappings', '"read bandwidth', '"mmap read', '"libc bcopy', '"unrolled',
    '"file system latency', "memory read bandwidth", "memory write bandwidth", "memory read/write bandwidth",
    "memory bzero bandwidth", "memory partial ", "socket bandwidth using", "bw_mem", "[lmbench",
)


PARSER = Parser(name="lmbench", version="2", signature=_signature(), parse=parse, metrics=METRICS, keywords=KEYWORDS,
                canonical=one_ctxsw_metric)

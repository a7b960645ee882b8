"""lmbench `make summary` tables (lmbench 1.x, 2.0, 3.0): one run per Host/OS row.

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
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from transforms.model import EXACT, INFERRED, Result, Run
from transforms.numbers import parse_number

from .metrics import _OP_PREFIX, _OPS, BENCH, METRICS

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

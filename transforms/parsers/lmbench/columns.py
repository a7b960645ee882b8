"""lmbench summary tables: the titles, the headers getsummary prints and what each column
holds (metric, attribute, text), read off the ruler spans and header words; and the cells."""

from __future__ import annotations

import re
from bisect import bisect_right
from operator import itemgetter

from transforms.numbers import parse_number

from .metrics import _OP_PREFIX, METRICS

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
_END = itemgetter(1)
_CTX_LABEL = re.compile(r"^(\d+)p/(\d+)k ctxsw$")


def _spans(ruler: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"-+", ruler)]


def _tokens(line: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+", line)]


def _overlapping(s: int, e: int, spans: list[tuple[int, int]]) -> range:
    """Indexes of the spans the token [s, e) overlaps: spans are a ruler's, sorted and apart, so
    they are found by bisection (a wide getsummary table has ~20 spans and ~50 tokens a row)."""
    i = bisect_right(spans, s, key=_END)  # the first span ending after the token starts
    k = i
    while k < len(spans) and spans[k][0] < e:
        k += 1
    return range(i, k)


def _best_span(s: int, e: int, spans: list[tuple[int, int]], slack: int = 1) -> int | None:
    """Index of the span a token overlaps most; a token in a separator gap goes to a span within `slack`."""
    best, best_ov = None, 0
    for k in _overlapping(s, e, spans):
        a, b = spans[k]
        ov = min(e, b) - max(s, a)
        if ov > best_ov:
            best, best_ov = k, ov
    if best is not None:
        return best
    for k in range(bisect_right(spans, s - slack, key=_END), len(spans)):
        a, b = spans[k]
        if a - slack > e:
            break
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
            hits = list(_overlapping(s, e, spans))
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

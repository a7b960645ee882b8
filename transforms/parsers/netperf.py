"""netperf 2.x parser: classic reports, omni output, `-P 0` lines and hand-made tables.

What it reads (see research/extraction/netperf.md for the variants):

- classic reports (`TCP STREAM TEST from ...` / `MIGRATED ...` banner, column headers,
  one or two data lines): TCP_STREAM-like, UDP_STREAM (send and receive line), RR-like,
  each with or without the `-c/-C` CPU columns. Headers are matched on their whitespace
  tokens, so collapsed spacing and mailer-wrapped header lines read the same.
- omni output after a banner: `-k` key=value lines and `-o` CSV (header wrapped or not).
- `-P 0` data lines, only when a netperf command line with `-P 0` sits right above them
  (the command says which test, `-f` unit and `-c/-C` columns they have).
- hand-made tables posted to lists: a title `TCP STREAM (Throughput 10^6bits/sec)`, a
  header `size <config> <config> ...` and one row per message size.

Stable choices (documented contract of this parser):

- metrics: `throughput` (bulk tests, and RR tests run with `-f`; unit from the `-f` label),
  `transaction_rate` (RR/CRR, trans/s), `cpu_util_local`/`cpu_util_remote` (%CPU),
  `service_demand_local`/`_remote` (us/KB), `service_demand_per_tran_local`/`_remote`
  (us/Tr), `rt_latency` and `latency_{min,max,mean,p50,p90,p99,stddev}` (us, omni),
  `transport_retrans_local`/`_remote` (count, omni).
- params: `test` (TCP_STREAM, TCP_RR, ...), `size` (send message size, or request size
  for RR, bytes), `resp_size` (RR response size), `side` (UDP_STREAM only: send|recv).
- run attributes (not params, so runs with different socket buffers still compare):
  socket sizes, `elapsed_s`, CPU method letters, the unit label, UDP message counts,
  the banner and command line.
- system: the hand-made table column, a `--- label` line between data rows, or the
  `-B` brand of a `-P 0` line; else a caption naming a kernel, patch or VM (`guest:`,
  `2.6.24-rc3:`; see `_common.naming_caption`); otherwise None (the caption goes to `Run.caption`).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from transforms.model import MetricSpec, Parser, Result, Run, Segment
from transforms.numbers import parse_number
from transforms.parsers._common import names_system, naming_caption

BENCH = "netperf"

METRICS: dict[str, MetricSpec] = {
    "throughput": MetricSpec("Mbit/s", True, 0.0, 1e8,
                             units=("B/s", "KB/s", "MB/s", "GB/s", "bit/s", "Kbit/s", "Gbit/s")),
    "transaction_rate": MetricSpec("trans/s", True, 0.0, 1e8),
    "cpu_util_local": MetricSpec("%CPU", False, 0.0, 100.0),
    "cpu_util_remote": MetricSpec("%CPU", False, 0.0, 100.0),
    "service_demand_local": MetricSpec("us/KB", False, 0.0, 1e6),
    "service_demand_remote": MetricSpec("us/KB", False, 0.0, 1e6),
    "service_demand_per_tran_local": MetricSpec("us/Tr", False, 0.0, 1e7),
    "service_demand_per_tran_remote": MetricSpec("us/Tr", False, 0.0, 1e7),
    "rt_latency": MetricSpec("us", False, 0.0, 1e8),
    "latency_min": MetricSpec("us", False, 0.0, 1e8),
    "latency_max": MetricSpec("us", False, 0.0, 1e9),
    "latency_mean": MetricSpec("us", False, 0.0, 1e8),
    "latency_p50": MetricSpec("us", False, 0.0, 1e8),
    "latency_p90": MetricSpec("us", False, 0.0, 1e8),
    "latency_p99": MetricSpec("us", False, 0.0, 1e9),
    "latency_stddev": MetricSpec("us", False, 0.0, 1e9),
    "transport_retrans_local": MetricSpec("count", False, 0.0, 1e12),
    "transport_retrans_remote": MetricSpec("count", False, 0.0, 1e12),
}

# `-f` letters and the labels netperf prints for them (netlib.c format_units).
_FMT_LABELS = {
    "b": "10^0bits", "k": "10^3bits", "m": "10^6bits", "g": "10^9bits",
    "B": "Bytes", "K": "KBytes", "M": "MBytes", "G": "GBytes",
}  # fmt: skip
_RATE_UNITS = {
    "10^0bits": "bit/s", "10^3bits": "Kbit/s", "10^6bits": "Mbit/s", "10^9bits": "Gbit/s",
    "bytes": "B/s", "kbytes": "KB/s", "mbytes": "MB/s", "gbytes": "GB/s", "trans": "trans/s",
}  # fmt: skip
_SD_UNITS = {
    "us/kb": "us/KB",
    "usec/kb": "us/KB",
    "us/tr": "us/Tr",
    "usec/tran": "us/Tr",
    "ms/tr": "ms/Tr",
}

# Banner test phrases (nettest_bsd.c / nettest_omni.c) -> test names.
_TEST_NAMES = {
    "TCP STREAM": "TCP_STREAM", "TCP MAERTS": "TCP_MAERTS", "TCP SENDFILE": "TCP_SENDFILE",
    "TCP REQUEST/RESPONSE": "TCP_RR", "TCP CONNECT/REQUEST/RESPONSE": "TCP_CRR",
    "TCP CONNECT/CLOSE": "TCP_CC", "TCP TRANSACTION/RESPONSE": "TCP_TRR",
    "UDP STREAM": "UDP_STREAM", "UDP UNIDIRECTIONAL SEND": "UDP_STREAM",
    "UDP REQUEST/RESPONSE": "UDP_RR", "SCTP STREAM": "SCTP_STREAM",
    "SCTP 1-TO-MANY STREAM": "SCTP_STREAM_MANY", "SCTP REQUEST/RESPONSE": "SCTP_RR",
    "SCTP 1-TO-MANY REQUEST/RESPONSE": "SCTP_RR_MANY",
}  # fmt: skip

_CONTEXT_WINDOW = 80  # a banner or command line further above a header is not its own

SIGNATURE = re.compile(
    r"(?i:netperf)"
    r"|\bTEST\s+(?:from|to)\b"
    # blanks within the line only: `\s*` from every line start would rescan each run of blank lines
    r"|^[^\S\n]*+(?:MIGRATED|OMNI)\b"
    r"|^[^\S\n]*+(?i:Recv\s+Send\s+Send\b)"
    r"|^[^\S\n]*+(?i:Socket\s+Message\s+Elapsed\b)"
    r"|^[^\S\n]*+(?i:Local\s*/Remote\b)"
    r"|^[^\S\n]*+(?i:Socket\s+Size\s+Request\b)"
    r"|^[^\S\n]*+(?i:(?:TCP|UDP|SCTP)[ _][\w/ -]+\()",
    re.M,
)


# --------------------------------------------------------------------------- small helpers


def _tokens(text: str) -> list[str]:
    return text.split()


def _is_numeric(tokens: list[str]) -> bool:
    return bool(tokens) and all(parse_number(t) is not None for t in tokens)


def _int_token(token: str) -> int | None:
    return int(token) if token.isdigit() else None


def _rate_unit(label: str) -> str | None:
    """`10^6bits/sec`, `MBytes  /s`, `Trans/s` -> canonical unit (None when unknown)."""
    key = re.sub(r"\s+", "", label).lower()
    key = re.sub(r"/s(?:ec)?$", "", key)
    return _RATE_UNITS.get(key)


def _test_from_phrase(phrase: str) -> str:
    name = " ".join(phrase.upper().split())
    if name in _TEST_NAMES:
        return _TEST_NAMES[name]
    if name.startswith("OMNI"):
        return "OMNI"
    return name.replace(" ", "_")


def _family(test: str | None) -> str | None:
    """`stream`, `udp` (UDP_STREAM), `rr`, or None when the test does not say."""
    if not test:
        return None
    t = test.upper()
    if t.startswith("UDP") and "STREAM" in t:
        return "udp"
    if re.search(r"_(?:RR|CRR|CC|TRR)(?:_MANY)?$", t):
        return "rr"
    if any(k in t for k in ("STREAM", "MAERTS", "SENDFILE")):
        return "stream"
    return None


_VERSION = re.compile(
    r"\bnetperf[-_]v?(\d\.\d+(?:\.\d+)?)\b|\bnetperf\s+(?:version\s+)?v?(\d\.\d+\.\d+)\b"
    r"|\bnetperf\s+(?:version\s+|v)(\d\.\d+)\b",
    re.I,
)


def _line_version(text: str) -> str | None:
    """The last version mention on one line."""
    m = None
    for m in _VERSION.finditer(text):  # noqa: B007 - the last one counts
        pass
    return next(g for g in m.groups() if g) if m else None


class _Versions:
    """The nearest `netperf-2.4.3` / `Netperf 2.4.4` mention at or above each line (segment, then
    the lines before it), found in one pass: a scan above every block made a post with many
    blocks quadratic."""

    def __init__(self, seg: Segment) -> None:
        self.seg = seg
        self.at: list[str | None] = []
        self._before: list[str | None] | None = None

    def __call__(self, start: int) -> str | None:
        lines = self.seg.lines
        while len(self.at) <= start and len(self.at) < len(lines):
            here = _line_version(lines[len(self.at)])
            self.at.append(here if here is not None else (self.at[-1] if self.at else None))
        found = self.at[min(start, len(self.at) - 1)] if self.at else None
        if found is not None:
            return found
        if self._before is None:
            self._before = [next((v for t in reversed(self.seg.before) if (v := _line_version(t))), None)]
        return self._before[0]


# a run's version is filled in by `parse` from one `_Versions` per segment
_ASK_VERSION = "\0ask"


# `user@host:dir$`: split at the first `@` and the first `:`/`~` after it (the same prompts, without
# trying every split)
_PROMPT = re.compile(r"^(?:\$|#|>|\[[^\]]*\][#$]|[^\s@]++@[^\s:~]++[:~][^ ]*[#$]|-)")


def _caption(lines: list[str], start: int) -> str | None:
    """A short `Something:` line just above the block (commands skipped); informational only."""
    seen = 0
    for k in range(start - 1, max(-1, start - 12), -1):
        s = lines[k].strip()
        if not s:
            continue
        seen += 1
        if seen > 4:
            break
        if _PROMPT.match(s) or _COMMAND.search(s):
            continue
        if s.endswith(":") and len(s) <= 100 and not _is_numeric(_tokens(s)):
            return s.rstrip(":").lstrip("*-#= ").strip() or None
        return None
    return None


# --------------------------------------------------------------------------- banner and command


@dataclass(slots=True)
class _Banner:
    test: str
    text: str
    line: int
    end: int  # first line after the banner and its wrapped continuation


_BANNER = re.compile(
    # the name is words up to the first ` TEST`, never a blank run tried from each of its characters
    r"^\s*+(?:MIGRATED\s++)?(?P<name>(?:TCP|UDP|SCTP|OMNI|DLPI|XTI|SDP|UNIX|DG|STREAM)\b"
    r"[\w/.-]*+(?: ++(?!TEST\b)[\w/.-]++)*+)\s+TEST\b(?P<rest>.*)(?m:$)"
)
_BANNER_CONT = re.compile(r"AF_INET|AF_UNSPEC|^[^\s(]*+\s*+\([^)]*+\)\s+port\s+\d|^port\s+\d|^:\s")


def _banner_at(norm: list[str], i: int) -> _Banner | None:
    m = _BANNER.match(norm[i])
    if not m:
        return None
    rest = m.group("rest")
    if rest and not re.match(r"\s+(?:from|to)\b|\s*:", rest):
        return None
    end = i + 1
    while end < len(norm) and end <= i + 2 and norm[end] and _BANNER_CONT.search(norm[end]):
        end += 1
    return _Banner(_test_from_phrase(m.group("name")), norm[i], i, end)


_COMMAND = re.compile(r"(?:^|[\s/=\"'`(;])netperf(?:\.exe)?\s++(?P<args>-.*)(?m:$)")  # one line
_GLOBAL_VALUE_OPTS = set("tfPvBHlpTLnabFiIDOoWyYsZA")
_OPTIONAL_VALUE_OPTS = set("DiI")


@dataclass(slots=True)
class _Command:
    text: str
    line: int
    end: int
    test: str | None = None
    fmt: str | None = None
    headers: bool = True
    cpu_local: bool = False
    cpu_remote: bool = False
    verbosity: int = 1
    brand: str | None = None
    size: int | None = None
    resp_size: int | None = None
    omni_csv: list[str] | None = None  # `-o [list]` selectors ([] = netperf's default set)
    keyval: list[str] | None = None  # `-k [list]`


def _command_at(norm: list[str], i: int) -> _Command | None:
    m = _COMMAND.search(norm[i])
    if not m:
        return None
    args = m.group("args")
    end = i + 1
    while end < len(norm) and end <= i + 3:
        nxt = norm[end]
        if args.endswith("\\"):
            args = args[:-1] + " " + nxt
        elif nxt.startswith("-") and not nxt.startswith("--- ") and not _is_numeric(_tokens(nxt)):
            args += " " + nxt
        else:
            break
        end += 1
    cmd = _Command(text=norm[i], line=i, end=end)
    _apply_args(cmd, _split_args(args))
    return cmd


def _split_args(args: str) -> list[str]:
    args = re.split(r"[|;>&]", args, maxsplit=1)[0]
    try:
        return shlex.split(args)
    except ValueError:
        return args.replace('"', " ").replace("'", " ").split()


def _apply_args(cmd: _Command, argv: list[str]) -> None:
    """Read the options that decide what netperf printed (global part, then after `--`)."""
    k = 0
    test_specific = False
    while k < len(argv):
        tok = argv[k]
        k += 1
        if tok == "--":
            test_specific = True
            continue
        if len(tok) < 2 or not tok.startswith("-"):
            continue
        opt, rest = tok[1], tok[2:]
        if test_specific:
            k = _apply_test_option(cmd, opt, rest, argv, k)
            continue
        if opt in "cC":
            for flag in opt + rest:
                if flag == "c":
                    cmd.cpu_local = True
                elif flag == "C":
                    cmd.cpu_remote = True
            continue
        if opt not in _GLOBAL_VALUE_OPTS:
            continue
        value = rest
        if (
            not value
            and k < len(argv)
            and not (opt in _OPTIONAL_VALUE_OPTS and argv[k].startswith("-"))
        ):
            value = argv[k]
            k += 1
        if opt == "t":
            cmd.test = value.upper()
        elif opt == "f" and value[:1] in _FMT_LABELS:
            cmd.fmt = value[:1]
        elif opt == "P":
            cmd.headers = value.strip() != "0"
        elif opt == "v" and value.isdigit():
            cmd.verbosity = int(value)
        elif opt == "B":
            cmd.brand = value


def _apply_test_option(cmd: _Command, opt: str, rest: str, argv: list[str], k: int) -> int:
    """Test-specific options: sizes and omni output selectors."""
    value = rest
    takes_value = opt in "mMrsSoOkP"
    optional = opt in "oOk"
    if takes_value and not value and k < len(argv) and not (optional and argv[k].startswith("-")):
        value = argv[k]
        k += 1
    if opt == "m":
        cmd.size = _int_token(value)
    elif opt == "r":
        req, _, resp = value.partition(",")
        cmd.size = _int_token(req)
        cmd.resp_size = _int_token(resp) if resp else cmd.size
    elif opt == "o":
        cmd.omni_csv = [s for s in value.split(",") if s]
    elif opt == "k":
        cmd.keyval = [s for s in value.split(",") if s]
    return k


# --------------------------------------------------------------------------- classic layouts


_UNIT = r"(?P<unitlabel>(?P<unit>\S+?) ?/ ?s(?:ec)?)"
_LR = " ".join(f"(?P<o{n}>local|remote)" for n in range(1, 5))
_METH2 = r"%(?: (?P<m1>[A-Za-z?]{1,2}))? %(?: (?P<m2>[A-Za-z?]{1,2}))?"
_SD2 = r"(?P<sd>[um]s(?:ec)?/(?:KB|Tr)) [um]s(?:ec)?/(?:KB|Tr)"
_RR_HEAD = r"(?:Local ?/Remote )?Socket Size Request Resp\. Elapsed"


@dataclass(frozen=True, slots=True)
class _Layout:
    """One header variant: its token pattern and the fields of its one or two data lines."""

    name: str
    family: str  # stream | udp | rr
    pattern: re.Pattern[str]
    line1: tuple[str, ...]
    line2: tuple[str, ...] = ()  # RR: remote socket sizes; UDP_STREAM: the receive line


def _layout(name: str, family: str, pattern: str, line1: str, line2: str = "") -> _Layout:
    return _Layout(
        name, family, re.compile(pattern, re.I), tuple(line1.split()), tuple(line2.split())
    )


_STREAM1 = "recv_socket send_socket size elapsed tput"
_RR1 = "local_send_socket local_recv_socket size resp_size elapsed"
_RR2 = "remote_send_socket remote_recv_socket"
_UDP1 = "send_socket size elapsed messages errors tput"
_UDP2 = "recv_socket elapsed messages tput"
_CPU4 = " cpu_1 cpu_2 sd_1 sd_2"

_LAYOUTS: tuple[_Layout, ...] = (
    _layout(
        "stream", "stream",
        r"Recv Send Send Socket Socket Message Elapsed Size Size Size Time Throughput "
        r"bytes bytes bytes secs\. " + _UNIT,
        _STREAM1,
    ),
    _layout(
        "stream_cpu", "stream",
        r"Recv Send Send Utilization Service Demand Socket Socket Message Elapsed "
        r"(?:Send|Recv) (?:Send|Recv) (?:Send|Recv) (?:Send|Recv) Size Size Size Time Throughput "
        + _LR + r" bytes bytes bytes secs\. " + _UNIT + " " + _METH2 + " " + _SD2,
        _STREAM1 + _CPU4,
    ),
    _layout(
        "udp", "udp",
        r"Socket Message Elapsed Messages Size Size Time Okay Errors Throughput "
        r"bytes bytes secs # # " + _UNIT,
        _UDP1, _UDP2,
    ),
    _layout(
        "udp_cpu", "udp",
        r"Socket Message Elapsed Messages CPU Service Size Size Time Okay Errors Throughput "
        r"Util Demand bytes bytes secs # # " + _UNIT
        + r" %(?: (?P<m1>[A-Za-z?]{1,2}))? (?P<sd>[um]s(?:ec)?/KB)",
        _UDP1 + " cpu sd", _UDP2 + " cpu sd",
    ),
    _layout(
        "rr", "rr",
        _RR_HEAD + r" Trans\. Send Recv Size Size Time Rate bytes Bytes bytes bytes secs\. per sec",
        _RR1 + " rate", _RR2,
    ),
    _layout(
        "rr_band", "rr",
        _RR_HEAD + r" Send Recv Size Size Time Throughput bytes Bytes bytes bytes secs\. " + _UNIT,
        _RR1 + " tput", _RR2,
    ),
    _layout(
        "rr_cpu", "rr",
        _RR_HEAD + r" Trans\. CPU CPU S\.dem S\.dem Send Recv Size Size Time Rate " + _LR
        + r" bytes bytes bytes bytes secs\. per sec " + _METH2 + " " + _SD2,
        _RR1 + " rate" + _CPU4, _RR2,
    ),
    _layout(
        "rr_cpu_tput", "rr",
        _RR_HEAD + r" Tput CPU CPU S\.dem S\.dem Send Recv Size Size Time (?P<unitlabel>(?P<unit>\S+)) "
        + _LR + r" bytes bytes bytes bytes secs\. per sec " + _METH2 + " " + _SD2,
        _RR1 + " tput" + _CPU4, _RR2,
    ),
    _layout(
        "rr_cpu_latency", "rr",
        _RR_HEAD + r" Latency CPU CPU S\.dem S\.dem Send Recv Size Size Time usecs " + _LR
        + r" bytes bytes bytes bytes secs\. per tran " + _METH2 + " " + _SD2,
        _RR1 + " latency" + _CPU4, _RR2,
    ),
)  # fmt: skip

_LAYOUT_BY_NAME = {lay.name: lay for lay in _LAYOUTS}
_INT_FIELDS = frozenset(
    [
        "recv_socket",
        "send_socket",
        "size",
        "resp_size",
        "messages",
        "errors",
        "local_send_socket",
        "local_recv_socket",
        "remote_send_socket",
        "remote_recv_socket",
    ]
)
_HEADER_START = re.compile(
    r"^(?:Recv Send Send\b|Socket Message Elapsed Messages\b|Local ?/Remote\b|Socket Size Request Resp\.)",
    re.I,
)


@dataclass(slots=True)
class _Header:
    """What the column header says: units, CPU column order and methods."""

    layout: _Layout
    unit: str | None  # canonical rate unit (throughput) or None for trans/s layouts
    unit_label: str
    order: tuple[str, ...] = ()  # local/remote for cpu_1, cpu_2, sd_1, sd_2
    methods: tuple[str, ...] = ()
    sd_unit: str | None = None


def _header_from_match(layout: _Layout, m: re.Match[str]) -> _Header | str:
    """Build the header info, or return the reason it cannot be read."""
    groups = m.groupdict()
    unit, label = None, ""
    if groups.get("unit"):
        label = groups["unitlabel"]
        unit = _rate_unit(groups["unit"])
        if unit is None:
            return f"unknown throughput unit {label!r}"
    order = tuple(groups[f"o{n}"].lower() for n in range(1, 5) if groups.get(f"o{n}"))
    methods = tuple(groups[k] or "" for k in ("m1", "m2") if k in groups)
    if layout.family == "udp" and methods and len(methods[0]) == 2:
        methods = (methods[0][0], methods[0][1])  # `% SS`: local then remote method letter
    sd_unit = None
    if groups.get("sd"):
        sd_unit = _SD_UNITS.get(groups["sd"].lower())
    return _Header(layout, unit, label, order, methods, sd_unit)


def _read_header(norm: list[str], i: int) -> tuple[_Layout, re.Match[str], int] | None:
    """Join header lines (wrapped or collapsed alike) until they spell one known layout."""
    parts: list[str] = []
    for j in range(i, min(i + 10, len(norm))):
        s = norm[j]
        if not s or (j > i and _is_numeric(_tokens(s))):
            break
        parts.append(s)
        joined = " ".join(parts)
        for layout in _LAYOUTS:
            m = layout.pattern.fullmatch(joined)
            if m:
                return layout, m, j + 1
    return None


# --------------------------------------------------------------------------- data records


@dataclass(slots=True)
class _Record:
    fields: dict[str, str]
    line1: int
    line2: int | None
    end: int
    brand: str | None = None


def _fields(names: tuple[str, ...], toks: list[str]) -> dict[str, str] | None:
    if len(toks) != len(names) or not _is_numeric(toks):
        return None
    out = dict(zip(names, toks, strict=True))
    if any(_int_token(out[k]) is None for k in out if k in _INT_FIELDS):
        return None
    return out


def _take(norm: list[str], j: int, want: int) -> tuple[list[str], int]:
    """Tokens of line j, joined with the next line when a mailer wrapped it."""
    toks, end = _tokens(norm[j]), j + 1
    if len(toks) < want and end < len(norm) and _is_numeric(_tokens(norm[end])):
        joined = toks + _tokens(norm[end])
        if len(joined) == want:
            return joined, end + 1
    return toks, end


def _read_record(
    norm: list[str], j: int, layout: _Layout, brand_ok: bool = False
) -> _Record | None:
    """One result: its data line and, for RR and UDP_STREAM, the second line."""
    want = len(layout.line1)
    toks, end = _take(norm, j, want)
    brand = None
    if brand_ok and len(toks) > want and _is_numeric(toks[:want]) and not _is_numeric(toks[want:]):
        brand = " ".join(toks[want:])
        toks = toks[:want]
    first = _fields(layout.line1, toks)
    if first is None:
        return None
    rec = _Record(first, j, None, end, brand)
    if layout.line2 and end < len(norm):
        toks2, end2 = _take(norm, end, len(layout.line2))
        second = _fields(layout.line2, toks2)
        if second is not None:
            for k, v in second.items():
                first[f"{k}@2" if k in first else k] = v
            rec.line2, rec.end = end, end2
    return rec


_LABEL = re.compile(
    r"^(?:-{2,}|={2,}|\*{1,3}|#{1,3})\s*(?P<label>[^\s\-=*#].{0,60}?)\s*(?:-{2,}|={2,}|\*{1,3})?$"
)


def _next_nonblank(norm: list[str], j: int, limit: int = 2) -> int | None:
    k = j
    while k < len(norm) and k <= j + limit:
        if norm[k]:
            return k
        k += 1
    return None


def _read_records(
    norm: list[str], start: int, layout: _Layout
) -> tuple[list[tuple[_Record, str | None]], int, str | None]:
    """Data records under one header; `--- label` lines between them name the system."""
    out: list[tuple[_Record, str | None]] = []
    label: str | None = None
    j = start
    while True:
        k = _next_nonblank(norm, j)
        if k is None:
            break
        toks = _tokens(norm[k])
        if _is_numeric(toks):
            rec = _read_record(norm, k, layout)
            if rec is None:
                if not out:
                    return (
                        [],
                        k + 1,
                        f"data line does not fit the {layout.name} columns: {norm[k]!r}",
                    )
                break
            out.append((rec, label))
            j = rec.end
            continue
        m = _LABEL.match(norm[k])
        nxt = _next_nonblank(norm, k + 1, 1)
        if m and nxt is not None and _is_numeric(_tokens(norm[nxt])):
            label = m.group("label").rstrip(":").strip()
            j = k + 1
            continue
        break
    if not out:
        return [], start, "header without a data line"
    return out, j, None


# --------------------------------------------------------------------------- results


@dataclass(slots=True)
class _Block:
    """What one block's results share, and the results themselves."""

    test: str | None
    system: str | None = None
    notes: list[str] = field(default_factory=list)
    attributes: dict[str, str] = field(default_factory=dict)
    results: list[Result] = field(default_factory=list)

    def emitter(self, params: dict[str, str], line: int | None) -> _Emit:
        return _Emit(self, params, line)


@dataclass(slots=True)
class _Emit:
    """Adds results at one params/line; negative CPU or service demand is netperf's 'not measured'."""

    block: _Block
    params: dict[str, str]
    line: int | None

    def __call__(self, metric: str, label: str, token: str, unit: str) -> None:
        value = parse_number(token)
        if value is None:
            self.block.notes.append(f"{metric}: unreadable value {token!r}")
        elif value < 0 and metric != "throughput":
            self.block.notes.append(f"{metric}: {token} means not measured; skipped")
        else:
            self.block.results.append(
                Result(metric=metric, metric_label=label, value=value, unit=unit,
                       params=dict(self.params), system=self.block.system, line=self.line)
            )  # fmt: skip


def _base_params(test: str | None, size: str | None, resp: str | None = None) -> dict[str, str]:
    params: dict[str, str] = {}
    if test:
        params["test"] = test
    if size is not None:
        params["size"] = str(int(size))
    if resp is not None:
        params["resp_size"] = str(int(resp))
    return params


def _sd_metric(sd_unit: str | None, side: str) -> tuple[str, str]:
    """Service demand per KB (bulk) and per transaction (RR) are different metrics."""
    if sd_unit in ("us/Tr", "ms/Tr"):
        return f"service_demand_per_tran_{side}", sd_unit
    return f"service_demand_{side}", sd_unit or "us/KB"


_SOCKET_FIELDS = (
    "recv_socket", "send_socket", "local_send_socket", "local_recv_socket",
    "remote_send_socket", "remote_recv_socket",
)  # fmt: skip


def _record_results(hdr: _Header, rec: _Record, block: _Block) -> None:
    """Results of one classic record; sizes and elapsed time go to the run attributes."""
    f = rec.fields
    block.attributes["elapsed_s"] = f["elapsed"]
    block.attributes.update({k: f[k] for k in _SOCKET_FIELDS if k in f})
    if hdr.layout.family == "udp":
        _udp_results(hdr, rec, block)
        return
    if hdr.layout.family == "stream":
        emit = block.emitter(_base_params(block.test, f["size"]), rec.line1)
    else:
        emit = block.emitter(_base_params(block.test, f["size"], f["resp_size"]), rec.line1)
    if "rate" in f:
        emit("transaction_rate", "Trans. Rate per sec", f["rate"], "trans/s")
    elif "tput" in f:
        emit("throughput", f"Throughput {hdr.unit_label}", f["tput"], hdr.unit or "")
    else:
        emit("rt_latency", "Latency usecs per tran", f["latency"], "us")
    if "cpu_1" in f:
        _cpu_results(hdr, f, emit)


def _cpu_results(hdr: _Header, f: dict[str, str], emit: _Emit) -> None:
    """The four -c/-C columns, placed by the header's local/remote words."""
    for n in range(2):
        side = hdr.order[n] if n < len(hdr.order) else ("local", "remote")[n]
        method = hdr.methods[n] if n < len(hdr.methods) else ""
        emit(f"cpu_util_{side}", f"CPU {side} % {method}".strip(), f[f"cpu_{n + 1}"], "%CPU")
    for n in range(2):
        side = hdr.order[n + 2] if n + 2 < len(hdr.order) else ("local", "remote")[n]
        metric, unit = _sd_metric(hdr.sd_unit, side)
        emit(metric, f"Service Demand {side} {unit}", f[f"sd_{n + 1}"], unit)


def _udp_results(hdr: _Header, rec: _Record, block: _Block) -> None:
    """UDP_STREAM: the send line (local CPU) and the receive line (remote CPU, the real goodput)."""
    f = rec.fields
    base = _base_params(block.test or "UDP_STREAM", f["size"])
    block.attributes.update(send_messages=f["messages"], send_errors=f["errors"])
    sides = [("send", "local", "", rec.line1)]
    if rec.line2 is not None:
        block.attributes["recv_messages"] = f["messages@2"]
        sides.append(("recv", "remote", "@2", rec.line2))
    else:
        block.notes.append("UDP_STREAM receive line missing")
    for n, (side, where, sfx, line) in enumerate(sides):
        label = f"Throughput {hdr.unit_label}"
        block.emitter({**base, "side": side}, line)(
            "throughput", label, f["tput" + sfx], hdr.unit or ""
        )
        if "cpu" + sfx in f:
            emit = block.emitter(base, line)
            method = hdr.methods[n] if n < len(hdr.methods) else ""
            emit(f"cpu_util_{where}", f"CPU Util % {method}".strip(), f["cpu" + sfx], "%CPU")
            metric, unit = _sd_metric(hdr.sd_unit, where)
            emit(metric, f"Service Demand {unit}", f["sd" + sfx], unit)


# --------------------------------------------------------------------------- omni output

# human CSV column names (nettest_omni.c) -> selector names
_OMNI_HUMAN = {
    "Throughput": "THROUGHPUT", "Throughput Units": "THROUGHPUT_UNITS",
    "Throughput Confidence Width (%)": "THROUGHPUT_CONFID", "Confidence Iterations Run": "CONFIDENCE_ITERATION",
    "Elapsed Time (sec)": "ELAPSED_TIME", "Local Send Size": "LOCAL_SEND_SIZE",
    "Request Size Bytes": "REQUEST_SIZE", "Response Size Bytes": "RESPONSE_SIZE",
    "Local CPU Util %": "LOCAL_CPU_UTIL", "Remote CPU Util %": "REMOTE_CPU_UTIL",
    "Local Service Demand": "LOCAL_SD", "Remote Service Demand": "REMOTE_SD", "Service Demand Units": "SD_UNITS",
    "Transaction Rate Tran/s": "TRANSACTION_RATE", "Round Trip Latency usec/tran": "RT_LATENCY",
    "Minimum Latency Microseconds": "MIN_LATENCY", "Maximum Latency Microseconds": "MAX_LATENCY",
    "50th Percentile Latency Microseconds": "P50_LATENCY", "90th Percentile Latency Microseconds": "P90_LATENCY",
    "99th Percentile Latency Microseconds": "P99_LATENCY", "Mean Latency Microseconds": "MEAN_LATENCY",
    "Stddev Latency Microseconds": "STDDEV_LATENCY",
    "Local Transport Retransmissions": "LOCAL_TRANSPORT_RETRANS",
    "Remote Transport Retransmissions": "REMOTE_TRANSPORT_RETRANS", "Transport MSS bytes": "TRANSPORT_MSS",
}  # fmt: skip
_OMNI_FIXED = {
    "MIN_LATENCY": ("latency_min", "us"), "MAX_LATENCY": ("latency_max", "us"),
    "MEAN_LATENCY": ("latency_mean", "us"), "P50_LATENCY": ("latency_p50", "us"),
    "P90_LATENCY": ("latency_p90", "us"), "P99_LATENCY": ("latency_p99", "us"),
    "STDDEV_LATENCY": ("latency_stddev", "us"), "RT_LATENCY": ("rt_latency", "us"),
    "TRANSACTION_RATE": ("transaction_rate", "trans/s"),
    "LOCAL_CPU_UTIL": ("cpu_util_local", "%CPU"), "REMOTE_CPU_UTIL": ("cpu_util_remote", "%CPU"),
    "LOCAL_TRANSPORT_RETRANS": ("transport_retrans_local", "count"),
    "REMOTE_TRANSPORT_RETRANS": ("transport_retrans_remote", "count"),
}  # fmt: skip
_KEYVAL = re.compile(r"^(?P<key>[A-Z][A-Z0-9_]*)=(?P<value>.*)$")


def _omni_selector(name: str) -> str:
    name = name.strip()
    return _OMNI_HUMAN.get(name, name.upper() if re.fullmatch(r"[A-Za-z0-9_]+", name) else name)


def _throughput_unit(values: dict[str, str], test: str | None, cmd: _Command | None) -> str | None:
    """THROUGHPUT's unit: printed units, else what the test and `-f` imply."""
    if "THROUGHPUT_UNITS" in values:
        return _rate_unit(values["THROUGHPUT_UNITS"])
    fmt = cmd.fmt if cmd else None
    fam = _family(test)
    if fam == "rr":
        return _rate_unit(_FMT_LABELS[fmt]) if fmt else "trans/s"
    if fam in ("stream", "udp"):
        return _rate_unit(_FMT_LABELS[fmt or "m"])
    return None


_OMNI_KNOWN = frozenset(_OMNI_HUMAN.values()) | frozenset(_OMNI_FIXED) | {"LOCAL_SD", "REMOTE_SD"}


def _omni_params(values: dict[str, str], test: str | None, cmd: _Command | None) -> dict[str, str]:
    """Sizes from the selected columns, else from the command's `-m` / `-r`."""
    rr = _family(test) == "rr"
    size = values.get("REQUEST_SIZE" if rr else "LOCAL_SEND_SIZE", "").strip()
    resp = values.get("RESPONSE_SIZE", "").strip() if rr else ""
    if not size and cmd and cmd.size is not None:
        size = str(cmd.size)
    if rr and not resp and cmd and cmd.resp_size is not None:
        resp = str(cmd.resp_size)
    return _base_params(test, size if size.isdigit() else None, resp if resp.isdigit() else None)


def _omni_results(
    values: dict[str, str], block: _Block, cmd: _Command | None, line: int
) -> str | None:
    """Results from omni selector=value pairs; the reason when a unit cannot be known."""
    emit = block.emitter(_omni_params(values, block.test, cmd), line)
    for key, raw in values.items():
        token = raw.strip()
        if key == "THROUGHPUT":
            unit = _throughput_unit(values, block.test, cmd)
            if unit is None:
                return "THROUGHPUT without a known unit"
            emit("transaction_rate" if unit == "trans/s" else "throughput", key, token, unit)
        elif key in _OMNI_FIXED:
            emit(*_OMNI_FIXED[key][:1], key, token, _OMNI_FIXED[key][1])
        elif key in ("LOCAL_SD", "REMOTE_SD"):
            printed = _SD_UNITS.get(values.get("SD_UNITS", "").strip().lower())
            default = "us/Tr" if _family(block.test) == "rr" else "us/KB"
            metric, unit = _sd_metric(printed or default, key.split("_")[0].lower())
            emit(metric, key, token, unit)
        elif key == "ELAPSED_TIME":
            block.attributes["elapsed_s"] = token
        else:
            block.attributes[key.lower()] = token
    return None


def _omni_after(
    norm: list[str], i: int, block: _Block, cmd: _Command | None
) -> tuple[int, str | None] | None:
    """Keyval (`-k`) or CSV (`-o`) omni output from the first non-blank line at i: (end, reason)."""
    k = _next_nonblank(norm, i, 1)
    if k is None or _banner_at(norm, k):
        return None
    if _KEYVAL.match(norm[k]):
        values: dict[str, str] = {}
        j = k
        while j < len(norm) and (m := _KEYVAL.match(norm[j])):
            values[m.group("key")] = m.group("value")
            j += 1
        return j, _omni_results(values, block, cmd, k)
    header: list[str] = []
    for j in range(k, min(k + 8, len(norm))):
        if not norm[j]:
            return None
        if header and parse_number(norm[j].split(",")[0]) is not None:
            names = [_omni_selector(n) for n in " ".join(header).split(",")]
            if not _OMNI_KNOWN.intersection(names):
                return None
            cells = norm[j].split(",")
            if len(cells) == len(names) + 1:
                # UDP_RR / UDP_STREAM print one value more than the header names (a trailing
                # `-1`): the named columns are still in place, the extra one is noted
                block.notes.append(f"omni CSV: value {cells[-1].strip()!r} beyond the {len(names)} named columns")
                cells = cells[:-1]
            if len(cells) != len(names):
                return j + 1, f"omni CSV has {len(names)} columns but {len(cells)} values"
            return j + 1, _omni_results(dict(zip(names, cells, strict=True)), block, cmd, j)
        header.append(norm[j])
    return None


# --------------------------------------------------------------------------- hand-made tables

_TABLE_TITLE = re.compile(
    r"^(?P<name>(?:TCP|UDP|SCTP)[ _][A-Za-z/ _-]*?[A-Za-z])\s*\((?P<desc>[^()]+)\)\s*:?$", re.I
)
_SIZE_WORDS = {"size", "msgsize", "msg_size", "message_size", "bytes", "size(bytes)"}


def _desc_unit(desc: str) -> str | None:
    """The unit a hand-made table's title names: `Throughput 10^6bits/sec`, `Trans. Rate per sec`."""
    m = re.search(r"10\^([0369])\s*bits", desc)
    if m:
        return _rate_unit(f"10^{m.group(1)}bits")
    m = re.search(r"\b([KMG]?)Bytes\b", desc)
    if m:
        return _rate_unit(f"{m.group(1)}Bytes")
    m = re.search(r"\b([KMG])(?:bit/s|bits/s|bps|b/s)\b", desc)
    if m:
        return f"{m.group(1)}bit/s"
    if re.search(r"\btrans|\btps\b|rate per sec", desc, re.I):
        return "trans/s"
    return None


def _parse_table(norm: list[str], i: int, m: re.Match[str]) -> tuple[Run, int] | None:
    """A posted table: title, `size <configs...>`, one row per message size."""
    h = _next_nonblank(norm, i + 1, 1)
    if h is None:
        return None
    head = _tokens(norm[h])
    if (
        len(head) < 2
        or head[0].lower() not in _SIZE_WORDS
        or any(parse_number(t) is not None for t in head[1:])
    ):
        return None
    systems = head[1:]
    name = m.group("name").strip()
    test = name.upper() if "_" in name else _test_from_phrase(name)
    desc = m.group("desc").strip()
    unit = _desc_unit(desc)
    run = Run(benchmark=BENCH, results=[], caption=norm[i], line_start=i, line_end=h + 1)
    if unit is None:
        if _family(test) != "rr":
            run.status, run.reason = "unparsed", f"table unit not understood: {desc!r}"
            return run, h + 1
        unit = "trans/s"
    metric = "transaction_rate" if unit == "trans/s" else "throughput"
    j = h + 1
    while j < len(norm) and norm[j]:
        toks, end = _tokens(norm[j]), j + 1
        if not _is_numeric(toks):
            break
        if len(toks) < len(systems) + 1 and end < len(norm) and _is_numeric(_tokens(norm[end])):
            joined = toks + _tokens(norm[end])
            if len(joined) == len(systems) + 1:
                toks, end = joined, end + 1
        if len(toks) != len(systems) + 1 or _int_token(toks[0]) is None:
            run.status, run.reason = (
                "unparsed",
                f"row does not have {len(systems)} values: {norm[j]!r}",
            )
            run.results, run.line_end = [], end
            return run, end
        for sys_name, tok in zip(systems, toks[1:], strict=True):
            run.results.append(
                Result(
                    metric=metric,
                    metric_label=desc,
                    value=float(parse_number(tok) or 0.0),
                    unit=unit,
                    params={"test": test, "size": str(int(toks[0]))},
                    system=sys_name,
                    line=j,
                )
            )
        run.line_end = end
        j = end
    if not run.results:
        run.status, run.reason = "unparsed", "table header without rows"
    return run, max(j, h + 1)


# --------------------------------------------------------------------------- the scan


@dataclass(slots=True)
class _State:
    """The banner and command line seen above the next block."""

    banner: _Banner | None = None
    command: _Command | None = None

    def fresh(self, i: int) -> tuple[_Banner | None, _Command | None]:
        """The banner/command that belong to a block starting at line i."""
        b = self.banner if self.banner and i - self.banner.end <= _CONTEXT_WINDOW else None
        c = self.command if self.command and i - self.command.end <= _CONTEXT_WINDOW else None
        return b, c


_Found = tuple[list[Run], int]  # runs, and the line where scanning resumes


def _test_for(
    family: str, banner: _Banner | None, cmd: _Command | None, notes: list[str]
) -> str | None:
    """Banner first, then `-t` (netperf's default test is TCP_STREAM), then what the columns prove."""
    for source, test in (("banner", banner and banner.test), ("command", cmd and cmd.test)):
        if not test:
            continue
        if _family(test) in (None, family):
            return test
        notes.append(f"{source} test {test} does not match the {family} columns; ignored")
    if cmd is not None and cmd.test is None and family == "stream":
        return "TCP_STREAM"
    return "UDP_STREAM" if family == "udp" else None


def _new_run(
    seg: Segment, start: int, end: int, block: _Block, banner: _Banner | None, cmd: _Command | None
) -> Run:
    attrs = dict(block.attributes)
    if banner:
        attrs["banner"] = banner.text
    if cmd:
        attrs["command"] = cmd.text
    caption = _caption(seg.lines, start)
    # a caption naming a kernel, patch or VM is the system of rows the table did not label
    system = (names_system(caption) if caption else None) or naming_caption(seg.lines, start, 0, seg.before)
    return Run(benchmark=BENCH, results=block.results, tool_version=_ASK_VERSION,
               system=system, caption=caption, line_start=start, line_end=end,
               attributes=attrs, notes=list(block.notes))  # fmt: skip


def _unparsed(start: int, end: int, reason: str) -> _Found:
    run = Run(benchmark=BENCH, results=[], line_start=start, line_end=max(end, start + 1),
              status="unparsed", reason=reason)  # fmt: skip
    return [run], max(end, start + 1)


def _parse_classic(seg: Segment, norm: list[str], i: int, st: _State) -> _Found:
    """A classic column header at line i and the data records under it."""
    found = _read_header(norm, i)
    if found is None:
        return _unparsed(i, i + 1, f"netperf-like header not understood: {norm[i]!r}")
    layout, m, after = found
    hdr = _header_from_match(layout, m)
    if isinstance(hdr, str):
        return _unparsed(i, after, hdr)
    records, end, reason = _read_records(norm, after, layout)
    if reason:
        return _unparsed(i, end, reason)
    banner, cmd = st.fresh(i)
    runs = []
    for n, (rec, label) in enumerate(records):
        block = _Block(test=None, system=label)
        block.test = _test_for(layout.family, banner, cmd, block.notes)
        if hdr.unit_label:
            block.attributes["unit_label"] = hdr.unit_label
        for side, method in zip(("local", "remote"), hdr.methods, strict=False):
            if method:
                block.attributes[f"cpu_method_{side}"] = method
        _record_results(hdr, rec, block)
        start = min([i, *(x.line for x in (banner, cmd) if x is not None)]) if n == 0 else rec.line1
        runs.append(_new_run(seg, start, rec.end, block, banner, cmd))
    return runs, end


def _bare_header(cmd: _Command) -> tuple[_Header, str] | str:
    """What `-P 0` data lines hold, from the command line alone (or why that cannot be told)."""
    test = cmd.test or "TCP_STREAM"
    fam = _family(test)
    if fam is None:
        return f"cannot tell the columns of -P 0 output for test {test}"
    cpu = cmd.cpu_local or cmd.cpu_remote
    if fam == "rr":
        name = ("rr_cpu_tput" if cmd.fmt else "rr_cpu") if cpu else ("rr_band" if cmd.fmt else "rr")
        label = _FMT_LABELS[cmd.fmt] + "/s" if cmd.fmt else ""
        sd = "us/KB" if cmd.fmt else "us/Tr"
    else:
        name, label, sd = fam + ("_cpu" if cpu else ""), _FMT_LABELS[cmd.fmt or "m"] + "/s", "us/KB"
    order = ("local", "remote", "local", "remote") if cpu else ()
    hdr = _Header(
        _LAYOUT_BY_NAME[name],
        _rate_unit(label) if label else None,
        label,
        order,
        (),
        sd if cpu else None,
    )
    return hdr, test


def _parse_bare(seg: Segment, norm: list[str], cmd: _Command) -> _Found | None:
    """Header-less lines printed by `netperf -P 0 ...` right below that command."""
    k = _next_nonblank(norm, cmd.end, 1)
    if k is None or parse_number(norm[k].split()[0].split(",")[0]) is None:
        return None
    if cmd.omni_csv is not None:
        return _parse_bare_csv(seg, norm, cmd, k)
    if cmd.verbosity == 0:
        return _parse_bare_single(seg, norm, cmd, k)
    info = _bare_header(cmd)
    if isinstance(info, str):
        return _unparsed(k, k + 1, info)
    hdr, test = info
    runs: list[Run] = []
    j = k
    while j < len(norm) and _is_numeric(_tokens(norm[j])[: len(hdr.layout.line1)]):
        rec = _read_record(norm, j, hdr.layout, brand_ok=cmd.brand is not None)
        if rec is None:
            if not runs:
                return _unparsed(j, j + 1, f"-P 0 line does not fit {test} columns: {norm[j]!r}")
            break
        block = _Block(test=test, system=rec.brand)
        if hdr.unit_label:
            block.attributes["unit_label"] = hdr.unit_label
        _record_results(hdr, rec, block)
        runs.append(_new_run(seg, cmd.line if not runs else j, rec.end, block, None, cmd))
        j = rec.end
    return runs, j


def _parse_bare_csv(seg: Segment, norm: list[str], cmd: _Command, k: int) -> _Found:
    """`-P 0 -- -o A,B,C`: one CSV line whose columns the command names."""
    selectors = [s.upper() for s in cmd.omni_csv or []]
    if not selectors:
        return _unparsed(k, k + 1, "-P 0 -o without a selector list")
    cells = norm[k].split(",")
    block = _Block(test=cmd.test)
    if len(cells) == len(selectors) + 1:  # UDP tests' trailing `-1`, as in `_omni_after`
        block.notes.append(f"omni CSV: value {cells[-1].strip()!r} beyond the {len(selectors)} selectors")
        cells = cells[:-1]
    if len(cells) != len(selectors):
        return _unparsed(k, k + 1, f"{len(cells)} values for {len(selectors)} selectors")
    reason = _omni_results(dict(zip(selectors, cells, strict=True)), block, cmd, k)
    if reason:
        return _unparsed(k, k + 1, reason)
    return [_new_run(seg, cmd.line, k + 1, block, None, cmd)], k + 1


def _parse_bare_single(seg: Segment, norm: list[str], cmd: _Command, k: int) -> _Found:
    """`-P 0 -v 0`: one number; with -c/-C it is the service demand, not the throughput."""
    test = cmd.test or "TCP_STREAM"
    fam = _family(test)
    if fam is None:
        return _unparsed(k, k + 1, f"cannot tell what -v 0 prints for test {test}")
    resp = str(cmd.resp_size) if fam == "rr" and cmd.resp_size is not None else None
    params = _base_params(test, str(cmd.size) if cmd.size is not None else None, resp)
    block = _Block(test=test)
    token = norm[k].split()[0]
    if cmd.cpu_local or cmd.cpu_remote:
        side = "local" if cmd.cpu_local else "remote"
        metric, unit = _sd_metric("us/Tr" if fam == "rr" and not cmd.fmt else "us/KB", side)
        block.emitter(params, k)(metric, "service demand (-v 0)", token, unit)
    else:
        if fam == "udp":
            params["side"] = "send"
        unit = "trans/s" if fam == "rr" and not cmd.fmt else _rate_unit(_FMT_LABELS[cmd.fmt or "m"])
        metric = "transaction_rate" if unit == "trans/s" else "throughput"
        block.emitter(params, k)(metric, "result (-v 0)", token, unit or "")
    return [_new_run(seg, cmd.line, k + 1, block, None, cmd)], k + 1


def _after_banner(seg: Segment, norm: list[str], banner: _Banner, st: _State) -> _Found | None:
    """Omni output (`-k` key=value or `-o` CSV) printed right under a banner."""
    _, cmd = st.fresh(banner.line)
    test = cmd.test if banner.test == "OMNI" and cmd and cmd.test else banner.test
    block = _Block(test=test)
    got = _omni_after(norm, banner.end, block, cmd)
    if got is None:
        return None
    end, reason = got
    start = min(banner.line, cmd.line) if cmd else banner.line
    if reason:
        return _unparsed(start, end, reason)
    return [_new_run(seg, start, end, block, banner, cmd)], end


def _table_at(seg: Segment, norm: list[str], i: int) -> _Found | None:
    m = _TABLE_TITLE.match(norm[i])
    table = _parse_table(norm, i, m) if m else None
    if table is None:
        return None
    run, end = table
    if run.status == "ok":
        run.tool_version = _ASK_VERSION
    return [run], end


def parse(seg: Segment) -> list[Run]:
    """Every netperf block of one segment, in line order."""
    norm = [" ".join(line.split()) for line in seg.lines]
    st = _State()
    runs: list[Run] = []
    i = 0
    while i < len(norm):
        got: _Found | None = None
        if not norm[i]:
            i += 1
            continue
        if banner := _banner_at(norm, i):
            st.banner = banner
            got, i = _after_banner(seg, norm, banner, st), banner.end
        elif cmd := _command_at(norm, i):
            st.command, st.banner = cmd, None
            if not cmd.headers:
                got = _parse_bare(seg, norm, cmd)
            elif cmd.keyval is not None:
                got = _after_banner(
                    seg, norm, _Banner(cmd.test or "OMNI", cmd.text, i, cmd.end), st
                )
            i = cmd.end
        elif table := _table_at(seg, norm, i):
            got = table
        elif _HEADER_START.match(norm[i]):
            got = _parse_classic(seg, norm, i, st)
        else:
            i += 1
        if got is not None:
            runs.extend(got[0])
            st = _State()
            i = max(i, got[1])
    versions = _Versions(seg)
    for run in runs:
        if run.tool_version == _ASK_VERSION:
            run.tool_version = versions(run.line_start)
    return runs


# distinctive literals, one of which every block the parser reads contains (see Parser.keywords)
KEYWORDS = ("netperf", "TEST from", "TEST to", "migrated tcp", "migrated udp", "migrated sctp", "omni ",
            "/remote", "secs.", "10^")


PARSER = Parser(name=BENCH, version="1", signature=SIGNATURE, parse=parse, metrics=METRICS, keywords=KEYWORDS)

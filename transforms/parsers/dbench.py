"""dbench and tbench summaries: `Throughput ... MB/sec`, the op table, never the progress lines.

Rows (one `Run` per contiguous dbench paste; a new op table after a summary starts another):

* `throughput` (MB/s, dbench's own MB = 10^6 bytes, kept as printed) from every
  `Throughput X MB/sec` line, and `max_latency` (ms) from dbench/tbench 3.x-4.x
  `... N clients  N procs  max_latency=X ms`.
* dbench/tbench 1.x-2.x print `(NB=X MB/sec  Y MBit/sec)`: NetBench figures computed
  from the throughput (x1.25 and x10), kept as `netbench_throughput` (MB/s) and
  `netbench_mbit` (Mbit/s) with statistic `derived`, never as measurements.
* the 4.x operation table (`Operation Count AvgLat MaxLat`, rows split from the right
  so fused `Flush 18168703` names still read): `op_count` (count), `op_avg_latency`
  and `op_max_latency` (ms) with `params.op`. Rows of the classic loadfile ops
  (`WriteX 365460 4.474 2279.808`) are read without the header too; `**` markers are
  ignored.
* per-second progress lines (`128 18384 14924.44 MB/sec warmup 1 sec ...`) are not
  results and are never averaged. A `Throughput` line with a number left unexplained,
  or with `0 clients` (a run that never started), makes the run `unparsed`.

params: `clients` (4.x `N clients`; 1.x prints only `N procs`, one process per
client, so clients = procs there; else the `dbench 16:` prefix, the last
`dbench ... N` command line, or the shell's `dbench 16  11.72s user ...` time line
just below), `procs` (as printed), `client` (op tables of `--per-client-results`), `sync` (`open`, `dirs` or
`open,dirs` from `(sync open)`/`(sync dirs)`), `tool` = `tbench` when the command,
prefix or version line says tbench (tbench prints the same lines; the run attribute
`tool` is always set, `dbench` by default), `op`, `repeat` (same key seen more than
once in a segment, e.g. three listings of the same kernel).

Runs of tbench (the command, prefix or version line says so) carry benchmark `tbench`.
A label before a summary (`2.6.0-test5:   Throughput 224.949 MB/sec 192 procs`) is the
system of that line. Otherwise `system` is the caption just above a block when it reads like a label (`2.4.16:`,
`Before:`, `- default scheduler`, `linux-2.4.10-pre12`); prose, attributions and
generic headings are kept as `Run.caption` only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from transforms.model import MetricSpec, Parser, Result, Run, Segment
from transforms.parsers._common import caption_system, nearest_caption, number_repeated_results

NAME = "dbench"

METRICS: dict[str, MetricSpec] = {
    "throughput": MetricSpec("MB/s", True, 0.0, 1e6),
    "max_latency": MetricSpec("ms", False, 0.0, 1e7),
    "netbench_throughput": MetricSpec("MB/s", True, 0.0, 1e6),
    "netbench_mbit": MetricSpec("Mbit/s", True, 0.0, 1e7),
    "op_count": MetricSpec("count", True, 0.0, 1e13),
    "op_avg_latency": MetricSpec("ms", False, 0.0, 1e7),
    "op_max_latency": MetricSpec("ms", False, 0.0, 1e7),
}

_N = r"\d+(?:\.\d+)?"
_LABEL = r"[A-Za-z0-9][\w.+/~-]{0,39}"  # `2.6.0-test5:` before a Throughput line names its kernel
# The driver also scans the raw body, where quoted lines still carry their `> ` prefix.
_Q = r"^(?:[ \t]{0,2}[A-Za-z]{0,3}>)*"
_RUN = r"(?:run|pass|try)[^\S\n]*+#?[^\S\n]*+\d{1,3}+[:.)]?+[^\S\n]++"  # `Run #1 Throughput ...`: one of several runs retyped
THROUGHPUT = re.compile(
    rf"^\s*+(?:\*+\s*+)?#?\s*+(?i:(?P<run>{_RUN}))?(?:(?P<tool>[dt]bench)\s+(?P<n>\d+)\s*:\s*+|(?P<label>{_LABEL}):\s+)?Throughput\s+(?P<tp>{_N}(?:[eE][-+]?\d+)?)\s*MB/sec(?P<rest>.*)$"
)
NB = re.compile(rf"\(\s*NB\s*=\s*(?P<nb>{_N})\s*MB/sec\s+(?P<mbit>{_N})\s*MBit/sec\s*\)")
SYNC = re.compile(r"\(\s*sync\s+(?P<what>open|dirs)\s*\)")
CLIENTS = re.compile(r"\b(?P<n>\d+)\s+clients\b")
PROCS = re.compile(r"\b(?P<n>\d+)\s+procs?\b")
MAX_LAT = re.compile(rf"\bmax_latency\s*=\s*(?P<v>{_N})\s*ms\b")
OP_HEADER = re.compile(r"^\s*Operation\s+Count\s+AvgLat\s+MaxLat\s*$")
OP_RULE = re.compile(r"^\s*-{20,}\s*$")
OP_ROW = re.compile(rf"^\s*(?:\*+\s*)?(?P<op>[A-Za-z_]+)\s*(?P<count>\d+)\s+(?P<avg>{_N})\s+(?P<max>{_N})\s*$")
KNOWN_OPS = frozenset(
    ("NTCreateX", "Close", "Rename", "Unlink", "Deltree", "Mkdir", "Qpathinfo", "Qfileinfo")
    + ("Qfsinfo", "Sfileinfo", "Find", "WriteX", "ReadX", "LockX", "UnlockX", "Flush")
)
PROGRESS = re.compile(rf"^\s*\d+\s+(?:\d+\s+{_N}\s*MB/sec\s+(?:warmup|execute|cleanup)|cleanup\s+\d+\s+sec)")
# tbench_srv, sharing the terminal, prints one `^` per accepted connection: a run of them may
# precede the client's launch line (`^^^...^127 of 128 processes prepared for launch`)
CHATTER = re.compile(
    r"^\s*+(?:\^++\s*+$|\^*+(?:Running for \d+ seconds|\d+ of \d+ processes prepared|releasing clients"
    r"|Releasing clients|Waiting for child processes|Per client results:|\+ |dbench version|tbench version"
    r"|\d+ of \d+\s*+$|processes prepared for launch|minimum warmup \d+ secs?\s*+$))"
    # (a line of marks alone and the last three: the banner and the marks, wrapped by a mailer)
)
PER_CLIENT = re.compile(r"^\s*Client (?P<n>\d+) did \d+ lines and \d+ bytes")  # --per-client-results
# `time` output: `1.2s user ... system ... cpu ... total`, one search per word in order (a single
# pattern with `.*` between the words rescans the line from every candidate start)
_TIME_WORDS = tuple(
    re.compile(p) for p in (r"\d(?:\.\d+)?s\s+user\s", r"\bsystem\b", r"\bcpu\b", r"\btotal\b")
)


def _time_line(line: str) -> bool:
    pos = 0
    for word in _TIME_WORDS:
        m = word.search(line, pos)
        if m is None:
            return False
        pos = m.end()
    return True

VERSION = re.compile(r"\b(?P<tool>[dt]bench) version (?P<v>\d[\w.-]*)")
COMMAND = re.compile(r"(?:^|[\s/$#>])(?P<tool>[dt]bench)\s++(?P<args>\S.*)(?m:$)")  # on one line
# dbench options that take no value; every other option is followed by its value.
_FLAG_OPTS = frozenset(
    ("-s", "-S", "-F", "-x", "--sync", "--sync-dir", "--fsync", "--xattr", "--no-resolve", "--run-once")
    + ("--one-byte-write-fix", "--stat-check", "--fake-io", "--skip-cleanup", "--per-client-results")
    + ("--enable-nlm", "--allow-scsi-writes", "--machine-readable")
)

SIGNATURE = re.compile(
    rf"{_Q}[^\S\n]*+(?:\*+[^\S\n]*+)?#?[^\S\n]*+(?i:{_RUN})?(?:[dt]bench\s+\d+\s*:\s*+|{_LABEL}:\s+)?Throughput\s+{_N}\s*MB/sec"
    rf"|{_Q}[^\S\n]*+Operation\s+Count\s+AvgLat\s+MaxLat",
    re.M,
)


# --- parsing ------------------------------------------------------------------------------------


def _join_wrapped(lines: list[str]) -> list[tuple[int, str, int]]:
    """Rejoin `... MBit/sec)  32` + `procs`, and `... 32 procs` + `max_latency=713.045 ms`, that a mail
    client wrapped onto the next line: (first line, text, last line)."""
    out: list[tuple[int, str, int]] = []
    for i, line in enumerate(lines):
        tail = line.strip()
        if out and THROUGHPUT.match(out[-1][1]) and (
                tail in ("procs", "proc") and out[-1][1].rstrip()[-1:].isdigit()
                or MAX_LAT.fullmatch(tail) and not MAX_LAT.search(out[-1][1])):
            j, prev, _ = out[-1]
            out[-1] = (j, f"{prev} {tail}", i)
            continue
        out.append((i, line, i))
    return out


def _command_clients(args: str) -> str | None:
    """The client count of `dbench [-t 60 -D dir -s] 32`: the first positional argument."""
    skip = False
    for tok in args.split():
        if skip:
            skip = False
        elif tok.startswith("-"):
            skip = tok not in _FLAG_OPTS and "=" not in tok
        else:
            return tok if tok.isdigit() else None
    return None


@dataclass
class _Block:
    start: int
    end: int = 0
    results: list[Result] = field(default_factory=list)
    ops: list[Result] = field(default_factory=list)  # op rows waiting for their summary line
    has_summary: bool = False
    in_table: bool = False
    tool: str | None = None
    version: str | None = None
    clients: str | None = None  # from a command line
    bad: str | None = None
    last_summary: list[Result] = field(default_factory=list)  # results of the last Throughput line
    client: str | None = None  # the op table below belongs to this client (--per-client-results)


_REMARK = re.compile(r"\s(?:--?|#|<-+|<=+)\s")
_WORDY = re.compile(r"[A-Za-z]{3}")


def _without_remark(rest: str) -> str:
    """`... MBit/sec) - .5sec hiccup in xmms`: a poster's remark after a summary holds none of its numbers."""
    m = _REMARK.search(rest)
    if m is not None and _WORDY.search(rest, m.end()) is not None:
        return rest[: m.start()]
    return rest


_GAP = re.compile(r"\s{2,}")
_TAIL_LABEL = re.compile(r"[A-Za-z][\w.+/-]*(?: [\w.+/()-]+){0,5}|\d\.\d{1,2}(?:\.\d{1,3})?(?:-[A-Za-z][\w.+-]{0,20})?")  # `2.4.8-pre8`


def _tail_label(rest: str) -> tuple[str, str | None]:
    """`Throughput 221.812 MB/sec 16 procs    ext2`: a label after a wide gap names the system."""
    pieces = _GAP.split(rest.rstrip())
    if len(pieces) < 2 or not _TAIL_LABEL.fullmatch(pieces[-1]) or pieces[-1].split()[0] in ("procs", "clients"):
        return rest, None
    cut = rest.rstrip().rfind(pieces[-1])
    return rest[:cut], pieces[-1]


def _summary_params(block: _Block, m: re.Match[str]) -> tuple[dict[str, str], str, str | None]:
    """Params of one `Throughput` line, what is left once every known piece is removed, and the
    label written after it."""
    rest, label = _tail_label(_without_remark(m["rest"]))
    params: dict[str, str] = {}
    clients, procs = CLIENTS.search(rest), PROCS.search(rest)
    if clients:
        params["clients"] = clients["n"]
    elif m["n"]:
        params["clients"] = m["n"]
    elif procs and not MAX_LAT.search(rest):
        params["clients"] = procs["n"]  # 1.x: one process per client
    elif block.clients:
        params["clients"] = block.clients
    if procs:
        params["procs"] = procs["n"]
    if m["run"]:
        params["run"] = re.sub(r"\D", "", m["run"])
    syncs = [s["what"] for s in SYNC.finditer(rest)]
    if syncs:
        params["sync"] = ",".join(syncs)
    if (m["tool"] or block.tool) == "tbench":
        params["tool"] = "tbench"
    left = rest
    for pattern in (NB, SYNC, CLIENTS, PROCS, MAX_LAT):
        left = pattern.sub(" ", left)
    return params, left, label


def _summary(block: _Block, i: int, m: re.Match[str]) -> None:
    params, left, label = _summary_params(block, m)
    system = m["label"] or label
    if re.search(r"\d", left):
        block.bad = block.bad or f"unreadable Throughput line {i}: {left.strip()!r}"
        return
    if "0" in (params.get("clients"), params.get("procs")):
        block.bad = block.bad or f"line {i}: dbench ran no clients (`0 clients`), not a measurement"
        return
    if m["tool"]:
        block.tool = m["tool"]
    out = [Result("throughput", "Throughput", float(m["tp"]), "MB/s", dict(params), system=system, line=i)]
    lat = MAX_LAT.search(m["rest"])
    if lat:
        out.append(Result("max_latency", "max_latency", float(lat["v"]), "ms", dict(params), system=system,
                          line=i))
    nb = NB.search(m["rest"])
    if nb:
        out.append(Result("netbench_throughput", "Throughput NB", float(nb["nb"]), "MB/s", dict(params), system=system,
                          statistic="derived", line=i))
        out.append(Result("netbench_mbit", "Throughput NB MBit/sec", float(nb["mbit"]), "Mbit/s", dict(params), system=system,
                          statistic="derived", line=i))
    for op in block.ops:
        op.params = {**params, **op.params}
    block.results.extend(block.ops + out)
    block.last_summary = out + block.ops
    block.ops = []
    block.has_summary = True


def _clients_from_time(block: _Block, line: str) -> None:
    """`dbench 16  11.72s user ...` (the shell's `time`) names the client count of the line above."""
    m = COMMAND.search(line)
    clients = _command_clients(m["args"]) if m else None
    if clients is None or not block.last_summary:
        return
    for r in block.last_summary:
        r.params.setdefault("clients", clients)
    block.last_summary = []


def _op_row(block: _Block, i: int, m: re.Match[str]) -> None:
    params = {"op": m["op"]} if block.client is None else {"op": m["op"], "client": block.client}
    block.ops.append(Result("op_count", "Count", float(m["count"]), "count", dict(params), line=i))
    block.ops.append(Result("op_avg_latency", "AvgLat", float(m["avg"]), "ms", dict(params), line=i))
    block.ops.append(Result("op_max_latency", "MaxLat", float(m["max"]), "ms", dict(params), line=i))


def _blocks(lines: list[str]) -> list[_Block]:
    """Group the segment's dbench lines into runs; prose or foreign output ends a run."""
    blocks: list[_Block] = []
    cur: _Block | None = None

    def close() -> None:
        nonlocal cur
        if cur is not None:
            blocks.append(cur)
        cur = None

    def ensure(i: int, fresh: bool = False) -> _Block:
        nonlocal cur
        if cur is not None and fresh and cur.has_summary:
            close()
        if cur is None:
            cur = _Block(start=i)
        cur.end = i + 1
        return cur

    for i, line, last in _join_wrapped(lines):
        text = line.strip()
        if not text or set(text) <= {".", " "}:
            if cur is not None and not text:
                cur.in_table = False
            continue
        if (m := THROUGHPUT.match(line)) is not None:
            block = ensure(i)
            _summary(block, i, m)
            block.end = last + 1
        elif OP_HEADER.match(line):
            ensure(i, fresh=True).in_table = True
        elif OP_RULE.match(line) and cur is not None and cur.in_table:
            cur.end = i + 1
        elif (m := OP_ROW.match(line)) is not None and ((cur is not None and cur.in_table) or m["op"] in KNOWN_OPS):
            _op_row(ensure(i), i, m)
        elif (m := PER_CLIENT.match(line)) is not None and cur is not None:
            cur.client, cur.end = m["n"], i + 1
        elif (m := VERSION.search(line)) is not None:
            block = ensure(i, fresh=True)
            # tbench 4.x prints dbench's banner: the tbench command above it says what ran
            block.version = m["v"]
            block.tool = block.tool if block.tool == "tbench" else m["tool"]
        elif PROGRESS.match(line) or CHATTER.match(line) or _time_line(line):
            if cur is not None:
                cur.end = i + 1
                if _time_line(line):
                    _clients_from_time(cur, line)
        elif (m := COMMAND.search(line)) is not None and _command_clients(m["args"]):
            block = ensure(i, fresh=True)
            block.clients, block.tool = _command_clients(m["args"]), m["tool"]
        else:
            close()
    close()
    return blocks


_TBENCH_WORD = re.compile(r"(?i)(?<![\w-])tbench(?![\w-])")
_DBENCH_WORD = re.compile(r"(?i)(?<![\w-])dbench(?![\w-])")


def _named_tbench(seg: Segment, start: int) -> bool:
    """The lines just above a summary name tbench and not dbench (`tbench 192` over the results)."""
    above = [x for x in (*(seg.before if start < 6 else ()), *seg.lines[max(0, start - 6):start]) if x.strip()][-3:]
    text = "\n".join(above)
    return bool(_TBENCH_WORD.search(text)) and not _DBENCH_WORD.search(text)


def retell_as_tbench(runs: list[Run], body: str, subject: str | None) -> None:
    """dbench's lines in a post that names tbench and never dbench (subject included): tbench
    prints the same lines, so that is what ran, however far from them the post names it."""
    mine = [run for run in runs if run.benchmark == NAME]
    if not mine:
        return  # most posts: no search of the body at all
    text = f"{subject or ''}\n{body}"
    if not _TBENCH_WORD.search(text) or _DBENCH_WORD.search(text):
        return
    for run in mine:
        run.benchmark = "tbench"
        run.attributes["tool"] = "tbench"
        for r in run.results:
            r.params["tool"] = "tbench"


def _own_line_aside(system: str | None) -> str | None:
    """An op table's ruled header (`Operation  Count  AvgLat  MaxLat` over `-----`) reads like an
    underlined heading; it is the output of the run above, never what names the next one."""
    return None if system is not None and OP_HEADER.match(system) else system


def _run_for(seg: Segment, block: _Block) -> Run:
    caption = nearest_caption(seg, block.start)
    if block.tool is None and _named_tbench(seg, block.start):
        block.tool = "tbench"  # tbench prints dbench's lines; the caption says which ran
    run = Run(
        benchmark="tbench" if block.tool == "tbench" else NAME,  # tbench is a benchmark of its own
        results=block.results + block.ops,
        tool_version=block.version,
        system=_own_line_aside(caption_system(seg, block.start)),
        caption=caption,
        line_start=block.start,
        line_end=max(block.end, block.start + 1),
        attributes={"tool": block.tool or "dbench"},
    )
    if block.ops:
        run.notes.append("operation table without a Throughput line after it")
    if block.bad:
        run.status, run.reason, run.results = "unparsed", block.bad, []
    return run


_NEXT_GAP = 2  # lines (a caption) between two printouts of one series


def parse(seg: Segment) -> list[Run]:
    """Every dbench/tbench summary (and op table) in the segment."""
    runs: list[Run] = []
    for b in _blocks(seg.lines):
        if not (b.results or b.ops or b.bad):
            continue
        prev = runs[-1] if runs else None
        if b.tool is None and prev is not None and prev.benchmark == "tbench" and b.start - prev.line_end <= _NEXT_GAP:
            b.tool = "tbench"  # the next printout of a tbench series, under its own caption (`6.3.0+eevdf`)
        runs.append(_run_for(seg, b))
    number_repeated_results(runs)
    return runs


# necessary literals of the signature (see Parser.keywords)
KEYWORDS = (
    "mb/sec",
    "avglat",
)

PARSER = Parser(name=NAME, version="1", signature=SIGNATURE, parse=parse, metrics=METRICS, emits=("tbench",),
                keywords=KEYWORDS)

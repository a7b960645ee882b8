"""iperf 2 and iperf 3 text reports: the final summary rows, and the interval rows beside them.

What becomes a row (one `Run` per iperf invocation, "test"):

* the summary row of every stream and of `[SUM]`: in iperf 3 the rows tagged
  `sender` / `receiver` (plus untagged rows after the last `- - -` separator,
  as iperf 3.0/3.1 prints for UDP); in iperf 2 the row whose interval starts at
  0 and is not followed by an interval row of the same stream (with `-i 1` the
  `0.0- 1.0` row is followed by `1.0- 2.0`, so only the final `0.0-10.0` row
  is kept). The other rows of a test with a summary (`-i`) are its interval series:
  `throughput` rows with statistic `interval` and params `interval_start` /
  `interval_end` (seconds, as printed; iperf3 `--omit` warm-up rows skipped). A paste of interval rows
  only (its summary cut off) gives that series alone, never averaged into a summary.
* metric `throughput` in `Mbit/s` whatever the printed scale: bits are
  decimal (`Gbits` x1000, `Kbits` /1000), byte rates from `-f K/M/G` are
  binary (iperf's 1024), converted exactly with `Decimal`.
* UDP only: `jitter` (ms) and `datagram_loss` (%, as printed by iperf with
  `%.2g`), on receiver-side rows (iperf 3 `receiver`, iperf 2 `Server
  Report:`, iperf 3.0/3.1 untagged summary). The sender row's `0.000 ms
  0/N (0%)` is not a measurement and is not emitted.
* UDP receiver rows also give `datagrams_lost` and `datagrams_total` (counts, the
  `lost/total` before the percentage), and iperf 2's `N datagrams received out-of-order`
  line `datagrams_out_of_order`.
* iperf 2 `-e` (enhanced reports) columns of the summary row, as the header names them:
  `writes` and `write_errors` (`Write/Err`), `retransmits` (`Rtry`), `rtt` (us) and `cwnd`
  (KByte, when known: iperf prints `-1K` when it is not) from `Cwnd/RTT`, `netpwr`
  (`NetPwr`), `packet_rate` (`PPS`); iperf 3's `Retr` of a `sender` row is `retransmits` (also with no header pasted:
  a count alone before `sender`).
* transfer sizes (`1.10 GBytes`) are not emitted.

params: `protocol` (`tcp`|`udp`; udp when jitter/datagram text is printed or the
caption above says UDP (not TCP), else tcp, iperf's default), `stream` (`3`, `SUM`), `streams` (number of distinct
numbered streams in the summary), `side` (`sender`|`receiver`, only when
printed or implied by `Server Report:`), `role` (iperf 3 `--bidir`), `repeat`
(1..N when the same stream/side/protocol summary appears more than once in one
segment, e.g. an `iperf -s` paste with one row per accepted connection).
Not read: `-y C` CSV and `-J` JSON reports.

`system` is the caption just above a block when it reads like a label (`2.4.16:`,
`Before:`, `- default scheduler`, `linux-2.4.10-pre12`); prose, attributions and
generic headings are kept as `Run.caption` only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from transforms.model import MetricSpec, Parser, Result, Run, Segment
from transforms.parsers._common import (
    caption_system,
    nearest_caption,
    number_repeated_results,
    scaled,
)

NAME = "iperf"

METRICS: dict[str, MetricSpec] = {
    # the printouts are read in Mbit/s; a poster's own table keeps the unit it printed
    "throughput": MetricSpec("Mbit/s", True, 0.0, 1e7,
                             units=("bit/s", "Kbit/s", "Gbit/s", "B/s", "KB/s", "MB/s", "GB/s", "MiB/s", "GiB/s")),
    "jitter": MetricSpec("ms", False, 0.0, 1e5),
    "datagram_loss": MetricSpec("%", False, 0.0, 100.0),
    "writes": MetricSpec("count", True, 0.0, 1e15),
    "write_errors": MetricSpec("count", False, 0.0, 1e15),
    "rtt": MetricSpec("us", False, 0.0, 1e9),
    "cwnd": MetricSpec("KB", True, 0.0, 1e9),
    "netpwr": MetricSpec("", True, 0.0, 1e12),  # iperf 2's network power: throughput / RTT
    "packet_rate": MetricSpec("/sec", True, 0.0, 1e10),
    "datagrams_out_of_order": MetricSpec("count", False, 0.0, 1e13),
}

_NUM = r"\d+(?:\.\d+)?"
_ID = r"\[\s*(?P<id>\d+|SUM)\s*\](?:\[(?P<role>[A-Za-z-]+)\])?"
LOOSE_ROW = re.compile(rf"^[^\S\n]*+\[\s*(?:\d+|SUM)\s*\](?:\[[A-Za-z-]+\])?\s*{_NUM}\s*-\s*{_NUM}\s*sec\b")
ROW = re.compile(
    rf"^\s*{_ID}\s*(?P<start>{_NUM})\s*-\s*(?P<end>{_NUM})\s*sec\s+"
    rf"(?P<xfer>{_NUM})\s*(?P<xunit>[KMGT]?Bytes|[KMGT]?bits)\s+"
    rf"(?P<bw>{_NUM})\s*(?P<bunit>[KMGT]?bits/sec|[KMGT]?Bytes/sec)(?P<rest>.*)$"
)
UDP_TAIL = re.compile(
    # never from inside a number (a search would rescan its digits from each one); the percentage
    # is words joined by blanks, so that blanks before `%` are never tried as part of it
    rf"(?<!\d)(?P<jitter>{_NUM})\s*+ms\s++(?P<lost>-?\d+)\s*+/\s*+(?P<total>\d+)\s*+\(\s*+"
    r"(?P<pct>[^()%\s]*+(?:\s++[^()%\s]++)*+)\s*+%\s*+\)"
)
SIDE_TAG = re.compile(r"\b(sender|receiver)\s*$")
# iperf 2 `-e` columns after the bandwidth (the header says which are printed)
WRITE_ERR = re.compile(r"^\s*+(?P<w>\d{1,15})/(?P<e>\d{1,15})(?:\s++(?P<rest>.*))?$")
LEADING_INT = re.compile(r"^\s*+(?P<n>\d{1,15})\b")
# iperf 3's TCP sender summary pasted without its header: `96.1 Gbits/sec  9417  sender`, a count alone
# between the bitrate and the tag is `Retr` (iperf 3 prints nothing else there)
BARE_RETR = re.compile(r"^\s*+(?P<n>\d{1,15})\s++sender\b")
CWND_RTT = re.compile(r"(?<![\w.])(?P<cwnd>-?\d{1,12})K/(?P<rtt>\d{1,12}(?:\.\d{1,6})?)\s*+us\b(?:\s++(?P<pwr>\d{1,15}(?:\.\d{1,6})?)\b)?")
OMITTED = re.compile(r"\(omitted\)")  # iperf3 `--omit` warm-up intervals: not part of the run
PPS = re.compile(r"(?<![\w.])(?P<pps>\d{1,15})\s*+pps\b")
# The driver also scans the raw body, where quoted lines still carry their `> ` prefix.
_QUOTE = r"(?:[ \t]{0,2}[A-Za-z]{0,3}>)*"
SIGNATURE = re.compile(rf"^{_QUOTE}{LOOSE_ROW.pattern[1:]}", re.M)

HEADER = re.compile(r"^\s*\[\s*ID\s*\](?:\[Role\])?\s+Interval\b(?P<rest>.*)$")
SEPARATOR = re.compile(r"^\s*(?:-\s){5,}-?\s*$")
DONE = re.compile(r"^\s*iperf Done\.")
CONNECTED = re.compile(r"^\s*\[\s*\d+\]\s+local\s+\S+\s+port\s+\d+\s+connected\s+(?:with|to)\b")
START = re.compile(r"^\s*(?:Client connecting to|Server listening on|Connecting to host|Accepted connection from)\b")
COMMAND = re.compile(r"(?:^|[\s$#>:])iperf3?(?:\.exe)?\s+-")
SERVER_REPORT = re.compile(r"^\s*\[\s*(?P<id>\d+|SUM)\s*\]\s*Server Report:")
SERVER_OUTPUT = re.compile(r"^\s*Server output:")
OUT_OF_ORDER = re.compile(r"datagrams received out-of-order")
OUT_OF_ORDER_ROW = re.compile(
    rf"^\s*+\[\s*+(?P<id>\d+|SUM)\s*+\]\s*+{_NUM}\s*+-\s*+{_NUM}\s*+sec\s++(?P<n>\d{{1,15}})\s++datagrams received out-of-order"
)
UDP_HINT = re.compile(r"UDP buffer size|UDP port|byte datagrams|Total Datagrams|Jitter|Sent \d+ datagrams|\s-u\b|--udp\b")
IPERF3_HINT = re.compile(r"Connecting to host|iperf Done\.|\biperf3\b")
IPERF2_HINT = re.compile(r"Client connecting to|Server listening on|Server Report:|\biperf\s+-")
VERSION = re.compile(r"\biperf\s+(?:version\s+)?(?P<v>[23]\.\d+(?:\.\d+)*[\w.+-]*)")
# Mail clients wrap long UDP summary rows before `lost/total (pct%)` or the side tag.
CONTINUATION = re.compile(r"^\s*(?:-?\d+\s*/\s*\d+\s*\(.*%\s*\)|sender|receiver)(?:\s+(?:sender|receiver))?\s*$")

# Scale of each printed unit to Mbit/s: bits are decimal, iperf's byte units are binary.
_TO_MBIT: dict[str, Decimal] = {
    "bits/sec": Decimal("0.000001"),
    "Kbits/sec": Decimal("0.001"),
    "Mbits/sec": Decimal(1),
    "Gbits/sec": Decimal(1000),
    "Tbits/sec": Decimal(1000000),
    "Bytes/sec": Decimal(8) / Decimal(1000000),
    "KBytes/sec": Decimal(8 * 1024) / Decimal(1000000),
    "MBytes/sec": Decimal(8 * 1024**2) / Decimal(1000000),
    "GBytes/sec": Decimal(8 * 1024**3) / Decimal(1000000),
    "TBytes/sec": Decimal(8 * 1024**4) / Decimal(1000000),
}


@dataclass
class _Row:
    line: int
    stream: str
    role: str | None
    start: float
    end: float
    span: tuple[str, str]  # the interval as printed
    bw: float
    bw_unit: str
    tag: str | None
    after_sep: bool
    server_report: bool
    jitter: float | None = None
    loss: float | None = None
    lost: float | None = None
    total: float | None = None
    rest: str = ""


@dataclass
class _Test:
    start: int
    end: int = 0
    last: int = -1  # the last line of the printout itself (prose after it is not the test's)
    rows: list[_Row] = field(default_factory=list)
    bad: list[int] = field(default_factory=list)
    title: str | None = None
    after_sep: bool = False
    pending_report: set[str] = field(default_factory=set)
    skipping: bool = False
    text: list[str] = field(default_factory=list)
    columns: str = ""  # the header's column names after `Interval`
    out_of_order: dict[str, float] = field(default_factory=dict)  # stream -> datagrams (iperf 2 UDP)


# --- parsing ------------------------------------------------------------------------------------


def _join_wrapped(lines: list[str]) -> list[tuple[int, str]]:
    """Rejoin summary rows that a mail client wrapped before `lost/total (pct%)` or `sender`."""
    out: list[tuple[int, str]] = []
    for i, line in enumerate(lines):
        if out and CONTINUATION.match(line) and LOOSE_ROW.match(out[-1][1]):
            j, prev = out[-1]
            out[-1] = (j, f"{prev}  {line.strip()}")
            continue
        out.append((i, line))
    return out


def _read_row(i: int, line: str, test: _Test) -> _Row | None:
    m = ROW.match(line)
    if not m:
        return None
    bw = scaled(m["bw"], _TO_MBIT[m["bunit"]])
    if bw is None:
        return None
    rest = m["rest"]
    tag_m = SIDE_TAG.search(rest)
    stream = m["id"]
    row = _Row(
        line=i,
        stream=stream,
        role=m["role"],
        start=float(m["start"]),
        end=float(m["end"]),
        span=(m["start"], m["end"]),
        bw=bw,
        bw_unit=m["bunit"],
        tag=tag_m.group(1) if tag_m else None,
        after_sep=test.after_sep,
        server_report=stream in test.pending_report,
    )
    test.pending_report.discard(stream)
    udp = UDP_TAIL.search(rest)
    if udp:
        row.jitter = scaled(udp["jitter"], Decimal(1))
        row.loss = scaled(udp["pct"], Decimal(1))
        if not udp["lost"].startswith("-"):
            row.lost = float(udp["lost"])
        row.total = float(udp["total"])
    row.rest = rest
    return row


def _has_summary(test: _Test) -> bool:
    return any(r.tag or r.after_sep for r in test.rows)


class _Splitter:
    """Cuts a segment into iperf invocations ("tests") at their start lines, at headers that
    follow finished output, and at `iperf Done.`."""

    def __init__(self) -> None:
        self.tests: list[_Test] = []
        self.cur: _Test | None = None
        self.last_kind = ""

    def close(self, end: int) -> None:
        if self.cur is not None:
            if self.cur.last >= self.cur.start:
                end = min(end, self.cur.last + 1)
            self.cur.end = max(end, self.cur.start + 1)
            self.tests.append(self.cur)
        self.cur = None

    def _test(self, i: int, new_if_rows: bool = False) -> _Test:
        if new_if_rows and self.cur is not None and self.cur.rows:
            self.close(i)
        if self.cur is None:
            self.cur = _Test(start=i)
        return self.cur

    def feed(self, i: int, line: str) -> None:
        kind = ""
        if DONE.match(line):
            if self.cur is not None:
                self.cur.text.append(line)
            self.close(i + 1)
            kind = "done"
        elif START.match(line) or (COMMAND.search(line) and not LOOSE_ROW.match(line)):
            self._test(i, new_if_rows=True).text.append(line)
            kind = "start"
        elif CONNECTED.match(line):
            self._test(i, new_if_rows=True)
            kind = "start"
        elif HEADER.match(line):
            # a header right after `- - -` opens the iperf 3 summary; any other header after
            # rows starts the next paste
            finished = self.cur is not None and any(r.tag for r in self.cur.rows)
            test = self._test(i, new_if_rows=self.last_kind != "sep" or finished)
            title = re.search(r"\b(Bandwidth|Bitrate)\b", line)
            test.title = title.group(1) if title else test.title
            test.columns = HEADER.match(line)["rest"] or test.columns
            test.text.append(line)
            kind = "header"
        elif SEPARATOR.match(line):
            if self.cur is not None:
                self.cur.after_sep = True
            kind = "sep"
        elif self.cur is not None and SERVER_OUTPUT.match(line):
            self.cur.skipping = True  # `--get-server-output` repeats the summary: skipped
        elif (m := SERVER_REPORT.match(line)) and self.cur is not None:
            self.cur.pending_report.add(m["id"])
            self.cur.text.append(line)
        elif (m := OUT_OF_ORDER_ROW.match(line)) is not None and self.cur is not None:
            self.cur.out_of_order[m["id"]] = float(m["n"])
            self.cur.text.append(line)
        elif LOOSE_ROW.match(line) and not OUT_OF_ORDER.search(line):
            self._row(i, line)
            kind = "row"
        elif self.cur is not None:
            self.cur.text.append(line)
        if kind in ("start", "header", "row") and self.cur is not None:
            self.cur.last = i
        self.last_kind = kind or self.last_kind

    def _row(self, i: int, line: str) -> None:
        cur = self.cur
        if cur is not None and cur.skipping:
            return
        tagged = SIDE_TAG.search(line) is not None
        finished = cur is not None and _has_summary(cur) and (not cur.after_sep or any(r.tag for r in cur.rows))
        if finished and not tagged:
            self.close(i)  # an untagged row after a finished summary: the next paste, without a header
        test = self._test(i)
        row = _read_row(i, line, test)
        if row is None:
            test.bad.append(i)
        else:
            test.rows.append(row)
        test.text.append(line)


def _split_tests(lines: list[str]) -> list[_Test]:
    splitter = _Splitter()
    for i, line in _join_wrapped(lines):
        if line.strip():
            splitter.feed(i, line)
    splitter.close(len(lines))
    return splitter.tests


def _summaries(test: _Test) -> list[_Row]:
    """Summary rows: tagged / after the separator (iperf 3), else the last 0-based row per stream."""
    rows = test.rows
    if any(r.tag or r.after_sep for r in rows):
        return [r for r in rows if r.tag or (r.after_sep and r.start == 0)]
    out: list[_Row] = []
    for k, r in enumerate(rows):
        if r.start != 0:
            continue
        nxt = next((x for x in rows[k + 1 :] if (x.stream, x.role) == (r.stream, r.role)), None)
        if nxt is None or nxt.start == 0:
            out.append(r)
    return out


def _sides(test: _Test, rows: list[_Row]) -> dict[int, str]:
    """Printed tags, and iperf 2's `Server Report:` (receiver) with its client row (sender)."""
    sides: dict[int, str] = {}
    reported = {r.stream for r in rows if r.server_report}
    for r in rows:
        if r.tag:
            sides[r.line] = r.tag
        elif r.server_report:
            sides[r.line] = "receiver"
        elif r.stream in reported:
            sides[r.line] = "sender"
    return sides


def _drop_idle_senders(rows: list[_Row], sides: dict[int, str], notes: list[str]) -> list[_Row]:
    """An iperf 3 server prints `0.00 bits/sec sender` beside the real receiver row: not a result."""
    live = {(r.stream, r.role) for r in rows if sides.get(r.line) == "receiver" and r.bw > 0}
    kept = []
    for r in rows:
        if sides.get(r.line) == "sender" and r.bw == 0 and (r.stream, r.role) in live:
            notes.append(f"line {r.line}: idle sender row (0 bits/sec) beside a receiver row skipped")
            continue
        kept.append(r)
    return kept


def _results(test: _Test, rows: list[_Row], sides: dict[int, str], caption: str | None) -> list[Result]:
    text = "\n".join(test.text)
    labelled_udp = bool(caption and re.search(r"\bUDP\b", caption) and not re.search(r"\bTCP\b", caption))
    udp = labelled_udp or bool(UDP_HINT.search(text)) or any(r.jitter is not None for r in test.rows)
    streams = len({r.stream for r in rows if r.stream != "SUM"}) or 1
    out: list[Result] = []
    for r in rows:
        params = {"protocol": "udp" if udp else "tcp", "stream": r.stream, "streams": str(streams)}
        if r.line in sides:
            params["side"] = sides[r.line]
        if r.role:
            params["role"] = r.role
        label = test.title or r.bw_unit
        out.append(Result("throughput", label, r.bw, "Mbit/s", dict(params), line=r.line))
        if r.jitter is not None and params.get("side") != "sender":
            out.append(Result("jitter", "Jitter", r.jitter, "ms", dict(params), line=r.line))
            if r.loss is not None:
                out.append(Result("datagram_loss", "Lost/Total Datagrams", r.loss, "%", dict(params), line=r.line))
            if r.lost is not None:
                out.append(Result("datagrams_lost", "Lost/Total Datagrams", r.lost, "count", dict(params),
                                  line=r.line))
            if r.total is not None:
                out.append(Result("datagrams_total", "Lost/Total Datagrams", r.total, "count", dict(params),
                                  line=r.line))
            if r.stream in test.out_of_order:
                out.append(Result("datagrams_out_of_order", "datagrams received out-of-order",
                                  test.out_of_order[r.stream], "count", dict(params), line=r.line))
        out.extend(_enhanced(test.columns, r, params))
    return out


def _enhanced(columns: str, r: _Row, params: dict[str, str]) -> list[Result]:
    """The columns iperf 2 `-e` prints after the bandwidth, and iperf 3's `Retr` of a sender row."""
    out: list[Result] = []

    def add(metric: str, label: str, value: float, unit: str) -> None:
        out.append(Result(metric, label, value, unit, dict(params), line=r.line))

    rest = r.rest
    if "Write/Err" in columns and (m := WRITE_ERR.match(rest)) is not None:
        add("writes", "Write/Err", float(m["w"]), "count")
        add("write_errors", "Write/Err", float(m["e"]), "count")
        rest = m["rest"] or ""
        if "Rtry" in columns and (n := LEADING_INT.match(rest)) is not None:
            add("retransmits", "Rtry", float(n["n"]), "count")
    elif r.tag == "sender" and (n := (LEADING_INT.match(rest) if "Retr" in columns else
                                      BARE_RETR.match(rest) if not columns and r.jitter is None else None)):
        add("retransmits", "Retr", float(n["n"]), "count")
    if "Cwnd/RTT" in columns and (m := CWND_RTT.search(rest)) is not None:
        if not m["cwnd"].startswith("-"):  # `-1K`: the window was not known
            add("cwnd", "Cwnd", float(m["cwnd"]), "KB")
        add("rtt", "RTT", float(m["rtt"]), "us")
        if "NetPwr" in columns and m["pwr"] is not None:
            add("netpwr", "NetPwr", float(m["pwr"]), "")
    if "PPS" in columns and (m := PPS.search(rest)) is not None:
        add("packet_rate", "PPS", float(m["pps"]), "/sec")
    return out


def _intervals(test: _Test, summaries: list[_Row], caption: str | None) -> list[Result]:
    """The rows of a test that are not its summary: its time series (`-i`), throughput only."""
    kept = {id(r) for r in summaries}
    rows = [r for r in test.rows if id(r) not in kept and not OMITTED.search(r.rest)]
    out = []
    for res in _results(test, rows, {}, caption):
        if res.metric != "throughput":
            continue
        r = next(x for x in rows if x.line == res.line)
        res.statistic = "interval"
        res.params["interval_start"], res.params["interval_end"] = r.span
        out.append(res)
    return out


def _variant(test: _Test) -> str | None:
    text = "\n".join(test.text)
    if any(r.tag for r in test.rows) or IPERF3_HINT.search(text):
        return "iperf3"
    if IPERF2_HINT.search(text) or any(r.server_report for r in test.rows):
        return "iperf2"
    return None


def _run_for(seg: Segment, test: _Test, version: str | None, variant: str | None) -> Run:
    caption = nearest_caption(seg, test.start)
    run = Run(
        benchmark=NAME,
        results=[],
        tool_version=version,
        system=caption_system(seg, test.start),
        caption=caption,
        line_start=test.start,
        line_end=test.end,
    )
    variant = _variant(test) or variant
    if variant:
        run.attributes["variant"] = variant
    rows = _summaries(test)
    bad_summary = [i for i in test.bad if not test.rows or i >= test.rows[-1].line]
    if bad_summary:
        run.status, run.reason = "unparsed", f"unreadable iperf row at line {bad_summary[0]}"
        return run
    if not rows:
        # a paste of interval rows only (the summary cut off): the series as printed, never averaged
        run.results = _intervals(test, [], caption)
        run.notes.append("interval rows only, no summary row: read as the interval series")
        return run
    if test.bad:
        run.notes.append(f"unreadable interval rows at lines {test.bad}")
    sides = _sides(test, rows)
    summaries = rows
    rows = _drop_idle_senders(rows, sides, run.notes)
    run.results = _results(test, rows, sides, caption) + _intervals(test, summaries, caption)
    return run


def parse(seg: Segment) -> list[Run]:
    """Every iperf invocation in the segment, one run each."""
    version_m = VERSION.search(seg.text)
    version = version_m["v"] if version_m else None
    runs: list[Run] = []
    title, variant = None, None
    for test in _split_tests(seg.lines):
        # later connections of one `iperf -s` paste print no header of their own
        test.title = title = test.title or title
        if test.rows or test.bad:
            runs.append(_run_for(seg, test, version, variant))
            variant = runs[-1].attributes.get("variant", variant)
    number_repeated_results(runs)
    return runs


# necessary literals of the signature (see Parser.keywords)
KEYWORDS = (
    "bits/sec",  # every interval line carries its bandwidth column (Mbits/sec, Kbits/sec, ...)
    "bytes/sec",
)

PARSER = Parser(name=NAME, version="1", signature=SIGNATURE, parse=parse, metrics=METRICS, keywords=KEYWORDS)

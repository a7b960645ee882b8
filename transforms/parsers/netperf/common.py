"""What the netperf readers share: the metric registry, `-f` units and test names, small
token helpers, the tool version lookup, and the results block every reader fills."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from transforms.model import MetricSpec, Result, Run, Segment
from transforms.numbers import parse_number

BENCH = "netperf"

METRICS: dict[str, MetricSpec] = {
    "throughput": MetricSpec("Mbit/s", True, 0.0, 1e8,
                             units=("B/s", "KB/s", "MB/s", "GB/s", "bit/s", "Kbit/s", "Gbit/s", "MiB/s", "GiB/s")),
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
TEST_NAMES = frozenset(_TEST_NAMES.values())  # as `-t` takes them: `TCP_RR`, `UDP_STREAM` ...

_CONTEXT_WINDOW = 80  # a banner or command line further above a header is not its own


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


def _next_nonblank(norm: list[str], j: int, limit: int = 2) -> int | None:
    k = j
    while k < len(norm) and k <= j + limit:
        if norm[k]:
            return k
        k += 1
    return None


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


_Found = tuple[list[Run], int]  # runs, and the line where scanning resumes


def _unparsed(start: int, end: int, reason: str) -> _Found:
    run = Run(benchmark=BENCH, results=[], line_start=start, line_end=max(end, start + 1),
              status="unparsed", reason=reason)  # fmt: skip
    return [run], max(end, start + 1)

"""netperf omni output after a banner (or an omni command line): `-k` key=value lines and
`-o` CSV, the header wrapped or not."""

from __future__ import annotations

import re

from transforms.model import Segment
from transforms.numbers import parse_number

from .common import (
    _FMT_LABELS,
    _SD_UNITS,
    _base_params,
    _Block,
    _family,
    _Found,
    _next_nonblank,
    _rate_unit,
    _sd_metric,
    _unparsed,
)
from .context import _Banner, _banner_at, _Command, _new_run, _State

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

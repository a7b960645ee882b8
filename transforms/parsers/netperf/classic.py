"""netperf classic reports: column headers (TCP_STREAM-like, UDP_STREAM send and receive
lines, RR-like, each with or without the `-c/-C` CPU columns) and the data records under them.

Headers are matched on their whitespace tokens, so collapsed spacing and mailer-wrapped header
lines read the same; `--- label` lines between data records name the system.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from transforms.model import Segment

from .common import (
    _SD_UNITS,
    _base_params,
    _Block,
    _Emit,
    _Found,
    _int_token,
    _is_numeric,
    _next_nonblank,
    _rate_unit,
    _sd_metric,
    _tokens,
    _unparsed,
)
from .context import _new_run, _State, _test_for

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


_CAPTION = re.compile(r"^[ \t]*+[A-Za-z][^!?;]{0,58}+$")  # a short name (`v2.6.21`), no sentence


def _captioned_group(norm: list[str], k: int, layout: _Layout) -> bool:
    """Line k is a plain caption (`v2.6.21`) over records of the header's columns, a blank between or not."""
    text = norm[k].strip()
    if not _CAPTION.match(text) or len(text.split()) > 6 or text.endswith(".") or ". " in text:
        return False
    nxt = _next_nonblank(norm, k + 1, 1)
    return nxt is not None and _is_numeric(_tokens(norm[nxt])) and _read_record(norm, nxt, layout) is not None


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
                if len(toks) <= 2 and (nxt := _next_nonblank(norm, k + 1, 1)) is not None \
                        and _captioned_group(norm, nxt, layout):
                    j = k + 1  # `6196.86   460.58`: the poster's mean and spread of the group above
                    continue
                break
            out.append((rec, label))
            j = rec.end
            continue
        want = len(layout.line1)
        if not layout.line2 and want < len(toks) <= want + 4 and _is_numeric(toks[-want:]) \
                and not any(_is_numeric([t]) for t in toks[:-want]):
            # `To alpha     87380  16384  16384    10.02      39.25`: the poster named each line
            rec = _read_record([*norm[:k], " ".join(toks[-want:]), *norm[k + 1:]], k, layout)
            if rec is not None:
                out.append((rec, " ".join(toks[:-want])))
                j = rec.end
                continue
        m = _LABEL.match(norm[k])
        nxt = _next_nonblank(norm, k + 1, 1)
        if m and nxt is not None and _is_numeric(_tokens(norm[nxt])):
            label = m.group("label").rstrip(":").strip()
            j = k + 1
            continue
        if _captioned_group(norm, k, layout):
            label = norm[k].strip().rstrip(":").strip()  # `v2.6.21-slab CONFIG_SLAB_FAIR=n` over its lines
            j = k + 1
            continue
        break
    if not out:
        return [], start, "header without a data line"
    return out, j, None


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
        emit(f"cpu_util_{side}", f"Utilization {side} % {method}".strip(), f[f"cpu_{n + 1}"], "%CPU")
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
            emit(f"cpu_util_{where}", f"Utilization {where} % {method}".strip(), f["cpu" + sfx], "%CPU")
            metric, unit = _sd_metric(hdr.sd_unit, where)
            emit(metric, f"Service Demand {unit}", f["sd" + sfx], unit)


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

"""netperf `-P 0` data lines: read only when a netperf command line with `-P 0` sits right
above them, since the command alone says which test, `-f` unit and `-c/-C` columns they have."""

from __future__ import annotations

from transforms.model import Run, Segment
from transforms.numbers import parse_number

from .classic import _LAYOUT_BY_NAME, _Header, _read_record, _record_results
from .common import (
    _FMT_LABELS,
    _base_params,
    _Block,
    _family,
    _Found,
    _is_numeric,
    _next_nonblank,
    _rate_unit,
    _sd_metric,
    _tokens,
    _unparsed,
)
from .context import _Command, _new_run
from .omni import _omni_results


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

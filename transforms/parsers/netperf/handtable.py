"""Hand-made netperf tables posted to lists: a title `TCP STREAM (Throughput 10^6bits/sec)`,
a header `size <config> <config> ...` and one row per message size, each column a system."""

from __future__ import annotations

import re

from transforms.model import Result, Run, Segment
from transforms.numbers import parse_number

from .common import (
    _ASK_VERSION,
    BENCH,
    _family,
    _Found,
    _int_token,
    _is_numeric,
    _next_nonblank,
    _rate_unit,
    _test_from_phrase,
    _tokens,
)

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


def _table_at(seg: Segment, norm: list[str], i: int) -> _Found | None:
    m = _TABLE_TITLE.match(norm[i])
    table = _parse_table(norm, i, m) if m else None
    if table is None:
        return None
    run, end = table
    if run.status == "ok":
        run.tool_version = _ASK_VERSION
    return [run], end

"""lmbench summary tables: where the values of a collapsed short row go, scored against the
same column in the table's complete rows (the placement rules are in summary.py's docstring)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

from .columns import _T, _cell_value
from .metrics import _OPS
from .table import _Col, _Row, _Table

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

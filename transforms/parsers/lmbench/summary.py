"""lmbench `make summary` tables (lmbench 1.x, 2.0, 3.0): one run per Host/OS row.

Summary tables (``scripts/getsummary``)
---------------------------------------
Each table has a title that carries the unit ("times in microseconds",
"in MB/s") and the direction ("smaller is better"), a one-to-three line header
and a dash ruler (``--------- ------------- ---- ...``) whose dash groups are
the exact column spans.  The first two spans are Host (9 chars) and OS
(uname sysname + release, 13 chars); `system` is both joined
("darkstar Lguest 2.6.21").  A table may have Host alone: when the header puts
"OS Description" in one span (a printer that left-aligns its header words), that
span is the Description text and the table's rows join the runs of their host
(its k-th row the host's k-th system in the tables that show the OS).

* **Whitespace preserved**: every token is placed in the span it overlaps
  most, so blank cells stay blank (alignment ``exact``).
* **Whitespace collapsed** (mail archives that squeeze runs of spaces): a row
  with as many values as columns is read in order (``exact``).  A shorter row
  has blank cells somewhere; every order-preserving placement of its values is
  scored by the log-distance of each value to the same column in the table's
  complete rows (and to the same test shown elsewhere in the post, e.g. the
  2p/0K context switch that the latency table repeats).  A clearly best
  placement is used and flagged ``inferred``.  Otherwise only the values that
  sit in the same column in every near-best placement are kept (in practice
  the values before the gap) and the run's notes say why the rest was dropped.
  When a table has no complete row at all, the columns lmbench usually leaves
  blank (network, RPC, remote, file-create in parallel runs, ...) are assumed
  to be the missing ones; the note says so.

Column labels are the header words of each column joined over the header lines
("null call", "10K File Delete", "2p/16K ctxsw", "Main mem").  A header is read
by its ruler spans when its words sit in them (`OS` in the second span, whether
right-aligned as getsummary prints it or left-aligned); a word cut short by its
cell width ("0K Fil") matches the known label it begins, and a column with no
word on the first header line takes the first-line words of the nearest column
to its left when that names a known column (a heading printed over the first of
the columns it spans: "10K Fi" over Create and Delete).  Collapsed headers are
recognised by their word sequence (cut-short words allowed) against the headers
printed by the known getsummary versions (catalogued below) or, failing that, by
pairing header lines with one word per column.  A "Basic system parameters"
table holds attributes only: when it cannot be read, the block's runs get a note
instead of an unparsed run.

Cells: trailing-dot truncation (``452.``), ``K``/``M`` suffixes (x1000,
x1000000 as in getsummary's `num`; lmbench 1.x is read the same way, as the
2.0 script that replaced it divides by 1000), ``%e`` for tiny values; a value
<= 0 (``-1``) or ``-`` means "not measured": no row.  Mhz, Description, tlb
pages, cache line bytes, mem par, scal load and the memory-latency "Guesses"
become run attributes (first table that shows them wins), not results.

One run per Host/OS row; rows of different tables are matched by the system
and its occurrence number.  When a system appears on several rows of a table,
its runs get ``params.repeat`` "1", "2", ... in row order; a system listed
once gets no ``repeat`` at all.  The "2p/0K ctxsw" column that the latency
table repeats is ``lat_ctxsw_2p_0k`` (getsummary versions differ on whether it
equals the Context switching cell).  lmbench 1.x "2-proc/8-proc ctxsw" are the
size-0 context switches (``ctxsw_2p_0k``, ``ctxsw_8p_0k``).  The "Comparison to
best of the breed" tables (``make see``: factors, starred bests, percentages)
are relative and are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from transforms.model import EXACT, Result, Run

from .columns import (
    _A,
    _BANNER,
    _LABELS,  # noqa: F401 (transforms.handmade.metrics reads the labels here)
    _M,
    _RELATIVE,
    _TITLE,
    _cell_value,
)
from .gaps import _SAME_TEST, _place_pending
from .metrics import BENCH, METRICS
from .table import _Col, _open_table, _Row, _Table

# ------------------------------------------------------------------ building runs


@dataclass(slots=True)
class _Block:
    version: str | None
    start: int
    tables: list[_Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # (applies to every run of the block)


# Tables that only describe the machine (run attributes, no results): when one cannot be
# read the block's results still can, so the problem is a note, not an unparsed run.
_ATTRIBUTES_ONLY = {"basic"}


def _summary_blocks(lines: list[str]) -> tuple[list[_Block], list[Run]]:
    blocks: list[_Block] = []
    unparsed: list[Run] = []
    cur: _Block | None = None
    i = 0
    while i < len(lines):
        b = _BANNER.search(lines[i])
        if b:
            cur = _Block(f"{b.group(1)}.{b.group(2)}", i)
            blocks.append(cur)
            i += 1
            continue
        m = _TITLE.match(lines[i])
        if not m:
            i += 1
            continue
        if _RELATIVE.search(m.group("rest")):
            i += 1  # "best of the breed": relative factors and percentages, not measurements
            continue
        if cur is None:
            cur = _Block(None, i)
            blocks.append(cur)
        known = {r.system for tb in cur.tables for r in tb.rows}
        t = _open_table(lines, i, m, known)
        if t.kind in _ATTRIBUTES_ONLY:
            cur.notes += [f"{t.error}; attributes not read"] if t.error else []
            cur.notes += [f"{why}; attributes not read" for _line, why in t.unreadable]
            t.error, t.unreadable = None, []
        if t.error:
            unparsed.append(
                Run(
                    BENCH,
                    [],
                    tool_version=cur.version,
                    line_start=i,
                    line_end=t.end,
                    status="unparsed",
                    reason=t.error,
                )
            )
        elif t.cols:
            cur.tables.append(t)
        for line, why in t.unreadable:
            unparsed.append(
                Run(BENCH, [], tool_version=cur.version, line_start=line, line_end=line + 1,
                    status="unparsed", reason=why)
            )  # fmt: skip
        i = max(t.end, i + 1)
    return blocks, unparsed


def _match_hosts(block: _Block) -> None:
    """Rows of tables without an OS column join the runs of their host.

    The k-th row of a host there is the host's k-th (system, occurrence) in the tables that
    show the OS; a row with no such match keeps its host as its system.
    """
    by_host: dict[str, list[tuple[str, int]]] = {}
    for t in block.tables:
        if t.nid == 2:
            for row in t.rows:
                keys = by_host.setdefault(row.host, [])
                if (row.system, row.occ) not in keys:
                    keys.append((row.system, row.occ))
    for t in block.tables:
        if t.nid != 2:
            for row in t.rows:
                keys = by_host.get(row.host, [])
                if row.occ < len(keys):
                    row.system, row.occ = keys[row.occ]


def _block_runs(block: _Block) -> list[Run]:
    """One run per (system, repeat) of a summary block, results in table order."""
    _match_hosts(block)
    exact: dict[tuple[str, int], dict[str, float]] = {}

    def xref(row: _Row, col: _Col) -> float | None:
        key = _SAME_TEST.get(col.key, col.key) if col.role == _M else col.key
        return exact.get((row.system, row.occ), {}).get(key)

    for t in block.tables:
        _place_pending(t, xref)
        for row in t.rows:
            if row.alignment != EXACT:
                continue
            for k, tok in row.cells.items():
                col, v = t.cols[k], _cell_value(tok)
                if v is None or col.role not in (_M, _A):
                    continue
                exact.setdefault((row.system, row.occ), {}).setdefault(
                    _SAME_TEST.get(col.key, col.key), v
                )

    repeats = {r.system for t in block.tables for r in t.rows if r.occ > 0}
    runs: dict[tuple[str, int], Run] = {}
    end = max((t.end for t in block.tables), default=block.start + 1)
    for t in block.tables:
        for idx, row in enumerate(t.rows):
            key = (row.system, row.occ)
            run = runs.get(key)
            if run is None:
                run = runs[key] = Run(
                    BENCH,
                    [],
                    tool_version=block.version,
                    system=row.system,
                    line_start=block.start,
                    line_end=end,
                )
            for note in block.notes + t.notes + t.row_notes.get(idx, []):
                if note not in run.notes:
                    run.notes.append(note)
            params = {"repeat": str(row.occ + 1)} if row.system in repeats else {}
            _emit_row(run, t, row, params)
    return list(runs.values())


def _emit_row(run: Run, t: _Table, row: _Row, params: dict[str, str]) -> None:
    for k in sorted(row.cells):
        col, tok = t.cols[k], row.cells[k]
        v = _cell_value(tok)
        if v is None:
            continue
        if col.role == _A:
            run.attributes.setdefault(col.key, tok)
            if col.key == "mhz" and v > 0 and row.alignment == EXACT \
                    and not any(r.metric == "cpu_mhz" for r in run.results):
                # the clock lmbench measured (the same number in every section): one row per run,
                # from a row whose cells were placed exactly
                run.results.append(Result("cpu_mhz", col.label, v, "MHz", dict(params),
                                          alignment=row.alignment, line=row.line))
        elif col.role == _M and t.unit is not None and METRICS[col.key].unit == t.unit:
            run.results.append(
                Result(
                    col.key,
                    col.label,
                    v,
                    t.unit,
                    dict(params),
                    higher_is_better=t.hib,
                    alignment=row.alignment,
                    line=row.line,
                )
            )
    for k, text in row.texts.items():
        run.attributes.setdefault(t.cols[k].key, text)

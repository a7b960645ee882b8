"""netperf omni output for people (`-O` selectors, the default of `-t omni`): each column's name
stacked over two to five lines, each word set at its column's start, then one line of values:

    Minimum      90th         99th         Transaction
    Latency      Percentile   Percentile   Rate
    Microseconds Latency      Latency      Tran/s
                 Microseconds Microseconds
    134          279          410          3961.584

The words of each column, top to bottom, are its selector's human name (nettest_omni.c); only a
block whose every column is such a name is read, so a table of a person's that looks alike is not.
"""

from __future__ import annotations

from transforms.model import Segment
from transforms.numbers import parse_number

from .common import _Block, _Found, _unparsed
from .context import _Command, _new_run
from .omni import _OMNI_HUMAN, _omni_results

_MAX_HEAD_LINES = 5
# the first word of every human name: a cheap test of the block's first line
_FIRST_WORDS = frozenset(name.split()[0] for name in _OMNI_HUMAN)


def _words(line: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    k = 0
    for tok in line.split():
        k = line.index(tok, k)
        out.append((k, tok))
        k += len(tok)
    return out


def _columns(lines: list[str]) -> list[str] | None:
    """The stacked names of the columns, each word given to the column it starts in."""
    starts = [k for k, _ in _words(lines[0])]
    names: list[list[str]] = [[] for _ in starts]
    for line in lines:
        for k, tok in _words(line):
            col = max((c for c, s in enumerate(starts) if s <= k + 1), default=None)
            if col is None:
                return None
            names[col].append(tok)
    return [" ".join(n) for n in names]


def human_at(seg: Segment, norm: list[str], i: int, cmd: _Command | None) -> _Found | None:
    """The block at line i, when it is netperf's stacked omni output (`cmd`: the netperf command
    line above it in the segment, if any: its test and sizes)."""
    first = norm[i].split()
    if len(first) < 2 or first[0] not in _FIRST_WORDS:
        return None
    for h in range(2, _MAX_HEAD_LINES + 1):
        k = i + h
        if k >= len(norm) or not norm[k - 1]:
            return None
        cells = norm[k].split()
        if len(cells) != len(first) or any(parse_number(c) is None for c in cells):
            continue
        names = _columns(seg.lines[i:k])
        if names is None or any(n not in _OMNI_HUMAN for n in names):
            return None
        block = _Block(test=cmd.test if cmd else None)
        values = {_OMNI_HUMAN[n]: c for n, c in zip(names, cells, strict=True)}
        reason = _omni_results(values, block, cmd, k)
        if reason:
            return _unparsed(k, k + 1, reason)
        if not block.results:
            return None
        block.attributes.setdefault("format", "omni human")
        return [_new_run(seg, i, k + 1, block, None, cmd)], k + 1
    return None

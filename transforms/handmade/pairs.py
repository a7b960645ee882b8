"""Tables of slash pairs: a column head names two systems in parentheses and each cell holds both
values, in that order (`IOPs Rand Read (before/after)` over `318K/316K`).

Posters write before/after comparisons this way to halve a table's width. Read as an ordinary
table, `318K/316K` is no number, so the whole table is lost. Each cell becomes two values: the
column head without its parentheses is the metric, the names inside are the systems, and the
row's label is a parameter named by the first column's head (`IO size` = `512B`).

Everything is read cell by cell with anchored, bounded patterns.
"""

from __future__ import annotations

import re

from transforms.handmade.cells import RULE, read_number, split_wide
from transforms.handmade.summaries import KeyValue

MAX_ROWS = 200
# `IOPs Rand Read (before/after)`, `BW (base / patched)`: a metric over two systems
_HEAD = re.compile(r"^(?P<metric>[^()/]{1,60}?)\s{0,4}+\(\s{0,2}+(?P<a>[^()/]{1,30}?)\s{0,2}+/\s{0,2}+"
                   r"(?P<b>[^()/]{1,30}?)\s{0,2}+\)$")
# `318K/316K`, `36K/36.1K`, `9.1/9.4`: two numbers, each with an optional scale or unit
_CELL = re.compile(r"^(?P<a>\d{1,12}+(?:\.\d{1,12}+)?[A-Za-z%]{0,6}+)/(?P<b>\d{1,12}+(?:\.\d{1,12}+)?[A-Za-z%]{0,6}+)$")



def read_pairs(lines: list[str]) -> tuple[list[KeyValue], set[int]]:
    """Values of every slash-pair table in a block, and the lines the tables hold."""
    out: list[KeyValue] = []
    used: set[int] = set()
    i = 0
    while i < len(lines):
        line = lines[i]
        if len(line) > 400 or "/" not in line or "(" not in line:  # a head names its pair `(a/b)`
            i += 1
            continue
        heads = split_wide(line)
        pairs = [(k, m) for k, c in enumerate(heads) if (m := _HEAD.match(c.text))]
        if not pairs or len(pairs) < len(heads) - 1:
            i += 1
            continue
        first = heads[0].text if len(heads) == len(pairs) + 1 else None
        values, rows = _rows(lines, i + 1, heads, pairs, first)
        if values:
            out.extend(values)
            used.update(rows)
            used.add(i)
            i = max(rows) + 1
        else:
            i += 1
    return out, used


def _rows(lines: list[str], start: int, heads: list, pairs: list, first: str | None
          ) -> tuple[list[KeyValue], set[int]]:
    out: list[KeyValue] = []
    rows: set[int] = set()
    for j in range(start, min(len(lines), start + MAX_ROWS)):
        text = lines[j]
        if not text.strip() or RULE.match(text):
            continue
        cells = split_wide(text) if len(text) <= 400 else []
        label = cells[0].text if first is not None and len(cells) == len(pairs) + 1 else None
        vals = cells[1:] if label is not None else cells
        if len(vals) != len(pairs) or not all(_CELL.match(c.text) for c in vals):
            break
        for c, (_, head) in zip(vals, pairs, strict=True):
            m = _CELL.match(c.text)
            assert m is not None
            for side in ("a", "b"):
                got = read_number(m.group(side))
                if got is None or got[0] != "abs":
                    continue
                params = {_param_name(first): label} if label is not None and first is not None else {}
                out.append(KeyValue(j, got[1], got[2], head.group("metric").strip(), head.group(side).strip(),
                                    params))  # key: the metric the column names
        rows.add(j)
    return out, rows


def _param_name(head: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", head.lower()).strip("_")[:40] or "case"

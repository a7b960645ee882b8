"""Printing rows as a rich table, JSON (one array of objects) or CSV."""

from __future__ import annotations

import csv
import json
import math
import sys
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any, TextIO

FORMATS = ("table", "json", "csv")


def _jsonable(v: Any) -> Any:
    if isinstance(v, (datetime, date)):
        return v.isoformat()
    if isinstance(v, Decimal):
        return float(v)
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, (bytes, bytearray)):
        return v.decode("utf-8", "replace")
    return v


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, dict):
        return json.dumps(_jsonable(v), sort_keys=True)
    if isinstance(v, float):
        return repr(v) if v != int(v) or abs(v) >= 1e15 else str(int(v)) if v.is_integer() else repr(v)
    if isinstance(v, (list, tuple)):
        return json.dumps(_jsonable(v))
    return str(v)


def print_rows(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str, out: TextIO | None = None,
               title: str | None = None) -> None:
    out = out or sys.stdout
    if fmt == "json":
        json.dump([{c: _jsonable(v) for c, v in zip(columns, r, strict=True)} for r in rows], out,
                  ensure_ascii=False, indent=1)
        out.write("\n")
    elif fmt == "csv":
        w = csv.writer(out, lineterminator="\n")
        w.writerow(columns)
        for r in rows:
            w.writerow([_cell(v) for v in r])
    else:
        from rich.table import Table

        from flows.console import console, plain

        t = Table(title=plain(title) if title is not None else None, show_lines=False, header_style="bold")
        for c in columns:
            t.add_column(plain(c), overflow="fold")
        for r in rows:
            t.add_row(*[plain(_cell(v)) for v in r])
        console(file=out, width=max(120, min(240, 18 * len(columns)))).print(t)

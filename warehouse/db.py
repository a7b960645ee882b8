"""The DuckDB file: views (no data) over the lake, swapped in atomically.

Ingest never holds the query database open: it builds a fresh file beside it and
renames it into place, so `listbench sql` (read-only) never meets a lock.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb


class WarehouseMissing(Exception):
    pass


def view_sql(lake_dir: Path) -> str:
    text = resources.files("warehouse").joinpath("views.sql").read_text(encoding="utf-8")
    lake = str(Path(lake_dir).resolve()).replace("'", "''")
    return text.replace("{lake}", lake)


def refresh_views(db_path: Path, lake_dir: Path) -> None:
    db_path = Path(db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = db_path.with_name(f".{db_path.name}.{os.getpid()}.tmp")
    for p in (tmp, Path(str(tmp) + ".wal")):
        if p.exists():
            p.unlink()
    con = duckdb.connect(str(tmp))
    try:
        con.execute(view_sql(lake_dir))
        con.execute("CHECKPOINT")
    finally:
        con.close()
    os.replace(tmp, db_path)


def connect_readonly(db_path: Path) -> duckdb.DuckDBPyConnection:
    if not Path(db_path).exists():
        raise WarehouseMissing(f"no warehouse at {db_path}: run `listbench ingest` first")
    return duckdb.connect(str(db_path), read_only=True)


def query(db_path: Path, sql: str, params: list[Any] | None = None) -> tuple[list[str], list[tuple]]:
    con = connect_readonly(db_path)
    try:
        cur = con.execute(sql, params or [])
        if cur.description is None:
            return [], []
        cols = [d[0] for d in cur.description]
        return cols, cur.fetchall()
    finally:
        con.close()


def export_parquet(db_path: Path, sql: str, out: str | Path) -> int:
    """Write a query's result to a Parquet file (via Arrow; no DuckDB COPY path games)."""
    import pyarrow.parquet as pq

    con = connect_readonly(db_path)
    try:
        tbl = con.sql(sql).to_arrow_table()
    finally:
        con.close()
    pq.write_table(tbl, out, compression="zstd")
    return tbl.num_rows


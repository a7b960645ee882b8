"""The DuckDB file: views (no data) over the lake, swapped in atomically.

Ingest never holds the query database open: it builds a fresh file beside it and
renames it into place, so `listbench sql` (read-only) never meets a lock.

The file is always local. When the lake is on object storage (an fsspec URL,
see warehouse.storage) the views read `s3://...` globs through an fsspec
filesystem registered on every connection (`con.register_filesystem`), so no
DuckDB extension is downloaded. The file records the lake URL and the
non-secret storage options in a one-row table `_listbench_storage`;
`connect_readonly` uses it (or the options configured in this process, which
win) to register the filesystem. Credentials come from the environment only.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb

from warehouse import storage


class WarehouseMissing(Exception):
    pass


STORAGE_TABLE = "_listbench_storage"


def schema_dir(db_path: Path) -> Path:
    """Beside the views file: one empty Parquet file per table with its current schema."""
    return Path(db_path).parent / ".schema"


def write_schema_files(folder: Path) -> None:
    """The views read these with the lake's parts, so a column added since a part was written
    reads as NULL instead of failing the view (old lakes keep working without a rewrite)."""
    import pyarrow.parquet as pq

    from warehouse.schema import SCHEMAS

    folder.mkdir(parents=True, exist_ok=True)
    for name, schema in SCHEMAS.items():
        target = folder / f"{name}.parquet"
        tmp = folder / f".{name}.{os.getpid()}.tmp"
        pq.write_table(schema.empty_table(), tmp)
        os.replace(tmp, target)


def view_sql(lake_dir: Path | str, schema: Path) -> str:
    text = resources.files("warehouse").joinpath("views.sql").read_text(encoding="utf-8")
    if storage.is_remote(lake_dir):
        lake = str(lake_dir).rstrip("/")
    else:
        lake = str(Path(storage.local_path(str(lake_dir))).resolve())
    return text.replace("{lake}", lake.replace("'", "''")) \
        .replace("{schema}", str(Path(schema).resolve()).replace("'", "''"))


def refresh_views(db_path: Path, lake_dir: Path | str, storage_options: dict[str, Any] | None = None) -> None:
    db_path = Path(db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = db_path.with_name(f".{db_path.name}.{os.getpid()}.tmp")
    for p in (tmp, Path(str(tmp) + ".wal")):
        if p.exists():
            p.unlink()
    write_schema_files(schema_dir(db_path))
    con = duckdb.connect(str(tmp))
    try:
        if storage.is_remote(lake_dir):
            opts = storage_options if storage_options is not None else (storage.options_for(str(lake_dir)) or {})
            storage.register_duckdb(con, str(lake_dir), opts)
            con.execute(f"CREATE TABLE {STORAGE_TABLE} (lake VARCHAR, options VARCHAR)")
            con.execute(f"INSERT INTO {STORAGE_TABLE} VALUES (?, ?)",
                        [str(lake_dir), json.dumps(storage.check_options(opts, "storage options"))])
        con.execute(view_sql(lake_dir, schema_dir(db_path)))
        con.execute("CHECKPOINT")
    finally:
        con.close()
    os.replace(tmp, db_path)


def refresh_views_if_needed(db_path: Path, lake_dir: Path | str) -> bool:
    """Rebuild the views file only when it is missing or its SQL changed (new data needs no
    rebuild: the views glob the lake). Returns whether it was rebuilt."""
    import hashlib

    stamp = Path(db_path).with_name(f".{Path(db_path).name}.sha")
    recorded = json.dumps(storage.options_for(str(lake_dir)) or {}, sort_keys=True) if storage.is_remote(lake_dir) else ""
    digest = hashlib.sha256((view_sql(lake_dir, schema_dir(db_path)) + recorded).encode()).hexdigest()
    if Path(db_path).exists() and stamp.exists() and stamp.read_text() == digest \
            and schema_dir(db_path).is_dir():
        return False
    refresh_views(db_path, lake_dir)
    stamp.write_text(digest)
    return True


def connect_readonly(db_path: Path) -> duckdb.DuckDBPyConnection:
    if not Path(db_path).exists():
        raise WarehouseMissing(f"no warehouse at {db_path}: run `listbench ingest` first")
    con = duckdb.connect(str(db_path), read_only=True)
    try:
        register_lake(con)
    except BaseException:
        con.close()
        raise
    return con


def register_lake(con: duckdb.DuckDBPyConnection) -> str | None:
    """Register the fsspec filesystem of a remote lake on `con`; returns its URL (None when local)."""
    try:
        row = con.execute(f"SELECT lake, options FROM {STORAGE_TABLE}").fetchone()
    except duckdb.CatalogException:
        return None  # a local lake
    if not row:
        return None
    lake, stored = row
    opts = storage.options_for(lake)
    storage.register_duckdb(con, lake, opts if opts is not None else json.loads(stored or "{}"))
    return lake


def error_line(exc: BaseException) -> str:
    """One line for a DuckDB error; for a failure inside the fsspec filesystem, the Python exception."""
    lines = [ln for ln in str(exc).splitlines() if ln.strip()]
    if not lines:
        return type(exc).__name__
    return lines[-1].strip() if lines[0].startswith("Traceback") else lines[0]


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


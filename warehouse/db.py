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

Every file also records its lake in `_listbench_lake`: a read-only connection may
read files there and nowhere else, and runs only read statements (warehouse.guard).
"""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb

from warehouse import guard, storage


class WarehouseMissing(Exception):
    pass


STORAGE_TABLE = "_listbench_storage"
LAKE_TABLE = "_listbench_lake"
LAYOUT = "2"  # bumped when the views file gains a table: existing files are rebuilt


def lake_location(lake_dir: Path | str) -> str:
    """The lake as the views name it: a URL, or an absolute local path."""
    if storage.is_remote(lake_dir):
        return str(lake_dir).rstrip("/")
    return str(Path(storage.local_path(str(lake_dir))).resolve())


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
    """The views, globbing the lake's parts; the lake's own path is escaped so that `[`, `*`
    or `?` in a folder name (`data[1]`) match themselves (the schema files' folder likewise)."""
    text = resources.files("warehouse").joinpath("views.sql").read_text(encoding="utf-8")
    lake = guard.escape_glob(lake_location(lake_dir))
    schema_path = guard.escape_glob(str(Path(schema).resolve()))
    return text.replace("{lake}", lake.replace("'", "''")).replace("{schema}", schema_path.replace("'", "''"))


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
        con.execute(f"CREATE TABLE {LAKE_TABLE} (lake VARCHAR)")
        con.execute(f"INSERT INTO {LAKE_TABLE} VALUES (?)", [lake_location(lake_dir)])
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
    digest = hashlib.sha256((LAYOUT + view_sql(lake_dir, schema_dir(db_path)) + recorded).encode()).hexdigest()
    if Path(db_path).exists() and stamp.exists() and stamp.read_text() == digest \
            and schema_dir(db_path).is_dir():
        return False
    refresh_views(db_path, lake_dir)
    stamp.write_text(digest)
    return True


def connect_readonly(db_path: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection that can read the lake and no other file (see warehouse.guard);
    run user SQL on it through `guard.run`."""
    if not Path(db_path).exists():
        raise WarehouseMissing(f"no warehouse at {db_path}: run `listbench ingest` first")
    con = duckdb.connect(str(db_path), read_only=True)
    try:
        remote = register_lake(con)
        guard.lock_down(con, remote or _local_lake(con, Path(db_path)),
                        also=(str(schema_dir(Path(db_path)).resolve()),))
    except BaseException:
        con.close()
        raise
    return con


def _local_lake(con: duckdb.DuckDBPyConnection, db_path: Path) -> str:
    """The lake recorded in the file; a file written before it was recorded sits beside its lake."""
    try:
        row = con.execute(f"SELECT lake FROM {LAKE_TABLE}").fetchone()
    except duckdb.CatalogException:
        row = None
    return row[0] if row else str(db_path.resolve().parent / "lake")


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
    guard.read_statements(sql)  # refuse before opening anything
    con = connect_readonly(db_path)
    try:
        cur = guard.run(con, sql, params)
        if cur is None or cur.description is None:
            return [], []
        cols = [d[0] for d in cur.description]
        return cols, cur.fetchall()
    finally:
        con.close()


def export_parquet(db_path: Path, sql: str, out: str | Path) -> int:
    """Write a query's result to a Parquet file (via Arrow; no DuckDB COPY path games)."""
    import pyarrow.parquet as pq

    guard.read_statements(sql)
    con = connect_readonly(db_path)
    try:
        cur = guard.run(con, sql)
        if cur is None or cur.description is None:
            raise guard.Refused("nothing to export: the SQL returns no rows")
        tbl = cur.to_arrow_table()
    finally:
        con.close()
    pq.write_table(tbl, out, compression="zstd")
    return tbl.num_rows


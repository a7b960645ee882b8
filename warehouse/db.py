"""The DuckDB file: views (no data) over the lake's current snapshot, swapped in atomically.

The views list the data files of each Delta table's current version (DuckDB has no delta
extension here) and show only the rows of committed batches (warehouse.lake); the file is
rebuilt after every commit, so a reader sees batches whole and the lake as of one moment.

Ingest never holds the query database open: it builds a fresh file beside it and
renames it into place, so `listbench sql` (read-only) never meets a lock.

The file is always local. When the lake is on object storage (an fsspec URL,
see warehouse.storage) the views read `s3://...` files through an fsspec
filesystem registered on every connection (`con.register_filesystem`), so no
DuckDB extension is downloaded. The file records the lake URL and the
non-secret storage options (those the lake was opened with) in a one-row table
`_listbench_storage`; `connect_readonly` uses it to register the filesystem.
Credentials come from the environment only.

Every file also records its lake in `_listbench_lake`: a read-only connection may
read files there and nowhere else, and runs only read statements (warehouse.guard).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import threading
from collections.abc import Iterator
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb

from warehouse import guard, storage
from warehouse.lake import Lake, Snapshot
from warehouse.schema import BATCHES, TABLES


class WarehouseMissing(Exception):
    pass


STORAGE_TABLE = "_listbench_storage"
LAKE_TABLE = "_listbench_lake"
LAYOUT = "4"  # bumped when the views file gains a table: existing files are rebuilt


def lake_location(lake_dir: Path | str) -> str:
    """The lake as the views name it: a URL, or an absolute local path."""
    if storage.is_remote(lake_dir):
        return str(lake_dir).rstrip("/")
    return str(Path(storage.local_path(str(lake_dir))).resolve())


def schema_dir(db_path: Path) -> Path:
    """Beside the views file: one empty Parquet file per table with its current schema."""
    return Path(db_path).parent / ".schema"


def write_schema_files(folder: Path) -> None:
    """The views read these with the lake's files, so a column added since a file was written
    reads as NULL instead of failing the view (old lakes keep working without a rewrite).
    Written only when the schemas changed (the views file is rebuilt on every commit)."""
    import hashlib

    import pyarrow.parquet as pq

    from warehouse.schema import SCHEMAS

    digest = hashlib.sha256(repr(sorted((n, str(s)) for n, s in SCHEMAS.items())).encode()).hexdigest()
    stamp = folder / ".schemas.sha"
    if stamp.exists() and stamp.read_text() == digest and all((folder / f"{n}.parquet").exists() for n in SCHEMAS):
        return
    folder.mkdir(parents=True, exist_ok=True)
    for name, schema in SCHEMAS.items():
        target = folder / f"{name}.parquet"
        tmp = folder / f".{name}.{os.getpid()}.tmp"
        pq.write_table(schema.empty_table(), tmp)
        os.replace(tmp, target)
    tmp = folder / f".schemas.{os.getpid()}.tmp"
    tmp.write_text(digest)
    os.replace(tmp, stamp)


BATCHES_TABLE = "_listbench_batches"


def _file_list(files: list[str], schema_file: Path) -> str:
    """A DuckDB list literal of files; each path escaped so that `[`, `*` or `?` in a folder
    name (`data[1]`) match themselves."""
    paths = [*files, str(schema_file.resolve())]
    return "[" + ", ".join("'" + guard.escape_glob(p).replace("'", "''") + "'" for p in paths) + "]"


def files_sql(files: dict[str, list[str]], schema: Path, mixed: dict[str, list[str]] | None = None) -> str:
    """Two scalar macros per lake table: `files_<table>()`, the snapshot's files of one committed
    batch each, and `mixed_<table>()`, its files of several batches (warehouse.lake.Snapshot);
    each list also names the table's schema file, so that it is never empty."""
    out = []
    for name in TABLES:
        schema_file = Path(schema) / f"{name}.parquet"
        out.append(f"CREATE OR REPLACE MACRO files_{name}() AS {_file_list(files.get(name, []), schema_file)};\n")
        out.append(f"CREATE OR REPLACE MACRO mixed_{name}() AS "
                   f"{_file_list((mixed or {}).get(name, []), schema_file)};\n")
    return "".join(out)


def snapshot_sql() -> str:
    """One table macro per lake table, `snapshot_<table>()`: the schema's columns, in order, of
    the rows of committed batches: every row of the files `files_<table>()` names, and the rows of
    committed batches in the files `mixed_<table>()` names. The views read the lake through these."""
    from warehouse.schema import SCHEMAS

    out = []
    for name in TABLES:
        cols = ", ".join('"' + c.replace('"', '""') + '"' for c in SCHEMAS[name].names)
        out.append(f"CREATE OR REPLACE MACRO snapshot_{name}() AS TABLE SELECT {cols} "
                   f"FROM read_parquet(files_{name}(), union_by_name = true) UNION ALL SELECT {cols} "
                   f"FROM read_parquet(mixed_{name}(), union_by_name = true) "
                   f"WHERE batch_id IN (SELECT batch_id FROM {BATCHES_TABLE});\n")
    return "".join(out)


@functools.cache
def _views_text() -> str:
    return resources.files("warehouse").joinpath("views.sql").read_text(encoding="utf-8")


def view_sql(schema: Path) -> str:
    """The views file's tables and views (see views.sql), over file lists naming the schema
    files only."""
    text = _views_text()
    return (f"CREATE TABLE {LAKE_TABLE} (lake VARCHAR, version BIGINT, as_of TIMESTAMPTZ);\n"
            f"CREATE TABLE {BATCHES_TABLE} (batch_id VARCHAR PRIMARY KEY);\n"
            + files_sql({}, schema) + snapshot_sql() + text)


_TEMPLATES: dict[tuple[str, str], bytes] = {}  # (views.sql, schema folder) -> a views file showing no snapshot


def _template(schema: Path, work: Path) -> bytes:
    """A views file with every table, macro and view but no snapshot, built once per process.

    Creating a view (or a table macro) binds it, which reads the footer of every file it names,
    again for each view built on others, and creating some twenty views costs more than a
    commit. So they are created once, over the schema files alone; each snapshot then gets a
    copy of this file in which only the file lists (scalar macros: constants, replaced without
    reading a file) and the committed batch ids change. A rebuild thus costs the same whatever
    the number of files and views."""
    key = (_views_text(), str(schema))
    if key not in _TEMPLATES:
        sql = view_sql(schema)
        _unlink(work)
        con = duckdb.connect(str(work))
        try:
            con.execute(sql)
            con.execute("CHECKPOINT")
        finally:
            con.close()
        _TEMPLATES[key] = work.read_bytes()
        _unlink(work)
    return _TEMPLATES[key]


def _unlink(db: Path) -> None:
    for p in (db, Path(str(db) + ".wal")):
        p.unlink(missing_ok=True)


def _lake(lake_dir: Path | str | Lake) -> Lake:
    if isinstance(lake_dir, Lake):
        return lake_dir
    return Lake(lake_dir).open()


def refresh_views(db_path: Path, lake_dir: Path | str | Lake, storage_options: dict[str, Any] | None = None,
                  as_of: int | datetime | None = None, snap: Snapshot | None = None) -> Snapshot:
    """Build the views file for the lake's current snapshot (or the one `as_of` a version or time,
    or `snap` taken by the caller) beside `db_path` and rename it into place. Returns the
    snapshot it shows."""
    import pyarrow as pa

    lake = _lake(lake_dir)
    snap = snap if snap is not None else lake.snapshot(as_of)
    db_path = Path(db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = db_path.with_name(f".{db_path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    schema = schema_dir(db_path)
    write_schema_files(schema)
    template = _template(schema, tmp)
    _unlink(tmp)
    tmp.write_bytes(template)
    con = duckdb.connect(str(tmp))
    try:
        if lake.remote:
            opts = storage_options if storage_options is not None else lake.storage_options
            con.execute(f"CREATE TABLE {STORAGE_TABLE} (lake VARCHAR, options VARCHAR)")
            con.execute(f"INSERT INTO {STORAGE_TABLE} VALUES (?, ?)",
                        [lake.url, json.dumps(storage.check_options(opts, "storage options"))])
        con.execute(f"INSERT INTO {LAKE_TABLE} VALUES (?, ?, ?)",
                    [lake_location(lake.url), snap.version, snap.committed_at if as_of is not None else None])
        if snap.batches:  # one Arrow insert: row by row costs a round trip per batch
            ids = pa.table({"batch_id": pa.array(sorted(snap.batches), pa.string())})
            con.register("_committed_ids", ids)
            con.execute(f"INSERT INTO {BATCHES_TABLE} SELECT batch_id FROM _committed_ids")
            con.unregister("_committed_ids")
        con.execute(files_sql(snap.files, schema, snap.mixed))
        con.execute("CHECKPOINT")
    finally:
        con.close()
    os.replace(tmp, db_path)
    return snap


def refresh_views_if_needed(db_path: Path, lake_dir: Path | str | Lake) -> bool:
    """Rebuild the views file when the lake has a new snapshot (every commit), its SQL changed or
    it is missing. Returns whether it was rebuilt.

    A rebuild holds a lock beside the file: without it, of two processes (or threads) rebuilding
    at once, the one with the older snapshot could rename its file into place last while the
    other's stamp is written last, and the stamp would claim a snapshot the file does not show."""
    db_path = Path(db_path)
    lake = _lake(lake_dir)
    stamp = db_path.with_name(f".{db_path.name}.sha")
    if _views_current(db_path, lake, stamp)[0]:
        return False
    with _locked(db_path.with_name(f".{db_path.name}.lock")):
        current, digest = _views_current(db_path, lake, stamp)  # newer than any earlier holder's
        if current:
            return False
        refresh_views(db_path, lake, snap=lake.snapshot(update=False))
        tmp = stamp.with_name(f"{stamp.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_text(digest)
        os.replace(tmp, stamp)
    return True


def _views_current(db_path: Path, lake: Lake, stamp: Path) -> tuple[bool, str]:
    """(whether the views file shows the lake's newest snapshot, the digest recording that)."""
    import hashlib

    recorded = json.dumps(lake.storage_options, sort_keys=True) if lake.remote else ""
    # `batches` first, then the tables: the snapshot a rebuild takes is these handles as they
    # are, and a batch must never count as committed while a file of it is missing
    versions = {n: lake.table(n).version() for n in (BATCHES, *TABLES)}
    text = _views_text()
    digest = hashlib.sha256((LAYOUT + text + lake.url + json.dumps(versions, sort_keys=True)
                             + recorded).encode()).hexdigest()
    current = db_path.exists() and stamp.exists() and stamp.read_text() == digest and schema_dir(db_path).is_dir()
    return current, digest


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on `path` (released by the kernel if the holder dies)."""
    import fcntl

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


class Refresher:
    """Rebuilds the views file after each commit without holding the writer up: one rebuild at a
    time on a background thread, over its own handle on the lake; commits made during a rebuild
    ask for one more. `wait` before relying on the file (a run's end)."""

    def __init__(self, db_path: Path, lake: Lake) -> None:
        self.db_path = Path(db_path)
        self.lake = Lake(lake.url, lake.storage_options, stale_seconds=lake.stale_seconds)
        self.lake.options = lake.options
        self._lock = threading.Lock()
        self._dirty = False
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None

    def __call__(self, _lake: Lake) -> None:
        with self._lock:
            self._dirty = True
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="views-refresh", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._dirty:
                    self._thread = None
                    return
                self._dirty = False
            try:
                refresh_views_if_needed(self.db_path, self.lake)
            except Exception as exc:  # reported by wait(); the next commit tries again
                self.error = exc

    def wait(self) -> None:
        with self._lock:
            t = self._thread
        if t is not None:
            t.join()
        if self.error is not None:
            err, self.error = self.error, None
            raise err


def views_as_of(db_path: Path, lake_dir: Path | str, as_of: int | datetime, into: Path,
                storage_options: dict[str, Any] | None = None) -> Path:
    """A views file (at `into`, with its own schema files beside it) showing the lake as it was
    at a version or time (Delta time travel); `db_path` is the current views file, unchanged."""
    lake = Lake(lake_dir, storage_options)
    if not lake.exists():
        raise WarehouseMissing(f"no lake at {lake.url}: run `listbench ingest` first")
    refresh_views(into, lake, as_of=as_of)
    return into


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
    storage.register_duckdb(con, lake, json.loads(stored or "{}"))
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


def open_writer(lake_dir: Path | str, storage_options: dict[str, Any] | None, db_path: Path, command: str,
                run: str | None = None) -> Lake:
    """The lake for a writer: its commits name the command and run (history), and each one
    rebuilds the views file, so readers see every batch as soon as it is committed."""
    lake = Lake(lake_dir, storage_options).open()
    lake.command, lake.run = command, run
    lake.views = Refresher(db_path, lake)
    lake.on_commit.append(lake.views)
    return lake

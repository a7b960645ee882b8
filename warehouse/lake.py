"""The Parquet lake: the system of record, written as immutable, atomically committed parts.

A batch (one archive unit, usually) is first written completely under
`lake/_staging/<batch>/`, then marked READY, then each file is renamed into
`lake/<table>/part-<batch>.parquet`. A crash before READY leaves only staging
debris (deleted on next open); a crash after READY is rolled forward on next
open. Readers only glob `*.parquet` under the table folders, so they never see
half a file, and a batch's tables become visible together or are completed later.

The root may also be an fsspec URL (`s3://bucket/prefix/lake`, `memory://...`;
see warehouse.storage). Object stores have no rename, so a remote commit is:

1. PUT every table of the batch under `_staging/<batch>/` (plus a `STARTED`
   object with the time, for the age check below);
2. PUT `_staging/<batch>/READY` (the manifest) -- only after every staged
   object exists;
3. server-side COPY each staged object to its final name
   `<table>/part-<batch>.parquet`, then delete what it supersedes, then the
   staging prefix.

Why readers stay consistent: a PUT or COPY makes an object appear whole or not
at all, and readers (the DuckDB views, `Lake.read`) list only
`<table>/*.parquet`, never `_staging/`, so no reader sees a partial part.
Final names are written only after READY, and READY only after all staged
objects, so a crash before READY leaves nothing visible (the staging prefix is
deleted later) and a crash after READY is rolled forward by the next writer's
`recover()` (COPY is idempotent: same source, same final name). As on a local
disk, a batch's tables appear one after the other within a commit (a reader
may for a moment see a batch's messages without its results; keys make that
harmless), and never half. S3 has been strongly read-after-write consistent
for PUT and LIST since 2020; an S3-compatible store with eventually consistent
listings can hide a just-published part for a moment, never show half of one.

Remote recovery deletes an un-READY staging batch only when it is older than
`stale_seconds` (default 1 h): on shared storage a young one may belong to a
writer on another machine (the remote writer lock, storage.lake_lock, is only
best effort).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import time
import uuid
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from warehouse import storage
from warehouse.schema import SCHEMA_VERSION, SCHEMAS, TABLES, empty

READY = "READY"
STARTED = "STARTED"
FAILPOINT_ENV = "LISTBENCH_FAILPOINT"
REMOTE_STALE_SECONDS = 3600.0


def _failpoint(name: str) -> None:
    """Crash tests set LISTBENCH_FAILPOINT to a point name: the process dies there (SIGKILL)."""
    if os.environ.get(FAILPOINT_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)


def new_batch_id() -> str:
    return uuid.uuid4().hex[:20]


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _with_meta(table: pa.Table, name: str) -> pa.Table:
    meta = dict(table.schema.metadata or {})
    meta[b"listbench.schema_version"] = SCHEMA_VERSION.encode()
    meta[b"listbench.table"] = name.encode()
    return table.replace_schema_metadata(meta)


def write_parquet(table: pa.Table, path: Path, name: str) -> None:
    pq.write_table(_with_meta(table, name), path, compression="zstd")
    with open(path, "rb") as f:
        os.fsync(f.fileno())


class Lake:
    def __init__(self, root: Path | str, storage_options: dict[str, Any] | None = None,
                 stale_seconds: float = REMOTE_STALE_SECONDS) -> None:
        self.remote = storage.is_remote(root)
        self.stale_seconds = stale_seconds
        if self.remote:
            self.url = str(root).rstrip("/")
            self.fs, path = storage.filesystem(self.url, storage_options)
            self.root: Any = PurePosixPath(path)  # path inside self.fs
        else:
            self.fs = None
            self.root = Path(storage.local_path(str(root)))
            self.url = str(self.root)
        self.staging = self.root / "_staging"

    def table_dir(self, table: str) -> Any:
        return self.root / table

    def glob(self, table: str) -> str:
        if self.remote:
            return storage.join(self.url, table, "*.parquet")
        return str(self.table_dir(table) / "*.parquet")

    def open(self) -> Lake:
        """Create folders, an empty part per table (so globs always match), and recover."""
        for t in TABLES:
            d = self.table_dir(t)
            marker = d / "part-0000-empty.parquet"
            if self.remote:
                if not self.fs.exists(str(marker)):
                    self._put(empty(t), marker, t)  # one PUT: appears whole or not at all
                continue
            d.mkdir(parents=True, exist_ok=True)
            if not marker.exists():
                tmp = d / f".{marker.name}.tmp"
                write_parquet(empty(t), tmp, t)
                os.replace(tmp, marker)
        self.recover()
        return self

    def recover(self) -> list[str]:
        """Roll forward READY batches, drop incomplete ones. Returns the batch ids finished."""
        if self.remote:
            return self._recover_remote()
        done: list[str] = []
        if not self.staging.exists():
            return done
        for bdir in sorted(self.staging.iterdir()):
            if (bdir / READY).exists():
                self._publish(bdir)
                done.append(bdir.name)
            shutil.rmtree(bdir, ignore_errors=True)
        return done

    def commit(self, batch_id: str, tables: dict[str, pa.Table], replaces: dict[str, list[str]] | None = None) -> None:
        """Write all tables of a batch so that they appear together (see module doc).

        `replaces` names part files (per table) that the batch's files supersede
        (compaction); they are deleted after the new files are in place.
        """
        for name in tables:
            if name not in SCHEMAS:
                raise ValueError(f"unknown lake table {name!r}")
        if self.remote:
            return self._commit_remote(batch_id, tables, replaces)
        bdir = self.staging / batch_id
        bdir.mkdir(parents=True, exist_ok=True)
        written = []
        for name, tbl in tables.items():
            if tbl.num_rows == 0:
                continue
            write_parquet(tbl, bdir / f"{name}.parquet", name)
            written.append(name)
        _failpoint("commit:staged")
        (bdir / READY).write_text(json.dumps({"tables": written, "replaces": replaces or {}}))
        _fsync_dir(bdir)
        _failpoint("commit:ready")
        self._publish(bdir)
        shutil.rmtree(bdir, ignore_errors=True)

    def _publish(self, bdir: Path) -> None:
        manifest = _manifest((bdir / READY).read_text())
        for name in manifest.get("tables", []):
            src = bdir / f"{name}.parquet"
            dst = self.table_dir(name) / f"part-{bdir.name}.parquet"
            if src.exists():
                os.replace(src, dst)
            _fsync_dir(dst.parent)
            _failpoint("commit:published-one")
        _failpoint("commit:published")
        for name, files in (manifest.get("replaces") or {}).items():
            for f in files:
                (self.table_dir(name) / Path(f).name).unlink(missing_ok=True)
            _fsync_dir(self.table_dir(name))

    # --- remote (fsspec) side -------------------------------------------------------------

    def _put(self, table: pa.Table, path: PurePosixPath, name: str) -> None:
        with self.fs.open(str(path), "wb") as f:
            pq.write_table(_with_meta(table, name), f, compression="zstd")

    def _commit_remote(self, batch_id: str, tables: dict[str, pa.Table],
                       replaces: dict[str, list[str]] | None) -> None:
        bdir = self.staging / batch_id
        self.fs.pipe_file(str(bdir / STARTED), json.dumps({"at": time.time()}).encode())
        written = []
        for name, tbl in tables.items():
            if tbl.num_rows == 0:
                continue
            self._put(tbl, bdir / f"{name}.parquet", name)
            written.append(name)
        _failpoint("commit:staged")
        self.fs.pipe_file(str(bdir / READY), json.dumps({"tables": written, "replaces": replaces or {}}).encode())
        _failpoint("commit:ready")
        self._publish_remote(bdir)
        self._rm_tree(bdir)

    def _publish_remote(self, bdir: PurePosixPath) -> None:
        manifest = _manifest(self.fs.cat_file(str(bdir / READY)).decode())
        for name in manifest.get("tables", []):
            src = bdir / f"{name}.parquet"
            dst = self.table_dir(name) / f"part-{bdir.name}.parquet"
            try:
                self.fs.copy(str(src), str(dst))
            except FileNotFoundError:
                if not self.fs.exists(str(dst)):
                    raise
            _failpoint("commit:published-one")
        _failpoint("commit:published")
        for name, files in (manifest.get("replaces") or {}).items():
            for f in files:
                p = str(self.table_dir(name) / PurePosixPath(f).name)
                if self.fs.exists(p):
                    self.fs.rm_file(p)
        self.fs.invalidate_cache()

    def _recover_remote(self) -> list[str]:
        done: list[str] = []
        self.fs.invalidate_cache()
        try:
            batches = sorted(self.fs.ls(str(self.staging), detail=False))
        except FileNotFoundError:
            return done
        for b in batches:
            bdir = PurePosixPath(b)
            if self.fs.exists(str(bdir / READY)):
                self._publish_remote(bdir)
                done.append(bdir.name)
            elif not self._stale(bdir):
                continue  # maybe another machine's batch in flight
            self._rm_tree(bdir)
        return done

    def _stale(self, bdir: PurePosixPath) -> bool:
        try:
            started = float(json.loads(self.fs.cat_file(str(bdir / STARTED))).get("at", 0))
        except (FileNotFoundError, ValueError):
            return True
        return time.time() - started >= self.stale_seconds

    def _rm_tree(self, path: PurePosixPath) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.fs.rm(str(path), recursive=True)
        self.fs.invalidate_cache()

    # --- reading --------------------------------------------------------------------------

    def _files(self, table: str) -> list[Any]:
        if self.remote:
            self.fs.invalidate_cache()
            return sorted(PurePosixPath(p) for p in self.fs.glob(str(self.table_dir(table) / "*.parquet")))
        return sorted(self.table_dir(table).glob("*.parquet"))

    def _read_file(self, path: Any, columns: list[str] | None, schema: pa.Schema) -> pa.Table:
        if self.remote:
            return pq.read_table(str(path), columns=columns, schema=schema, filesystem=self.fs)
        return pq.read_table(path, columns=columns, schema=schema)

    def parts(self, table: str) -> list[Any]:
        """Committed part files with rows (the per-table empty marker excluded)."""
        return [p for p in self._files(table) if p.name.startswith("part-") and not p.name.startswith("part-0000-")]

    def compact(self, table: str, min_files: int = 2) -> tuple[int, int]:
        """Merge a table's parts into one (atomic; a crash leaves either the old parts or the new one).

        Returns (files before, files after).
        """
        parts = self.parts(table)
        if len(parts) < min_files:
            return len(parts), len(parts)
        merged = pa.concat_tables([self._read_file(p, None, SCHEMAS[table]) for p in parts],
                                  promote_options="permissive")
        self.commit(f"compact-{new_batch_id()}", {table: merged}, replaces={table: [p.name for p in parts]})
        return len(parts), len(self.parts(table))

    def read(self, table: str, columns: Iterable[str] | None = None) -> pa.Table:
        """Whole table (all committed parts); for keys and small tables."""
        cols = list(columns) if columns else None
        parts = [self._read_file(f, cols, _read_schema(table, cols)) for f in self._files(table)]
        if not parts:
            return empty(table).select(cols) if cols else empty(table)
        return pa.concat_tables(parts, promote_options="permissive")

    def column_set(self, table: str, column: str) -> set:
        return set(self.read(table, [column]).column(column).to_pylist())


def _manifest(text: str) -> dict[str, Any]:
    manifest = json.loads(text or "{}")
    return {"tables": manifest} if isinstance(manifest, list) else manifest


def _read_schema(table: str, cols: list[str] | None) -> pa.Schema:
    s = SCHEMAS[table]
    return pa.schema([s.field(c) for c in cols]) if cols else s

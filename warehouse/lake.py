"""The Parquet lake: the system of record, written as immutable, atomically committed parts.

A batch (one archive unit, usually) is first written completely under
`lake/_staging/<batch>/`, then marked READY, then each file is renamed into
`lake/<table>/part-<batch>.parquet`. A crash before READY leaves only staging
debris (deleted on next open); a crash after READY is rolled forward on next
open. Readers only glob `*.parquet` under the table folders, so they never see
half a file, and a batch's tables become visible together or are completed later.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import uuid
from collections.abc import Iterable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from warehouse.schema import SCHEMA_VERSION, SCHEMAS, TABLES, empty

READY = "READY"
FAILPOINT_ENV = "LISTBENCH_FAILPOINT"


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


def write_parquet(table: pa.Table, path: Path, name: str) -> None:
    meta = dict(table.schema.metadata or {})
    meta[b"listbench.schema_version"] = SCHEMA_VERSION.encode()
    meta[b"listbench.table"] = name.encode()
    pq.write_table(table.replace_schema_metadata(meta), path, compression="zstd")
    with open(path, "rb") as f:
        os.fsync(f.fileno())


class Lake:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.staging = self.root / "_staging"

    def table_dir(self, table: str) -> Path:
        return self.root / table

    def glob(self, table: str) -> str:
        return str(self.table_dir(table) / "*.parquet")

    def open(self) -> Lake:
        """Create folders, an empty part per table (so globs always match), and recover."""
        for t in TABLES:
            d = self.table_dir(t)
            d.mkdir(parents=True, exist_ok=True)
            marker = d / "part-0000-empty.parquet"
            if not marker.exists():
                tmp = d / f".{marker.name}.tmp"
                write_parquet(empty(t), tmp, t)
                os.replace(tmp, marker)
        self.recover()
        return self

    def recover(self) -> list[str]:
        """Roll forward READY batches, drop incomplete ones. Returns the batch ids finished."""
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
        bdir = self.staging / batch_id
        bdir.mkdir(parents=True, exist_ok=True)
        written = []
        for name, tbl in tables.items():
            if name not in SCHEMAS:
                raise ValueError(f"unknown lake table {name!r}")
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
        manifest = json.loads((bdir / READY).read_text() or "{}")
        if isinstance(manifest, list):
            manifest = {"tables": manifest}
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

    def parts(self, table: str) -> list[Path]:
        """Committed part files with rows (the per-table empty marker excluded)."""
        return sorted(p for p in self.table_dir(table).glob("part-*.parquet") if not p.name.startswith("part-0000-"))

    def compact(self, table: str, min_files: int = 2) -> tuple[int, int]:
        """Merge a table's parts into one (atomic; a crash leaves either the old parts or the new one).

        Returns (files before, files after).
        """
        parts = self.parts(table)
        if len(parts) < min_files:
            return len(parts), len(parts)
        merged = pa.concat_tables([pq.read_table(p, schema=SCHEMAS[table]) for p in parts], promote_options="permissive")
        self.commit(f"compact-{new_batch_id()}", {table: merged}, replaces={table: [p.name for p in parts]})
        return len(parts), len(self.parts(table))

    def read(self, table: str, columns: Iterable[str] | None = None) -> pa.Table:
        """Whole table (all committed parts); for keys and small tables."""
        files = sorted(self.table_dir(table).glob("*.parquet"))
        cols = list(columns) if columns else None
        parts = [pq.read_table(f, columns=cols, schema=_read_schema(table, cols)) for f in files]
        if not parts:
            return empty(table).select(cols) if cols else empty(table)
        return pa.concat_tables(parts, promote_options="permissive")

    def column_set(self, table: str, column: str) -> set:
        return set(self.read(table, [column]).column(column).to_pylist())


def _read_schema(table: str, cols: list[str] | None) -> pa.Schema:
    s = SCHEMAS[table]
    return pa.schema([s.field(c) for c in cols]) if cols else s

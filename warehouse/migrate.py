"""Converting a lake of the earlier layout (Parquet parts, READY markers) to Delta tables, once.

The earlier layout: `<lake>/<table>/part-<batch>.parquet` plus an empty `part-0000-empty.parquet`
per table, batches in flight under `<lake>/_staging/<batch>/` (complete when a `READY` manifest
is there), and on object storage a writer marker under `<lake>/_lock/`.

`Lake.open` runs this whenever the lake has no `batches` table yet (a new lake too: then there
is nothing to convert). Each step can be re-run after a crash:

1. a READY staging batch is published the old way (its files moved to their final names), an
   incomplete one is dropped, as the earlier code's recovery did;
2. each table without a Delta log gets one, written from all its parts in one Delta commit
   (columns added since a part was written read as NULL); then its old parts are deleted;
3. last, `batches` is created holding every batch id found, which makes the rows visible.
   Until then nothing of the lake is visible, so a crash part-way loses and doubles nothing.
"""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from deltalake import DeltaTable, write_deltalake

from warehouse import storage
from warehouse.lake import WRITER, Lake, _conform, _props
from warehouse.schema import BATCHES, TABLES, empty, partial_row, to_table

READY = "READY"
_OLD_PART = re.compile(r"part-[A-Za-z0-9_.-]+\.parquet")
_DELTA_PART = re.compile(r"part-\d{5}-[0-9a-f-]{36}-c\d{3}(\.[a-z0-9]+)?\.parquet")


def _fs(lake: Lake) -> tuple[Any, str]:
    fs, root = storage.filesystem(lake.url, lake.storage_options)
    return fs, root.rstrip("/")


def old_parts(fs: Any, folder: str) -> list[str]:
    """Parquet files of the earlier layout in a table folder (not Delta's own files)."""
    try:
        names = fs.ls(folder, detail=False)
    except FileNotFoundError:
        return []
    out = []
    for p in names:
        name = p.rstrip("/").rsplit("/", 1)[-1]
        if _OLD_PART.fullmatch(name) and not _DELTA_PART.fullmatch(name):
            out.append(p)
    return sorted(out)


def old_layout(lake: Lake) -> bool:
    fs, root = _fs(lake)
    fs.invalidate_cache()
    return fs.exists(f"{root}/_staging") or any(old_parts(fs, f"{root}/{t}") for t in TABLES)


def migrate(lake: Lake) -> dict[str, int]:
    """Convert (or create) every table, then `batches`. Returns rows converted per table."""
    fs, root = _fs(lake)
    fs.invalidate_cache()
    command = "migrate" if old_layout(lake) else "create"
    _finish_staging(fs, root)
    rows: dict[str, int] = {}
    batch_ids: set[str] = set()
    for t in TABLES:
        folder = f"{root}/{t}"
        parts = old_parts(fs, folder)
        if not DeltaTable.is_deltatable(lake.uri(t), storage_options=lake.options):
            tbl = _read_parts(fs, parts, t)
            _write_new(lake, t, tbl, command)
            rows[t] = tbl.num_rows
        for p in parts:  # converted (now or by an earlier, interrupted run)
            with contextlib.suppress(FileNotFoundError):
                fs.rm_file(p)
        ids = lake.table(t).to_pyarrow_table(columns=["batch_id"]).column("batch_id")
        batch_ids |= set(pc.unique(ids).to_pylist()) - {None}
    with contextlib.suppress(FileNotFoundError):
        fs.rm(f"{root}/_lock", recursive=True)
    record = to_table(BATCHES, [partial_row(BATCHES, batch_id=b, command=command) for b in sorted(batch_ids)])
    _write_new(lake, BATCHES, record, command)
    return rows


def _write_new(lake: Lake, name: str, tbl: pa.Table, command: str) -> None:
    """Create a Delta table holding `tbl` in its first commit; another process doing the same at
    the same moment wins or loses as a whole."""
    if DeltaTable.is_deltatable(lake.uri(name), storage_options=lake.options):
        return
    try:
        write_deltalake(lake.uri(name), tbl, mode="error", storage_options=lake.options, writer_properties=WRITER,
                        commit_properties=_props({"command": command}))
    except Exception:
        if not DeltaTable.is_deltatable(lake.uri(name), storage_options=lake.options):
            raise


def _read_parts(fs: Any, parts: list[str], table: str) -> pa.Table:
    tables = []
    for p in parts:
        with fs.open(p, "rb") as f:
            t = pq.read_table(f)
        if t.num_rows:
            tables.append(_conform(t, table, None))
    return pa.concat_tables(tables) if tables else empty(table)


def _finish_staging(fs: Any, root: str) -> None:
    """The earlier recovery: publish READY batches, drop the others."""
    staging = f"{root}/_staging"
    try:
        batches = sorted(fs.ls(staging, detail=False))
    except FileNotFoundError:
        return
    for bdir in batches:
        bdir = bdir.rstrip("/")
        batch = bdir.rsplit("/", 1)[-1]
        if fs.exists(f"{bdir}/{READY}"):
            manifest = json.loads(fs.cat_file(f"{bdir}/{READY}").decode() or "{}")
            if isinstance(manifest, list):
                manifest = {"tables": manifest}
            for name in manifest.get("tables", []):
                src, dst = f"{bdir}/{name}.parquet", f"{root}/{name}/part-{batch}.parquet"
                if fs.exists(src) and not fs.exists(dst):
                    fs.copy(src, dst)
            for name, files in (manifest.get("replaces") or {}).items():
                for f in files:
                    with contextlib.suppress(FileNotFoundError):
                        fs.rm_file(f"{root}/{name}/{f.rsplit('/', 1)[-1]}")
        with contextlib.suppress(FileNotFoundError):
            fs.rm(bdir, recursive=True)
    with contextlib.suppress(FileNotFoundError, OSError):
        fs.rm(staging, recursive=True)

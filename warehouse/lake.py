"""The lake: one Delta Lake table per lake table (delta-rs), plus `batches`, the record of commits.

Delta commits are atomic per table, while one batch (an archive unit, a re-extraction) writes
several tables. So a batch is committed in two steps:

1. each table's rows are appended (one Delta commit per table, carrying the batch id in its
   commit metadata); they are not visible yet, because
2. a row in `batches` is what commits the batch: every reader of this
   module and the DuckDB views (warehouse.db) show only rows whose batch_id is in `batches`.

A crash before step 2 leaves rows nobody sees (the next `recover`, run by `compact`, deletes
them once they are older than `stale_seconds`, since a younger one may be a writer in flight on
another machine); a crash after it leaves the whole batch. A re-run reads the visible keys only,
so it loads what the crashed run did not.

Several writers at once (processes, machines): appends never conflict. Every append to `batches`
advances one Delta application transaction (`txn` action, app id APP_ID), so Delta's conflict
check refuses it when another batch was committed since the version it was based on; the
writer then looks at the batches committed meanwhile, drops its own rows of messages one of
them already added (the same source ingested twice at once), and tries again. Batch commits are
thus serialised by the format itself, on a local folder and on S3 (delta-rs with a conditional
PUT, see warehouse.storage.delta_options); there is no lock and no marker file.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import socket
import time
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.fs as pa_fs
from deltalake import (
    CommitProperties,
    DeltaTable,
    PostCommitHookProperties,
    Transaction,
    WriterProperties,
    write_deltalake,
)
from deltalake.exceptions import CommitFailedError, TableNotFoundError

from warehouse import storage
from warehouse.schema import BATCHES, SCHEMAS, TABLES

FAILPOINT_ENV = "LISTBENCH_FAILPOINT"
STALE_SECONDS = 3600.0  # an uncommitted batch younger than this may still be in flight
COMMIT_ATTEMPTS = 200
APP_ID = "listbench-batches"  # the Delta application transaction every batch commit advances
META = "listbench."  # prefix of our keys in Delta commit metadata
_BATCH_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")
# tables whose rows belong to one message: a message claimed by another batch drops them all
_PER_MESSAGE = ("messages", "message_bodies", "extractions", "runs", "results", "quarantine")
WRITER = WriterProperties(compression="ZSTD")
COMPACT_AFTER_PARTS = 64  # queries slow down ~6x at ~800 files per table (bench/queries.py)
APPEND_THREADS = 8  # tables of one batch appended at once
# Appends checkpoint every 100 versions (Delta's default) but leave expired log entries to
# `vacuum`: looking for them after every commit cost about a third of an append.
AFTER_APPEND = PostCommitHookProperties(create_checkpoint=True, cleanup_expired_logs=False)


class LakeError(Exception):
    """The lake cannot be opened or written (one clear line for the user)."""


def _failpoint(name: str) -> None:
    """Crash tests set LISTBENCH_FAILPOINT to a point name: the process dies there (SIGKILL)."""
    if os.environ.get(FAILPOINT_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)


def new_batch_id() -> str:
    """20 hex digits: the creation second, then randomness (orphans' age is read from it)."""
    return f"{int(time.time()):08x}{uuid.uuid4().hex[:12]}"


def batch_age(batch_id: str, now: float | None = None) -> float | None:
    """Seconds since a batch id from `new_batch_id` was made; None for other ids."""
    if len(batch_id) != 20 or not all(c in "0123456789abcdef" for c in batch_id):
        return None
    return (now or time.time()) - int(batch_id[:8], 16)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What readers see at one moment: committed batch ids and each table's data files."""

    version: int  # of `batches`: the lake's version
    committed_at: datetime | None
    batches: frozenset[str]
    files: dict[str, list[str]]  # data files of committed batches only, one batch each: read as they are
    versions: dict[str, int]
    mixed: dict[str, list[str]] = field(default_factory=dict)  # files of several batches (optimize): rows filtered


def _props(meta: dict[str, str]) -> CommitProperties:
    return CommitProperties(custom_metadata={META + k: v for k, v in meta.items() if v is not None})


class Lake:
    def __init__(self, root: Path | str, storage_options: dict[str, Any] | None = None,
                 stale_seconds: float = STALE_SECONDS) -> None:
        self.remote = storage.is_remote(root)
        self.stale_seconds = stale_seconds
        if self.remote:
            self.url = str(root).rstrip("/")
            self.storage_options: dict[str, Any] = dict(storage_options or {})  # the config's [storage]
            self.options: dict[str, str] | None = storage.delta_options(self.url, self.storage_options)
        else:
            self.root = Path(storage.local_path(str(root)))
            self.url = str(self.root.resolve())
            self.storage_options = {}
            self.options = None
        if not self.remote and ("[" in self.url or "]" in self.url):
            # delta-rs names each local table's store by its path as a host name (delta-rs 1.6)
            raise LakeError(f"the lake folder {self.url} has a '[' or ']', which Delta Lake (delta-rs) "
                            "cannot open; choose a data_dir without them")
        self._tables: dict[str, DeltaTable] = {}
        self._committed: set[str] = set()
        self._mine: set[str] = set()
        self.on_commit: list[Callable[[Lake], None]] = []
        self.views: Any = None  # the views file's refresher a writer attaches (warehouse.db.Refresher)
        self.retries = 0  # conflicting batch commits retried by this process (for the benchmarks)
        self.command = "ingest"
        self.run: str | None = None

    # --- tables ---------------------------------------------------------------------------

    def uri(self, table: str) -> str:
        """The table as delta-rs is given it."""
        return storage.join(self.url, table)

    def _file(self, uri: str) -> str:
        """A data file as readers name it (delta-rs gives local paths %-encoded)."""
        if self.remote:
            return uri
        return unquote(uri[len("file://"):] if uri.startswith("file://") else uri)

    def table(self, name: str, update: bool = True) -> DeltaTable:
        """The table at its newest version (kept open, brought up to date incrementally); with
        `update=False`, as this handle last saw it (opened now if it was not open)."""
        dt = self._tables.get(name)
        if dt is None:
            try:
                dt = DeltaTable(self.uri(name), storage_options=self.options)
            except TableNotFoundError:
                raise LakeError(f"no lake table {name!r} at {self.uri(name)}: open the lake first") from None
            self._tables[name] = dt
        elif update:
            dt.update_incremental()
        return dt

    def exists(self) -> bool:
        return DeltaTable.is_deltatable(self.uri(BATCHES), storage_options=self.options)

    def open(self) -> Lake:
        """Create a new lake's tables, or convert a lake of the earlier layout (warehouse.migrate);
        both end by creating `batches`, whose presence means the lake is ready."""
        if not self.exists():
            from warehouse import migrate

            migrate.migrate(self)
        self.mark_known()
        return self

    def mark_known(self) -> None:
        """The caller is about to read the keys it will skip (what makes a re-run add nothing):
        its next batches are checked against every batch committed after this moment."""
        self._committed = self.committed()

    def committed(self, dt: DeltaTable | None = None) -> set[str]:
        """Ids of the committed batches (at `dt`'s version, or the newest)."""
        dt = dt if dt is not None else self.table(BATCHES)
        return committed_ids(dt, self.options)

    # --- writing --------------------------------------------------------------------------

    def commit(self, batch_id: str, tables: dict[str, pa.Table], *,
               command: str | None = None, run: str | None = None, source: str | None = None) -> bool:
        """Append a batch's tables, then commit the batch (module doc). Idempotent on batch_id:
        a batch already committed is not written again. Returns whether rows were committed."""
        if not _BATCH_ID.fullmatch(batch_id):
            raise ValueError(f"bad batch id {batch_id!r}")
        for name in tables:
            if name not in SCHEMAS:
                raise ValueError(f"unknown lake table {name!r}")
        if batch_id in self._committed or batch_id in self._mine:
            return False
        tables = {n: _stamp(t, batch_id) for n, t in tables.items() if t.num_rows}
        meta = {"batch": batch_id, "command": command or self.command, "run": run or self.run,
                "source": source, "host": socket.gethostname(), "pid": str(os.getpid())}
        self._append_all(tables, meta)
        _failpoint("commit:staged")
        self._publish(batch_id, tables, meta)
        _failpoint("commit:published")
        for cb in self.on_commit:
            cb(self)
        return True

    def _append_all(self, tables: dict[str, pa.Table], meta: dict[str, str]) -> None:
        """Append a batch's tables at once (see _per_table): they are invisible until the batch
        row, so their order does not matter."""
        self._per_table({n: (lambda n=n, t=t: self._append(n, t, meta)) for n, t in tables.items()},
                        lambda: _failpoint("commit:appended-one"))

    def _per_table(self, work: dict[str, Callable[[], None]], first_done: Callable[[], None] | None = None) -> None:
        """Run one piece of work per table at once, one thread each (delta-rs writes and commits
        without the GIL). Every piece ends before this returns; the first error is raised then,
        so nothing after it (the batch row) runs. `first_done` runs when the first piece ends."""
        for name in work:  # open every handle here: a thread only brings its own up to date
            self.table(name, update=False)
        if len(work) < 2:
            for fn in work.values():
                fn()
                if first_done is not None:
                    first_done()
            return
        with ThreadPoolExecutor(max_workers=min(len(work), APPEND_THREADS)) as pool:
            futures = [pool.submit(fn) for fn in work.values()]
            for i, fut in enumerate(as_completed(futures)):
                fut.exception()  # wait for it; errors are raised below, once all have ended
                if i == 0 and first_done is not None:
                    first_done()
        for fut in futures:
            fut.result()

    def _append(self, name: str, tbl: pa.Table, meta: dict[str, str]) -> None:
        data = tbl.cast(SCHEMAS[name]) if tbl.schema != SCHEMAS[name] else tbl
        _retrying(lambda: write_deltalake(self.table(name), data, mode="append", schema_mode="merge",
                                          writer_properties=WRITER, commit_properties=_props(meta),
                                          post_commithook_properties=AFTER_APPEND))

    def _publish(self, batch_id: str, tables: dict[str, pa.Table], meta: dict[str, str]) -> None:
        """Append the batch row to `batches` as the next step of the lake's own Delta application
        transaction (`txn` app id): of two writers committing from the same version, Delta lets
        one through and refuses the other, which then drops what the winner claimed and retries."""
        rows = {n: t.num_rows for n, t in tables.items()}
        for attempt in range(COMMIT_ATTEMPTS):
            dt = self.table(BATCHES)  # one snapshot for the check and the commit
            foreign = self.committed(dt) - self._committed - self._mine
            if foreign:
                tables = self._drop_claimed(batch_id, tables, foreign, meta)
                rows = {n: t.num_rows for n, t in tables.items()}
            seq = (dt.transaction_version(APP_ID) or 0) + 1
            props = CommitProperties(custom_metadata={META + k: v for k, v in
                                                      {**meta, "rows": _rows_text(rows)}.items() if v is not None},
                                     app_transactions=[Transaction(APP_ID, seq)])
            try:
                write_deltalake(dt, _batch_row(batch_id, meta, rows), mode="append", commit_properties=props,
                                writer_properties=WRITER, post_commithook_properties=AFTER_APPEND)
            except CommitFailedError:
                self.retries += 1
                time.sleep(random.uniform(0.005, 0.05) * min(attempt + 1, 10))
                continue
            self._mine.add(batch_id)
            return
        raise LakeError(f"batch {batch_id}: {COMMIT_ATTEMPTS} conflicting commits in a row; try again")

    def _drop_claimed(self, batch_id: str, tables: dict[str, pa.Table], foreign: set[str],
                      meta: dict[str, str]) -> dict[str, pa.Table]:
        """Rows of this (uncommitted) batch that batches committed meanwhile already hold."""
        value_set = pa.array(sorted(foreign), pa.string())
        taken: set[str] = set()
        if "messages" in tables:
            theirs = self._rows("messages", ["message_id"], pc.field("batch_id").isin(value_set), foreign)
            taken = set(theirs.column("message_id").to_pylist()) & set(tables["messages"].column("message_id").to_pylist())
        pairs: set[tuple[str, str]] = set()
        if "memberships" in tables:
            theirs = self._rows("memberships", ["message_id", "list_name"], pc.field("batch_id").isin(value_set),
                                foreign)
            pairs = set(zip(theirs.column("message_id").to_pylist(), theirs.column("list_name").to_pylist(), strict=True))
        if not taken and not pairs:
            return tables
        kept: dict[str, pa.Table] = {}
        for name, tbl in tables.items():
            if name in _PER_MESSAGE and taken:
                tbl = tbl.filter(pc.invert(pc.fill_null(pc.is_in(tbl.column("message_id"),
                                                                 pa.array(sorted(taken), pa.string())), False)))
            if name == "memberships":  # a claimed message keeps its membership of this list
                keep = [(m, ln) not in pairs
                        for m, ln in zip(tbl.column("message_id").to_pylist(), tbl.column("list_name").to_pylist(),
                                         strict=True)]
                tbl = tbl.filter(pa.array(keep, pa.bool_()))
            kept[name] = tbl
        def rewrite(name: str) -> None:  # this batch's rows of the table, without the claimed ones
            _retrying(lambda: self.table(name).delete(
                f"batch_id = '{batch_id}'", commit_properties=_props({**meta, "command": "dedupe"})))
            if kept[name].num_rows:
                self._append(name, kept[name], meta)

        self._per_table({n: (lambda n=n: rewrite(n)) for n, t in tables.items() if kept[n].num_rows != t.num_rows})
        return {n: t for n, t in kept.items() if t.num_rows}

    # --- reading --------------------------------------------------------------------------

    def _rows(self, table: str, columns: list[str] | None, where: Any = None,
              batches: set[str] | None = None) -> pa.Table:
        """Rows matching `where`; `batches`: only files whose statistics allow rows of these
        batches are opened (a batch's appends are files of their own)."""
        dt = self.table(table)
        prune = [("batch_id", "in", sorted(batches))] if batches else None
        ds = dt.to_pyarrow_dataset(file_pruning_predicate=prune, filesystem=table_filesystem(dt, self.options))
        return ds.to_table(columns=columns, filter=where)

    def read(self, table: str, columns: Iterable[str] | None = None) -> pa.Table:
        """The table's visible rows (committed batches only)."""
        cols = list(columns) if columns else None
        want = cols if cols is None or "batch_id" in cols else [*cols, "batch_id"]
        if table == BATCHES:
            return self._rows(table, cols)
        tbl = self._rows(table, want, pc.field("batch_id").isin(pa.array(sorted(self.committed()), pa.string())))
        tbl = _conform(tbl, table, want)
        return tbl.select(cols) if cols else tbl

    def column_set(self, table: str, column: str) -> set:
        return set(self.read(table, [column]).column(column).to_pylist())

    def parts(self, table: str) -> list[str]:
        """The data files of the table's current version."""
        return [self._file(u) for u in self.table(table).file_uris()]

    def snapshot(self, as_of: int | datetime | None = None, update: bool = True) -> Snapshot:
        """Committed batches, then every table's file list: a consistent view (rows of batches
        committed after the first read are in the files but filtered out). `update=False` takes
        the handles as they are: the caller brought `batches` up to date before the tables."""
        if as_of is None:
            b = self.table(BATCHES, update)
        else:
            b = DeltaTable(self.uri(BATCHES), storage_options=self.options)
            point = as_of if isinstance(as_of, int) else _version_at(b, as_of)
            try:
                if point is None:
                    raise LakeError("no commit at or before that time")
                b.load_as_version(point)
            except Exception as exc:
                raise LakeError(f"the lake has no version {as_of}: {str(exc).splitlines()[0]}") from None
        ts = b.history(1)[0].get("timestamp") if as_of is not None else None
        when = datetime.fromtimestamp(ts / 1000, UTC) if ts else None
        batches = frozenset(committed_ids(b, self.options))
        files, versions, mixed = {}, {}, {}
        for name in TABLES:
            if as_of is None:
                dt = self.table(name, update)
            else:
                dt = DeltaTable(self.uri(name), storage_options=self.options)
                v = _version_at(dt, when) if when else None
                with contextlib.suppress(Exception):  # a table created after `when` keeps version 0
                    dt.load_as_version(v if v is not None else 0)
            files[name], mixed[name] = self._visible_files(dt, batches)
            versions[name] = dt.version()
        return Snapshot(b.version(), when, batches, files, versions, mixed)

    def _visible_files(self, dt: DeltaTable, batches: frozenset[str]) -> tuple[list[str], list[str]]:
        """(files whose rows are all of one committed batch, files whose rows must be filtered).

        A batch's appends are files of their own, and Delta's file statistics give each file's
        lowest and highest batch id: a file of one batch is shown whole or not at all, so readers
        need no row filter. Only files that optimize merged (several batches), or that have no
        statistics, are filtered row by row."""
        by_name = {unquote(u.rsplit("/", 1)[-1]): u for u in dt.file_uris()}  # tables are not partitioned
        clean: list[str] = []
        mixed: list[str] = []
        for path, _, a, b in file_batches(dt):
            name = self._file(by_name[unquote(path.rsplit("/", 1)[-1])])
            if a is not None and a == b:
                if a in batches:
                    clean.append(name)
            else:
                mixed.append(name)
        return clean, mixed

    # --- maintenance ----------------------------------------------------------------------

    def compact_fragmented(self, limit: int = COMPACT_AFTER_PARTS) -> list[str]:
        """Optimize each table whose files pass `limit` (0: never), as one file per unit adds up
        over months; the tables optimized."""
        done = [t for t in (*TABLES, BATCHES) if limit and len(self.parts(t)) > limit]
        for t in done:
            self.compact(t)
        return done

    def compact(self, table: str, min_files: int = 2, z_order: bool = False) -> tuple[int, int]:
        """Optimize: merge small files (optionally z-ordered by benchmark). (files before, after)."""
        before = len(self.parts(table))
        if before < min_files and not z_order:
            return before, before
        dt = self.table(table)
        props = _props({"command": "compact", "host": socket.gethostname()})
        if z_order and "benchmark" in SCHEMAS[table].names:
            dt.optimize.z_order(["benchmark"], commit_properties=props, writer_properties=WRITER)
        else:
            dt.optimize.compact(commit_properties=props, writer_properties=WRITER)
        return before, len(self.parts(table))

    def vacuum(self, retention_days: float) -> dict[str, int]:
        """Delete files no version younger than the retention needs (time travel stays possible
        that far back). Returns files deleted per table."""
        hours = max(0, int(retention_days * 24))
        out = {}
        for name in (*TABLES, BATCHES):
            dt = self.table(name)
            gone = dt.vacuum(retention_hours=hours, dry_run=False, enforce_retention_duration=False,
                             commit_properties=_props({"command": "vacuum"}))
            out[name] = len(gone)
            dt.cleanup_metadata()  # log entries a checkpoint holds, past the log's retention (see AFTER_APPEND)
        return out

    def recover(self) -> dict[str, int]:
        """Delete rows of batches never committed (a crashed writer) once older than stale_seconds.

        Returns rows deleted per table."""
        committed = self.committed()
        now = time.time()
        out: dict[str, int] = {}
        for name in TABLES:
            ids = set(pc.unique(self._rows(name, ["batch_id"]).column("batch_id")).to_pylist()) - committed - {None}
            dead = [b for b in ids if self._abandoned(name, b, now)]
            if not dead:
                continue
            quoted = ", ".join(f"'{b}'" for b in dead if _BATCH_ID.fullmatch(b))
            got = _retrying(lambda n=name, q=quoted: self.table(n).delete(
                f"batch_id IN ({q})", commit_properties=_props({"command": "recover"})))
            out[name] = int(got.get("num_deleted_rows", 0))
        return out

    def _abandoned(self, table: str, batch_id: str, now: float) -> bool:
        """Older than stale_seconds, or written by a process of this host that is gone."""
        age = batch_age(batch_id, now)
        if age is not None and age >= self.stale_seconds:
            return True
        for h in self.table(table).history():
            if h.get(META + "batch") == batch_id:
                if h.get(META + "host") == socket.gethostname() and not _alive(h.get(META + "pid")):
                    return True
                age = now - h["timestamp"] / 1000 if age is None else age
                break
        return age is None or age >= self.stale_seconds

    def history(self, limit: int | None = None) -> list[dict[str, Any]]:
        """Commits of the lake, newest first: batches (with rows added per table) and the
        maintenance commits (compact, vacuum, recover) of every table."""
        out: list[dict[str, Any]] = []
        for h in self.table(BATCHES).history(limit):
            if not h.get(META + "batch"):
                continue
            out.append({"version": h["version"], "at": _ts(h["timestamp"]), "command": h.get(META + "command"),
                        "run": h.get(META + "run"), "batch": h.get(META + "batch"), "source": h.get(META + "source"),
                        "added": h.get(META + "rows") or "", "removed": ""})
        maint: dict[tuple[str, int], dict[str, Any]] = {}
        for name in TABLES:
            for h in self.table(name).history(limit):
                cmd = h.get(META + "command") or ("vacuum" if h.get("operation") == "VACUUM END" else None)
                if cmd not in ("compact", "recover", "dedupe", "migrate", "vacuum"):
                    continue
                m = h.get("operationMetrics") or {}
                if cmd == "migrate":
                    note = f"{name}+{m.get('num_added_rows', 0)}"
                elif m.get("num_deleted_rows"):
                    note = f"{name}-{m['num_deleted_rows']}"
                else:
                    files = m.get("numFilesRemoved") or m.get("numDeletedFiles") or 0
                    note = f"{name}: {files} files" if files else ""
                if not note:
                    continue
                key = (cmd, int(h["timestamp"]) // 60000)
                e = maint.setdefault(key, {"version": None, "at": _ts(h["timestamp"]), "command": cmd, "run": None,
                                           "batch": None, "source": None, "added": "", "removed": ""})
                col = "added" if cmd == "migrate" else "removed"
                e[col] = ", ".join(x for x in (e[col], note) if x)
        out += list(maint.values())
        out.sort(key=lambda e: e["at"], reverse=True)
        return out[:limit] if limit else out


_IDS_CACHE: dict[tuple[str, str], list[str]] = {}  # (table, file) -> its batch ids; files never change


def table_filesystem(dt: DeltaTable, options: dict[str, str] | None = None) -> pa_fs.FileSystem:
    """The files of a table as pyarrow reads them: a local table through pyarrow's own file
    system; a remote one through delta-rs's handler. The handler is Python code that pyarrow's
    I/O threads call back into, and a process that used it could abort at exit (`terminate
    called without an active exception`), so local reads, the common case, never use it."""
    uri = dt.table_uri
    if uri.startswith("file://") or "://" not in uri:
        root = unquote(uri[len("file://"):]) if uri.startswith("file://") else uri
        return pa_fs.SubTreeFileSystem(root.rstrip("/") or "/", pa_fs.LocalFileSystem())
    from deltalake.fs import DeltaStorageHandler

    return pa_fs.PyFileSystem(DeltaStorageHandler(uri, options))


def file_batches(dt: DeltaTable) -> list[tuple[str, int, str | None, str | None]]:
    """(path, rows, lowest batch id, highest batch id) of each data file, from the Delta log's
    file statistics alone (no data file is opened)."""
    # read as a stream: `pa.table` of a foreign table imports pandas to ask whether it is a frame
    acts = pa.RecordBatchReader.from_stream(dt.get_add_actions(flatten=True)).read_all()
    if not acts.num_rows:
        return []
    paths, rows = acts.column("path").to_pylist(), acts.column("num_records").to_pylist()
    has_stats = "min.batch_id" in acts.column_names
    lo = acts.column("min.batch_id").to_pylist() if has_stats else [None] * len(paths)
    hi = acts.column("max.batch_id").to_pylist() if has_stats else [None] * len(paths)
    return list(zip(paths, rows, lo, hi, strict=True))


def committed_ids(dt: DeltaTable, options: dict[str, str] | None = None) -> set[str]:
    """The batch ids in a version of `batches`. Each commit adds a one-row file whose id the
    log's file statistics already hold; a file of several rows (optimize, migration) is read
    once per process. So a commit does not open every small file of the table."""
    out: set[str] = set()
    for path, n, a, b in file_batches(dt):
        if n == 0:
            continue
        if n == 1 and a is not None and a == b:
            out.add(a)
            continue
        key = (dt.table_uri, path)
        if key not in _IDS_CACHE:
            import pyarrow.parquet as pq

            fs = table_filesystem(dt, options)
            _IDS_CACHE[key] = pq.read_table(path, columns=["batch_id"], filesystem=fs).column("batch_id").to_pylist()
        out.update(x for x in _IDS_CACHE[key] if x is not None)
    return out


def _retrying(op: Callable[[], Any]) -> Any:
    """Run a commit again when a concurrent one got in first (it re-reads the newest version:
    every caller fetches its table through Lake.table inside `op`)."""
    for attempt in range(COMMIT_ATTEMPTS):
        try:
            return op()
        except CommitFailedError:
            if attempt == COMMIT_ATTEMPTS - 1:
                raise
            time.sleep(random.uniform(0.005, 0.05) * min(attempt + 1, 10))
    return None


def _version_at(dt: DeltaTable, when: datetime) -> int | None:
    """The table's last version committed at or before `when`, by the commit timestamps the log
    records (the ones `history` prints). Delta's own time travel by datetime compares log files'
    modification times, which trail those timestamps by the write's duration: a point read off
    `history` could fall just before the commit it names."""
    ms = when.timestamp() * 1000
    done = [h["version"] for h in dt.history() if h.get("timestamp") is not None and h["timestamp"] <= ms]
    return max(done) if done else None


def _ts(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def _alive(pid: Any) -> bool:
    try:
        os.kill(int(pid), 0)
    except (ProcessLookupError, ValueError, TypeError):
        return False
    except PermissionError:
        return True
    return True


def _stamp(tbl: pa.Table, batch_id: str) -> pa.Table:
    """Every row of a batch carries its id (visibility is decided by it)."""
    col = pa.array([batch_id] * tbl.num_rows, pa.string())
    i = tbl.schema.get_field_index("batch_id")
    return tbl.set_column(i, "batch_id", col) if i >= 0 else tbl.append_column("batch_id", col)


def _rows_text(rows: dict[str, int]) -> str:
    return ", ".join(f"{n}+{k}" for n, k in rows.items())


def _batch_row(batch_id: str, meta: dict[str, str], rows: dict[str, int]) -> pa.Table:
    from warehouse.schema import to_table

    return to_table(BATCHES, [{"batch_id": batch_id, "committed_at": datetime.now(UTC), "command": meta.get("command"),
                               "run": meta.get("run"), "source": meta.get("source"), "host": meta.get("host"),
                               "rows": rows}])


def _conform(tbl: pa.Table, table: str, cols: list[str] | None) -> pa.Table:
    """Columns in the schema's order and types (files written before a column existed lack it)."""
    schema = SCHEMAS[table] if not cols else pa.schema([SCHEMAS[table].field(c) for c in cols])
    arrays = []
    for f in schema:
        if f.name in tbl.column_names:
            col = tbl.column(f.name)
            arrays.append(col if col.type == f.type else col.cast(f.type))
        else:
            arrays.append(pa.nulls(tbl.num_rows, f.type))
    return pa.Table.from_arrays(arrays, schema=schema)

"""The ingest steps as plain functions, one archive unit (or one part of it) at a time: list a
source's units, fetch one, decode and extract it part by part, validate and load parts.

flows.pipeline puts them in order; flows.tasks runs each as a Prefect task of the flow run.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from flows.archives import kind_for, permalink_base
from flows.archives.base import FetchContext, Fetched, Unit, UnitError
from flows.config import Config, Source
from flows.keyset import KeySet, digest
from flows.knownhint import DigestLog, KnownHint
from flows.summary import IngestSummary
from transforms.mbox import Skipped
from transforms.records import Records, add_membership
from warehouse.lake import Lake, new_batch_id
from warehouse.schema import to_table

log = logging.getLogger("listbench.ingest")


@dataclass(slots=True)
class UnitStats:
    source: str
    unit: str
    status: str
    messages: int = 0
    messages_added: int = 0
    skipped: int = 0  # messages whose work in this run failed (a known one's is decoding only)
    runs: int = 0
    results: int = 0
    quarantined: int = 0
    error: str | None = None
    skipped_reasons: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class Known:
    """Keys already in the lake: what makes a re-run add nothing.

    `Known.load(lake)` reads them on first use, so a run whose units are all unchanged never
    reads the lake's message ids (they grow with the lake). They are held as digests
    (flows.keyset), ~32 bytes a message: a big unit's ids do not grow the run's memory much."""

    __slots__ = ("_ids", "_memberships", "_lake", "_log")

    def __init__(self, message_ids: Iterable[str] | None = None,
                 memberships: Iterable[tuple[str, str]] | None = None, lake: Lake | None = None) -> None:
        self._ids = None if message_ids is None else KeySet(message_ids)
        self._memberships = None if memberships is None else KeySet(_pair(m, ln) for m, ln in memberships)
        self._lake = lake
        self._log: DigestLog | None = None  # the digests file behind hints for other processes

    @classmethod
    def load(cls, lake: Lake) -> Known:
        return cls(lake=lake)

    def _read(self) -> None:
        lake, self._lake = self._lake, None
        self._ids, self._memberships = KeySet(), KeySet()
        if lake is None:
            return
        lake.mark_known()  # what a concurrent writer commits after this is checked at commit
        for batch in lake.read("messages", ["message_id"]).to_batches(65536):
            for mid in batch.column(0).to_pylist():
                self._ids.add(digest(mid))
        for batch in lake.read("memberships", ["message_id", "list_name"]).to_batches(65536):
            for mid, ln in zip(batch.column(0).to_pylist(), batch.column(1).to_pylist(), strict=True):
                self._memberships.add(digest(_pair(mid, ln)))

    def _keys(self) -> tuple[KeySet, KeySet]:
        if self._ids is None or self._memberships is None:
            self._read()
        return self._ids, self._memberships  # type: ignore[return-value]

    @property
    def message_ids(self) -> frozenset[bytes]:
        """Digests of the known message ids (to compare two Knowns)."""
        return self._keys()[0].digests()

    @property
    def memberships(self) -> frozenset[bytes]:
        """Digests of the known (message id, list) pairs."""
        return self._keys()[1].digests()

    def __reduce__(self) -> tuple[Any, ...]:  # shipped loaded: a worker has no lake to read
        return (_known_of, self._keys())

    def hint(self, shared: bool, folder: str | None = None) -> KnownHint | None:
        """The message ids known now, for the workers of the next batch to skip extracting
        (flows.knownhint): the keys themselves in this process, a digests file (in `folder`, or
        the temporary one) for `shared` ones; None while nothing is known. Only a hint: which
        messages are new is still decided here, by `accept`."""
        ids = self._keys()[0]
        if not shared:
            return KnownHint(local=ids) if ids else None
        if self._log is None:
            if not ids:
                return None
            self._log = DigestLog(ids.packed(), folder)
        return self._log.hint()

    def accept(self, ids: Iterable[str], list_name: str) -> tuple[set[str], set[str]]:
        """(messages new to the lake, whose rows load; known messages that only join `list_name`,
        a membership row each). The keys grow as if those rows were committed, so the next unit
        in order, on this process or another runner's, sees them."""
        known_ids, pairs = self._keys()
        ids = list(ids)
        ds = [digest(m) for m in ids]
        seen = known_ids.contains(ds)
        was_known = [m for m, s in zip(ids, seen, strict=True) if s]
        pds = {m: digest(_pair(m, list_name)) for m in was_known}
        joined = dict(zip(pds, pairs.contains(list(pds.values())), strict=True))
        new: set[str] = set()
        join: set[str] = set()
        for mid, d, s in zip(ids, ds, seen, strict=True):
            if s or mid in new:
                if s and not joined[mid] and mid not in join:
                    join.add(mid)
                    pairs.add(pds[mid])
                continue
            new.add(mid)
            known_ids.add(d)
            if self._log is not None:
                self._log.add(d)
            pairs.add(digest(_pair(mid, list_name)))
        return new, join


def _pair(message_id: str, list_name: str) -> str:
    return f"{message_id}\0{list_name}"


def _known_of(ids: KeySet, memberships: KeySet) -> Known:
    known = Known()
    known._ids, known._memberships = ids, memberships
    return known


def previous_ledger(lake: Lake) -> dict[tuple[str, str], dict[str, Any]]:
    """Latest successful fetch per (source, unit): validators and hash for the next run."""
    tbl = lake.read("archives")
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for row in sorted(tbl.to_pylist(), key=lambda r: r["fetched_at"] or datetime.min.replace(tzinfo=UTC)):
        if row["status"] in ("ok", "unchanged"):
            prev = out.get((row["source"], row["unit"]), {})
            merged = {**prev, **{k: v for k, v in row.items() if v is not None}}
            out[(row["source"], row["unit"])] = merged
    return out


def in_window(unit: Unit, since: str | None, until: str | None) -> bool:
    if unit.month is None:
        return True
    return (since is None or unit.month >= since) and (until is None or unit.month <= until)


def list_units(source: Source, ctx: FetchContext, since: str | None = None, until: str | None = None) -> list[Unit]:
    return [u for u in kind_for(source.kind).units(source, ctx) if in_window(u, since, until)]


def fetch_unit(unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
    return kind_for(source.kind).fetch(unit, source, ctx)


@dataclass(slots=True)
class UnitWork:
    """One part of a unit decoded and extracted (the whole unit when it is small), waiting for
    validation and its atomic commit. The parts of a unit share its `stats`; only the last one
    carries the unit's ledger row, so a unit counts as done once all its parts are in the lake."""

    fetched: Fetched
    stats: UnitStats
    records: Records
    batch_id: str
    part: int = 0
    last: bool = True
    spilled: list[str] = field(default_factory=list)  # earlier parts a Dask worker wrote to files


PARALLEL_MIN_BYTES = 8 * 1024 * 1024  # smaller units are not worth a process pool
MAX_SKIPPED_REASONS = 100  # reasons kept per unit for the summary (the count is always whole)


def extract_parts(fetched: Fetched, source: Source, known: Known, workers: int | None = None,
                  part_messages: int | None = None, part_rows: int | None = None,
                  hint: KnownHint | None = None) -> Iterator[UnitWork]:
    """Decode and extract one fetched unit part by part (no validation, no writes).

    Messages are decoded and extracted in batches on worker processes (flows.parallel), each
    within the source's time budget; rows of messages already in the lake are dropped here,
    keeping only a new list membership. The workers are told which ids `known` holds as each
    batch is sent, and do not extract those (flows.knownhint); `_accept` still decides. `hint`
    is told to them instead where `known` is not what decides (a Dask worker's; flows.runners).
    A part ends once it holds `part_messages` messages read or `part_rows` result rows (the
    source's limits; 0 = no bound), and is handed out before the next batch is taken in: a
    unit's rows are never all in memory. Each part has a batch id of its own; the last part is
    flagged (it carries the ledger row).
    """
    unit = fetched.unit
    stats = UnitStats(source=source.name, unit=unit.key, status=fetched.status, error=fetched.error)
    work = UnitWork(fetched, stats, Records(), new_batch_id())
    if fetched.status != "ok":
        yield work
        return
    from flows.parallel import BATCH_MESSAGES, decode_parallel, default_workers  # a unit to read

    limits = source.limits
    max_messages = limits.part_messages if part_messages is None else part_messages
    max_rows = limits.part_rows if part_rows is None else part_rows
    if workers is None:
        workers = default_workers() if fetched.bytes >= PARALLEL_MIN_BYTES else 1
    skipped: list[Skipped] = []
    read = 0  # messages read into the current part
    try:
        batches = decode_parallel(
            kind_for(source.kind).messages(fetched, source), workers, skipped,
            budget_s=limits.message_timeout_s, max_message_bytes=limits.max_message_bytes,
            max_depth=limits.max_mime_depth,
            batch_messages=min(BATCH_MESSAGES, max_messages) if max_messages else BATCH_MESSAGES,
            list_name=source.name, unit=unit.key, archive_url=mail_url(unit), batch_id=work.batch_id,
            now=datetime.now(UTC), permalink=permalink_base(source),
            known_hint=known.hint if hint is None else lambda shared: hint,
        )
        links = fetched.extra.get("links")  # article pages of archives that number them (pipermail)
        for ids, rec in batches:
            if (max_messages and read >= max_messages) or (max_rows and len(work.records.results) >= max_rows):
                work.last = False
                yield work
                work, read = UnitWork(fetched, stats, Records(), new_batch_id(), part=work.part + 1), 0
            stats.messages += len(ids)
            read += len(ids)
            if links is not None:
                links.fill(rec.messages)
            _accept(work.records, ids, rec, source, unit, work.batch_id, known, stats)
            _keep_first(skipped, stats)
    except UnitError as exc:
        stats.status, stats.error = "failed", str(exc)
    except Exception as exc:  # keep what was read; the unit is retried next run
        log.exception("unit %s/%s failed", source.name, unit.key)
        stats.status, stats.error = "failed", f"{type(exc).__name__}: {exc}"
    _keep_first(skipped, stats, 0)
    stats.skipped_reasons = [f"message {s.index}: {s.reason}" for s in skipped]
    yield work


def _keep_first(skipped: list[Skipped], stats: UnitStats, slack: int = MAX_SKIPPED_REASONS) -> None:
    """Count the unit's skipped messages and keep only the first ones (by place in the unit)
    for the summary: a unit of broken messages must not fill memory with reasons."""
    if len(skipped) > MAX_SKIPPED_REASONS + slack:
        skipped.sort(key=lambda s: s.index)
        stats.skipped += len(skipped) - MAX_SKIPPED_REASONS
        del skipped[MAX_SKIPPED_REASONS:]
    if not slack:
        skipped.sort(key=lambda s: s.index)
        stats.skipped += len(skipped)


def extract_unit(fetched: Fetched, source: Source, known: Known, workers: int | None = None,
                 hint: KnownHint | None = None) -> UnitWork:
    """The whole unit as one part (`extract_parts` without a bound): for callers that want all
    its rows at once (tests, small units)."""
    return next(extract_parts(fetched, source, known, workers, part_messages=0, part_rows=0, hint=hint))


def _accept(into: Records, ids: list[str], rec: Records, source: Source, unit: Unit, batch_id: str,
            known: Known, stats: UnitStats) -> None:
    """Keep the rows of messages new to the lake; a known message only gains a list membership.
    Kept rows are stamped with the part's batch id (the worker stamped the unit's first one)."""
    new, join = known.accept(ids, source.name)
    for mid in dict.fromkeys(m for m in ids if m in join):  # in the unit's order
        add_membership(into, mid, list_name=source.name, unit=unit.key, archive_url=mail_url(unit), batch_id=batch_id)
    stats.messages_added += len(new)
    for name, rows in rec.tables().items():  # a skipped message's quarantine row has no id: kept
        keep = getattr(into, name)
        for r in rows:
            if r["message_id"] in new or r["message_id"] is None:
                r["batch_id"] = batch_id
                keep.append(r)


def load_units(works: list[UnitWork], lake: Lake, list_names: list[str], ingest_run: str) -> list[dict[str, Any]]:
    """Validate the parts' rows in one GX pass, then commit each part as its own atomic batch;
    a unit's last part also writes its ledger row. Units that add no rows (unchanged, failed)
    only write their ledger row: no GX at all; a part before the last that adds nothing is
    not committed."""
    merged = Records()
    for w in works:
        for name, rows in w.records.tables().items():
            getattr(merged, name).extend(rows)
    findings: list[dict[str, Any]] = []
    if merged.messages or merged.runs:
        from expectations.gate import gate

        findings = [f.as_dict() for f in gate(merged, list_names=list_names)]
    by_batch: dict[str, Records] = {w.batch_id: Records() for w in works}
    for name, rows in merged.tables().items():
        for row in rows:
            getattr(by_batch[row["batch_id"]], name).append(row)
    del merged
    now = datetime.now(UTC)
    for w in works:
        rec = by_batch.pop(w.batch_id)
        w.stats.runs += len(rec.runs)
        w.stats.results += len(rec.results)
        w.stats.quarantined += len(rec.quarantine)
        tables = {name: to_table(name, rows) for name, rows in rec.tables().items() if rows}
        if w.last:
            tables["archives"] = to_table("archives", [_ledger_row(w.fetched, w.stats, w.batch_id, now, ingest_run)])
        if tables:
            lake.commit(w.batch_id, tables, source=w.stats.source)
        w.records = Records()  # committed: the rows need not outlive the commit
    return findings


def mail_url(unit: Unit) -> str:
    return unit.url


def _ledger_row(f: Fetched, stats: UnitStats, batch_id: str, now: datetime, ingest_run: str) -> dict[str, Any]:
    return {
        "source": f.unit.source,
        "unit": f.unit.key,
        "url": f.unit.url,
        "etag": f.etag,
        "last_modified": f.last_modified,
        "sha256": f.sha256,
        "bytes": f.bytes,
        "status": stats.status,
        "error": stats.error,
        "messages": stats.messages,
        "messages_added": stats.messages_added,
        "skipped": stats.skipped,
        "fetched_at": now,
        "ingest_run": ingest_run,
        "batch_id": batch_id,
    }


def check_quality(cfg: Config, lake: Lake, summary: IngestSummary, sources: list[str]) -> None:
    """Merge findings, add batch and health rules, write Data Docs, send at most one alert."""
    import sys

    from expectations import alerts

    validated = "expectations.gate" in sys.modules  # a run that adds no rows never imports GX
    if validated:
        from expectations.gate import merge_findings

        findings = merge_findings(summary.findings)
    else:
        findings = list(summary.findings)
    rows = sum(u["results"] for u in summary.units)
    quarantined = sum(u["quarantined"] for u in summary.units)
    share = alerts.quarantine_share_finding(
        rows, quarantined, float(cfg.quality.get("max_quarantine_share", alerts.DEFAULT_MAX_QUARANTINE_SHARE)))
    findings += [share] if share else []
    findings += alerts.health_findings(cfg, lake)
    docs = None
    if validated:
        from expectations.gate import build_docs

        docs = build_docs(cfg.docs_dir)
    summary.findings, summary.docs = findings, str(docs) if docs else None
    if findings:
        got = alerts.deliver(cfg, alerts.build_alert(summary.run, sources, findings, summary.docs))
        summary.alerted, summary.alert_failures = got.sent, got.failed

"""The order of an ingest run: fetch -> decode -> extract -> validate -> load, one archive unit
per batch (a big unit in several batches, its parts, so that memory does not grow with it).

The steps are plain functions (flows.steps); in a Prefect flow run each is a task run of its own
(flows.tasks), and with a distributed task runner the extraction runs on its workers
(flows.runners). The order is the same in all three.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

from flows import handover, steps
from flows.archives.base import FetchContext, Fetched, Unit
from flows.config import Config, Source
from flows.steps import Known, UnitWork, extract_unit, load_units, previous_ledger
from flows.summary import IngestSummary, emit
from flows.warmup import prewarm_validation
from warehouse.db import open_writer, refresh_views_if_needed
from warehouse.lake import COMPACT_AFTER_PARTS, Lake

CHUNK_UNITS = 12
MODES = ("plain", "tasks", "distributed")


def run(cfg: Config, sources: list[str] | None = None, since: str | None = None,
        until: str | None = None, recheck: bool = False, mode: str = "plain") -> IngestSummary:
    """One ingest run: every chosen source, unit by unit; parts of units validated together and
    each committed atomically (a big unit in several parts, small ones one batch each).

    `mode` "plain" calls the steps in this process; "tasks" runs each as a task of the current
    Prefect flow run; "distributed" too, and submits every unit's extraction to the flow's task
    runner (a big unit's parts come back through a spill folder under the data dir). In every
    mode a source or unit that this run's checks already listed or fetched (flows.handover) is
    not asked again."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r} (use one of: {', '.join(MODES)})")
    if mode != "distributed":
        return _run(cfg, sources, since, until, recheck, mode, None)
    from flows.runners import spill_dir

    with spill_dir(cfg.data_dir) as spill:
        return _run(cfg, sources, since, until, recheck, mode, spill)


def _run(cfg: Config, sources: list[str] | None, since: str | None, until: str | None, recheck: bool,
         mode: str, spill: str | None) -> IngestSummary:
    """The run itself; `on` is flows.steps or flows.tasks, the same step functions either way
    (listing and fetching through flows.handover in a plain run, as the tasks do)."""
    if mode == "plain":
        on, log = steps, steps.log
        list_units, fetch_unit = handover.list_units, handover.fetch_unit
        extract = steps.extract_parts
    else:
        from flows import tasks as on

        log = on.run_logger()
        list_units, fetch_unit = on.list_units, on.fetch_unit
        extract = on.extract_parts if spill is None else partial(on.extract_elsewhere, spill_dir=spill)
    chosen = [cfg.source(n) for n in sources] if sources else cfg.enabled_sources
    summary = IngestSummary(run=uuid.uuid4().hex[:12])
    list_names = [s.name for s in cfg.sources]
    # no lock: other writers may commit at the same moment (warehouse.lake serialises batch commits)
    lake = open_writer(cfg.lake_dir, cfg.storage, cfg.db_path, "ingest", summary.run)
    lake.views(lake)  # a views file missing or behind the lake is rebuilt in the background meanwhile
    known = Known.load(lake)
    ctx = FetchContext(raw_dir=cfg.raw_dir, previous=previous_ledger(lake), recheck=recheck)
    if any(s.is_remote for s in chosen):
        from flows.http import PoliteClient

        ctx.http = PoliteClient.from_config(cfg)
    for source in chosen:
        try:
            units = list_units(source, ctx, since, until)
        except Exception as exc:
            log.error("source %s: cannot list units: %s", source.name, exc)
            failed = Fetched(Unit(source.name, "(index)", source.url), "failed", error=f"cannot list units: {exc}")
            work = extract_unit(failed, source, known)
            load_units([work], lake, list_names, summary.run)
            summary.units.append(work.stats.as_dict())
            continue
        emit("source", source=source.name, units=len(units))
        bound = source.limits.part_messages, source.limits.part_rows
        with Loader(partial(_load, on.load_units, log, lake=lake, list_names=list_names, summary=summary,
                            source=source)) as loader:
            for i in range(0, len(units), CHUNK_UNITS):
                cursors = []  # each unit's parts, in unit order (a distributed runner starts them all now)
                for u in units[i:i + CHUNK_UNITS]:
                    with summary.timed("fetch"):
                        fetched = _fetch_or_fail(fetch_unit, u, source, ctx)
                    if fetched.status == "ok":
                        prewarm_validation()
                    with summary.timed("decode+extract"):
                        cursors.append(extract(fetched, source, known))
                pending: list[UnitWork] = []
                for parts in cursors:
                    while True:
                        with summary.timed("decode+extract"):
                            work = next(parts, None)
                        if work is None:
                            break
                        pending.append(work)
                        if _full(pending, *bound):
                            loader.load(pending)
                            pending = []
                loader.load(pending)
    with summary.timed("compact"):
        lake.compact_fragmented(int(cfg.quality.get("compact_after_parts", COMPACT_AFTER_PARTS)))
    with summary.timed("views"):
        lake.views.wait()
        refresh_views_if_needed(cfg.db_path, lake)
    with summary.timed("quality+alerts"):
        steps.check_quality(cfg, lake, summary, [s.name for s in chosen])
    return summary


def _full(works: list[UnitWork], messages: int, rows: int) -> bool:
    """Parts (of one unit or of several small ones) waiting for validation reach a part's bound."""
    return bool((messages and sum(len(w.records.messages) for w in works) >= messages)
                or (rows and sum(len(w.records.results) for w in works) >= rows))


class Loader:
    """Parts validated and committed on a thread of their own, one group at a time and in order,
    while the next part is decoded: the workers no longer wait for GX and the lake commit (a
    third of a big unit's wall time). At most one group is loading and one decoding, so memory
    stays at two parts. The group's flow run context goes with it (its task run belongs to the
    flow run), and what a load raised is raised here, at the next group or at the end."""

    def __init__(self, load: Callable[[list[UnitWork]], None]) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self._load = load
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="listbench-load")
        self._running: Any = None

    def load(self, works: list[UnitWork]) -> None:
        if not works:
            return
        import contextvars

        self.wait()
        self._running = self._pool.submit(contextvars.copy_context().run, self._load, works)

    def wait(self) -> None:
        running, self._running = self._running, None
        if running is not None:
            running.result()

    def __enter__(self) -> Loader:
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if exc[0] is None:
                self.wait()
            elif self._running is not None:
                self._running.exception()  # the run failed already: let its load finish, not raise twice
        finally:
            self._pool.shutdown(wait=True)


def _load(load: Callable[..., list[dict[str, Any]]], log: Any, works: list[UnitWork], *, lake: Lake,
          list_names: list[str], summary: IngestSummary, source: Source) -> None:
    """Validate and commit waiting parts; a unit whose last part is in is reported."""
    if not works:
        return
    with summary.timed("validate+load"):
        summary.findings += load(works, lake, list_names, summary.run)
    for w in works:
        if not w.last:
            continue
        summary.units.append(w.stats.as_dict())
        emit("unit", source=source.name, unit=w.stats.unit, status=w.stats.status,
              bytes=w.fetched.bytes, added=w.stats.messages_added)
        log.info("%s/%s: %s, %d messages added, %d rows, %d quarantined", source.name,
                       w.stats.unit, w.stats.status, w.stats.messages_added, w.stats.results,
                       w.stats.quarantined)


def _fetch_or_fail(fetch: Callable[..., Fetched], unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
    try:
        return fetch(unit, source, ctx)
    except Exception as exc:  # retries exhausted: record and go on with the other units
        return Fetched(unit, "failed", error=f"{type(exc).__name__}: {exc}")

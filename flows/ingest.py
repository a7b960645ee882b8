"""The Prefect ingest flow: thin; the work is in flows.pipeline and below."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NO_CACHE
from prefect.tasks import exponential_backoff

from flows import pipeline
from flows.archives.base import FetchContext, Fetched, Unit
from flows.config import Config, Source, load_config
from warehouse.db import refresh_views
from warehouse.lake import Lake


@dataclass
class IngestSummary:
    units: list[dict[str, Any]] = field(default_factory=list)

    @property
    def failed(self) -> list[dict[str, Any]]:
        return [u for u in self.units if u["status"] == "failed"]

    def as_dict(self) -> dict[str, Any]:
        return {"units": self.units, "failed": len(self.failed)}


@task(name="list-units", retries=2, retry_delay_seconds=exponential_backoff(backoff_factor=2),
      cache_policy=NO_CACHE)
def list_units_task(source: Source, ctx: FetchContext, since: str | None, until: str | None) -> list[Unit]:
    return pipeline.list_units(source, ctx, since, until)


@task(name="fetch-unit", retries=2, retry_delay_seconds=exponential_backoff(backoff_factor=2),
      retry_jitter_factor=0.5, cache_policy=NO_CACHE)
def fetch_unit_task(unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
    return pipeline.fetch_unit(unit, source, ctx)


@task(name="process-unit", cache_policy=NO_CACHE)
def process_unit_task(fetched: Fetched, source: Source, lake: Lake, known: pipeline.Known) -> dict[str, Any]:
    return pipeline.process_unit(fetched, source, lake, known).as_dict()


def _fetch_or_fail(unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
    try:
        return fetch_unit_task(unit, source, ctx)
    except Exception as exc:  # retries exhausted: record and go on with the other units
        return Fetched(unit, "failed", error=f"{type(exc).__name__}: {exc}")


@flow(name="ingest", log_prints=False)
def ingest_flow(config_path: str, sources: list[str] | None = None, since: str | None = None,
                until: str | None = None) -> dict[str, Any]:
    """Fetch, decode, extract, validate and load every enabled (or named) source."""
    logger = get_run_logger()
    cfg = load_config(config_path)
    chosen = [cfg.source(n) for n in sources] if sources else cfg.enabled_sources
    summary = IngestSummary()
    with pipeline.ingest_lock(cfg.data_dir):
        lake = Lake(cfg.lake_dir).open()
        known = pipeline.Known.load(lake)
        ctx = FetchContext(raw_dir=cfg.raw_dir, previous=pipeline.previous_ledger(lake))
        _attach_http(ctx, cfg, chosen)
        for source in chosen:
            try:
                units = list_units_task(source, ctx, since, until)
            except Exception as exc:
                summary.units.append(pipeline.UnitStats(source.name, "(index)", "failed", error=str(exc)).as_dict())
                logger.error("source %s: cannot list units: %s", source.name, exc)
                continue
            for unit in units:
                fetched = _fetch_or_fail(unit, source, ctx)
                stats = process_unit_task(fetched, source, lake, known)
                summary.units.append(stats)
                logger.info("%s/%s: %s, %d messages added, %d rows, %d quarantined", source.name,
                            unit.key, stats["status"], stats["messages_added"], stats["results"],
                            stats["quarantined"])
        refresh_views(cfg.db_path, cfg.lake_dir)
    _publish(summary)
    return summary.as_dict()


def _attach_http(ctx: FetchContext, cfg: Config, sources: list[Source]) -> None:
    if any(s.is_remote for s in sources):
        from flows.http import PoliteClient

        ctx.http = PoliteClient.from_config(cfg)


def _publish(summary: IngestSummary) -> None:
    cols = ("source", "unit", "status", "messages", "messages_added", "runs", "results", "quarantined", "error")
    rows = [{c: u.get(c) for c in cols} for u in summary.units]
    try:
        create_table_artifact(key="ingest-units", table=rows, description="Units processed by this run")
        total = {c: sum(int(u.get(c) or 0) for u in summary.units) for c in cols[3:8]}
        create_markdown_artifact(
            key="ingest-summary",
            markdown=(f"**{len(summary.units)} units**, {len(summary.failed)} failed; "
                      + ", ".join(f"{k}: {v}" for k, v in total.items())),
        )
    except Exception:  # artifacts are a courtesy; never fail a load over them
        pass


def run_ingest(cfg: Config, sources: list[str] | None = None, since: str | None = None,
               until: str | None = None) -> dict[str, Any]:
    return ingest_flow(str(cfg.path), sources, since, until)

"""The Prefect ingest flow: thin; the work is in flows.pipeline and below.

Tasks are per archive unit (fetch, extract) and per chunk of units (validate +
load), never per message: Prefect costs milliseconds per task run.
"""

from __future__ import annotations

import uuid
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

CHUNK_UNITS = 12


@dataclass
class IngestSummary:
    run: str
    units: list[dict[str, Any]] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)
    alerted: list[str] = field(default_factory=list)
    docs: str | None = None

    @property
    def failed(self) -> list[dict[str, Any]]:
        return [u for u in self.units if u["status"] == "failed"]

    def as_dict(self) -> dict[str, Any]:
        return {"run": self.run, "units": self.units, "failed": len(self.failed), "findings": self.findings,
                "alerted": self.alerted, "docs": self.docs}


@task(name="list-units", retries=2, retry_delay_seconds=exponential_backoff(backoff_factor=2),
      cache_policy=NO_CACHE)
def list_units_task(source: Source, ctx: FetchContext, since: str | None, until: str | None) -> list[Unit]:
    return pipeline.list_units(source, ctx, since, until)


@task(name="fetch-unit", retries=2, retry_delay_seconds=exponential_backoff(backoff_factor=2),
      retry_jitter_factor=0.5, cache_policy=NO_CACHE)
def fetch_unit_task(unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
    return pipeline.fetch_unit(unit, source, ctx)


@task(name="extract-unit", cache_policy=NO_CACHE)
def extract_unit_task(fetched: Fetched, source: Source, known: pipeline.Known) -> pipeline.UnitWork:
    return pipeline.extract_unit(fetched, source, known)


@task(name="validate-and-load", cache_policy=NO_CACHE)
def load_task(works: list[pipeline.UnitWork], lake: Lake, list_names: list[str], run: str) -> list[dict[str, Any]]:
    return pipeline.load_units(works, lake, list_names, run)


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
    summary = IngestSummary(run=uuid.uuid4().hex[:12])
    list_names = [s.name for s in cfg.sources]
    with pipeline.ingest_lock(cfg.data_dir):
        lake = Lake(cfg.lake_dir).open()
        known = pipeline.Known.load(lake)
        ctx = FetchContext(raw_dir=cfg.raw_dir, previous=pipeline.previous_ledger(lake))
        _attach_http(ctx, cfg, chosen)
        for source in chosen:
            try:
                units = list_units_task(source, ctx, since, until)
            except Exception as exc:
                logger.error("source %s: cannot list units: %s", source.name, exc)
                failed = Fetched(Unit(source.name, "(index)", source.url), "failed", error=f"cannot list units: {exc}")
                work = pipeline.extract_unit(failed, source, known)
                load_task([work], lake, list_names, summary.run)
                summary.units.append(work.stats.as_dict())
                continue
            for i in range(0, len(units), CHUNK_UNITS):
                works = [extract_unit_task(_fetch_or_fail(u, source, ctx), source, known)
                         for u in units[i:i + CHUNK_UNITS]]
                summary.findings += load_task(works, lake, list_names, summary.run)
                for w in works:
                    summary.units.append(w.stats.as_dict())
                    logger.info("%s/%s: %s, %d messages added, %d rows, %d quarantined", source.name,
                                w.stats.unit, w.stats.status, w.stats.messages_added, w.stats.results,
                                w.stats.quarantined)
        refresh_views(cfg.db_path, cfg.lake_dir)
        _quality(cfg, lake, summary, [s.name for s in chosen])
    _publish(summary)
    return summary.as_dict()


def _quality(cfg: Config, lake: Lake, summary: IngestSummary, sources: list[str]) -> None:
    """Merge findings, add batch and health rules, write Data Docs, send at most one alert."""
    from expectations import alerts
    from expectations.gate import build_docs, merge_findings

    findings = merge_findings(summary.findings)
    rows = sum(u["results"] for u in summary.units)
    quarantined = sum(u["quarantined"] for u in summary.units)
    share = alerts.quarantine_share_finding(
        rows, quarantined, float(cfg.quality.get("max_quarantine_share", alerts.DEFAULT_MAX_QUARANTINE_SHARE)))
    findings += [share] if share else []
    findings += alerts.health_findings(cfg, lake)
    docs = build_docs(cfg.docs_dir)
    summary.findings, summary.docs = findings, str(docs) if docs else None
    if findings:
        summary.alerted = alerts.send_alert(cfg, alerts.build_alert(summary.run, sources, findings, summary.docs))


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
                      + ", ".join(f"{k}: {v}" for k, v in total.items())
                      + "".join(f"\n- {f['severity']}: {f['expectation']} ({f['count']})" for f in summary.findings)),
        )
    except Exception:  # artifacts are a courtesy; never fail a load over them
        pass


def run_ingest(cfg: Config, sources: list[str] | None = None, since: str | None = None,
               until: str | None = None) -> dict[str, Any]:
    return ingest_flow(str(cfg.path), sources, since, until)

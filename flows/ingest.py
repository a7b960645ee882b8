"""The Prefect ingest flow: thin; the work is in flows.pipeline and below.

Tasks are per archive unit (fetch), per part of a unit (extract: a small unit is one part) and
per group of parts (validate + load), never per message: Prefect costs milliseconds per task run.

`run_ingest(..., task_runner="dask")` runs the same flow on a Dask cluster
(prefect-dask): the per-unit extraction goes to the workers, fetching and the
lake commit stay here (flows.runners).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NO_CACHE
from prefect.context import FlowRunContext
from prefect.tasks import exponential_backoff
from prefect.utilities.annotations import quote

from flows import checkfirst, pipeline, runners
from flows.archives.base import FetchContext, Fetched, Unit
from flows.config import Config, Source, load_config
from flows.summary import summary_markdown, unit_rows
from warehouse.lake import Lake


@task(name="list-units", retries=2, retry_delay_seconds=exponential_backoff(backoff_factor=2),
      cache_policy=NO_CACHE)
def list_units_task(source: Source, ctx: FetchContext, since: str | None, until: str | None) -> list[Unit]:
    listed = checkfirst.take_listing(source.name)  # already listed by this run's checks
    return pipeline.list_units(source, ctx, since, until) if listed is None else listed


@task(name="fetch-unit", retries=2, retry_delay_seconds=exponential_backoff(backoff_factor=2),
      retry_jitter_factor=0.5, cache_policy=NO_CACHE)
def fetch_unit_task(unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
    got = checkfirst.take_fetched(unit)  # already asked by this run's checks
    return pipeline.fetch_unit(unit, source, ctx) if got is None else got


@task(name="extract-part", cache_policy=NO_CACHE)
def extract_part_task(parts: Iterator[pipeline.UnitWork]) -> pipeline.UnitWork | None:
    """The next part of a unit being extracted (None after its last): one task run per part."""
    return next(parts, None)


def extract_parts(fetched: Fetched, source: Source, known: pipeline.Known) -> Iterator[pipeline.UnitWork]:
    parts = pipeline.extract_parts(fetched, source, known)  # nothing runs until the first task
    if fetched.status != "ok":  # nothing to read (unchanged, failed): its ledger row, no task runs
        yield from parts
        return
    while (work := extract_part_task(quote(parts))) is not None:
        yield work


@task(name="extract-unit", cache_policy=NO_CACHE)
def extract_remote_task(fetched: Fetched, source: Source, spill_dir: str | None = None) -> pipeline.UnitWork:
    """The extraction a distributed runner ships to a worker (no lake keys; see flows.runners)."""
    return runners.extract_on_worker(fetched, source, spill_dir)


@task(name="validate-and-load", cache_policy=NO_CACHE)
def load_task(works: list[pipeline.UnitWork], lake: Lake, list_names: list[str], run: str) -> list[dict[str, Any]]:
    return pipeline.load_units(works, lake, list_names, run)


# Big arguments (a unit's rows, the set of known ids) are passed `quote`d: Prefect would
# otherwise walk every nested row looking for futures (~10 s for 50,000 messages).
@flow(name="ingest", log_prints=False)
def ingest_flow(config_path: str, sources: list[str] | None = None, since: str | None = None,
                until: str | None = None, recheck: bool = False) -> dict[str, Any]:
    """Fetch, decode, extract, validate and load every enabled (or named) source."""
    cfg = load_config(config_path)
    ctx = FlowRunContext.get()
    if runners.is_distributed(ctx.task_runner if ctx else None):
        with runners.spill_dir(cfg.data_dir) as spill:
            steps = runners.distributed_steps(extract_remote_task, load_task, spill_dir=spill,
                                              list_units=list_units_task, fetch=fetch_unit_task, log=get_run_logger())
            summary = pipeline.run(cfg, steps, sources, since, until, recheck)
    else:
        steps = pipeline.Steps(list_units=list_units_task, fetch=_tagged_fetch, extract=extract_parts,
                               load=lambda works, *rest: load_task(quote(works), *rest), log=get_run_logger())
        summary = pipeline.run(cfg, steps, sources, since, until, recheck)
    _publish(summary)
    return summary.as_dict()


def _tagged_fetch(unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
    """Fetch tasks carry `source:<name>` and `host:<host>` tags (UI filters, tag concurrency limits)."""
    host = urlsplit(unit.url).hostname or "local"
    return fetch_unit_task.with_options(tags=[f"source:{source.name}", f"host:{host}"])(unit, source, ctx)


def _publish(summary: pipeline.IngestSummary) -> None:
    try:
        create_table_artifact(key="ingest-units", table=unit_rows(summary),
                              description="Units processed by this run")
        create_markdown_artifact(key="ingest-summary", markdown=summary_markdown(summary))
    except Exception:  # artifacts are a courtesy; never fail a load over them
        pass


def run_ingest(cfg: Config, sources: list[str] | None = None, since: str | None = None,
               until: str | None = None, task_runner: str = "default",
               dask_address: str | None = None, recheck: bool = False) -> dict[str, Any]:
    """One flow run; `task_runner="dask"` uses `dask_address` or a two-worker LocalCluster."""
    from flows.prefect_api import ensure_api

    runner = runners.make_task_runner(task_runner, dask_address)
    if runner is None:
        pipeline.prestart(cfg)  # the worker pool (and GX for a new lake) while the API starts
    ensure_api()  # a temporary API (no PREFECT_API_URL) dies with this process, even on kill -9
    if runner is None:
        return ingest_flow(str(cfg.path), sources, since, until, recheck)
    with runners.api_for_workers():
        return ingest_flow.with_options(task_runner=runner)(str(cfg.path), sources, since, until, recheck)

"""The Prefect ingest flow: thin; the order is flows.pipeline's, the tasks are flows.tasks'.

Tasks are per archive unit (fetch), per part of a unit (extract: a small unit is one part) and
per group of parts (validate + load), never per message: Prefect costs milliseconds per task run.

`run_ingest(..., task_runner="dask")` runs the same flow on a Dask cluster
(prefect-dask): the per-unit extraction goes to the workers, fetching and the
lake commit stay here (flows.runners).
"""

from __future__ import annotations

from typing import Any

from prefect import flow
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.context import FlowRunContext

from flows import pipeline, runners, warmup
from flows.config import Config, load_config
from flows.summary import IngestSummary, summary_markdown, unit_rows


@flow(name="ingest", log_prints=False)
def ingest_flow(config_path: str, sources: list[str] | None = None, since: str | None = None,
                until: str | None = None, recheck: bool = False) -> dict[str, Any]:
    """Fetch, decode, extract, validate and load every enabled (or named) source."""
    cfg = load_config(config_path)
    ctx = FlowRunContext.get()
    mode = "distributed" if runners.is_distributed(ctx.task_runner if ctx else None) else "tasks"
    summary = pipeline.run(cfg, sources, since, until, recheck, mode=mode)
    _publish(summary)
    return summary.as_dict()


def _publish(summary: IngestSummary) -> None:
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
    from flows.prefect_api import ensure_api, run_settings

    runner = runners.make_task_runner(task_runner, dask_address)
    if runner is None:
        warmup.prestart(cfg)  # the worker pool (and GX for a new lake) while the API starts
    ensure_api()  # a temporary API (no PREFECT_API_URL) dies with this process, even on kill -9
    if runner is None:
        with run_settings():
            return ingest_flow(str(cfg.path), sources, since, until, recheck)
    with runners.api_for_workers(), run_settings():
        return ingest_flow.with_options(task_runner=runner)(str(cfg.path), sources, since, until, recheck)

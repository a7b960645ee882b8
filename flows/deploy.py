"""Deployments served by `listbench serve`: the schedule comes from `[schedule]` in the config."""

from __future__ import annotations

from typing import Any

from flows.config import Config

DEFAULT_CRON = "0 3 * * *"


def deployments(cfg: Config) -> list[Any]:
    """The nightly ingest of every enabled source, plus on-demand maintenance flows."""
    from prefect.schedules import Cron

    from flows.ingest import ingest_flow
    from flows.maintenance import backfill_flow, ingest_source_flow, reextract_flow, validate_flow

    cron = str(cfg.schedule.get("cron", DEFAULT_CRON))
    tz = str(cfg.schedule.get("timezone", "UTC"))
    params = {"config_path": str(cfg.path)}
    tags = ["listbench"]
    return [
        ingest_flow.to_deployment(name="scheduled", schedule=Cron(cron, timezone=tz), parameters=params, tags=tags,
                                  concurrency_limit=1, description="Ingest every enabled source"),
        ingest_source_flow.to_deployment(name="on-demand", parameters={**params, "source": ""}, tags=tags),
        backfill_flow.to_deployment(name="on-demand", parameters={**params, "since": "", "until": ""}, tags=tags),
        reextract_flow.to_deployment(name="on-demand", parameters=params, tags=tags),
        validate_flow.to_deployment(name="nightly", schedule=Cron(str(cfg.schedule.get("validate_cron", "30 4 * * *")),
                                                                  timezone=tz), parameters=params, tags=tags),
    ]


def serve(cfg: Config) -> None:
    from prefect import serve as prefect_serve

    prefect_serve(*deployments(cfg))

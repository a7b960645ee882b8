"""The ingest steps (flows.steps) as Prefect tasks of the flow run, same names and arguments.

Tasks are per archive unit (list, fetch), per part of a unit (extract: a small unit is one part)
and per group of parts (validate + load), never per message: Prefect costs milliseconds per task
run. Big arguments (a unit's rows, the iterator over its parts) are passed `quote`d: Prefect would
otherwise walk every nested row looking for futures (~10 s for 50,000 messages).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.tasks import exponential_backoff
from prefect.utilities.annotations import quote

from flows import handover, runners, steps
from flows.archives.base import FetchContext, Fetched, Unit
from flows.config import Source
from flows.knownhint import KnownHint
from flows.steps import Known, UnitWork
from warehouse.lake import Lake


@task(name="list-units", retries=2, retry_delay_seconds=exponential_backoff(backoff_factor=2),
      cache_policy=NO_CACHE)
def list_units(source: Source, ctx: FetchContext, since: str | None, until: str | None) -> list[Unit]:
    return handover.list_units(source, ctx, since, until)  # what this run's checks listed, else list


@task(name="fetch-unit", retries=2, retry_delay_seconds=exponential_backoff(backoff_factor=2),
      retry_jitter_factor=0.5, cache_policy=NO_CACHE)
def _fetch_unit(unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
    return handover.fetch_unit(unit, source, ctx)  # what this run's checks fetched, else fetch


def fetch_unit(unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
    """Fetch tasks carry `source:<name>` and `host:<host>` tags (UI filters, tag concurrency limits)."""
    host = urlsplit(unit.url).hostname or "local"
    return _fetch_unit.with_options(tags=[f"source:{source.name}", f"host:{host}"])(unit, source, ctx)


@task(name="extract-part", cache_policy=NO_CACHE)
def _next_part(parts: Iterator[UnitWork]) -> UnitWork | None:
    """The next part of a unit being extracted (None after its last): one task run per part."""
    return next(parts, None)


def extract_parts(fetched: Fetched, source: Source, known: Known) -> Iterator[UnitWork]:
    parts = steps.extract_parts(fetched, source, known)  # nothing runs until the first task
    if fetched.status != "ok":  # nothing to read (unchanged, failed): its ledger row, no task runs
        yield from parts
        return
    while (work := _next_part(quote(parts))) is not None:
        yield work


@task(name="extract-unit", cache_policy=NO_CACHE)
def _extract_on_worker(fetched: Fetched, source: Source, spill_dir: str | None = None,
                       hint: KnownHint | None = None) -> UnitWork:
    """The extraction a distributed runner ships to a worker (no lake keys, a hint of them; see
    flows.runners)."""
    return runners.extract_on_worker(fetched, source, spill_dir, hint)


def extract_elsewhere(fetched: Fetched, source: Source, known: Known, spill_dir: str | None) -> Iterator[UnitWork]:
    """Submit the unit's extraction to the flow's task runner now (every unit of a chunk runs
    meanwhile); its parts are handed out in order, reconciled with `known`, when asked for."""
    hint = known.hint(True, spill_dir) if fetched.status == "ok" and spill_dir is not None else None
    return runners.resolved(_extract_on_worker.submit(fetched, source, spill_dir, hint), fetched, source, known)


@task(name="validate-and-load", cache_policy=NO_CACHE)
def _load_units(works: list[UnitWork], lake: Lake, list_names: list[str], run: str) -> list[dict[str, Any]]:
    return steps.load_units(works, lake, list_names, run)


def load_units(works: list[UnitWork], lake: Lake, list_names: list[str], run: str) -> list[dict[str, Any]]:
    return _load_units(quote(works), lake, list_names, run)


def run_logger() -> logging.Logger | logging.LoggerAdapter[Any]:
    """The flow run's logger: the steps' log lines show in the Prefect UI."""
    return get_run_logger()

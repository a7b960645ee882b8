"""`listbench ingest` asks every unit first, and starts Prefect only when one has changed.

Most scheduled runs find nothing new: every archive unit answers 304 or hashes as before. Such a
run needs no parse, no validation and no flow tasks, yet importing Prefect and running its flow
engine cost several CPU seconds, far more than the checks. So, before Prefect is imported, the
units of the chosen sources are listed and fetched in order (the conditional GET or the hash is
the check), with the same functions the flow's tasks call:

- when no unit needs reading (each is unchanged, or failed without raising), the run is
  `pipeline.run` on those answers: the same ledger rows, views, quality findings, alerts and
  summary as the flow's, then a finished `ingest` flow run (tagged `no-change`, with the units
  table as its artifact) is recorded through Prefect's REST API (flows.run_record);
- otherwise the flow runs as always, and takes over what was already asked (flows.handover):
  the listings and the answers of the units checked so far (their `list-units` and
  `fetch-unit` tasks return them), so no unit is fetched twice. An exception while checking (the flow's tasks retry
  those) stops the checks and leaves that unit to the flow.

Checks happen only where they can pay off and be recorded: a lake already holding data and a
Prefect API, given in the environment (PREFECT_API_URL) or the temporary one (flows.prefect_api),
which is started first and comes up while the checks run. `full_flow=True` skips them.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

from flows import handover, pipeline, steps
from flows.archives.base import FetchContext, Fetched, Unit
from flows.config import Config


@dataclass
class Checked:
    """What the checks got, in run order, and whether it is the whole run (nothing to read)."""

    listings: dict[str, list[Unit]] = field(default_factory=dict)  # source name -> its units
    fetched: dict[tuple[str, str], Fetched] = field(default_factory=dict)  # (source, unit key)
    complete: bool = True
    seconds: float = 0.0


def check(cfg: Config, sources: list[str] | None = None, since: str | None = None,
          until: str | None = None, recheck: bool = False) -> Checked | None:
    """List and fetch the chosen sources' units in order until one needs reading; None when
    there is no lake yet (every message is new: nothing to check)."""
    from warehouse.lake import Lake

    lake = Lake(cfg.lake_dir, cfg.storage)
    if not lake.exists():
        return None
    t = time.perf_counter()
    chosen = [cfg.source(n) for n in sources] if sources else cfg.enabled_sources
    ctx = FetchContext(raw_dir=cfg.raw_dir, previous=steps.previous_ledger(lake), recheck=recheck)
    if any(s.is_remote for s in chosen):
        from flows.http import PoliteClient

        ctx.http = PoliteClient.from_config(cfg)
    out = Checked()
    try:
        for source in chosen:
            try:
                units = steps.list_units(source, ctx, since, until)
            except Exception:  # the flow lists again, with its task's retries
                out.complete = False
                return out
            out.listings[source.name] = units
            for unit in units:
                try:
                    got = steps.fetch_unit(unit, source, ctx)
                except Exception:  # the flow fetches again, with its task's retries
                    out.complete = False
                    return out
                out.fetched[(unit.source, unit.key)] = got
                if got.status == "ok":  # to be read: the flow does it
                    out.complete = False
                    return out
        return out
    finally:
        out.seconds = time.perf_counter() - t
        if ctx.http is not None:
            ctx.http.close()


def ingest(cfg: Config, sources: list[str] | None = None, since: str | None = None,
           until: str | None = None, task_runner: str = "default", dask_address: str | None = None,
           recheck: bool = False, full_flow: bool = False) -> dict[str, Any]:
    """One ingest run (module doc): the checks alone when nothing changed, else the flow."""
    if not os.environ.get("PREFECT_API_URL"):
        from flows.prefect_api import ensure_api

        ensure_api(wait=False)  # a temporary API comes up while the checks and the warm-up run
        if task_runner == "default":
            from flows import warmup

            warmup.prestart(cfg)
    api = os.environ.get("PREFECT_API_URL")
    checked = None
    if api and not full_flow:
        from flows.prefect_api import started_up
        from flows.run_record import RecordError, flow_id

        checked = check(cfg, sources, since, until, recheck)
        started_up()
        try:
            flow = flow_id(api, "ingest")  # the API answers: the run can be recorded after
        except RecordError:
            flow = None  # the flow meets the API on its own, and says what is wrong
        if flow is not None and checked is not None and checked.complete:
            return _record_only(cfg, checked, api, flow, sources, since, until, recheck)
    from flows.ingest import run_ingest

    got = checked or Checked()
    with handover.handed(got.listings, got.fetched):  # the flow's tasks take these over
        return run_ingest(cfg, sources, since, until, task_runner, dask_address, recheck)


def _record_only(cfg: Config, checked: Checked, api: str, flow: str, sources: list[str] | None,
                 since: str | None, until: str | None, recheck: bool) -> dict[str, Any]:
    """The run on the checks' answers (no flow), then its record in Prefect."""
    import sys

    from flows.run_record import RecordError, record_flow_run

    t = time.perf_counter()
    with handover.handed(checked.listings, checked.fetched):  # every answer is there: none asked again
        summary = pipeline.run(cfg, sources, since, until, recheck, mode="plain")
    summary.seconds["fetch"] = summary.seconds.get("fetch", 0.0) + checked.seconds
    result = summary.as_dict()
    params = {"config_path": str(cfg.path), "sources": sources, "since": since, "until": until,
              "recheck": recheck}
    try:
        record_flow_run(api, flow, params, summary, seconds=checked.seconds + time.perf_counter() - t)
    except RecordError as exc:  # the ledger and the summary hold the run; say it is not in Prefect
        print(f"listbench: run {summary.run} not recorded in Prefect ({exc})", file=sys.stderr)
    return result

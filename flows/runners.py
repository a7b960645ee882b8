"""Task runners for the ingest flow: the default one, or a Dask cluster through prefect-dask.

With the default runner the per-unit tasks run one after the other in the flow
process (as plain calls). With a distributed runner (`--task-runner dask`) the
extraction of every unit of a chunk is submitted at once and runs on the Dask
workers, while fetching (raw cache, HTTP politeness) and the lake commit
(validation + atomic publish: one writer) stay in the flow process.

The lake's keys (`pipeline.Known`: every message id in the lake) are not
shipped to the workers -- they grow with the lake and would be pickled for
every task. A worker extracts its unit as if the lake were empty; the flow
process then applies the keys in unit order (`reconcile`), which yields the
same rows as extracting in the flow process one unit after the other: a
message already known keeps only a new list membership, and `Known` grows by
each unit's messages before the next unit is reconciled.

Workers need this package installed, the raw files at the same paths (for a
cluster on other machines: put the config's `local_dir` and local sources on a
shared mount), and a Prefect API they can reach (`PREFECT_API_URL`) to report
task runs.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from prefect.utilities.annotations import quote

from flows import pipeline
from flows.archives.base import Fetched
from flows.config import Source

RUNNERS = ("default", "dask")
LOCAL_CLUSTER_WORKERS = 2


class RunnerError(Exception):
    """A task runner that cannot be built (unknown name, bad address); one line for the user."""


def check_runner(kind: str, dask_address: str | None = None) -> None:
    """Raise RunnerError (one line) for an unknown runner or a malformed scheduler address."""
    if kind not in RUNNERS:
        raise RunnerError(f"unknown task runner {kind!r} (use one of: {', '.join(RUNNERS)})")
    if dask_address and kind != "dask":
        raise RunnerError("--dask-address needs --task-runner dask")
    if dask_address and not dask_address.startswith(("tcp://", "tls://", "ucx://", "inproc://", "ws://", "wss://")):
        raise RunnerError(f"--dask-address must be a scheduler address like tcp://HOST:8786 (got {dask_address!r})")


def make_task_runner(kind: str = "default", dask_address: str | None = None,
                     dask_workers: int = LOCAL_CLUSTER_WORKERS) -> Any | None:
    """The Prefect task runner for a name; None keeps the flow's default."""
    check_runner(kind, dask_address)
    if kind == "default":
        return None
    from prefect_dask import DaskTaskRunner

    if dask_address:
        return DaskTaskRunner(address=dask_address)
    return DaskTaskRunner(cluster_class="distributed.LocalCluster",
                          cluster_kwargs={"n_workers": dask_workers, "threads_per_worker": 1, "processes": True,
                                          "dashboard_address": ":0"})


@contextmanager
def api_for_workers() -> Iterator[None]:
    """Give Dask workers a Prefect API to report to.

    With PREFECT_API_URL set (a `prefect server start`, Prefect Cloud, the test
    harness) there is nothing to do. In ephemeral mode each worker process would
    otherwise start a temporary server of its own (seconds each, task runs lost):
    start the process's ephemeral server now (Prefect's flow engine reuses the
    same instance) and export its URL. It listens on 127.0.0.1, so a cluster on
    other machines needs a real server.
    """
    import logging

    from prefect.settings import PREFECT_API_URL, get_current_settings, temporary_settings

    if os.environ.get("PREFECT_LOGGING_LEVEL", "WARNING").upper() in ("WARNING", "ERROR", "CRITICAL"):
        for name in ("distributed", "prefect.task_runner.dask"):
            logging.getLogger(name).setLevel(logging.WARNING)
    if get_current_settings().api.url:
        yield
        return
    from flows.prefect_api import ensure_api

    url = ensure_api()
    if url is None:  # no temporary API allowed: the flow run fails with Prefect's own message
        yield
        return
    old = os.environ.get("PREFECT_API_URL")
    os.environ["PREFECT_API_URL"] = url
    try:
        with temporary_settings({PREFECT_API_URL: url}):
            yield
    finally:
        if old is None:
            os.environ.pop("PREFECT_API_URL", None)
        else:
            os.environ["PREFECT_API_URL"] = old


def is_distributed(task_runner: Any) -> bool:
    """True for runners whose tasks run in other processes (arguments and results are pickled)."""
    from prefect.task_runners import ThreadPoolTaskRunner

    return task_runner is not None and not isinstance(task_runner, ThreadPoolTaskRunner)


_EXTRACT_KW = {"workers": 1} if "workers" in inspect.signature(pipeline.extract_unit).parameters else {}


def extract_on_worker(fetched: Fetched, source: Source) -> pipeline.UnitWork:
    """Worker side: extract one unit against empty keys (see module doc); no nested process pool."""
    if fetched.status == "ok" and fetched.path is not None and not Path(fetched.path).exists():
        import socket

        fetched = Fetched(fetched.unit, "failed", error=(
            f"raw file {fetched.path} is not visible on Dask worker {socket.gethostname()} (pid {os.getpid()}); "
            "put local_dir and local sources on storage every worker mounts at the same path"))
    return pipeline.extract_unit(fetched, source, pipeline.Known(set(), set()), **_EXTRACT_KW)


def reconcile(work: pipeline.UnitWork, known: pipeline.Known, source_name: str) -> pipeline.UnitWork:
    """Apply the lake's keys to a unit extracted against empty keys, as the next unit in order."""
    rec = work.records
    ids = [row["message_id"] for row in rec.messages]
    new, join = known.accept(ids, source_name)
    drop = set(ids) - new
    if drop:
        for name, rows in rec.tables().items():
            rows[:] = [r for r in rows if r["message_id"] not in drop
                       or (name == "memberships" and r["message_id"] in join and r["list_name"] == source_name)]
        work.stats.messages_added -= len(drop)
    return work


class PendingWork:
    """A unit whose extraction runs elsewhere; resolved (and reconciled) in unit order by `load`."""

    def __init__(self, future: Any, fetched: Fetched, source: Source, known: pipeline.Known) -> None:
        self._future, self._fetched, self._source, self._known = future, fetched, source, known
        self._work: pipeline.UnitWork | None = None

    def resolve(self) -> pipeline.UnitWork:
        if self._work is None:
            try:
                work = self._future.result()
            except Exception as exc:  # the task itself failed (worker lost, unpicklable data, ...)
                failed = Fetched(self._fetched.unit, "failed", error=f"extraction task failed: {type(exc).__name__}: {exc}")
                work = pipeline.extract_unit(failed, self._source, self._known)
            self._work = reconcile(work, self._known, self._source.name)
        return self._work

    def __getattr__(self, name: str) -> Any:  # stats, records, ... of the resolved unit
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.resolve(), name)


def distributed_steps(extract_task: Any, load_task: Any, **steps: Any) -> pipeline.Steps:
    """Steps whose extract submits to the flow's task runner and whose load resolves in order."""

    def extract(fetched: Fetched, source: Source, known: pipeline.Known) -> PendingWork:
        return PendingWork(extract_task.submit(fetched, source), fetched, source, known)

    def load(works: list[Any], lake: Any, list_names: list[str], run: str) -> list[dict[str, Any]]:
        resolved = [w.resolve() if isinstance(w, PendingWork) else w for w in works]
        return load_task(quote(resolved), lake, list_names, run)

    return pipeline.Steps(extract=extract, load=load, **steps)

"""Task runners for the ingest flow: the default one, or a Dask cluster through prefect-dask.

With the default runner the per-unit tasks run one after the other in the flow
process (as plain calls). With a distributed runner (`--task-runner dask`) the
extraction of every unit of a chunk is submitted at once and runs on the Dask
workers, while fetching (raw cache, HTTP politeness) and the lake commit
(validation + atomic publish: one writer) stay in the flow process.

The lake's keys (`steps.Known`: every message id in the lake) are not
shipped to the workers -- they grow with the lake and would be pickled for
every task. A worker extracts its unit as if the lake were empty; the flow
process then applies the keys in unit order (`reconcile`), which yields the
same rows as extracting in the flow process one unit after the other: a
message already known keeps only a new list membership, and `Known` grows by
each unit's messages before the next unit is reconciled.

What a worker does get is a hint (flows.knownhint): the keys known when its
unit was submitted, as a digests file in the run's spill folder (workers see
it where they see the raw cache), read once per worker process. A message it
names is decoded but not extracted: its message and membership rows come
back, which is all `reconcile` keeps of a known message. Keys the units of the
same chunk add are not in it (those units run at once): such a message is
extracted there and dropped here, as before.

A big unit is committed in parts there too (steps.extract_parts): the worker
writes each part but the last to a file of the run's spill folder under the
data dir instead of keeping it, and the flow process reads them back, reconciles
and commits them one at a time, so neither side holds the whole unit.

Workers need this package installed, the raw files at the same paths (for a
cluster on other machines: put the config's `local_dir` and local sources on a
shared mount), and a Prefect API they can reach (`PREFECT_API_URL`) to report
task runs.
"""

from __future__ import annotations

import os
import pickle
import shutil
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from flows import steps
from flows.archives.base import Fetched
from flows.config import Source
from flows.knownhint import KnownHint

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


SPILL_KEEP_S = 86400.0  # a spill folder this old was left by a killed run


def extract_on_worker(fetched: Fetched, source: Source, spill_dir: str | None = None,
                      hint: KnownHint | None = None) -> steps.UnitWork:
    """Worker side: extract one unit against empty keys (see module doc), the messages `hint`
    names left unextracted; no nested process pool.

    Without `spill_dir` the unit comes back as one part. With it, only one part is held at a
    time: each part before the last is written to a file there (listed in the last part's
    `spilled`), which the flow process reads back in order (`parts_of`)."""
    if fetched.status == "ok" and fetched.path is not None and not Path(fetched.path).exists():
        import socket

        fetched = Fetched(fetched.unit, "failed", error=(
            f"raw file {fetched.path} is not visible on Dask worker {socket.gethostname()} (pid {os.getpid()}); "
            "put local_dir and local sources on storage every worker mounts at the same path"))
    known = steps.Known(set(), set())
    if spill_dir is None:
        return steps.extract_unit(fetched, source, known, workers=1, hint=hint)
    spilled: list[str] = []
    for work in steps.extract_parts(fetched, source, known, workers=1, hint=hint):
        if work.last:
            work.spilled = spilled
            return work
        path = Path(spill_dir) / f"{work.batch_id}.pickle"
        with open(path, "wb") as f:
            pickle.dump((work.batch_id, work.part, work.records), f, protocol=pickle.HIGHEST_PROTOCOL)
        spilled.append(str(path))
    raise AssertionError("extract_parts ends with its last part")


def parts_of(work: steps.UnitWork, known: steps.Known, source_name: str) -> Iterator[steps.UnitWork]:
    """Flow side: a unit extracted on a worker, part by part in order (spilled parts read back and
    their files deleted), each reconciled with the lake's keys."""
    spilled, work.spilled = work.spilled, []
    for path in spilled:
        with open(path, "rb") as f:  # written by extract_on_worker for this run
            batch_id, part, records = pickle.load(f)
        os.unlink(path)
        yield reconcile(steps.UnitWork(work.fetched, work.stats, records, batch_id, part=part, last=False),
                        known, source_name)
    yield reconcile(work, known, source_name)


@contextmanager
def spill_dir(data_dir: Path) -> Iterator[str]:
    """A folder of this run for the parts Dask workers hand over through files: under the data dir
    (workers see it where they see the raw cache), removed after the run together with any that
    a killed run left behind."""
    root = Path(data_dir) / "spill"
    if root.is_dir():
        for old in root.iterdir():
            with suppress(OSError):
                if time.time() - old.stat().st_mtime > SPILL_KEEP_S:
                    shutil.rmtree(old, ignore_errors=True)
    path = root / uuid.uuid4().hex[:12]
    path.mkdir(parents=True, exist_ok=True)
    try:
        yield str(path)
    finally:
        shutil.rmtree(path, ignore_errors=True)


def reconcile(work: steps.UnitWork, known: steps.Known, source_name: str) -> steps.UnitWork:
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


def resolved(future: Any, fetched: Fetched, source: Source, known: steps.Known) -> Iterator[steps.UnitWork]:
    """The parts of a unit whose extraction runs elsewhere, in order, once it is done."""
    try:
        work = future.result()
    except Exception as exc:  # the task itself failed (worker lost, unpicklable data, ...)
        failed = Fetched(fetched.unit, "failed", error=f"extraction task failed: {type(exc).__name__}: {exc}")
        work = steps.extract_unit(failed, source, known)
    yield from parts_of(work, known, source.name)

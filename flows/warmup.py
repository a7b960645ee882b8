"""Work an ingest run starts ahead, on other threads or processes, so that it overlaps with what
the run waits for (the Prefect API's start, the first fetch) instead of adding to it."""

from __future__ import annotations

from pathlib import Path

from flows.config import Config


def prestart(cfg: Config) -> None:
    """Work that needs no Prefect API, started while it starts, when it is sure to be needed (a
    data dir without a lake yet: every message is new): the worker pool (spawned, its parsers
    imported) and GX. Otherwise both wait for the first changed unit, so that a run with nothing
    new costs only its checks."""
    lake_dir = cfg.lake_dir  # a URL for a remote lake: nothing is started ahead there
    if isinstance(lake_dir, Path) and not (lake_dir.exists() and any(lake_dir.iterdir())):
        from flows import workers
        from flows.parallel import default_workers, ready

        workers.prestart(default_workers(), ready)
        prewarm_validation()


_PREWARMED: list[bool] = []


def prewarm_validation() -> None:
    """GX's import (~3 s) overlaps with decoding instead of adding to it; only when needed."""
    if _PREWARMED:
        return
    _PREWARMED.append(True)
    import threading

    threading.Thread(target=_prewarm, name="gx-prewarm", daemon=True).start()


def _prewarm() -> None:
    """On the thread: importing the gate alone (pandas) takes ~0.5 s the caller need not wait."""
    from expectations.gate import prewarm

    prewarm()

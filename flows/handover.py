"""What this run's checks (flows.checkfirst) already listed and fetched, handed to the run's
list and fetch steps so that no unit is asked twice.

The checks run before Prefect is imported, the flow after, in the same process: its parameters go
through the API, so the answers cannot travel as one. They wait here, each taken once, for the
steps of either kind of run (flows.pipeline plain, flows.tasks in a flow run); a step with
nothing handed to it lists or fetches as usual.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flows import steps
from flows.archives.base import FetchContext, Fetched, Unit
from flows.config import Source

_HANDED: dict[str, Any] = {}  # "listings": source name -> units; "fetched": (source, key) -> answer
_LOCK = threading.Lock()


@contextmanager
def handed(listings: dict[str, list[Unit]], fetched: dict[tuple[str, str], Fetched]) -> Iterator[None]:
    """The answers are there to take while the block runs; whatever is left is dropped after."""
    with _LOCK:
        _HANDED.clear()
        _HANDED.update(listings=dict(listings), fetched=dict(fetched))
    try:
        yield
    finally:
        with _LOCK:
            _HANDED.clear()


def take_listing(source: str) -> list[Unit] | None:
    """The units of `source` the checks listed, once (None: list them)."""
    with _LOCK:
        return _HANDED.get("listings", {}).pop(source, None)


def take_fetched(unit: Unit) -> Fetched | None:
    """The answer the checks got for `unit`, once (None: fetch it)."""
    with _LOCK:
        return _HANDED.get("fetched", {}).pop((unit.source, unit.key), None)


def list_units(source: Source, ctx: FetchContext, since: str | None = None,
               until: str | None = None) -> list[Unit]:
    """steps.list_units, unless the checks already listed the source."""
    listed = take_listing(source.name)
    return steps.list_units(source, ctx, since, until) if listed is None else listed


def fetch_unit(unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
    """steps.fetch_unit, unless the checks already fetched the unit."""
    got = take_fetched(unit)
    return steps.fetch_unit(unit, source, ctx) if got is None else got

"""Decode + extract a unit's messages on several processes, in batches, in order.

Splitting the archive stays in the parent (it is fast, ~800 MB/s); decoding and
extraction (the per-message Python work, see research/perf.md) run in worker
processes on batches of raw messages. At most `2 x workers` batches are in
flight, so memory stays bounded whatever the archive size.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime
from typing import Any

from transforms.mail import Mail, decode_message
from transforms.mbox import Skipped
from transforms.records import Records, add_mail

BATCH_MESSAGES = 400
BATCH_BYTES = 4 * 1024 * 1024
_POOLS: dict[int, ProcessPoolExecutor] = {}


def default_workers() -> int:
    return max(1, min(4, os.cpu_count() or 1))


def _pool(workers: int) -> ProcessPoolExecutor:
    """One pool per process and size, reused across units (spawning costs ~0.5 s)."""
    if workers not in _POOLS:
        _POOLS[workers] = ProcessPoolExecutor(workers, mp_context=mp.get_context("spawn"))
    return _POOLS[workers]


def decode_batch(items: list[bytes | Mail], list_name: str, unit: str, archive_url: str | None,
                 batch_id: str, now: datetime,
                 permalink: tuple[str | None, str | None] = (None, None)) -> tuple[list[str], Records]:
    """Worker side: every message of the batch to rows (first copy of a repeated id only)."""
    rec = Records()
    ids: list[str] = []
    seen: set[str] = set()
    for item in items:
        mail = item if isinstance(item, Mail) else decode_message(item)
        ids.append(mail.message_id)
        if mail.message_id in seen:
            continue
        seen.add(mail.message_id)
        add_mail(rec, mail, list_name=list_name, unit=unit, archive_url=archive_url, batch_id=batch_id,
                 detected_at=now, permalink=permalink)
    return ids, rec


def _batches(items: Iterable[Any], skipped: list[Skipped]) -> Iterator[list[bytes | Mail]]:
    batch: list[bytes | Mail] = []
    size = 0
    for item in items:
        if isinstance(item, Skipped):
            skipped.append(item)
            continue
        batch.append(item)
        size += len(item) if isinstance(item, bytes) else len(item.body)
        if len(batch) >= BATCH_MESSAGES or size >= BATCH_BYTES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def decode_parallel(items: Iterable[Any], workers: int, skipped: list[Skipped],
                    **kw: Any) -> Iterator[tuple[list[str], Records]]:
    """(message ids, rows) per batch, in archive order; runs inline when workers <= 1."""
    if workers <= 1:
        for batch in _batches(items, skipped):
            yield decode_batch(batch, **kw)
        return
    pool = _pool(workers)
    pending: deque[tuple[Future, list[bytes | Mail]]] = deque()
    batches = _batches(items, skipped)
    try:
        for batch in batches:
            pending.append((pool.submit(decode_batch, batch, **kw), batch))
            if len(pending) >= 2 * workers:
                yield _done(pending)
        while pending:
            yield _done(pending)
    except BrokenProcessPool:
        # a worker died (or could not start, e.g. a program read from stdin cannot be
        # re-imported by spawn): finish this unit in-process, the next unit gets a fresh pool
        _POOLS.pop(workers, None)
        for _, batch in pending:
            yield decode_batch(batch, **kw)
        for batch in batches:
            yield decode_batch(batch, **kw)


def _done(pending: deque[tuple[Future, list[bytes | Mail]]]) -> tuple[list[str], Records]:
    """The oldest batch's result; it leaves the queue only once it succeeded (kept for a retry)."""
    result = pending[0][0].result()
    pending.popleft()
    return result

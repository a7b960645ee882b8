"""Decode + extract a unit's messages on worker processes, in batches, in order.

Splitting the archive stays in the parent (it is fast, ~800 MB/s); decoding and
extraction (the per-message Python work, see research/perf.md) run in worker
processes on batches of raw messages. At most `2 x workers` batches are in
flight, so memory stays bounded whatever the archive size.

Every message is decoded and extracted in isolation: one that cannot be decoded,
whose extraction raises, runs over the time budget (flows.workers) or kills its
worker is recorded (message row, body kept for reextract, a quarantine row with
the reason and its place in the unit) and the other messages load.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flows import workers as wk
from flows.knownhint import KnownHint
from transforms.mail import MAX_MIME_DEPTH, Mail, decode_message, raw_mail
from transforms.mbox import DEFAULT_MAX_MESSAGE_BYTES, Skipped
from transforms.records import Records, add_known, add_mail, add_skipped, add_unreadable

BATCH_MESSAGES = 400
BATCH_BYTES = 4 * 1024 * 1024
DECODE, EXTRACT, RECORD = 1, 2, 3  # phases of a message's work, as `workers.mark` reports them


def default_workers() -> int:
    """Worker processes for a unit's extraction: `listbench ingest --workers N` (the environment's
    LISTBENCH_WORKERS, so that a deployment's runs and their processes see it too), else the
    machine's CPUs, at most 4."""
    given = os.environ.get(wk.WORKERS_ENV, "").strip()
    if given:
        if not given.isdigit() or int(given) < 1:
            raise ValueError(f"{wk.WORKERS_ENV} must be a whole number of worker processes, 1 or more (got {given!r})")
        return int(given)
    return max(1, min(4, os.cpu_count() or 1))


def ready() -> bool:
    """A worker's warm-up task: unpickling it imported this module, hence the decoder and parsers."""
    return True


@dataclass(frozen=True, slots=True)
class Stopped:
    """A message whose work was stopped (over budget, or its worker died): record, do not redo."""

    item: bytes | Mail
    phase: int  # EXTRACT: it decoded in time, decode it again for the record; else raw only
    seconds: float
    why: str  # timeout | died


def _size(item: bytes | Mail) -> int:
    return len(item) if isinstance(item, bytes) else len(item.body)


def decode_batch(items: list[bytes | Mail | Stopped], list_name: str, unit: str, archive_url: str | None,
                 batch_id: str, now: datetime, indices: list[int] | None = None,
                 max_depth: int = MAX_MIME_DEPTH,
                 permalink: tuple[str | None, str | None] = (None, None),
                 known: KnownHint | None = None) -> tuple[list[str], Records, list[Skipped]]:
    """Worker side: every message of the batch to rows (first copy of a repeated id only);
    a message that fails is recorded instead (see module doc), never raised. A message whose
    id `known` holds is decoded but not extracted (flows.knownhint): its rows would be dropped."""
    rec = Records()
    ids: list[str] = []
    seen: set[str] = set()
    skipped: list[Skipped] = []
    where = {"list_name": list_name, "unit": unit, "archive_url": archive_url, "batch_id": batch_id,
             "detected_at": now}
    for k, item in enumerate(items):
        index = indices[k] if indices else k
        if isinstance(item, Stopped):
            mail = _stopped(rec, item, index, k, max_depth, where, skipped)
        else:
            wk.mark(k, DECODE)
            try:
                mail = item if isinstance(item, Mail) else decode_message(item, max_depth)
            except wk.MessageTimeout:
                mail = _stopped(rec, Stopped(item, DECODE, wk._ALARM, "timeout"), index, k, max_depth, where, skipped)
            except Exception as exc:  # RecursionError, MemoryError-free surprises in the email package
                reason = f"{type(exc).__name__}: {exc}"[:500]
                mail = raw_mail(item, f"undecodable: {reason}") if isinstance(item, bytes) else item
                if mail.message_id not in seen:
                    add_unreadable(rec, mail, expectation="undecodable message", reason=reason, index=index,
                                   size=_size(item), **where)
                    skipped.append(Skipped(index, f"undecodable: {reason}", _size(item)))
            else:
                if mail.message_id not in seen and known is not None and known.known(mail.message_id):
                    add_known(rec, mail, list_name=list_name, unit=unit, archive_url=archive_url,
                              batch_id=batch_id, permalink=permalink)
                elif mail.message_id not in seen:
                    wk.mark(k, EXTRACT)
                    lengths = [len(rows) for rows in rec.tables().values()]
                    try:
                        add_mail(rec, mail, list_name=list_name, unit=unit, archive_url=archive_url,
                                 batch_id=batch_id, detected_at=now, permalink=permalink)
                    except wk.MessageTimeout:
                        _truncate(rec, lengths)
                        mail = _stopped(rec, Stopped(item, EXTRACT, wk._ALARM, "timeout"), index, k, max_depth,
                                        where, skipped)
                    except Exception as exc:  # a parser bug: this message only
                        _truncate(rec, lengths)
                        reason = f"{type(exc).__name__}: {exc}"[:500]
                        add_unreadable(rec, mail, expectation="extraction failed", reason=reason, index=index,
                                       size=_size(item), **where)
                        skipped.append(Skipped(index, f"extraction failed: {reason}", _size(item)))
        ids.append(mail.message_id)
        seen.add(mail.message_id)
    return ids, rec, skipped


def _truncate(rec: Records, lengths: list[int]) -> None:
    """Drop the rows a failed add_mail appended."""
    for rows, n in zip(rec.tables().values(), lengths, strict=True):
        del rows[n:]


def _stopped(rec: Records, s: Stopped, index: int, k: int, max_depth: int, where: dict[str, Any],
             skipped: list[Skipped]) -> Mail:
    """Record a stopped message: decoded again when decoding was not what took too long."""
    what = "extraction timed out" if s.why == "timeout" else "extraction crashed"
    reason = f"{what} (over {s.seconds:g} s)" if s.why == "timeout" else f"{what} (worker process died)"
    mail: Mail | None = s.item if isinstance(s.item, Mail) else None
    if mail is None and s.phase == EXTRACT:
        wk.mark(k, RECORD)
        try:
            mail = decode_message(s.item, max_depth)  # type: ignore[arg-type]
        except Exception:
            mail = None
    if mail is None:
        mail = raw_mail(s.item, reason)  # type: ignore[arg-type]
    extra = {"seconds": s.seconds} if s.why == "timeout" else {}
    add_unreadable(rec, mail, expectation=what, reason=reason, index=index, size=_size(s.item), **where, **extra)
    skipped.append(Skipped(index, reason, _size(s.item)))
    return mail


def _batches(items: Iterable[Any], skipped: list[Skipped], max_message_bytes: int,
             batch_messages: int = BATCH_MESSAGES) -> Iterator[tuple[list[bytes | Mail], list[int]]]:
    """Batches of messages with their places in the unit; Skipped (and oversized) ones set aside."""
    batch: list[bytes | Mail] = []
    indices: list[int] = []
    size = 0
    for index, item in enumerate(items):
        if isinstance(item, Skipped):
            skipped.append(item)
            continue
        n = _size(item)
        if n > max_message_bytes:
            skipped.append(Skipped(index, f"message larger than {max_message_bytes} bytes", n))
            continue
        batch.append(item)
        indices.append(index)
        size += n
        if len(batch) >= batch_messages or size >= BATCH_BYTES:
            yield batch, indices
            batch, indices, size = [], [], 0
    if batch:
        yield batch, indices


def _on_stop(args: tuple[Any, ...], kw: dict[str, Any], k: int, phase: int, why: str,
             budget: float) -> wk.Task:
    """The batch to send again: message k replaced by its Stopped marker (raw only the 2nd time)."""
    items = list(args[0])
    item = items[k]
    if isinstance(item, Stopped):
        items[k] = Stopped(item.item, DECODE, item.seconds, item.why)
    else:
        items[k] = Stopped(item, EXTRACT if phase == EXTRACT else DECODE, budget, why)
    return (items, *args[1:]), kw


def decode_parallel(items: Iterable[Any], workers: int, skipped: list[Skipped], *, budget_s: float = 0.0,
                    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES, max_depth: int = MAX_MIME_DEPTH,
                    batch_messages: int = BATCH_MESSAGES,
                    known_hint: Callable[[bool], KnownHint | None] | None = None,
                    **kw: Any) -> Iterator[tuple[list[str], Records]]:
    """(message ids, rows) per batch, in archive order. With a budget (seconds per message)
    the batches run on worker processes even for workers <= 1 (flows.workers says why);
    without one and workers <= 1 they run inline. Skipped messages end up in `skipped`, and
    those nobody recorded yet get quarantine rows in a last batch. A batch holds at most
    `batch_messages` messages (a unit committed in small parts asks for smaller batches).
    `known_hint(shared)` gives each batch, as it is sent, the ids whose extraction it may skip
    (`shared`: for another process); asked once the batches before it were handed out and
    accepted as far as the read-ahead lets."""
    set_aside: list[Skipped] = []
    pool = wk.pool(workers) if budget_s > 0 or workers > 1 else None
    tasks = (((batch,), {**kw, "indices": indices, "max_depth": max_depth,
                         "known": None if known_hint is None else known_hint(pool is not None)})
             for batch, indices in _batches(items, set_aside, max_message_bytes, max(1, batch_messages)))
    if pool is not None:
        results = pool.map(decode_batch, tasks, budget_s, lambda *a: _on_stop(*a, budget=budget_s), 2 * max(1, workers))
    else:
        results = (_inline(args, k, budget_s) for args, k in tasks)
    for ids, rec, failed in results:
        skipped.extend(failed)
        yield ids, rec
    if set_aside:
        skipped.extend(set_aside)
        rec = Records()
        for s in set_aside:
            add_skipped(rec, expectation="message skipped", reason=s.reason, index=s.index, size=s.size,
                        list_name=kw["list_name"], unit=kw["unit"], batch_id=kw["batch_id"], detected_at=kw["now"])
        yield [], rec


def _inline(args: tuple[Any, ...], kw: dict[str, Any], budget: float) -> tuple[list[str], Records, list[Skipped]]:
    with wk.inline_budget(budget):
        return decode_batch(*args, **kw)

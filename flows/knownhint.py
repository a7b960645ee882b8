"""Which messages a worker need not extract: the digests of the message ids already known.

A unit that grew since the last run (the current month of a list, an mbox that gained
messages) holds mostly messages the lake already has; their rows would be built on a worker
and then dropped by `steps.Known.accept`. With a hint the worker still decodes such a message
(its id, and its message row for the archive's article links) but does not extract it.

The hint decides nothing: `Known.accept` in the parent still says which messages are new. A
digest in the hint was known to the parent when the batch was sent, and the keys only grow,
so the parent drops every hinted message's rows anyway; the hint only saves the work.

Shipping: a batch carries a `KnownHint` of a few bytes. In the parent's own process it is the
parent's key set itself; for a worker process it names an append-only file of digests (16
bytes a key, the lake's keys first, then each one the run adds) and how much of it the batch
may read. A worker reads what it has not read yet into a key set of its own, once: a lake of
a million messages costs a 16 MB file, read once per worker process, not once per batch.
"""

from __future__ import annotations

import os
import tempfile
import time
import weakref
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flows.keyset import DIGEST, KeySet, digest


@dataclass(frozen=True, slots=True)
class KnownHint:
    """Message ids known to the parent when a batch was sent (see module doc)."""

    path: str | None = None  # the digests file, for another process
    size: int = 0  # bytes of it this batch may read
    local: KeySet | None = field(default=None, compare=False)  # in the parent: its own keys

    def __reduce__(self) -> tuple[Any, ...]:  # the parent's keys never cross a process
        return (KnownHint, (self.path, self.size))

    def known(self, message_id: str) -> bool:
        keys = self.local if self.local is not None else _read(self.path, self.size)
        return keys is not None and keys.contains([digest(message_id)])[0]


class DigestLog:
    """The parent's side: the append-only digests file behind the hints of one `Known`.

    Removed when its `Known` goes (or the process exits); a killed run leaves a file in the
    temporary folder, never anything in the lake, and the next log there removes files a day
    old (one still in use then only stops hinting: its workers extract, the parent decides).
    In a `folder` other machines may read (a shared mount) each write is synced, so a reader
    there sees it."""

    def __init__(self, initial: bytes, folder: str | None = None) -> None:
        _sweep(Path(folder or tempfile.gettempdir()))
        fd, self.path = tempfile.mkstemp(prefix=PREFIX, suffix=SUFFIX, dir=folder)
        self._file = os.fdopen(fd, "wb")
        self._sync = folder is not None
        self._pending: list[bytes] = []
        self.size = 0
        self._finalizer = weakref.finalize(self, _remove, self._file, self.path)
        self._write(initial)

    def add(self, d: bytes) -> None:
        """A digest the parent now knows: in the file before the next hint is handed out."""
        self._pending.append(d)

    def hint(self) -> KnownHint:
        if self._pending:
            self._write(b"".join(self._pending))
            self._pending = []
        return KnownHint(self.path, self.size)

    def _write(self, block: bytes) -> None:
        self._file.write(block)
        self._file.flush()  # workers on this machine read it through the page cache
        if self._sync:
            os.fsync(self._file.fileno())
        self.size += len(block)

    def close(self) -> None:
        self._finalizer()


PREFIX, SUFFIX = "listbench-known-", ".digests"
KEEP_S = 86400.0  # a digests file untouched this long was left by a killed run


def _sweep(folder: Path) -> None:
    for old in folder.glob(f"{PREFIX}*{SUFFIX}"):
        with suppress(OSError):
            if time.time() - old.stat().st_mtime > KEEP_S:
                old.unlink()


def _remove(file: Any, path: str) -> None:
    file.close()
    with suppress(OSError):
        os.unlink(path)


_READ: dict[str, tuple[KeySet, int]] = {}  # in a worker: the one file read so far, and how far


def _read(path: str | None, size: int) -> KeySet | None:
    """The keys of the file up to `size` (at least), read incrementally; None when it cannot be
    read (the message is then extracted: the parent decides anyway)."""
    if path is None:
        return None
    keys, done = _READ.get(path, (None, 0))
    if keys is None:
        _READ.clear()  # a new run's (or a new Known's) file: the old keys are of no use
        keys = KeySet()
    if size > done:
        try:
            with open(path, "rb") as f:
                f.seek(done)
                block = f.read(size - done)
        except OSError:
            return None
        block = block[: len(block) - len(block) % DIGEST]
        keys.extend(block)
        done += len(block)
    _READ[path] = (keys, done)
    return keys

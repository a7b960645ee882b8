"""What every archive kind provides: list its units, fetch one, iterate its messages."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import flows.http as fhttp
from flows.source import Source
from transforms.mail import Mail
from transforms.mbox import Skipped

RawItem = bytes | Mail | Skipped


class UnitError(Exception):
    """A unit that cannot be read; the message says why (recorded in the ledger)."""


@dataclass(frozen=True, slots=True)
class Unit:
    source: str
    key: str  # stable within the source: a month ("2009-04"), a file name, an epoch
    url: str  # path or URL
    month: str | None = None  # YYYY-MM, for --since/--until windows


@dataclass(slots=True)
class Fetched:
    unit: Unit
    status: str  # ok | unchanged | failed
    path: Path | None = None
    etag: str | None = None
    last_modified: str | None = None
    sha256: str | None = None
    bytes: int = 0
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class FetchContext:
    """Per-run state a kind may use: where raw copies go, the HTTP client, the ledger."""

    raw_dir: Path
    http: Any = None  # flows.http.PoliteClient, created lazily for remote sources
    previous: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    recheck: bool = False  # ask again for units a kind would otherwise take as settled

    def last(self, unit: Unit) -> dict[str, Any] | None:
        return self.previous.get((unit.source, unit.key))


class ArchiveKind(Protocol):
    name: str
    Options: type  # its options, a frozen dataclass (flows.archives.options)

    def units(self, source: Source, ctx: FetchContext) -> list[Unit]: ...

    def fetch(self, unit: Unit, source: Source, ctx: FetchContext) -> Fetched: ...

    def messages(self, fetched: Fetched, source: Source) -> Iterator[RawItem]: ...


def sha256_file(path: Path) -> tuple[str, int]:
    """(sha256, size) of a file, read in 16 MB pieces: each piece's hashing gives up the GIL, and
    taking it back behind a busy thread (GX importing ahead) cost ~5 ms a piece, 1.2 s for a
    250 MB mbox in 1 MB pieces where the hashing itself takes 0.15 s."""
    h = hashlib.sha256()
    n = 0
    with open(path, "rb", buffering=0) as f:
        buf = bytearray(min(16 << 20, max(1 << 16, os.fstat(f.fileno()).st_size + 1)))  # small pages: small
        view = memoryview(buf)
        while k := f.readinto(buf):
            h.update(view[:k])
            n += k
    return h.hexdigest(), n


def download(unit: Unit, source: Source, ctx: FetchContext, *, max_bytes: int,
             url: str | None = None) -> Fetched:
    """A unit that is one file (an mbox, a volume): a conditional GET into the raw cache with the
    ledger's validators; unchanged bytes are not parsed again."""
    url = url or unit.url
    dest = fhttp.cache_path(ctx.raw_dir, source.name, unit.key)
    last = ctx.last(unit) or {}
    try:
        got = ctx.http.get_file(url, dest, last, max_bytes)
    except fhttp.FetchError as exc:
        return Fetched(unit, "failed", error=str(exc))
    return Fetched(unit, "ok" if got.changed else "unchanged", path=dest, etag=got.etag,
                   last_modified=got.last_modified, sha256=got.sha256, bytes=got.bytes)

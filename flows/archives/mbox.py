"""`mbox`: one mbox file (plain or .gz), a local path or an http(s) URL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from flows.archives.base import FetchContext, Fetched, RawItem, Unit, UnitError, sha256_file
from flows.archives.base import download as download_file
from flows.archives.compressed import iter_chunks
from flows.archives.options import FileOptions, typed_options
from flows.source import Source
from transforms.mbox import NotAnMbox, normalise_chunks, split_mbox


# A local file's validator, kept in the ledger's `etag`: its size and modification time, as a web
# server's ETag is. The same stamp as the last good fetch means the file is unchanged without
# reading 250 MB to hash them (`--recheck` hashes anyway).
def file_stamp(st: os.stat_result) -> str:
    return f"{st.st_size:x}-{st.st_mtime_ns:x}"


class MboxKind:
    name = "mbox"
    Options = FileOptions

    def units(self, source: Source, ctx: FetchContext) -> list[Unit]:
        key = source.url.rstrip("/").rsplit("/", 1)[-1] or source.name
        return [Unit(source=source.name, key=key, url=source.url)]

    def fetch(self, unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
        if source.is_remote:
            opts = typed_options(FileOptions, source)
            return download_file(unit, source, ctx, max_bytes=opts.max_unit_bytes)
        path = Path(unit.url)
        if not path.is_file():
            return Fetched(unit, "failed", error=f"no such file: {path}")
        stamp = file_stamp(path.stat())
        last = ctx.last(unit)
        if last and last.get("sha256") and last.get("etag") == stamp and not ctx.recheck:
            return Fetched(unit, "unchanged", path=path, etag=stamp, sha256=last["sha256"], bytes=int(last.get("bytes") or 0))
        digest, size = sha256_file(path)
        status = "unchanged" if last and last.get("sha256") == digest else "ok"
        return Fetched(unit, status, path=path, etag=stamp, sha256=digest, bytes=size)

    def messages(self, fetched: Fetched, source: Source) -> Iterator[RawItem]:
        if fetched.path is None:
            raise UnitError("nothing fetched")
        limits = source.limits
        chunks = iter_chunks(fetched.path, max_expanded=limits.max_expanded_bytes,
                             max_ratio=limits.max_compression_ratio)
        try:  # UTF-16 and CR-only files are read too (normalise_chunks)
            yield from split_mbox(normalise_chunks(chunks), limits.max_message_bytes)
        except NotAnMbox as exc:
            raise UnitError(str(exc)) from None


KIND = MboxKind()

"""`mbox`: one mbox file (plain or .gz), a local path or an http(s) URL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from flows.archives.base import FetchContext, Fetched, RawItem, Unit, UnitError, sha256_file
from flows.archives.base import download as download_file
from flows.archives.compressed import iter_chunks
from flows.archives.options import FileOptions, typed_options
from flows.source import Source
from transforms.mbox import NotAnMbox, normalise_chunks, split_mbox


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
        digest, size = sha256_file(path)
        last = ctx.last(unit)
        status = "unchanged" if last and last.get("sha256") == digest else "ok"
        return Fetched(unit, status, path=path, sha256=digest, bytes=size)

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

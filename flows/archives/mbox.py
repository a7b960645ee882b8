"""`mbox`: one mbox file (plain or .gz), a local path or an http(s) URL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from flows.archives.base import FetchContext, Fetched, RawItem, Unit, UnitError, sha256_file
from flows.archives.compressed import DEFAULT_MAX_EXPANDED, DEFAULT_MAX_RATIO, iter_chunks
from flows.config import Source
from transforms.mbox import DEFAULT_MAX_MESSAGE_BYTES, NotAnMbox, split_mbox


class MboxKind:
    name = "mbox"

    def units(self, source: Source, ctx: FetchContext) -> list[Unit]:
        key = source.url.rstrip("/").rsplit("/", 1)[-1] or source.name
        return [Unit(source=source.name, key=key, url=source.url)]

    def fetch(self, unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
        if source.is_remote:
            return ctx.http.download(unit, source, ctx)
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
        chunks = iter_chunks(
            fetched.path,
            max_expanded=int(source.option("max_expanded_bytes", DEFAULT_MAX_EXPANDED)),
            max_ratio=float(source.option("max_compression_ratio", DEFAULT_MAX_RATIO)),
        )
        try:
            yield from split_mbox(chunks, int(source.option("max_message_bytes", DEFAULT_MAX_MESSAGE_BYTES)))
        except NotAnMbox as exc:
            raise UnitError(str(exc)) from None


KIND = MboxKind()

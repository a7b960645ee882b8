"""`mbox`: one mbox file (plain or .gz), a local path or an http(s) URL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from flows.archives.base import FetchContext, Fetched, RawItem, Unit, UnitError, sha256_file
from flows.archives.compressed import DEFAULT_MAX_EXPANDED, DEFAULT_MAX_RATIO, iter_lines
from flows.config import Source
from transforms.mbox import DEFAULT_MAX_MESSAGE_BYTES, iter_mbox, looks_like_mbox


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
        lines = iter_lines(
            fetched.path,
            max_expanded=int(source.option("max_expanded_bytes", DEFAULT_MAX_EXPANDED)),
            max_ratio=float(source.option("max_compression_ratio", DEFAULT_MAX_RATIO)),
        )
        yield from iter_mbox(require_envelope(lines), int(source.option("max_message_bytes", DEFAULT_MAX_MESSAGE_BYTES)))


def require_envelope(lines: Iterator[bytes]) -> Iterator[bytes]:
    """Pass lines through, but fail the unit at once when it is not an mbox (an HTML error page)."""
    for line in lines:
        if line.strip():
            if not looks_like_mbox(line):
                raise UnitError(f"not an mbox: starts with {line[:40].decode('latin-1').strip()!r}")
            yield line
            break
        yield line
    yield from lines


KIND = MboxKind()

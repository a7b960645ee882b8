"""Opening archive files, gzip included, with caps that stop gzip bombs early."""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Iterator
from pathlib import Path

from flows.archives.base import UnitError
from flows.source import Limits

DEFAULT_MAX_EXPANDED = Limits.max_expanded_bytes
DEFAULT_MAX_RATIO = Limits.max_compression_ratio


class _Capped(io.RawIOBase):
    """A read-only stream that raises once more than `limit` bytes came out."""

    def __init__(self, inner: io.BufferedIOBase, limit: int, compressed_size: int, ratio: float):
        self.inner, self.limit, self.count = inner, limit, 0
        self.max_out = min(limit, int(max(compressed_size, 1) * ratio) + (1 << 20))
        self.ratio = ratio

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # type: ignore[override]
        try:
            data = self.inner.read(len(b))
        except (OSError, EOFError, zlib.error) as exc:
            raise UnitError(f"corrupt or truncated gzip: {exc}") from None
        n = len(data)
        self.count += n
        if self.count > self.max_out:
            if self.count > self.limit:
                raise UnitError(f"expands beyond {self.limit} bytes (max_expanded_bytes)")
            raise UnitError(f"compression ratio above {self.ratio:g} (max_compression_ratio): likely a gzip bomb")
        b[:n] = data
        return n


def is_gzip(path: Path) -> bool:
    with open(path, "rb") as f:
        return f.read(2) == b"\x1f\x8b"


def iter_chunks(path: Path, *, chunk_size: int = 1 << 20, max_expanded: int = DEFAULT_MAX_EXPANDED,
                max_ratio: float = DEFAULT_MAX_RATIO) -> Iterator[bytes]:
    """Large byte chunks of a plain or gzip file, streamed; caps apply to gzip only."""
    if is_gzip(path):
        size = path.stat().st_size
        with gzip.open(path, "rb") as raw:
            capped = _Capped(raw, max_expanded, size, max_ratio)
            while True:
                buf = bytearray(chunk_size)
                n = capped.readinto(buf)
                if not n:
                    return
                yield bytes(buf[:n])
    else:
        with open(path, "rb") as f:
            while chunk := f.read(chunk_size):
                yield chunk


def decompress_capped(data: bytes, *, max_expanded: int = DEFAULT_MAX_EXPANDED,
                      max_ratio: float = DEFAULT_MAX_RATIO) -> bytes:
    """Gzip bytes (already in memory, e.g. from stdin) expanded under the same caps as files."""
    with gzip.GzipFile(fileobj=io.BytesIO(data)) as raw:
        capped = _Capped(raw, max_expanded, len(data), max_ratio)  # type: ignore[arg-type]
        out = bytearray()
        buf = bytearray(1 << 20)
        while n := capped.readinto(buf):
            out += buf[:n]
    return bytes(out)

"""Streaming mbox splitting (mboxo and mboxrd), bounded per message."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

# An envelope line: `From sender  Thu Apr 14 11:06:56 2016` (pipermail writes `user at host`).
_ENVELOPE = re.compile(rb"^From \S.*\d\d?:\d\d")
_ESCAPED_FROM = re.compile(rb"^>+From ")

DEFAULT_MAX_MESSAGE_BYTES = 25 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Skipped:
    """A message that was not returned, and why (kept for the run's ledger)."""

    index: int
    reason: str
    size: int


def iter_mbox(
    lines: Iterable[bytes], max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
) -> Iterator[bytes | Skipped]:
    """Yield each message's raw bytes (envelope line removed, `>From ` unescaped).

    `lines` is any iterable of byte lines (an open binary file streams). A message
    over `max_message_bytes` is not held in memory: it yields a `Skipped` instead.
    Text before the first envelope line is treated as a message only if it is not blank.
    """
    buf: list[bytes] = []
    size = 0
    too_big = False
    index = 0
    prev_blank = True
    seen_envelope = False

    def flush() -> bytes | Skipped | None:
        nonlocal buf, size, too_big
        out: bytes | Skipped | None
        if too_big:
            out = Skipped(index, f"message larger than {max_message_bytes} bytes", size)
        elif buf and any(b.strip() for b in buf):
            out = b"".join(buf)
        else:
            out = None
        buf, size, too_big = [], 0, False
        return out

    for line in lines:
        if prev_blank and line.startswith(b"From ") and _ENVELOPE.match(line):
            if seen_envelope or buf:
                item = flush()
                if item is not None:
                    yield item
                    index += 1
            seen_envelope = True
            prev_blank = False
            continue
        prev_blank = not line.strip()
        size += len(line)
        if too_big:
            continue
        if size > max_message_bytes:
            too_big, buf = True, []
            continue
        if line.startswith(b">") and _ESCAPED_FROM.match(line):
            line = line[1:]
        buf.append(line)
    item = flush()
    if item is not None:
        yield item


def looks_like_mbox(head: bytes) -> bool:
    """True when the first non-blank line is an mbox envelope line."""
    first = head.lstrip(b"\r\n").split(b"\n", 1)[0]
    return bool(_ENVELOPE.match(first))

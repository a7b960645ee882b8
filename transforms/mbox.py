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


class NotAnMbox(ValueError):
    """The data does not start with an mbox envelope line (an HTML error page, say)."""


_SEP = re.compile(rb"\n\r?\nFrom ")
_UNESCAPE = re.compile(rb"(?m)^>(>*From )")
_TAIL = 4096  # bytes kept while skipping an oversized message, to find the next separator


def split_mbox(chunks: Iterable[bytes], max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES) -> Iterator[bytes | Skipped]:
    """Like `iter_mbox`, but over large byte chunks: separators are found with one regex
    scan per chunk instead of a Python step per line (~10x faster on big archives).

    The data must start with an envelope line (`NotAnMbox` otherwise).
    """
    buf = b""
    start = -1  # offset in buf where the current message's headers begin; -1: before the first envelope
    too_big = 0  # bytes of the current message dropped so far (0: not oversized)
    index = 0
    for chunk in chunks:
        buf += chunk
        if start < 0:
            head = buf.lstrip(b"\r\n")
            nl = head.find(b"\n")
            if nl < 0 and len(head) < 4096:
                continue
            if not _ENVELOPE.match(head[: nl if nl >= 0 else 4096]):
                raise NotAnMbox(f"not an mbox: starts with {head[:40].decode('latin-1').strip()!r}")
            buf = head
            start = nl + 1
        pos = start
        while True:
            m = _SEP.search(buf, pos)
            if m is None:
                break
            line_start = m.end() - 5
            line_end = buf.find(b"\n", line_start)
            if line_end < 0:
                break  # the envelope line is not complete yet
            if not _ENVELOPE.match(buf[line_start:line_end]):
                pos = line_start
                continue
            end = m.start() + (m.end() - m.start() - 5)  # keep the blank line, as iter_mbox does
            yield _finish(buf[start:end], too_big, index, max_message_bytes)
            index += 1
            too_big = 0
            start = pos = line_end + 1
        buf = buf[start:]
        start = 0
        if len(buf) > max_message_bytes:
            too_big += len(buf) - _TAIL
            buf = buf[-_TAIL:]
    if start >= 0 and buf.strip():
        yield _finish(buf, too_big, index, max_message_bytes)


def _finish(msg: bytes, dropped: int, index: int, limit: int) -> bytes | Skipped:
    if dropped:
        return Skipped(index, f"message larger than {limit} bytes", dropped + len(msg))
    if b">From " in msg:
        msg = _UNESCAPE.sub(rb"\1", msg)
    return msg

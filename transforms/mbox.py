"""Streaming mbox splitting (mboxo and mboxrd), bounded per message."""

from __future__ import annotations

import codecs
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


def looks_like_mbox(head: bytes) -> bool:
    """True when the first non-blank line is an mbox envelope line."""
    first = head.lstrip(b"\r\n").split(b"\n", 1)[0]
    return bool(_ENVELOPE.match(first))


class NotAnMbox(ValueError):
    """The data does not start with an mbox envelope line (an HTML error page, say)."""


_SEP = re.compile(rb"\n\r?\nFrom ")
# `>From ` at a line start loses one `>` (mboxrd). Matched from the line break before it: a
# literal the engine scans for, where a `(?m)^` pattern was tried at every byte (half the split).
_UNESCAPE = re.compile(rb"\n>(>*From )")
_UNESCAPE_FIRST = re.compile(rb">(>*From )")
_TAIL = 4096  # bytes kept while skipping an oversized message, to find the next separator


def split_mbox(chunks: Iterable[bytes], max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES) -> Iterator[bytes | Skipped]:
    """Each message's raw bytes (envelope line removed, `>From ` unescaped), from byte chunks
    of any size (an open binary file's lines work too): one regex scan per chunk finds the
    separators, instead of a Python step per line. A message over `max_message_bytes` is not
    held in memory: a `Skipped` stands in for it. The data must start with an envelope line
    (`NotAnMbox` otherwise).
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
            end = m.start() + (m.end() - m.start() - 5)  # the blank line before the separator stays with the message
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
        if msg[:1] == b">" and _UNESCAPE_FIRST.match(msg):
            msg = msg[1:]
        msg = _UNESCAPE.sub(rb"\n\1", msg)
    return msg


_SNIFF = 4096  # bytes looked at to decide a file's encoding and line ends


def sniff_encoding(head: bytes) -> str | None:
    """The codec to read a file with when it is not ASCII-compatible bytes: UTF-16 (by BOM or by
    its NUL pattern), or UTF-8 with a BOM; None when the bytes are used as they are."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    sample = head[:_SNIFF]
    half = len(sample) // 2
    if half >= 4:
        even, odd = sample[0::2].count(0), sample[1::2].count(0)
        if odd > 0.4 * half and even < 0.05 * half:
            return "utf-16-le"
        if even > 0.4 * half and odd < 0.05 * half:
            return "utf-16-be"
    return None


def normalise_chunks(chunks: Iterable[bytes], notes: list[str] | None = None) -> Iterator[bytes]:
    """Byte chunks as UTF-8 with LF (or CRLF) line ends, whatever their split points.

    UTF-16 files (Windows tools save text so) are decoded and re-encoded as UTF-8, and
    CR-only line ends (classic Mac OS) become LF: otherwise both read as one line without
    an envelope or header, i.e. nothing. Other files pass through untouched (no copy).
    `notes` receives what was done, for the user.
    """
    it = iter(chunks)
    head = b""
    for chunk in it:
        head += chunk
        if len(head) >= _SNIFF:
            break
    if not head:
        return
    enc = sniff_encoding(head)
    decoder = codecs.getincrementaldecoder(enc)("replace") if enc else None

    def recoded() -> Iterator[bytes]:
        yield decoder.decode(head).encode("utf-8") if decoder else head
        for chunk in it:
            yield decoder.decode(chunk).encode("utf-8") if decoder else chunk
        if decoder:
            yield decoder.decode(b"", final=True).encode("utf-8")

    out = recoded()
    first = next(out)
    cr_only = b"\r" in first and b"\n" not in first
    if notes is not None:
        notes += [f"read as {enc}"] if enc and enc != "utf-8-sig" else []
        notes += ["CR line ends read as LF"] if cr_only else []
    if not cr_only:
        yield first
        yield from out
        return
    carry = b""
    for chunk in _chain(first, out):
        data = carry + chunk
        carry = b"\r" if data.endswith(b"\r") else b""
        data = data[:-1] if carry else data
        if data:
            yield data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if carry:
        yield b"\n"


def _chain(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    yield first
    yield from rest

"""`listbench extract`: a post, an .eml or an mbox to rows, without a warehouse.

Under the same caps as ingest (flows.config.Limits): gzip expansion and ratio,
message size, MIME depth. Each message is decoded and extracted on its own; one
that fails is named in `problems` (printed on stderr) and the others give their rows.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flows.config import Limits
from transforms.extract import extract_explained
from transforms.handmade.read import Explained
from transforms.mail import Mail, decode_message, plain_post, raw_mail
from transforms.mbox import Skipped, looks_like_mbox, normalise_chunks, split_mbox
from transforms.rows import result_rows

EXTRACT_COLUMNS = (
    "message_id", "subject", "posted_at", "run_id", "benchmark", "tool_version", "system", "metric",
    "metric_label", "params", "value", "unit", "higher_is_better", "statistic", "quoted", "alignment",
    "layout",
)  # fmt: skip
_HEADER = re.compile(rb"^(From|Subject|Date|Message-I[Dd]|Received|Return-Path|To|MIME-Version|Content-Type|Delivered-To|X-[\w-]+):", re.I)
_QUIET_NOTES = ("text taken from HTML",)  # notes that are not a problem worth a line


def looks_like_email(head: bytes) -> bool:
    """A header block first: `Name: value` lines including a well-known header."""
    lines = head.lstrip(b"\r\n").splitlines()[:40]
    if not lines or not re.match(rb"^[\x21-\x39\x3b-\x7e]+:", lines[0]):
        return False
    return any(_HEADER.match(line) for line in lines[:20])


def iter_mails(data: bytes, name: str, problems: list[str] | None = None, *,
               max_message_bytes: int = Limits.max_message_bytes,
               max_depth: int = Limits.max_mime_depth) -> Iterator[Mail]:
    """The file's messages, decoded one by one; the ones that fail go to `problems`."""
    problems = [] if problems is None else problems
    if looks_like_mbox(data[:4096]):
        for i, item in enumerate(split_mbox([data], max_message_bytes)):
            if isinstance(item, Skipped):
                problems.append(f"message {item.index}: {item.reason}")
                continue
            if len(item) > max_message_bytes:  # split_mbox bounds what it holds, not what it was given
                problems.append(f"message {i}: message larger than {max_message_bytes} bytes")
                continue
            mail = _decode(item, f"message {i}", problems, max_depth)
            if mail is not None:
                yield mail
    elif name.endswith(".eml") or looks_like_email(data[:8192]):
        if len(data) > max_message_bytes:
            problems.append(f"{name}: message larger than {max_message_bytes} bytes")
            return
        mail = _decode(data, name, problems, max_depth)
        if mail is not None:
            yield mail
    else:
        yield plain_post(data.decode("utf-8", errors="replace"), source=name)


def _decode(raw: bytes, label: str, problems: list[str], max_depth: int) -> Mail | None:
    try:
        mail = decode_message(raw, max_depth)
    except Exception as exc:  # RecursionError and other surprises: this message only
        mid = raw_mail(raw, "").message_id
        problems.append(f"{label} <{mid}>: not decoded: {type(exc).__name__}: {exc}")
        return None
    problems += [f"{label} <{mail.message_id}>: {n}" for n in mail.notes if n not in _QUIET_NOTES]
    return mail


def read_input(path: str, *, max_expanded: int = Limits.max_expanded_bytes,
               max_ratio: float = Limits.max_compression_ratio) -> tuple[bytes, str]:
    """The file's bytes (gzip expanded under the ingest caps) and its name."""
    if path == "-":
        name, buf = "<stdin>", bytearray()
        while chunk := sys.stdin.buffer.read(1 << 20):
            buf += chunk
            if len(buf) > max_expanded:
                raise ValueError(f"{name}: larger than {max_expanded} bytes (max_expanded_bytes)")
        data = bytes(buf)
    else:
        p = Path(path)
        if not p.exists():
            raise OSError(f"no such file: {path}")
        if p.is_dir():
            raise OSError(f"{path} is a directory; give a post, an .eml or an mbox file")
        if p.stat().st_size > max_expanded:
            raise ValueError(f"{path}: larger than {max_expanded} bytes (max_expanded_bytes)")
        data, name = p.read_bytes(), p.name
    if data[:2] == b"\x1f\x8b":
        from flows.archives.base import UnitError
        from flows.archives.compressed import decompress_capped

        try:
            data = decompress_capped(data, max_expanded=max_expanded, max_ratio=max_ratio)
        except UnitError as exc:
            raise ValueError(f"{path}: {exc}") from None
    return data, name


def file_mails(path: str, problems: list[str], *,
               max_message_bytes: int = Limits.max_message_bytes) -> Iterator[Mail]:
    """The messages of a file (mbox, one message, or plain text), decoded one by one; what could
    not be read goes to `problems`."""
    data, name = read_input(path)
    notes: list[str] = []
    data = b"".join(normalise_chunks([data], notes))  # UTF-16 and CR-only files read like the others
    problems += [f"{name}: {n}" for n in notes]
    yield from iter_mails(data, name, problems, max_message_bytes=max_message_bytes)


def mail_rows(mail: Mail, body: str | None = None) -> tuple[list[dict[str, Any]], list[Explained]]:
    """The rows of one message (read from `body` in place of its own when given) and what each
    block was taken for."""
    meta = {"message_id": mail.message_id, "subject": mail.subject, "posted_at": mail.posted_at}
    runs, _, explained = extract_explained(mail.body if body is None else body, mail.message_id,
                                           subject=mail.subject)
    return result_rows(runs, meta), explained


def extract_rows(path: str, problems: list[str] | None = None, *, explain: list[str] | None = None,
                 max_message_bytes: int = Limits.max_message_bytes) -> list[dict[str, Any]]:
    """Rows of every message; what could not be read (and why) is appended to `problems`;
    with `explain`, one line per block looked at."""
    problems = [] if problems is None else problems
    rows: list[dict[str, Any]] = []
    for mail in file_mails(path, problems, max_message_bytes=max_message_bytes):
        try:
            found, explained = mail_rows(mail)
        except Exception as exc:  # a parser bug: this message only
            problems.append(f"<{mail.message_id}>: extraction failed: {type(exc).__name__}: {exc}")
            continue
        rows.extend(found)
        if explain is not None:
            explain.append(f"message {mail.message_id}: {mail.subject or ''}".rstrip())
            if not explained:
                explain.append("  no block read: no tool printout matched, and the post names no benchmark or holds no figure")
            for e in explained:
                where = f"lines {e.line_start + 1}-{e.line_end}" + (" (quoted)" if e.quoted else "")
                evidence = f"benchmark {e.benchmark} ({e.evidence})" if e.benchmark else "no benchmark"
                systems = f"; systems {', '.join(e.systems)}" if e.systems else ""
                explain.append(f"  {where}: {e.taken_for}; {evidence}{systems} -> {e.outcome}")
    return rows

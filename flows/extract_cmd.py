"""`listbench extract`: a post, an .eml or an mbox to rows, without a warehouse."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from transforms.extract import extract_explained, result_rows
from transforms.mail import Mail, decode_message, plain_post
from transforms.mbox import Skipped, looks_like_mbox, split_mbox

EXTRACT_COLUMNS = (
    "message_id", "subject", "posted_at", "run_id", "benchmark", "tool_version", "system", "metric",
    "metric_label", "params", "value", "unit", "higher_is_better", "statistic", "quoted", "alignment",
    "layout",
)  # fmt: skip
_HEADER = re.compile(rb"^(From|Subject|Date|Message-I[Dd]|Received|Return-Path|To|MIME-Version|Content-Type|Delivered-To|X-[\w-]+):", re.I)


def looks_like_email(head: bytes) -> bool:
    """A header block first: `Name: value` lines including a well-known header."""
    lines = head.lstrip(b"\r\n").splitlines()[:40]
    if not lines or not re.match(rb"^[\x21-\x39\x3b-\x7e]+:", lines[0]):
        return False
    return any(_HEADER.match(line) for line in lines[:20])


def iter_mails(data: bytes, name: str) -> Iterator[Mail]:
    if looks_like_mbox(data[:4096]):
        for item in split_mbox([data]):
            if not isinstance(item, Skipped):
                yield decode_message(item)
    elif name.endswith(".eml") or looks_like_email(data[:8192]):
        yield decode_message(data)
    else:
        yield plain_post(data.decode("utf-8", errors="replace"), source=name)


def read_input(path: str) -> tuple[bytes, str]:
    if path == "-":
        return sys.stdin.buffer.read(), "<stdin>"
    p = Path(path)
    if not p.exists():
        raise OSError(f"no such file: {path}")
    if p.is_dir():
        raise OSError(f"{path} is a directory; give a post, an .eml or an mbox file")
    data = p.read_bytes()
    if data[:2] == b"\x1f\x8b":
        import gzip
        import zlib

        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise ValueError(f"{path}: corrupt gzip: {exc}") from None
    return data, p.name


def extract_rows(path: str, explain: list[str] | None = None) -> list[dict[str, Any]]:
    """Rows of every message in `path`; with `explain`, one line per block looked at is appended."""
    data, name = read_input(path)
    rows: list[dict[str, Any]] = []
    for mail in iter_mails(data, name):
        meta = {"message_id": mail.message_id, "subject": mail.subject, "posted_at": mail.posted_at}
        runs, _, explained = extract_explained(mail.body, mail.message_id, subject=mail.subject)
        rows.extend(result_rows(runs, meta))
        if explain is not None:
            explain.append(f"message {mail.message_id}: {mail.subject or ''}".rstrip())
            if not explained:
                explain.append("  no block read: the post names no benchmark and no tool output matched")
            for e in explained:
                where = f"lines {e.line_start + 1}-{e.line_end}" + (" (quoted)" if e.quoted else "")
                evidence = f"benchmark {e.benchmark} ({e.evidence})" if e.benchmark else "no benchmark"
                systems = f"; systems {', '.join(e.systems)}" if e.systems else ""
                explain.append(f"  {where}: {e.taken_for}; {evidence}{systems} -> {e.outcome}")
    return rows

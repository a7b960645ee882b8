"""MARC (marc.info) raw downloads to a `Mail`, with the message page's header lines when the raw
download carries only the body.

Addresses are written `user () host ! com`; they are put back before the headers are parsed.
"""

from __future__ import annotations

import re

from transforms.html import decode_html, html_to_text
from transforms.mail import Mail, decode_message

_HEADER = re.compile(rb"^[A-Za-z][A-Za-z0-9-]{0,60}:[ \t]")
_NAMED = re.compile(rb"(?i)^(?:from|subject|date|message-id):[ \t]")
_SHOWN = re.compile(r"^(List|Subject|From|Date|Message-ID):\s{1,20}(\S.{0,2000})$")
_OBFUSCATED = re.compile(rb"([^\s@<>()!]{1,200}) \(\) ([^\s<>()!]{1,200}(?: ! [^\s<>()!]{1,200}){1,10})")


def parse_raw(data: bytes, page: bytes | None = None) -> Mail | None:
    """A raw download (and, when the raw has no header block, the message page) to a `Mail`.

    An HTML answer in place of the raw message (an error page) is not a message.
    """
    if is_html(data):
        return None
    if not has_header(data):
        if page is None:
            return None
        data = _page_headers(page) + b"\n" + data
    end = data.find(b"\n\n")
    head = data[:end if end >= 0 else len(data)]
    # MARC writes addresses as `user () host ! com`; put them back so the headers parse.
    head = _OBFUSCATED.sub(lambda m: m.group(1) + b"@" + m.group(2).replace(b" ! ", b"."), head)
    return decode_message(head + data[len(head):])


def is_html(data: bytes) -> bool:
    return data[:512].lstrip().lower().startswith((b"<!doctype", b"<html", b"<head"))


def has_header(data: bytes) -> bool:
    """Whether a raw download starts with a header block naming the message (some carry only the body)."""
    end = data.find(b"\n\n")
    block = data[:end if end >= 0 else min(len(data), 8192)]
    lines = block.split(b"\n")
    return bool(_HEADER.match(lines[0])) and any(_NAMED.match(line) for line in lines)


def _page_headers(page: bytes) -> bytes:
    """Subject, From, Date and Message-ID as the message page shows them, as header lines."""
    text = html_to_text(decode_html(page))
    text = text[:text.find("[Download message RAW]")] if "[Download message RAW]" in text else text
    out = []
    for line in text.splitlines():
        m = _SHOWN.match(line)
        if m and m.group(1).lower() != "list":
            value = m.group(2).strip()
            if m.group(1).lower() == "message-id" and not value.startswith("<"):
                value = f"<{value}>"
            out.append(f"{m.group(1)}: {value}")
    return "\n".join(out).encode("utf-8") + b"\n"

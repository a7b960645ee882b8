"""MHonArc message pages (lists.xenproject.org, lists.gnu.org, mail-archive.com, later LKML
pages) to a `Mail`.

MHonArc writes the headers twice: as `<!--X-Name: value-->` comments before the HTML and as
visible `Name: value` lines; the comments come first, the visible lines fill gaps. The body is
the `<pre>` between the `<!--X-Body-of-Message-->` markers, kept verbatim.
"""

from __future__ import annotations

import html
import re

from selectolax.lexbor import LexborHTMLParser

from transforms.dates import parse_date
from transforms.html import between, decode_html, html_to_text
from transforms.mail import Mail, header_text, normalise_newlines, parse_from, stable_id

# The value never holds "--" (MHonArc writes `-` as `&#45;`), so a scan for its end stops at the
# next comment instead of crossing the whole page from each unclosed `<!--X-`.
_X_COMMENT = re.compile(r"<!--X-([A-Za-z][A-Za-z0-9-]*): ?((?:[^-\n]|-(?!-))*?) ?-->")
# the value is words joined by blanks: its trailing blanks are never tried as part of it
_HEADER_LINE = re.compile(
    r"^\s*+(?:[\u2022*\u00b7]\s*+)?([A-Za-z][A-Za-z-]{1,30})\s*+:\s*+([^\s]*+(?:\s++\S++)*+)\s*+$"
)
_MSGID = re.compile(r"<([^<>\s]+)>")
_OBFUSCATED = re.compile(r"@x{3,}|address@hidden")
BODY = ("<!--X-Body-of-Message-->", "<!--X-Body-of-Message-End-->")
_HEAD = ("<!--X-Head-of-Message-->", "<!--X-Head-of-Message-End-->")
_SUBJECT_HEAD = ("<!--X-Subject-Header-Begin-->", "<!--X-Subject-Header-End-->")
_VISIBLE = {"to", "from", "date", "subject", "message-id", "in-reply-to", "references", "cc"}
_R13 = str.maketrans("@ABCDEFGHIJKLMNOPQRSTUVWXYZ[abcdefghijklmnopqrstuvwxyz",
                     "NOPQRSTUVWXYZ[@ABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm")


def parse_page(data: bytes) -> Mail | None:
    """One MHonArc message page to a `Mail`; None when the page holds no message."""
    text = decode_html(data)
    xh: dict[str, list[str]] = {}
    for name, value in _X_COMMENT.findall(text):
        xh.setdefault(name.lower(), []).append(html.unescape(value).strip())
    body_html = between(text, *BODY)
    body = _body_text(body_html if body_html is not None else text)
    visible = _visible_headers(text)
    if body is None and not visible and not xh:
        return None
    body = body or ""
    notes: list[str] = []
    subject = _first(xh, "subject") or visible.get("subject") or _subject_header(text)
    name, addr = parse_from(_r13(_first(xh, "from-r13")) or visible.get("from"))
    date_raw = _first(xh, "date") or visible.get("date")
    posted = parse_date(date_raw)
    if date_raw and posted is None:
        notes.append(f"unreadable Date {date_raw[:60]!r}")
    mid = _first(xh, "message-id") or _bare_id(visible.get("message-id"))
    if not mid:
        notes.append("no Message-Id on the archive page")
    refs = [r for r in xh.get("reference", []) if r]
    irt = _MSGID.findall(visible.get("in-reply-to") or "")
    parent = irt[0] if irt and not _OBFUSCATED.search(irt[0]) else (refs[-1] if refs else None)
    return Mail(
        message_id=mid or stable_id(date_raw, addr or name, subject, body),
        body=body,
        subject=header_text(subject),
        from_name=name,
        from_addr=addr,
        posted_at=posted,
        in_reply_to=parent,
        references=refs,
        notes=notes,
    )


def _body_text(fragment: str) -> str | None:
    """The `<pre>` blocks verbatim (entities decoded, whitespace kept); other markup as text."""
    tree = LexborHTMLParser(fragment)
    pres = tree.css("pre")
    if pres:
        return normalise_newlines("\n".join(p.text(deep=True, separator="", strip=False) for p in pres))
    if fragment.strip() and BODY[0] not in fragment and "<html" in fragment.lower():
        return None  # a whole page without a body marker and without <pre>: not a message page
    text = html_to_text(fragment)
    return normalise_newlines(text) if text.strip() else None


def _visible_headers(text: str) -> dict[str, str]:
    """`Name: value` lines of the page header (Xen `<li><em>To</em>: ...`, old plain lines, GNU)."""
    head = between(text, *_HEAD)
    if head is None:
        cut = text.find(BODY[0])
        if cut < 0:
            cut = text.lower().find("<pre")
        head = text[:cut] if cut >= 0 else ""
    out: dict[str, str] = {}
    for line in html_to_text(head).splitlines():
        m = _HEADER_LINE.match(line)
        if m and m.group(1).lower() in _VISIBLE and m.group(2):
            out.setdefault(m.group(1).lower(), m.group(2))
    return out


def _subject_header(text: str) -> str | None:
    frag = between(text, *_SUBJECT_HEAD)
    if not frag:
        return None
    return html_to_text(frag).strip() or None


def _first(xh: dict[str, list[str]], key: str) -> str | None:
    values = xh.get(key)
    return values[0] if values and values[0] else None


def _r13(value: str | None) -> str | None:
    """MHonArc's `X-From-R13` is rot13 over `@A-Z[` and `a-z`, its own inverse."""
    return value.translate(_R13) if value else None


def _bare_id(value: str | None) -> str | None:
    if not value:
        return None
    ids = _MSGID.findall(value)
    return ids[0] if ids else value.strip() or None

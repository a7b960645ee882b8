"""Hypermail message pages (LKML at lkml.iu.edu) of either generation to a `Mail`.

Up to 2003 Hypermail wrote the headers as `<!-- name="..." -->` comments and the body between
`<!-- body="start" -->` and `<!-- body="end" -->`; later pages are MHonArc output in a
Hypermail template. Neither uses `<pre>`: every source line ends in `<br>`, so the body is
rebuilt from the markup to keep a pasted table's columns.
"""

from __future__ import annotations

import html
import re

from transforms.dates import parse_date
from transforms.html import between, decode_html, html_to_text
from transforms.mail import Mail, header_text, normalise_newlines, stable_id
from transforms.pages import mhonarc

_COMMENT = re.compile(r'<!-- ([a-z]{1,20})="([^"\n]{0,4000})" -->')
_BR = re.compile(r"<br\s{0,5}/?>|<p(?:\s[^<>]{0,200})?>", re.IGNORECASE)
_TAG = re.compile(r"<[^<>]*>")
_PRE = re.compile(r"<pre[\s>]", re.IGNORECASE)
_SHOWN = re.compile(r"(?i)<strong>\s{0,3}date:?\s{0,3}</strong>:?\s{0,5}([^<\n]{5,60})")
_SHOWN_FROM = re.compile(r"(?i)<strong>\s{0,3}from:?\s{0,3}</strong>:?\s{0,5}([^<\n]{1,200})")
_OLD_BODY = ('<!-- body="start" -->', '<!-- body="end" -->')
_NEW_BODY = ("<!--X-Body-of-Message-->", "<!--X-Body-of-Message-End-->")


def parse_page(data: bytes) -> Mail | None:
    """One message page of either generation to a `Mail`; None when it holds no message."""
    text = decode_html(data)
    if _NEW_BODY[0] in text:
        mail = mhonarc.parse_page(data)
        if mail is None:
            return None
        mail.body = body_text(between(text, *_NEW_BODY) or "")
        if mail.posted_at is None:
            _shown_date(mail, text)
        if not mail.from_name and (m := _SHOWN_FROM.search(text)):
            mail.from_name = html.unescape(m.group(1)).strip() or None
        return mail
    fragment = between(text, *_OLD_BODY)
    if fragment is None:
        return None
    c = {k: html.unescape(v).strip() for k, v in reversed(_COMMENT.findall(text[:text.find(_OLD_BODY[0])]))}
    notes: list[str] = []
    body = body_text(fragment)
    sent = c.get("sent") or None
    mail = Mail(
        message_id=c.get("id") or stable_id(sent, c.get("email"), c.get("subject"), body),
        body=body,
        subject=header_text(c.get("subject")),
        from_name=c.get("name") or None,
        from_addr=c.get("email") or None,
        posted_at=parse_date(sent),
        in_reply_to=c.get("inreplyto") or None,
        references=[c["inreplyto"]] if c.get("inreplyto") else [],
        notes=notes,
    )
    if not c.get("id"):
        notes.append("no Message-Id on the archive page")
    if mail.posted_at is None:
        _shown_date(mail, text)
    return mail


def body_text(fragment: str) -> str:
    """The source lines as written: `<br>` and `<p>` end lines, other markup dropped, entities decoded."""
    if _PRE.search(fragment):
        return html_to_text(fragment)  # a `<pre>` body: verbatim
    flat = fragment.replace("\r", "").replace("\n", "")
    text = html.unescape(_TAG.sub("", _BR.sub("\n", flat))).replace("\u00a0", " ")
    return normalise_newlines(text).strip("\n") + "\n"


def _shown_date(mail: Mail, text: str) -> None:
    """The visible `Date: Tue Jul 24 2012 - 07:41:42 EST` (the archive's clock, always labelled EST)."""
    m = _SHOWN.search(text)
    if m:
        mail.posted_at = parse_date(m.group(1).strip())
        mail.notes.append("date from the archive's received stamp")

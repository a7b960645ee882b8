"""www.mail-archive.com message pages to a `Mail`.

MHonArc output in mail-archive's own template: the `<!--X-...-->` comments first, then the
visible `div.msgHead` (`span.subject`, `span.sender`, `span.date`) for what they lack. A body
not in `<pre>` has lost its whitespace and says so in a note.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

from transforms.dates import parse_date
from transforms.html import decode_html, html_to_text
from transforms.mail import WHITESPACE_COLLAPSED, Mail, parse_from, stable_id
from transforms.pages import mhonarc


def parse_page(data: bytes) -> Mail | None:
    """One mail-archive.com message page; the MHonArc comments first, the visible head as fallback."""
    text = decode_html(data)
    tree = LexborHTMLParser(text)
    body_div = tree.css_first("div.msgBody")
    if body_div is None and "<!--X-Body-of-Message-->" not in text:
        return None
    mail = mhonarc.parse_page(data)
    if mail is None:
        return None
    notes = mail.notes
    pre = body_div.css("pre") if body_div is not None else []
    if body_div is not None and not pre:
        mail.body = html_to_text(body_div.html or "")
        notes.append(f"{WHITESPACE_COLLAPSED} (mail-archive: body not in <pre>)")
    if not mail.subject:
        mail.subject = _text(tree, "span.subject [itemprop=name]") or _text(tree, "span.subject")
    if not mail.from_name:  # X-From-R13 carries the address only; the head shows the name
        name, addr = parse_from(_text(tree, "span.sender [itemprop=name]") or _text(tree, "span.sender"))
        mail.from_name, mail.from_addr = name, mail.from_addr or addr
    if mail.posted_at is None and (shown := _text(tree, "span.date")):
        mail.posted_at = parse_date(shown)
        if mail.posted_at is None:
            notes.append(f"unreadable Date {shown[:60]!r}")
        else:  # an unreadable X-Date is made good by the date the page shows
            notes[:] = [n for n in notes if not n.startswith("unreadable Date")]
    if "no Message-Id on the archive page" in notes:  # the id was made up from what the page showed
        mail.message_id = stable_id(str(mail.posted_at), mail.from_addr or mail.from_name,
                                    mail.subject, mail.body)
    return mail


def _text(tree: LexborHTMLParser, css: str) -> str | None:
    node = tree.css_first(css)
    text = node.text(deep=True).strip() if node is not None else ""
    return text or None

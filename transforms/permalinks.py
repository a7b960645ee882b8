"""A post's own page in its archive, computed from the archive's base URL and the Message-ID.

Only archives whose message pages are addressed by the Message-ID can be linked without a
crawl: public-inbox (`<inbox>/<message-id>/`) and HyperKitty (`<list root>message/<hash>/`,
the hash being HyperKitty's base32 of the id's SHA-1). Archives that number their pages
(MHonArc) set `Mail.url` from the page they read instead; pipermail numbers its article
pages too, and its month index (`date.html`) pairs them with the month's mbox (ArticleLinks).
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass, field
from urllib.parse import quote

from selectolax.lexbor import LexborHTMLParser

STYLES = ("public-inbox", "hyperkitty")


def bare_id(message_id: str) -> str:
    return message_id.strip().removeprefix("<").removesuffix(">").strip()


def hyperkitty_hash(message_id: str) -> str:
    """HyperKitty's `get_message_id_hash`: base32 of the SHA-1 of the id without `<>`."""
    return base64.b32encode(hashlib.sha1(bare_id(message_id).encode("utf-8")).digest()).decode("ascii")


def permalink(style: str | None, base: str | None, message_id: str) -> str | None:
    """The message's page, or None when the archive has none or the id is one listbench made up."""
    if not style or not base or not base.startswith(("http://", "https://")):
        return None
    if message_id.endswith("@listbench"):  # a stable id for a message that had none
        return None
    root = base if base.endswith("/") else base + "/"
    if style == "public-inbox":
        return root + quote(bare_id(message_id), safe="@!$&'()*+,;=:~-._") + "/"
    if style == "hyperkitty":
        return f"{root}message/{hyperkitty_hash(message_id)}/"
    raise ValueError(f"unknown permalink style {style!r} (have: {', '.join(STYLES)})")


@dataclass(frozen=True, slots=True)
class Article:
    """One line of a pipermail month index (`date.html`): the page, its sequence number, who and what."""

    href: str
    number: int
    subject: str
    author: str


_ARTICLE_HREF = re.compile(r"^(\d{1,9})\.html$")
_BRACKETS = re.compile(r"\[[^\[\]]{0,80}\]")


def pipermail_articles(markup: str) -> list[Article]:
    """The articles a pipermail month index links, by sequence number (the order of the month's mbox)."""
    tree = LexborHTMLParser(markup)
    found: dict[int, Article] = {}
    for li in tree.css("li"):
        link = li.css_first("a[href]")
        m = _ARTICLE_HREF.match((link.attributes.get("href") or "").strip()) if link is not None else None
        if link is None or m is None:
            continue
        author = li.css_first("i")
        number = int(m.group(1))
        found.setdefault(number, Article(m.group(0), number, link.text().strip(),
                                         author.text().strip() if author is not None else ""))
    return [found[n] for n in sorted(found)]


def _norm(text: str | None) -> str:
    """Subjects and names as both the index and the mbox spell them: list tags, case and spacing dropped."""
    return "".join(ch for ch in _BRACKETS.sub("", (text or "").casefold()) if ch.isalnum())


@dataclass(slots=True)
class ArticleLinks:
    """Pairs a pipermail month's messages, in mbox order, with the pages of its index.

    Pipermail numbers a month's articles in the order it appends them to the month's mbox,
    so the next unused article is the expected one; its subject (and author, when both
    sides name one) must agree. A message the index lacks (or an article the mbox lacks)
    is skipped over by looking a few articles ahead for the same subject and author.
    No agreement, no link: NULL, never a wrong page.
    """

    folder: str  # the month's directory URL, with its trailing slash
    articles: list[Article]
    window: int = 50
    _next: int = 0
    _subjects: list[str] = field(default_factory=list)
    _authors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._subjects = [_norm(a.subject) for a in self.articles]
        self._authors = [_norm(a.author) for a in self.articles]

    def link(self, subject: str | None, author: str | None) -> str | None:
        s, who = _norm(subject), _norm(author)
        i = self._next
        if i < len(self.articles) and self._subjects[i] == s and (not who or self._authors[i] in ("", who)):
            return self._take(i)
        for j in range(i, min(len(self.articles), i + self.window)):
            if self._subjects[j] == s and who and self._authors[j] == who:
                return self._take(j)
        return None

    def _take(self, i: int) -> str:
        self._next = i + 1
        return self.folder + self.articles[i].href

    def fill(self, messages: list[dict]) -> None:
        """Set `url` on message rows (in mbox order) that have none."""
        for row in messages:
            url = self.link(row.get("subject"), row.get("from_name"))
            if row.get("url") is None and url is not None:
                row["url"] = url

"""Text from HTML mail and archive pages, keeping `<pre>` whitespace."""

from __future__ import annotations

import codecs
import html as _html
import re

from selectolax.lexbor import LexborHTMLParser

_BLOCK = re.compile(r"\n{3,}")
_CHARSET = re.compile(rb"""charset=["']?([A-Za-z0-9._:-]+)""")


def _strip_tags(markup: str) -> str:
    """Each `<...>` (at least one character inside) becomes a blank, as `re.sub(r"<[^>]+>", " ", s)`
    does, without rescanning the rest of the text from every unclosed `<`."""
    out: list[str] = []
    i = 0
    start = 0
    while (a := markup.find("<", start)) >= 0:
        b = markup.find(">", a + 1)
        if b < 0:
            break
        if b == a + 1:  # `<>` is no tag: go on after its `<`
            start = a + 1
            continue
        out += (markup[i:a], " ")
        i = start = b + 1
    out.append(markup[i:])
    return "".join(out)


def html_to_text(markup: str) -> str:
    """Visible text; `<pre>` blocks verbatim (tables live there), other blocks one per line."""
    try:
        tree = LexborHTMLParser(markup)
    except Exception:
        return _html.unescape(_strip_tags(markup))
    for tag in ("script", "style", "head"):
        for node in tree.css(tag):
            node.decompose()
    root = tree.body or tree.root
    if root is None:
        return ""
    for br in root.css("br"):
        br.replace_with("\n")
    for node in root.css("p, div, tr, li, h1, h2, h3, h4, blockquote"):
        node.insert_after("\n")
    text = root.text(deep=True, separator="", strip=False)
    return _BLOCK.sub("\n\n", text).strip("\n")


def decode_html(data: bytes) -> str:
    """Page bytes as text: the charset the page declares, else UTF-8, else cp1252."""
    m = _CHARSET.search(data[:4096])
    if m:
        try:
            return data.decode(codecs.lookup(m.group(1).decode("ascii")).name)
        except (LookupError, UnicodeDecodeError):
            pass
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def between(text: str, start: str, end: str) -> str | None:
    """The text after the first `start` up to the next `end` (or the end); None without `start`."""
    i = text.find(start)
    if i < 0:
        return None
    j = text.find(end, i)
    return text[i + len(start): j if j >= 0 else len(text)]


def links(markup: str) -> list[str]:
    """Every `href` of the page's links, in page order."""
    return [a.attributes.get("href") or "" for a in LexborHTMLParser(markup).css("a[href]")]

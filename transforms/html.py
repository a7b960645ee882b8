"""Text from HTML mail and archive pages, keeping `<pre>` whitespace."""

from __future__ import annotations

import html as _html
import re

from selectolax.lexbor import LexborHTMLParser

_BLOCK = re.compile(r"\n{3,}")


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

"""Splitting a decoded body into same-quote-depth segments with the prefix removed."""

from __future__ import annotations

import re

from transforms.model import Segment

# `>`, `> >`, `>>`, and Supercite-style initials (`XY>`) at any depth.
_QUOTE = re.compile(r"^((?:[ \t]{0,2}[A-Za-z]{0,3}>)+)(?: |(?=\S)|$)")
_CONTEXT_LINES = 8


_QUOTES_ANYWHERE = re.compile(_QUOTE.pattern.replace("^", "(?m)^", 1))


def strip_quotes(text: str) -> str:
    """The whole text with every line's quote prefix removed (depth information lost)."""
    return _QUOTES_ANYWHERE.sub("", text)


def split_quote(line: str) -> tuple[int, str]:
    """Return (depth, line without its quote prefix)."""
    m = _QUOTE.match(line)
    if not m:
        return 0, line
    prefix = m.group(1)
    return prefix.count(">"), line[m.end():]


def segments(text: str) -> list[Segment]:
    """Group lines by quote depth. Tabs are expanded after the prefix is removed,
    because the prefix was added after the tool printed its columns."""
    out: list[Segment] = []
    cur: list[str] = []
    cur_depth = -1
    start = 0
    recent: list[str] = []
    before: tuple[str, ...] = ()
    for i, raw in enumerate(text.split("\n")):
        depth, body = split_quote(raw.rstrip("\r"))
        body = body.expandtabs(8).rstrip()
        if depth != cur_depth:
            if cur:
                out.append(Segment(cur, start, max(cur_depth, 0), before))
            before = tuple(recent[-_CONTEXT_LINES:])
            cur, cur_depth, start = [], depth, i
        cur.append(body)
        if body.strip():
            recent.append(body)
            if len(recent) > 4 * _CONTEXT_LINES:
                del recent[: 2 * _CONTEXT_LINES]
    if cur:
        out.append(Segment(cur, start, max(cur_depth, 0), before))
    return out

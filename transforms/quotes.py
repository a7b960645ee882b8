"""Splitting a decoded body into same-quote-depth segments with the prefix removed."""

from __future__ import annotations

import re

from transforms.logprefix import strip_log_prefixes
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
    """Group lines by quote depth. Log prefixes (timestamps, host and level tags) are removed per
    block (see `transforms.logprefix`); tabs are expanded after both prefixes are removed,
    because they were added after the tool printed its columns."""
    groups: list[tuple[int, int, list[str]]] = []  # (depth, first line, bodies)
    for i, raw in enumerate(text.split("\n")):
        depth, body = split_quote(raw.rstrip("\r"))
        if not groups or groups[-1][0] != depth:
            groups.append((depth, i, []))
        groups[-1][2].append(body)
    out: list[Segment] = []
    recent: list[str] = []
    for depth, start, bodies in groups:
        cur = [b.expandtabs(8).rstrip() for b in strip_log_prefixes(bodies)]
        out.append(Segment(cur, start, max(depth, 0), tuple(recent[-_CONTEXT_LINES:])))
        for body in cur:
            if body.strip():
                recent.append(body)
                if len(recent) > 4 * _CONTEXT_LINES:
                    del recent[: 2 * _CONTEXT_LINES]
    return out

"""Printouts of two or more systems merged into columns, under a line naming them:

                                Without zcache        With zcache
    OLTP test statistics:
        queries performed:
            read:                  2238446                   2402372(+7%)
            write:                  799445                    857990

A parser reads one value after each key; here each key holds one per system. Every `key: v1 v2`
line is cut into one copy per column (`key: v1`, then `key: v2`) in the same line numbers, and
each copy is read as the printout of the system its column's head names. Lines with no values
(section labels) stay in every copy; a line whose values do not fill the columns (a mailer's
wrap) is left out of all of them.
"""

from __future__ import annotations

import re

from transforms.model import Segment

_MAX_LINE = 400
_MIN_KEYED = 3  # `key: v1 v2` lines that make the pattern
_HEAD_GAP = re.compile(r"[ \t]{3,}+")
# a key, its colon, then the values: each a number with what is glued to it (a unit, an aside in
# parentheses, `/stddev`), the values a wide gap apart
_KEYED = re.compile(r"^(?P<key>[ \t]*+[A-Za-z][\w .,/()%-]{0,60}?:)[ \t]++(?P<rest>\S.*)$")
_VALUE = re.compile(r"[-+]?\d[\d.,]*+(?:/[\d.]++)?+[A-Za-z%/]{0,10}+(?:[ \t]?\([^()]{0,30}+\))?+")
_SEP = re.compile(r"[ \t]{2,}+")
_CHANGE = re.compile(r"[ \t]?\([-+]?\d[\d.]{0,12}+%\)$")  # `2402372(+7%)`: the poster's change, no part of the printout
_NAME = re.compile(r"^[A-Za-z][\w.+/ -]{0,40}$")


def _values(rest: str) -> list[str] | None:
    """The values of a keyed line, or None when anything else stands among them."""
    parts = [p for p in _SEP.split(rest.strip()) if p]
    if not parts or len(parts) > 6 or any(_VALUE.fullmatch(p) is None for p in parts):
        return None
    return parts


def _head(line: str) -> list[tuple[int, str]] | None:
    """A line of two to four names set far in, a wide gap apart (the columns' systems)."""
    if len(line) > _MAX_LINE or not line.startswith("  "):
        return None
    text = line.strip()
    if ":" in text or any(ch.isdigit() for ch in text.split()[0][:1]):
        return None
    names: list[tuple[int, str]] = []
    pos = len(line) - len(line.lstrip())
    for part in _HEAD_GAP.split(line.strip()):
        if not _NAME.match(part):
            return None
        at = line.index(part, pos)
        names.append((at, part))
        pos = at + len(part)
    return names if 2 <= len(names) <= 4 and names[0][0] >= 12 else None


def columns(seg: Segment) -> tuple[list[tuple[str, Segment]], range] | None:
    """The segment as one copy per column (its system, its lines), and the lines they span; None
    when no head of names stands over keyed lines of as many values."""
    text = seg.text
    if ":" not in text or " " * 12 not in text:
        return None  # no keys, or no head set far in
    lines = seg.lines
    for h, line in enumerate(lines):
        heads = _head(line)
        if heads is None:
            continue
        n = len(heads)
        cut: dict[int, list[str]] = {}
        end = h + 1
        blanks = 0
        for k in range(h + 1, min(len(lines), h + 200)):
            text = lines[k]
            if not text.strip():
                blanks += 1
                if blanks > 1:
                    break
                continue
            blanks = 0
            m = _KEYED.match(text) if len(text) <= _MAX_LINE else None
            if m is None:
                if k - end > 1 and not cut:
                    break
                end = k + 1
                continue
            vals = _values(m.group("rest"))
            if vals is not None and len(vals) == n:
                cut[k] = [f"{m.group('key')} {_CHANGE.sub('', v).rstrip()}" for v in vals]
            end = k + 1
        if len(cut) < _MIN_KEYED:
            continue
        span = range(h, end)
        torn = {k for k in span if k not in cut and (m := _KEYED.match(lines[k])) and _values(m.group("rest"))}
        copies = []
        for i, (_, name) in enumerate(heads):
            body = [cut[k][i] if k in cut else "" if k in torn or k == h else x for k, x in enumerate(lines)]
            copies.append((name, Segment(body, seg.offset, seg.depth, seg.before)))
        return copies, span
    return None

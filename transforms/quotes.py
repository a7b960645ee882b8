"""Splitting a decoded body into same-quote-depth segments with the prefix removed."""

from __future__ import annotations

import re

from transforms.logprefix import strip_log_prefixes
from transforms.model import Segment

# `>`, `> >`, `>>`, and Supercite-style initials (`XY>`) at any depth.
# (`>=64=99.7%`, fio's IO depths wrapped onto a line of their own, is no quote)
_QUOTE = re.compile(r"^((?:[ \t]{0,2}[A-Za-z]{0,3}>(?!=))+)(?: |(?=\S)|$)")
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


_WRAP_WIDTH = 68  # mailers wrap at 72-80 columns: a line they broke could not hold one more word in 68
_WRAP_TAIL = 40
_WRAP_CHAIN = 6  # a long unbreakable line (a CSV record) may be broken several times
_WORD = re.compile(r"[A-Za-z][a-z']*[,.;:!?]?")
_CELL = re.compile(r"[-+]?\d[\d.,]{0,20}[%A-Za-z/]{0,5}|\+{3,8}|\*{1,8}")  # `830.2`, `1us`, `+++++`
_MARKS = frozenset("+*- ")  # `+++++ +++`: bonnie++'s cells for a test too fast to measure
_TABULAR = re.compile(r"\S {2,}+\S")  # cells of a table row apart


def _cells(text: str) -> bool:
    """Cells of a table row, apart, with figures in them (`22.35 (-0.90 pct)   21.20 (4.28 pct)`)."""
    return _TABULAR.search(text) is not None and any(ch.isdigit() for ch in text)


def _overflows(raws: list[str], split: list[tuple[int, str]], k: int) -> bool:
    """Line `k`'s first word could not have been added to line `k - 1` within `_WRAP_WIDTH`
    columns, counting only the quoting line `k - 1` had when it was wrapped (the quoting line
    `k` still has was added after the wrap)."""
    body = split[k][1]
    words = body.split()
    head = len(raws[k - 1].rstrip()) - (len(raws[k]) - len(body))
    if words and (body[:1].isspace() or all(_CELL.fullmatch(w) for w in words) or _cells(body)) \
            and head >= _WRAP_WIDTH // 2:
        return True  # a table row broken inside a run of blanks (empty cells): the head lost them
    if words and body[:1].isspace() and (_cells(body) or all(_CELL.fullmatch(w) for w in words)) \
            and head >= _WRAP_WIDTH // 4 and _cells(raws[k - 1]):
        return True  # (however short the head: the run of blanks it lost may have been most of the row,
        # and its rest of figures one blank apart, `   0 100`)
    return bool(words) and head + 1 + len(words[0]) > _WRAP_WIDTH


def _wrapped_out_of_quote(raws: list[str], split: list[tuple[int, str]], depths: list[int], i: int) -> bool:
    """Line `i` is the tail of the quoted line above it, which a mailer wrapped after the quote
    prefix was added (`> Raid0 (8 disk)15744M 54406  96 ... 226651 29` / `830.2   1`): it has less
    quoting than that line, the line above could not have held the tail's first word, the tail
    is short and no sentence (or one unbreakable token, like a CSV record), and the quote goes on
    below it (or a blank line follows a tail holding a number)."""
    depth, prev_depth = split[i][0], depths[i - 1]
    tail = split[i][1].strip()
    token = bool(tail) and len(tail.split()) == 1
    if prev_depth <= depth or not tail or (len(tail) > _WRAP_TAIL and not token and not _cells(tail)) \
            or not (split[i - 1][1].strip() or token) or raws[i - 1].rstrip().endswith((".", "?", "!", ":")):
        return False
    if not _overflows(raws, split, i):
        return False  # the word would have fit: the line ended there on purpose
    if sum(bool(_WORD.fullmatch(w)) for w in tail.split()) >= 3:
        return False  # `I think so too.`: a reply between two quoted lines, not a wrapped tail
    j = i + 1  # past the tail's own wrapped tails (a line broken twice)
    while j < len(split) and j - i <= _WRAP_CHAIN and split[j][0] == depth and _overflows(raws, split, j):
        j += 1
    after = split[j] if j < len(split) else (0, "")
    if after[0] == prev_depth and after[1].strip():
        return True
    return not after[1].strip() and (any(ch.isdigit() for ch in tail) or set(tail) <= _MARKS)


def segments(text: str) -> list[Segment]:
    """Group lines by quote depth. A tail a mailer wrapped out of a quoted line, and a blank line
    quoted less deeply inside a quote, stay in the quote (`_wrapped_out_of_quote`). Log prefixes
    (timestamps, host and level tags) are removed per block (see `transforms.logprefix`); tabs are
    expanded after both prefixes are removed, because they were added after the tool printed its
    columns."""
    groups: list[tuple[int, int, list[str]]] = []  # (depth, first line, bodies)
    raws = [raw.rstrip("\r") for raw in text.split("\n")]
    split = [split_quote(raw) for raw in raws]
    depths: list[int] = []
    for i, (depth, body) in enumerate(split):
        if i and (depths[i - 1] > depth and _wrapped_out_of_quote(raws, split, depths, i)
                  or depths[i - 1] > split[i - 1][0] == depth and _overflows(raws, split, i)):
            depth = depths[i - 1]  # a wrapped tail (or its own tail), without its shallower prefix
        elif i and not body.strip() and depths[i - 1] > depth and i + 1 < len(split) \
                and split[i + 1][0] == depths[i - 1]:
            depth = depths[i - 1]  # a blank line quoted less deeply (or not) inside a quote
        depths.append(depth)
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

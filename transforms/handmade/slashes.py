"""Slash tables: a head of slash-separated names over rows of as many slash-separated numbers
(`size/session/+thu%/+normalize%` over `64/     1/   +2%/    0%`), often two side by side, each
under a caption of its own (`vq size=256 TCP_RR      vq size=512 TCP_RR`).

The virtio-net and vhost maintainers post netperf comparisons this way. Read as an aligned table,
`+2%/` is no number and the caption of one half would be taken for a column head, so the whole
table is lost or misread. Here the leading fields that hold whole numbers under a plain name
(`size`, `session`) are the row's parameters, the others are metrics named by their head; a cell
written with `%` is a change against the post's baseline. A caption over a half names its system,
less a netperf test name in it (`TCP_RR`), which is a parameter.

Every line is read with anchored patterns whose repeats are bounded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from transforms.handmade.cells import read_number
from transforms.parsers._common import names_system
from transforms.parsers.netperf.common import TEST_NAMES

MAX_ROWS = 200
MAX_FIELDS = 12
MAX_GROUPS = 4
# one group of a head: three or more names joined by `/`, maybe a trailing `/`
_HEAD_GROUP = re.compile(r"(?<!\S)[^\s/]{1,30}+(?:/[^\s/]{1,30}+){2,11}/?(?!\S)")
_NUM = r"[-+]?\d{1,12}(?:\.\d{1,12})?%?"
_TEST = re.compile(r"(?<![\w-])(?:" + "|".join(sorted(TEST_NAMES, key=lambda t: (-len(t), t))) + r")(?![\w-])")


@dataclass(slots=True)
class SlashValue:
    line: int
    value: float
    unit: str | None
    key: str  # the metric's head as printed
    system: str | None
    change: bool
    params: dict[str, str] = field(default_factory=dict)


@lru_cache(maxsize=64)
def _row_pattern(fields: int, groups: int) -> re.Pattern[str]:
    group = rf"[ \t]*+({_NUM}(?:[ \t]*+/[ \t]*+{_NUM}){{{fields - 1}}})[ \t]*+/?"
    return re.compile(group * groups + r"[ \t]*+")


def _head(line: str) -> tuple[list[str], list[int]] | None:
    """(field names, start column of each group) of a head line, or None."""
    if len(line) > 400 or "/" not in line:
        return None
    groups = list(_HEAD_GROUP.finditer(line))
    if not groups or len(groups) > MAX_GROUPS or "".join(m.group(0) for m in groups) != "".join(line.split()):
        return None  # the groups must be all the line holds
    names = [g.group(0).rstrip("/").split("/") for g in groups]
    if any(n != names[0] for n in names) or len(names[0]) > MAX_FIELDS:
        return None
    if not any(re.search(r"[A-Za-z]", f) for f in names[0]) or all(read_number(f) for f in names[0]):
        return None
    return names[0], [g.start() for g in groups]


def _captions(line: str, starts: list[int]) -> list[str | None]:
    """The caption over each group: the line cut at the columns where the groups start."""
    if len(starts) == 1:
        return [line.strip() or None]
    cuts = [0, *starts[1:], len(line)]
    return [line[a:b].strip() or None for a, b in zip(cuts, cuts[1:], strict=False)]


def _system(caption: str | None, side_by_side: bool) -> tuple[str | None, dict[str, str]]:
    """(system, params) a group's caption gives: a test name is a parameter, the rest the system."""
    if not caption or len(caption) > 80:
        return None, {}
    params: dict[str, str] = {}
    if m := _TEST.search(caption):
        params["test"] = m.group(0)
        caption = (caption[: m.start()] + caption[m.end():]).strip(" :,-")
    if not caption:
        return None, params
    if side_by_side and len(caption.split()) <= 4:
        return caption, params  # what tells the halves apart
    return names_system(caption), params


def read_slashes(lines: list[str]) -> tuple[list[SlashValue], set[int]]:
    """Values of every slash table in a block, and the lines the tables hold (heads, captions)."""
    out: list[SlashValue] = []
    used: set[int] = set()
    i = 0
    while i < len(lines):
        head = _head(lines[i])
        if head is None:
            i += 1
            continue
        names, starts = head
        rows = _rows(lines, i + 1, len(names), len(starts))
        if not rows:
            i += 1
            continue
        caption_line = lines[i - 1] if i > 0 and lines[i - 1].strip() and _head(lines[i - 1]) is None else ""
        captions = _captions(caption_line, starts) if caption_line else [None] * len(starts)
        out.extend(_values(names, rows, [_system(c, len(starts) > 1) for c in captions]))
        used.update(range(i - (1 if caption_line else 0), rows[-1][0] + 1))
        i = rows[-1][0] + 1
    return out, used


def _rows(lines: list[str], start: int, fields: int, groups: int) -> list[tuple[int, list[list[str]]]]:
    pattern = _row_pattern(fields, groups)
    rows: list[tuple[int, list[list[str]]]] = []
    for j in range(start, min(len(lines), start + MAX_ROWS)):
        m = pattern.fullmatch(lines[j]) if len(lines[j]) <= 400 else None
        if m is None:
            break
        rows.append((j, [[c.strip() for c in g.split("/")] for g in m.groups()]))
    return rows


def _values(names: list[str], rows: list[tuple[int, list[list[str]]]],
            systems: list[tuple[str | None, dict[str, str]]]) -> list[SlashValue]:
    cells = [g for _, groups in rows for g in groups]
    params = 0  # leading fields of whole numbers under a plain name are the rows' parameters
    while params < len(names) - 1 and "%" not in names[params] and "+" not in names[params] \
            and all(c[params].isdigit() for c in cells):
        params += 1
    out: list[SlashValue] = []
    for line, groups in rows:
        for g, cells_of in enumerate(groups):
            system, extra = systems[g]
            where = {**extra, **{names[k]: cells_of[k] for k in range(params)}}
            for k in range(params, len(names)):
                got = read_number(cells_of[k])
                if got is None:
                    continue
                change = cells_of[k].endswith("%")
                out.append(SlashValue(line, got[1], "%" if change else got[2], names[k], system, change, dict(where)))
    return out

"""Log prefixes: the timestamps and tags a harness, CI or `docker compose` puts before each line.

A tool's output copied from a log reads `2016-02-24 04:15:10 Throughput 1663.55 MB/sec ...`,
`[   12.345678] ...`, `host1  | ...` or `[INFO] ...`; a `diff` of two result files puts `< ` before
the old side's lines, and `grep` over several files the name of each (`sda.test1.out:   READ: ...`).
The prefix was added after the tool printed its columns, so, like a quote prefix, it is removed
before any parser reads the lines.

Only a block of at least `MIN_BLOCK` consecutive lines sharing one prefix shape is stripped (a
timestamp's value changes from line to line; a host or level tag must be the same text), so a
single dated line in prose, or a hand-made table whose first column differs from row to row, is
left alone. Blank lines inside a block neither break nor lengthen it. Stripping never changes the
number of lines: line numbers stay those of the message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

MIN_BLOCK = 2
MAX_PREFIX = 120  # characters: a longer match is not a prefix

_LEVELS = r"(?:INFO|DEBUG|WARN|WARNING|ERROR|NOTICE|TRACE|FATAL|CRITICAL)"
# `2016-02-24 04:15:10`, `2023-01-05T10:11:12.1234567Z`, `[2016-02-24 04:15:10,123]`, `... +0000:`
_ISO = re.compile(
    r"\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[ ]?[+-]\d\d:?\d\d)?(?: UTC)?\]?:?[ \t]+"
)
# syslog: `Feb 24 04:15:10 host1 kernel: ` / `Feb 24 04:15:10 host1 lkp[123]: `
_SYSLOG = re.compile(
    r"[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d[ \t]+[\w.-]{1,64}[ \t]+(?:[\w./-]{1,64}(?:\[\d{1,10}\])?:[ \t]+)?"
)
# dmesg / serial console: `[   12.345678] `
_UPTIME = re.compile(r"\[[ \t]{0,12}\d{1,10}\.\d{1,9}\][ \t]?")
_LEVEL_BRACKET = re.compile(rf"\[{_LEVELS}\][ \t]+")
_LEVEL_BARE = re.compile(rf"{_LEVELS}[ \t]{{0,4}}[:|-]?[ \t]+")  # only after a timestamp
# `docker compose`: `web_1  | `, `host1 | `
_HOST_TAG = re.compile(r"[A-Za-z][\w.-]{0,62}[ \t]{0,30}\|(?:[ \t]|$)")

# `diff a b` of two result files: the old side's lines (the new side's `> ` reads as a quote)
_DIFF_OLD = re.compile(r"<[ \t]")
# `grep READ *.out`: each line after the name of the file it was found in (`sda.test1.out:`,
# `logs/run-2.log:12:`)
_FILE_STEM = r"[\w+-][\w./+-]{0,80}"  # a result file's name up to its extension (`sda.test1`, `logs/run-2`)
_LINE_NUMBER = r"(?::\d{1,9})?:"  # `grep -n` puts the line number after the name
_GREP_NAME = rf"[ \t]{{0,8}}{_FILE_STEM}\.(?:out|log|txt|res|results?|dat|data){_LINE_NUMBER}[ \t]"
_GREP_FILE = re.compile(_GREP_NAME + "+")

_TIMES = (("iso", _ISO), ("syslog", _SYSLOG), ("uptime", _UPTIME))
# a cheap test before any block is looked for: some line starts like a prefix
_ANY = re.compile(
    r"(?m)^(?:\[?\d{4}-\d\d-\d\d[T ]\d\d:|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d |\[[ \t]{0,12}\d{1,10}\.\d"
    rf"|\[{_LEVELS}\]|[A-Za-z][\w.-]{{0,62}}[ \t]{{0,30}}\||<[ \t]"
    rf"|{_GREP_NAME})"
)


def _prefix(line: str) -> tuple[tuple[str, ...], int] | None:
    """(shape, length) of the log prefix at the start of `line`, or None.

    The shape names each part; tags (host, level) carry their text so that only the same tag joins
    a block, while timestamps join by kind whatever their value.
    """
    shape: list[str] = []
    pos = 0
    if (m := _DIFF_OLD.match(line)) is not None:
        return ("diff",), m.end()  # `< Simple syscall: 1.6462 microseconds`: the old side of a diff
    if (m := _GREP_FILE.match(line)) is not None:
        return ("file",), m.end()  # a file's name, whatever it is, like a timestamp's value
    if (m := _HOST_TAG.match(line)) is not None:
        shape.append("host:" + line[: m.end()].split("|")[0].strip())
        pos = m.end()
    timed = False
    for kind, pat in _TIMES:
        if (m := pat.match(line, pos)) is not None:
            shape.append(kind)
            pos, timed = m.end(), True
            break
    m = _LEVEL_BRACKET.match(line, pos) or (_LEVEL_BARE.match(line, pos) if timed else None)
    if m is not None:
        shape.append("level:" + line[pos : m.end()].strip(" \t[]:|-"))
        pos = m.end()
    if not shape or pos > MAX_PREFIX:
        return None
    return tuple(shape), pos


def has_log_prefix(text: str) -> bool:
    """Whether any line of `text` may start with a log prefix (a fast test, never a false no)."""
    return _ANY.search(text) is not None


def strip_log_prefixes(lines: Sequence[str]) -> list[str]:
    """`lines` with the log prefix removed from every line of each block that shares one."""
    out = list(lines)
    n = len(out)
    i = 0
    while i < n:
        first = _prefix(out[i]) if out[i].strip() else None
        if first is None:
            i += 1
            continue
        shape = first[0]
        members = [(i, first[1])]
        j = i + 1
        while j < n:
            line = out[j]
            if not line.strip():
                j += 1
                continue
            p = _prefix(line)
            if p is None or p[0] != shape:
                break
            members.append((j, p[1]))
            j += 1
        if len(members) >= MIN_BLOCK and _strippable(out, members):
            for k, cut in members:
                out[k] = out[k][cut:]
        i = members[-1][0] + 1
    return out


def _strippable(lines: Sequence[str], members: Sequence[tuple[int, int]]) -> bool:
    """A host tag alone (`name | ...`) is also the first cell of a hand-made table: strip it only
    when what follows holds no further `|` cell on any line."""
    first = lines[members[0][0]]
    if not first[: members[0][1]].rstrip().endswith("|"):
        return True
    return all("|" not in lines[k][cut:] for k, cut in members)


def strip_text(text: str) -> str:
    """The whole text with log prefixes removed (for a signature scan over a body)."""
    if not has_log_prefix(text):
        return text
    return "\n".join(strip_log_prefixes(text.split("\n")))


# `default-brd.1.fio:     read`: the lead of a line `grep` found in one of several result files
_GREP_LEAD = re.compile(rf"^(?P<file>{_FILE_STEM}\.[A-Za-z]{{1,8}}){_LINE_NUMBER}[ \t]*+(?P<rest>.{{0,60}})$")
_NUMBERED = re.compile(r"^(?P<stem>.{1,80}?)[._-](?P<n>\d{1,3})$")


def grep_file(lead: str) -> tuple[str, str | None, str] | None:
    """(stem, run, rest) of a line's lead naming the result file `grep` found it in: the file's name
    without its extension and run number names what ran (`default-brd`), the number which run
    (`.1`), the rest what the line measured (`read`)."""
    m = _GREP_LEAD.match(lead.strip())
    if m is None:
        return None
    name = m["file"].rsplit(".", 1)[0]
    numbered = _NUMBERED.match(name)
    return (numbered["stem"], numbered["n"], m["rest"].strip()) if numbered else (name, None, m["rest"].strip())


"""Normalized comparison reports, as scheduler developers post them for hackbench, tbench, netperf
and STREAM (one block per test):

    ==================================================================
    Test          : tbench
    Units         : Normalized throughput
    Interpretation: Higher is better
    Statistic     : AMean
    ==================================================================
    Clients:    tip[pct imp](CV)       ttwu_opt[pct imp](CV)
        1     1.00 [  0.00]( 0.82)     1.04 [  4.33]( 1.84)

Each cell is `<value> [<% improvement>](<coefficient of variation>)` under a column head
`<system>[pct imp](CV)`: the value (normalized to the first column) is the result, the
improvement and the spread are not. The `Test` line names the benchmark (`stream-10` is STREAM,
`schbench` is none the project reads: its block gives nothing), the `Units` line the metric, the
row label the parameter the test swept (`1-groups`, `4-clients`, a bare count under `Clients:`),
or for STREAM the kernel it ran (`Copy`, `Triad`). The `Statistic` (`AMean`) is a param.

Every line is matched from its start with bounded repeats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from transforms.handmade.cells import RULE
from transforms.handmade.wrapped import JOINED
from transforms.tools import TOOLS

_KEY = re.compile(r"^[ \t>]*+(Test|Units|Statistic)[ \t]*+:[ \t]*+(\S.{0,80}?)[ \t]*+$")
_HEAD_MARK = re.compile(r"\[pct imp\]\([ \t]{0,3}+(?:CV|std%)\)")  # `[pct imp](CV)`, `[pct imp]( std%)`
_GAP = re.compile(r"\t|  ")
_CELL = re.compile(r"(\d{1,9}(?:\.\d{1,9})?)[ \t]*+\[[ \t]*+[-+]?\d{1,9}(?:\.\d{1,9})?\][ \t]*+"
                   r"\([ \t]*+\d{1,9}(?:\.\d{1,9})?\)")
_COUNT = re.compile(r"^(\d{1,7})(?:-([A-Za-z]{1,20}))?$")  # `1-groups`, `4-clients`, `16`
_TOOL = re.compile(r"[A-Za-z][A-Za-z0-9+]{0,20}")
MAX_ROWS = 200


@dataclass(slots=True)
class NormalizedValue:
    line: int
    benchmark: str
    label: str  # the metric as printed: the Units line, or STREAM's kernel
    value: float
    system: str
    params: dict[str, str] = field(default_factory=dict)
    block: int = 0  # the line of its block's `Test :` key


def read_normalized(lines: list[str]) -> tuple[list[NormalizedValue], set[int]]:
    """The values of every normalized report block in `lines`, and the lines the blocks hold."""
    out: list[NormalizedValue] = []
    used: set[int] = set()
    keys: dict[str, tuple[int, str]] = {}
    for i, line in enumerate(lines):
        if len(line) > 400:
            continue
        if "[pct imp](" not in line:  # (the head of STREAM's table starts `Test:` too)
            if m := _KEY.match(line):
                if m.group(1) == "Test":
                    keys = {}
                keys[m.group(1)] = (i, m.group(2))
            continue
        titled = _title_above(lines, i)
        if titled is not None and not _KEY.match(lines[titled[0]]) and titled[0] > keys.get("Test", (-1, ""))[0]:
            keys = {"Test": titled}  # `hackbench (lower is better)` over `========`: the test, no key block
        if "Test" not in keys:
            continue
        systems, label_head = _heads(line)
        bench = _benchmark(keys["Test"][1])
        if not systems or bench is None:
            continue
        rows = _rows(lines, i + 1, len(systems))
        if not rows:
            continue
        units = keys.get("Units", (i, ""))[1]
        if not units and keys["Test"][0] < i - 1 and not _KEY.match(lines[keys["Test"][0]]):
            units = keys["Test"][1]  # a titled block: its title says what was measured
        base = {"test": keys["Test"][1]} if bench == "stream" else {}
        if "Statistic" in keys:
            base["statistic"] = keys["Statistic"][1]
        for k, label, values in rows:
            metric, params = _row(bench, label, label_head, units)
            for system, value in zip(systems, values, strict=True):
                out.append(NormalizedValue(k, bench, metric, value, system, {**base, **params}, keys["Test"][0]))
        used.update(range(min(j for j, _ in keys.values()), rows[-1][0] + 1))
    return out, used


def _heads(line: str) -> tuple[list[str], str]:
    """(systems, the label column's head) of a head line: each `<system>[pct imp](CV)` cell, its
    system the text back to the gap before it (`With patch[pct imp]( std%)`)."""
    systems: list[str] = []
    start = 0
    label_head = ""
    for m in _HEAD_MARK.finditer(line):
        text = line[start:m.start()]
        gaps = list(_GAP.finditer(text))
        cut = gaps[-1].end() if gaps else 0
        if not systems:
            label_head = text[:cut].strip(" \t>:")
        name = text[cut:].strip()
        if not name:
            return [], ""
        systems.append(name)
        start = m.end()
    return systems, label_head


def _title_above(lines: list[str], i: int) -> tuple[int, str] | None:
    """The title a report block without a key block stands under: the line above its `====` rule
    (`hackbench (lower is better)`), or right above its head line."""
    k = i - 1
    while k >= 0 and not lines[k].strip(" \t>"):
        k -= 1
    if k >= 0 and RULE.match(lines[k].strip(" \t>")):
        k -= 1
    if k < 0 or not (title := lines[k].strip(" \t>")) or len(title) > 80:
        return None
    return k, title


def _benchmark(test: str) -> str | None:
    """`tbench`, `stream-10`, `stream (10 Runs)` -> the benchmark; None for tests the project reads not."""
    m = _TOOL.match(test.strip())
    return TOOLS.get(m.group(0).lower()) if m else None


def _rows(lines: list[str], start: int, n: int) -> list[tuple[int, str, list[float]]]:
    """Rows of `n` cells below a head line; a row label of two parts (`process-sockets   1-groups`)
    is kept whole, its parts a gap apart."""
    rows: list[tuple[int, str, list[float]]] = []
    for k in range(start, min(len(lines), start + MAX_ROWS)):
        if lines[k] == JOINED:
            continue  # the line a mailer broke a row onto, joined to it again (handmade.wrapped)
        text = lines[k] if len(lines[k]) <= 400 else ""
        first = _CELL.search(text)
        cells = _CELL.findall(text) if first else []
        label = text[: first.start()].strip(" \t>") if first else ""
        if not label or len(label) > 60 or len(cells) != n:
            break
        rows.append((k, label, [float(c) for c in cells]))
    return rows


def _row(bench: str, label: str, head: str, units: str) -> tuple[str, dict[str, str]]:
    """(metric label, params) of a row: STREAM's rows are its kernels, the others a swept count."""
    parts = [p for p in _GAP.split(label) if p.strip()]
    if len(parts) == 2 and _COUNT.match(parts[1].strip()):  # `process-sockets   1-groups`
        metric, params = _row(bench, parts[1].strip(), head, units)
        return metric, {"case": parts[0].strip(), **params}
    if bench == "stream" and not label[:1].isdigit():
        return f"{label} ({units})" if units else label, {}
    m = _COUNT.match(label)
    if m is None:
        return units or label, {"case": label}
    name = (m.group(2) or head.lstrip("#") or "case").lower()
    return units or label, {name: m.group(1)}

"""Results in running text and short lists: `vanilla: 1234 MB/s, patched: 1250 MB/s`,
`before 2741 after 2231 (-18%)`.

Only numbers that carry a unit (or stand right after `before`/`after`) are read; a change in
parentheses after them is not a result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from transforms.handmade.cells import cells

_BEFORE_AFTER = re.compile(
    r"\b(?P<a>before|without(?: the)? patch(?:es)?|unpatched|vanilla|baseline|base)\s*[:=]?\s*"
    r"(?P<va>\d[\d,]{0,15}(?:\.\d+)?)\s*(?P<ua>[A-Za-z/%^µ0-9]{0,14})[\s,;]{1,6}(?:and\s+|vs\.?\s+)?"
    r"(?P<b>after|with(?: the)? patch(?:es)?|patched)\s*[:=]?\s*"
    r"(?P<vb>\d[\d,]{0,15}(?:\.\d+)?)\s*(?P<ub>[A-Za-z/%^µ0-9]{0,14})",
    re.I,
)
_DIGIT = re.compile(r"\d")
_BA_WORD = re.compile(r"before|after|patched|vanilla|base", re.I)
_PAIR_LABEL = re.compile(r"^[\w.+/-]{1,30}:$")


@dataclass(slots=True)
class ProseValue:
    line: int
    value: float
    unit: str | None
    system: str | None


def read_prose(lines: list[str], taken: set[int]) -> list[ProseValue]:
    from transforms.handmade.metrics import unit

    out: list[ProseValue] = []
    for i, line in enumerate(lines):
        if i in taken or len(line) > 400 or not _DIGIT.search(line):
            continue
        colon = ":" in line
        if not colon and not _BA_WORD.search(line):
            continue
        m = _BEFORE_AFTER.search(line)
        if m:
            ua, ub = unit(m.group("ua")) if m.group("ua") else None, unit(m.group("ub")) if m.group("ub") else None
            if ua != "%" and ub != "%":
                for sys_key, val, u in (("a", "va", ua or ub), ("b", "vb", ub or ua)):
                    out.append(ProseValue(i, float(m.group(val).replace(",", "")), u, m.group(sys_key).lower()))
                continue
        # label: value unit, label: value unit (two or more pairs, each with a unit)
        if line.count(":") < 2:
            continue
        cs = cells(line)
        pairs: list[ProseValue] = []
        for k in range(len(cs) - 1):
            lab, num = cs[k], cs[k + 1]
            if lab.kind != "label" or num.kind != "abs" or num.unit is None or num.unit == "%":
                continue
            words = lab.text.replace(",", " ").split()
            if not words or not _PAIR_LABEL.match(words[-1]):
                continue
            pairs.append(ProseValue(i, num.value, num.unit, words[-1].rstrip(":")))  # type: ignore[arg-type]
        if len(pairs) >= 2 and len({p.unit for p in pairs}) == 1:
            out.extend(pairs)
    return out

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
    r"\b(?P<a>before|without(?: the)? patch(?:es)?|unpatched|vanilla|baseline|base)\s*+[:=]?\s*+"
    r"(?P<va>\d[\d,]{0,15}(?:\.\d+)?)\s*+(?P<ua>[A-Za-z/%^µ0-9]{0,14})[\s,;]{1,6}(?:and\s+|vs\.?\s+)?"
    r"(?P<b>after|with(?: the)? patch(?:es)?|patched)\s*+[:=]?\s*+"
    r"(?P<vb>\d[\d,]{0,15}(?:\.\d+)?)\s*+(?P<ub>[A-Za-z/%^µ0-9]{0,14})",
    re.I,
)
_DIGIT = re.compile(r"\d")
# `base IOPS is 562K, patch IOPS is 574K`: a subject of one to four words, a verb, a number
_IS = re.compile(
    r"(?P<subj>(?:[A-Za-z][\w/+.-]{0,30} ){0,3}[A-Za-z][\w/+.-]{0,30}) (?:is|was|were|are|gets?|got|reach(?:es|ed)?)"
    r" (?:about |around |~)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?P<scale>[kKMG](?![A-Za-z]))?"
    r"(?: ?(?P<unit>[A-Za-z/%µ]{1,12}))?"
)
_NUM = r"(?:\d{1,3}(?:,\d{3})++(?:\.\d++)?|\d++(?:\.\d++)?)"
_ABOUT = r"(?:(?:about|around|roughly|approx\.?|~)\s?)?"
# `the latency is reduced from 93.78ms to 28.36ms`, `throughput went from 1234 MB/s to 1500 MB/s`
_FROM_TO = re.compile(
    r"(?P<subj>[A-Za-z][\w/%-]{1,30}+)(?:\s(?:has|have|had|is|was|were|are|got|gets|been|being)){0,2}"
    r"\s(?:went|goes|go|dropped|drops|drop|increased|increases|improved|improves|reduced|decreased"
    r"|decreases|rose|rises|fell|falls|grew|grows|jumped|jumps|changed|changes|regressed|regresses"
    r"|moved|moves|climbed|climbs|slowed|sped|up|down)(?:\s(?:up|down))?"
    rf"\sfrom\s{_ABOUT}(?P<a>{_NUM})(?P<sa>[kKMG](?![A-Za-z]))?\s?(?P<ua>[A-Za-z/%µ]{{1,12}}+)?"
    rf"\s(?:to|->)\s{_ABOUT}(?P<b>{_NUM})(?P<sb>[kKMG](?![A-Za-z]))?\s?(?P<ub>[A-Za-z/%µ]{{1,12}}+)?"
)
_FROM_WORD = re.compile(r"\bfrom\b")
_WITH_PATCH = re.compile(r"\b(?P<sys>with(?:out)? (?:the |this |these |my )?(?:patch(?:es|set)?|series|change|fix))\b",
                         re.I)
_IS_WORD = re.compile(r"\b(?:is|was|were|are|gets?|got|reach(?:es|ed)?)\b")
_BA_WORD = re.compile(r"before|after|patched|vanilla|base", re.I)
_PAIR_LABEL = re.compile(r"^[\w.+/-]{1,30}:$")


@dataclass(slots=True)
class ProseValue:
    line: int
    value: float
    unit: str | None
    system: str | None
    label: str | None = None
    scale: str | None = None
    when: str | None = None  # before | after, for `from <a> to <b>`


def _is_pairs(i: int, line: str) -> list[ProseValue]:
    """Two or more `<system> [metric] is <number>[unit]` clauses on one line."""
    from transforms.handmade.metrics import any_metric, unit

    found: list[ProseValue] = []
    for m in _IS.finditer(line):
        words = m.group("subj").split()
        u = unit(m.group("unit")) if m.group("unit") else None
        label = None
        if len(words) > 1 and any_metric(words[-1]):
            label = words.pop()
        if not (u or m.group("scale") or label):
            continue
        found.append(ProseValue(i, float(m.group("num").replace(",", "")), u, " ".join(words[-3:]), label,
                                m.group("scale")))
    return found if len(found) >= 2 else []


def from_to(i: int, line: str) -> list[ProseValue]:
    """`<metric> went from <a> to <b>`: two values, before and after (params `when`); a
    `with the patch` in the sentence names the system of the second."""
    from transforms.handmade.metrics import any_metric, unit

    out: list[ProseValue] = []
    for m in _FROM_TO.finditer(line):
        ua = unit(m.group("ua")) if m.group("ua") else None
        ub = unit(m.group("ub")) if m.group("ub") else None
        if "%" in (ua, ub):
            continue  # `from 3% to 5%`: shares or changes, not results
        subj = m.group("subj")
        if not (ua or ub or any_metric(subj)):
            continue
        named = _WITH_PATCH.search(line[m.end():m.end() + 60])
        after = named.group("sys") if named and not named.group("sys").lower().startswith("without") else None
        for key, s_key, u, when in (("a", "sa", ua or ub, "before"), ("b", "sb", ub or ua, "after")):
            out.append(ProseValue(i, float(m.group(key).replace(",", "")), u, after if when == "after" else None,
                                  subj, m.group(s_key), when))
    return out


def read_prose(lines: list[str], taken: set[int]) -> list[ProseValue]:
    from transforms.handmade.metrics import unit

    out: list[ProseValue] = []
    for i, line in enumerate(lines):
        if i in taken or len(line) > 400 or not _DIGIT.search(line):
            continue
        if _FROM_WORD.search(line):
            found = from_to(i, line)
            if found:
                out.extend(found)
                continue
        if _IS_WORD.search(line):
            found = _is_pairs(i, line)
            if found:
                out.extend(found)
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

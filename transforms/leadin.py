"""The system of a printout that no caption names, from the sentence that leads into it.

Posters often say what they measured in the sentence before the output rather than on a caption
line of its own: `Here is a single dd on my laptop with 4G memory, kernel 2.6.30.`, `Results for
2.6.12-rc6 below`. When one kernel release (and only one) is named in that lead-in paragraph, it is
the system of the rows below it that have none. Failing that, a post that names one release in
all its text (subject included), written as a release (`kernel 2.6.30`, `v5.15`, `2.6.24-rc3`: a
bare `2.1.0` is as often a tool's or library's version), measured that release. Two releases
named: nothing is guessed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from transforms.model import Run, Segment
from transforms.shell import is_prompted
from transforms.tools import names_pattern

# a kernel release as posters write it: `2.6.30`, `2.4.0-test9`, `5.12-rc1`, `v6.6`, `linux-2.6.24`,
# `kernel 4.19`; a two-part number counts only with `kernel`/`linux`/`v` or an -rc/-mm suffix
_RELEASE = re.compile(
    r"(?i)(?<![\w./-])(?:(?P<pre>linux[- ]|kernel[- ]|v)(?P<a>\d{1,2}\.\d{1,2}(?:\.\d{1,3})?)"
    r"|(?P<b>[2-6]\.\d{1,2}\.\d{1,3}|[2-6]\.\d{1,2}(?=-(?:rc|mm|pre|test)\d)))"
    r"(?P<suffix>-(?:rc|mm|pre|test|ac|git|next)[\w.-]{0,20})?(?![\w.]*\d)"
)
# a tool's own version (`fio-3.19`, `iperf 3.1.3`, `version 1.03`) is no release of the system
_TOOL_BEFORE = re.compile(r"(?i)(?:" + names_pattern(without=("tbench", "hackbench", "kernbench", "dd", "hdparm"))
                          + r"|gcc|version|ver\.?|release|v\.)[\s-]{0,2}$")
_LEAD_REACH = 10  # lines above a printout searched for its lead-in paragraph
_MAX_TEXT = 200_000


def releases(text: str, strong: bool = False) -> list[str]:
    """Distinct kernel releases named in `text`, in order (`2.6.30`, `5.12-rc1`); `strong`: only
    those written as releases (`kernel 2.6.30`, `linux-2.6.24`, `v5.15`, `2.6.24-rc3`)."""
    out: list[str] = []
    for m in _RELEASE.finditer(text[:_MAX_TEXT]):
        if _TOOL_BEFORE.search(text[max(0, m.start() - 12):m.start()]):
            continue
        if strong and not (m.group("pre") or m.group("suffix")):
            continue
        name = (m.group("a") or m.group("b")) + (m.group("suffix") or "")
        if name not in out:
            out.append(name)
    return out


def lead_in(lines: Sequence[str], start: int) -> str:
    """The paragraph right above line `start` (blank lines and shell commands between skipped)."""
    k = start - 1
    para: list[str] = []
    while k >= 0 and start - k <= _LEAD_REACH:
        while k >= 0 and start - k <= _LEAD_REACH and not lines[k].strip():
            k -= 1
        para = []
        while k >= 0 and start - k <= _LEAD_REACH and lines[k].strip():
            para.insert(0, lines[k].strip())
            k -= 1
        if not para or not all(is_prompted(x) for x in para):
            break  # a paragraph of commands (`# echo 10 > ...`) is what was run, not what it ran on
    return " ".join(para)


# `first lines for 2.4.7-ac3, then 2.4.7-ac9`, `first run is vanilla, second is patched`,
# `top: base, bottom: patched`: the order of the printouts below names their systems
_NOUN = r"(?:\s++(?:line|row|run|result|number|one|output|block)s?+)?+\s*+(?:(?:is|are|for|from|with|on|of|=|:)\s++)?+"
_ORDER = re.compile(
    r"(?i)\b(?:first|top|upper)" + _NOUN + r"(?P<a>[\w.+/-]{1,40}+)\s*+[,;]?\s*+(?:and\s++)?+(?:the\s++)?+"
    r"(?:then|second|bottom|lower|next)" + _NOUN + r"(?P<b>[\w.+/-]{1,40}+)(?=\s*+(?:[.,;:)]|$))")


def order_legend(lines: Sequence[str]) -> tuple[int, list[str]] | None:
    """(line, [first, second]) of a sentence that names printouts by their order."""
    for k, line in enumerate(lines[:2000]):
        if len(line) > 300 or not re.search(r"(?i)first|top|upper", line):
            continue
        m = _ORDER.search(line)
        if m and m.group("a").lower() != m.group("b").lower():
            return k, [m.group("a").rstrip("."), m.group("b").rstrip(".")]
    return None


def _fill_in_order(found: Sequence[tuple[Run, Segment]]) -> None:
    """Printouts after an order legend, none of them named, taken in turn: first, second, first..."""
    by_seg: dict[int, tuple[Segment, list[Run]]] = {}
    for run, seg in found:
        if run.status == "ok":
            by_seg.setdefault(id(seg), (seg, []))[1].append(run)
    for seg, runs in by_seg.values():
        legend = order_legend(seg.lines)
        if legend is None:
            continue
        line, names = legend
        after = [r for r in runs if r.line_start > line]
        if len(after) < 2 or len(after) % len(names) or any(r.system or any(x.system for x in r.results)
                                                             for r in after):
            continue
        for i, run in enumerate(sorted(after, key=lambda r: r.line_start)):
            run.system = names[i % len(names)]


def fill_systems(found: Sequence[tuple[Run, Segment]], body: str, subject: str | None) -> None:
    """Give runs whose rows name no system the release their lead-in (or the whole post) names."""
    _fill_in_order(found)
    whole: list[str] | None = None
    for run, seg in found:
        if run.status != "ok" or run.system or any(r.system for r in run.results):
            continue
        named = releases(lead_in(seg.lines, run.line_start))
        if not named:
            if whole is None:
                text = f"{subject or ''}\n{body}"
                whole = releases(text, strong=True) if len(releases(text)) == 1 else []
            named = whole
        if len(named) == 1:
            run.system = named[0]

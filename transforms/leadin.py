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

# a kernel release as posters write it: `2.6.30`, `2.4.0-test9`, `5.12-rc1`, `v6.6`, `linux-2.6.24`,
# `kernel 4.19`; a two-part number counts only with `kernel`/`linux`/`v` or an -rc/-mm suffix
_RELEASE = re.compile(
    r"(?i)(?<![\w./-])(?:(?P<pre>linux[- ]|kernel[- ]|v)(?P<a>\d{1,2}\.\d{1,2}(?:\.\d{1,3})?)"
    r"|(?P<b>[2-6]\.\d{1,2}\.\d{1,3}|[2-6]\.\d{1,2}(?=-(?:rc|mm|pre|test)\d)))"
    r"(?P<suffix>-(?:rc|mm|pre|test|ac|git|next)[\w.-]{0,20})?(?![\w.]*\d)"
)
# a tool's own version (`fio-3.19`, `iperf 3.1.3`, `version 1.03`) is no release of the system
_TOOL_BEFORE = re.compile(r"(?i)(?:fio|iperf3?|netperf|bonnie\+*|dbench|sysbench|stream|lmbench|unixbench|gcc"
                          r"|version|ver\.?|release|v\.)[\s-]{0,2}$")
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


def fill_systems(found: Sequence[tuple[Run, Segment]], body: str, subject: str | None) -> None:
    """Give runs whose rows name no system the release their lead-in (or the whole post) names."""
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

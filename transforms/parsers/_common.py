"""Helpers several benchmark parsers share, kept once here so that every parser reads alike.

Two families of caption handling live side by side because they answer differently and the
golden fixtures pin both:

* `nearest_caption` + `system_label` (iperf, fio, dbench, hackbench): the nearest text line
  above a block is the caption; it names the system only when it reads like a label.
* `caption_above` (kernbench, sysbench, stream, dd/hdparm): only a line standing alone above
  the block counts, and it is cleaned of decoration.

Likewise `number_repeated_results` numbers single results, `number_repeated_runs` whole runs.
Everything here is a pure function of its arguments (the numbering ones fill in
``params["repeat"]`` on the results they are given, and nothing else).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from decimal import Decimal, InvalidOperation

from transforms.model import Result, Run, Segment

# --- nearest caption line and the system label it names ------------------------------------------

_CAPTION_STOP = re.compile(
    r"\b(?:wrote|said)\s*:\s*$|^(?:on\s|[^<@\n]*+[<@]).*\bwrites\s*:\s*$"
    r"|^(?:test\s+)?(?:results?|output|example|log|commands?|cmd|steps|analysis|summary|details?"
    r"|notes?|update|here|numbers|data|vs\.?|versus)(?:\s*+:)?\s*$",
    re.I,
)
# `user@host:dir$ `, split at the first `@` and the first `:`/`~` after it
_SHELL = re.compile(r"^\s*+(?:[#$%]\s+\S|[^\s@]++@[^\s:~]++[:~]\S*\s*[#$]\s)")
_LIST = re.compile(r"^(?:\d+[.)]\s+|\d+\)|[-*+]\s+)")
_BULLET = re.compile(r"^(?:\d+[.)]\s+|\d+\)|[-*+]\s+|#+\s*)")
_LABEL = re.compile(r"^(?=.*[A-Za-z])(?=.*\d)[\w.+/=-]{3,40}$")  # one token: `linux-2.4.10-pre12`
_RULE = re.compile(r"^(?:[`~=_*#-] ?){3,}$")  # ```, ====, - - - -


def nearest_caption(seg: Segment, start: int) -> str | None:
    """Posters say what a block is on the line above it: that line (prompts, rules skipped)."""
    skipped = 0
    for k in range(start - 1, -1, -1):  # no slice: a copy of every line above each block adds up
        raw = seg.lines[k]
        text = raw.strip()
        if not text or _RULE.match(text):
            continue
        if _SHELL.match(raw) and skipped < 3:
            skipped += 1
            continue
        return text
    return seg.before[-1].strip() if seg.before else None


def system_label(caption: str | None) -> str | None:
    """Only a label-like caption (`2.4.16:`, `- default`, `linux-2.4.10-pre12`) names a system."""
    if not caption:
        return None
    text = caption.strip().strip("*_").strip()
    if len(text) > 60 or text.startswith("..") or text.endswith("::"):
        return None
    if text.endswith(":"):
        text = text[:-1]
    elif not (_LIST.match(text) and len(text) <= 40 and not text.endswith((".", ","))) and not _LABEL.match(text):
        return None
    text = " ".join(_BULLET.sub("", text).strip().strip("*_").split())
    if not text or _CAPTION_STOP.search(text + ":") or re.search(r"[.!?]\s", text):
        return None  # empty, generic, or the tail of a prose paragraph
    return text


def number_repeated_results(runs: list[Run]) -> None:
    """Same system, metric and params twice in a segment would collide as rows: params.repeat = 1..N."""
    groups: dict[tuple, list[Result]] = {}
    for run in runs:
        if run.status != "ok":
            continue
        for r in run.results:
            key = (r.system or run.system, r.metric, r.statistic, tuple(sorted(r.params.items())))
            groups.setdefault(key, []).append(r)
    for same in groups.values():
        if len(same) > 1:
            for i, r in enumerate(same, 1):
                r.params["repeat"] = str(i)


def scaled(token: str, factor: Decimal, suffixes: Mapping[str, Decimal] | None = None) -> float | None:
    """Unit conversion must add no float error: `token` x `factor` in Decimal, then float or None."""
    # With `suffixes` (fio's num2str `26.2k`) a trailing suffix letter multiplies the number first.
    mult = Decimal(1)
    if suffixes is not None and token and token[-1] in suffixes:
        token, mult = token[:-1], suffixes[token[-1]]
    try:
        number = Decimal(token) if suffixes is None else Decimal(token) * mult
        value = float(number * factor)
    except (InvalidOperation, ValueError):
        return None
    return value if math.isfinite(value) else None


# --- a standalone caption above a block ------------------------------------------------------------

_UNDERLINE = re.compile(r"^[-=~_*#]{3,}$")
_MARKUP = re.compile(r"^(?:`{3}|~{3}|</?\w++[^>]*+>$)")
_PROMPT = re.compile(r"^\[?[\w.-]+@[\w.-]+[\]:\s]")  # user@host:~# ...
_CAPTION_STOPWORDS = frozenset(
    {"kernbench", "sysbench", "stream", "dd", "hdparm", "results", "result", "output",
     "benchmark", "benchmarks", "test", "tests", "numbers", "data"}
)  # fmt: skip


def _clean_caption(text: str, underlined: bool) -> str | None:
    """A line a poster wrote to name what follows, or None when it reads as prose."""
    if text.startswith("##"):
        return None  # a markdown section heading names a part of a document, not a system
    decorated = text[:1] in "#*[-" or text.endswith(":")
    core = text.strip("#*=-~[] \t").rstrip(":").strip("*=-~ \t")
    if not core or len(core) > 60 or core.endswith((".", ",", ";", "!", "?")):
        return None
    if any(ch in core for ch in "=|$") or "://" in core or _PROMPT.match(text):
        return None
    words = core.split()
    if {w.lower().strip(",") for w in words} <= _CAPTION_STOPWORDS:
        return None
    if underlined or decorated:
        return core if len(words) <= 10 else None
    return core if len(words) <= 5 else None


def caption_above(
    lines: Sequence[str],
    index: int,
    floor: int = 0,
    skip: Callable[[str], bool] | None = None,
    before: Sequence[str] = (),
) -> tuple[bool, str | None]:
    """Posters name a block on a line standing alone above it: (blocked, that name), down to ``floor``."""
    # Blank lines, underline rules and lines ``skip`` accepts (tool chatter, command lines) are
    # passed over; the first other line is the candidate. It counts as a caption only when it
    # stands alone (a blank line, a rule or the start of the segment above it, or a `#`/`*`/`-`
    # decoration) and reads like a label, not like the tail of a wrapped sentence. When the
    # search reaches the top of the segment (``floor`` <= 0), ``before`` (the message lines
    # preceding it) is searched too, without the stand-alone test.
    #
    # Returns ``(blocked, caption)``: ``blocked`` is False when only skippable lines were
    # found, so the caller may keep the previous block's system.

    def standalone(k: int) -> bool:
        above = lines[k - 1].strip() if k > 0 else ""
        return not above or bool(_UNDERLINE.match(above) or _MARKUP.match(above))

    def candidates() -> Iterator[tuple[int | None, str]]:
        for k in range(index - 1, max(floor, 0) - 1, -1):
            yield k, lines[k].strip()
        if floor <= 0:
            for b in reversed(before):
                yield None, b.strip()

    underlined = False
    for k, s in candidates():
        if not s or _UNDERLINE.match(s):
            underlined = underlined or bool(s)
            continue
        if skip is not None and skip(s):
            continue
        if _MARKUP.match(s):
            return True, None
        if k is not None and not (standalone(k) or s[:1] in "#*-"):
            return True, None
        return True, _clean_caption(s, underlined)
    return False, None


def number_repeated_runs(runs: Sequence[Run]) -> None:
    """Runs of one post measuring the same system and params would collide: repeat = 1..N in order."""

    def key(run: Run) -> frozenset:
        return frozenset(
            (r.system or run.system or "", tuple(sorted(r.params.items()))) for r in run.results
        )

    groups: dict[frozenset, list[Run]] = {}
    for run in runs:
        if run.status == "ok" and run.results:
            groups.setdefault(key(run), []).append(run)
    for same in groups.values():
        if len(same) < 2:
            continue
        for n, run in enumerate(same, start=1):
            for r in run.results:
                r.params["repeat"] = str(n)

"""Helpers several benchmark parsers share, kept once here so that every parser reads alike.

Two families of caption handling live side by side because they answer differently and the
golden fixtures pin both:

* `nearest_caption` + `system_label` (iperf, fio, dbench, hackbench): the nearest text line
  above a block is the caption; it names the system only when it reads like a label.
* `caption_above` (kernbench, sysbench, stream, dd/hdparm): only a line standing alone above
  the block counts, and it is cleaned of decoration.

Over both sits one rule for every parser (`naming_caption`, `printout_system`): a line naming what
was measured (a kernel version, a patch, `Unpatched`/`Patched`, `guest`/`host`, an underlined
configuration heading) is the system of the printouts below it, even with prose or other output in
between; a device, host name or address the tool prints is a parameter, and stands in as the system
only when no caption names one.

Likewise `number_repeated_results` numbers single results, `number_repeated_runs` whole runs.
Everything here is a pure function of its arguments (the numbering ones fill in
``params["repeat"]`` on the results they are given, and nothing else).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from decimal import Decimal, InvalidOperation

from transforms.leadin import order_legend
from transforms.model import Result, Run, Segment
from transforms.shell import is_prompted, traced
from transforms.tools import TOOLS, names_pattern

# The head of a column of changes against another (`Diff`, `%`, `Δ`, `improvement`): hand-made
# tables and the hand-made tables a tool's parser reads (unixbench's index by system) skip it
CHANGE_HEAD = re.compile(r"^(?:%|\(%\)|diff|delta|change|chg|\+/-%?|gain|improvement|impr|speedup"
                         r"|ratio|regression|Δ|%\s*diff|%\s*change|diff\s*%|delta\s*%|%\s*delta"
                         r"|% improvement|% gain|rel|relative|vs\.?.*|difference)\b", re.I)

# --- nearest caption line and the system label it names ------------------------------------------

_CAPTION_STOP = re.compile(
    r"\b(?:wrote|said)\s*:\s*$|^(?:on\s|[^<@\n]*+[<@]).*\bwrites\s*:\s*$"
    r"|^(?:test\s+)?(?:results?|output|example|log|commands?|cmd|steps|analysis|summary|details?"
    r"|notes?|update|here|numbers|data|vs\.?|versus)(?:\s*+:)?\s*$",
    re.I,
)
_LIST = re.compile(r"^(?:\d+[.)]\s+|\d+\)|[-*+]\s+)")
# `Here is a MTU of 9000:`, `Here are the numbers with THP:` (after a sentence, or starting the line)
_HERE_IS = re.compile(r"(?i)(?:^|[.!?][ \t]++)(?:here[ \t]++(?:is|are)|here's|this[ \t]++is|these[ \t]++are)[ \t]++"
                      r"(?:(?:a|an|the)[ \t]++)?+(?:(?:results?|numbers|output|data|figures)[ \t]++(?:for|of|on|with)[ \t]++)?+"
                      r"(?!(?:what|how|why|where|when|which|it|my|our|some)\b)(?P<what>[^:!?]{2,60}+):$")
# `Whereas before the test, it was:`, `With the patch applied, I get:`: the condition, then who said what
_CLAUSE_THEN_SAID = re.compile(r"(?i)^(?:(?:whereas|while|and|but|so|now)[ \t]++)?(?P<what>[^,:\s]++[ \t]++[^,:]{1,40}+),[ \t]*+"
                               r"(?:it|i|we|they|you)[ \t]++(?:was|were|is|are|get|got|see|saw|have|had|gets)"
                               r"(?:[ \t]++(?:this|these|the following))?[ \t]*+:$")
_SPEAKER = re.compile(r"(?i)^(?:i|i'm|i've|i'd|we|we're|we've|you)\s")  # (`These are with X running` names X)
_BULLET = re.compile(r"^(?:\d+[.)]\s+|\d+\)|[-*+]\s+|#+\s*)")
_LABEL = re.compile(r"^(?=.*[A-Za-z])(?=.*\d)[\w.+/=-]{3,40}$")  # one token: `linux-2.4.10-pre12`
# `1) 2.2.17`, `(2) under migration`, `1.Fixed hsq_depth`: an item's label
_ENUMERATED = re.compile(r"^\(?\d{1,2}(?:[.)][^\S\n]++(?=\S)|\.(?=[A-Z][a-z]))")
_RULE = re.compile(r"^(?:[`~=_*#-] ?){3,}$")  # ```, ====, - - - -


def without_number(text: str) -> str:
    """`1) control` -> `control`: an item's name without the number that orders it in a list."""
    m = _ENUMERATED.match(text)
    return text[m.end():] if m else text


def nearest_caption(seg: Segment, start: int) -> str | None:
    """Posters say what a block is on the line above it: that line (prompts, rules skipped)."""
    k = _caption_line(seg, start)
    if k is not None:
        return seg.lines[k].strip()
    return seg.before[-1].strip() if seg.before else None


def _caption_line(seg: Segment, start: int) -> int | None:
    skipped = 0
    for k in range(start - 1, -1, -1):  # no slice: a copy of every line above each block adds up
        raw = seg.lines[k]
        text = raw.strip()
        if not text or _RULE.match(text):
            continue
        if is_prompted(raw, host_only=True) and skipped < 3:
            skipped += 1
            continue
        return k
    return None


# a block device named as a caption (`**vda (guest.img)**`, `/dev/nvme0n1:`): where it ran, not on what
DEVICE_CAPTION = re.compile(r"^(?:/dev/)?+(?:[shv]d[a-z]{1,2}+|xvd[a-z]{1,2}+|nvme\d{1,2}+n\d{1,2}+|md\d{1,3}+|dm-\d{1,3}+"
                             r"|mmcblk\d{1,2}+|loop\d{1,3}+|nullb\d{1,3}+|pmem\d{1,3}+|rbd\d{1,3}+|zram\d{1,2}+)(?:p?\d{1,2}+)?+"
                             r"(?:[ \t]?+\([^()]{1,40}+\))?+$")


# `Client:`, `Server side`: which end of a network test printed the lines below, not what was measured
_SIDE_CAPTION = re.compile(r"(?i)^(?:on[ \t]++(?:the[ \t]++)?+)?+(?:client|server|sender|receiver)(?:[ \t]++side)?+$")


def system_label(caption: str | None) -> str | None:
    """Only a label-like caption (`2.4.16:`, `- default`, `linux-2.4.10-pre12`) names a system."""
    if not caption or io_test_label(caption):
        return None  # (`1) Sequential read:` names the test measured, not on what)
    text = _without_remark(caption.strip().strip("*_").strip())
    if text.endswith(":") and (here := _HERE_IS.search(text) or _CLAUSE_THEN_SAID.match(text)):
        text = here.group("what") + ":"  # `... lowering the MTU. Here is a MTU of 9000:`: what it is
    if len(text) > 60 or text.startswith("..") or text.endswith("::") or order_legend([text]):
        return None  # `first lines for 2.4.7-ac3, then 2.4.7-ac9` names printouts by order (leadin)
    if text.endswith(":"):
        text = text[:-1]
    elif not (_LIST.match(text) and len(text) <= 40 and not text.endswith((".", ","))) and not _LABEL.match(text):
        return None
    if traced(text):
        return None  # `+ dmesg -c`: a shell's trace of a command it ran, no list item
    text = _CONJUNCTION.sub("", " ".join(_BULLET.sub("", text).strip().strip("*_").split()))  # `and with the patch`
    if not text or _CAPTION_STOP.search(text + ":") or re.search(r"[.!?]\s", text) or generic_label(text):
        return None  # empty, generic, or the tail of a prose paragraph
    if _speaking(text) or (tool := _TOOL_IN.search(text)) and tool.start() > 0 and not _NAMES_SYSTEM.search(text) \
            and not _ON_WHAT.search(text):
        return None  # (`Ran hackbench ten times each`: what ran and how; `dbench on ext3` says on what)
    return None if run_parameter(text) else text  # `iodepth=4` over a command: how it ran, not on what


# `PSM on (no significant change):`: a label, then the poster's remark on its figures in parentheses
_REMARK = re.compile(r"^(?P<core>[^()]{1,60}?)\s*+\((?P<remark>[^()]{1,160}+)\)\s*+:$")


def _without_remark(text: str) -> str:
    """A label line without a remark of three words or more in parentheses before its colon (`PSM
    off (TX is 46% improved, ...):`); a short one (`2.6.24 (ext3):`, `(skip advance)`) is part of
    the name."""
    m = _REMARK.match(text)
    if m is None or len(m.group("remark").split()) < 3:
        return text
    return m.group("core").rstrip() + ":"


_TOOL_NAMES = frozenset(TOOLS)
_GENERIC_WORDS = _TOOL_NAMES | frozenset({
    "the", "my", "our", "some", "here", "are", "is", "below", "following", "results",
    "result", "numbers", "number", "output", "outputs", "summary", "summaries", "data", "benchmark",
    "benchmarks", "test", "tests", "run", "runs", "figures", "stats", "statistics", "log", "logs",
    "and", "of", "a", "an", "these", "performance", "compare", "comparison",
    "perf", "stat", "record", "report",  # `Perf stat:` over a printout run under perf: how, not on what
})  # fmt: skip
_OPEN_END = frozenset({"with", "by", "for", "as", "at", "of", "to", "from", "the", "a", "an",
                       "and", "or", "using", "via", "under", "that", "which", "is", "are", "was", "were"})


def generic_label(text: str) -> bool:
    """`dbench summaries`, `The hdparm results`, `The performance has been measured with`: a label
    that names no configuration (only the tool and generic words), or a sentence cut mid-way."""
    words = [w.strip("()[],;:'\"").lower() for w in text.split()]
    words = [w for w in words if w]
    if len(words) >= 2 and words[0] in _TOOL_NAMES and all(_ARGUMENT.fullmatch(w) for w in words[1:]):
        return True  # `dbench 16`, `tbench -t 60 192`: a command line, what ran, not on what
    return bool(words) and (all(w in _GENERIC_WORDS for w in words) or words[-1] in _OPEN_END
                            or len(words) >= 2 and words[-2] == "by" and words[-1].endswith("ing"))  # `by running`


_ARGUMENT = re.compile(r"-{1,2}[\w=.,/-]{0,30}|\d[\w.,]{0,12}|[\w.-]{1,20}=[\w.,/-]{1,30}")  # `16`, `-t`, `bs=1M`


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


# `./kernbench -M -o 128`, `$ hackbench 10`: the command that printed the block, between it and its caption
_TOOL_COMMAND = re.compile(r"^(?:[$#%]\s{1,4})?(?:\./|/[\w./-]{0,60}/)?(?:"
                           + names_pattern(without=("lmbench", "unixbench", "stream", "dd"))
                           + r"|lat_\w{1,12}|bw_\w{1,12})\s+-")
_CONSOLE = re.compile(r"^(?:<\d>)?\[\s{0,12}\d{1,10}\.\d{1,9}\]")  # `[    7.175053] mmc2: ...`: the kernel's log
SETTING = re.compile(r"^(?P<key>[A-Za-z][\w.-]{0,30}+) ?= ?(?P<val>[\w.,+-]{1,30})$")  # `cpusched=staircase`, `DCHE = 0b`
# `o NPS1`, `- NPS4 mode`: a bullet naming the mode a machine ran in, a setting written without `=`
_MODE_HEADING = re.compile(r"^(?:[o*-][ \t]++)?(?P<key>[A-Z]{2,6}+)[ -]?(?P<val>\d{1,3}+)(?:[ \t]++mode)?$")


def setting_of(text: str) -> tuple[str, str] | None:
    """(key, value) of a line that is one setting alone: `NPS=2`, `cpusched=staircase`, `o NPS1`."""
    m = SETTING.match(text) or _MODE_HEADING.match(text)
    return (m.group("key"), m.group("val")) if m else None
_TIME_LINE = re.compile(r"^(?:real|user|sys)\s++\d{1,5}m\d{1,2}(?:\.\d{1,6})?s$")  # `time`'s own output
_ELISION = re.compile(r"^(?:\[\s*\.{2,}\s*\]|\.{3,}|\[snip\w*\]|<snip\w*>)$", re.I)  # `[..]`: lines left out


def _speaking(text: str) -> bool:
    """`I am still getting better I feel`, `We see the following`: a sentence leading into the
    output that names nothing measured (no figure, no release in it)."""
    return bool(_SPEAKER.match(text)) and len(text.split()) >= 3 and not any(ch.isdigit() for ch in text)


def _clean_caption(text: str, underlined: bool) -> str | None:
    """A line a poster wrote to name what follows, or None when it reads as prose."""
    if text.startswith("##"):
        return None  # a markdown section heading names a part of a document, not a system
    dots = re.match(r"\.{3,}+\s++", text)  # `..... strobe disabled`: a heading led in by dots
    decorated = text[:1] in "#*[-" or text.endswith(":") or dots is not None
    core = text[dots.end() if dots else 0:].strip("#*=-~[] \t").rstrip(":").strip("*=-~ \t")
    core = _CONJUNCTION.sub("", core)  # `and after enabling the prefetcher:`
    if not core or len(core) > 60 or core.endswith((".", ",", ";", "!", "?")) or generic_label(core) \
            or _TIME_LINE.match(core):
        return None
    if (any(ch in core for ch in "|$") or "=" in core and not SETTING.match(core)) or "://" in core \
            or _PROMPT.match(text):
        return None  # `cpusched=staircase` alone names a configuration; other `=` lines are settings
    if is_prompted(text, host_only=True) and re.search(r"[/<>]|\s-\w", text):
        return None  # `# echo 1 > /proc/sys/vm/drop_caches`: a command, not a caption
    words = core.split()
    if {w.lower().strip(",") for w in words} <= _CAPTION_STOPWORDS or _speaking(core):
        return None
    if underlined or decorated:
        return core if len(words) <= 10 else None
    if len(words) <= 5:
        return core
    # `Linux 2.4.2-ac26 + HP Multiqueue patch`: a release and what was added to it, a few words more
    return core if len(words) <= 8 and _NAMES_SYSTEM.search(" ".join(words[:2])) else None


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
        if skip is not None and skip(s) or _ELISION.match(s) or _TOOL_COMMAND.match(s) or _CONSOLE.match(s):
            continue
        if _MARKUP.match(s):
            return True, None
        if k is not None and SETTING.match(s) and not standalone(k):
            top = k  # `max_ia_bonus=0` / `max_tpt_bonus=default`: a paragraph of settings names the run
            while top > 0 and k - top < 3 and SETTING.match(lines[top - 1].strip()):
                top -= 1
            if standalone(top):
                return True, " ".join(x.strip() for x in lines[top:k + 1])
        if k is not None and not (standalone(k) or s[:1] in "#*-" or _ENUMERATED.match(s)):
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


# --- the caption names the system; what the printout names is a parameter ---------------------------

# What posters measure and name on a line of its own: a kernel or release version, a tree, a
# patch state, a virtualisation layer. `2.6.24-rc3:`, `Under 2.4.21:`, `Unpatched`, `guest:`, `v5`.
# `with the patch`, `without this fix`, `with your changes`: a patch state in words
_WITH_CHANGE_WORDS = r"with(?:out)?\s+(?:the\s+|this\s+|that\s+|my\s+|your\s+)?(?:patch\w{0,5}|fix(?:es)?|series|change[sd]?)"
_NAMES_SYSTEM = re.compile(
    r"(?i)(?<![\w/.-])(?:(?:linux-?|kernel-?|v)?\d{1,3}\.\d{1,3}(?:\.\d{1,4}){0,2}(?:[-+~][\w.+~-]{1,30})?"
    r"|v\d{1,3}|(?:un)?patched|vanilla|baseline|stock|mainline|upstream|guest|host|bare[- ]metal|native"
    r"|dom[0u]|kvm|xen|qemu|vmware|hyper-?v|virtualbox|before|after|previously|originally"
    r"|" + _WITH_CHANGE_WORDS +
    r"|\+\s?(?:patch(?:es|set)?|fix(?:es)?)"  # `+ patch 14/16`, `+ patches 15,16`: patches stacked on a base
    r"|(?:tip|linux-next|net-next|mm)(?:/[\w.-]{1,30}){0,3})(?![\w/%-])"
)
# a tool's own banner or connection line names its version or peer, not the system measured
_BANNER = re.compile(r"(?i)\b(?:copyright|version|port|connect(?:ing|ed)|pid|listening|bound)\b")
# the condition a sentence leading into a printout names: `... numbers with your change ...:`
_WITH_CHANGE = re.compile(r"(?i)\b" + _WITH_CHANGE_WORDS + r"\b")
_CONDITION = re.compile(r"(?i)^(?:with(?:out)?|w/o?|before|after|(?:en|dis)abl(?:e|ed|ing)\s++(?!supported\b)(?=\S))\b(?!.*[.!?]\s)")
_ASIDE_END = re.compile(r"\([^()\n]{0,60}+\)$")  # `(aka, with patches on)`: a remark after a name
_CONDITION_CLAUSE = re.compile(r"(?i),\s++(?:the|it|we|i|this|that|these|those|numbers?|results?|performance|throughput)\b")
_DECORATED = re.compile(r"^\s*[*#=~]{3,}")  # `*********** stock 2.4.1 ...`: set off as a heading
_LABEL_REMARK = re.compile(r"^([^:()]{1,40}):\s+\(")
_NUMERIC = re.compile(r"^[-+]?\d+(?:[.,]\d+)?%?$")  # `2.4.31` is a version, not a number
_IPV4 = re.compile(r"(?<![\d.])(?:[1-9]\d|[12]\d\d)(?:\.\d{1,3}){3}(?![\d.])")
_HERE = re.compile(r"(?i)^(?:here(?:'s|\s++is|\s++are)|this\s++is|these\s++are)\s++(?:(?:a|an|the|some|my)\s++)?+"
                   r"(?:[\w-]{1,20}+\s++){0,2}?(?:runs?|results?|numbers?|one|output)\s++(?=(?:with|on|for|under|using)\s)")
_CONJUNCTION = re.compile(r"(?i)^(?:and|but|then|now|so|while|vs\.?|versus|against)\s++(?=\S)")  # `vs v6.6-rc2 with this patchset:`
_PREPOSITION = re.compile(r"(?i)^(?:under|on|in|running|using)\s+(?=\S)")
_NAMING_REACH = 30  # lines above a printout searched for the line naming it


# `Disk speed test on Stretch`, `hdparm results on Buster`: a test's words, then what it ran on
_TEST_ON = re.compile(r"^(?P<lead>[A-Za-z][\w+-]{0,20}+(?:[ \t]++[A-Za-z][\w+-]{0,20}+){0,4}?)[ \t]++on[ \t]++"
                      r"(?P<what>[\w.+-]{2,30}+(?:[ \t]++[\w.+-]{1,30}+){0,2}+)$")
_TEST_NOUNS = frozenset({"speed", "disk", "drive", "network", "io", "benchmarking", "timings", "timing"})


def names_system(text: str) -> str | None:
    """The system a caption line names (`Under 2.4.21:` -> `2.4.21`), or None when it names none."""
    core = _CONJUNCTION.sub("", _ENUMERATED.sub("", text.strip().strip("#*=~").strip()))  # `and with the fix:`
    core = _HERE.sub("", core)  # `here's one with the patch:`: the condition, not the lead-in
    if order_legend([core]):
        return None  # printouts named by their order, each its own system (leadin)
    colon = core.endswith(":")
    if colon:
        core = core[:-1].strip()
    if colon and (on := _TEST_ON.match(core)) and all(
            w.lower() in _GENERIC_WORDS or _TEST_WORD.fullmatch(w) or w.lower() in _TEST_NOUNS for w in on.group("lead").split()):
        return on.group("what")  # `Disk speed test on Stretch:`: what the test ran on
    if (cut := core.find(", ")) > 0 and _CONDITION.match(tail := core[cut + 2:].strip()) \
            and generic_label(core[:cut]):
        core = tail  # `*** Test results, without reverting patch 12 ***`: the condition, after the lead
    if colon and (cut := max(core.rfind(". "), core.rfind(", "))) >= 0:
        tail = core[cut + 2 :].strip(". ")  # `OK, is a bit more stable now ... before:`
        if tail and len(tail.split()) <= 3 and _NAMES_SYSTEM.search(tail):
            core = tail
    if (m := _CLAUSE.search(core)) and _NAMES_SYSTEM.search(core[: m.start()]):
        core = core[: m.start()].strip(" ,")  # `With 2.2.18 I get:`: what was measured, not the verb
    if m := _LABEL_REMARK.match(core):
        core = m.group(1)  # `Before: (not enabling bigger TSO/GRO packets)`
    if (cut := core.rfind("(")) > 0 and ")" not in core[cut:]:
        core = core[:cut].strip()  # `2.4.10-pre6 with the preempt patch (pre5 patches` wraps on
    if colon and _CONDITION.match(core) and (clause := _CONDITION_CLAUSE.search(core)):
        core = core[:clause.start()]  # `With -s32 and -c32, the numbers decline:`: the condition, not the news
    if _CONDITION.match(core) and (colon or len(core.split()) <= 5) and len(core) <= 60 and not _BANNER.search(core):
        return core  # `Without "g_list_reverse()":`, `With LMh Support:`: the condition measured
    if colon and len(core.split()) > 5 and len(phrases := {p.lower(): p for p in _WITH_CHANGE.findall(core)}) == 1:
        return next(iter(phrases.values()))  # `Please find the numbers with your change as given below:`
    if not core or len(core) > 72 or "=" in core or "://" in core or not _NAMES_SYSTEM.search(core):
        return None
    if core.startswith(("/", "$", "#", ">", "[")) or _PROMPT.match(core) or _BANNER.search(core):
        return None
    short = (m := _ASIDE_END.search(core)) is not None and len(core[:m.start()].split()) <= 4
    if len(core.split()) > (10 if colon or _NAMES_SYSTEM.match(core) else 6) and not short:
        return None  # a long line names a system only as a label (`2.6.24 with the patch:`), or as a
        # short name with a remark after it (`WA_WEIGHT, WA_BIAS, SIS_CURRENT (aka, with patches on)`)
    if core.endswith(".") and (len(core.split()) <= 3 or _DECORATED.match(text)):
        core = core[:-1]  # `Linux 2.4.31-si.`, `***** stock 2.4.1 with ACPI turned on.`: a caption
    if re.search(r"[.!?,;。]$|[.!?]\s|。", core):  # the tail of a sentence, not a caption
        return None
    words = core.split()
    if 2 * sum(bool(_NUMERIC.match(w)) for w in words) > len(words) or _IPV4.search(core):
        return None  # a row of numbers, or an address: printout, not a caption
    if ":" in core or "：" in core:
        return _labelled(core)  # `key: value`: a setting or a listing, unless the key is the system
    return _PREPOSITION.sub("", core) or None


# `... I get`, `... we got`, `... it gives`: the clause after what a caption names
_CLAUSE = re.compile(r"(?i)\s(?:i|we|you|it|this|that|one)\s+(?:get|got|gets|see|saw|have|had|gives?|gave|shows?|showed)\b"
                     r"|\s(?:gives?|gave|shows?|showed|yields?|results?\s+in)\b")


_LABELLED = re.compile(r"^(?P<key>[^:]{1,40}):\s+(?P<rest>\S.{0,80})$")
_SYSTEM_KEYS = frozenset({"kernel", "system", "config", "configuration", "setup", "tree", "version", "host",
                          "guest", "os", "hypervisor", "build", "linux", "machine", "platform", "vm"})
_KEY_QUALIFIER = re.compile(r"(?i)^(?:(?:guest|host)\s+)?(?P<key>\w+)(?:\s+(?:version|release|name))?$")


def keyed_system(text: str) -> str | None:
    """`Kernel version: 2.4.19`, `Guest kernel: 5.10`, `Host: box1`: the value of a key naming what
    ran, as printed (no check that it reads like a release: the key says what it is)."""
    m = _LABELLED.match(text.strip())
    if m is None or ":" in m.group("key"):
        return None
    key = _KEY_QUALIFIER.match(m.group("key").strip())
    return m.group("rest").strip() if key and key.group("key").lower() in _SYSTEM_KEYS else None


def _labelled(core: str) -> str | None:
    """`2.4.0-prerelease:  average 10.95 MB/sec` names `2.4.0-prerelease`; `Kernel: 2.6.30` names
    `2.6.30`; any other `key: value` line is a setting, not a caption."""
    m = _LABELLED.match(core)
    if m is None:
        return None
    key, rest = m.group("key").strip(), m.group("rest").strip()
    if ":" in key or len(key.split()) > 4:
        return None
    if key.lower() in _SYSTEM_KEYS:
        return names_system(rest) if ":" not in rest and _NAMES_SYSTEM.search(rest) else None
    if _NAMES_SYSTEM.fullmatch(key) or (_LABEL.match(key) and _NAMES_SYSTEM.search(key)):
        return key
    return None


# `3. Measure read() speed with 8KB block size`: a numbered step of a procedure, what was done
_STEP = re.compile(r"(?i)^(?:measure|run|create|compare|repeat|mount|drop|build|boot|install|prepare|fill"
                   r"|format|execute|check|verify|generate|copy|remove|delete|flush|sync|reboot|load|unload|make)\s")


# `Sequential read`, `random write`, `randread`, `READ`: an I/O test's name, what was measured (never on what)
IO_TEST = re.compile(r"(?i)^(?:(?:rand(?:om)?|seq(?:uential)?)[ \t_-]?+)?(?:read|write|rw|randrw|mixed|trim)s?$")


def io_test_label(line: str) -> str | None:
    """The I/O test a label line of its own names (`1) Sequential read:`, `Random write:`), or None."""
    text = line.strip()
    core = text[m.end():] if (m := _ENUMERATED.match(text)) else text
    core = core.strip().rstrip(":").strip()
    return core if (m is not None or text.endswith(":")) and IO_TEST.match(core) else None


def _item_label(text: str) -> str | None:
    """The label of a numbered case standing alone above a printout: short, no sentence or question;
    a step of a procedure (`3. Measure read() speed ...`) names no case unless it names a system."""
    core = text.strip().rstrip(":").strip()
    if not core or len(core.split()) > 12 or len(core) > 100 or core.endswith((".", "?", "!", ",")):
        return None
    if _STEP.match(core) and not _NAMES_SYSTEM.search(core):
        return None
    return None if generic_label(core) or _CAPTION_STOP.search(core + ":") else core


_FOOTNOTE = re.compile(r"^\[\d{1,3}\]$")  # `[1]` over its rule: the note a reference points to


def underlined_heading(lines: Sequence[str], k: int, end: int) -> str | None:
    """`ti + skb recycling:` over a `-----` rule (within `end`), a blank line above: a heading
    naming the configuration below it."""
    if k + 1 < end and _UNDERLINE.match(lines[k + 1].strip()) and (k == 0 or not lines[k - 1].strip()):
        return _heading(lines[k].strip())
    return None


def _heading(text: str) -> str | None:
    """`bzImage_cgroups_preempt:` over a `-----` rule: a short label, not a generic title."""
    if _MARKUP.match(text):
        return None
    core = text.strip("#*=~ ").rstrip(":").strip()
    if not core or _FOOTNOTE.match(core) or len(core.split()) > 5 or core.endswith((".", ",", "?", "!")) or "=" in core and not (
            SETTING.match(core) and _configuration_setting(core)):
        return None  # a setting heads a section only when it names a configuration (`read_latency = 8192`)
    if _CAPTION_STOP.search(core + ":") or core.lower() in _CAPTION_STOPWORDS or generic_label(core):
        return None
    return core


_CHATTER = re.compile(r"\.{3}\s?(?:done|ok)\b", re.I)  # `Create files in sequential order...done.`


def _is_prose(text: str) -> bool:
    """A line of sentence words (not a printout line: those carry numbers, `=` or columns)."""
    words = text.split()
    if len(words) < 5 or "=" in text or "|" in text or _CHATTER.search(text):
        return False
    return sum(w.strip(".,;:!?()'\"").isalpha() for w in words) >= 0.7 * len(words)


def _wrapped(above: str, line: str) -> str:
    """The sentence a caption line ends, when it began on the line above (the last sentence of it)."""
    if not above or above.endswith((".", ":", "!", "?")):
        return line
    cut = max(above.rfind(". "), above.rfind("! "), above.rfind("? "))
    return f"{above[cut + 2:] if cut >= 0 else above} {line}"


# `... performance on my setup from:` / a printout / `to:` / a printout: the two ends of a change,
# each line the name of the printout under it (the sentence names no system, the words do)
_FROM = re.compile(r"(?i)(?:^|\s)from:$")
_TO = re.compile(r"(?i)^(?:and\s++)?to:$")


def from_or_to(lines: Sequence[str], k: int) -> str | None:
    """`from` for a line ending in `from:` with a `to:` line below it, `to` for a `to:` line with
    such a line above it; None otherwise (a `From:` header has its address after the colon)."""
    text = lines[k].strip()
    if _FROM.search(text):
        return "from" if any(_TO.match(ln.strip()) for ln in lines[k + 1:]) else None
    if _TO.match(text):
        return "to" if any(_FROM.search(ln.strip()) for ln in lines[:k]) else None
    return None


def naming_caption(
    lines: Sequence[str], start: int, floor: int = 0, before: Sequence[str] = ()
) -> str | None:
    """The nearest caption above a printout that names what was measured (see `names_system`).

    Only a line of its own counts: it ends with a colon, or a blank line (or the top of the
    segment) is above it. Prose, tool output and other captions in between are passed over, up to
    `_NAMING_REACH` lines; a printout's own device or host line never names a system.
    """
    low = max(floor, start - _NAMING_REACH, 0)
    prose = 0
    for k in range(start - 1, low - 1, -1):
        text = lines[k].strip()
        if not text:
            prose = 0
            continue
        opens = k == 0 or not lines[k - 1].strip() or bool(_UNDERLINE.match(lines[k - 1].strip()))
        alone = text.endswith(":") or opens
        if text.endswith(":") and not opens and (name := names_system(_wrapped(lines[k - 1].strip(), text))) \
                and _CONDITION.match(name):
            return name  # `... Here's a peak run with -git + pending 6.5` / `changes + pending 6.6 changes:`
        # `After doing some operations on array (random reads/writes) speed` / `sometimes recovers, ...`:
        # the first line of a paragraph whose sentence goes on below is no caption
        goes_on = not text.endswith(":") and k + 1 < start and lines[k + 1].strip()[:1].islower() \
            and _is_prose(lines[k + 1]) and _is_prose(text)
        if alone and not goes_on and (name := names_system(text) or from_or_to(lines, k)):
            return name
        if alone and io_test_label(text):
            continue  # `1) Sequential read:`: what was measured below it, not on what
        listed = k > 0 and lines[k - 1].strip().endswith(":")  # (`Ran 'fio' to evaluate it:` / `1.Fixed hsq_depth`)
        if (alone or listed) and (item := _ENUMERATED.match(text)):
            if name := _item_label(text[item.end():]):
                return name  # `(2) under task migration w/o setting move_charge_at_immigrate`: a numbered case
            if _STEP.match(text[item.end():]):
                return None  # `3. Measure read() speed ...`: the step heads what follows, and names nothing
        if name := underlined_heading(lines, k, start):
            return name  # an underlined heading names the configuration below it
        prose = prose + 1 if _is_prose(text) else 0
        if prose >= 2:
            return None  # a paragraph of prose between: the poster moved on (`Then I applied ...`)
    if floor <= 0 and start - _NAMING_REACH < 0:
        for b in reversed(before[-3:]):
            if b.strip().endswith(":") and (name := names_system(b)):
                return name
    return None


_ASIDE_LINE = re.compile(r"^\([^()]{1,80}+\)$")  # `(expect same as L2 grouping on this machine)`
_COLON_REMARK = re.compile(r":\s++\([^()]{1,60}+\)$")  # `- group cpus by 8 hw threads: (llc_id + cpu modulo 2)`


def label_right_above(lines: Sequence[str], start: int) -> str | None:
    """A label line of its own over one blank line and the line at `start` (`Group cpus by 16 hw
    threads:`, then `Time: 49s`): what that line measured, even in words no caption rule knows. A
    remark after the colon or on a line of its own in parentheses is passed over; a label of only
    a test's words (`Run 1:`, `64 threads:`) says how it ran, not on what."""
    k = start - 1
    if k >= 0 and not lines[k].strip():
        k -= 1
    if k >= 0 and _ASIDE_LINE.match(lines[k].strip()):
        k -= 1
    if k < 0 or (k > 0 and lines[k - 1].strip() and not lines[k - 1].strip().endswith(":")):
        return None  # the end of a paragraph, not a label of its own
    text = _COLON_REMARK.sub(":", lines[k].strip())
    if not text.endswith(":") or len(text.split()) > 8:
        return None
    label = system_label(text)
    if not label or _TOOL_WORD.search(label) or all(_TEST_WORD.fullmatch(w) or w.isdigit() for w in label.split()):
        return None
    return label


_TOOL_NAMES_ALT = names_pattern()  # every tool's name, as one alternation the patterns below share
_TOOL_WORD = re.compile(r"(?i)\b(?:" + _TOOL_NAMES_ALT + r"|benchmarks?|results?|output|numbers|tests?)\b")


_OUTER_REACH = 40  # lines above an indented label searched for the label it is indented under


def outer_label(lines: Sequence[str], start: int) -> str | None:
    """The label an indented label line at `start` sits under (`* rtl8xxxu:` over `  with 802.11n:`
    and its lines): what was measured, the inner label only how. Lines indented as deep as the inner
    label or deeper (its siblings and their lines) and blank lines are passed over."""
    inner = lines[start]
    depth = len(inner) - len(inner.lstrip())
    if not depth or not inner.rstrip().endswith(":"):
        return None
    for k in range(start - 1, max(-1, start - _OUTER_REACH), -1):
        text = lines[k]
        if not text.strip() or len(text) - len(text.lstrip()) >= depth:
            continue
        if not text.rstrip().endswith(":") or len(text.split()) > 6:
            return None
        label = system_label(text.strip())
        return None if not label or _TOOL_WORD.search(label) else label
    return None


_LONE = re.compile(r"^(?=[^.]*[A-Za-z0-9])[A-Za-z0-9][\w.+/()&,' =-]{0,39}$", re.ASCII)  # `slab`, `RAID-0 (4 disks)`, `DCHE = 0b`


_DASHED_HEADING = re.compile(r"^-{2,6}+ (?=[^-]*[A-Za-z])([^-\s](?:[^-]|-(?!-)){0,40}?) -{2,6}+$")  # `-- RAID-0 --`


# what a test ran, not on what: `UDP`, `Sequential read`, `64 threads`, `Server side`, `Run 2`
_TEST_WORD = re.compile(
    r"(?i)\b(?:tcp|udp|sctp|rr|crr|stream|maerts|ipv[46]|read|write|reads|writes|randread|randwrite|randrw|rw"
    r"|seq\w*|rand\w*|mixed|direct|buffered|sync|async|threads?|jobs?|clients?|procs?|process(?:es)?"
    r"|groups?|loops?|iterations?|runs?|pass|passes|round|trial|servers?|client|sender|receiver|local|remote"
    r"|loopback|latency|throughput|bandwidth|iops|time|size|block|blocks|bs|qd|depth|queue|single|multi\w*"
    r"|parallel|serial|average|avg|mean|median|min|max|total|summary|cpu|memory|disk|net\w*|ping|warm\w*|cold)\b"
    r"|\d")


def _enclosed(text: str) -> str | None:
    """`'2.6.22 with CFS'`, `/* 2.6.24-rc3 */`: a line wholly in quotes or a comment is a name the
    poster gave, figures and all."""
    if len(text) > 4 and text[0] == text[-1] and text[0] in "'\"" and text[0] not in text[1:-1]:
        return text[1:-1].strip()
    if text.startswith("/*") and text.endswith("*/") and len(text) > 4 and "*/" not in text[2:-2]:
        return text[2:-2].strip()
    return None


def lone_caption(lines: Sequence[str], start: int, skip: Callable[[str], bool] | None = None) -> str | None:
    """A short line standing alone right above a printout (`slab`, then a blank line, then netperf's
    banner): the name of what was measured. Blank lines, rules and lines `skip` accepts (commands)
    may come between; the line must have a blank line (or the segment's top) above it."""
    for k in range(start - 1, max(-1, start - 8), -1):
        text = lines[k].strip()
        if not text or _UNDERLINE.match(text) or (skip is not None and skip(text)) or is_prompted(lines[k], host_only=True):
            continue
        if _DASHED_HEADING.match(text):  # `-- RAID-0 --` over `-- chunk-size=16 --`: one heading
            heads: list[str] = []
            while k >= 0 and (m := _DASHED_HEADING.match(lines[k].strip())) and len(heads) < 3:
                heads.insert(0, m.group(1))
                k -= 1
            return " ".join(heads) if k < 0 or not lines[k].strip() else None
        alone = k == 0 or not lines[k - 1].strip() or bool(_UNDERLINE.match(lines[k - 1].strip()))
        named = _enclosed(text)
        if named is not None:
            text = named
        core = _clean_caption(text, False) if alone else None
        if core is not None and SETTING.match(core) and _configuration_setting(core):
            return core  # `DCHE = 0b`: the setting the printout below was measured with
        if core is None or len(core.split()) > 4 or not _LONE.match(core) or _MARKUP.match(text) \
                or _TOOL_WORD.search(core) or _CAPTION_STOP.search(core) or named is None and _TEST_WORD.search(core):
            return None
        return core
    return None


_RUN_PARAMETER = frozenset({"iodepth", "numjobs", "runtime", "duration", "count", "mtu", "len", "length", "ioengine",
                            "rw", "n", "c", "t", "p", "l", "i", "w", "m", "s", "b"})


def _configuration_setting(core: str) -> bool:
    """`DCHE = 0b`, `read_latency=8192` name a configuration; `threads=4`, `bs=4k` how the test ran."""
    key = core.split("=", 1)[0].strip().lower()
    return key not in _RUN_PARAMETER and not _TEST_WORD.search(key)


def run_parameter(text: str) -> bool:
    """`iodepth=64`, `threads = 4` alone on a line: how a test ran, never what it ran on."""
    return bool(SETTING.match(text)) and not _configuration_setting(text)


# `iperf3 UDP bidirectional with DSPACE set to 16 Bytes`: the tool, a few words of what ran, then the condition
_TOOL_THEN = re.compile(r"(?i)^(?:" + names_pattern(without=("stream", "dd")) + r")(?:[ \t]++[\w/+-]{1,20}+){0,3}?"
                        r"[ \t]++(?=(?:with|without|w/o?|on|under|before|after)[ \t])")


_TOOL_IN = re.compile(r"(?i)(?<![\w/.-])(?:" + _TOOL_NAMES_ALT + r")(?![\w/-])")
_ON_WHAT = re.compile(r"(?i)\b(?:on|with|under|using|in|over|via)\b")
_TOOL_FIRST = re.compile(r"(?i)^(?:" + _TOOL_NAMES_ALT + r")\b")


def tool_caption(label: str) -> bool:
    """`fio 4k randread on nvme`: a caption opening with a tool's name and naming no configuration
    (`with the patch`, `patched`, a release): what ran and how, on no system."""
    return bool(_TOOL_FIRST.match(label)) and not _NAMES_SYSTEM.search(label)


def tool_condition(label: str | None) -> str | None:
    """The condition a caption names after the tool's name and a few words of what ran (`iperf3
    without this patch` -> `without this patch`), None when it names none."""
    m = _TOOL_THEN.match(label or "")
    if m is None or not label or re.search(r"[.!?,;]$|[.!?]\s", label):
        return None
    rest = label[m.end():].strip()
    return names_system(rest if rest.endswith(":") else rest + ":")  # set off by the tool's name: a label


def caption_system(seg: Segment, start: int) -> str | None:
    """The system of a printout starting at `start`: a label-like caption right above it (the
    condition it names after the tool's name, if it names one), else a short line alone right
    above it, else the nearest line above that names what was measured (a kernel, a patch, a VM;
    see `naming_caption`)."""
    label = None
    caption = nearest_caption(seg, start)
    if not _sentence_tail(seg, start) or _HERE_IS.search(caption or ""):  # (`... MTU. Here is a MTU of 9000:`)
        label = tool_condition(caption) or system_label(caption)
    name = label or lone_caption(seg.lines, start) \
        or _naming_line_above(seg.lines, start) or naming_caption(seg.lines, start, 0, seg.before)
    if name and DEVICE_CAPTION.match(name) and (k := _caption_line(seg, start)) is not None \
            and (outer := caption_system(seg, k)) and not DEVICE_CAPTION.match(outer):
        return outer  # `Guest with fixed file table support:`, then `vda (guest.img)`: the device is a parameter
    if name and _SIDE_CAPTION.match(name):
        # `without patch...`, then `Client:` over the client's printout: the side is no system
        k = _caption_line(seg, start)
        outer = caption_system(seg, k) if k is not None else None
        return outer if outer and not _SIDE_CAPTION.match(outer) else None
    return name


def _sentence_tail(seg: Segment, start: int) -> bool:
    """The caption above `start` ends a sentence begun on the line before it (`... on a single CPU`
    / `core:`): a word of prose, not a label."""
    k = start - 1
    while k >= 0 and (not seg.lines[k].strip() or _RULE.match(seg.lines[k].strip())):
        k -= 1
    if k <= 0:
        return False
    above = seg.lines[k - 1].strip()
    return bool(above) and not above.endswith((".", ":", "!", "?")) and _is_prose(above)


def _naming_line_above(lines: Sequence[str], start: int) -> str | None:
    """`with the patch set` right above the printout, no colon, no blank between: a short line of
    words (no figure, no sentence end) that names a configuration."""
    text = lines[start - 1].strip() if start > 0 else ""
    if not text or len(text.split()) > 6 or text.endswith((".", ",")) or any(ch.isdigit() for ch in text):
        return None
    return names_system(text)


def printout_system(
    caption_system: str | None, inner: Mapping[str, str | None], params: dict[str, str]
) -> str | None:
    """One rule for every parser: a caption names the system; what the tool printed is a parameter.

    `inner` holds what the printout itself names (`device`: `/dev/sda`, `host`: an address or host
    name, `job`: a fio job): each goes into `params` under its key. The caption's system wins;
    only without one does the first inner name stand in as the system, so that two printouts of
    the same post (two devices, two hosts) stay apart.
    """
    first = None
    for key, value in inner.items():
        if value:
            params.setdefault(key, value)
            first = first or value
    return caption_system or first

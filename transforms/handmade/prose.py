"""Results in running text and short lists: `vanilla: 1234 MB/s, patched: 1250 MB/s`,
`before 2741 after 2231 (-18%)`.

Only numbers that carry a unit (or stand right after `before`/`after`) are read; a change in
parentheses after them is not a result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from transforms.handmade.cells import HEDGES, cells
from transforms.parsers._common import SETTING
from transforms.tools import names_pattern

_BEFORE_AFTER = re.compile(
    r"\b(?P<a>before|without(?: the)? patch(?:es)?|unpatched|vanilla|baseline|base)\s*+[:=]?\s*+"
    r"(?P<va>\d[\d,]{0,15}+(?:\.\d++)?)(?:[ \t]*+(?P<ua>[A-Za-z/%^µ][A-Za-z/%^µ0-9]{0,13}+))?[\s,;]{1,6}"
    r"(?:and\s+|vs\.?\s+)?(?P<b>after|with(?: the)? patch(?:es)?|patched)\s*+[:=]?\s*+"
    r"(?P<vb>\d[\d,]{0,15}+(?:\.\d++)?)(?:[ \t]*+(?P<ub>[A-Za-z/%^µ][A-Za-z/%^µ0-9]{0,13}+))?",
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
# `from <a> to <b>` (or `->`), each with its scale and unit: what both from-to readings read
_IN_RELEASE = r"(?:\s(?:in|on|with|under)\s(?P<n{side}>v?\d[\w.+-]{{0,30}}+))?"  # `from 47.5 G in v4.10 to ...`
_CHANGE = (
    rf"from\s{_ABOUT}(?P<a>{_NUM})(?P<sa>[kKMG](?![A-Za-z]))?\s?(?P<ua>[A-Za-z/%µ]{{1,12}}+)?"
    + _IN_RELEASE.format(side="a")
    + rf"\s(?:to|->)\s{_ABOUT}(?P<b>{_NUM})(?P<sb>[kKMG](?![A-Za-z]))?\s?(?P<ub>[A-Za-z/%µ]{{1,12}}+)?"
    + _IN_RELEASE.format(side="b")
)
# `from 290Mbps to`: a change's first figure, as a table row's label ends when the row is a sentence
FROM_FIGURE = r"\bfrom[ \t]++~?+\d[\d.,]{0,15}+[ \t]?+[A-Za-z/%µ]{0,12}+[ \t]++(?:to|->)"
FROM_CHANGE = re.compile(FROM_FIGURE + r"[ \t]++~?+\d")  # `... from ~10.7 gbps to ~7 gbps`
_SCALE_WORDS = frozenset({"k", "K", "M", "G"})  # `47.5 G`: a scale set apart, no unit
# `the latency is reduced from 93.78ms to 28.36ms`, `throughput went from 1234 MB/s to 1500 MB/s`
_FROM_TO = re.compile(
    r"(?P<subj>[A-Za-z][\w/%-]{1,30}+)(?:\s(?:has|have|had|is|was|were|are|got|gets|been|being)){0,2}"
    r"\s(?:went|goes|go|dropped|drops|drop|increased|increases|improved|improves|reduced|decreased"
    r"|decreases|rose|rises|fell|falls|grew|grows|jumped|jumps|changed|changes|regressed|regresses"
    r"|moved|moves|climbed|climbs|slowed|sped|up|down)(?:\s(?:up|down))?\s" + _CHANGE
)
# `shows 82% improvement from 31Gb/s to 58Gb/s`, `a drop in throughput from 950 to 610 Mbit/s`: the
# change named by a noun; what changed, when the sentence says, follows `in` / `of`
_NOUN_FROM_TO = re.compile(
    r"(?i)\b(?:improvement|increase|decrease|drop|reduction|regression|gain|boost|degradation|speed-?up)s?+"
    r"(?:\s(?:in|of)\s(?:the\s)?(?P<subj>[A-Za-z][\w/-]{1,30}+))?,?\s" + _CHANGE
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
    setting: tuple[str, str] | None = None  # `clients=16: 4012.7 -> 4102.9`: how the pair ran (a param)


_ARTICLES = frozenset({"the", "a", "an", "this", "that", "our", "my", "its", "their", "reference,", "for"})


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
        named = [w for w in words[-3:] if w.lower() not in _ARTICLES]
        found.append(ProseValue(i, float(m.group("num").replace(",", "")), u, " ".join(named) or None, label,
                                m.group("scale")))
    if len(found) == 1 and found[0].label and found[0].unit in _RATE:
        return found  # `the throughput is 35.6 Gbits/sec when using ...`: a measure named by its metric
    return found if len(found) >= 2 else []


# `Transmit speed (TX): Improved from 299Mbps to 440Mbps`: the key names what changed
_KEY_FROM_TO = re.compile(
    r"(?i)^[^\S\n]*+(?:[-*][^\S\n]++)?+(?P<subj>[A-Za-z][^:\n]{0,40}?)[^\S\n]*+:[^\S\n]*+"
    r"(?:(?:improved|increased|decreased|dropped|reduced|went|goes|changed|regressed|rose|fell|grew)[^\S\n]++)?+"
    + _CHANGE
)


# words that say something changed but not what: the unit names the metric then
_VAGUE = frozenset({"performance", "perf", "it", "this", "that", "speed", "result", "results", "number", "numbers",
                    "score", "figure", "figures", "things"})


def from_to(i: int, line: str) -> list[ProseValue]:
    """`<metric> went from <a> to <b>`: two values, before and after (params `when`); a
    `with the patch` in the sentence names the system of the second."""
    from transforms.handmade.metrics import any_metric, unit

    out: list[ProseValue] = []
    keyed = _KEY_FROM_TO.match(line)
    found = [keyed] if keyed else list(_FROM_TO.finditer(line))
    ends = {m.end() for m in found}
    found += [m for m in ([] if keyed else _NOUN_FROM_TO.finditer(line)) if m.end() not in ends]
    for m in found:
        scales = {k: m.group(k) or (m.group(u) if m.group(u) in _SCALE_WORDS else None)
                  for k, u in (("sa", "ua"), ("sb", "ub"))}
        ua = unit(m.group("ua")) if m.group("ua") else None
        ub = unit(m.group("ub")) if m.group("ub") else None
        if "%" in (ua, ub):
            continue  # `from 3% to 5%`: shares or changes, not results
        subj = m.group("subj")
        if not (ua or ub or (subj and any_metric(subj)) or scales["sa"] and scales["sb"]):
            continue  # `from 4 to 8`: a count; `from 1.5M to 55M` is a measure
        label = None if not subj or subj.lower() in _VAGUE else subj
        named = _WITH_PATCH.search(line[m.end():m.end() + 60])
        after = named.group("sys") if named and not named.group("sys").lower().startswith("without") else None
        systems = {"before": m.groupdict().get("na"), "after": m.groupdict().get("nb") or after}
        for key, s_key, u, when in (("a", "sa", ua or ub, "before"), ("b", "sb", ub or ua, "after")):
            out.append(ProseValue(i, float(m.group(key).replace(",", "")), u, systems[when], label, scales[s_key],
                                  when))
    return out


# `IOPS: 332k (IRQ) -> 363k (iopoll)`, `leiming: 674 -> 849`: a value, an arrow, the value it became.
# Read token by token around each arrow (bounded windows), so a line costs linear time.
ARROW_WORD = re.compile(r"-{1,3}>|=>|→")  # `->`, `-->`
_VALUE_TOKEN = re.compile(rf"(?P<num>{_NUM})(?P<scale>[kKMG](?![A-Za-z]))?(?P<unit>[A-Za-z/%µ]{{1,12}})?")
_ARROW_REACH = 80  # characters read on each side of an arrow


def _value_of(tok: str) -> tuple[float, str | None, str | None] | None:
    m = _VALUE_TOKEN.fullmatch(tok.strip(",;").removesuffix(".")) if len(tok) <= 40 else None  # `20Mb/sec.`
    if m is None:
        return None
    return float(m.group("num").replace(",", "")), m.group("scale"), m.group("unit")


def _paren_tail(text: str) -> tuple[str, str | None]:
    """`332k (IRQ)` -> (`332k`, `IRQ`)."""
    text = text.rstrip()
    if text.endswith(")") and (k := text.rfind("(")) >= 0 and len(text) - k <= 32:
        return text[:k].rstrip(), text[k + 1:-1].strip() or None
    return text, None


def _side(tokens: list[str]) -> tuple[tuple[float, str | None, str | None], int] | None:
    """A value among the first two tokens (`363k`, `849 MB/s`): (value, scale, unit) and tokens used."""
    from transforms.handmade.metrics import unit

    if not tokens or (found := _value_of(tokens[0])) is None:
        return None
    if found[2] is None and len(tokens) > 1 and (u := unit(tokens[1])) is not None:
        return (found[0], found[1], tokens[1] if u else None), 2
    return found, 1


_NUMBER_FIRST = re.compile(r"^[ \t>]*+[~]?\d")  # an arrow line with no key of its own
_KEY_LINE = re.compile(r"^[ \t>]*+(?:[-*][ \t]++)?[A-Za-z][^:\n]{0,80}+:[ \t]*+$")  # `hackbench (lower is better):`
# `(generic --> native)`: what the arrows of the post go from and to, named once
_LEGEND = re.compile(rf"(?<![\w.])(?P<a>[A-Za-z][\w.+]{{0,30}}+)[ \t]*+(?:{ARROW_WORD.pattern})[ \t]*+"
                     rf"(?P<b>[A-Za-z][\w.+-]{{0,30}}+)(?![\w.])")
_LEGEND_REACH = 40  # lines above an arrow searched for its legend


def arrow_legend(lines: list[str], at: int) -> tuple[str, str] | None:
    """The names an arrow legend above line `at` gives the two sides (`laptop (generic --> native):`)."""
    for k in range(at - 1, max(-1, at - 1 - _LEGEND_REACH), -1):
        if len(lines[k]) <= 200 and (m := _LEGEND.search(lines[k])) is not None:
            return m["a"], m["b"]
    return None


def arrows(i: int, line: str) -> list[ProseValue]:
    """`<key>: <a> -> <b>`: two values, before and after. A key naming a metric is the label and
    the parenthesised names after the values (`(IRQ)`, `(iopoll)`) the systems; any other key is
    the system, measured before and after (params `when`)."""
    from transforms.handmade.evidence import benchmarks_in
    from transforms.handmade.metrics import any_metric, unit

    m = ARROW_WORD.search(line)
    if m is None:
        return []
    left, pa = _paren_tail(line[max(0, m.start() - _ARROW_REACH):m.start()])
    ltoks = left.split()
    right = line[m.end():m.end() + _ARROW_REACH].split()
    if not ltoks or not right:
        return []
    lu = None
    if len(ltoks) > 1 and unit(ltoks[-1]) is not None and _value_of(ltoks[-1]) is None:
        lu = ltoks.pop()
    a = _value_of(ltoks.pop()) if ltoks else None
    b_side = _side(right)
    if a is None or b_side is None:
        return []
    (b, sb, ub_raw), used = b_side
    rest = " ".join(right[used:used + 4])
    pb = rest[1:k].strip() or None if rest.startswith("(") and 0 < (k := rest.find(")")) <= 31 else None
    if pb and ("%" in pb or not re.search(r"[A-Za-z]", pb)):
        pb = None  # `(-2.709 %)`: the change, not a name
    ua = unit(lu or a[2] or "") if (lu or a[2]) else None
    ub = unit(ub_raw) if ub_raw else None
    if "%" in (ua, ub) or right[0].endswith("%"):
        return []
    head = " ".join(ltoks[-4:])
    key = head.rsplit(":", 1)[0].split(".")[-1].strip() if head.endswith(":") else ""
    if not (ua or ub or a[1] or key):
        return []  # bare `3 -> 4`: an index or a count, not a result
    metric_key = bool(key) and (any_metric(key) or bool(benchmarks_in(key)))  # `hackbench (lower is better):`
    setting = (sk["key"], sk["val"]) if (sk := SETTING.match(key)) else None  # `clients=16:`: how it ran
    out: list[ProseValue] = []
    for value, scale, u, paren, when in ((a[0], a[1], ua or ub, pa, "before"), (b, sb, ub or ua, pb, "after")):
        system = paren or (None if metric_key or setting else key or None)
        out.append(ProseValue(i, value, u, system, key if metric_key else None, scale, None if paren else when,
                              setting))
    return out


# `9234 Mbit/s (vanilla) vs 9410 Mbit/s (patched)`: two values, each with the name it was measured on
_VERSUS = re.compile(
    rf"(?<![\w.,])(?P<a>{_NUM})(?P<sa>[kKMG](?![A-Za-z]))?[ \t]?(?P<ua>[A-Za-z/µ]{{1,12}}+)?[ \t]*+"
    r"\((?P<na>[^()\d][^()]{0,40}+)\)[ \t,]*+(?:vs\.?|versus|compared[ \t]to|against)[ \t]++"
    rf"(?P<b>{_NUM})(?P<sb>[kKMG](?![A-Za-z]))?[ \t]?(?P<ub>[A-Za-z/µ]{{1,12}}+)?[ \t]*+"
    r"\((?P<nb>[^()\d][^()]{0,40}+)\)"
)
_VS_WORD = re.compile(r"\b(?:vs|versus|compared to|against)\b")
# `XFS (35649.6) is still lower than EXT4 (37146.0)`: each name with its figure in brackets, a
# comparison between; unit-less figures (scores, counts) count here, the comparison being the cue
def _name_figure(side: str) -> str:
    return (rf"(?P<n{side}>[A-Za-z][\w.+-]{{0,30}}+)[ \t]\((?P<{side}>{_NUM})"
            rf"(?:[ \t]?(?P<u{side}>[A-Za-z/µ]{{1,12}}+))?\)")


_NAMED_VERSUS = re.compile(
    r"(?<![\w.])" + _name_figure("a") + r"[ \t,]*+(?:(?:is|was|are|were)[ \t]++)?"
    r"(?:(?:still|much|slightly|far|about|\d{1,3}%)[ \t]++)?(?:(?:lower|higher|faster|slower|better|worse|less|more)"
    r"[ \t]++than|vs\.?|versus|compared[ \t]to|against)[ \t]++(?:the[ \t]++)?" + _name_figure("b")
)
_COMPARED_WORD = re.compile(r"\b(?:than|vs|versus|compared to|against)\b")
# `XFS (35649.6 -> 37810.9)`: one name, its figure before and after a change, in brackets
_NAMED_ARROW = re.compile(rf"(?<![\w.])(?P<n>[A-Za-z][\w.+-]{{0,30}}+)[ \t]\((?P<a>{_NUM})[ \t]*+(?:-{{1,3}}>|=>|→)[ \t]*+"
                          rf"(?P<b>{_NUM})(?:[ \t]?(?P<u>[A-Za-z/µ]{{1,12}}+))?\)")


def named_arrow(i: int, line: str) -> list[ProseValue]:
    """`XFS (35649.6 -> 37810.9)`: the named thing's figure before a change and after it."""
    from transforms.handmade.metrics import unit

    out: list[ProseValue] = []
    for m in _NAMED_ARROW.finditer(line):
        u = unit(m.group("u")) if m.group("u") else None
        if u == "%":
            continue
        for key, when in (("a", "before"), ("b", "after")):
            out.append(ProseValue(i, _figure(m, key), u, m.group("n"), when=when))
    return out


def named_versus(i: int, line: str) -> list[ProseValue]:
    """`XFS (35649.6) is still lower than EXT4 (37146.0)`: two figures, each of the name before it."""
    out: list[ProseValue] = []
    for m in _NAMED_VERSUS.finditer(line):
        ua, ub = _two_units(m)
        if "%" in (ua, ub) or m.group("na").lower() == m.group("nb").lower():
            continue
        for key, u, name in (("a", ua or ub, "na"), ("b", ub or ua, "nb")):
            out.append(ProseValue(i, _figure(m, key), u, m.group(name)))
    return out


def versus(i: int, line: str) -> list[ProseValue]:
    """`<a> (<name>) vs <b> (<name>)`: two values, each of the system named after it."""
    out: list[ProseValue] = []
    for m in _VERSUS.finditer(line):
        ua, ub = _two_units(m)
        if "%" in (ua, ub) or not (ua or ub or m.group("sa") or m.group("sb")):
            continue  # `3 (a) vs 4 (b)`: counts, or shares
        for key, s_key, u, name in (("a", "sa", ua or ub, "na"), ("b", "sb", ub or ua, "nb")):
            out.append(ProseValue(i, _figure(m, key), u, m.group(name).strip(), None, m.group(s_key)))
    return out


def _two_units(m: re.Match[str]) -> tuple[str | None, str | None]:
    """The units printed after a comparison's two figures (`ua`, `ub`), as the registry spells them."""
    from transforms.handmade.metrics import unit

    return (unit(m.group("ua")) if m.group("ua") else None), (unit(m.group("ub")) if m.group("ub") else None)


def _figure(m: re.Match[str], key: str) -> float:
    return float(m.group(key).replace(",", ""))


_TOOLS = names_pattern(without=("stream",))
_COMMAND = _TOOLS + r"(?:\s++-{1,2}[\w=]{1,12}+){0,3}+"  # `hdparm -tT`, `dd`, `fio --rw=read`
_VALUE = rf"{_ABOUT}(?<![\d.,])(?P<num>{_NUM})\s?(?P<unit>[A-Za-z/%µ]{{1,12}}+)"
_TOOL_SAYS = re.compile(  # `Hdparm -tT gives 38mb/s in 2.4.31`, `dd reports 92 MB/s`
    rf"(?i)\b(?P<cmd>{_COMMAND})\s(?:gives?|gave|reports?|reported|shows?|showed|says?|said|returns?|returned"
    rf"|measures?|measured)\s(?:me\s|us\s)?{_VALUE}(?:\s(?:in|on|under|with)\s(?P<sys>v?\d[\w.-]{{1,30}}))?")
_SAID_BY = re.compile(  # `about 18 MB/sec according to hdparm -t`, `58MB/s with hdparm -t`
    rf"(?i){_VALUE}\s(?:(?:as\s)?(?:according\sto|with|from|by|using|per|in)\s)(?:the\s)?(?P<cmd>{_COMMAND})\b")
_TOOL_CUE = re.compile(r"(?i)\b" + _TOOLS + r"\b")


def tool_says(i: int, line: str) -> list[ProseValue]:
    """One value a sentence gives as a tool's answer, the tool named beside it (its command is the
    metric): `hdparm -t gives 38mb/s`, `18 MB/sec according to hdparm -t`."""
    from transforms.handmade.metrics import unit

    out: list[ProseValue] = []
    for rx in (_TOOL_SAYS, _SAID_BY):
        for m in rx.finditer(line):
            u = unit(m.group("unit"))
            if u is None or u in ("%", "x"):
                continue
            system = m.groupdict().get("sys")
            out.append(ProseValue(i, float(m.group("num").replace(",", "")), u, system,
                                  " ".join(m.group("cmd").split())))
    return out


# `I get about 6MB/s without DMA`, `my duron sustains 600 MB/s`, `this gave an average of about
# 240MB/s`, `IOPs were stuck at 230K IOPS`: a measurement a verb of getting or reporting puts in a
# sentence. Only rates and short latencies count (`took 5 seconds` is seldom a result).
_GOT = re.compile(
    r"(?i)\b(?:get|gets|got|getting|see|saw|seeing|achieved?|achieves|achieving|reach(?:es|ed)?|sustain(?:s|ed)?"
    r"|report(?:s|ed)?(?:[ \t]++back)?|gives?|gave|showed|shows|measured|hits?|stuck[ \t]++at|tops?[ \t]++out[ \t]++at"
    r"|peak(?:s|ed)?[ \t]++at|average[ \t]++of|averaged|averages|manages?|managed|delivers?|delivered|runs?[ \t]++at"
    r"|ran[ \t]++at|does|did|yields?|yielded)[ \t]++(?:(?:only|just|over|nearly|almost|around|about|roughly"
    r"|approximately|approx\.?|an[ \t]++average[ \t]++of|up[ \t]++to)[ \t]++|~[ \t]?){0,3}+"
    rf"(?<![\d.,])(?P<num>{_NUM})(?P<scale>[kKMG](?![A-Za-z]))?[ \t]?(?P<unit>[A-Za-z/µ]{{1,12}}+)"
)
_RATE = frozenset({"MB/s", "MiB/s", "GB/s", "GiB/s", "KB/s", "KiB/s", "kB/s", "TB/s", "Mbit/s", "Gbit/s", "Kbit/s",
                   "bit/s", "IOPS", "kIOPS", "MIOPS", "trans/s", "ops/s", "B/s", "us", "usec", "ns", "ms"})


def got_values(i: int, line: str) -> list[ProseValue]:
    """Each `<verb of getting> [about] <rate>` of a sentence: a value, with the kernel release
    the sentence names right before it (`on 2.6.18 this gave ...`) or the patch right after it
    (`... with the patch`) as its system."""
    from transforms.handmade.metrics import unit
    from transforms.leadin import releases

    out: list[ProseValue] = []
    for m in _GOT.finditer(line):
        u = unit(m.group("unit"))
        if u not in _RATE:
            continue
        named = releases(line[max(0, m.start() - 60):m.start()])
        patch = _WITH_PATCH.search(line[m.end():m.end() + 40])
        system = named[-1] if named else patch.group("sys") if patch else None
        out.append(ProseValue(i, float(m.group("num").replace(",", "")), u, system, None, m.group("scale")))
    return out


# `~95Gbps before and ~35Gbps after`, `I get 111MB/s write and 87MB/s read`: figures, each followed by
# the word that says which it is (when it was measured, or what was done)
_FIGURE_WORD = re.compile(
    rf"(?<![\w.,])~?(?P<num>{_NUM})(?P<scale>[kKMG](?![A-Za-z]))?[ \t]?(?P<unit>[A-Za-z/µ]{{1,12}}+)[ \t]++"
    r"(?P<word>[A-Za-z]{2,12}+)\b(?P<gap>[ \t]*+(?:,|;|/|&|and|vs\.?)?[ \t]*+(?:and[ \t]++)?)"
)
_WHEN_WORDS = frozenset({"before", "after"})
_DONE_WORDS = frozenset({"read", "reads", "write", "writes", "rx", "tx", "send", "sends", "receive", "recv",
                         "upload", "download", "rewrite", "seek", "seeks"})
# what the sentence says the figures were measured on: `Without the tweaks, I get ...`, `RAID0 did ...`
_LEADING_CONDITION = re.compile(r"(?i)^[\s>|]*+(?P<cond>(?:with|without)\b[^,:;.]{1,40}+),")
_DOER = re.compile(r"(?<![\w.])(?P<subj>[A-Za-z][\w.+-]{1,30}+)[ \t]++(?:did|does|do|gets|got|gave|gives|reached"
                   r"|achieved|achieves|managed|manages)[ \t]++~?\d")


def figure_words(i: int, line: str) -> list[ProseValue]:
    """Two or more figures of one unit in a row, each followed by `before`/`after` (its system) or by
    what was done (`read`, `write`: its metric, the sentence's condition or doer the system)."""
    from transforms.handmade.metrics import unit

    run: list[re.Match[str]] = []
    for m in _FIGURE_WORD.finditer(line):
        if run and m.start() != run[-1].end():
            break  # only figures side by side, joined by `and` or a comma
        run.append(m)
    words = [m.group("word").lower() for m in run]
    units = {unit(m.group("unit")) for m in run}
    if len(run) < 2 or len(units) != 1 or None in units or "%" in units or len(set(words)) < len(words):
        return []
    if all(w in _WHEN_WORDS for w in words):
        before = _METRIC_OF.search(line[max(0, run[0].start() - 60):run[0].start()])
        label = before.group("words") if before else None
        return [ProseValue(i, _figure(m, "num"), unit(m.group("unit")), w, label, m.group("scale"))
                for m, w in zip(run, words, strict=True)]
    if not all(w in _DONE_WORDS for w in words):
        return []
    cond = _LEADING_CONDITION.match(line)
    doer = _DOER.search(line[max(0, run[0].start() - 40):run[0].start() + 2])
    system = cond.group("cond").strip() if cond else doer.group("subj") if doer and \
        doer.group("subj").lower() not in _PERSONS else None
    return [ProseValue(i, _figure(m, "num"), unit(m.group("unit")), system, m.group("word"), m.group("scale"))
            for m in run]


# `250 K IOPS with no I/O scheduler, 6 K IOPS with mq-deadline and write locking enabled and ...`:
# figures of one unit, each followed by the condition it was measured under
_FIGURE_WITH = re.compile(
    rf"(?<![\w.,])~?(?P<num>{_NUM})(?:[ \t]?(?P<scale>[kKMG])(?![A-Za-z]))?[ \t]?(?P<unit>[A-Za-z/µ]{{1,12}}+)"
    r"[ \t]++(?P<prep>with|without|using|under)[ \t]++"
)
_PRONOUNS = frozenset({"it", "them", "that", "this"})  # `... without the patch and 12890.1 MB/s with it`
_FILLERS = frozenset({*HEDGES, "~", "and", "but", "while", "whereas", "vs", "vs.", "versus", "nearly", "almost",
                      "only", "just", "to", "or"})  # words leading from a condition to the next figure
WITH_WORD = re.compile(r"\b(?:with|without|using|under)\b")
_CONDITION_END = re.compile(r"\.(?=\s|$)|[;:!?()]|,[ \t]")


def figures_with(i: int, line: str) -> list[ProseValue]:
    """Two or more figures of one unit in a sentence, each with the condition after `with` (its
    system): the condition runs to the next figure or the sentence's end. A condition cut off at the
    line's end (wrapped text) reads nothing, so that the caller joins the next line."""
    from transforms.handmade.metrics import unit

    found = list(_FIGURE_WITH.finditer(line))
    units = {unit(m.group("unit")) for m in found}
    if len(found) < 2 or len(units) != 1 or not units <= _RATE:
        return []
    out: list[ProseValue] = []
    for k, m in enumerate(found):
        stop = found[k + 1].start() if k + 1 < len(found) else len(line)
        text = line[m.end():stop]
        end = _CONDITION_END.search(text)
        if k + 1 == len(found) and end is None:
            return []  # the last condition runs off the line: wrapped, or no sentence end
        words = (text[: end.start()] if end else text).replace(",", " ").split()
        while words and words[-1].lower() in _FILLERS:
            words.pop()  # `with a single fio job and about` / `150 IOPS`: the words lead to the next figure
        cond = " ".join(words)
        if not cond or len(cond) > 60:
            return []
        out.append(ProseValue(i, _figure(m, "num"), unit(m.group("unit")), cond, None, m.group("scale")))
    label = _metric_before(line[: found[0].start()])
    for v in out:
        v.label = label
    return _without(found, out)


def _metric_before(text: str) -> str | None:
    """The metric a sentence names in its last words before its first figure (`Triad reached`)."""
    from transforms.handmade.metrics import any_metric

    words = text.replace(",", " ").split()[-4:]
    return next((w.strip(":") for w in reversed(words) if len(w) <= 30 and any_metric(w.strip(":"))), None)


def _without(found: list[re.Match[str]], out: list[ProseValue]) -> list[ProseValue]:
    """A figure `without` a thing is measured without it (the word stays in its system); one `with it`
    is measured with the thing the sentence names (`without the patch ... with it`)."""
    things = [v.system for v, m in zip(out, found, strict=True) if v.system and v.system.lower() not in _PRONOUNS]
    for v, m in zip(out, found, strict=True):
        prep = m.group("prep").lower()
        if v.system and v.system.lower() in _PRONOUNS:
            if len(set(things)) != 1:
                return []  # `with it` and nothing, or several things, it could stand for
            v.system = f"{prep} {things[0]}"
        elif prep == "without":
            v.system = f"without {v.system}"
    return out


# `measured bandwidth of ~95Gbps ...`: the quantity the figures after it are of
_METRIC_OF = re.compile(r"(?P<words>[A-Za-z][\w/-]{1,30}+)[ \t]++(?:of|is|was|were|are)[ \t]*+~?$")
_PERSONS = frozenset({"i", "we", "you", "he", "she", "they", "it", "there", "this", "that"})


def _cued(i: int, line: str) -> list[ProseValue]:
    """What the first of the arrow, versus, `from ... to`, `is` and tool-says readings finds in a line, each
    tried only when its cue word is there (in that order: an arrow line may also say `from`)."""
    for cue, read in ((ARROW_WORD, arrows), (ARROW_WORD, named_arrow), (_VS_WORD, versus), (_COMPARED_WORD, named_versus),
                      (_FROM_WORD, from_to), (_FIGURE_WORD, figure_words), (WITH_WORD, figures_with), (_IS_WORD, _is_pairs),
                      (_TOOL_CUE, tool_says), (_GOT, got_values)):
        if cue.search(line):
            found = read(i, line)
            if found:
                return found
    return []


def _continued(lines: list[str], i: int, taken: set[int]) -> str | None:
    """The next line when line `i` is wrapped text that goes on there (no sentence end between)."""
    line, k = lines[i].rstrip(), i + 1
    if k >= len(lines) or k in taken or not lines[k].strip() or len(line) < 40 or len(lines[k]) > 400 \
            or line.endswith((".", "!", "?", ":")):
        return None
    return lines[k].strip()


def read_prose(lines: list[str], taken: set[int]) -> list[ProseValue]:
    from transforms.handmade.evidence import benchmarks_in
    from transforms.handmade.metrics import unit

    out: list[ProseValue] = []
    joined: set[int] = set()  # lines whose values a reading of the line above took
    for i, line in enumerate(lines):
        if i in taken or i in joined or len(line) > 400 or not _DIGIT.search(line):
            continue
        keyed = i > 0 and i - 1 not in taken and ARROW_WORD.search(line) is not None \
            and _NUMBER_FIRST.match(line) is not None and _KEY_LINE.match(lines[i - 1]) is not None
        if keyed:
            # `hackbench (lower is better):` over `102.27 --> 99.50`: the key above is what changed; a
            # key naming something else (`xz compression of firefox tarball:`) is another measurement
            found = arrows(i, f"{lines[i - 1].strip()} {line.strip()}") if benchmarks_in(lines[i - 1]) else []
            if not found:
                continue
        else:
            found = _cued(i, line)
        if not found and (nxt := _continued(lines, i, taken)) is not None:
            text = f"{line.rstrip()} {nxt}"
            found = _cued(i, text)  # `goes from 1124MiB/s to` / `1263.14MiB/s.`
            if found:
                joined.add(i + 1)
            elif WITH_WORD.search(text) and (third := _continued(lines, i + 1, taken)) is not None:
                found = figures_with(i, f"{text} {third}")  # a sentence of conditions over three lines
                if found:
                    joined.update((i + 1, i + 2))
        if not found and i and not _DIGIT.search(lines[i - 1]) and _continued(lines, i - 1, taken) is not None \
                and _FROM_WORD.search(line):
            found = from_to(i, f"{lines[i - 1].strip()} {line.strip()}")  # `... Performance` / `increases from 20k`
        if found:
            out.extend(found)
            continue
        colon = ":" in line
        if not colon and not _BA_WORD.search(line):
            continue
        m = _BEFORE_AFTER.search(line)
        if m:
            ua, ub = unit(m.group("ua")) if m.group("ua") else None, unit(m.group("ub")) if m.group("ub") else None
            key = line[: m.start()].strip(" \t>")  # `tbench 16 clients:   vanilla 4512.3 MB/sec   patched ...`
            label = key[:-1].strip() if key.endswith(":") and 0 < len(key) <= 41 and benchmarks_in(key) else None
            if ua != "%" and ub != "%":
                for sys_key, val, u in (("a", "va", ua or ub), ("b", "vb", ub or ua)):
                    out.append(ProseValue(i, float(m.group(val).replace(",", "")), u, m.group(sys_key).lower(), label))
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


def before_after(line: str) -> bool:
    """Whether a line sets a figure before (or without, vanilla) against one after (with, patched),
    each word right before its figure (`vanilla 4512.3 MB/sec   patched 4690.1 MB/sec`; a `before = 570`
    pair is the summaries' to read)."""
    m = _BEFORE_AFTER.search(line) if len(line) <= 400 else None
    return m is not None and ":" not in m.group(0) and "=" not in m.group(0)


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
from transforms.quotes import split_quote
from transforms.shell import is_prompted
from transforms.tools import TOOLS, names_pattern

# a kernel release as posters write it: `2.6.30`, `2.4.0-test9`, `5.12-rc1`, `v6.6`, `linux-2.6.24`,
# `kernel 4.19`; a two-part number counts only with `kernel`/`linux`/`v` or an -rc/-mm suffix
_RELEASE = re.compile(
    r"(?i)(?<![\w./-])(?:(?P<pre>linux[- ]|kernel[- ]|v)(?P<a>\d{1,2}\.\d{1,2}(?:\.\d{1,3})?)"
    r"|(?P<b>[2-6]\.\d{1,2}\.\d{1,3}|[2-6]\.\d{1,2}(?=-(?:rc|mm|pre|test)\d)))"
    r"(?P<suffix>-(?:rc|mm|pre|test|ac|git|next)[\w.-]{0,20}|-?bk\d{1,3}(?:-[\w.-]{1,20})?)?(?![\w.]*\d)"
)
# a tool's own version (`fio-3.19`, `iperf 3.1.3`, `version 1.03`) is no release of the system
_TOOL_BEFORE = re.compile(r"(?i)(?:" + names_pattern(without=("tbench", "hackbench", "kernbench", "dd", "hdparm"))
                          + r"|gcc|version|ver\.?|release|v\.)[\s-]{0,2}$")
_LEAD_REACH = 10  # lines above a printout searched for its lead-in paragraph
# a command typed without its prompt (`mkraid /dev/md0`, `mount /dev/md0 /backup`, `bonnie -d /hde`):
# a word of the shell's or a tool's name, then arguments, no sentence
_SHELL_WORDS = frozenset({"mount", "umount", "mkfs", "mke2fs", "mkraid", "raidstart", "mdadm", "echo", "cat",
                          "cd", "sync", "modprobe", "insmod", "rmmod", "sudo", "time", "taskset", "numactl",
                          "sysctl", "blockdev", "tune2fs", "swapon", "swapoff", "rm", "cp", "mkdir", "ln"})
_UNPROMPTED = re.compile(r"^(?:\./|/)?(?P<word>[a-z][\w.+-]{0,30})(?:\s++(?:-[\w=.,:/+-]*+|[\w./=:,+][\w./=:,+-]*+|[>|&;]{1,2}))++$")
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


_DD_RECORDS = re.compile(r"^\d{1,12}+\+\d{1,12}+ records (?:in|out)$")  # dd's own lines above its summary


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
        while para and (is_prompted(para[-1]) or _unprompted_command(para[-1]) or _DD_RECORDS.match(para[-1])):
            para.pop()  # the commands right above the printout are what was run, not what it ran on
        if para:
            break  # (a paragraph of commands alone: the lead-in is further up)
    return " ".join(para)


def _unprompted_command(line: str) -> bool:
    m = _UNPROMPTED.match(line)
    return m is not None and (m.group("word").split(".")[0] in _SHELL_WORDS or m.group("word") in TOOLS
                              or line.startswith(("./", "/")))


# `first lines for 2.4.7-ac3, then 2.4.7-ac9`, `first run is vanilla, second is patched`,
# `top: base, bottom: patched`: the order of the printouts below names their systems
_NOUN = r"(?:\s++(?:line|row|run|result|number|one|output|block)s?+)?+\s*+(?:(?:is|are|for|from|with|on|of|=|:)\s++)?+"
_ORDER = re.compile(
    r"(?i)\b(?:first|top|upper)" + _NOUN + r"(?P<a>[\w.+/-]{1,40}+)\s*+[,;]?\s*+(?:and\s++)?+(?:the\s++)?+"
    r"(?:then|second|bottom|lower|next)" + _NOUN + r"(?P<b>[\w.+/-]{1,40}+)(?=\s*+(?:[.,;:)]|$))")
_ORDER_WORD = re.compile(r"(?i)first|top|upper")


def order_legend(lines: Sequence[str]) -> tuple[int, list[str]] | None:
    """(line, [first, second]) of a sentence that names printouts by their order."""
    head = lines[:2000]
    text = "\n".join(head)
    k, at, last = 0, 0, -1  # the line of each word found, counted from the previous one: one scan in all
    for w in _ORDER_WORD.finditer(text):
        k += text.count("\n", at, w.start())
        at = w.start()
        if k == last:
            continue
        last = k
        line = head[k]
        if len(line) > 300:
            continue
        m = _ORDER.search(line)
        if m and m.group("a").lower() != m.group("b").lower():
            return k, [m.group("a").rstrip("."), m.group("b").rstrip(".")]
    return None


# lmbench's OS column, cut at 13 characters (`Linux 2.4.20-` for 2.4.20-8(RH9)), after the host
_CUT_OS = re.compile(r"^(?P<head>.{0,40}?\bLinux[ \t])(?P<cut>\d{1,2}\.\d{1,2}[\w.+~-]{0,8}+)$")
_OS_WIDTH = 13
_RELEASE_TOKEN = re.compile(r"(?<![\w.])\d{1,2}\.\d{1,2}(?:\.\d{1,3}+)?[\w.+~()-]{0,40}+")


def _complete_cut_releases(found: Sequence[tuple[Run, Segment]], body: str, subject: str | None) -> None:
    """A system whose release the printout cut short (lmbench's `lucent.rd Linux 2.4.20-`) takes
    the whole release when the post names exactly one that the cut one starts (`2.4.20-8(RH9)` in
    the subject)."""
    cut_runs = [(run, m) for run, _ in found if run.system and run.status == "ok"
                and (m := _CUT_OS.match(run.system))
                and (len("Linux " + m.group("cut")) == _OS_WIDTH or m.group("cut").endswith("-"))]
    if not cut_runs:
        return
    text = f"{subject or ''}\n{body[:_MAX_TEXT]}"
    for run, m in cut_runs:
        cut = m.group("cut")
        longer: set[str] = set()
        at = text.find(cut)
        while at != -1 and len(longer) < 2:  # (only where the cut release is written: no scan of the post)
            if (token := _RELEASE_TOKEN.match(text, at)) is not None and len(name := token.group(0).rstrip(".,;:")) > len(cut):
                longer.add(name)
            at = text.find(cut, at + 1)
        if len(longer) == 1:
            run.system = m.group("head") + longer.pop()


_COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10}
# `First two: Linux 2.4.2-ac26 + HP Multiqueue patch`, `the last 3 runs are vanilla`: a group of the
# rows below, by its place and count, named
_COUNTED = re.compile(
    r"(?i)^[ \t]*+(?:the[ \t]++)?(?:first|second|third|fourth|next|last|other)[ \t]++"
    r"(?P<n>one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2}+)"
    r"(?:[ \t]++(?:runs?|rows?|lines?|results?|ones?))?[ \t]*+(?::|=|-|\bare\b|\bis\b|\bwere\b|\bwith\b)[ \t]*+"
    r"(?P<name>\S[^\n]{0,60}?)[ \t.]*+$")
_COUNTED_REACH = 40  # lines above the runs where the legend of their groups stands
# `o First line is  a linux-2.6.11-rc4-mm1-cnfork`: one row below, by its place, named
_ORDINAL_ONE = re.compile(
    r"(?i)^[ \t]*+(?:[-*o\u2022][ \t]++)?(?:the[ \t]++)?(?:first|second|third|fourth|fifth|sixth)[ \t]++"
    r"(?:line|row|run|result)[ \t]++(?:is|was|:|=|-)[ \t]*+(?:(?:a|an|the)[ \t]++)?(?P<name>\S[^\n]{0,60}?)[ \t.]*+$")


def _legend_count(line: str) -> tuple[int, str] | None:
    """(how many rows, their name) of a line of a legend naming rows by place: `First two: ...`, `Second line is ...`."""
    if len(line) > 120:
        return None
    if m := _COUNTED.match(line):
        return (int(m.group("n")) if m.group("n").isdigit() else _COUNT_WORDS[m.group("n").lower()]), m.group("name")
    if m := _ORDINAL_ONE.match(line):
        return 1, m.group("name")
    return None


def _fill_by_counted_legend(found: Sequence[tuple[Run, Segment]]) -> None:
    """Runs of one printout that name one system alike (lmbench's host and OS, the same for every
    run), under a legend that names their groups by count in order (`First two: <kernel + patch>`,
    `Second Two: <kernel>`): each run takes its group's name, when the counts add up to the runs."""
    by_seg: dict[tuple[int, str], tuple[Segment, list[Run]]] = {}
    for run, seg in found:
        if run.status == "ok" and run.results:
            by_seg.setdefault((id(seg), run.benchmark), (seg, []))[1].append(run)
    for seg, runs in by_seg.values():
        first = min(r.line_start for r in runs)
        legend = [(k, m) for k in range(max(0, first - _COUNTED_REACH), first) if (m := _legend_count(seg.lines[k]))]
        if len(legend) < 2:
            continue
        counts = [n for _, (n, _) in legend]
        after = [r for r in runs if r.line_start > legend[-1][0]]
        same = {(r.benchmark, r.system) for r in after}
        if len(same) != 1 or sum(counts) != len(after) or any(x.system for r in after for x in r.results):
            continue
        names = [name.strip() for _, (n, name) in legend for _ in range(n)]
        ordered = sorted(after, key=lambda r: (r.line_start, int(r.results[0].params.get("repeat", "0"))))
        for run, name in zip(ordered, names, strict=True):
            if run.system:
                run.attributes.setdefault("host", run.system)
            run.system = name


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


_LEAD_CHARS = 160  # a lead-in naming one printout is a line or two, not a paragraph of discussion
_OPENER = re.compile(r"(?i)^(?:(?:and|but|then|now|so|also|finally|next)\b[\s,]*+)++")
_QUOTING = re.compile(r"(?i)\b(?:wrote|writes|said)\s*+:?\s*+$")
_RULE_TOKEN = re.compile(r"(?<!\S)[-=_~*#]{5,}+(?!\S)")
_FENCE = re.compile(r"`{3,}+\w*+|(?<!\S)[-=_~*#]{3,}+(?!\S)")  # code fences and underlines: markup
_BULLET = re.compile(r"^[-*+\u2022][^\S\n]++")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s++(?=[A-Z])")
_TOOL_WORDS = frozenset(TOOLS) | {"bonnie++"}
_FILLER = frozenset({
    "when", "while", "running", "run", "runs", "ran", "i", "we", "you", "get", "got", "gets", "the", "following",
    "follows", "this", "these", "that", "is", "are", "was", "were", "what", "here", "results", "result", "output",
    "numbers", "with", "a", "an", "of", "on", "for", "my", "our", "see", "saw", "as", "and", "it", "gives",
    "gave", "below", "shows", "showed", "some", "test", "tests", "benchmark", "benchmarks", "again", "too",
})  # fmt: skip


def _lead_caption(seg: Segment, run: Run) -> str | None:
    """The line or two right above a printout that say what it measured (`Now after clients did
    some streaming IO:`), cleaned of the words that only join it to the text before."""
    from transforms.parsers._common import (  # (they import this module)
        generic_label,
        run_parameter,
        system_label,
    )

    text = lead_in(seg.lines, run.line_start)
    if not text and not any(x.strip() for x in seg.lines[:run.line_start]) and seg.before:
        text = seg.before[-1].strip()  # a quoted printout under a lead-in of the reply (or v.v.)
        if not _sentence_like(text) and not (text.endswith(":") and system_label(text)):  # `2.6.19.1, SATA:`
            return None  # the lines before are another printout, not a sentence leading into this one
        if len(seg.before) > 1 and not seg.before[-2].rstrip().endswith((".", "!", "?", ":")) \
                and _sentence_like(seg.before[-2]):
            text = f"{seg.before[-2].strip()} {text}"  # the lead-in's first line, wrapped
    pieces = [p for p in _RULE_TOKEN.split(text or "") if p.strip()]  # `----------`: a section starts there
    text = " ".join(_FENCE.sub(" ", pieces[-1] if pieces else "").split())
    if not text or len(text) > _LEAD_CHARS or _QUOTING.search(text) or is_prompted(text):
        return None
    core = _SENTENCE_END.split(text.rstrip(":. "))[-1]  # `Hi. This is what I get with a Maxtor:`
    core = _BULLET.sub("", _OPENER.sub("", core)).rstrip(":. ").strip()
    if run_parameter(core):
        return None  # `iodepth=64`: how the test ran, not on what
    if not core or generic_label(core) or not _wordy(core):
        return None  # a label (`graviton2`) or a sentence; not a log line or another printout's tail
    words = {w.strip("()[],;:'\"").lower() for w in core.split()} - {""}
    says = {w for w in words if w not in _TOOL_WORDS and w not in _FILLER and not w.startswith("-")}
    return core if says else None  # `When running hdparm -tT I get the following`: says nothing


def _row_keys(run: Run) -> set[tuple]:
    return {(r.metric, r.statistic, tuple(sorted((k, v) for k, v in r.params.items() if k != "repeat")))
            for r in run.results}


# a log line's clock, a printout's reading (`23775.4 MB/sec`), a command (`iperf3 -c 10.1.1.2 -u`)
# (and `time`'s `168.08user 46.05system`, a CSV record, a shell prompt's command)
_NOT_CAPTION = re.compile(r"\d:\d\d:\d\d|\d\s*+[KMGT]?(?:B|bits?)/s(?:ec)?\b|^(?:" + names_pattern() + r")\s++-"
                          r"|\d(?:user|system|elapsed)\b|\b\d{1,4}m\d{1,2}(?:\.\d{1,6})?s\b|,[^,\s]{0,40}+,[^,\s]{0,40}+,[^,\s]{0,40}+,|^[\w/~.@:-]{0,40}+\s?[$#]\s"
                          r"|\b[a-z_]{2,20}+=\d[^,\s]{0,20}+,[ \t]*+[a-z_]{2,20}+=\d")  # (`ios=7662/7865, sectors=...`)


def _wordy(text: str) -> bool:
    """No log line, reading or command: what a poster writes above a printout to name it."""
    return not _NOT_CAPTION.search(text)


def _sentence_like(text: str) -> bool:
    words = text.split()
    return bool(words) and sum(w.strip(",.:;()'\"").isalpha() for w in words) >= 0.6 * len(words)


def _printed_by(seg: Segment, run: Run, name: str) -> bool:
    """`name` is one the tool printed: already a parameter of the rows (a device, a host), or on a
    line of the printout (bonnie's machine column), not on a caption line of its own; a kernel
    release the tool reports (lmbench's banner) is the system itself."""
    if releases(name):
        return False  # a kernel the tool reports it ran on (lmbench's banner) is the system itself
    if any(name in r.params.values() for r in run.results):
        return True
    lines = seg.lines[run.line_start:max(run.line_end, run.line_start + 1)]
    return any(name in line and line.strip().rstrip(":").strip() != name for line in lines)


def _section_captions(found: Sequence[tuple[Run, Segment]]) -> dict[int, str | None]:
    """Each printout's lead-in; one right under another printout (hdparm's, then bonnie's, under
    `on 3ware (7850) :`) shares the lead-in of the one above it."""
    out: dict[int, str | None] = {}
    by_seg: dict[int, list[tuple[Run, Segment]]] = {}
    for run, seg in found:
        if run.status == "ok" and run.results:
            by_seg.setdefault(id(seg), []).append((run, seg))
    for members in by_seg.values():
        above: Run | None = None
        for run, seg in sorted(members, key=lambda m: m[0].line_start):
            name = _lead_caption(seg, run)
            if name is None and above is not None and above.line_end <= run.line_start and not any(
                    x.strip() for x in seg.lines[above.line_end:run.line_start]):
                name = out.get(id(above))
            out[id(run)] = name
            above = run
    return out


def _fill_by_lead_ins(found: Sequence[tuple[Run, Segment]]) -> None:
    """Printouts of one benchmark that nothing tells apart (no system, or only a host or machine
    name the tool printed in each of them alike), each under a lead-in of its own: the lead-ins
    are the systems they compare, and the printed name becomes a parameter."""
    groups: dict[tuple[str, str | None], list[tuple[Run, Segment]]] = {}
    captions = _section_captions(found)
    for run, seg in found:
        if run.status == "ok" and run.results and all(r.system in (None, run.system) for r in run.results):
            groups.setdefault((run.benchmark, run.system), []).append((run, seg))
    # one printout under one lead-in that names several systems itself (bonnie rows `NPTL`,
    # `LinuxThreads`): those names are what it compares, and the lead-in is no system
    printout_names: dict[tuple[str, int, str], set[str | None]] = {}
    for run, seg in found:
        if (name := captions.get(id(run))) is not None:
            printout_names.setdefault((run.benchmark, id(seg), name), set()).add(run.system)
    for (benchmark, shared), members in groups.items():
        if len(members) < 2 or shared is not None and not all(_printed_by(s, r, shared) for r, s in members):
            continue
        keys = [_row_keys(run) for run, _ in members]
        common = set.intersection(*keys)
        if any(2 * len(common) < len(k) for k in keys):
            continue  # the printouts measured different things (threads, sizes): their rows differ
        names = [captions[id(run)] for run, _ in members]
        if any(n is None for n in names) or len({n.lower() for n in names if n}) < len(names):
            continue
        if any(len(printout_names[(benchmark, id(seg), n)]) > 1 for (_, seg), n in zip(members, names, strict=True)
               if n is not None):
            continue
        key = "machine" if benchmark == "bonnie" else "host"
        for (run, _), name in zip(members, names, strict=True):
            run.system = name
            for r in run.results:
                r.system = None
                r.params.pop("repeat", None)  # it only told the unnamed printouts apart
                if shared is not None and shared not in r.params.values():
                    r.params.setdefault(key, shared)


# hdparm's report of a setting it made (`setting drive write-caching to 0 (off)`, `setting
# readahead to 256`): typed right before a run, the condition the run measured
_SETTING_MADE = re.compile(r"^[ \t]*+setting[ \t]++(?:drive[ \t]++)?+(?P<what>[\w-]{2,30}+(?:[ \t]++[\w-]{1,30}+){0,3}?)"
                           r"[ \t]++to[ \t]++(?P<val>\d{1,6}+(?:[ \t]++\((?:on|off)\))?+)[ \t]*+$")
_SETTING_REACH = 8  # lines above a run searched for the setting made for it


def _fill_by_settings(found: Sequence[tuple[Run, Segment]]) -> None:
    """Runs named by nothing, each right after a setting of its own (`hdparm -W0`, then `time dd`;
    `hdparm -W1`, then `time dd` again): the settings are the conditions they compare."""
    made: list[tuple[Run, str]] = []
    for run, seg in found:
        if run.status != "ok" or not run.results or run.system or any(r.system for r in run.results):
            continue
        for k in range(run.line_start - 1, max(-1, run.line_start - 1 - _SETTING_REACH), -1):
            m = _SETTING_MADE.match(seg.lines[k]) if k < len(seg.lines) else None
            if m:
                made.append((run, f"{m.group('what')} to {m.group('val')}"))
                break
    if len({name for _, name in made}) >= 2:
        for run, name in made:
            run.system = name


def fill_systems(found: Sequence[tuple[Run, Segment]], body: str, subject: str | None) -> None:
    """Give runs whose rows name no system the release their lead-in (or the whole post) names; a
    device standing in for a caption (`/dev/md0:`) yields to the release of its lead-in, or to the
    post's when the post measured that one device only."""
    _complete_cut_releases(found, body, subject)
    _fill_by_counted_legend(found)
    _fill_in_order(found)
    _fill_by_settings(found)
    _fill_by_lead_ins(found)
    _fill_by_condition_headings(found, body)
    whole: list[str] | None = None
    devices = {run.attributes.get("device") for run, _ in found if run.status == "ok" and run.results}
    for run, seg in found:
        if run.status != "ok" or any(r.system for r in run.results):
            continue
        if run.system:
            if run.system == run.attributes.get("device"):
                lead = releases(lead_in(seg.lines, run.line_start))
                if not lead and len(devices) == 1:  # one device measured: it tells nothing apart
                    whole = _post_release(subject, body) if whole is None else whole
                    lead = whole
                if len(lead) == 1:
                    run.system = lead[0]  # the device stood in for a caption: the release names the run
            continue
        named = releases(lead_in(seg.lines, run.line_start))
        if not named:
            if whole is None:
                whole = _post_release(subject, body)
            named = whole
        baselines = {_bare_release(r.params["baseline"]) for r in run.results if r.params.get("baseline")}
        named = [n for n in named if _bare_release(n) not in baselines]  # `relative to v6.5`: what it changed from
        if len(named) == 1:
            run.system = named[0]
    _fill_beside_named(found)


def _bare_release(name: str) -> str:
    return name.strip().lower().removeprefix("v")


# `Linux hoppa 2.2.18pre21 #1 Fri Dec 22 ...` (uname -a), or the line after `uname -r`: the kernel
# the machine ran, as the machine printed it
_UNAME_A = re.compile(r"(?m)^[ \t>]*+Linux[ \t]++[\w.-]{1,64}+[ \t]++(?P<rel>\d{1,2}\.\d{1,2}[\w.+~-]{0,60}+)[ \t]++#\d")
_UNAME_R = re.compile(r"(?m)uname[ \t]++-r[ \t]*+\n[ \t>]*+(?P<rel>\d{1,2}\.\d{1,2}[\w.+~-]{0,60}+)[ \t]*+$")


def uname_release(body: str) -> list[str]:
    """The one kernel release `uname` printed in the post (none when it printed two): what the
    machine measured ran, for printouts nothing else names."""
    text = body[:_MAX_TEXT]
    found = {m.group("rel") for pattern in (_UNAME_A, _UNAME_R) for m in pattern.finditer(text)}
    return list(found) if len(found) == 1 else []


_SHORT_CAPTION = 5  # words: a caption naming one printout of several (`Fedora 42`), not a sentence


def _fill_beside_named(found: Sequence[tuple[Run, Segment]]) -> None:
    """A printout left unnamed beside printouts of the same measurements that are named (`Rocky
    9.5` over one, `Fedora 42` over the other, where only one caption read as a system): a short
    lead-in of its own that no other printout bears names it too."""
    ok = [(run, seg) for run, seg in found if run.status == "ok" and run.results]
    named = [(run, seg) for run, seg in ok if run.system or any(r.system for r in run.results)]
    if not named:
        return
    taken = {(run.system or "").lower() for run, _ in named} | {
        (r.system or "").lower() for run, _ in named for r in run.results}
    unnamed = [(run, seg) for run, seg in ok if not (run.system or any(r.system for r in run.results))]
    if not unnamed:
        return
    named_keys = [(other.benchmark, _row_keys(other)) for other, _ in named]
    for run, seg in unnamed:
        keys = _row_keys(run)
        if not any(bench == run.benchmark and 2 * len(keys & theirs) >= len(keys) for bench, theirs in named_keys):
            continue
        name = _lead_caption(seg, run)
        if name and len(name.split()) <= _SHORT_CAPTION and name.lower() not in taken:
            run.system = name
            taken.add(name.lower())


def _post_release(subject: str | None, body: str) -> list[str]:
    """The one release the whole post names, or the one its subject names as a release when the
    body names others too (`Subject: 2.4.10-ac10-preempt lmbench output`, the body comparing it
    with the kernel used before): the subject says what the post measured. Failing those, the
    results the post says it gives, or the one release `uname` printed."""
    text = f"{subject or ''}\n{body}"
    topic = releases(subject or "", strong=True) or [  # `hdparm results with 2.4.1`
        r for r in releases(subject or "") if _TAKEN_WITH.search((subject or "")[:(subject or "").find(r)])]
    if len(releases(text)) == 1:
        return releases(text, strong=True) or topic or uname_release(body)
    if len(topic) == 1 and len(releases(subject or "")) == 1:
        return topic
    stated = {m.group("name") for m in _RESULTS_OF.finditer(body[:_MAX_TEXT]) if releases(m.group("name"), strong=True)}
    if len(stated) == 1:
        return list(stated)  # `the dbench test result of misc-next(5.11-rc6 +81patches)`
    return uname_release(body)  # failing all that, the kernel the machine said it ran


# `results with 2.4.1`, `dbench on 2.6.0`: the words before a bare release that say what was measured
_TAKEN_WITH = re.compile(r"(?i)\b(?:with|on|under|for|running|using)[ \t]++$")
# `results of misc-next(5.11-rc6 +81patches)`, `results for 2.6.24-rc3`: what the post says it measured
_RESULTS_OF = re.compile(r"(?i)\bresults?[ \t]++(?:of|for|on)[ \t]++(?:the[ \t]++)?+"
                         r"(?P<name>[^\s,;:()]{2,60}+(?:[ \t]?+\([^()\n]{1,40}+\))?+)")


_HEADING_REACH = 200  # lines above a printout searched for the condition heading of its section
# `*** Test results, without reverting patch 12 ***`: a heading set off by marks on both sides
_DECORATED_HEADING = re.compile(r"^(?:\*{3,}+|#{3,}+|={3,}+|~{3,}+)[ \t]*+(?P<name>[^*#=~\s]++(?:[ \t]++[^*#=~\s]++){0,15}+)[ \t]*+[*#=~]{3,}+$")


_RULE_ABOVE = re.compile(r"^[ \t]*+(?:-{20,}+|={20,}+|_{20,}+|\*{20,}+)[ \t]*+$")


def _ruled_heading(lines: list[str], k: int, depth: int, text: str) -> bool:
    """A short line right under a long rule, a blank line below it (`-------` / `2.4.8-pre8` / ``):
    the heading of the section the rule opens."""
    if not text or k < 1 or k + 1 >= len(lines) or text.endswith((".", ",", ":")) or len(text.split()) > 3:
        return False
    above, below = split_quote(lines[k - 1]), split_quote(lines[k + 1])
    return above[0] == depth and _RULE_ABOVE.match(above[1]) is not None and below[0] == depth \
        and not below[1].strip()


def _fill_by_condition_headings(found: Sequence[tuple[Run, Segment]], body: str) -> None:
    """`Before the patch:` ... printouts ... `After the patch:` ... printouts: a heading of its own
    line naming a condition (before, after, with, without) heads a section; a printout in it that
    nothing else names measured that condition, however far below (a reply may cut the quoted
    section with comments). A printout of the same benchmark named otherwise in between ends it."""
    from transforms.handmade import evidence
    from transforms.parsers._common import _CONDITION, generic_label, names_system

    todo = [(run, seg) for run, seg in found if run.status == "ok" and run.results and not run.system
            and not any(r.system for r in run.results)]
    if not todo:
        return
    lines = body.split("\n")
    named = [(seg.offset + run.line_start, run.benchmark, run.system) for run, seg in found
             if run.status == "ok" and (run.system or any(r.system for r in run.results))]
    for run, seg in todo:
        start = seg.offset + run.line_start
        for k in range(start - 1, max(-1, start - 1 - _HEADING_REACH), -1):
            if k >= len(lines):
                continue
            depth, text = split_quote(lines[k])
            text = text.strip()
            ruled = _ruled_heading(lines, k, depth, text)
            if depth != seg.depth or not (text.endswith(":") or _DECORATED_HEADING.match(text) or ruled) \
                    or len(text) > 60:
                continue
            name = names_system(text)
            marked = _DECORATED_HEADING.match(text)
            bare = marked["name"].strip() if marked else text if ruled else ""
            if name is None and (marked or ruled) and len(bare) <= 30 and len(bare.split()) <= 3 \
                    and not generic_label(bare) and not evidence.benchmarks_in(bare):
                name = bare  # `==========for-next==========`: a heading set off by marks names its section
            elif name is None or not _CONDITION.match(name) and not (marked or ruled):
                continue
            if any(k < at < start and bench == run.benchmark and system != name for at, bench, system in named):
                break  # a printout named otherwise since: the section moved on
            run.system = name
            break


"""Re-typed summaries: a label line (`host:`, `2.6.24-rc3:`) and `KEY : value unit (stdev: x)`
lines below it; also one `run 1: 1234 MB/s` line per run.

The value is the number before any parenthesis (the stdev inside is never read); thousands
separators are removed; units are spelled loosely and normalised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from transforms.handmade.cells import ONE_RUN, PAIR_IN_LABEL, RELEASE, Cell, cells
from transforms.handmade.commands import command_of
from transforms.handmade.evidence import benchmarks_in, other_benchmark
from transforms.handmade.metrics import STAT_HEAD, any_metric, label_votes, norm, unit_in
from transforms.handmade.metrics import unit as unit_of
from transforms.handmade.prose import WITH_WORD, figures_with
from transforms.logprefix import grep_file
from transforms.parsers._common import IO_TEST, generic_label, io_test_label, tool_caption
from transforms.tools import names_pattern

_KV = re.compile(r"^\s{0,12}+(?:[-*+•]\s{1,4}+)?(?P<key>[A-Za-z#][^:=.]{0,60}+(?:\.(?!\.\.)[^:=.]{0,60}+){0,8}+)"
                 r"(?P<sep>:|=|\.{3,}+)\s*+(?P<rest>\S.*)$")
BULLET_KV = re.compile(r"^\s{0,8}[-*+•]\s{1,4}[\w.+/-]{1,40}\s{0,4}:\s{0,8}\d")
# (`Without XSA-391 patch (revert of b27d47950e48):`: a remark in brackets after the label, its words not counted)
_LABEL_LINE = re.compile(r"^\s{0,8}+(?:[-*+•]\s{1,4}+)?\[?(?P<label>[\w.+/() -]{1,40}?(?:\s{0,2}+\([^()\n]{1,60}+\))?)\]?\s{0,4}+:?\s*+$")
_REMARK = re.compile(r"\([^()\n]{1,60}+\)")
ARROW = r"(?:->|<-|=>|<=>|→)"  # which way the traffic went: `host -> guest`, `vm => dom0`
_DIRECTION_KEY = re.compile(r"^[\w.-]{1,20}+[ \t]{0,2}+" + ARROW + r"[ \t]{0,2}+[\w.-]{1,20}+$")  # `vm -> dom0`, `host->guest`
_SYSTEM_KEY = re.compile(r"^[\w.+/-]{1,40}(?: [\w.+/-]{1,20}){0,2}$")
_IS_LINE = re.compile(r"^\s{0,8}(?P<key>[A-Za-z][\w/-]{0,20}(?: [\w/-]{1,20}){0,2}) (?:is|was|are|were)(?= \d)")
_SYSTEM_LINE = re.compile(r"^(?:with|without|w/o?|before|after)\b[\w ./+-]{0,40}:?$", re.I)
_HEDGE = re.compile(r"^[ \t]*+(?:about|approx(?:\.|imately)?|around|roughly|nearly|almost|circa|~)[ \t]*+(?=\d)", re.I)
_CONDITION_KEY = re.compile(r"(?i)^(?:before|after|patched|unpatched|vanilla|baseline|stock|orig(?:inal)?"
                            r"|(?:with|without|w/o?|before|after)\b[\w ./+-]{0,40}+)$")  # `Before my series`
_STOP_KEYS = frozenset({
    "date", "from", "to", "cc", "subject", "message-id", "cpu", "cpus", "model", "model name", "memory",
    "mem", "ram", "kernel", "version", "os", "distro", "hardware", "hw", "machine", "host", "disk",
    "nic", "link", "reported-by", "signed-off-by", "tested-by", "acked-by", "reviewed-by", "fixes",
    "bogomips", "cpu mhz", "cache size", "stepping", "family", "processor", "address sizes",
    "in-reply-to", "references", "boot", "cmdline", "config", "compiler", "gcc", "size", "total",
    "free", "used", "swap", "buffers", "cached", "load average", "uptime", "file", "note", "patch",
    "blocksize", "block size", "bs", "thread", "threads", "numjobs", "jobs", "iodepth", "queue depth", "qd",
    "workload", "runtime", "rw", "ioengine", "direct", "clients", "procs", "loops", "groups",
})  # fmt: skip
_HEADER_KEYS = frozenset({"date", "from", "to", "cc", "subject", "message-id", "in-reply-to", "references"})
_MEASURE_UNITS = frozenset({
    "MB/s", "GB/s", "KB/s", "K/sec", "KiB/s", "MiB/s", "GiB/s", "Mbit/s", "Gbit/s", "Kbit/s", "us", "ns",
    "ms", "s", "IOPS", "trans/s", "ops/s", "events/s", "lps", "lpm", "MWIPS", "KBps", "Kb/s", "Mb/s", "Gb/s",
})  # fmt: skip
# packet rates: no benchmark read here prints them, so they are no unit of the tables; only a poster's
# own figure under a condition counts (`Before my series : ~360 Kpps`), not `Tx only: 3.4 Mpps` (xdpsock)
_PACKET_RATES = {"pps": "pps", "kpps": "Kpps", "mpps": "Mpps"}


# `Elapsed: 136.692s`, `IOPS=815, BW=102MiB/s`: one key and its number in a line of several (`IOS/call=32/31`
# is a pair, not the number 32)
_PAIR = re.compile(r"(?<![\w.])(?P<key>[A-Za-z][\w%/.-]{0,24}+(?: [A-Za-z][\w%/.-]{0,24}+)?)[:=][ \t]{0,8}+"
                   r"(?P<num>[-+]?\d{1,12}+(?:,\d{3}){0,4}+(?:\.\d{1,12}+)?)(?P<unit>%|[A-Za-z/]{1,12}+)?(?![\w.]|/\d)")


_SETTING_PAIR = re.compile(r"(?<![\w.])[A-Za-z][\w%/.-]{0,24}+=[^\s,;=]{1,24}+(?=[\s,;]|$)")  # `inflight=(75)`
_BULLET_LEAD = re.compile(r"^[-*+•]\s{1,4}+")  # `- cdc_ncm.ko: TCP_RR: 740, UDP_RR: 750`
_SCALE = {"k": 1e3, "K": 1e3, "M": 1e6}
_RATE_KEY = re.compile(r"(?i)^(?:bw|bandwidth|throughput)$")
_SIZE = re.compile(r"(\d{1,9}+(?:\.\d{1,6}+)?)[ \t]?+([KMGT]i?B)")
# `  2 VMs: +14.4% throughput`: how many of something ran, then the change it made to a measure
_COUNT_CHANGE = re.compile(r"^[ \t>]{0,12}+(?P<n>\d{1,6}+)[ \t]++(?P<noun>[A-Za-z][\w-]{0,20}+):[ \t]*+"
                           r"(?P<chg>[-+]\d{1,6}+(?:\.\d{1,6}+)?)[ \t]*+%[ \t]*+(?P<metric>[A-Za-z][\w/-]{0,30}+)?[ \t]*+$")
_SUM = re.compile(r"\d[ \t]*+[-+*/x×][ \t]*+\d")  # `1 + 0.4`, `2*3`: arithmetic in a key
_LEAD_ONE = re.compile(r"^\s{0,8}+[A-Za-z][^:=]{0,40}+:\s{2,}+$")


def _condition_lead(lead: str) -> bool:
    """`Before: ` ahead of a line's one pair (`Before: average throughput: 4527.12 MB/sec`): a
    condition's label, however few blanks follow it."""
    text = lead.strip()
    return text.endswith(":") and _CONDITION_KEY.match(text[:-1].strip()) is not None


# `TCP_RR-1  unbound  Avg: 200833  Sum: 200833`: a case, where it ran, then statistics of its runs
_STAT_PAIR = re.compile(r"(?<![\w.])(?P<stat>[A-Za-z]{3,7}+):[ \t]*+(?P<num>[-+]?\d{1,12}+(?:\.\d{1,12}+)?)(?![\w.])")
_STATS = frozenset({*STAT_HEAD, "sum", "total"})  # (a sum of the runs too: `Avg: 87889  Sum: 87889`)


def stat_pairs(line: str) -> tuple[str, str | None, list[tuple[str, float]]] | None:
    """A line naming a case (and the system it ran on) before two or more statistics of its runs
    (`TCP_SENDFILE-1  unbound    Avg:  87889  Sum:    87889`): the case, the system, each
    statistic and its value; None for any other line."""
    if len(line) > 300 or line.count(":") < 2:
        return None
    found = list(_STAT_PAIR.finditer(line))
    if len(found) < 2 or any(m.group("stat").lower() not in _STATS for m in found) \
            or any(line[a.end():b.start()].strip() for a, b in zip(found, found[1:], strict=False)) \
            or line[found[-1].end():].strip():
        return None
    lead = line[: found[0].start()].strip().lstrip(">").split()
    if not 1 <= len(lead) <= 2 or not (lead[0][:1].isalpha() or RELEASE.match(lead[0])) or any(":" in w for w in lead):
        return None
    if len(lead) == 1:  # `TCP_RR-1  Avg: ...` names the case; `vanilla  Avg: ...`, `6.1-rc2  Avg: ...` where it ran
        case, system = ("", lead[0]) if _CONDITION_KEY.match(lead[0]) or RELEASE.match(lead[0]) else (lead[0], None)
    else:
        case, system = (lead[1], lead[0]) if any_metric(lead[1]) and not any_metric(lead[0]) else (lead[0], lead[1])
    return case, system, [(m.group("stat"), float(m.group("num"))) for m in found]


def _gap_words(gap: str, unit_may_follow: bool) -> str:
    """The words between two pairs of a line: settings are none (`inflight=(75)`), nor is the unit
    of the value before them when the keys name systems (`vanilla: 1234 MB/s, patched: 1250 MB/s`)."""
    words = _SETTING_PAIR.sub("", gap).split()
    if words and unit_may_follow and unit_of(words[0].strip(",;")) is not None:
        words = words[1:]
    return " ".join(words).strip(" \t,;")


def key_pairs(line: str) -> tuple[str | None, list[tuple[str, float, str | None]]] | None:
    """A line of two or more `Key: value` pairs (or one, after a label set off by blanks), and the
    label before the first (its system)."""
    if len(line) > 400 or line.count(":") + line.count("=") < 2:
        return None
    found = list(_PAIR.finditer(line))
    # one pair counts only after a label of its own (`No randomization:  Simple syscall: ...`) or
    # beside other `key=value` settings (`IOPS=3536512, IOS/call=32/31, inflight=(75)`)
    if not found or len(found) < 2 and not _LEAD_ONE.match(line[: found[0].start()]) \
            and not _condition_lead(line[: found[0].start()]) and len(_SETTING_PAIR.findall(line)) < 2:
        return None
    out: list[tuple[str, float, str | None]] = []
    for m in found:
        key = m.group("key").strip()
        if norm(key) in _HEADER_KEYS:
            return None
        printed = m.group("unit")
        value = float(m.group("num").replace(",", ""))
        if printed and printed in _SCALE:  # `IOPS=2033k`: fio's own shorthand for thousands
            value, printed = value * _SCALE[printed], None
            if unit_of(key) is not None:
                printed = key  # `IOPS`: the key is the unit
        u = unit_of(printed) if printed else None
        if printed and u is None:
            return None  # `Size: 4GB`, `Rev: 3a`: not a measurement's unit
        if printed is None and (after := line[m.end():m.end() + 16].split()[:1]):
            u = unit_of(after[0])  # `Simple syscall: 0.0534 microseconds`: the unit after a blank
        if printed is None and u is None and unit_of(key) == "IOPS":
            u = "IOPS"  # `IOPS=3536512`: the key is the unit
        out.append((key, value, u))
    if not (label_votes([k for k, _, _ in out]) or any(u in _MEASURE_UNITS for _, _, u in out)):
        return None
    if any(u in _MEASURE_UNITS for _, _, u in out):  # `IOPS=3.5M, inflight=32`: a bare count beside
        out = [(k, v, u) for k, v, u in out if u is not None or any_metric(k)]  # measurements is a setting
    systems = not any(label_votes([k]) or any_metric(k) for k, _, _ in out)  # `vanilla: ..., patched: ...`
    gaps = [_gap_words(line[a.end():b.start()], systems and a.group("unit") is None)
            for a, b in zip(found, found[1:], strict=False)]
    if any(gaps):
        return None  # words between the pairs: a sentence, not a summary line
    lead = _BULLET_LEAD.sub("", line[: found[0].start()].strip().strip(">").strip()).rstrip(":").strip()
    if lead[:1] in ("[", "(", "#"):
        return None  # `[ 11s ] thds: 256 tps: ...`: a tool's interval line, not a summary
    if IO_TEST.match(lead):  # `READ:  IOPS=2033k BW=8329MB/s`: what was measured, not a system
        return f"rw={lead.lower().replace(' ', '')}", out
    # a lead is the line's system, a kernel release too (`2.6.3: Elapsed: 137.92s ...`), not another number
    return (lead if lead and len(lead) <= 40 and (not lead[:1].isdigit() or RELEASE.match(lead)) else None), out


@dataclass(slots=True)
class KeyValue:
    line: int
    value: float
    unit: str | None
    key: str
    system: str | None
    params: dict[str, str] = field(default_factory=dict)
    change: bool = False  # a relative change (`+14.4% throughput`), not the figure itself


_LABEL_KEYS = frozenset({"host", "machine"})  # `host:` alone over its lines is a system, `host: box1` is not


def _outside_asides(rest: list[Cell]) -> list[Cell]:
    """The cells after a value that stand outside parentheses (`(stdev:186 IOPS/s)` is an aside)."""
    out: list[Cell] = []
    depth = 0
    for c in rest:
        opened = c.text.count("(") - c.text.count(")")
        if depth == 0 and not c.text.startswith("("):
            out.append(c)
        depth = max(0, depth + opened)
    return out


# `eMMC - Random Write`: a key naming where it ran, a dash, then what was measured
_ON_DASH = re.compile(r"^(?P<on>[A-Za-z][\w.+/ ]{0,40}?)[ \t]++-[ \t]++(?P<what>[A-Za-z][\w/ ]{1,40}+)$")
def where_then_what(key: str) -> tuple[str, str] | None:
    """`eMMC - Random Write`: (where it ran, what was measured) of a key that names both, a dash between."""
    m = _ON_DASH.match(key)
    if m and (IO_TEST.match(m["what"]) or any_metric(m["what"])) and not any_metric(m["on"]) \
            and not IO_TEST.match(m["on"]):
        return m["on"], m["what"]
    return None


_TUNABLE = re.compile(r"^[a-z][a-z0-9]*+(?:_[a-z0-9]++)++$")  # a knob's name (`steal_check_frequency`)
_THAN = re.compile(r"(?i)\b(?:faster|slower|better|worse|more|less|higher|lower|quicker)\s++th[ae]n\b")
# `tbench 8 clients: 2300 MB/s -> 2450 MB/s`, `throughput: 9234 Mbit/s (vanilla) vs 9410 Mbit/s (patched)`:
# two values set against each other, which the prose reader reads as a pair
_AGAINST = re.compile(r"(?i)(?:-{1,3}>|=>|→|\bvs\.?|\bversus)[ \t]{0,4}+[~(]?\d")


_TOOL_LEAD = re.compile(rf"(?i)^(?:{names_pattern()})[ \t]*+[,;/-][ \t]*+")  # `hackbench, init_on_free=1`
# `hackbench, init_on_free=1:  +7.71% sys time (st.err 0.45%)`: a setting, a signed change, what it is of
_CHANGE_LINE = re.compile(r"^[ \t>]{0,12}+(?P<key>[A-Za-z][^:\n]{0,60}+):[ \t]++(?P<chg>[-+]\d{1,6}+(?:\.\d{1,6}+)?)[ \t]?+%"
                          r"[ \t]++(?P<measure>[A-Za-z][\w./-]{0,30}+(?:[ \t][A-Za-z][\w./-]{0,30}+){0,3})"
                          r"[ \t]*+(?:\([^()\n]{0,80}+\))?[ \t]*+$")


def _change_then_measure(line: str, i: int) -> KeyValue | None:
    """`hackbench, init_on_free=1:  +7.71% sys time (st.err 0.45%)`: a signed change, then the
    measure it is of; the key names the setting measured (after the tool's name, if it leads)."""
    m = _CHANGE_LINE.match(line)
    if m is None or not any_metric(m["measure"]) or other_benchmark(m["key"]):
        return None  # (`Linux build with -j12, init_on_free=1:  +24.13% sys time`: another tool's)
    system = _TOOL_LEAD.sub("", m["key"]).strip()
    if not system or benchmarks_in(system):
        return None
    return KeyValue(i, float(m["chg"]), "%", m["measure"], system, {}, change=True)


def read_summaries(lines: list[str], taken: set[int]) -> tuple[list[KeyValue], list[int]]:
    """Key: value lines of a block (lines in `taken` belong to tables): values and label lines used."""
    out: list[KeyValue] = []
    system: str | None = None
    said_unit: str | None = None  # the unit a label line says its lines are in (`iperf3 results (Gbits/sec):`)
    used_labels: list[int] = []
    listed: list[KeyValue] = []
    named: list[KeyValue] = []  # `<key naming no metric>: <measure>`: systems when several share a unit
    tests: dict[int, str] = {}  # label lines naming an I/O test
    for i, line in enumerate(lines):
        if i in taken:
            continue
        text = line.strip()
        if not text:
            continue
        verb = _IS_LINE.match(line)
        if verb:  # `BW is 1950MB`: the verb stands for the colon
            line = line[: verb.end("key")] + ":" + line[verb.end():]
        if _SYSTEM_LINE.match(text):
            system = text.rstrip(":").strip()
            used_labels.append(i)
            continue
        m = _LABEL_LINE.match(line)
        heads_pairs = bool(m) and not text.endswith(":") and (i == 0 or not lines[i - 1].strip()) \
            and i + 1 < len(lines) and key_pairs(lines[i + 1]) is not None and not text[:1].isdigit()
        if m and text.endswith(":") and not any(ch.isdigit() for ch in text[:1]) or (
            m and text.endswith(":") and len(text) <= 24
        ) or heads_pairs:  # `Without RAID (writing to /dev/ram0)` over `READ: IOPS=... BW=...`
            label = m.group("label").strip()
            said_unit = unit_in(label) if "(" in label else None
            if test := io_test_label(text):
                tests[i] = test  # `1) Sequential read:`: the test measured below, on the system above
                continue
            if label and generic_label(label):
                system = None  # `iperf3 result:`: the tool's figures follow, on no system it names
            elif label and tool_caption(label):
                system = None  # `fio 4k randread on nvme:`: what ran and how, on no system it names
            elif label and (norm(label) not in _STOP_KEYS or norm(label) in _LABEL_KEYS) \
                    and len(_REMARK.sub("", label).split()) <= 5:
                system = label
                used_labels.append(i)
            continue
        if (stats := stat_pairs(line)) is not None:
            case, on, found_stats = stats
            out.extend(KeyValue(i, v, None, case, on or system, {"stat": stat}) for stat, v in found_stats)
            continue
        pairs = key_pairs(line)
        if pairs is not None:  # `idle != poll: Elapsed: 136.692s User: 249.846s System: 30.596s`
            lead, found = pairs
            if lead and (grepped := grep_file(lead)) is not None:  # `default-brd.1.fio:  read: IOPS=7504k, ...`
                stem, run, rest = grepped
                out.extend(KeyValue(i, v, u, f"{rest} {key}".strip(), stem, {"run": run} if run else {})
                           for key, v, u in found)
                continue
            if lead and lead.startswith("rw="):
                out.extend(KeyValue(i, v, u, key, system, {"rw": lead[3:]}) for key, v, u in found)
                continue
            if not lead and not any(label_votes([k]) or any_metric(k) for k, _, _ in found):
                # `orig: 2.063s   with PREDICT_NO_PREEMPT: 1.833s`: the keys are the systems, and a
                # command line right above (`./hackbench -g 8 -l 10000`) says what was measured
                above = lines[i - 1].strip() if i > 0 else ""
                ran = above if above and command_of(above) is not None else ""
                out.extend(KeyValue(i, v, u, ran, key, {}) for key, v, u in found)
            else:
                out.extend(KeyValue(i, v, u, key, lead or system, {}) for key, v, u in found)
            continue
        if (counted := _COUNT_CHANGE.match(line)) is not None:  # `2 VMs: +14.4% throughput`
            out.append(KeyValue(i, float(counted["chg"]), "%", (counted["metric"] or "").strip(), system,
                                {norm(counted["noun"]): counted["n"]}, change=True))
            continue
        if (changed := _change_then_measure(line, i)) is not None:
            out.append(changed)
            continue
        kv = _KV.match(line)
        if not kv:
            continue
        key = kv.group("key").strip().strip("*_")
        nkey = norm(key)
        if not nkey or nkey in _STOP_KEYS or len(key.split()) > 8 or _SUM.search(key) or PAIR_IN_LABEL.search(key):
            continue  # `... will be 1 + 0.4 = 1.4ms`: the end of a calculation, not a summary line; a key
            # holding pairs of its own (`On Skylake: jhash2: +10%, ... siphash: +23%`) is no key
        if WITH_WORD.search(kv.group("rest")) and figures_with(i, kv.group("rest")):
            continue  # `Triad: 12345.6 MB/s without the patch and 12890.1 MB/s with it`: a sentence of figures
        on = None
        if dashed := where_then_what(key):
            on, key = dashed  # `eMMC - Random Write: 21.3MiB/s`
        rest = cells(_HEDGE.sub("", kv.group("rest")).rstrip("."))  # `before: about 450Mbps on both tsn0 and tsn1`
        if rest and rest[0].kind == "label" and _RATE_KEY.match(key) and (size := _SIZE.fullmatch(rest[0].text)):
            # `BW is 1950MB`: a bandwidth given in a size is that size a second
            rest[0] = Cell(rest[0].text, rest[0].start, rest[0].end, "abs", float(size.group(1)), f"{size.group(2)}/s")
        if not rest or rest[0].kind != "abs" or rest[0].value is None or _THAN.search(kv.group("rest")) \
                or _AGAINST.search(kv.group("rest")):
            continue  # `Dbench 32 is 10 seconds and nearly 3 MB/sec faster then ...`: a difference
        rate = _PACKET_RATES.get(rest[1].text.lower()) if len(rest) > 1 and rest[0].unit is None else None
        if rate and _CONDITION_KEY.match(key) and not label_votes([key]):
            out.append(KeyValue(i, rest[0].value, rate, "", key, {}))  # `Before my series : ~360 Kpps`
            continue
        if any(c.kind == "label" for c in _outside_asides(rest[1:])[:2]) and rest[0].unit is None:
            continue  # `key: 12 of them were ...` is prose; `IOPS :147,182  (stdev:186 IOPS/s)` is not
        u = rest[0].unit or (said_unit if rest[0].kind == "abs" else None)
        if u is None and key.split() and unit_of(key.split()[-1]) == "IOPS":
            u = "IOPS"  # `IOPS : 147,182`, `read iops : 105,600`: the key (its last word) is the unit
        params: dict[str, str] = {}
        if _DIRECTION_KEY.match(key) and u in _MEASURE_UNITS:
            # `vm -> dom0: 4.5Gb/s`: which way it flowed, measured on the system of the label above
            out.append(KeyValue(i, rest[0].value, u, "", system, {"direction": key}))
            continue
        run = ONE_RUN.match(key)
        if run:
            params["run"] = run.group("n")
        if u in _MEASURE_UNITS and _CONDITION_KEY.match(key) and not label_votes([key]):
            out.append(KeyValue(i, rest[0].value, u, "", key, params))  # `before: 450Mbps`: the key is the system
            continue
        if u not in _MEASURE_UNITS and not label_votes([key]) and not (verb and any_metric(key)):
            if _SYSTEM_KEY.match(key) and len(rest) == 1 and not run and kv.group("sep") == ":" \
                    and not (u is None and _TUNABLE.match(key)):  # `steal_ratio_high:400`: a setting, no system
                listed.append(KeyValue(i, rest[0].value, u, "", key, params))
            continue
        if not label_votes([key]) and not any_metric(key) and not run and len(rest) == 1 \
                and (system is None or benchmarks_in(system)):
            named.append(KeyValue(i, rest[0].value, u, key, system, params))
            continue
        out.append(KeyValue(i, rest[0].value, u, key, on or system, params))
    if len(listed) >= 2:  # `- nopernode-nopie: 3938.7` / `- pernode-nopie: 4062.2`: one value per system
        out.extend(listed)
    if len(named) >= 2 and len({k.unit for k in named}) == 1:
        # `* No I/O scheduler:  about 5630 K IOPS.` / `* Kernel v5.11 + mq-deadline:  about 1100 K IOPS.`:
        # keys naming no metric, one measure each in one unit: the systems measured
        out.extend(KeyValue(k.line, k.value, k.unit, "", k.key, k.params) for k in named)
    else:
        out.extend(named)
    for k in out if tests else ():
        under = max((j for j in (*tests, *used_labels) if j < k.line), default=None)
        if under in tests:
            k.key = f"{tests[under]} {k.key}" if k.key else tests[under]
    return out, used_labels

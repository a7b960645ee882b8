"""Which benchmark a hand-made table belongs to, and which system it measures.

Posters name the tool somewhere near their numbers: in the table's caption or header, on the
command line they ran, in the paragraph above, in the subject, or in the post's opening. One
Aho-Corasick pass over the lower-cased text finds every candidate mention (cheap enough to gate
every message); a word-boundary check then drops hits inside other words (`fio` in `portfolio`,
`stream` in `upstream` or `TCP_STREAM`, `dd` in `add`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import ahocorasick_rs

from transforms.tools import names_pattern

# literal (lower case) -> benchmark; a literal must stand as a word to count
_LITERALS: dict[str, str] = {
    "unixbench": "unixbench", "unix bench": "unixbench", "byte unix": "unixbench",
    "lmbench": "lmbench", "lmbench3": "lmbench", "lat_ctx": "lmbench", "bw_mem": "lmbench", "lat_mem_rd": "lmbench",
    "lat_syscall": "lmbench", "bw_pipe": "lmbench", "lat_proc": "lmbench",
    "netperf": "netperf", "super_netperf": "netperf", "netserver": "netperf", "tcp_stream": "netperf", "tcp_rr": "netperf",
    "udp_stream": "netperf", "udp_rr": "netperf", "tcp_crr": "netperf", "tcp_maerts": "netperf",
    "tcp_sendfile": "netperf",
    "bonnie": "bonnie", "bonnie++": "bonnie",
    "iperf": "iperf", "iperf3": "iperf", "netperf3": "netperf",  # netperf3: the netperf 3 branch
    "fio": "fio", "flexible io tester": "fio", "flexible i/o tester": "fio",  # fio's own name for itself
    "dbench": "dbench", "tbench": "tbench", "dbench4": "dbench", "tbench4": "tbench",  # mmtests' names
    "dbench3": "dbench", "tbench3": "tbench",  # dbench's third version, as posters name it
    "kernbench": "kernbench", "kernel compilation": "kernbench", "kernel compile": "kernbench",  # timed, named so
    "hackbench": "hackbench", "sched messaging": "hackbench", "sched/messaging": "hackbench",
    "sysbench": "sysbench",
    "stream": "stream",
    "dd if=": "dd", "dd of=": "dd", "dd bs=": "dd", "dd count=": "dd", "dd conv=": "dd", "dd iflag=": "dd",
    "dd oflag=": "dd", "dd": "dd",  # dd's operands come in any order
    "hdparm": "hdparm",
    # what the tools print, as distinctive as their names: a table under one of these headings is
    # that tool's, however the poster re-typed it (`Processor, Processes - times in microseconds`)
    "processor, processes": "lmbench", "context switching -": "lmbench",
    "*local* communication": "lmbench", "*remote* communication": "lmbench",
    "file & vm system latencies": "lmbench", "memory latencies in nano": "lmbench",
    "basic system parameters": "lmbench", "af_unix sock stream": "lmbench", "simple syscall": "lmbench",
    "process fork+exit": "lmbench", "signal handler overhead": "lmbench",
    "sequential output": "bonnie", "sequential input": "bonnie", "sequential create": "bonnie",
    "system benchmarks index": "unixbench", "dhrystone 2 using register": "unixbench",
    "pipe-based context switching": "unixbench", "execl throughput": "unixbench",
    "10^6bits/sec": "netperf", "10^6bits/s": "netperf",
    "timing buffered disk reads": "hdparm", "timing cached reads": "hdparm",
    "timing buffer-cache reads": "hdparm", "timing o_direct": "hdparm",
    "records out": "dd",
    "total number of events": "sysbench", "threads fairness": "sysbench",
    "average half load": "kernbench", "average optimal load": "kernbench", "average maximal load": "kernbench",
    "running in process mode": "hackbench", "running in threaded mode": "hackbench",
    "run status group": "fio", "iops=": "fio", "t/io_uring": "fio", "best rate mb/s": "stream",
    # fio's job options, which no other tool spells so (`numjobs=3 randread (bs=4k, direct=1)`)
    "numjobs=": "fio", "iodepth=": "fio", "ioengine=": "fio",
    "numjobs": "fio",  # a column of job counts (`rw  iodepth  numjobs | IOPS`): fio's option name, no other tool's
}  # fmt: skip
_AC = ahocorasick_rs.AhoCorasick(list(_LITERALS))
LITERALS = frozenset(_LITERALS)
_WORD = re.compile(r"[A-Za-z0-9_]")
# STREAM is a common English word: only its capitalised name or its own context counts
_STREAM_UPPER = re.compile(r"STREAM(?![A-Za-z_])")
_STREAM_CONTEXT = re.compile(r"stream(?:\s+(?:benchmark|bench\b|test\b|results?\b|scores?\b|triad|copy)|\.c\b|_c\b"
                             r"|\s+with\s+\d{1,4}\s+threads\b)", re.I)  # `Stream with 16 threads.`

# `dd` alone is an abbreviation as often as the tool (`dd/mm`, a Debian developer); counted in a
# case name (`xfs-10dd-4k`, `1dd`: that many dd processes) it names the tool. Beside words of a
# measurement (`dd write`, `with dd`) it was tried and read wrong tables more often than right ones.

BENCHMARKS = tuple(sorted(set(_LITERALS.values())))


@dataclass(frozen=True, slots=True)
class Mention:
    """A tool named in the text: where (character offset) and which benchmark."""

    pos: int
    benchmark: str
    text: str


def mentions(text: str) -> list[Mention]:
    """Every word-bounded tool mention in `text`, in order."""
    return list(_mentions(text))


def _mentions(text: str) -> Iterator[Mention]:
    low = text.lower()
    if len(low) != len(text):  # a few characters change length when lower-cased
        text = low
    for idx, start, end in _AC.find_matches_as_indexes(low, overlapping=True):
        lit = _AC_LITERALS[idx]
        if lit == "dd":
            if _dd_named(low, start):
                yield Mention(start, "dd", text[start:end])
            continue
        if lit == "stream" and text.startswith("STREAM_ARRAY_SIZE", start):
            yield Mention(start, "stream", text[start:end])  # STREAM's build flag (`-DSTREAM_ARRAY_SIZE=`)
            continue
        if start > 0 and _WORD.match(low[start - 1]) and not (low[start - 1] == "_" and len(lit) >= 7):
            continue  # `postgres_sysbench`, `mmtests_hackbench`: a long tool name after `_` still names it
        if end < len(low) and lit[-1] != "=" and _WORD.match(low[end]) \
                and not (lit == "fio" and low[end] == "_" and start > 0 and low[start - 1] == "-"):
            continue  # (a writeback case named after the tool, `btrfs-fio_fat_mmap_randwrite`, names it)
        bench = _LITERALS[lit]
        if bench == "stream" and not (_STREAM_UPPER.match(text, start) or _STREAM_CONTEXT.match(low, start)):
            continue
        if lit == "fio" and start > 0 and low[start - 1] in "-./" and not _run_path(low, start, end) \
                and not (end < len(low) and low[end] == "_"):
            continue  # a path or an option (`/usr/src/fio/`, `--fio`) names no run
        yield Mention(start, bench, text[start:end])


_AC_LITERALS = list(_LITERALS)


def _run_path(low: str, start: int, end: int) -> bool:
    """`./fio --name=...`, `/usr/bin/fio job.fio`: a path ending in the tool, then a blank, is the
    tool being run."""
    return low[start - 1] == "/" and (end == len(low) or low[end] in " \t\n")


def _dd_named(low: str, start: int) -> bool:
    """`dd` at `start` after a count (`10dd`, `xfs-1dd-4k`, not the hex `0xa0dd` or a code such as
    `(ec=00dd)`: a count has no leading zero and follows no `=`): that many dd runs."""
    end = start + 2
    if end < len(low) and _WORD.match(low[end]):
        return False
    k = start
    while k > 0 and start - k < 4 and low[k - 1].isdigit():
        k -= 1
    return k < start and low[k] != "0" and (k == 0 or not (_WORD.match(low[k - 1]) or low[k - 1] in ".="))


def benchmarks_in(text: str) -> list[str]:
    """Distinct benchmarks named in `text`, in order of first mention."""
    seen: list[str] = []
    for m in mentions(text):
        if m.benchmark not in seen:
            seen.append(m.benchmark)
    return seen


def has_evidence(body: str, subject: str | None) -> bool:
    """The cheap gate: does the post name any benchmark at all?"""
    return next(_mentions(body), None) is not None or bool(subject and next(_mentions(subject), None))


# ----------------------------------------------------------------------------- attribution

_COMMAND = re.compile(r"(?:^|[$#>]\s*|\./|/)(?P<tool>" + names_pattern(without=("dd",)) + r")\b(?=\s|$)", re.I)


@dataclass(frozen=True, slots=True)
class Attribution:
    benchmark: str
    evidence: str  # where it was found, for --explain


# benchmarks the project does not read: a table captioned with one of them is not ours (a ping
# flood is a load the results were measured under, not ping's own figures)
_OTHER = re.compile(r"\b(?:\w+bench|\w+[ _-]bench(?:mark)?|sdet|aim\d|reaim|specjbb|specpower|spec\s?cpu|ebizzy|will-it-scale"
                    r"|netpipe|usemem|vm-scalability|sockperf|qperf|uperf|neper|cyclictest|(?<!flood )ping(?![ \t]++flood)|tiobench|tiotest|iozone|postmark|fs_?mark|ffsb|pgbench|redis|memcached|ycsb|hammerdb"
                    r"|tpc-?\w|lkp|phoronix|stress[-_]ng|perf\s+bench\s+(?!sched)|funclatency|bpftrace|wrk|nginx"
                    r"|vmstat|vmmon|iostat|mpstat|pidstat|sar|top|slabtop|numastat|perf\s+stat|perf\s+top"
                    r"|/proc/\w+|meminfo|slabinfo|blktrace|ftrace|trace-cmd|turbostat|powertop|compilation|compile"
                    r"|build)\b", re.I)


# a benchmark of another kind by its name (`tiobench-0.3.3`, `AIM7`, `specjbb`): the tables right
# below it are its own, whatever their column heads look like
_OTHER_TOOL = re.compile(r"(?i)\b(?:\w+bench|tiobench|tiotest|iozone|postmark|fs_?mark|ffsb|pgbench|specjbb|reaim|aim\d"
                         r"|sdet|netpipe|usemem|vm-scalability|sockperf|ebizzy|will-it-scale|stress[-_]ng|ycsb|hammerdb|funclatency|bpftrace|wrk|nginx|cyclictest)\b")


def _other_nearer(lines: Sequence[str], start: int, reach: int) -> bool:
    """The nearest tool named above line `start` is not one of ours."""
    for k in range(start - 1, max(-1, start - 1 - reach), -1):
        line = lines[k]
        if benchmarks_in(line):
            return False
        if _OTHER_TOOL.search(line) and other_benchmark(line):
            return True
    return False


_QUOTED_NAME = re.compile(r'"[^"\n]{1,40}+"')


def other_benchmark(caption: str | None) -> str | None:
    """A benchmark outside the project named in a table's caption (`schbench 99.0th ...`)."""
    if not caption or benchmarks_in(caption):
        return None  # a caption naming one of ours (`fio randwrite test to build ...`) is ours
    if '"' in caption:
        caption = _QUOTED_NAME.sub(" ", caption)  # `"IRQ & ping" run:`: the name of a run, in quotes
    for m in _OTHER.finditer(caption):
        word = m.group(0)
        if not benchmarks_in(word):
            return word
    return None


def names_other_tool(text: str, bench: str) -> bool:
    """Whether `text` names a tool other than `bench`, ours or not (`autonumabench` between two
    tables of kernbench's rows)."""
    return any(b != bench for b in benchmarks_in(text)) or any(
        not benchmarks_in(m.group(0)) for m in _OTHER.finditer(text))


def names_tool(text: str) -> bool:
    """A column head or label naming a tool (ours or not): `tbench (MB/s)`, `turbostat PkgWatt`."""
    return bool(benchmarks_in(text)) or other_benchmark(text) is not None


def attribute(lines: Sequence[str], start: int, end: int, subject: str | None,
              label_votes: dict[str, int] | None = None, reach: int = 60) -> Attribution | None:
    """The benchmark of the block lines[start:end], from the nearest evidence.

    Order: the block itself (caption, header, command line); the lines above it, nearest
    first, up to `reach` lines; the metric labels of the block; the subject; the post's
    opening; the only benchmark the whole post names.
    """
    inside = benchmarks_in("\n".join(lines[start:end]))
    if len(inside) == 1:
        return Attribution(inside[0], f"named in the block: {inside[0]}")
    if len(inside) > 1 and label_votes:
        best = max(inside, key=lambda b: label_votes.get(b, 0))
        if label_votes.get(best, 0):
            return Attribution(best, f"named in the block, its labels fit: {best}")
    if not inside and _other_nearer(lines, start, reach):
        return None
    if not inside and start > 0 and lines[start - 1].rstrip().endswith(":") \
            and len(captioned := benchmarks_in(lines[start - 1])) == 1:
        # `fio 4k randread on nvme:` right over `read bw: 1.2GB/s; write bw: 800MB/s`: the block's
        # own caption, before what its labels look like (`bw` is dd's word too)
        return Attribution(captioned[0], f"its caption names {captioned[0]}")
    votes = label_votes or {}
    strong = [b for b, n in votes.items() if n >= 2]
    if len(strong) == 1:
        return Attribution(strong[0], f"row/column labels are {strong[0]} metrics")
    for k in range(start - 1, max(-1, start - 1 - reach), -1):
        found = benchmarks_in(lines[k])
        if not found:
            continue
        if len(found) > 1 and votes:
            ranked = sorted(found, key=lambda b: -votes.get(b, 0))
            if votes.get(ranked[0], 0):
                return Attribution(ranked[0], f"line {k + 1} above names {ranked[0]}")
        return Attribution(found[0], f"line {k + 1} above names {found[0]}")
    if votes:
        b = max(votes, key=lambda x: votes[x])
        return Attribution(b, f"row/column labels are {b} metrics")
    if subject:
        found = benchmarks_in(subject)
        if found:
            return Attribution(found[0], f"subject names {found[0]}")
    whole = benchmarks_in("\n".join(lines))
    if len(whole) == 1:
        return Attribution(whole[0], f"the post names only {whole[0]}")
    return None


# ----------------------------------------------------------------------------- system evidence

_WITH_WITHOUT = re.compile(
    r"\bwith(?P<neg1>out)?\s+and\s+with(?P<neg2>out)?\s+(?P<what>(?:the\s+|this\s+|these\s+|my\s+|our\s+)?"
    r"(?:patch(?:es|set|-set)?|series|change|changes|fix)\b)",
    re.I,
)


def with_without(lines: Iterable[str]) -> tuple[str, str] | None:
    """`with and without these patches` -> (`with these patches`, `without these patches`)."""
    prev = ""
    for line in lines:
        m = _WITH_WITHOUT.search(prev + " " + line)  # the phrase may wrap onto the next line
        prev = line[-60:]
        if m and (m.group("neg1") is None) != (m.group("neg2") is None):
            what = " ".join(m.group("what").split())
            return f"with {what}", f"without {what}"
    return None


_BASELINE_WORDS = re.compile(r"\b(?:vs\.?|versus|against|compared\s+(?:to|with)|relative\s+to|over)\s+"
                             r"(?:(?:the\s+)?base(?:line)?\s+(?=v?\d))?(?P<base>[\w.+-]{2,40})", re.I)  # (`baseline 6.6`)


def baseline_named(text: str) -> str | None:
    """`(patched vs. vanilla)`, `relative to base`: the baseline a change is measured against."""
    m = _BASELINE_WORDS.search(text)
    return m.group("base") if m else None

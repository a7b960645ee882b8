"""hackbench run times: classic hackbench.c, rt-tests hackbench, `perf bench sched messaging`.

Rows: one `time` (s, lower is better) per `Time: X` line (classic, rt-tests) or per
`Total time: X [sec]` line of perf's sched/messaging (the `# Running ...` header
decides: sched/pipe's `Total time:` is not hackbench and is skipped). A poster's own
"Giving an average of ..." is prose, not a row. One `Run` per contiguous paste.
Under `perf stat` a `Time:` line is hackbench's when perf's report of a hackbench command
(`Performance counter stats for 'hackbench -g 100 -l 10000':`) follows it; `perf stat --null`
of hackbench prints no `Time:`, and its `N seconds time elapsed` is the row.

params (only what is printed):
* `variant`: `classic` (`Running with 10*40 (== 400) tasks.`), `rt-tests` (`Running in
  process mode with 256 groups using 40 file descriptors each (== 10240 tasks)`) or
  `perf` (`# 10 groups == 400 processes run`). perf's defaults differ, so rows of
  different variants never compare.
* `groups`, `tasks` from the banner; `mode` (`process`|`thread`) from the rt-tests /
  perf banner or the command line; `loops` and `datasize` (bytes) from rt-tests'
  `Each sender will pass N messages of B bytes` or the command line (`-l`, `-s`);
  `ipc` (`pipe`|`socket`) from the command line (`-p`/`--pipe`; socket is every
  variant's default when a command line is shown without it).
* `instance` from lkp's `Instance: N` markers.
* A command run in a shell loop or a pipe (`for i in 1 2 3; do ./hackbench 10 | grep Time |
  cut -d' ' -f2; done`) may print bare numbers: those right below it are its times.
* `repeat`: 1..N in order when the same system and params are timed more than once
  in a segment (ten `Time:` lines of one configuration -> repeat 1..10).

`system` is the caption just above a block when it reads like a label (`2.4.16:`,
`Before:`, `- default scheduler`, `linux-2.4.10-pre12`); prose, attributions and
generic headings are kept as `Run.caption` only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from transforms.model import MetricSpec, Parser, Result, Run, Segment
from transforms.parsers._common import caption_system, nearest_caption, number_repeated_results

NAME = "hackbench"

METRICS: dict[str, MetricSpec] = {"time": MetricSpec("s", False, 0.0, 1e6)}

_N = r"\d+(?:\.\d+)?"
# The driver also scans the raw body, where quoted lines still carry their `> ` prefix.
_Q = r"^(?:[ \t]{0,2}[A-Za-z]{0,3}>)*"
CLASSIC = re.compile(r"^\s*Running with (?P<groups>\d+)\s*\*\s*(?P<fds>\d+)\s*\(==\s*(?P<tasks>\d+)\)\s*tasks\b")
RT = re.compile(
    r"^\s*Running in (?P<mode>process|threaded) mode with (?P<groups>\d+) groups? using (?P<fds>\d+) "
    r"file descriptors each \(==\s*(?P<tasks>\d+) tasks\)"
)
# the same banner wrapped by a mailer after `descriptors` (or `each`): the head, then
# `each (== 400 tasks)` (or `(== 400 tasks)`)
RT_HEAD = re.compile(
    r"^\s*Running in (?P<mode>process|threaded) mode with (?P<groups>\d+) groups? using (?P<fds>\d+) "
    r"file descriptors(?: each)?\s*$"
)
RT_TAIL = re.compile(r"^\s*(?:each )?\(==\s*(?P<tasks>\d+) tasks\)\s*$")
SENDER = re.compile(r"^\s*Each sender (?:will pass|passed) (?P<loops>\d+) messages of (?P<size>\d+) bytes")
TIME = re.compile(rf"^\s*Time:\s*(?P<t>{_N})\s*(?:<[-=]{{1,6}}[^\n]{{0,60}})?$")  # `Time: 118.220  <---`
# a run's `Time:` lines joined on one line after what was run: `hackbench 50: Time: 851.469 Time: 847.143`,
# or only its group count (`10: Time: 10.573 Time: 13.471`) where hackbench was just named
TIMES = re.compile(rf"^[ \t]*+(?:(?:\./)?hackbench(?P<args>(?:[ \t]++[\w-]++){{1,6}}?)|(?P<groups>\d{{1,5}}))[ \t]*+:"
                   rf"(?P<times>(?:[ \t]*+Time:[ \t]*+{_N}){{2,50}}+)[ \t]*+$")
_TIME_VALUE = re.compile(rf"Time:[ \t]*+({_N})")
PERF_RUN = re.compile(r"^\s*#\s*Running\s+'?(?P<bench>[\w/-]+)'?\s+benchmark")
PERF_PER_GROUP = re.compile(r"^\s*#\s*(?P<n>\d+) sender and receiver (?P<kind>process|thread)(?:es|s)? per group")
PERF_GROUPS = re.compile(r"^\s*#\s*(?P<groups>\d+) groups? == (?P<tasks>\d+) (?:process|thread)(?:es|s)? run")
PERF_TOTAL = re.compile(rf"^\s*Total time:\s*(?P<t>{_N})\s*\[sec\]")
# the command's arguments, then the line's end or a `;`/`|`/`&` tail (checked in code: no scan to `$`)
HACKBENCH_CMD = re.compile(r"(?:^|[\s/$#>:])hackbench(?P<args>(?:\s++[^\s;|&]++)*+)\s*+(?P<tail>[;|&])?")


def _command(line: str) -> re.Match[str] | None:
    """The first `hackbench ARGS` that ends its line or a command (`;`, `|`, `&` follow)."""
    for m in HACKBENCH_CMD.finditer(line):
        if m["tail"] or not line[m.end():].strip():
            return m
    return None


LOOP = re.compile(r"\b(?:for|while|seq)\b")
BARE = re.compile(rf"^\s*(?P<t>{_N})\s*$")  # `for i in 1 2 3; do ./hackbench 10 | awk ...; done` prints these
PERF_CMD = re.compile(r"\bperf\s+bench\s+sched\s+(?P<sub>messaging|all)(?P<args>(?:\s+\S+)*)")
INSTANCE = re.compile(r"^\s*Instance:\s*(?P<n>\d+)\s*$")
# `perf stat [--null] [--repeat N] -- hackbench 20 thread 20000` wraps hackbench's own output in its
# report: `Performance counter stats for 'hackbench 20 thread 20000' (10 runs):`, then (with --null,
# no counters) `24.536050899 seconds time elapsed ( +- 0.24% )`
PERF_STAT = re.compile(r"^\s*Performance counter stats for '(?P<cmd>[^'\n]{1,200}+)'")
ELAPSED = re.compile(rf"^\s*(?P<t>{_N})(?:\s++\+-\s++{_N})?\s+seconds time elapsed\b")  # `0.71062 +- 0.00150 seconds`
PERF_STAT_RUN = re.compile(r"\bperf\s+stat\b")  # `./perf stat --null --repeat 200 ./hackbench`: its reports follow
_STAT_REACH = 3  # non-blank lines between hackbench's `Time:` and the perf stat report under it
NOISE = re.compile(
    r"^\s*(?:Iterations:\s*\d+|PATH=|perf version\b|[\w.-]+\s*=\s*\S+$|\[ perf record:|#\s*(?:Executed|Running))"
)
MENTION = re.compile(r"hackbench", re.I)

SIGNATURE = re.compile(
    rf"{_Q}[^\S\n]*+Running with \d+\s*\*\s*\d+\s*\(==\s*\d+\)\s*tasks"
    rf"|{_Q}[^\S\n]*+Running in (?:process|threaded) mode with \d+ groups?"
    rf"|{_Q}[^\S\n]*+#\s*Running\s+'?sched/messaging'?\s+benchmark"
    r"|\bhackbench\b",  # on any line, quoted or not
    re.M,
)


# --- parsing ------------------------------------------------------------------------------------

_VALUE_OPTS = {
    "-g": "groups", "--groups": "groups", "--group": "groups",
    "-l": "loops", "--loops": "loops", "--nr_loops": "loops",
    "-s": "datasize", "--datasize": "datasize",
    "-f": "", "--fds": "", "-w": "", "--watchdog": "",
}  # fmt: skip
_FLAGS = {
    "-p": ("ipc", "pipe"), "--pipe": ("ipc", "pipe"), "-pipe": ("ipc", "pipe"),
    "-T": ("mode", "thread"), "-t": ("mode", "thread"), "--threads": ("mode", "thread"),
    "--thread": ("mode", "thread"), "thread": ("mode", "thread"), "threads": ("mode", "thread"),
    "-P": ("mode", "process"), "--process": ("mode", "process"), "process": ("mode", "process"),
    "-F": ("", ""), "--fifo": ("", ""),
}  # fmt: skip
_PROMPT = re.compile(r"^[\w\s:./$#>~@\[\]();`-]*$")  # a prompt, maybe a shell loop's head


def _command_params(args: str) -> dict[str, str] | None:
    """`hackbench -g 256 -f 20 --process --pipe -l 30000 -s 100`, `hackbench 10 process 1000`,
    `perf bench sched messaging -g 1 -l 10`; None when the words are not a command line."""
    out: dict[str, str] = {"ipc": "socket"}
    positional: list[str] = []
    tokens = args.split()
    k = 0
    while k < len(tokens):
        tok = tokens[k]
        key, _, inline = tok.partition("=")
        if key in _VALUE_OPTS:
            value = inline or (tokens[k + 1] if k + 1 < len(tokens) else "")
            k += 0 if inline else 1
            if not value.isdigit():
                return None
            if _VALUE_OPTS[key]:
                out[_VALUE_OPTS[key]] = value
        elif tok in _FLAGS:
            name, value = _FLAGS[tok]
            if name:
                out[name] = value
        elif tok.isdigit():
            positional.append(tok)
        else:
            return None
        k += 1
    for name, value in zip(("groups", "loops"), positional, strict=False):
        out.setdefault(name, value)
    return out


@dataclass
class _State:
    """What the lines seen so far say about the next timing."""

    params: dict[str, str] = field(default_factory=dict)  # from the last command line
    banner: dict[str, str] = field(default_factory=dict)  # from the banner of the current run
    variant: str | None = None
    perf_bench: str | None = None
    named: bool = False  # the last text line named hackbench (a command or "hackbench gives:")
    reshaped: bool = False  # that command ran in a loop or a pipe: its output may be bare numbers
    instance: str | None = None
    elapsed: bool = False  # a perf stat report of hackbench with no `Time:` of its own just began
    stat_run: bool = False  # the last command ran hackbench under `perf stat`: each elapsed line is a run

    def command(self, line: str) -> bool:
        m = PERF_CMD.search(line)
        if m:
            params = _command_params(m["args"])
            if params is not None:
                self.params, self.banner, self.named = params, {}, True
                return True
        if line.strip().lower() in ("hackbench", "hackbench:") and self.params:
            self.named = True  # a script's `echo hackbench` label: the last command's output follows
            return True
        m = _command(line)
        if m and _PROMPT.match(line[: m.start("args")]):
            params = _command_params(m["args"])
            if params is not None:
                self.params, self.banner, self.named = params, {}, True
                self.reshaped = bool(m["tail"]) or bool(LOOP.search(line[: m.start("args")]))
                self.stat_run = bool(PERF_STAT_RUN.search(line[: m.start("args")]))
                return True
        self.named, self.reshaped = bool(MENTION.search(line)), False
        return False

    @property
    def context(self) -> bool:
        """`Time:` lines are hackbench's after a banner, or right below a line naming it."""
        return self.variant is not None or self.named


@dataclass
class _Block:
    start: int
    end: int = 0
    results: list[Result] = field(default_factory=list)


class _Reader:
    """Walks a segment, binding each timing to the banner and command line above it."""

    def __init__(self, seg: Segment) -> None:
        self.seg = seg
        self.st = _State()
        self.reports = _perf_reports(seg.lines)
        self.wrapped = _perf_wrapped(seg.lines, self.reports)
        for line in seg.before:  # a command quoted or wrapped just above the output
            self.st.command(line)
        self.blocks: list[_Block] = []
        self.cur: _Block | None = None
        self.lead: int | None = None  # first banner/command line of the next block

    def _keep(self, i: int) -> _Block:
        if self.cur is None:
            self.cur = _Block(start=self.lead if self.lead is not None else i)
        self.cur.end = i + 1
        return self.cur

    def _close(self) -> None:
        if self.cur is not None:
            self.blocks.append(self.cur)
        self.cur = self.lead = None

    def _time(self, i: int, value: str, label: str) -> None:
        params = {**self.st.params, **self.st.banner}
        if self.st.variant:
            params["variant"] = self.st.variant
        if self.st.instance:
            params["instance"] = self.st.instance
        self._keep(i).results.append(Result("time", label, float(value), "s", params, line=i))

    def feed(self, i: int, line: str) -> None:
        st = self.st
        if not line.strip():
            return
        if (m := CLASSIC.match(line)) is not None:
            st.variant = "classic"
            st.banner = {"groups": m["groups"], "tasks": m["tasks"]}
        elif (m := RT.match(line)) is not None:
            st.variant = "rt-tests"
            mode = "thread" if m["mode"] == "threaded" else "process"
            st.banner = {"groups": m["groups"], "tasks": m["tasks"], "mode": mode}
        elif (m := RT_HEAD.match(line)) is not None:
            st.variant = "rt-tests"
            mode = "thread" if m["mode"] == "threaded" else "process"
            st.banner = {"groups": m["groups"], "mode": mode}
        elif (m := RT_TAIL.match(line)) is not None and st.variant == "rt-tests":
            st.banner["tasks"] = m["tasks"]
        elif (m := SENDER.match(line)) is not None:
            st.banner.update(loops=m["loops"], datasize=m["size"])
        elif (m := TIMES.match(line)) is not None and (m["args"] or st.context):
            params = _command_params(m["args"]) if m["args"] else {**st.params, "groups": m["groups"]}
            if params is None:
                self._close()
                return
            st.params, st.banner, st.named = params, {}, True
            for t in _TIME_VALUE.findall(m["times"]):
                self._time(i, t, "Time")
        elif (m := TIME.match(line)) is not None:
            if i in self.wrapped:
                st.params, st.named = self.wrapped[i], True
            if not st.context:
                self._close()
                return
            self._time(i, m["t"], "Time")
        elif (params := self.reports.get(i)) is not None:
            last = self.cur.results[-1] if self.cur is not None and self.cur.results else None
            timed = last is not None and last.metric_label == "Time" and last.params.items() >= params.items()
            if not timed:
                st.params, st.banner, st.named = params, {}, True
            st.elapsed = not timed
        elif (m := ELAPSED.match(line)) is not None and (st.elapsed or st.stat_run):
            st.elapsed = False
            self._time(i, m["t"], "seconds time elapsed")
        elif (m := BARE.match(line)) is not None and st.named and st.reshaped:
            self._time(i, m["t"], "Time")
        elif (m := PERF_RUN.match(line)) is not None:
            st.perf_bench, st.banner = m["bench"], {}
        elif (m := PERF_PER_GROUP.match(line)) is not None:
            st.variant, st.perf_bench = "perf", st.perf_bench or "sched/messaging"
            st.banner["mode"] = m["kind"]
        elif (m := PERF_GROUPS.match(line)) is not None:
            st.banner.update(groups=m["groups"], tasks=m["tasks"])
        elif (m := PERF_TOTAL.match(line)) is not None:
            if st.perf_bench == "sched/messaging" and st.variant == "perf":
                self._time(i, m["t"], "Total time")
            elif self.cur is not None:
                self.cur.end = i + 1
            return
        elif (m := INSTANCE.match(line)) is not None:
            st.instance = m["n"]
        elif st.command(line) or NOISE.match(line):
            pass
        else:
            st.elapsed = False  # perf's counters: the report holds hackbench's `Time:` above, or none
            self._close()
            return
        if self.cur is not None:
            self.cur.end = i + 1
        elif self.lead is None:
            self.lead = i


def _hackbench_params(command: str) -> dict[str, str] | None:
    """The params of the `hackbench ARGS` that a perf stat report names, None when it names none."""
    m = _command(command)
    return _command_params(m["args"]) if m is not None else None


def _perf_reports(lines: list[str]) -> dict[int, dict[str, str]]:
    """The lines opening a perf stat report of hackbench, and the params its command names."""
    out: dict[int, dict[str, str]] = {}
    for i, line in enumerate(lines):
        if (m := PERF_STAT.match(line)) is not None and (params := _hackbench_params(m["cmd"])) is not None:
            out[i] = params
    return out


def _perf_wrapped(lines: list[str], reports: dict[int, dict[str, str]]) -> dict[int, dict[str, str]]:
    """`Time:` lines right above a perf stat report of hackbench (`perf stat hackbench -g 100`
    prints hackbench's output first): they are hackbench's, run as that report's command says."""
    out: dict[int, dict[str, str]] = {}
    for i, params in reports.items():
        seen = 0
        for k in range(i - 1, max(-1, i - 20), -1):
            if not lines[k].strip():
                continue
            if TIME.match(lines[k]):
                out[k] = params
                break
            seen += 1
            if seen >= _STAT_REACH:
                break
    return out


def _run_for(seg: Segment, block: _Block) -> Run:
    caption = nearest_caption(seg, block.start)
    variants = {r.params.get("variant") for r in block.results} - {None}
    return Run(
        benchmark=NAME,
        results=block.results,
        system=caption_system(seg, block.start),
        caption=caption,
        line_start=block.start,
        line_end=max(block.end, block.start + 1),
        attributes={"variant": variants.pop()} if len(variants) == 1 else {},
    )


def parse(seg: Segment) -> list[Run]:
    """Every hackbench timing in the segment, grouped into contiguous pastes."""
    reader = _Reader(seg)
    for i, line in enumerate(seg.lines):
        reader.feed(i, line)
    reader._close()
    runs = [_run_for(seg, b) for b in reader.blocks if b.results]
    number_repeated_results(runs)
    return runs


# distinctive literals, one of which every block the parser reads contains (see Parser.keywords)
KEYWORDS = ("(==", "running in process", "running in threaded", "sched/messaging", "hackbench")

PARSER = Parser(name=NAME, version="1", signature=SIGNATURE, parse=parse, metrics=METRICS, keywords=KEYWORDS)

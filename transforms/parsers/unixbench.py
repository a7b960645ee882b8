"""UnixBench (BYTE UNIX Benchmarks) reports as pasted into mail: versions 3.11, 4.x, 5.x/6.x.

What becomes a row (one `Result` each):

* a per-test score line, ``Dhrystone 2 using register variables 10802400.5 lps (10.0 s, 2 samples)``
  -> metric ``dhrystone_2``, unit as printed (lps, lpm, KBps, MWIPS; fps -> /sec), statistic
  ``value``.
* an index-table row ``<test> BASELINE RESULT INDEX`` -> metric ``<test>_index``, unit ``index``,
  statistic ``index``, param ``baseline`` (as printed). The RESULT column repeats the per-test
  score, so it becomes a ``<test>`` row only when the block has no per-test line for that test
  (index-only snippets, hand-made tables).
* ``System Benchmarks Index Score`` and 4.x ``FINAL SCORE`` -> ``index_score``;
  ``... Index Score (Partial Only)`` -> ``partial_index_score`` (the score of a subset, kept
  apart); graphics categories -> ``graphics_2d_index_score`` / ``graphics_3d_index_score``;
  3.11 ``AVERAGE`` -> ``index_average`` and ``SUM of N items`` -> ``index_sum`` (3.11 indexes are
  plain ratios, not x10, so its summary must not share a name with later scores).

Params: ``copies`` (from ``running N parallel copies of tests``, else from a ``N x <test>``
progress line or a ``./Run -c N`` command printed right above the block) on every row of a
block; ``baseline`` on index rows. The ``(10.0 s, 2 samples)`` tail says how the tool measured,
not what it measured, so it is kept in run attributes ``<metric>.duration_s`` and
``<metric>.samples``: params are comparison keys, and two systems timed 10.0 s and 10.2 s must
still compare.

Runs: one per ``Benchmark Run:`` block (5.x), one per report (3.11/4.x have one block), and one
per index-table snippet otherwise. ``system`` is the caption that introduces the report
(``Luvalley's result:`` -> ``Luvalley``; looked for right above the banner or block, in the
segment or in ``segment.before``), else the report's host name. Hand-made tables give each
column (``Base``, ``with patch``) or labelled row (``(1)``, resolved through a ``(1) .... text``
legend line) its own system. Header lines (System, OS and kernel, Machine, Language, CPU N,
N CPUs in system, Benchmark Run date) become run attributes.

Mail damage handled: tails or values wrapped onto the next line, collapsed whitespace, tabs,
``>`` quoting (removed by the segmenter), PGP ``~`` / ``- `` prefixes, Outlook-squashed tails
``(10.0secs,10`` + ``samples)``. A table that cannot be read whole makes its run ``unparsed``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from transforms.model import MetricSpec, Parser, Result, Run, Segment
from transforms.numbers import parse_number
from transforms.parsers._common import CHANGE_HEAD, naming_caption, without_number

BENCHMARK = "unixbench"

_NUM = r"\d[\d,]*(?:\.\d*)?"
_NUM_RE = re.compile(_NUM)

# ---------------------------------------------------------------------------------------------
# Test names -> canonical metrics
# ---------------------------------------------------------------------------------------------

_T = r"(?:\s+Test)?"  # 3.11 appends " Test" to several names
_GFX2D = r"(rectangles|lines|circles|ellipses|polygons|aa\s+polygons|complex\s+polygons|text|images\s+and\s+blits|windows)"

# (printed name, metric template filled from the groups, canonical unit of the score)
_TEST_PATTERNS: tuple[tuple[str, str, str], ...] = (
    (r"Dhrystone\s+2\s+using\s+register\s+variables", "dhrystone_2", "lps"),
    (r"Dhrystone\s+2\s+without\s+register\s+variables", "dhrystone_2_noregister", "lps"),
    (r"Double-Precision\s+Whetstone", "whetstone_double", "MWIPS"),
    (r"Execl\s+Throughput" + _T, "execl_throughput", "lps"),
    (r"File\s+(Copy|Read|Write)\s+(\d+)\s+bufsize\s+(\d+)\s+maxblocks", "file_{0}_{1}_bufsize_{2}_maxblocks", "KBps"),
    (r"File\s+(Copy|Read|Write)\s+\((\d+)\s+seconds\)", "file_{0}_{1}s", "KBps"),
    (r"Pipe\s+Throughput" + _T, "pipe_throughput", "lps"),
    (r"Pipe-based\s+Context\s+Switching" + _T, "pipe_context_switching", "lps"),
    (r"Process\s+Creation" + _T, "process_creation", "lps"),
    (r"Shell\s+Scripts\s+\((\d+)\s+concurrent\)", "shell_scripts_{0}", "lpm"),
    (r"System\s+Call\s+Overhead" + _T, "syscall_overhead", "lps"),
    (r"Exec\s+System\s+Call\s+Overhead", "exec_syscall_overhead", "lps"),
    (r"Arithmetic\s+Test\s+\((?:type\s*=\s*)?(\w+)\)", "arithmetic_{0}", "lps"),
    (r"Arithoh", "arithmetic_arithoh", "lps"),
    (r"C\s+Compiler\s+(?:Throughput|Test)(?:\s*\([^)]*\))?", "c_compiler_throughput", "lpm"),
    (r"Dc:\s+sqrt\(2\)\s+to\s+99\s+decimal\s+places", "dc_sqrt2", "lpm"),
    (r"Recursion\s+Test\s*-+\s*Tower\s+of\s+Hanoi", "recursion_hanoi", "lps"),
    (r"Grep\s+a\s+large\s+file(?:\s*\([^)]*\))?", "grep_large_file", "lpm"),
    (r"2D\s+graphics:\s+" + _GFX2D, "graphics_2d_{0}", "lps"),
    (r"3D\s+graphics:\s+gears", "graphics_3d_gears", "/sec"),
)
_TESTS = tuple((re.compile(rf"^(?:{p})(?=\s|$)", re.I), t, u) for p, t, u in _TEST_PATTERNS)
# the patterns a line can match, by its first character: every name starts with a letter or digit
# of its own, and a line is tried against the two or three that share it instead of all twenty
_TESTS_BY_FIRST: dict[str, tuple[tuple[re.Pattern[str], str, str], ...]] = {
    c: tuple(t for (p, _, _), t in zip(_TEST_PATTERNS, _TESTS, strict=True) if p[0].lower() == c)
    for c in {p[0].lower() for p, _, _ in _TEST_PATTERNS}
}


def _known_tests() -> dict[str, str]:
    """Every per-test metric the tool can print (3.11 to 6.0), with its unit."""
    units = {t: u for _, t, u in _TEST_PATTERNS if "{" not in t}
    for op in ("copy", "read", "write"):
        for buf, blocks in (("1024", "2000"), ("256", "500"), ("4096", "8000")):
            units[f"file_{op}_{buf}_bufsize_{blocks}_maxblocks"] = "KBps"
        for secs in ("10", "30"):
            units[f"file_{op}_{secs}s"] = "KBps"
    for n in ("1", "2", "4", "8", "16"):
        units[f"shell_scripts_{n}"] = "lpm"
    for kind in ("arithoh", "register", "short", "int", "long", "float", "double"):
        units[f"arithmetic_{kind}"] = "lps"
    for shape in ("rectangles", "lines", "circles", "ellipses", "polygons", "aa_polygons",
                  "complex_polygons", "text", "images_and_blits", "windows"):
        units[f"graphics_2d_{shape}"] = "lps"
    return units


_TEST_UNITS = _known_tests()
_UNITS = {"lps": "lps", "lpm": "lpm", "kbps": "KBps", "mwips": "MWIPS", "fps": "/sec"}
_CATEGORIES = {"system": "", "2d graphics": "graphics_2d_", "3d graphics": "graphics_3d_"}
_HIGH = {"lps": 1e12, "lpm": 1e9, "KBps": 1e10, "MWIPS": 1e8, "/sec": 1e8}


def _metrics() -> dict[str, MetricSpec]:
    specs = {}
    for metric, unit in _TEST_UNITS.items():
        specs[metric] = MetricSpec(unit, True, 0.0, _HIGH[unit])
        specs[f"{metric}_index"] = MetricSpec("index", True, 0.0, 1e7)
    for prefix in _CATEGORIES.values():
        specs[f"{prefix}index_score"] = MetricSpec("index", True, 0.0, 1e7)
        specs[f"partial_{prefix}index_score"] = MetricSpec("index", True, 0.0, 1e7)
    specs["index_average"] = MetricSpec("index", True, 0.0, 1e6)
    specs["index_sum"] = MetricSpec("index", True, 0.0, 1e8)
    return specs


METRICS = _metrics()


@dataclass(frozen=True, slots=True)

class _Name:
    metric: str
    unit: str
    label: str  # as printed
    rest: str  # what follows the name on the line


def _match_test(text: str) -> _Name | None:
    """The known test that starts `text`, if any; names contain digits, so they are matched
    whole rather than split off by whitespace."""
    for pat, template, unit in _TESTS_BY_FIRST.get(text[:1].casefold()[:1], ()):
        m = pat.match(text)
        if m:
            metric = template.format(*(re.sub(r"\s+", "_", g.lower()) for g in m.groups()))
            if metric not in _TEST_UNITS:
                return None
            return _Name(metric, unit, m.group(0), text[m.end():].strip())
    return None


# ---------------------------------------------------------------------------------------------
# Line shapes
# ---------------------------------------------------------------------------------------------

_BANNER = re.compile(r"BYTE\s+UNIX\s+Benchmarks\s*\(\s*Version\s+([\w.\-]+)\s*\)", re.I)
_BENCH_RUN = re.compile(r"^Benchmark\s+Run:\s*+(.*)$", re.I)
_CPUS = re.compile(r"^(\d+)\s+CPUs?\s+in\s+system;\s*running\s+(\d+)\s+parallel\s+cop(?:y|ies)\b", re.I)
# `N x Test name  1 2 3`: the trailing counts are cut off in code (`_progress_name`), since a lazy
# name followed by `(?:\s+\d+)*$` rescans the counts from every character of the name.
_PROGRESS = re.compile(r"^(\d+)\s+x\s++(.+)$")
_COMMAND = re.compile(
    r"^(?:(?:test\s+)?(?:cmd|command)\s*:\s*)?(?:[#$]\s*)?(?:sudo\s+)?\S*/Run(?:\s++(.*))?$", re.I
)
_COPIES_FLAG = re.compile(r"(?:^|\s)-c\s+(\d+)\b")
_INDEX_HEAD = re.compile(
    r"^(System|2D\s+Graphics|3D\s+Graphics|Non-Index)\s+Benchmarks\s+(Index\s+Values|Partial\s+Index)\b\s*+(.*)$",
    re.I,
)
_OLD_HEAD = re.compile(r"^TEST\s+BASELINE\s+RESULT\s+INDEX$", re.I)
_OLD_HEAD_CUT = re.compile(r"^TEST\s+BASELINE\s+RESULT$", re.I)  # `INDEX` on the next line, a mailer's wrap
# `\s*:?` before the scores, without its overlap with the blank that starts each score: a colon,
# or (no colon) the scores with their blanks, or trailing blanks alone
_COLON = r"(?:\s*+:|(?=\s)|\s*+$)?"
_SCORE = re.compile(
    r"^((System|2D\s+Graphics|3D\s+Graphics)\s+Benchmarks\s+Index\s+Score(\s*\(\s*Partial\s+Only(?:\s*+\))?)?)"
    rf"{_COLON}((?:\s++{_NUM}(?![\d.,%]))*+)(?:\s++[-+]?{_NUM}%)?$",  # `... 6.80%`: a change beside the scores
    re.I,
)
# 3.11/4.x summary lines; case-sensitive, as printed, so that prose ("final score 3") never matches
_FINAL = re.compile(rf"^(FINAL\s+SCORE){_COLON}((?:\s++{_NUM})*+)$")
_SUM = re.compile(rf"^(SUM\s+of\s+(\d+)\s+items)((?:\s+{_NUM})*)$")
_AVERAGE = re.compile(rf"^(AVERAGE)((?:\s+{_NUM})*)$")
# what each of the four above starts with: a line without it is no score line, whatever follows
# it (a wrapped score line starts on the line itself), so it is not joined with the next to see
_SCORE_START = re.compile(r"^(?:(?i:system|2d|3d)|FINAL|SUM|AVERAGE)\b")
_RULE = re.compile(r"^[-=_~*#.\s]*$")  # rules, '... ...', dash lines
_RAW_REST = re.compile(rf"^({_NUM})\s*+(lps|lpm|KBps|MWIPS|fps)\b\s*+(.*)$", re.I)
_TAIL = re.compile(r"^\(\s*+(\d+(?:\.\d+)?)\s*+(?:s|secs?|seconds)?\s*+,\s*+(\d+)\s*+samples?\s*+\)$", re.I)
_TAIL_REST = re.compile(r"^[\d.]*+\s*+(?:s|secs?|seconds)?\s*+,?\s*+\d*+\s*+samples?\s*+\)$", re.I)
_UNIT_START = re.compile(r"^(?:lps|lpm|KBps|MWIPS|fps)\b", re.I)
_NUMS = re.compile(rf"^(?:---|{_NUM})(?:\s+(?:---|{_NUM}))*$")
_NO_RESULT = re.compile(r"no\s+measured\s+results", re.I)
_ROW_LABEL = re.compile(r"^\((\w{1,3})\)\s+")
_LEGEND = re.compile(r"^\((\w{1,3})\)\s*+\.{2,}\s*+(\S.*)(?m:$)")  # one line
_SKIP_CAPTION = re.compile(
    r"^(?:```|~~~|(?:[#$]\s*)?(?:sudo\s+)?\S*/Run(?:\s|$)|(?:test\s+)?(?:cmd|command)\s*:|\d+\s+x\s+\S|INDEX\s+VALUES$)",
    re.I,
)
_HEADER_FIELDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^System:\s*+(.*)$"), "system"),
    (re.compile(r"^OS:\s*+(.*)$"), "os"),
    (re.compile(r"^Machine:\s*+(.*)$"), "machine"),
    (re.compile(r"^Language:\s*+(.*)$"), "language"),
    (re.compile(r"^Graphics:\s*+(.*)$"), "graphics"),
    (re.compile(r"^Start\s+Benchmark\s+Run:\s*+(.*)$"), "benchmark_run"),
    (re.compile(r"^(\d+)\s+interactive\s+users?\.?$"), "interactive_users"),
)
_UNAME_LINE = re.compile(r"^System\s+--\s*+(.*)$")  # 3.11/4.x: `uname -a`, often wrapped
_CPU_LINE = re.compile(r"^CPU\s+(\d+):\s*+(.*)$")
# `up ... load average`, found as two searches: one pattern rescans the line from every "up"
_UP = re.compile(r"\bup\b", re.I)
_LOAD_AVERAGE = re.compile(r"\bload\s+average", re.I)


def _progress_name(rest: str) -> str:
    """`rest` less its trailing counts, as the lazy `(.+?)(?:\\s+\\d+)*$` cut it: the shortest
    non-empty head whose tail is all whitespace-and-digits groups."""
    cut = len(rest)
    while True:
        j = cut
        while j > 0 and rest[j - 1].isdecimal():
            j -= 1
        k = j
        while k > 0 and rest[k - 1].isspace():
            k -= 1
        if j == cut or k == j:
            return rest[:cut]
        if k == 0:  # the head keeps at least one character
            return rest[:1] if j > 1 else rest[:cut]
        cut = k


def _clean(line: str) -> str:
    """Strip the PGP dash-escape (``- -``) and ``~`` prefixes seen on signed posts, and edges."""
    s = line.strip()
    if s.startswith("- -"):
        s = s[2:]
    if s == "~" or s.startswith(("~ ", "~\t")):
        s = s[1:]
    return s.strip()


def _score_title_only(text: str) -> bool:
    for pat in (_SCORE, _FINAL, _SUM, _AVERAGE):
        m = pat.match(text)
        if m:
            return not m.group(m.re.groups).strip()
    return False


def _continues(text: str, nxt: str, expect: int | None) -> bool:
    """Whether `nxt` is the part of `text` that a mail client wrapped onto the next line."""
    if _score_title_only(text):
        return bool(_NUM_RE.fullmatch(nxt))
    name = _match_test(_ROW_LABEL.sub("", text, count=1))
    if name is None:
        return False
    rest = name.rest
    if not rest:
        return nxt[:1].isdigit() or nxt.startswith("---")
    if _NUMS.match(rest):
        if _UNIT_START.match(nxt):
            return True
        return bool(expect and _NUMS.match(nxt) and len(rest.split()) + len(nxt.split()) == expect)
    raw = _RAW_REST.match(rest)
    if raw is None:
        return False
    tail = raw.group(3)
    if not tail:
        return nxt.startswith("(") and "sample" in nxt.lower()
    return tail.startswith("(") and ")" not in tail and bool(_TAIL_REST.match(nxt))


def _logical(lines: list[str], i: int, expect: int | None = None) -> tuple[str, int]:
    """Line `i` joined with up to two wrapped continuation lines; returns (text, next index)."""
    text, j = lines[i], i + 1
    for _ in range(2):
        if j >= len(lines) or not lines[j] or not _continues(text, lines[j], expect):
            break
        text, j = f"{text} {lines[j]}", j + 1
    return text, j


def _is_report_line(t: str) -> bool:
    return bool(
        _BANNER.search(t) or _BENCH_RUN.match(t) or _CPUS.match(t) or _INDEX_HEAD.match(t)
        or _OLD_HEAD.match(t) or _SCORE.match(t) or _FINAL.match(t) or _SUM.match(t)
        or _AVERAGE.match(t) or _match_test(t) or any(p.match(t) for p, _ in _HEADER_FIELDS)
        or _UNAME_LINE.match(t) or _CPU_LINE.match(t)
    )


# ---------------------------------------------------------------------------------------------
# Captions -> system names
# ---------------------------------------------------------------------------------------------


def _system_name(caption: str) -> str:
    """``Luvalley's result:`` -> ``Luvalley``; ``---Byte benchmark on 2.6.2 BEGIN---`` -> ``2.6.2``."""
    s = without_number(caption.strip().lstrip("#").strip().strip("-").strip())  # (`1) control`)
    s = re.sub(r"[:：]\s*$", "", s).strip()
    s = re.sub(r"(?<!\s)\s+(?:BEGIN|START|END)$", "", s, flags=re.I)
    m = re.match(r"^.*?\b(?:benchmarks?|results?|numbers?)\s+(?:on|for|of)\s+(\S.*)(?m:$)", s, re.I)
    if m:
        s = m.group(1)
    s = re.sub(r"(?:'s)?(?<!\s)\s+results?$", "", s, flags=re.I)
    return re.sub(r"\s+", " ", s).strip()


_ATTRIBUTION = re.compile(r"\b(?:wrote|writes|said)\s*:\s*$", re.I)  # "On ..., X wrote:" is no caption
_GENERIC_WORDS = frozenset({
    "byte", "unix", "unixbench", "bench", "benchmark", "benchmarks", "result", "results", "test",
    "tests", "testing", "run", "output", "performance", "score", "scores", "the", "of", "on", "for",
    "with", "in", "here", "are", "is", "my", "性能测试", "测试", "跑分", "结果",
})  # fmt: skip


def _generic(name: str) -> bool:
    """A heading that names the benchmark rather than the system (``byte-unixbench 性能测试``)."""
    return all(w in _GENERIC_WORDS for w in re.split(r"[\W_]+", name.lower()) if w)


def _caption(lines: list[str], start: int, before: tuple[str, ...]) -> str | None:
    """The line that introduces the block starting at `start`: the nearest line above that is
    not blank, a rule, a command, a progress line or a code fence; None unless caption-like."""
    above = [lines[k] for k in range(start - 1, max(start - 21, -1), -1)]
    if start <= 20:  # the segment's top is in reach: the lines before it come next
        above += list(reversed(before))
    for raw in above:
        t = _clean(raw)
        if not t or _RULE.match(t) or _SKIP_CAPTION.match(t):
            continue
        if _is_report_line(t) or t[:2] in ("* ", "- ", "+ ") or len(t) > 80 or _ATTRIBUTION.search(t):
            return None
        name = _system_name(t)
        if not name or _generic(name):
            return None
        if t.endswith((":", "：")):
            return t
        return t if len(name.split()) <= 4 and not name.endswith((".", ",", ";", "?", "!")) else None
    return None


# ---------------------------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Report:
    """What a ``BYTE UNIX Benchmarks`` banner and its header say about the blocks below it."""

    line: int
    version: str | None
    caption: str | None
    system: str | None
    attributes: dict[str, str] = field(default_factory=dict)
    pending: bool = True  # the next block belongs to it, whatever opens it


@dataclass(slots=True)
class _Block:
    start: int
    end: int
    system: str | None
    caption: str | None
    version: str | None
    attributes: dict[str, str]
    copies: str | None = None
    cpus_line: bool = False
    results: list[Result] = field(default_factory=list)
    raw: dict[tuple[str | None, str], float] = field(default_factory=dict)
    categories: set[str] = field(default_factory=set)  # index tables read
    scored: set[str] = field(default_factory=set)
    columns: list[str] | None = None  # systems of a hand-made multi-column table
    changes: set[int] = field(default_factory=set)  # of those, columns of changes (`Diff`)
    sealed: bool = False
    notes: list[str] = field(default_factory=list)
    reason: str | None = None

    def add(self, result: Result, end: int) -> None:
        self.results.append(result)
        self.end = max(self.end, end)


class _Reader:
    def __init__(self, seg: Segment) -> None:
        self.seg = seg
        self.lines = [_clean(line) for line in seg.lines]
        self.runs: list[Run] = []
        self.report: _Report | None = None
        self.block: _Block | None = None
        self.pending_copies: str | None = None  # from a progress line: the next block only
        self.command_copies: str | None = None  # from `./Run -c N`: every block until the next command
        self.legend: dict[str, str] = {}  # `(1) .... rc5-mm1` lines name labelled rows
        for t in self.lines:
            m = _LEGEND.match(t)
            if m:
                self.legend[m.group(1)] = re.sub(r"\s+", " ", m.group(2)).strip()

    # -- blocks -------------------------------------------------------------------------------

    def open(self, start: int, *, run_line: bool = False) -> _Block:
        self.close()
        rep = self.report
        if rep is not None and (rep.pending or run_line):
            first = rep.line if rep.pending else start
            rep.pending = False
            block = _Block(first, start + 1, rep.system, rep.caption, rep.version, dict(rep.attributes))
        else:
            caption = _caption(self.lines, start, self.seg.before)
            system = (_system_name(caption) if caption else None) or naming_caption(self.lines, start, 0, self.seg.before)
            block = _Block(start, start + 1, system, caption, None, {})
        block.copies = self.pending_copies or self.command_copies
        self.pending_copies = None
        self.block = block
        return block

    def close(self) -> None:
        b, self.block = self.block, None
        if b is None:
            return
        for r in b.results:
            if b.copies is not None:
                r.params.setdefault("copies", b.copies)
        self.runs.append(
            Run(
                benchmark=BENCHMARK,
                results=[] if b.reason else b.results,
                tool_version=b.version,
                system=b.system,
                caption=b.caption,
                line_start=b.start,
                line_end=max(b.end, b.start + 1),
                attributes=b.attributes,
                notes=b.notes,
                status="unparsed" if b.reason else "ok",
                reason=b.reason,
            )
        )

    # -- the walk -----------------------------------------------------------------------------

    def read(self) -> list[Run]:
        i = 0
        while i < len(self.lines):
            i = self.step(i) if self.lines[i] else i + 1
        self.close()
        return self.runs

    def step(self, i: int) -> int:
        t = self.lines[i]
        m = _BANNER.search(t)
        if m:
            return self.banner(i, m.group(1))
        m = _BENCH_RUN.match(t)
        if m:
            self.open(i, run_line=True).attributes["benchmark_run"] = m.group(1).strip()
            return i + 1
        m = _CPUS.match(t)
        if m:
            return self.cpus(i, m)
        m = _INDEX_HEAD.match(t)
        if m:
            category = re.sub(r"\s+", " ", m.group(1).lower())
            return self.table(i, category, m.group(3))
        if _OLD_HEAD.match(t) or _OLD_HEAD_CUT.match(t) and i + 1 < len(self.lines) \
                and self.lines[i + 1].upper() == "INDEX":
            return self.table(i, "system", "BASELINE RESULT INDEX")
        j = self.score(i)
        if j is not None:
            return j
        self.note_context(t)
        if _match_test(t):  # (a test's line: an index row whose heads were cut off, or a score)
            if _headless_index(self.lines, i):
                return self.table(i, "system", "BASELINE RESULT INDEX", headless=True)
            return self.raw(i)
        return i + 1

    def note_context(self, t: str) -> None:
        """Progress lines (``24 x System Call Overhead  1``) say how many copies produced the block
        printed right below; a ``./Run -c N`` command, the blocks shown after it."""
        m = _PROGRESS.match(t)
        if m and _match_test(_progress_name(m.group(2))):
            self.pending_copies = m.group(1)
            return
        m = _COMMAND.match(t)
        if m:
            flags = _COPIES_FLAG.findall(m.group(1) or "")
            self.command_copies = flags[0] if len(flags) == 1 else None

    def banner(self, i: int, version: str) -> int:
        self.close()
        caption = _caption(self.lines, i, self.seg.before)
        rep = _Report(i, version, caption, _system_name(caption) if caption else None)
        j = self.header(i + 1, rep)
        if rep.system is None:  # a kernel or patch named further up, else the report's own host
            rep.system = naming_caption(self.lines, i, 0, self.seg.before) or rep.attributes.get("hostname")
        self.report = rep
        self.pending_copies = self.command_copies = None
        return j

    def header(self, j: int, rep: _Report) -> int:
        """Read the System/OS/Machine/CPU lines under the banner into report attributes."""
        attrs, lines = rep.attributes, self.lines
        continuation: str | None = None  # attribute a wrapped or flags line belongs to
        while j < len(lines):
            t = lines[j]
            if not t:
                j += 1
                continue
            if _RULE.match(t):
                break
            field_name, value = _header_field(t)
            if field_name is not None:
                attrs[field_name] = value
                attrs.update(_field_details(field_name, value))
                continuation = None
            elif (m := _UNAME_LINE.match(t)) is not None:
                attrs["system"] = m.group(1).strip()
                continuation = "system"
            elif (m := _CPU_LINE.match(t)) is not None:
                attrs[f"cpu.{m.group(1)}"] = m.group(2).strip()
                continuation = f"cpu.{m.group(1)}.flags"
            elif (up := _UP.search(t)) and _LOAD_AVERAGE.search(t, up.end()):
                attrs["uptime"] = t
                continuation = None
            elif continuation is not None and not _is_report_line(t):
                if continuation == "system":
                    attrs["system"] = f"{attrs['system']} {t}"
                else:
                    attrs[continuation] = t
                continuation = None
            else:
                break
            j += 1
        if "system" in attrs and "hostname" not in attrs:
            attrs.update(_field_details("uname", attrs["system"]))
        return j

    def cpus(self, i: int, m: re.Match[str]) -> int:
        b = self.block
        if b is None or b.results or b.cpus_line:
            b = self.open(i)
        b.copies, b.cpus_line = m.group(2), True
        b.attributes["cpus"] = m.group(1)
        b.end = i + 1
        return i + 1

    def raw(self, i: int) -> int:
        """A per-test score line, possibly wrapped over two or three lines."""
        text, j = _logical(self.lines, i)
        name = _match_test(text)
        m = _RAW_REST.match(name.rest) if name else None
        if name is None or m is None:
            if name is not None and self.block is not None and _NO_RESULT.search(name.rest):
                self.block.notes.append(f"line {i}: {name.label}: no measured results")
            return i + 1
        tail = m.group(3)
        if tail and not tail.startswith("("):
            return i + 1  # prose such as "... 10.2 lps vs 11.0 lps": not tool output
        value = parse_number(m.group(1))
        if value is None:
            return i + 1
        b = self.block
        if b is None or b.sealed or b.categories or (None, name.metric) in b.raw:
            b = self.open(i)
        unit = _UNITS[m.group(2).lower()]
        b.add(Result(name.metric, name.label, value, unit, line=i), j)
        b.raw[(None, name.metric)] = value
        t = _TAIL.match(tail) if tail else None
        if t:
            b.attributes[f"{name.metric}.duration_s"] = t.group(1)
            b.attributes[f"{name.metric}.samples"] = t.group(2)
        elif tail:
            b.notes.append(f"line {i}: unreadable tail {tail!r}")
        return j

    def table(self, i: int, category: str, cols_text: str, headless: bool = False) -> int:
        """An index table: ``BASELINE RESULT INDEX`` rows, or a hand-made ``INDEX INDEX`` table
        whose columns are systems; `headless`: its rows from line i on, the heads cut off."""
        cols = cols_text.split()
        standard = not cols or any(c.upper() in ("BASELINE", "RESULT") for c in cols)
        names: list[str] | None = None
        start = i
        if not standard:
            names, start = self.column_names(i, cols_text)
        b = self.block
        if b is None or category in b.categories or (b.sealed and not b.categories) or not standard:
            b = self.open(start)
        b.categories.add(category)
        if not standard:
            if names is None:
                b.reason = f"line {i}: cannot tell which system each column of the index table is"
                names = []
            b.columns = names
        expect = 3 if standard else len(names or [])
        # `Without Patch   With Patch   Diff`: a column of changes beside the systems' is no system
        changes = set() if standard else {k for k, n in enumerate(names or []) if CHANGE_HEAD.match(n)}
        b.changes = changes
        j = i if headless else i + 1
        while j < len(self.lines):
            t = self.lines[j]
            if not t or _RULE.match(t) or t.upper() == "INDEX":
                j += 1
                continue
            lm = _ROW_LABEL.match(t)
            name = _match_test(t[lm.end():] if lm else t)
            if name is None or _RAW_REST.match(name.rest):
                break
            text, nj = _logical(self.lines, j, expect)
            name = _match_test(_ROW_LABEL.sub("", text, count=1))
            vals = name.rest.split() if name else []
            if not name or len(vals) != expect or not all(
                    v == "---" or parse_number(v) is not None or k in changes for k, v in enumerate(vals)):
                b.reason = b.reason or f"line {j}: index row does not have {expect} values: {text!r}"
                j = nj
                continue
            label = lm.group(1) if lm else None
            system = (self.legend.get(label) or f"({label})") if label else None
            if standard:
                self.index_row(b, name, vals, system, j, nj)
            else:
                for k, (column, v) in enumerate(zip(names or [], vals, strict=True)):
                    number = parse_number(v) if k not in changes else None
                    if number is not None:  # "---": no value in this column
                        b.add(_index(name, number, column, j, None), nj)
            j = nj
        b.end = max(b.end, j)
        return j

    def column_names(self, i: int, cols_text: str) -> tuple[list[str] | None, int]:
        """Systems of a hand-made table: the header's own words, or the line above it
        (``Testcase   Base    with patch``) when the header repeats ``INDEX`` per column."""
        cols = cols_text.split()
        if not all(c.upper() == "INDEX" for c in cols):
            parts = re.split(r"\s{2,}", cols_text.strip())
            return (parts if len(parts) == len(cols) or len(parts) > 1 else None), i
        k = i - 1
        while k >= 0 and not self.lines[k]:
            k -= 1
        if k < 0:
            return None, i
        parts = re.split(r"\s{2,}", self.seg.lines[k].strip())
        if len(parts) == len(cols) + 1:
            return parts[1:], k
        return None, k

    def index_row(self, b: _Block, name: _Name, vals: list[str], system: str | None, j: int, nj: int) -> None:
        base, result, index = vals
        value = parse_number(result) if result != "---" else None
        key = (system, name.metric)
        if value is not None:
            if key not in b.raw:
                b.add(Result(name.metric, name.label, value, name.unit, system=system, line=j), nj)
                b.raw[key] = value
            elif b.raw[key] != value:
                b.notes.append(f"line {j}: RESULT {result} differs from the per-test line")
        number = parse_number(index)
        if base != "---" and number is not None:
            b.add(_index(name, number, system, j, base), nj)

    def score(self, i: int) -> int | None:
        """Index score lines; None when line `i` is not one."""
        if not _SCORE_START.match(self.lines[i]):
            return None
        text, j = _logical(self.lines, i)
        m = _SCORE.match(text)
        if m and text.endswith("%") and not (self.block is not None and self.block.changes):
            return None  # a change beside scores under no table of ours: a hand-made table's, not the tool's
        if m:
            category = re.sub(r"\s+", " ", m.group(2).lower())
            metric = ("partial_" if m.group(3) else "") + f"{_CATEGORIES[category]}index_score"
            label, nums, statistic, params = m.group(1), m.group(4), "score", {}
        elif (m := _FINAL.match(text)) is not None:
            category, metric, label, nums, statistic, params = "system", "index_score", m.group(1), m.group(2), "score", {}
        elif (m := _SUM.match(text)) is not None:
            category, metric, label, nums = "system-sum", "index_sum", m.group(1), m.group(3)
            statistic, params = "derived", {"items": m.group(2)}
        elif (m := _AVERAGE.match(text)) is not None:
            category, metric, label, nums, statistic, params = "system", "index_average", m.group(1), m.group(2), "score", {}
        else:
            return None
        b = self.block
        tokens = nums.split()
        columns = b.columns if b is not None else None
        if b is not None and b.changes and b.columns is not None:
            columns = [c for k, c in enumerate(b.columns) if k not in b.changes]  # `13634.17  14560.71  6.80%`
        values = [parse_number(v) for v in tokens]
        if not values or None in values:
            return j
        if b is None or category in b.scored:
            b = self.open(i)
        b.scored.add(category)
        b.sealed = category != "system-sum"
        if len(values) == 1:
            b.add(Result(metric, label, values[0], "index", dict(params), statistic=statistic, line=i), j)
        elif columns is not None and len(values) == len(columns):
            for column, v in zip(columns, values, strict=True):
                b.add(Result(metric, label, v, "index", dict(params), system=column, statistic=statistic, line=i), j)
        else:
            b.reason = b.reason or f"unreadable score line {i}: {len(values)} scores but no matching columns"
            b.end = max(b.end, j)
        return j


def _index(name: _Name, value: float, system: str | None, line: int, baseline: str | None) -> Result:
    params = {"baseline": baseline} if baseline is not None else {}
    return Result(f"{name.metric}_index", name.label, value, "index", params, system=system,
                  statistic="index", line=line)


def _header_field(t: str) -> tuple[str | None, str]:
    for pat, key in _HEADER_FIELDS:
        m = pat.match(t)
        if m:
            return key, m.group(1).strip()
    return None, ""


def _field_details(key: str, value: str) -> dict[str, str]:
    """Host name and kernel: ``System: host: GNU/Linux`` and ``OS: GNU/Linux -- 2.6.18 -- #1 SMP``
    (5.x), or ``System -- Linux host 2.6.2 #1 ...`` (uname, 3.11/4.x)."""
    if key == "system":
        m = re.match(r"^([^\s:]+):\s", value)
        return {"hostname": m.group(1)} if m else {}
    if key == "os":
        parts = [p.strip() for p in value.split(" -- ")]
        return {"kernel": parts[1]} if len(parts) == 3 and parts[1] else {}
    words = value.split()
    if key == "uname" and len(words) >= 3 and words[0] in ("Linux", "FreeBSD", "NetBSD", "OpenBSD", "SunOS"):
        return {"hostname": words[1], "kernel": words[2]}
    return {}


def parse(seg: Segment) -> list[Run]:
    """Every UnixBench block of one segment, one `Run` per block."""
    return _Reader(seg).read()


_SIGNATURE = re.compile(
    r"BYTE\s+UNIX\s+Benchmarks|Benchmarks\s+(?:Index\s+(?:Values|Score)|Partial\s+Index)"
    r"|FINAL\s+SCORE|TEST\s+BASELINE\s+RESULT\s+INDEX|Benchmark\s+Run:|parallel\s+cop(?:y|ies)\s+of\s+tests"
    r"|\d\s+(?:lps|lpm|KBps|MWIPS)\s*\(\s*\d"
    r"|(?i:dhrystone\s+2|whetstone|execl\s+throughput|pipe\s+throughput|context\s+switching"
    r"|process\s+creation|call\s+overhead|shell\s+scripts|file\s+copy)[^\n]{0,60}?\d\s+(?:lps|lpm|KBps|MWIPS)\b"
)

# distinctive literals, one of which every block the parser reads contains (see Parser.keywords)
KEYWORDS = ("BYTE UNIX", "Benchmarks Index", "Index Values", "Index Score", "Partial Index", "FINAL",
            "BASELINE", "Benchmark Run:", "copies of tests", "copy of tests", "(lps)", "./Run ",
            *(f"{b}{u}" for b in " \t" for u in ("lps", "lpm", "kbps", "mwips")))


PARSER = Parser(name=BENCHMARK, version="1", signature=_SIGNATURE, parse=parse, metrics=METRICS, keywords=KEYWORDS)


# each test's baseline in the index tables of 4.x and 5.x (pgms/index.base): a row whose first of
# three figures is its test's baseline is an index row, whatever heads it lost
_BASELINES = {
    "dhrystone_2": 116700.0, "whetstone_double": 55.0, "execl_throughput": 43.0,
    "file_copy_1024_bufsize_2000_maxblocks": 3960.0, "file_copy_256_bufsize_500_maxblocks": 1655.0,
    "file_copy_4096_bufsize_8000_maxblocks": 5800.0, "pipe_throughput": 12440.0,
    "pipe_context_switching": 4000.0, "process_creation": 126.0, "shell_scripts_1": 42.4,
    "shell_scripts_8": 6.0, "syscall_overhead": 15000.0,
}  # fmt: skip


def _three_numbers(line: str) -> bool:
    name = _match_test(line)
    vals = name.rest.split() if name else []
    return name is not None and len(vals) == 3 and all(parse_number(v) is not None for v in vals) \
        and parse_number(vals[0]) == _BASELINES.get(name.metric)


def _headless_index(lines: list[str], i: int) -> bool:
    """4.x index rows whose `TEST  BASELINE  RESULT  INDEX` heads were cut off (`Execl Throughput
    43.0  1159.7  269.7`, 43.0 its baseline): two such rows in a row, a blank line between at most."""
    if not _three_numbers(lines[i]):
        return False
    k = i + 1
    if k < len(lines) and not lines[k]:
        k += 1
    return k < len(lines) and _three_numbers(lines[k])

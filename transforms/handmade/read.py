"""The hand-made layouts of one post: tables, summaries and prose no benchmark parser claimed.

Runs only when the post names a benchmark (`evidence.has_evidence`). Each paragraph of unclaimed
lines is read as tables first, then key: value summaries, then prose; every number found is
attributed to a benchmark from the nearest evidence, or dropped. What was looked at, and why
it became rows or nothing, is returned as `Explained` records for `listbench extract --explain`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from transforms.handmade import commands, evidence, metrics
from transforms.handmade.cells import (
    HEDGE,
    INTERVAL,
    RULE,
    aligned,
    decimal_commas,
    read_number,
    split_wide,
)
from transforms.handmade.cells import cells as row_cells
from transforms.handmade.commands import read_commands
from transforms.handmade.lkp import BENCHMARKS as LKP_BENCHMARKS
from transforms.handmade.lkp import parameter_list, read_lkp, robot_heads
from transforms.handmade.metrics import unit_in
from transforms.handmade.noise import hunk_lines, noise_block, noise_line
from transforms.handmade.normalized import read_normalized
from transforms.handmade.pairs import read_pairs
from transforms.handmade.prose import (
    ARROW_WORD,
    FROM_CHANGE,
    ProseValue,
    arrow_legend,
    before_after,
    read_prose,
)
from transforms.handmade.slashes import read_slashes
from transforms.handmade.summaries import (
    ARROW,
    BULLET_KV,
    KeyValue,
    key_pairs,
    read_summaries,
    stat_pairs,
    where_then_what,
)
from transforms.handmade.tables import (
    MEAN_STAT,
    RATIO_UNIT,
    RELEASE_NUMBER,
    STDEV_HEAD,
    Table,
    comma_columns,
    drop_link_column,
    drop_row_remarks,
    param_lead,
    read_tables,
    row_head,
)
from transforms.handmade.wrapped import join_lone_labels, lone_label, rejoin, unwrap
from transforms.model import Result, Run, Segment
from transforms.parsers import metric_spec
from transforms.parsers._common import (
    CHANGE_HEAD,
    generic_label,
    io_test_label,
    keyed_system,
    label_right_above,
    names_system,
    naming_caption,
    number_repeated_results,
    outer_label,
    setting_of,
    system_label,
    tool_condition,
)
from transforms.parsers.netperf.common import TEST_NAMES as NETPERF_TESTS
from transforms.shell import is_shell_syntax, prompt_end

MAX_BLOCK_LINES = 600
MAX_LINE = 1000  # a longer line is no table row, summary or sentence worth reading
_NUMBERISH = re.compile(r"\d")
# a pipe-table cell holding a number, wherever the row ends (`| 12345 | better |`)
_PIPE_NUMBER = (r"\|[^\S\n]{0,20}+[-+]?\d[\d.,]{0,20}+[^\S\n]{0,4}+[A-Za-z/%µ]{0,12}+"
                rf"(?:{INTERVAL})?+[^\S\n]{{0,20}}+\|")  # (`63.55, [63.04, 64.05]`: a mean and its interval)
# a row ending in a number (or unit, change, aside, a unit in parentheses: `27(MiB/s)`, in brackets: `104.873 [sec]`)
_ENDS_IN_VALUE = r"(?:\d|\s-{1,3}|n/a)(?:%\*|[%*)xkKMG])?\s*+(?:\[?+[A-Za-zµ/%^]{1,12}+\]?+\s*+)?\)?\s*+\|?$|\d\([A-Za-zµ/%]{1,12}\)\s*+$"
# a row ending in a value, a `key: 12` line, or a `... is 12` clause
_CANDIDATE = re.compile(_ENDS_IN_VALUE + rf"|[:=]\s*+(?:(?:{HEDGE})\s++)?\d"
                        r"|\b(?:is|was|were|are|gets?|got|gave|gives?|see|saw|before|after|from|reach(?:es|ed)?"
                        r"|achiev(?:es|ed)|sustain(?:s|ed)?|reports?|average[ds]?)\b.{0,40}\d|"
                        + _PIPE_NUMBER)
_REST_OPTION = re.compile(r"^\s*(?:\.\. [\w-]+::|:[\w-]+:)")  # a directive's options end at a blank line
_VERSION = re.compile(r"^v?\d{1,2}\.\d{1,2}\.\d{1,4}$")  # `4.4.302`: a kernel release names a system
# `tbench results (node 0):`, `netperf results TCP_RR (node 0-1):`
_RESULTS_OF = re.compile(r"^(?P<tool>[\w+]{2,20}) results?\b[ \t]*+(?P<rest>[^():\n]{0,40}?)[ \t]*+"
                         r"(?:\((?P<aside>[^()\n]{1,30})\))?[ \t]*+:?$", re.I)
_ASIDE_PARAM = re.compile(r"^(?P<name>[A-Za-z]{2,12}) [\w.,-]{1,12}$")  # `node 0`, `node 0-1`
_GENERIC_CAPTION = re.compile(r"^(?:test\s+)?(?:results?|numbers|data|output|summary|here|before|after"
                              r"|details?)\b\W*$", re.I)
# a no-break space, raw or left quoted-printable by an archive (`=C2=A0`), is a blank to the reader
_NBSP = re.compile(r"=C2=A0|\xa0")
# `54.39  +0.6%  54.73  xfs-10dd-4k`: values first, the row's label after them
_LABEL_LAST = re.compile(r"^[ \t]*+(?:[-+]?\d[\d.,]*+%?(?=[ \t])[ \t]++){2,}+(?=[^\sA-Za-z]*+[A-Za-z])\S++[ \t]*+$")
_ROW_END = re.compile(_ENDS_IN_VALUE + "|" + _PIPE_NUMBER)


@dataclass(slots=True)
class Explained:
    """One block or table the reader looked at, for `--explain`."""

    line_start: int  # absolute body lines, end exclusive
    line_end: int
    taken_for: str
    benchmark: str | None = None
    evidence: str = ""
    systems: list[str] = field(default_factory=list)
    outcome: str = ""
    rows: int = 0
    quoted: bool = False


@dataclass(slots=True)
class HandRun:
    segment: Segment
    run: Run


def _blocks(seg: Segment, claimed: dict[int, str], hunks: set[int]) -> Iterable[tuple[int, int]]:
    """Paragraphs (start, end) of the segment's unclaimed lines."""
    start = None
    n = len(seg.lines)
    lines = seg.lines
    for i in range(n + 1):
        free = (i < n and (seg.offset + i) not in claimed and (seg.offset + i) not in hunks
                and (lines[i].strip() or 0 < i < n - 1 and BULLET_KV.match(lines[i - 1])
                     and BULLET_KV.match(lines[i + 1])
                     or 0 < i < n - 1 and _REST_OPTION.match(lines[i - 1]) and lines[i + 1].strip()))
        if free and start is None:
            start = i
        elif not free and start is not None:
            yield start, min(i, start + MAX_BLOCK_LINES)
            start = None


def _tables_across_blanks(lines: list[str], blocks: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Paragraphs joined where one table goes on after a blank line: the first line of the next
    paragraph is cut into the same columns as the last line of this one (heads, then groups of
    rows with a blank line between each)."""
    out: list[tuple[int, int]] = []
    for lo, hi in blocks:
        first = lo + 1 if lo + 1 < hi and lone_label(lines[lo]) else lo  # `direct` over `submit  128K ...`
        if out and 0 < lo - out[-1][1] <= 1 and hi - out[-1][0] <= MAX_BLOCK_LINES \
                and (any(aligned(lines[k], lines[first]) for k in range(max(out[-1][0], out[-1][1] - 3), out[-1][1]))
                     or out[-1][1] - out[-1][0] >= 2 and row_head(lines[out[-1][1] - 1])):  # heads, `threads`, a blank
            out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def read(segs: list[Segment], subject: str | None, claimed: dict[int, str],
         ) -> tuple[list[HandRun], list[Explained]]:
    """Runs of hand-made layouts outside `claimed` (absolute line number -> benchmark a parser read).

    The caller gates: only posts with benchmark evidence (`evidence.has_evidence`) come here.
    """
    explained: list[Explained] = []
    segs = [seg if (lines := rejoin(seg.lines, {k - seg.offset for k in claimed
                                                 if 0 <= k - seg.offset < len(seg.lines)})) is seg.lines
            else replace(seg, lines=lines) for seg in segs]  # table rows a mailer broke, whole again
    plain = [line for seg in segs for line in seg.lines]
    hunks = {k for k in hunk_lines(plain)}
    out, lkp_lines = _lkp_tables(segs, explained)
    normalized, normalized_lines = _normalized_reports(segs, explained)
    out += normalized
    held = {**lkp_lines, **normalized_lines}  # lines the report readers hold: no other reader looks
    for seg in segs:
        pair_runs, pair_lines = _pair_tables(seg, plain, subject, explained)
        slash_runs, slash_lines = _slash_tables(seg, plain, subject, explained)
        out.extend(HandRun(seg, r) for r in (*pair_runs, *slash_runs))
        for lo, hi in _tables_across_blanks(seg.lines, _blocks(seg, {**claimed, **pair_lines, **slash_lines, **held},
                                                                  hunks)):
            block = decimal_commas([_NBSP.sub(" ", x) if len(x) <= MAX_LINE else "" for x in seg.lines[lo:hi]])
            if not any(_NUMBERISH.search(x) for x in block) or not any(
                    _CANDIDATE.search(x) or _LABEL_LAST.match(x) for x in block):
                continue  # no line could be a table row, a key: value line or a sentence with results
            abs_lo = seg.offset + lo
            why = noise_block("\n".join(block))
            if why:
                explained.append(Explained(abs_lo, seg.offset + hi, "not results", outcome=f"nothing: looks like {why!r}",
                                          quoted=seg.quoted))
                continue
            clean = join_lone_labels(unwrap(["" if noise_line(x) else x
                                             for x in drop_row_remarks(drop_link_column(comma_columns(block)))]))
            beside = {claimed[k] for k in (abs_lo - 1, seg.offset + hi)
                      if k in claimed}
            runs = _read_block(seg, lo, clean, plain, subject, explained, raw=block)
            if beside:  # what a parser left of its own tool's output is its call, not a hand table
                kept = [r for r in runs if r.benchmark not in beside or r.results[0].layout == "key_value"]
                for r in runs:
                    if r not in kept:
                        explained.append(Explained(seg.offset + r.line_start, seg.offset + r.line_end,
                                                   "beside tool output", r.benchmark,
                                                   f"the {r.benchmark} parser read the lines next to it",
                                                   outcome="nothing: left to the parser", quoted=seg.quoted))
                runs = kept
            out.extend(HandRun(seg, r) for r in runs)
    for hr in out:
        _heads_far_above(hr.segment, hr.run)
    return out, explained


_HEADS_REACH = 250  # lines above a table searched for the heads of an earlier part of it (mmtests reports)
_SYSTEM_TOKEN = re.compile(r"(?i)^(?:v?\d{1,2}\.\d{1,2}[\w.+-]{0,30}+|(?:un)?patched\w{0,10}+|vanilla\w{0,10}+"
                           r"|base(?:line)?\w{0,10}+|stock|mainline|upstream|before|after|old|new)$")


def _heads_far_above(seg: Segment, run: Run) -> None:
    """A hand table in sections under one line of heads (`2.5.54mm2  2.5.54` over `=====`, then a
    caption and rows per section, each row a label and one value per head): the rows of a later
    section name no system, and their values are the heads', in order. Only a line of as many
    release-like heads (or base/patched words) as each row has values, with nothing but rules,
    section captions and rows of that many values between, is taken."""
    if run.system or not run.results or any(r.system for r in run.results) \
            or any(r.layout != "hand_table" for r in run.results):
        return
    per_line: dict[int, list[Result]] = {}
    for r in run.results:
        if r.line is None:
            return
        per_line.setdefault(r.line, []).append(r)
    widths = {len(v) for v in per_line.values()}
    if len(widths) != 1 or (k := widths.pop()) < 2:
        return
    for j in range(run.line_start - 1, max(-1, run.line_start - 1 - _HEADS_REACH), -1):
        text = seg.lines[j].strip().lstrip(">").strip()
        if not text or RULE.match(text):
            continue
        cells = [c.text for c in split_wide(text.expandtabs()) if not RULE.match(c.text)]  # `=====  base  patched`
        if len(cells) == k and all(_SYSTEM_TOKEN.match(c) for c in cells) and len(set(cells)) == k:
            for row in per_line.values():
                for r, head in zip(row, cells, strict=True):
                    r.system = head
            return
        values = sum(1 for c in row_cells(text) if (n := read_number(c.text)) is not None and n[0] == "abs")
        if values not in (0, k, k + 1) or text.endswith((".", "!", "?")):
            return  # a row of another table (a number in a label aside), or a sentence: not this one's heads


# a metric named the robot's way: `hackbench.throughput_avg`, `lmbench3.PIPE.bandwidth.MB/sec`
_ROBOT_METRIC = r"(?P<tool>" + "|".join(sorted(LKP_BENCHMARKS)) + r")\.[A-Za-z_][\w./]{0,60}+"
_ROBOT_ROW = re.compile(r"(?m)[ \t]" + _ROBOT_METRIC + r"[ \t]*+$")  # ending a row of its table
_KPI = re.compile(r"(?<![\w.])" + _ROBOT_METRIC)  # in a caption (`the KPI used here is lmbench3.MMAP.read.latency.us`)


def _lkp_tables(segs: list[Segment], explained: list[Explained]) -> tuple[list[HandRun], dict[int, str]]:
    """The kernel test robot's comparison tables (transforms.handmade.lkp): one run per table piece
    and benchmark, and the absolute lines the report holds (its tables and, anywhere in the post,
    its `parameters:` list), which no other reader looks at."""
    if not any("%change" in seg.text or "TOTAL " in seg.text or "GEO-MEAN " in seg.text or _ROBOT_ROW.search(seg.text)
               for seg in segs):
        return [], {}
    out: list[HandRun] = []
    held: dict[int, str] = {}
    carry = None
    for seg in segs:
        lines = [x if len(x) <= MAX_LINE else "" for x in seg.lines]
        values, used, carry = read_lkp(lines, carry)
        for bench in dict.fromkeys(v.benchmark for v in values):
            mine = [v for v in values if v.benchmark == bench]
            lo, hi = min(v.line for v in mine), max(v.line for v in mine) + 1
            results = [_result(bench, v.line, v.label, v.value, v.unit, v.system, v.params, "tool_output")
                       for v in mine]
            out.append(HandRun(seg, _run(bench, results, lo, hi)))
            explained.append(Explained(seg.offset + lo, seg.offset + hi, "kernel test robot comparison table",
                                       bench, f"the testcase prefix `{bench}.` of its rows",
                                       sorted({v.system for v in mine}), f"{len(results)} rows", len(results),
                                       seg.quoted))
        if values or robot_heads(seg.lines, used):  # a writeback comparison that gave no value is left to the others
            held.update((seg.offset + k, "lkp") for k in used)
    if held:
        for seg in segs:
            held.update((seg.offset + k, "lkp") for k in parameter_list(seg.lines))
    return out, held


def _normalized_reports(segs: list[Segment], explained: list[Explained]) -> tuple[list[HandRun], dict[int, str]]:
    """Normalized comparison reports (transforms.handmade.normalized): one run per block and
    benchmark, and the absolute lines they hold, which no other reader looks at."""
    out: list[HandRun] = []
    held: dict[int, str] = {}
    for seg in segs:
        if "[pct imp](" not in seg.text:
            continue
        values, used = read_normalized([x if len(x) <= MAX_LINE else "" for x in seg.lines])
        blocks: dict[tuple[str, int], list] = {}
        for v in values:
            blocks.setdefault((v.benchmark, v.block), []).append(v)
        for (bench, _), mine in blocks.items():
            lo, hi = min(v.line for v in mine), max(v.line for v in mine) + 1
            results = [_result(bench, v.line, v.label, v.value, "", v.system, v.params, "hand_table") for v in mine]
            out.append(HandRun(seg, _run(bench, results, lo, hi)))
            explained.append(Explained(seg.offset + lo, seg.offset + hi, "normalized comparison report", bench,
                                       "the report's `Test :` line", sorted({v.system for v in mine}),
                                       f"{len(results)} rows", len(results), seg.quoted))
        held.update((seg.offset + k, "normalized") for k in used)
    return out, held


def _pair_tables(seg: Segment, plain: list[str], subject: str | None, explained: list[Explained],
                 ) -> tuple[list[Run], dict[int, str]]:
    """Slash-pair tables of a segment (transforms.handmade.pairs), blank lines between rows and all,
    and the absolute lines they hold (no other reader looks at them)."""
    if "/" not in seg.text or "(" not in seg.text:
        return [], {}
    values, used = read_pairs([x if len(x) <= MAX_LINE else "" for x in seg.lines])
    if not values:
        return [], {}
    span = (min(used), max(used) + 1)
    run = _attributed_run(seg, plain, subject, explained, span, "hand_table (slash pairs)",
                          sorted({v.system for v in values}), metrics.label_votes([v.key for v in values]),
                          lambda bench: [_result(bench, v.line, v.key, v.value, v.unit, v.system, v.params,
                                                 "hand_table") for v in values])
    if run is None:
        return [], {}
    return [run], {seg.offset + k: run.benchmark for k in used}


def _slash_tables(seg: Segment, plain: list[str], subject: str | None, explained: list[Explained],
                  ) -> tuple[list[Run], dict[int, str]]:
    """Slash tables of a segment (transforms.handmade.slashes), one run per table, and the
    absolute lines they hold (no other reader looks at them)."""
    if "/" not in seg.text:
        return [], {}
    values, used = read_slashes([x if len(x) <= MAX_LINE else "" for x in seg.lines])
    if not values:
        return [], {}
    span = (min(used), max(used) + 1)
    layout = "change_table" if all(v.change for v in values) else "hand_table"
    run = _attributed_run(seg, plain, subject, explained, span, f"{layout} (slash table)",
                          sorted({v.system for v in values if v.system}), metrics.label_votes([v.key for v in values]),
                          lambda bench: [_result(bench, v.line, v.key, v.value, v.unit, v.system, v.params,
                                                 "change_table" if v.change else "hand_table", change=v.change)
                                         for v in values])
    if run is None:
        return [], {}
    return [run], {seg.offset + k: run.benchmark for k in used}


def _attributed_run(seg: Segment, plain: list[str], subject: str | None, explained: list[Explained],
                    span: tuple[int, int], taken_for: str, systems: list[str], votes: Any,
                    build: Callable[[str], list[Result]], reach: int | None = None) -> Run | None:
    """The values on the segment's lines `span` as one run of the benchmark the nearest evidence
    names (`build` makes their results for it), or None without evidence; either way recorded
    for `--explain`. Summaries, prose and slash pairs are attributed alike."""
    lo, hi = seg.offset + span[0], seg.offset + span[1]
    extra = {} if reach is None else {"reach": reach}
    att = evidence.attribute(plain, lo, hi, subject, votes, **extra)
    ex = Explained(lo, hi, taken_for, quoted=seg.quoted, systems=systems)
    explained.append(ex)
    if att is None:
        ex.outcome = "nothing: no benchmark evidence"
        return None
    ex.benchmark, ex.evidence = att.benchmark, att.evidence
    results = build(att.benchmark)
    ex.rows, ex.outcome = len(results), f"{len(results)} rows"
    return _run(att.benchmark, results, span[0], span[1])


_PROGRAM = re.compile(r"(?:sudo[ \t]++(?:-\S++[ \t]++)*+)?+(?:\S*+/)?+(?P<name>[A-Za-z][\w.+-]{0,40}+)")
_PROGRAM_REACH = 3  # lines between a command and the table it printed (`Processed 1 file, ...`)


def _program_above(plain: list[str], start: int) -> str | None:
    """A program other than the benchmarks run at a prompt right above line `start` (`$ sudo compsize
    file`, `# numactl -H`): the table below is what it printed, not a result."""
    for k in range(start - 1, max(-1, start - 1 - _PROGRAM_REACH), -1):
        line = plain[k].lstrip("> \t")
        end = prompt_end(line)
        if end is None:
            continue
        command = line[end:]
        m = _PROGRAM.match(command)
        if m is None or evidence.benchmarks_in(command) or m["name"].lower() in _RUNNERS:
            return None
        return m["name"]
    return None


# what runs a benchmark rather than being one's output (`./run.sh`, `time make`, `taskset -c 0 ...`)
_RUNNERS = frozenset({"taskset", "numactl", "time", "perf", "nice", "chrt", "env", "for", "while", "bash", "sh",
                      "make", "cd", "echo", "sync", "ionice", "cgexec", "systemd-run", "ssh", "docker", "podman"})


_CONDITION_WORD = re.compile(r"(?i)^(?:before|after|with(?:out)?|w/o?)\b")


def _caption_system(lines: list[str], start: int, seg: Segment, lo: int) -> str | None:
    """A label line standing just above a table (`2.6.24-rc3:`, `guest:`)."""
    cands = list(lines[:start]) if start > 0 else []
    if not cands:
        above = seg.lines[max(0, lo - 3):lo]
        cands = [x for x in above if x.strip()]
    for text in reversed(cands[-1:]):
        if keyed := keyed_system(text):
            return keyed  # `Kernel version: 2.4.19`: the value names the system
        label = system_label(text.strip())
        if label and evidence.benchmarks_in(label):
            label = tool_condition(label)  # `iperf3 without this patch:`: the tool, then what it ran on
        if label and not evidence.benchmarks_in(label) and len(label.split()) <= 4:
            return label
        alone = len(cands) < 2 or not cands[-2].strip()
        if label is None and alone and (named := names_system(text)) and _CONDITION_WORD.match(named) \
                and not evidence.benchmarks_in(named):
            return named  # `Before the fix` alone over the table's heads: the condition it ran in
    return None


def _under(outer: dict[int, str], labels: list[int], kv: KeyValue, named: str | None, bench: str,
           ) -> tuple[str | None, dict[str, str]]:
    """A line's system and params: under a label indented beneath another (`* rtl8xxxu:` /
    `  with 802.11n:`), the outer label is the system and the inner one the case it ran in."""
    params = {**(commands.command_params(kv.key, bench) or {}), **kv.params}
    inner = max((i for i in labels if i < kv.line), default=None)
    if kv.system and inner in outer:
        return outer[inner], {**params, "case": kv.system}
    return kv.system or named, params


def _read_block(seg: Segment, lo: int, block: list[str], plain: list[str], subject: str | None,
                explained: list[Explained], raw: list[str] | None = None) -> list[Run]:
    abs_lo = seg.offset + lo
    runs: list[Run] = []
    taken: set[int] = set()
    cmd_values, cmd_lines = read_commands(raw or block)
    for bench in dict.fromkeys(c.benchmark for c in cmd_values):
        mine = [c for c in cmd_values if c.benchmark == bench]
        first, last = min(c.line for c in mine), max(c.line for c in mine) + 1
        results = [_result(bench, lo + c.line, c.label, c.value, c.unit, c.system, c.params, "tool_output")
                   for c in mine]
        runs.append(_run(bench, results, lo + first, lo + last))
        explained.append(Explained(abs_lo + first, abs_lo + last, "command line, then its output", bench,
                                   "the command runs it", sorted({c.system for c in mine if c.system}),
                                   f"{len(results)} rows", len(results), seg.quoted))
    taken.update(cmd_lines)
    block = ["" if i in cmd_lines else x for i, x in enumerate(block)]
    rows_like = sum(1 for x in block if _ROW_END.search(x) or _LABEL_LAST.match(x))
    # `Elapsed: 137.92s User: 420.04s System: 38.43s CPU: 332.4%`: a line of pairs is the summaries' to read
    table_lines = ["" if _bare_command(x) or key_pairs(x) is not None or stat_pairs(x) is not None or before_after(x)
                   else x
                   for x in _counts_heads(block)] \
        if rows_like else block
    table_metric: dict[int, tuple[str, str, str | None]] = {}
    for t in read_tables(table_lines) if rows_like else ():
        table_runs, ex = _table_run(seg, lo, block, t, plain, subject, explained)
        read_lines = {r.line - lo for run in table_runs for r in run.results if r.line is not None}
        # `leiming: 674 -> 849` among the rows of `5.12-rc1: 667`: a row the table read not, with an
        # arrow, is a value and the value it became; the prose reader below reads it, as the table's metric
        arrowed = {k for k in range(t.start, t.end) if k not in read_lines
                   and (ARROW_WORD.search(block[k]) or FROM_CHANGE.search(block[k]))}  # (`goes from 10.7 gbps to 7`)
        one = {(r.metric_label or r.metric, r.unit, r.params.get("scale")) for run in table_runs for r in run.results}
        if len(one) == 1:
            table_metric.update(dict.fromkeys(arrowed, one.pop()))
        taken.update(k for k in range(t.start, t.end) if k not in arrowed)
        explained.append(ex)
        runs.extend(table_runs)
    kvs, labels = read_summaries(block, taken)
    if kvs:
        span = (min(k.line for k in kvs), max(k.line for k in kvs) + 1)

        def summary(bench: str) -> list[Result]:
            above = _line_above(plain[max(0, abs_lo - 3):abs_lo + span[0]], 3 + span[0])
            caption = metrics.metric_in(bench, above)
            if caption is None and any(not k.key for k in kvs):
                caption = _measured_caption(above)  # `< UDP TX by iperf3 >` over `before:` / `after:`
            # lines with no label of their own are named by the caption above them (`and with the patch:`)
            named = None if all(k.system for k in kvs) else (
                label_right_above(seg.lines, lo + span[0]) if len({k.key for k in kvs}) == 1 else None
            ) or naming_caption(seg.lines, lo + span[0], 0, seg.before)
            outer = {i: o for i in labels if (o := outer_label(seg.lines, lo + i))}
            return [_result(bench, lo + k.line, k.key or caption, k.value, k.unit, *_under(outer, labels, k, named, bench),
                            "key_value", change=k.change) for k in kvs]

        run = _attributed_run(seg, plain, subject, explained, (lo + span[0], lo + span[1]), "key_value summary",
                              sorted({k.system for k in kvs if k.system}), metrics.label_votes([k.key for k in kvs]),
                              summary)
        if run:  # `Elapsed: 137.92s ...` twice under `2.6.3:`: the same summary again, params `repeat`
            number_repeated_results([run])
        runs.extend([run] if run else [])
        taken.update(k.line for k in kvs)
        taken.update(labels)
    prose = read_prose(block, taken)
    for line in sorted({p.line for p in prose}):
        vals = [p for p in prose if p.line == line]
        if line in table_metric:
            label, unit, scale = table_metric[line]
            for p in vals:
                if p.label is None and p.unit is None:
                    p.label, p.unit, p.scale = label, unit, p.scale or scale
        if any(p.when and not p.system for p in vals) and (legend := arrow_legend(plain, abs_lo + line)):
            for p in vals:  # `(generic --> native)` above `102.27 --> 99.50`: the two sides named once
                p.system = p.system or (legend[0] if p.when == "before" else legend[1] if p.when == "after" else None)
        run = _attributed_run(seg, plain, subject, explained, (lo + line, lo + line + 1), "prose",
                              [p.system for p in vals if p.system], None,
                              lambda bench, vals=vals, line=line: [
                                  _result(bench, lo + line, p.label, p.value, p.unit or p.scale, p.system,
                                          _prose_params(p), "hand_table" if line in table_metric else "prose")
                                  for p in vals],
                              reach=15)
        runs.extend([run] if run else [])
    return runs


def _prose_params(p: ProseValue) -> dict[str, str]:
    """The setting it ran at, before or after, and the scale printed with a unit (`20k IOPS`: 20 IOPS
    at scale k)."""
    return {**(dict([p.setting]) if p.setting else {}), **({"when": p.when} if p.when else {}),
            **({"scale": p.scale} if p.unit and p.scale else {})}


_BY = frozenset({"by", "with", "using", "via", "from"})


def _measured_caption(text: str | None) -> str | None:
    """What a caption says was measured, its marks and the tool it was measured by left off
    (`< UDP TX by iperf3 >` -> `UDP TX`); None when that leaves no short label."""
    if not text or len(text) > 80:
        return None
    words = text.strip(" \t<>[]*=#:-").split()
    if len(words) >= 3 and words[-2].lower() in _BY and evidence.benchmarks_in(words[-1]):
        words = words[:-2]  # `UDP TX by iperf3`: the tool it was measured by
    bare = " ".join(words)
    return bare if bare and len(words) <= 4 and not evidence.benchmarks_in(bare) else None


def _bare_command(line: str) -> bool:
    """`./hackbench 50 process 1000`: a command whose last number is its own argument, no row."""
    if not line or not line[-1:].isdigit() or len(line) > 300:
        return False
    ran = commands.command_of(line)
    return ran is not None and bool(ran[1]) and line.split()[-1] == ran[1][-1]


_LEGEND = re.compile(r"^[^\d:]{0,40}:\s*(?P<names>[^\d/]{1,40}(?:/[^\d/]{1,40}){1,5})$")


def _legend(lines: list[str]) -> list[str] | None:
    """`test : standard kernel / kernel after patch`: the systems of slash-separated columns."""
    for line in reversed(lines):
        m = _LEGEND.match(line.strip())
        if m:
            return [x.strip() for x in m.group("names").split("/")]
    return None


# `UnixBench index scores, 6.5 vs 6.5+patch:`: the columns below, named in order
_VERSUS_NAMES = re.compile(r"(?i)(?:^|[\s,(])(?P<names>[\w.+/-]{1,40}+(?:[ \t]++vs\.?[ \t]++[\w.+/-]{1,40}+){1,3}+)[ \t]*+\)?:?$")


_VS_WORD = re.compile(r"(?i)(?<![ \t])[ \t]++vs\.?[ \t]++")


def _versus_legend(lines: list[str], ncols: int) -> list[str] | None:
    """The names a caption right above a headless table sets against each other (`6.5 vs 6.5+patch`),
    one per value column, in order."""
    text = next((x.strip() for x in reversed(lines) if x.strip()), "")
    m = _VERSUS_NAMES.search(text) if len(text) <= 200 else None
    names = _VS_WORD.split(m["names"]) if m else []
    return names if len(names) == ncols >= 2 else None


_STAT_OF = re.compile(r"(?i)^(?:sum|average|avg|mean|max|min|total|count)[ \t]++of[ \t]++")


def _counter_of(label: str) -> str:
    """The counter a row is about: `Sum of wait_sum` (a spreadsheet's pivot of schedstats) ->
    `wait_sum`; any other label as it is."""
    return _STAT_OF.sub("", label.rstrip(" -:"), count=1)


_COUNTER = re.compile(r"^(?:\[\w{1,8}\])?[A-Za-z][A-Za-z0-9]{0,30}(?:_[A-Za-z0-9]{1,30}){1,6}$")  # `[a]request_count`


_OPTIONS_LINE = re.compile(r"^--?[A-Za-z][\w-]{0,30}+(?:[= ]\S{1,40}+)?(?:[ \t]++\S{1,40}+){0,12}$")
_OPTION = re.compile(r"(?<!\S)--(?P<opt>[A-Za-z][\w-]{0,30}+)=(?P<val>[^\s$]{1,40}+)")
_SYSBENCH_TEST = re.compile(r"--test=(?P<t>[A-Za-z]\w{1,20}+)")
_SHELL_OPTION = re.compile(r"(?<!\S)--?(?P<opt>[A-Za-z][\w-]{0,30}+)[= ](?P<var>\$\w{1,20}+)(?!\w)")


def _options_of(lines: Sequence[str], names: set[str]) -> dict[str, str]:
    """Shell variables (`$thr`) -> the option a command above sets with them (`--num-threads=$thr`
    -> `threads`)."""
    out: dict[str, str] = {}
    for line in lines:
        for m in _SHELL_OPTION.finditer(line):
            if m.group("var") in names:
                out[m.group("var")] = m.group("opt").removeprefix("num-")
    return out


_OLTP = re.compile(r"\b(?:oltp|mysql|mariadb|postgres(?:ql)?)\b", re.I)


def _sysbench_test(lines: Sequence[str]) -> str | None:
    """sysbench's test named in the command above a table (`--test=threads`)."""
    for line in reversed(lines):
        m = _SYSBENCH_TEST.search(line)
        if m:
            return m.group("t")
    return None


_KEY_NUMBER = re.compile(r"^[^:\d]{1,40}:\s*+[-+]?\d")  # `patch:  50174±9.5%`: a row of a table above, no caption


def _names_only(heads: list) -> bool:
    """Column heads that are all names (a letter, no number, short, no rule): heads of systems."""
    return all(re.search(r"[A-Za-z]", h.text) and read_number(h.text) is None and len(h.text) <= 40
               and not RULE.match(h.text) for h in heads)


def _distant_header(plain: list[str], start: int, ncols: int) -> list[str] | None:
    """Column heads written once over several captioned groups of rows (`2.6.12-rc6-RT   2.6.12-rc6`
    underlined, then `./hackbench 30` / `1st run:  6.139  5.110` ...): the systems of the columns.
    Only a row of as many names as columns, none a number, underlined by as many rules, counts."""
    if ncols < 2:
        return None
    for k in range(start - 1, max(-1, start - 25), -1):
        text = plain[k].strip()
        if not text or not RULE.match(text) or k == 0:
            continue
        rules = [c for c in split_wide(plain[k]) if set(c.text) <= set("-=_~ ")]
        heads = split_wide(plain[k - 1])
        if len(rules) != ncols or len(heads) != ncols or not plain[k - 1].strip():
            continue
        if _names_only(heads):
            return [h.text for h in heads]
    return None


def _header_row(plain: list[str], start: int, ncols: int, post_wide: bool = False) -> list[str] | None:
    """Column heads written once and left off a headless table below: the nearest row above of as
    many names as value columns (change and spread heads aside) that heads a row of numbers.
    Within a section (`tip/sched/core  w/ this patchset  improvement`, then `hackbench -l ...` /
    `1 groups  1.579  1.410` ... `dbench` / ...), with no sentence between. Post-wide, tried when
    the section has none (`schbench -t 400   upstream   +series` over the first tables, then
    `Process 10 groups   2.84   2.62`): past sentences, a caption cell before the names aside."""
    if ncols < 2:
        return None
    for k in range(start - 1, max(-1, start - (120 if post_wide else 40)), -1):
        text = plain[k].strip()
        if not text or RULE.match(text):
            continue
        if not post_wide and (text.endswith((".", ":")) and len(text.split()) > 3 or len(text.split()) > 12):
            return None  # a sentence: the section ended above
        cells = [h for h in split_wide(plain[k]) if not CHANGE_HEAD.match(h.text) and not STDEV_HEAD.match(h.text)]
        if cells and (lead := param_lead(cells[0])) is not None:
            cells[0] = lead[1]  # `pkt_size before opt   p 1`: the rows' parameter, then the first head
        if len(cells) != ncols and not (post_wide and len(cells) == ncols + 1):
            continue
        heads = cells[-ncols:]
        nxt = next((plain[j] for j in range(k + 1, min(len(plain), k + 3)) if plain[j].strip()
                    and not RULE.match(plain[j].strip())), "")
        if not re.search(r"\d", nxt) or not _names_only(heads):
            continue
        if any(metrics.any_metric(h.text) for h in heads):
            return None  # heads of metrics (`Throughput  Latency`): that table is another shape
        return [h.text for h in heads]
    return None


# `[Gbps]`, `(MB/s)`, `[Mbps / (%CPU_Host + %CPU_Guest)]`: a unit set apart in a heading
_BRACKETED = re.compile(r"\[([^\[\]\n]{1,60})\]|\(([^()\n]{1,24})\)")
_DIRECTION = re.compile(r"\S{1,30}[ \t]*+" + ARROW + r"[ \t]*+\S{1,30}")  # `host -> guest`


def _unit_heading(plain: list[str], start: int) -> tuple[str | None, str | None, str | None] | None:
    """(unit, metric, direction) a short heading names in the few lines just above a table whose heads stand
    apart from its rows (`host -> guest [Gbps]`, the heads, a blank line, the rows): a bracketed
    unit, and the heading's other words, a direction (`host -> guest`) aside, as what the values
    are (`efficiency` over `[Mbps / (%CPU_Host + %CPU_Guest)]`, a ratio: no unit of its own).
    None past a sentence, or when no heading names a unit."""
    seen = 0
    for k in range(start - 1, max(-1, start - 6), -1):
        text = plain[k].strip()
        if not text or RULE.match(text):
            continue
        if len(text.split()) > 12 or text.endswith("."):
            return None
        for m in _BRACKETED.finditer(text):
            inside = (m.group(1) or m.group(2)).strip()
            u = unit_in(inside)
            if u is None or u == "%":
                continue  # `[1]`, `25%`: no unit set apart
            rest = text[: m.start()] + " " + text[m.end():]
            words = _DIRECTION.sub(" ", rest).split()
            way = _DIRECTION.search(rest)
            return (u if len(inside.split()) == 1 else None), (" ".join(words) or None), (way.group(0) if way else None)
        seen += 1
        if seen >= 2:
            return None
    return None


_IN_UNIT = re.compile(r"(?i)\b(?:times|latenc(?:y|ies)|bandwidths?|throughput|rates?|results?|numbers|figures|values)"
                      r"[ \t]++(?:are[ \t]++)?in[ \t]++(?P<unit>[A-Za-z/%µ]{1,12}+)\b")


# `iperf3 TCP, Gbits/sec`: a heading's last part, after a comma, a unit alone
_UNIT_LAST = re.compile(r",[ \t]*+(?P<unit>[A-Za-z/%µ]{1,12}+)[ \t]*+:?$")
# `Below the kIOPS measured with fio ...:`: the unit as what was measured
_UNIT_MEASURED = re.compile(r"(?i)\bthe[ \t]++(?P<unit>[A-Za-z/%µ]{1,12}+)[ \t]++(?:measured|reported|achieved|obtained)\b")


def _unit_said_above(plain: list[str], start: int) -> str | None:
    """The unit a heading over the table says its figures are in (`times in microseconds`,
    `bandwidth in MB/s`, `the kIOPS measured`, `iperf3 TCP, Gbits/sec`), the nearest line of words above (rules and the table's own head lines
    aside, none a sentence) when it says so."""
    seen = 0
    for k in range(start - 1, max(-1, start - 9), -1):
        text = plain[k].strip()
        if not text or RULE.match(text) or text.count("|") >= 3:  # (a pipe table's head lines)
            continue
        seen += 1
        if seen > 4 or text.endswith(".") or len(text.split()) > 14:
            return None
        m = _IN_UNIT.search(text) or _UNIT_MEASURED.search(text) or _UNIT_LAST.search(text)
        if m:
            u = unit_in(m.group("unit"))
            return u if u not in (None, "%", "x") else None
    return None


# `The 'Metric' is the average time in seconds to ...`: a head of the table, quoted, said to be in a unit
_HEAD_DEFINED = re.compile(r"""(?i)['"`](?P<head>[A-Za-z][\w %()/-]{0,30}?)['"`][ \t]++(?:is|are|gives?|shows?)\b"""
                           r"[^.;:]{0,80}?\bin[ \t]++(?P<unit>[A-Za-z/%µ]{1,12}+)\b")
_DEFINED_REACH = 40  # lines above a table where its heads may be said what they hold


def _head_units(plain: list[str], start: int, heads: list[str]) -> dict[str, str]:
    """Heads of the table that a sentence above says what they hold (`The 'Metric' is the average time
    in seconds`), with the unit it says: the report's own key to its columns."""
    text = " ".join(plain[max(0, start - _DEFINED_REACH):start])
    if "in " not in text:
        return {}
    wanted = {h.strip().lower(): h for h in heads if h}
    out: dict[str, str] = {}
    for m in _HEAD_DEFINED.finditer(text):
        head = wanted.get(m.group("head").strip().lower())
        u = unit_in(m.group("unit"))
        if head and u not in (None, "%", "x"):
            out[head] = u
    return out


def _heading_above(plain: list[str], start: int) -> str | None:
    """The nearest line above that is no table row, no group's parameter (`25%`, `group=8`) and no
    rule: the heading a run of small groups shares (`netperf/udp_rr on ICL`)."""
    for k in range(start - 1, max(-1, start - 60), -1):
        text = plain[k].strip()
        if not text or RULE.match(text) or _ROW_END.search(text) or _KEY_NUMBER.match(text):
            continue
        return None if len(text.split()) > 8 else text
    return None


_ASIDE = re.compile(r"^(?P<core>[^()]{1,200}?)\s*+\((?:all |mostly )?(?:in |within )?(?:the )?noise"
                    r"(?: range| level)?\)\s*+:?$", re.I)


def _without_aside(heading: str) -> str:
    """A heading without the poster's verdict after it (`netperf/tcp_stream on ICL (all in noise
    range)`): the remark judges the figures, it does not name what was measured."""
    m = _ASIDE.match(heading.strip())
    return m.group("core") if m else heading


def _line_below(plain: list[str], end: int) -> str:
    """The paragraph right after a table (its first three lines), where posters say what it was;
    nothing when a banner opens the next section there (`~~~~` over `~ schbench ~`)."""
    k = end
    while k < len(plain) and k < end + 3 and not plain[k].strip():
        k += 1
    if k < len(plain) and plain[k].strip() and RULE.match(plain[k]):
        return ""
    return " ".join(x.strip() for x in plain[k:k + 3])[:600]


# `Test          : DeathStarBench`: one name (a table's own head row `Test:  base  patched` is none)
_TEST_KEY = re.compile(r"^[ \t]*+Test[ \t]*+:[ \t]*+(\S++(?: \S++){0,2}+)[ \t]*+$")


def _names_first(tested: str, bench: str) -> bool:
    """`stream-10`, `tbench4`... name `bench` first (a variant of it)."""
    low = tested.lower()
    return low.startswith(bench) and (len(low) == len(bench) or not low[len(bench)].isalpha())


def _report_test(above: list[str]) -> str | None:
    """What a report's key block right above a table says it tested (`Test : DeathStarBench` over
    `Units`, `Interpretation`, `Statistic`): the nearest `Test :` line of the last eight, if any."""
    for line in reversed(above[-8:]):
        if m := _TEST_KEY.match(line):
            return m.group(1).strip()
    return None


def _table_row_above(plain: list[str], start: int) -> bool:
    """The nearest text line above `start` (within three) and the line over it both end in a figure:
    rows of another table."""
    k = next((k for k in range(start - 1, max(-1, start - 4), -1) if plain[k].strip()), None)
    return k is not None and k > 0 and all(_ROW_END.search(plain[j]) for j in (k - 1, k))


def _line_above(block: list[str], start: int) -> str | None:
    for k in range(min(start, len(block)) - 1, -1, -1):
        text = block[k].strip().strip("#*").strip()
        if text and not RULE.match(text):
            return text
    return None


def _headed_by(plain: list[str], start: int, bench: str) -> bool:
    """A heading of its own just above a table (a line alone, or over a rule) names `bench`."""
    for k in range(start - 1, max(-1, start - 5), -1):
        text = plain[k].strip()
        if not text or RULE.match(text) or k == start - 1:
            continue  # the line right above may be the table's first header row
        alone = (k == 0 or not plain[k - 1].strip()) and (
            not plain[k + 1].strip() or RULE.match(plain[k + 1].strip()) or k + 1 >= start - 1)
        if alone and not text.endswith(".") and bench in evidence.benchmarks_in(text):
            return True
    return False


_SYMBOL = re.compile(r"^[._]{0,3}[a-z][a-z0-9]{0,40}(?:[_.][a-z0-9]{1,40}){1,8}$")  # `__mod_timer`, `.text.lock.fault`


def _table_run(seg: Segment, lo: int, block: list[str], t: Table, plain: list[str], subject: str | None,
               earlier: Sequence[Explained] = (),
               ) -> tuple[list[Run], Explained]:
    abs_lo = seg.offset + lo
    layout = "change_table" if t.change else "key_value" if t.kind == "key_value" else "hand_table"
    ex = Explained(abs_lo + t.start, abs_lo + t.end, f"{layout} ({t.kind}, {t.orientation})", quoted=seg.quoted)
    if not t.values:
        ex.outcome = "nothing: no value columns (only changes or deviations beside absolute values?)"
        return [], ex
    heads = [ln.split()[0] for ln in block[t.start:t.end] if ln.split()]
    if len(heads) >= 5 and 2 * sum(bool(_SYMBOL.match(x)) for x in heads) >= len(heads):
        ex.outcome = "nothing: its rows are named by kernel functions (a profile), not results"
        return [], ex
    votes = metrics.label_votes(t.all_labels())
    cap_lo = max(0, t.start - 2)
    if t.orientation == "rows=metrics" and _named_configurations(plain, t):
        for v in t.values:  # `16-plain: 1560.825`, the post having said what `"16-plain"` is
            v.system, v.label = (v.label or v.row).rstrip(": "), None
        t.orientation = "rows=systems"
    if t.kind == "key_value" and t.orientation == "rows=metrics":
        for v in t.values:
            if v.system is None and v.label and (dashed := where_then_what(v.label.rstrip(": "))):
                v.system, v.label = dashed  # `eMMC - Random Write: 21.3MiB/s`
    row_bench = _row_benchmarks(t)
    if "" in row_bench.values():
        t.values = [v for v in t.values if row_bench.get(v.row) != ""]  # rows of another tool's figures
    att = evidence.attribute(plain, abs_lo + cap_lo, abs_lo + t.end, subject, votes)
    if row_bench:  # `tbench-loopback ...` / `TCP_RR ...`: each row names its tool
        first = next(iter(row_bench.values()))
        att = evidence.Attribution(first, "each row names its benchmark")
    named_cols = [b for b in _col_benchmarks(t, "").values() if b]
    if len(set(named_cols)) >= 2 or att is None and named_cols:  # `dbench 8  tbench 8` over kernels
        att = evidence.Attribution(named_cols[0], "each column names its benchmark")
    if att is None and t.orientation == "rows=params" and (kin := _series_benchmark(plain, abs_lo + t.start, earlier)):
        att = evidence.Attribution(kin, "the next of a series of tables under settings of one key")
    if att is None and (kin := next((e.benchmark for e in earlier if e.rows and e.benchmark
                                     and _same_metrics(t, e.benchmark, plain, [e])
                                     and not evidence.names_other_tool(
                                         "\n".join(plain[e.line_end:abs_lo + t.start]), e.benchmark)), None)):
        # (no other tool named between them: `autonumabench` above a second `Duration User` table)
        att = evidence.Attribution(kin, f"its rows are those of a table read above as {kin}")
    if att is None:
        ex.outcome = "nothing: unattributed table (no benchmark evidence)"
        return [], ex
    bench = att.benchmark
    ex.benchmark, ex.evidence = bench, att.evidence
    heading = _line_above(block, t.start) or _line_above(plain[max(0, abs_lo - 3):abs_lo], 3)  # the line over the table
    other = evidence.other_benchmark(t.caption or heading)
    if other and bench == "kernbench" and re.match(r"(?i)compil|build", other):
        other = None  # kernbench is a kernel build
    if other and not att.evidence.startswith("named in the block"):
        ex.outcome = f"nothing: its caption names {other!r}, a benchmark not read here"
        return [], ex
    if not att.evidence.startswith(("named in the block", "each", "line")) \
            and (twin := _twin_left_unread(plain, abs_lo + t.start, earlier)) is not None:
        ex.outcome = f"nothing: its heads are those of the table at line {twin + 1}, left unread"
        return [], ex
    if att.evidence.startswith(("the post names only", "subject names")) \
            and (program := _program_above(plain, abs_lo + t.start)) is not None:
        ex.outcome = f"nothing: the output of `{program}`, run right above it"
        return [], ex
    if (tested := _report_test(block[:t.start] or plain[max(0, abs_lo - 8):abs_lo])) is not None \
            and bench not in evidence.benchmarks_in(tested) and not _names_first(tested, bench):
        ex.outcome = f"nothing: its report's `Test :` line names {tested!r}, not {bench}"
        return [], ex
    mapped = sum(metrics.canonical(bench, v.label or "") is not None for v in t.values)
    below = _line_below(plain, abs_lo + t.end)
    captioned = _headed_by(plain, abs_lo + t.start, bench)
    if below and not mapped and not captioned and not votes.get(bench) and not att.evidence.startswith(("named in the block", "each")) \
            and not evidence.benchmarks_in(below) and (named := evidence.other_benchmark(below)):
        ex.outcome = f"nothing: the text right below it is about {named!r}, and no {bench} metric is in it"
        return [], ex
    if any(v.label and _MMTESTS_MONITOR.match(v.label) for v in t.values):
        t.values = [v for v in t.values if not (v.label and _MMTESTS_MONITOR.match(v.label))]
        if not t.values:
            ex.outcome = "nothing: its rows are mmtests' vmstat counters (`Ops NUMA ...`), not results"
            return [], ex
    labels = {v.label for v in t.values if v.label}
    if labels and not mapped and not votes.get(bench) and 2 * sum(
            bool(_COUNTER.match(_counter_of(x))) and not metrics.any_metric(x)
            and not (bench == "fio" and _FIO_ENGINE.match(x)) for x in labels) >= len(labels):
        ex.outcome = "nothing: its rows are counters named like code (`request_count`), not results"
        return [], ex
    if t.group and t.caption is None:
        t.caption = _heading_above(plain, abs_lo + t.start)  # the groups' heading, paragraphs above
    near = bool(evidence.benchmarks_in("\n".join(plain[max(0, abs_lo + t.start - 10):abs_lo + t.end]))) \
        or bool(t.group and evidence.benchmarks_in(t.caption or ""))
    headed = not any(v.unit for v in t.values) and (not t.header or bool(RATIO_UNIT.search(t.caption or ""))) \
        and _unit_heading(plain, abs_lo + t.start)
    if headed:
        for v in t.values:  # `host -> guest [Gbps]` over the heads, a blank line, then the rows
            v.unit = v.unit or headed[0]
            v.label = v.label or headed[1]
            if headed[2]:
                v.params.setdefault("direction", headed[2])  # `host -> guest` tells the tables apart
    if not headed and not any(v.unit for v in t.values) and (said := _unit_said_above(plain, abs_lo + t.start)):
        for v in t.values:  # `Context switching with 4K - times in microseconds - smaller is better`
            v.unit = said
    if not any(v.unit for v in t.values) and (bracketed := _unit_heading(plain, abs_lo + t.start)) and bracketed[0]:
        for v in t.values:  # `tbench throughput (GB/sec):` over heads and rows: their unit, said once above
            v.unit = bracketed[0]
    if not any(v.unit for v in t.values) and (defined := _head_units(plain, abs_lo + t.start, t.header)):
        for v in t.values:  # `The 'Metric' is the average time in seconds` above `Kernel  Metric  Change (%)`
            v.unit = defined.get(v.label or "", v.unit)
    has_unit = bool(headed) or any(v.unit for v in t.values)
    if t.change and not (t.baseline or any(v.unit in ("%", "x") for v in t.values)
                         or any(re.search(r"%|diff|delta|change|gain|improv|speedup|ratio", h, re.I)
                                for h in t.header)):
        ex.outcome = "nothing: signed numbers without a %, a ratio or a change header are no changes"
        return [], ex
    series = bench == "lmbench" and (t.caption or "").startswith('"')  # lmbench's own `"title` format
    counted = att.evidence.startswith(("the post names only", "subject names")) and bench in _SERIES_PARAM \
        and all(any(k.rstrip("s") == _SERIES_PARAM[bench].rstrip("s") for k in v.params) for v in t.values)  # rows of `threads` in a sysbench post
    if not (near or has_unit or mapped or votes.get(bench) or t.change or series or counted
            or _sibling(t, bench, plain, earlier, abs_lo + t.start)
            or (t.orientation == "rows=params" and _next_of_series(plain, abs_lo + t.start, bench, earlier))
            or _same_rows(plain[abs_lo + t.start:abs_lo + t.end], bench, plain, earlier)
            or _same_metrics(t, bench, plain, earlier)):
        ex.outcome = f"nothing: {bench} named at a distance, but no unit or {bench} metric in the table"
        return [], ex
    caption_sys = _caption_system(block, t.start, seg, lo)
    baseline = None
    default_sys = caption_sys
    if test := io_test_label(_line_above(block, t.start) or ""):
        # `1) Sequential read:` over `Speed: 59.4MiB/s, ...`: the test measured, on the system named above it
        for v in t.values:
            v.label = f"{test} {v.label}" if v.label else test
        default_sys = default_sys or naming_caption(seg.lines, lo + t.start, 0, seg.before)
    if t.change:
        where = " ".join(x for x in (t.caption or "", *t.header) if x)
        baseline = t.baseline or evidence.baseline_named(where) or evidence.baseline_named(heading or "")
        if default_sys and baseline and evidence.baseline_named(default_sys) == baseline:
            default_sys = None  # `Changes relative to 6.8-rc1`: the caption names the baseline, not the system
        with_without = evidence.with_without(plain[: seg.offset + lo + t.start])
        if with_without is not None:
            default_sys = default_sys or with_without[0]
            baseline = baseline or with_without[1]
    elif t.normalised:
        baseline = t.baseline
    col_bench = _col_benchmarks(t, bench)
    results: list[Result] = []
    caption_metric = None
    if any(v.label is None for v in t.values):
        above = t.caption or heading or ""
        if not (t.caption or _line_above(block, t.start)) and _table_row_above(plain, abs_lo):
            above = ""  # the last row of the table before (`w25   2408853/232176`) captions nothing
        caption_metric = (above.strip('"') if series else None) or metrics.metric_in(bench, above) or (
            None if t.group else metrics.metric_in(
                bench, " ".join(x.strip(" #*") for x in plain[max(0, abs_lo + t.start - 8):abs_lo + t.start])))
        if caption_metric is None and (kpi := _KPI.search(above)) and LKP_BENCHMARKS.get(kpi.group("tool")) == bench:
            caption_metric = kpi.group(0).rstrip(".")  # `(the KPI used here is lmbench3.MMAP.read.latency.us)`: the robot's name for it
        said = _RESULTS_ARE.search(above) if caption_metric is None else None
        if said:  # `Here results are throughput (compilations per 1000 sec)`: the metric, said outright
            caption_metric = said.group("what")
            if (u := metrics.unit(said.group("unit").strip())) is not None:  # `(MB/s)`; `(compilations per 1000 sec)` is none
                for v in t.values:
                    v.unit = v.unit or u
        above = _without_aside(above)
        named = _RESULTS_OF.match(above.strip())
        if caption_metric is None and named and evidence.benchmarks_in(named.group("tool")) == [bench]:
            # `tbench results (node 0):`: the tool's results, an aside saying where they ran
            caption_metric = named.group("rest") or None
            aside = _ASIDE_PARAM.match(named.group("aside") or "")
            if aside:
                for v in t.values:
                    v.params.setdefault(aside.group("name").lower(), aside.group(0))
        elif caption_metric is None and setting_of(above.strip().rstrip(":")):
            pass  # `NPS=1` over the table: how every value of it ran (a param, set below), no metric
        elif caption_metric is None and _OPTIONS_LINE.match(above.strip()):
            # `--thread-yields=100 --thread-locks=2 run`, a command's wrapped options: how it ran
            options = {m.group("opt"): m.group("val") for m in _OPTION.finditer(above)}
            for v in t.values:
                v.params = {**options, **v.params}
            if bench == "sysbench":  # its test (`--test=threads`) is what it measured
                caption_metric = _sysbench_test(plain[max(0, abs_lo + t.start - 6):abs_lo + t.start])
        elif caption_metric is None and above and not (caption_sys and caption_sys in above) \
                and len(above.split()) <= 5 and not is_shell_syntax(above) and not _GENERIC_CAPTION.match(above) and not _KEY_NUMBER.match(above) \
                and not (generic_label(above.rstrip(":")) and not evidence.benchmarks_in(above)):
            # `Following are some performance data:` leads in; `dbench` alone says what was measured
            caption_metric = above.rstrip(":").strip('"')  # `hackbench -g $group`: what was measured
        if caption_metric is None and bench == "sysbench" and not any(v.unit for v in t.values) \
                and _OLTP.search("\n".join(plain)):
            caption_metric = "transactions"  # sysbench's OLTP test (MySQL, PostgreSQL) counts transactions
        if caption_metric is None and bench == "lmbench":  # `lmbench: ./lat_syscall -N 1000000 null:` a few lines up
            caption_metric = next((test for ln in reversed(plain[max(0, abs_lo + t.start - 16):abs_lo + t.start])
                                   if (test := commands.lmbench_test(ln))), None)
    if setting := setting_of((t.caption or _line_above(plain, abs_lo + t.start) or "").strip().rstrip(":")):
        for v in t.values:  # `o NPS4` over a table whose rows name their metric: still how it ran
            v.params.setdefault(*setting)
    shell_vars = {k for v in t.values for k in v.params if k.startswith("$")}
    if shell_vars:  # `$thr` over the rows: the option the command sets with it (`--num-threads=$thr`)
        named_by = _options_of(plain[max(0, abs_lo + t.start - 10):abs_lo + t.start], shell_vars)
        for v in t.values:
            v.params = {named_by.get(k, k): x for k, x in v.params.items()}
    if any(v.system is not None and not re.search(r"[A-Za-z]", v.system) and not _VERSION.match(v.system)
           and not (RELEASE_NUMBER.match(v.system) and v.system in t.header) for v in t.values):
        ex.outcome = "nothing: a column read as a system has no name (`111`, `/`): the table was misread"
        return [], ex
    legend = None
    if not t.header and all(v.system is None for v in t.values):
        legend = _legend(plain[max(0, abs_lo + t.start - 4):abs_lo + t.start])
        if legend is None and t.caption and t.caption.startswith('"'):  # a series under a legend above
            legend = _legend(plain[max(0, abs_lo + t.start - 40):abs_lo + t.start])
        ncols = len({v.col for v in t.values})
        if legend is None:
            legend = _versus_legend(plain[max(0, abs_lo + t.start - 3):abs_lo + t.start], ncols)
        if legend is None:
            legend = _distant_header(plain, abs_lo + t.start, ncols)
        if legend is None and caption_sys is None:
            legend = _header_row(plain, abs_lo + t.start, ncols) or _header_row(plain, abs_lo + t.start, ncols, True)
    kept_values = [v for v in t.values if col_bench.get(v.label or "", bench) is not None]
    if len(kept_values) < len(t.values):
        t.values = kept_values  # a column of another tool's figures (`turbostat PkgWatt`)
    for v in t.values:
        if v.row and row_bench.get(v.row) and v.system == v.row:
            v.system, v.label = None, v.label or v.row  # `tbench  +1.2%  +3.4%`: the row names what was measured
        if v.label is None and v.row and (v.params.get("case") != v.row or _names_first(v.row, bench)) \
                and evidence.benchmarks_in(v.row):
            v.label = v.row  # `tbench-loopback`: the row names the test that was measured
        system = v.system or (legend[v.col] if legend and 0 <= v.col < len(legend) else None) or default_sys
        params = {**t.group, **v.params}
        label = v.label or caption_metric
        if (ran := commands.command_params(label, bench)) is not None:
            params = {**ran, **params}  # `./hackbench 30` says how it ran (metrics.metric_for)
        if (t.change or t.normalised) and baseline:
            params["baseline"] = baseline
        if t.series == "instances" and "instances" in params and (count := _SERIES_PARAM.get(bench)):
            params[count] = params.pop("instances")  # mmtests' `Hmean  8`: tbench's clients, hackbench's groups
        results.append(_result(row_bench.get(v.row) or col_bench.get(v.label or "") or bench, lo + v.line, label, v.value,
                               v.unit, system, params, layout, change=t.change, statistic=v.statistic,
                               implied=not t.normalised))
    ex.systems = sorted({r.system for r in results if r.system})
    ex.rows, ex.outcome = len(results), f"{len(results)} rows"
    by_bench: dict[str, list[Result]] = {}
    for v, r in zip(t.values, results, strict=True):
        by_bench.setdefault(row_bench.get(v.row) or col_bench.get(v.label or "") or bench, []).append(r)
    return [_run(b, rs, lo + t.start, lo + t.end, caption=t.caption) for b, rs in by_bench.items()], ex


_CAPTION_KEY = re.compile(r"^[^\S\n]*+([A-Za-z][\w .-]{0,30}+):")


def _sibling(t: Table, bench: str, plain: list[str], earlier: Sequence[Explained], start: int) -> bool:
    """One of a series of tables under captions with the same key (`Kernel version: 2.4.19`, then
    `Kernel version: 2.5.34` ...): read as the first of them was, however far the tool was named."""
    m = _CAPTION_KEY.match(t.caption or "")
    if m is not None:
        key = _key_stem(m.group(1))
        for e in earlier:
            if e.rows and e.benchmark == bench and e.taken_for.startswith("hand_table") and e.line_start > 0:
                above = _CAPTION_KEY.match(plain[e.line_start - 1])
                if above and _key_stem(above.group(1)) == key:
                    return True
        return False
    # `KEY=y:` over the first table, `KEY=n:` over this one (a blank line under each)
    setting = setting_of((t.caption or _line_above(plain, start) or "").rstrip(":"))
    return setting is not None and any(
        e.rows and e.benchmark == bench and e.taken_for.startswith(("hand_table", "key_value"))
        and (above := setting_of((_line_above(plain, e.line_start) or "").rstrip(":")))
        and above[0].lower() == setting[0].lower() for e in earlier)


def _key_stem(key: str) -> str:
    """A caption's key without the figures that tell the tables of a series apart: `On numa 0` and
    `On numa 0-1` are both `on numa`."""
    words = key.strip().lower().split()
    while len(words) > 1 and any(ch.isdigit() for ch in words[-1]):
        words.pop()
    return " ".join(words)


def _head_line(plain: list[str], start: int) -> str | None:
    """A table's head line, spaced as one and lower-cased, to compare with another's; None under
    three words (too little to tell two tables' heads apart). A head of two words under a line of
    heads (`5.13.0-rc1  5.13.0-rc1` over `vanilla  sched-v3r1`) is read with that line."""
    head = " ".join(plain[start].split()).lower() if start < len(plain) else ""
    if len(head.split()) == 2 and start > 0 and plain[start - 1].strip(" >\t") and not _FIGURE.search(plain[start - 1]):
        head = f"{' '.join(plain[start - 1].split()).lower()} {head}"
    return head if len(head.split()) >= 3 else None


_FIGURE = re.compile(r"(?<![\w.-])\d++(?:\.\d++)?+(?![\w.-])")  # a number standing alone, no release


def _next_of_series(plain: list[str], start: int, bench: str, earlier: Sequence[Explained]) -> bool:
    """The table at `start` follows one read as `bench` with the same head line (three words or
    more), only blank lines and a short caption between them (`NPS=2`, then `NPS=4`, each over
    `Clients:  tip/sched/core  mel-v3  mel-v4`): the next of a series, however far above the tool
    was named."""
    upper = " ".join(plain[start - 1].split()) if start > 0 and not _FIGURE.search(plain[start - 1]) else None
    for e, same, between in _series_before(plain, start, earlier):
        if e.benchmark != bench:
            continue
        if between and upper and " ".join(between[-1].split()) == upper:
            between = between[:-1]  # the table's own upper line of heads
        if same and start <= e.line_end + 6 and len(between) <= 1 \
                and all(len(x) <= 40 and not x.endswith(".") for x in between):
            return True
        if same and start <= e.line_end + 8 and len(between) == 2 and len(between[1]) <= 40 \
                and _first_word(plain, start + 1) == _first_word(plain, e.line_start + 1) is not None \
                and all(len(x) <= 60 and not x.endswith(".") and set(evidence.benchmarks_in(x)) <= {bench}
                        and evidence.other_benchmark(x) is None for x in between):
            return True  # `Small losses, higher system CPU usage (not shown)`, then `2-socket Cascadelake`,
            # over rows labelled as the earlier table's (`Hmean  1  591.86 ...`)
        if _settings_series(plain, start, e, earlier, between):
            return True
    return False


def _first_word(plain: list[str], k: int) -> str | None:
    """The first word of line `k` when it is no figure (a row's label: `Hmean`)."""
    words = plain[k].split() if k < len(plain) else []
    return words[0].lower() if words and not _FIGURE.fullmatch(words[0]) else None


def _series_before(plain: list[str], start: int, earlier: Sequence[Explained],
                   ) -> Iterator[tuple[Explained, bool, list[str]]]:
    """Earlier hand tables with rows whose head line the table at `start` repeats or extends (a column
    more, `mel-v4.2` added), nearest last: each, whether the heads are the same, and the lines between."""
    head = _head_line(plain, start)
    if head is None:
        return
    for e in earlier:
        first = _head_line(plain, e.line_start)
        if e.rows and e.benchmark and e.taken_for.startswith("hand_table") and e.line_end <= start \
                and first is not None and (head == first or head.startswith(first + " ")):
            yield e, head == first, [x.strip(" >\t") for x in plain[e.line_end:start] if x.strip(" >\t")]


def _settings_series(plain: list[str], start: int, e: Explained, earlier: Sequence[Explained],
                     between: list[str]) -> bool:
    """The table at `start` and the earlier one `e` each stand under a setting of the same key (`NPS=1`,
    `NPS=2`), at most `_SERIES_REACH` lines apart, with only the discussion of `e`'s tool between."""
    bench = e.benchmark
    mine, theirs = _setting_above(plain, start), _setting_above(plain, e.line_start)
    return mine is not None and theirs is not None and mine[0] == theirs[0] and mine[1] != theirs[1] \
        and start - e.line_end <= _SERIES_REACH and not any(
            x.rows and x.benchmark != bench and e.line_end <= x.line_start < start for x in earlier) \
        and all(set(evidence.benchmarks_in(x)) <= {bench} and evidence.other_benchmark(x) is None for x in between)


def _series_benchmark(plain: list[str], start: int, earlier: Sequence[Explained]) -> str | None:
    """The tool of the series a table with no evidence of its own continues: the nearest earlier table
    whose head line it repeats or extends, each under a setting of the same key (`NPS=2`, then `NPS=4`)."""
    found = list(_series_before(plain, start, earlier))
    if not found:
        return None
    e, _, between = found[-1]
    return e.benchmark if _settings_series(plain, start, e, earlier, between) else None


_SERIES_REACH = 60  # lines from one table of a series to the next, discussion between


def _setting_above(plain: list[str], start: int) -> tuple[str, str] | None:
    """The `key=value` caption right above a table's head (`NPS=2`, underlined or not)."""
    for k in range(start - 1, max(-1, start - 3), -1):
        text = plain[k].strip(" >\t").rstrip(":")
        if not text or RULE.match(text):
            continue
        setting = setting_of(text)
        return (setting[0].lower(), setting[1]) if setting else None
    return None


def _twin_left_unread(plain: list[str], start: int, earlier: Sequence[Explained]) -> int | None:
    """The first line of an earlier table of this post with the same head line as the table at
    `start` (three words or more) that was left unread for want of evidence or for another
    tool's name (tiobench's tables, one per test, only the first near its name): this one too."""
    head = _head_line(plain, start)
    if head is None:
        return None
    for e in earlier:
        if not e.rows and e.outcome.startswith(("nothing: unattributed", "nothing: its caption names")) \
                and e.line_start < start and _head_line(plain, e.line_start) == head:
            return e.line_start
    return None


def _row_heads(lines: Sequence[str]) -> set[str]:
    """Row heads that are measurement points (`1-groups`, `16-groups`: a number and a word)."""
    heads = {x.split()[0].rstrip(":").lower() for x in lines if x.split()}
    return {h for h in heads if any(c.isdigit() for c in h) and any(c.isalpha() for c in h)}


def _same_rows(lines: Sequence[str], bench: str, plain: list[str], earlier: Sequence[Explained]) -> bool:
    """A table measured at the points of a table already read as `bench` in this post (`1-groups:`,
    `2-groups:` ... again, quoted further down): the same benchmark, however far it was named.
    (Rows named by systems say nothing: the same systems are compared under other benchmarks.)"""
    mine = _row_heads(lines)
    if len(mine) < 3:
        return False
    return any(e.rows and e.benchmark == bench and e.taken_for.startswith("hand_table")
               and len(mine & _row_heads(plain[e.line_start:e.line_end])) >= 3 for e in earlier)


def _same_metrics(t: Table, bench: str, plain: list[str], earlier: Sequence[Explained]) -> bool:
    """A table whose rows are the metrics of a table already read as `bench` in this post (mmtests'
    `MB/sec copy` ... `MB/sec triad` again under the heads of the next configurations)."""
    if t.orientation != "rows=metrics":
        return False
    mine = {" ".join(x.split()).lower() for x in t.labels if x}
    if len(mine) < 3:
        return False
    widths = {len(x.split()) for x in mine}  # an earlier row's label: its first words, as many as one of mine has
    for e in earlier:
        if e.rows and e.benchmark == bench and e.taken_for.endswith("rows=metrics)"):
            theirs = {" ".join(x.split()[:n]).lower() for x in plain[e.line_start:e.line_end] if x.strip()
                      for n in widths}
            if len(mine & theirs) >= 3:
                return True
    return False


def _col_benchmarks(t: Table, bench: str) -> dict[str, str | None]:
    """Column head -> benchmark when the heads name tools (`tbench (MB/s)`, `dbench`); None for a
    column of a tool not read here (`turbostat PkgWatt`). Only for tables whose rows are systems."""
    if t.orientation != "rows=systems":
        return {}
    out: dict[str, str | None] = {}
    for label in dict.fromkeys(v.label for v in t.values if v.label):
        found = evidence.benchmarks_in(label)
        if found:
            out[label] = found[0]
        elif evidence.other_benchmark(label) is not None:
            out[label] = None
    return out if any(out.values()) else {}  # only beside a column naming one of ours


def _named_configurations(plain: list[str], t: Table) -> bool:
    """Every row label of the table is a name the post gave a configuration in quotes
    (`16-way ppc with this patchset ("16-new")`): the rows are systems, not metrics."""
    labels = {(v.label or v.row).rstrip(": ") for v in t.values if v.label or v.row}
    if len(labels) < 2 or any(metrics.any_metric(x) for x in labels):
        return False
    text = "\n".join(plain)
    return all(any(f"{q}{x}{e}" in text for q, e in ('""', "''", "“”")) for x in labels)


_SUITE_TEST = re.compile(r"^[A-Za-z][\w-]{1,20}+/[A-Za-z][\w.-]{1,40}+$")  # `mmtests/kernbench`, `micromm/fork`


def _row_benchmarks(t: Table) -> dict[str, str]:
    """Row label -> benchmark, when rows name two or more benchmarks (a mixed table). A row naming
    another tool (`pybench`) maps to "" with the rows under it; where every row naming one of ours
    starts with its name (a column of tests: `hackbench 8 - Process`), a row naming none of ours
    (`nginx 200`) is another tool's too."""
    named: dict[str, str] = {}
    current: str | None = None
    leading = True
    labels = list(dict.fromkeys(v.row for v in t.values if v.row))
    if len(labels) >= 2 and all(_SUITE_TEST.match(label) for label in labels) \
            and any(evidence.benchmarks_in(label) for label in labels):
        # `mmtests/kernbench` over `micromm/fork`: a column of suites' tests, each row the test its
        # group names; a test not ours is another tool's
        return {label: next(iter(evidence.benchmarks_in(label)), "") for label in labels}
    for label in labels:
        found = evidence.benchmarks_in(label)
        if found:
            current = found[0]
            leading = leading and label.lower().startswith(current)
        elif evidence.other_benchmark(label) is not None:
            current = ""
        if current is not None:
            named[label] = current
    if len({b for b in named.values() if b}) < 2:
        return {}
    if leading:
        named = {label: named[label] if evidence.benchmarks_in(label) else "" for label in labels}
    return named


_RW = r"(?:rand)?(?:read|write|rw|trim)|readwrite"  # fio's I/O patterns, as `rw=` takes them
_FIO_RW = re.compile(rf"(?i)^[ \t]*+(?:{_RW})[ \t]*+:?$")
# `Here results are throughput (MB/s)`: a caption saying what the figures below are, and in what
_RESULTS_ARE = re.compile(r"(?i)\b(?:results?|numbers?|values?|figures?)[ \t]++(?:are|is)[ \t]++(?:the[ \t]++)?"
                          r"(?P<what>[a-z][\w/-]*+(?:[ \t]++[a-z][\w/-]*+){0,2})[ \t]*+\((?P<unit>[^()\n]{1,40}+)\)")
# fio's I/O engines as row labels (`io_uring  ~430K IOPS  ~3.4M IOPS`): how the job ran, no counter
_FIO_ENGINE = re.compile(r"(?i)^[ \t]*+(?:io_uring|libaio|psync|pvsync2?|sync|posixaio|mmap|windowsaio|spdk|xnvme)"
                         r"[ \t]*+:?$")
_FIO_LABEL_PARAMS = ((_FIO_RW, "rw"), (_FIO_ENGINE, "ioengine"))
# `1 stream  4 streams` as heads: how many ran at once, a parameter of the tool's headline measure
_COUNT_HEAD = re.compile(r"(?i)^[ \t]*+(?P<n>\d{1,5}+)[ \t]*+(?P<noun>streams?|clients?|threads?|jobs?|procs?|processes"
                         r"|connections?|flows?|queues?|groups?|tasks?|vcpus?|cpus?|vms?|guests?)[ \t]*+:?$")
# `read iops : 105,600`, `randwrite bw`: fio's I/O pattern, then the measure fio prints for it
_FIO_RW_MEASURE = re.compile(rf"(?i)^[ \t]*+(?P<rw>{_RW})[ \t]++"
                             r"(?P<measure>iops|bw|bandwidth)[ \t]*+:?$")
# mmtests' vmstat counters printed under its reports (`Ops NUMA hint faults  226763.00`): what the
# kernel did during the run, not what the benchmark measured (its `Duration Elapsed` is the run's time)
_MMTESTS_MONITOR = re.compile(r"^Ops\s++[A-Z]")
# what the count of an mmtests row (`Hmean  8`) is, per benchmark
_SERIES_PARAM = {"tbench": "clients", "dbench": "clients", "hackbench": "groups", "sysbench": "threads",
                 "stream": "threads", "kernbench": "jobs"}

# `dbench   8   16   32` over `bk19   470.84   433.47   360.04`: the tool's name in the corner, then the
# counts it ran with (rising) as the column heads
_TOOL_COUNTS = re.compile(r"^(?P<corner>(?P<tool>[A-Za-z][\w+-]{1,20}+)(?:[ \t]++\([^()\n]{1,40}+\))?[ \t]{2,}+)"
                          r"(?P<counts>\d{1,6}+(?:[ \t]++\d{1,6}+)++)[ \t]*+$")


def _counts_heads(lines: list[str]) -> list[str]:
    """A tool's name over its rows, then the counts it ran with: the corner is the name of those
    counts (`clients` for dbench, `groups` for hackbench), so the line reads as the table's heads
    rather than as a row of values."""
    out = list(lines)
    for i, line in enumerate(lines[:-1]):
        m = _TOOL_COUNTS.match(line) if len(line) <= 400 and line[:1].isalpha() else None
        tools = evidence.benchmarks_in(m["tool"]) if m else []
        if len(tools) != 1 or (name := _SERIES_PARAM.get(tools[0])) is None:
            continue
        counts = [int(x) for x in m["counts"].split()]
        below = lines[i + 1].split()
        if any(a >= b for a, b in zip(counts, counts[1:], strict=False)) or len(below) != len(counts) + 1 \
                or any(read_number(x) is None for x in below[1:]) or len(name) + 2 > len(m["corner"]):
            continue
        out[i] = name.ljust(len(m["corner"])) + line[len(m["corner"]):]
    return out


_SCALED_LABEL = re.compile(r"^(?P<label>[^()]{1,40}?)[ \t]*+\((?P<scale>[kMG])\)$")  # `IOPS (k)`, `rate (M)`


def _result(bench: str, line: int, label: str | None, value: float, unit: str | None, system: str | None,
            params: dict[str, str], layout: str, change: bool = False, statistic: str = "value",
            implied: bool = True) -> Result:
    printed: str | None = None  # a label read as a parameter, kept as the printed label
    if bench == "fio" and unit and label:
        # `read  471  1791` under `MiB/s  fuse  passthrough`, `io_uring  ~430K IOPS`: fio's I/O pattern
        # or engine, what was measured told by the unit (with no unit the label stays: a guess)
        key = next((k for pattern, k in _FIO_LABEL_PARAMS if pattern.match(label) and k not in params), None)
        if key is not None:
            params, label, printed = {**params, key: label.strip(" :").lower()}, None, label.strip(" :")
    if label and (counted := _COUNT_HEAD.match(label)) is not None:
        noun = counted["noun"].lower()
        key = "procs" if noun.startswith("proc") else noun if noun.endswith("s") else f"{noun}s"
        if key not in params:
            params, label = {**params, key: counted["n"]}, None
    if bench == "netperf" and label and "test" not in params and (test := label.strip(" :").upper()) in NETPERF_TESTS:
        params = {**params, "test": test}  # `TCP_RR : 21,304 trans/s`: the test, as the tool's rows say
    if bench == "fio" and label and "rw" not in params and (split := _FIO_RW_MEASURE.match(label)):
        printed = printed or label.strip(" :")
        params, label = {**params, "rw": split["rw"].lower()}, split["measure"]
    if bench == "fio" and system and _FIO_RW.match(system) and "rw" not in params:
        params, system = {**params, "rw": system.strip(" :").lower()}, None  # `randread  randwrite` heads: how fio ran
    if statistic != "value" and label and label.lower() in MEAN_STAT and bench in metrics.DEFAULT_METRIC:
        # mmtests' `Hmean  8  349.34`: a mean of the tool's headline figure; the printed label stays
        r = _result(bench, line, None, value, unit, system, params, layout, change, statistic, implied)
        r.metric_label = label
        return r
    if label and not unit and "/" in label and (as_unit := metrics.unit(label)) is not None:
        unit = as_unit  # `queries/s  30468.0  32204.0`: the row's label is its unit
    if label and not unit and (scaled := _SCALED_LABEL.match(label)):  # `IOPS (k): 120`: 120 IOPS at scale k
        label, params = scaled["label"], {**params, "scale": scaled["scale"]}
        unit = "IOPS" if metrics.unit(label) == "IOPS" else None
    u = metrics.resolve_unit(bench, unit or "")
    if u in ("k", "K", "M", "G"):  # `84k` is kept as printed: 84, at the scale the poster chose
        params = {**params, "scale": "k" if u == "K" else u}
        u = ""
    elif u in metrics.SCALED:  # `570 KIOPS` likewise: 570 IOPS at scale k
        scale, u = metrics.SCALED[u]
        params = {**params, "scale": scale}
    if bench == "fio" and not u and label is None and "scale" in params:
        label = "IOPS"  # `84k` with no unit: fio prints bandwidth with its unit, IOPS as a bare `84k`
    metric, metric_label = metrics.metric_for(bench, label, u)
    metric_label = printed or metric_label
    if change:
        if metrics.norm(metric_label or "") == bench and bench in metrics.DEFAULT_METRIC:
            metric = metrics.DEFAULT_METRIC[bench]  # a change under the tool's name: of its headline figure
        suffix = "ratio" if u == "x" else "change_pct"
        u = u or "%"
        metric = f"{metric}_{suffix}"
    else:
        spec_unit = metrics.spec_unit(bench, metric)
        if not implied:  # a ratio to a baseline column has no unit, nor the metric's own
            if spec_unit is not None and not metrics.allows(bench, metric, u or ""):
                metric = metrics.slug(metric_label) + "_ratio"
        elif u == "%" and spec_unit == "%CPU":
            u = spec_unit  # `CPU: 204.8%`: a CPU share is printed as a bare percentage
        elif not u and spec_unit is not None:
            u = spec_unit
        elif spec_unit is not None and not metrics.allows(bench, metric, u):
            by_unit = metrics.BY_UNIT.get(bench, {}).get(u)  # `TCP_RR  995.083 us`: a round trip's latency
            metric = by_unit if by_unit and metrics.allows(bench, by_unit, u) else metrics.slug(metric_label) + "_" + metrics.slug(u)
    spec = None if change else metric_spec(bench, metric)
    return Result(metric=metric, metric_label=metric_label, value=value, unit=u, params=params,
                  system=system, higher_is_better=spec.higher_is_better if spec else None,
                  statistic=statistic, line=line, layout=layout)


def _run(bench: str, results: list[Result], start: int, end: int, caption: str | None = None) -> Run:
    return Run(benchmark=bench, results=results, line_start=start, line_end=end, caption=caption)
